#!/usr/bin/env python3
"""A headless `lifeline serve` forgets what ended: after 200,000 messages sent, received and deleted, its resident
memory is within 10 MB of what it was after the first 10,000 (the default --history 0). Usage: headless_memory.py
LIFELINE"""
import http.client
import json
import re
import subprocess
import sys

MESSAGES = 200_000
WARM_UP = 10_000
LIMIT = 10 * 1024 * 1024

process = subprocess.Popen([sys.argv[1], "serve", "--headless", "--port", "0"], stdout=subprocess.PIPE, text=True)
port = int(re.search(r"127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1))
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)  # one keep-alive connection


def call(action, body):
    connection.request("POST", "/", json.dumps(body), {"X-Amz-Target": "AmazonSQS." + action,
                                                       "Content-Type": "application/x-amz-json-1.0"})
    response = connection.getresponse()
    data = json.loads(response.read())
    assert response.status == 200, f"{action}: {response.status} {data}"
    return data


def resident_bytes():
    with open(f"/proc/{process.pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+) kB", status.read()).group(1)) * 1024


def cycles(url, messages):
    """Sends, receives and deletes `messages` messages, ten at a time."""
    done = 0
    while done < messages:
        entries = [{"Id": str(i), "MessageBody": "job"} for i in range(10)]
        call("SendMessageBatch", {"QueueUrl": url, "Entries": entries})
        received = call("ReceiveMessage", {"QueueUrl": url, "MaxNumberOfMessages": 10, "WaitTimeSeconds": 0})
        handles = [m["ReceiptHandle"] for m in received.get("Messages", [])]
        if handles:
            deleted = call("DeleteMessageBatch", {"QueueUrl": url, "Entries": [
                {"Id": str(i), "ReceiptHandle": h} for i, h in enumerate(handles)]})
            assert not deleted.get("Failed"), deleted
        done += len(handles)


try:
    url = call("CreateQueue", {"QueueName": "memory"})["QueueUrl"]
    cycles(url, WARM_UP)
    baseline = resident_bytes()
    cycles(url, MESSAGES)
    growth = resident_bytes() - baseline
    print(f"resident memory: {baseline / 1048576:.1f} MiB after {WARM_UP} messages, "
          f"{growth / 1048576:+.2f} MiB after {MESSAGES} more ({growth / MESSAGES:.1f} bytes a message)")
    assert growth < LIMIT, f"grew by {growth} bytes, more than {LIMIT}"
    attributes = call("GetQueueAttributes", {"QueueUrl": url, "AttributeNames": ["All"]})["Attributes"]
    assert attributes["ApproximateNumberOfMessages"] == "0", attributes
    assert attributes["ApproximateNumberOfMessagesNotVisible"] == "0", attributes
    print("all cases passed: headless memory")
finally:
    connection.close()
    process.terminate()
    process.wait()
