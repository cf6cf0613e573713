#!/usr/bin/env python3
"""Each `lifeline serve` hands out its own MessageIds, receipt handles and RequestIds, so a handle kept from before a
restart names no new message (it deleted one before) and a consumer that de-duplicates by MessageId drops nothing;
`--seed N` gives the same ids run to run, for a test's fixtures.

Usage: fresh_ids.py LIFELINE"""
import re
import subprocess
import sys
import urllib.request


def first_ids(*extra):
    process = subprocess.Popen([sys.argv[1], "serve", "--headless", "--port", "0", *extra], stdout=subprocess.PIPE,
                               text=True)
    try:
        url = "http://127.0.0.1:" + re.search(r"127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1)

        def call(body):
            request = urllib.request.Request(url, body.encode(),
                                             {"Content-Type": "application/x-www-form-urlencoded"})
            return urllib.request.urlopen(request, timeout=10).read().decode()

        queue = re.search(r"<QueueUrl>(.*)</QueueUrl>", call("Action=CreateQueue&QueueName=q")).group(1)
        sent = call(f"Action=SendMessage&QueueUrl={queue}&MessageBody=hello")
        received = call(f"Action=ReceiveMessage&QueueUrl={queue}")
        return (re.search(r"<MessageId>(.*?)</MessageId>", sent).group(1),
                re.search(r"<ReceiptHandle>(.*?)</ReceiptHandle>", received).group(1),
                re.search(r"<RequestId>(.*?)</RequestId>", sent).group(1))
    finally:
        process.terminate()
        process.wait(timeout=10)


a, b = first_ids(), first_ids()
for what, x, y in zip(("MessageId", "receipt handle", "RequestId"), a, b):
    assert x != y, f"two runs gave the same {what}: {x}"
print("ok   two runs, two sets of ids")
assert first_ids("--seed", "7")[:2] == first_ids("--seed", "7")[:2], "--seed 7 twice gave different ids"
print("ok   --seed repeats them")
print("all id cases passed")
