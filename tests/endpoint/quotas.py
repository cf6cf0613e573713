#!/usr/bin/env python3
"""`lifeline serve --quotas`: a FIFO queue takes 300 SendMessage calls a second; the 301st is refused as SQS refuses
it, and the next second takes sends again. Debian's boto3 (query protocol) on a manual clock, so "a second" is the
virtual one the test moves. Without --quotas nothing is throttled.

Usage: quotas.py LIFELINE"""
import json
import re
import subprocess
import sys
import urllib.request

import boto3
import botocore.config
import botocore.exceptions


def start(*options):
    process = subprocess.Popen([sys.argv[1], "serve", "--headless", "--port", "0", "--clock", "manual", *options],
                               stdout=subprocess.PIPE, text=True)
    url = "http://127.0.0.1:" + re.search(r"127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1)
    sqs = boto3.client("sqs", endpoint_url=url, region_name="us-east-1", aws_access_key_id="test",
                       aws_secret_access_key="test", config=botocore.config.Config(retries={"max_attempts": 1}))
    return process, url, sqs


def check(label, got, expected):
    assert got == expected, f"{label}: expected {expected!r}, got {got!r}"
    print("ok  ", label)


def send_fifo(sqs, queue, n):
    sqs.send_message(QueueUrl=queue, MessageBody=f"m{n}", MessageGroupId="g", MessageDeduplicationId=f"m{n}")


def depth(sqs, queue):
    return sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["ApproximateNumberOfMessages"])["Attributes"][
        "ApproximateNumberOfMessages"]


process, url, sqs = start("--quotas")
try:
    queue = sqs.create_queue(QueueName="orders.fifo", Attributes={"FifoQueue": "true"})["QueueUrl"]
    for n in range(300):
        send_fifo(sqs, queue, n)
    try:
        send_fifo(sqs, queue, 300)
        raise AssertionError("the 301st send in a second was accepted")
    except botocore.exceptions.ClientError as error:
        check("the 301st SendMessage in a second: the error", error.response["Error"]["Code"], "ThrottlingException")
        check("its text", error.response["Error"]["Message"], "The request was denied due to request throttling.")
        check("its status", error.response["ResponseMetadata"]["HTTPStatusCode"], 400)
    check("nothing was sent", depth(sqs, queue), "300")
    request = urllib.request.Request(url + "/_lifeline/clock/advance", json.dumps({"by": "1s"}).encode(), method="POST")
    urllib.request.urlopen(request, timeout=10).read()
    send_fifo(sqs, queue, 300)
    check("the next second sends again", depth(sqs, queue), "301")
finally:
    process.terminate()
    process.wait(timeout=10)

process, url, sqs = start()
try:
    queue = sqs.create_queue(QueueName="orders.fifo", Attributes={"FifoQueue": "true"})["QueueUrl"]
    for n in range(301):
        send_fifo(sqs, queue, n)
    check("without --quotas the 301st is sent", depth(sqs, queue), "301")
finally:
    process.terminate()
    process.wait(timeout=10)
print("all quota cases passed")
