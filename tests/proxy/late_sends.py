#!/usr/bin/env python3
"""How many of a busy run's sends the proxy's recording counts: 2 producers send 2,000 messages through `lifeline
proxy` to `lifeline serve` while 6 consumers long-poll and delete, so most receives are answered before the sends that
made their messages. Prints the recording's sent, received and deleted counts, the lanes first seen (none should be:
every send went through the proxy) and the wall time. A benchmark to run by hand, not a test (it takes about 12 s).

Usage: late_sends.py LIFELINE"""
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

import boto3
from botocore.config import Config

LIFELINE = sys.argv[1]
MESSAGES, PRODUCERS, CONSUMERS = 2000, 2, 6
work = tempfile.mkdtemp(prefix="lifeline-late-sends-")


def start(args, env=None):
    process = subprocess.Popen([LIFELINE] + args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env=env)
    return process, "http://127.0.0.1:" + re.search(r"http://127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1)


upstream, upstream_url = start(["serve", "--headless", "--port", "0"])
env = dict(os.environ, AWS_ACCESS_KEY_ID="AKIALATESENDS0000000", AWS_SECRET_ACCESS_KEY="late", AWS_REGION="eu-west-1",
           HOME=work)
record = os.path.join(work, "late.lifeline")
proxy, proxy_url = start(["proxy", "--upstream", upstream_url, "--port", "0", "--headless", "--record", record], env)


def client(agent):
    return boto3.client("sqs", endpoint_url=proxy_url, region_name="us-east-1", aws_access_key_id="key-" + agent,
                        aws_secret_access_key="secret", config=Config(retries={"max_attempts": 0}, read_timeout=30,
                                                                      user_agent_extra=agent))


url = client("setup").create_queue(QueueName="jobs")["QueueUrl"]
deleted = [0]
lock = threading.Lock()


def produce(k):
    sqs = client(f"producer{k}")
    for i in range(MESSAGES // PRODUCERS):
        sqs.send_message(QueueUrl=url, MessageBody=f"job {k}-{i}")


def consume(k):
    sqs = client(f"consumer{k}")
    while True:
        with lock:
            if deleted[0] >= MESSAGES:
                return
        for message in sqs.receive_message(QueueUrl=url, WaitTimeSeconds=1, MaxNumberOfMessages=10).get("Messages", []):
            sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
            with lock:
                deleted[0] += 1


threads = [threading.Thread(target=consume, args=(k,)) for k in range(CONSUMERS)]
threads += [threading.Thread(target=produce, args=(k,)) for k in range(PRODUCERS)]
began = time.time()
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
wall = time.time() - began
proxy.send_signal(2)
proxy.wait(30)
upstream.terminate()
summary = json.loads(subprocess.run([LIFELINE, "run", record, "--summary"], capture_output=True, text=True).stdout)
csv_path = record + ".csv"
subprocess.run([LIFELINE, "run", record, "--csv", csv_path], capture_output=True, check=True)
first_seen = sum(1 for line in open(csv_path) if ",first-seen," in line)
print(f"{MESSAGES} messages, {PRODUCERS} producers, {CONSUMERS} long-polling consumers, {wall:.1f} s: recorded sent "
      f"{summary['sent']}, received {summary['received']}, deleted {summary['deleted']}, first seen {first_seen}")
