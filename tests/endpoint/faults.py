#!/usr/bin/env python3
"""`lifeline serve --faults FILE` with Debian's boto3 (query protocol), on a manual clock: a duplicate-delivery
profile gives the same duplicates in two runs with the same seed (and after a reset), none with faults off; a copy
carries its message's MessageId and body; a sampled short poll returns fewer than are visible; the injected 500, 503
and throttling answer with SQS's codes, texts and statuses, and boto3's standard retry mode retries them as it does
against AWS (the retry counts boto3 reports); the control API reads, sets and clears a plan, and a bad one is a 400
naming its field; an answer held back by a latency fault makes boto3 time out and send twice.

Usage: faults.py LIFELINE"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import boto3
import botocore.config
import botocore.exceptions

work = tempfile.mkdtemp(prefix="lifeline-faults-")


def plan_file(plan):
    path = os.path.join(work, f"plan{len(os.listdir(work))}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(plan, f)
    return path


def start(*options, retries=None):
    process = subprocess.Popen([sys.argv[1], "serve", "--headless", "--port", "0", "--clock", "manual", "--seed", "1",
                                *options], stdout=subprocess.PIPE, text=True)
    url = "http://127.0.0.1:" + re.search(r"127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1)
    config = botocore.config.Config(retries=retries or {"mode": "standard", "total_max_attempts": 1})
    sqs = boto3.client("sqs", endpoint_url=url, region_name="us-east-1", aws_access_key_id="test",
                       aws_secret_access_key="test", config=config)
    return process, url, sqs


def stop(process):
    process.terminate()
    process.wait(timeout=10)


def check(label, got, expected):
    assert got == expected, f"{label}: expected {expected!r}, got {got!r}"
    print("ok  ", label)


def control(url, path, method="GET", body=None):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(url + path, data, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def drain(sqs, queue, orders=20):
    """Sends `orders` messages, then receives (short polls of 10) and deletes until two polls come back empty: every
    delivery in order, as (body, MessageId)."""
    for n in range(orders):
        sqs.send_message(QueueUrl=queue, MessageBody=f"order-{n}")
    seen, empty = [], 0
    while empty < 2:
        got = sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10, WaitTimeSeconds=0).get("Messages", [])
        empty = 0 if got else empty + 1
        for m in got:
            seen.append((m["Body"], m["MessageId"]))
            sqs.delete_message(QueueUrl=queue, ReceiptHandle=m["ReceiptHandle"])
    return seen


def duplicates(seen):
    bodies = [body for body, _ in seen]
    return sorted({body for body in bodies if bodies.count(body) > 1})


DUPLICATES = {"seed": 7, "faults": [{"kind": "duplicate", "rate": 0.3, "queue": "orders"}]}
runs = []
for run in range(2):
    process, url, sqs = start("--faults", plan_file(DUPLICATES))
    try:
        queue = sqs.create_queue(QueueName="orders")["QueueUrl"]
        seen = drain(sqs, queue)
        runs.append(seen)
        status, state = control(url, "/_lifeline/faults")
        check(f"run {run + 1}: GET /_lifeline/faults names the plan", state["plan"], DUPLICATES)
        check(f"run {run + 1}: the duplicates struck, as counted", state["struck"]["duplicate"], len(seen) - 20)
        if run == 1:
            # A reset starts the dice again from the seed: the same calls meet the same faults.
            check("reset", control(url, "/_lifeline/reset", "POST", {})[0], 200)
            queue = sqs.create_queue(QueueName="orders")["QueueUrl"]
            check("after a reset, the same duplicates", duplicates([(b, "") for b, _ in drain(sqs, queue)]),
                  duplicates(seen))
    finally:
        stop(process)
check("two runs with seed 7: the same deliveries, duplicates and all", runs[0], runs[1])
dup = duplicates(runs[0])
assert len(dup) >= 2, f"a rate of 0.3 over 20 messages gave {dup}"
print("ok   duplicated:", ", ".join(dup))
ids = {body: {i for b, i in runs[0] if b == body} for body in dup}
check("a copy carries its message's MessageId", all(len(v) == 1 for v in ids.values()), True)

process, url, sqs = start()
try:
    queue = sqs.create_queue(QueueName="orders")["QueueUrl"]
    seen = drain(sqs, queue)
    check("faults off: every order once", (len(seen), duplicates(seen)), (20, []))
    check("faults off: GET /_lifeline/faults", control(url, "/_lifeline/faults"), (200, {"plan": None, "struck": {}}))
    # A plan set over the control API, then a bad one (a 400 naming the field, the plan kept), then cleared.
    status, state = control(url, "/_lifeline/faults", "POST",
                            {"seed": 3, "faults": [{"kind": "shortPoll", "rate": 1, "queue": "orders"}]})
    check("POST /_lifeline/faults sets a plan", (status, state["plan"]["faults"][0]["kind"]), (200, "shortPoll"))
    for n in range(5):
        sqs.send_message(QueueUrl=queue, MessageBody=f"visible-{n}")
    got = sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10, WaitTimeSeconds=0).get("Messages", [])
    assert len(got) < 5, f"a sampled short poll returned all {len(got)} visible messages"
    print(f"ok   a sampled short poll returned {len(got)} of the 5 visible")
    check("a long poll is not sampled", len(sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10,
                                                                 WaitTimeSeconds=1).get("Messages", [])), 5 - len(got))
    status, error = control(url, "/_lifeline/faults", "POST", {"faults": [{"kind": "duplicate", "rate": 2}]})
    check("a bad plan: 400 naming the field", (status, error["error"]["field"]), (400, "faults[0].rate"))
    check("its words", error["error"]["message"], "a number from 0 to 1")
    check("the plan kept", control(url, "/_lifeline/faults")[1]["plan"]["faults"][0]["kind"], "shortPoll")
    status, error = control(url, "/_lifeline/faults", "POST", {"faults": [{"kind": "slow", "rate": 1}]})
    check("an unknown kind names the kinds", error["error"]["message"],
          "one of duplicate, shortPoll, throttling, internalError, serviceUnavailable, overLimit, kmsThrottled, "
          "kmsDisabled, latency")
    check("DELETE clears it", control(url, "/_lifeline/faults", "DELETE")[1]["plan"], None)
finally:
    stop(process)

# The refusals, as SQS answers them (no retries), then as boto3's standard retry mode meets them: it retries a 500,
# a 503 and a throttle and reports how many times.
REFUSALS = [("internalError", "InternalFailure",
             "The request processing has failed because of an unknown error, exception or failure.", 500),
            ("serviceUnavailable", "ServiceUnavailable",
             "The request has failed due to a temporary failure of the server.", 503),
            ("throttling", "ThrottlingException", "The request was denied due to request throttling.", 400)]
for kind, code, message, status in REFUSALS:
    plan = plan_file({"faults": [{"kind": kind, "at": ["0s", "0s", "1s"], "action": "SendMessage"}]})
    process, url, sqs = start("--faults", plan)
    try:
        queue = sqs.create_queue(QueueName="orders")["QueueUrl"]
        try:
            sqs.send_message(QueueUrl=queue, MessageBody="refused")
            raise AssertionError(f"{kind}: the send was accepted")
        except botocore.exceptions.ClientError as error:
            got = (error.response["Error"]["Code"], error.response["Error"]["Message"],
                   error.response["ResponseMetadata"]["HTTPStatusCode"])
            check(f"{kind}: SQS's code, text and status", got, (code, message, status))
        check(f"{kind}: nothing sent", sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=[
            "ApproximateNumberOfMessages"])["Attributes"]["ApproximateNumberOfMessages"], "0")
    finally:
        stop(process)
    process, url, sqs = start("--faults", plan_file({"faults": [{"kind": kind, "rate": 1, "limit": 2,
                                                                  "action": "SendMessage"}]}),
                              retries={"mode": "standard", "total_max_attempts": 3})
    try:
        queue = sqs.create_queue(QueueName="orders")["QueueUrl"]
        sent = sqs.send_message(QueueUrl=queue, MessageBody="retried")
        check(f"{kind}: boto3 (standard mode) retried twice and sent", sent["ResponseMetadata"]["RetryAttempts"], 2)
        check(f"{kind}: the refusals counted", control(url, "/_lifeline/faults")[1]["struck"][kind], 2)
    finally:
        stop(process)

# A KMS fault strikes only a queue with a KMS key.
process, url, sqs = start("--faults", plan_file({"faults": [{"kind": "kmsDisabled", "rate": 1}]}))
try:
    plain = sqs.create_queue(QueueName="plain")["QueueUrl"]
    sqs.send_message(QueueUrl=plain, MessageBody="not encrypted: sent")
    secret = sqs.create_queue(QueueName="secret", Attributes={"KmsMasterKeyId": "alias/aws/sqs"})["QueueUrl"]
    try:
        sqs.send_message(QueueUrl=secret, MessageBody="encrypted")
        raise AssertionError("kmsDisabled: the send to an encrypted queue was accepted")
    except botocore.exceptions.ClientError as error:
        check("kmsDisabled on an encrypted queue", (error.response["Error"]["Code"],
                                                    error.response["ResponseMetadata"]["HTTPStatusCode"]),
              ("KMS.DisabledException", 400))
finally:
    stop(process)

# Added latency: the call takes effect when it comes, its answer is held back. On a manual clock it waits for an
# advance, so boto3's read timeout (1 s) ends first and its standard retry mode sends again: the message is sent twice,
# as a slow answer makes a real client do. On a running clock (10x) a 5 s latency answers after half a second.
process, url, sqs = start("--faults", plan_file({"faults": [{"kind": "latency", "delay": "5s", "at": ["0s"],
                                                              "action": "SendMessage"}]}),
                          retries={"mode": "standard", "total_max_attempts": 2})
try:
    queue = sqs.create_queue(QueueName="orders")["QueueUrl"]
    slow = boto3.client("sqs", endpoint_url=url, region_name="us-east-1", aws_access_key_id="test",
                        aws_secret_access_key="test", config=botocore.config.Config(
                            read_timeout=1, retries={"mode": "standard", "total_max_attempts": 2}))
    sent = slow.send_message(QueueUrl=queue, MessageBody="sent once")
    check("latency: boto3's read timeout ended first and it retried", sent["ResponseMetadata"]["RetryAttempts"], 1)
    bodies = [m["Body"] for m in sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10,
                                                    WaitTimeSeconds=0).get("Messages", [])]
    check("latency: the first call took effect, so the message is there twice", bodies, ["sent once", "sent once"])
    check("latency: counted", control(url, "/_lifeline/faults")[1]["struck"]["latency"], 1)
finally:
    stop(process)
process = subprocess.Popen([sys.argv[1], "serve", "--headless", "--port", "0", "--speed", "10", "--faults",
                            plan_file({"faults": [{"kind": "latency", "delay": "5s", "rate": 1,
                                                   "action": "SendMessage"}]})], stdout=subprocess.PIPE, text=True)
url = "http://127.0.0.1:" + re.search(r"127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1)
try:
    sqs = boto3.client("sqs", endpoint_url=url, region_name="us-east-1", aws_access_key_id="test",
                       aws_secret_access_key="test")
    queue = sqs.create_queue(QueueName="orders")["QueueUrl"]
    began = time.monotonic()
    sent = sqs.send_message(QueueUrl=queue, MessageBody="late")
    waited = time.monotonic() - began
    assert waited >= 0.5, f"a 5 s latency at 10x answered after {waited:.3f} s"
    check("latency on a running clock: answered, not retried", sent["ResponseMetadata"]["RetryAttempts"], 0)
    print(f"ok   a 5 s latency at 10x answered after {waited:.3f} s")
finally:
    stop(process)

for bad, words in [("{", "not JSON"), ('{"faults": [{"kind": "duplicate"}]}', "faults[0]: a \"rate\""),
                   ('{"faults": [{"kind": "duplicate", "rate": 0.1, "action": "SendMessage"}]}',
                    "faults[0].action: a duplicate fault happens on ReceiveMessage only")]:
    path = os.path.join(work, "bad.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(bad)
    result = subprocess.run([sys.argv[1], "serve", "--headless", "--port", "0", "--faults", path],
                            capture_output=True, text=True, timeout=30)
    check(f"--faults with {bad[:30]!r}: exit 2", result.returncode, 2)
    assert words in result.stderr, f"expected {words!r} in {result.stderr!r}"
print("all fault cases passed")
