#!/usr/bin/env python3
"""Real boto3 against `lifeline serve`: message lifecycles and AWS's recorded errors, in the protocol this boto3
speaks (Debian's 1.26 speaks query, boto3 >= 1.34.90 JSON). Usage: real_clients.py LIFELINE SNAPSHOT.json [query|json]

The server runs at --speed 10 (ten virtual seconds a wall second), so timeouts pass quickly; waits here are short."""
import json
import re
import subprocess
import sys
import threading
import time

import boto3
import botocore
from botocore.config import Config
from botocore.exceptions import ClientError

LIFELINE, SNAPSHOT = sys.argv[1], sys.argv[2]
EXPECTED_PROTOCOL = sys.argv[3] if len(sys.argv) > 3 else None
SPEED = 10


def start_server():
    process = subprocess.Popen([LIFELINE, "serve", "--headless", "--port", "0", "--speed", str(SPEED)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    if not match:
        process.kill()
        raise SystemExit("lifeline serve did not start: " + line)
    return process, "http://127.0.0.1:" + match.group(1)


process, endpoint = start_server()
sqs = boto3.client("sqs", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="test",
                   aws_secret_access_key="test", config=Config(retries={"max_attempts": 0}, read_timeout=30))
protocol = sqs.meta.service_model.protocol
print(f"boto3 {boto3.__version__} botocore {botocore.__version__}: {protocol} protocol against {endpoint}")
if EXPECTED_PROTOCOL and protocol != EXPECTED_PROTOCOL:
    raise SystemExit(f"expected a {EXPECTED_PROTOCOL} client, this one speaks {protocol}")
snapshot = json.load(open(SNAPSHOT))
failures = []


def case(function):
    try:
        function()
        print("ok  ", function.__name__)
    except Exception as error:  # report every case, then fail
        failures.append(function.__name__)
        print("FAIL", function.__name__, repr(error))
    return function


def wall(virtual_seconds):
    time.sleep(virtual_seconds / SPEED)


def recorded(test, key):
    variant = "sqs_query" if protocol == "query" else "sqs"
    for name, entry in snapshot.items():
        if name.endswith(f"::{test}[{variant}]") or name.endswith(f"::{test}"):
            content = entry["recorded-content"]
            if key in content:
                return content[key]
            if key + "-query" in content and protocol == "query":
                return content[key + "-query"]
    raise KeyError(f"{test}/{key} for {variant}")


def expect_error(call, test, key, **replace):
    try:
        call()
    except ClientError as error:
        want = recorded(test, key)
        if protocol == "query" and key + "-query" in snapshot_content(test):
            want = snapshot_content(test)[key + "-query"]
        got = error.response
        message = want["Error"]["Message"]
        for placeholder, value in replace.items():
            message = message.replace(placeholder, value)
        assert got["Error"]["Code"] == want["Error"]["Code"], (got["Error"], want["Error"])
        assert got["Error"]["Message"] == message, (got["Error"]["Message"], message)
        # QueryErrorCode comes from the JSON protocol's __type; a query-protocol botocore 1.29 has no such field.
        if protocol == "json" and "QueryErrorCode" in want["Error"]:
            assert got["Error"].get("QueryErrorCode") == want["Error"]["QueryErrorCode"], got["Error"]
        assert got["ResponseMetadata"]["HTTPStatusCode"] == want["ResponseMetadata"]["HTTPStatusCode"]
        return
    raise AssertionError(f"{test}/{key}: no error")


def snapshot_content(test):
    variant = "sqs_query" if protocol == "query" else "sqs"
    for name, entry in snapshot.items():
        if name.endswith(f"::{test}[{variant}]") or name.endswith(f"::{test}"):
            return entry["recorded-content"]
    return {}


def queue(name, **attributes):
    return sqs.create_queue(QueueName=name, Attributes={k: str(v) for k, v in attributes.items()})["QueueUrl"]


def count(url, name):
    return sqs.get_queue_attributes(QueueUrl=url, AttributeNames=[name])["Attributes"][name]


@case
def delay_queue_and_message_timer():
    url = queue("delayed", DelaySeconds=4)
    sqs.send_message(QueueUrl=url, MessageBody="later")
    assert "Messages" not in sqs.receive_message(QueueUrl=url, WaitTimeSeconds=0)
    assert count(url, "ApproximateNumberOfMessagesDelayed") == "1"
    wall(6)
    assert sqs.receive_message(QueueUrl=url)["Messages"][0]["Body"] == "later"
    plain = queue("timers")
    sqs.send_message(QueueUrl=plain, MessageBody="timer", DelaySeconds=4)
    assert count(plain, "ApproximateNumberOfMessagesDelayed") == "1"
    wall(6)
    assert count(plain, "ApproximateNumberOfMessages") == "1"


@case
def visibility_expiry_redelivers_with_a_new_receipt_handle():
    url = queue("visibility", VisibilityTimeout=3)
    sqs.send_message(QueueUrl=url, MessageBody="job")
    first = sqs.receive_message(QueueUrl=url, AttributeNames=["ApproximateReceiveCount"])["Messages"][0]
    assert first["Attributes"]["ApproximateReceiveCount"] == "1"
    assert "Messages" not in sqs.receive_message(QueueUrl=url)
    assert count(url, "ApproximateNumberOfMessagesNotVisible") == "1"
    wall(5)
    second = sqs.receive_message(QueueUrl=url, AttributeNames=["ApproximateReceiveCount"])["Messages"][0]
    assert second["MessageId"] == first["MessageId"]
    assert second["Attributes"]["ApproximateReceiveCount"] == "2"
    assert second["ReceiptHandle"] != first["ReceiptHandle"]
    sqs.delete_message(QueueUrl=url, ReceiptHandle=second["ReceiptHandle"])
    assert count(url, "ApproximateNumberOfMessagesNotVisible") == "0"


@case
def change_message_visibility_to_zero_makes_it_visible_now():
    url = queue("cmv")
    sqs.send_message(QueueUrl=url, MessageBody="job")
    message = sqs.receive_message(QueueUrl=url, VisibilityTimeout=600)["Messages"][0]
    sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"], VisibilityTimeout=0)
    again = sqs.receive_message(QueueUrl=url)["Messages"][0]
    assert again["MessageId"] == message["MessageId"]
    result = sqs.change_message_visibility_batch(QueueUrl=url, Entries=[
        {"Id": "a", "ReceiptHandle": again["ReceiptHandle"], "VisibilityTimeout": 30}])
    assert [e["Id"] for e in result["Successful"]] == ["a"]


@case
def dead_letter_queue_after_max_receive_count():
    dlq = queue("orders-dlq")
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    url = queue("orders", VisibilityTimeout=2,
                RedrivePolicy=json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": 2}))
    sent = sqs.send_message(QueueUrl=url, MessageBody="poison")["MessageId"]
    for _ in range(2):
        assert sqs.receive_message(QueueUrl=url)["Messages"][0]["MessageId"] == sent
        wall(3)
    assert "Messages" not in sqs.receive_message(QueueUrl=url)  # the third receive moves it instead
    moved = sqs.receive_message(QueueUrl=dlq, AttributeNames=["All"])["Messages"][0]
    assert moved["MessageId"] == sent
    assert moved["Attributes"]["DeadLetterQueueSourceArn"].endswith(":orders")
    assert sqs.list_dead_letter_source_queues(QueueUrl=dlq)["queueUrls"] == [url]


@case
def fifo_group_order_and_blocking():
    url = queue("jobs.fifo", FifoQueue="true", ContentBasedDeduplication="true")
    for group, body in [("g1", "a"), ("g1", "b"), ("g2", "c")]:
        sqs.send_message(QueueUrl=url, MessageBody=body, MessageGroupId=group)
    first = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1)["Messages"]
    assert [m["Body"] for m in first] == ["a"]
    blocked = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
    assert [m["Body"] for m in blocked] == ["c"]  # g1 waits while "a" is in flight
    sqs.delete_message(QueueUrl=url, ReceiptHandle=first[0]["ReceiptHandle"])
    assert [m["Body"] for m in sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]] == ["b"]


@case
def long_poll_returns_as_soon_as_a_message_arrives():
    url = queue("polled")
    result = {}

    def poll():
        started = time.monotonic()
        result["response"] = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)
        result["seconds"] = time.monotonic() - started

    waiter = threading.Thread(target=poll)
    waiter.start()
    time.sleep(0.3)
    sqs.send_message(QueueUrl=url, MessageBody="now")
    waiter.join(timeout=10)
    assert result["response"]["Messages"][0]["Body"] == "now"
    assert result["seconds"] < 1.5, result["seconds"]  # the wait was 20 virtual s = 2 wall s


@case
def permissions_are_kept_in_the_policy():
    url = queue("shared")
    grant = lambda: sqs.add_permission(QueueUrl=url, Label="crossaccountpermission", AWSAccountIds=["111122223333"],
                                       Actions=["SendMessage"])
    grant()
    statement = json.loads(count(url, "Policy"))["Statement"][0]
    assert statement["Principal"] == {"AWS": "arn:aws:iam::111122223333:root"}, statement
    assert statement["Action"] == "SQS:SendMessage", statement
    expect_error(grant, "test_sqs_permission_lifecycle", "get-queue-policy-attribute-second-account-same-label")
    sqs.remove_permission(QueueUrl=url, Label="crossaccountpermission")
    assert "Attributes" not in sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["Policy"])


@case
def a_fair_queue_serves_the_quiet_tenant_first():
    # The probe: 200 of tenant A, 50 of them held in flight, then 5 of tenant B; AWS serves B first.
    url = queue("tenants", VisibilityTimeout="3600")
    for start in range(0, 200, 10):
        sqs.send_message_batch(QueueUrl=url, Entries=[
            {"Id": str(i), "MessageBody": f"a{i + 1}", "MessageGroupId": "tenant-a"} for i in range(start, start + 10)])
    for _ in range(5):
        sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)
    sqs.send_message_batch(QueueUrl=url, Entries=[
        {"Id": str(i), "MessageBody": f"b{i + 1}", "MessageGroupId": "tenant-b"} for i in range(5)])
    got = [m["Body"] for m in sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]]
    assert got == ["b1", "b2", "b3", "b4", "b5", "a51", "a52", "a53", "a54", "a55"], got


@case
def recorded_errors_match_aws():
    expect_error(lambda: sqs.get_queue_url(QueueName="does-not-exist"), "test_non_existent_queue",
                 "queue-does-not-exist-query" if protocol == "query" else "queue-does-not-exist")
    fifo = queue("errors.fifo", FifoQueue="true")
    expect_error(lambda: sqs.send_message(QueueUrl=fifo, MessageBody="x", MessageGroupId="g",
                                          MessageDeduplicationId="d", DelaySeconds=2),
                 "test_fifo_queue_send_message_with_delay_seconds_fails", "send_message")
    expect_error(lambda: sqs.send_message_batch(QueueUrl=fifo, Entries=[
        {"Id": "1", "MessageBody": "x", "MessageDeduplicationId": "d"}]),
        "test_send_batch_missing_message_group_id_for_fifo_queue", "test_missing_message_group_id_for_fifo_queue")
    plain = queue("errors")
    expect_error(lambda: sqs.send_message_batch(QueueUrl=plain, Entries=[
        {"Id": str(i), "MessageBody": "x"} for i in range(20)]),
        "test_too_many_entries_in_batch_request", "test_too_many_entries_in_batch_request")
    expect_error(lambda: sqs.send_message_batch(QueueUrl=plain, Entries=[{"Id": "invalid:id", "MessageBody": "x"}]),
                 "test_invalid_batch_id", "test_invalid_batch_id")
    sqs.purge_queue(QueueUrl=plain)
    expect_error(lambda: sqs.purge_queue(QueueUrl=plain), "test_successive_purge_calls_fail", "purge_queue_error",
                 **{"<queue-name>": "errors"})
    queue("exists", DelaySeconds=1)
    expect_error(lambda: queue("exists", DelaySeconds=2),
                 "test_create_queue_with_different_attributes_raises_exception", "create_queue_01")


process.terminate()
process.wait(timeout=5)
if failures:
    raise SystemExit(f"{len(failures)} case(s) failed: {', '.join(failures)}")
print(f"all cases passed ({protocol})")
