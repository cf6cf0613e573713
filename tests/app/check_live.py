#!/usr/bin/env python3
"""`lifeline check --queue-url`: a live queue read with SigV4 and the user's credentials. Against `lifeline serve`:
its attributes and its DLQ's (found through GetQueueUrl) give exact findings; a queue that does not exist, a URL that
is not one, no credentials and plain http elsewhere exit 2 with their messages; the secret is never printed. Against
moto_server where the machine has it (Debian's archive lacks it): `--lambda-mappings` reads the event source mapping
and its function's timeout through Lambda's API.

Usage: check_live.py LIFELINE"""
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import zipfile

import boto3

LIFELINE = sys.argv[1]
KEY_ID, SECRET = "AKIDCHECKLIVE", "check-live-secret-never-printed"
work = tempfile.mkdtemp(prefix="lifeline-check-live-")
ENV = dict(os.environ, AWS_ACCESS_KEY_ID=KEY_ID, AWS_SECRET_ACCESS_KEY=SECRET, AWS_REGION="eu-west-1", HOME=work)
for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "AWS_CA_BUNDLE"):
    ENV.pop(name, None)


def check(label, got, expected):
    assert got == expected, f"{label}: expected {expected!r}, got {got!r}"
    print("ok  ", label)


def run(*args, env=ENV):
    done = subprocess.run([LIFELINE, "check", *args], capture_output=True, text=True, timeout=120, env=env)
    assert SECRET not in done.stdout + done.stderr, "the secret was printed"
    return done.returncode, done.stdout, done.stderr


def findings(url, *options):
    status, out, err = run("--queue-url", url, "--format", "json", *options)
    assert err == "", err
    queue = json.loads(out)["queues"][0]
    return status, queue["queue"], [(f["id"], f["severity"]) for f in queue["findings"]], queue["unknown"]


serve = subprocess.Popen([LIFELINE, "serve", "--headless", "--port", "0"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
try:
    endpoint = "http://127.0.0.1:" + re.search(r"http://127\.0\.0\.1:(\d+)", serve.stdout.readline()).group(1)
    sqs = boto3.client("sqs", endpoint_url=endpoint, region_name="eu-west-1", aws_access_key_id="x",
                       aws_secret_access_key="y")
    dlq_url = sqs.create_queue(QueueName="orders-dlq")["QueueUrl"]
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    url = sqs.create_queue(QueueName="orders", Attributes={
        "VisibilityTimeout": "10", "MaximumMessageSize": "262144",
        "RedrivePolicy": json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": 5}),
        "Policy": json.dumps({"Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Principal": "*", "Action": "sqs:SendMessage", "Resource": "*"}]})})["QueueUrl"]

    status, name, got, unknown = findings(url, "--processing", "p50=2s,p99=40s", "--consumers", "4",
                                          "--wait-time", "20")
    check("serve: exit 1 on a high finding", status, 1)
    check("serve: the queue by its name", name, "orders")
    # dlq-retention-not-longer fires only with the DLQ's attributes read: both keep SQS's 4 days.
    check("serve: findings from the queue's and its DLQ's attributes", got,
          [("visibility-shorter-than-processing", "high"), ("dlq-retention-not-longer", "high"),
           ("queue-policy-public", "high"), ("message-size-old-default", "low")])
    check("serve: nothing left unknown", unknown, [])
    sqs.set_queue_attributes(QueueUrl=dlq_url, Attributes={"MessageRetentionPeriod": "1209600"})
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"VisibilityTimeout": "60", "Policy": "",
                                                       "MaximumMessageSize": "1048576"})
    status, _, got, _ = findings(url, "--processing", "p50=2s,p99=40s", "--consumers", "4", "--wait-time", "20",
                                 "--fail-on", "low")
    check("serve: the fixed queue read again: no finding, exit 0", (status, got), (0, []))

    status, out, _ = run("--queue-url", url, "--processing", "1s", "--wait-time", "20", "--format", "sarif")
    check("SARIF: the queue URL is the location", json.loads(out)["runs"][0]["results"], [])
    status, out, _ = run("--queue-url", url, "--processing", "1s")
    check("text: the queue and its URL", out.splitlines()[0], f"orders ({url})")

    missing = endpoint + "/000000000000/nothing"
    status, _, err = run("--queue-url", missing, "--processing", "1s")
    # In the query protocol's words, which every SQS speaks.
    check("a queue that does not exist: exit 2, SQS's code and text", (status, err.strip()),
          (2, "lifeline check: --queue-url: GetQueueAttributes: AWS.SimpleQueueService.NonExistentQueue (HTTP 400): "
              "The specified queue does not exist for this wsdl version."))
    status, out, err = run("--queue-url", url)
    check("no consumer side: the rules that need it listed, what to give, the others run",
          (status, err, [line for line in out.splitlines() if line.startswith("  not checked")]),
          (0, "", ["  not checked without processing times: visibility-shorter-than-processing, "
                   "batch-exceeds-visibility, lambda-processing-over-timeout, backlog-grows, tenants-without-group-id "
                   "(give --processing: SQS does not know how long your consumers take)"]))
    status, _, err = run("--queue-url", "orders", "--processing", "1s")
    check("not a URL: exit 2", (status, err.strip()),
          (2, "lifeline check: --queue-url: 'orders' is not a queue URL "
              "(https://sqs.REGION.amazonaws.com/ACCOUNT/NAME)"))
    status, _, err = run("--queue-url", "http://sqs.example.com/1/orders", "--processing", "1s")
    check("plain http elsewhere: refused", (status, err.strip().split(":")[:3]),
          (2, ["lifeline check", " --queue-url", " refusing plain http to sqs.example.com, which is not this machine"]))
    bare = {k: v for k, v in ENV.items() if not k.startswith("AWS_")}
    bare["HOME"] = "/nonexistent"
    status, _, err = run("--queue-url", url, "--processing", "1s", env=bare)
    check("no credentials: exit 2, where they were looked for", (status, err.startswith(
        "lifeline check: --queue-url: no AWS credentials: set AWS_ACCESS_KEY_ID")), (2, True))
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    status, _, err = run("--queue-url", f"http://127.0.0.1:{port}/000000000000/orders", "--processing", "1s")
    check("nothing listening: exit 2, the endpoint named", (status, err.startswith(
        f"lifeline check: --queue-url: GetQueueAttributes: http://127.0.0.1:{port} did not answer: ")), (2, True))
finally:
    serve.kill()
    serve.wait()


def moto_part():
    moto = shutil.which("moto_server")
    if not moto:
        print("     moto_server is not on this machine (Debian's archive lacks it): its part is skipped")
        return
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = subprocess.Popen([moto, "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        moto_url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        session = dict(endpoint_url=moto_url, region_name="eu-west-1", aws_access_key_id=KEY_ID,
                       aws_secret_access_key=SECRET)
        sqs = boto3.client("sqs", **session)
        url = sqs.create_queue(QueueName="jobs", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
        arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        role = boto3.client("iam", **session).create_role(
            RoleName="jobs-role", AssumeRolePolicyDocument=json.dumps({"Version": "2012-10-17", "Statement": []}))
        code = io.BytesIO()
        with zipfile.ZipFile(code, "w") as z:
            z.writestr("app.py", "def handler(event, context):\n    return None\n")
        aws_lambda = boto3.client("lambda", **session)
        aws_lambda.create_function(FunctionName="process-jobs", Runtime="python3.12", Handler="app.handler",
                                   Role=role["Role"]["Arn"], Code={"ZipFile": code.getvalue()}, Timeout=60)
        aws_lambda.create_event_source_mapping(EventSourceArn=arn, FunctionName="process-jobs", BatchSize=5)
        status, name, got, _ = findings(url, "--lambda-mappings", "--processing", "1s")
        check("moto: the trigger read through Lambda's API: the function's 60 s over the queue's 30 s",
              (status, got[0]), (1, ("lambda-visibility-under-timeout", "high")))
        status, out, _ = run("--queue-url", url, "--lambda-mappings", "--processing", "1s")
        check("moto: in Lambda's words", "Queue visibility timeout: 30 seconds is less than Function timeout: 60 "
              "seconds" in out, True)
        status, _, got, _ = findings(url, "--processing", "1s")
        check("moto: without --lambda-mappings the consumers are the options'", [g[0] for g in got],
              ["no-dlq", "short-polling"])
    finally:
        server.kill()
        server.wait()


moto_part()
shutil.rmtree(work, ignore_errors=True)
print("all live check cases passed")
