#!/usr/bin/env python3
"""Lifeline's SigV4 signer against botocore's SigV4Auth on a table of SQS requests: both protocols, query strings and
bodies with reserved characters, with and without a session token, several regions. Usage: sigv4_vs_botocore.py TOOL"""
import datetime
import json
import subprocess
import sys
from unittest import mock

import botocore
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

TOOL = sys.argv[1]
EPOCH = 1764574200  # 2025-12-01T07:30:00Z
QUEUE = "https://sqs.{region}.amazonaws.com/123456789012/orders"

cases = []
for region in ["us-east-1", "eu-west-1", "ap-southeast-2"]:
    for token in ["", "IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQ+token/with=special"]:
        host = f"sqs.{region}.amazonaws.com"
        cases.append({"method": "POST", "host": host, "path": "/", "query": "",
                      "headers": [["Content-Type", "application/x-amz-json-1.0"],
                                  ["X-Amz-Target", "AmazonSQS.SendMessage"], ["x-amzn-query-mode", "true"]],
                      "body": json.dumps({"QueueUrl": QUEUE.format(region=region),
                                          "MessageBody": "héllo & <world> = 100% \"quoted\" +plus"}),
                      "region": region, "token": token})
        cases.append({"method": "POST", "host": host, "path": "/", "query": "",
                      "headers": [["Content-Type", "application/x-www-form-urlencoded; charset=utf-8"]],
                      "body": "Action=SendMessage&Version=2012-11-05&QueueUrl=https%3A%2F%2Fsqs.us-east-1.amazonaws"
                              ".com%2F123456789012%2Forders&MessageBody=a%20b%26c%3Dd%2Be",
                      "region": region, "token": token})
        cases.append({"method": "GET", "host": host, "path": "/123456789012/orders",
                      "query": "Action=ReceiveMessage&Version=2012-11-05&AttributeName.1=All&MaxNumberOfMessages=10"
                               "&MessageAttributeName.1=Hel.%2A&VisibilityTimeout=30",
                      "headers": [], "body": "", "region": region, "token": token})
cases.append({"method": "POST", "host": "127.0.0.1:9324", "path": "/000000000000/my%20queue", "query": "b=2&a=1&a=0",
              "headers": [["Content-Type", "application/x-amz-json-1.0"], ["X-Amz-Target", "AmazonSQS.ListQueues"],
                          ["User-Agent", "Boto3/1.26.27"], ["X-Amzn-Trace-Id", "Root=1-abc"]],
              "body": "{}", "region": "us-east-1", "token": ""})

requests = [{**{k: v for k, v in c.items() if k != "token"}, "accessKeyId": "AKIDEXAMPLE",
             "secretAccessKey": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "sessionToken": c["token"],
             "service": "sqs", "epoch": EPOCH} for c in cases]
ours = json.loads(subprocess.run([TOOL], input=json.dumps(requests), capture_output=True, text=True,
                                 check=True).stdout)

fixed = datetime.datetime.utcfromtimestamp(EPOCH)
failures = 0
for case, request, mine in zip(cases, requests, ours):
    url = f"https://{case['host']}{case['path']}" + (f"?{case['query']}" if case["query"] else "")
    if case["host"].startswith("127."):
        url = url.replace("https://", "http://")
    aws = AWSRequest(method=case["method"], url=url, data=case["body"].encode(), headers=dict(case["headers"]))
    credentials = Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", case["token"] or None)
    with mock.patch("botocore.auth.datetime") as clock:  # botocore 1.29 reads datetime.utcnow()
        clock.datetime.utcnow.return_value = fixed
        clock.datetime.now.return_value = fixed
        if hasattr(botocore.auth, "get_current_datetime"):  # newer botocore reads this
            with mock.patch("botocore.auth.get_current_datetime", return_value=fixed):
                SigV4Auth(credentials, "sqs", case["region"]).add_auth(aws)
        else:
            SigV4Auth(credentials, "sqs", case["region"]).add_auth(aws)
    expected = aws.headers["Authorization"]
    if expected != mine["authorization"] or aws.headers["X-Amz-Date"] != mine["amzDate"]:
        failures += 1
        print(f"DIFFERS {case['method']} {url}\n  botocore {expected}\n  lifeline {mine['authorization']}")
print(f"botocore {botocore.__version__}: {len(cases) - failures} of {len(cases)} signatures equal")
sys.exit(1 if failures else 0)
