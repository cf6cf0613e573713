#!/usr/bin/env python3
"""LocalStack's developer endpoint, as test helpers call it: `GET /_aws/sqs/messages?QueueUrl=...` lists a queue's
messages as ReceiveMessage's answer (XML for the query protocol, JSON for an AWS JSON client), every attribute
included, without receiving them: receive counts and visibility are what they were. `ShowInvisible` adds the
in-flight ones and `IsVisible`, `ShowDelayed` the delayed ones and `IsDelayed`.

Usage: peek_messages.py LIFELINE"""
import json
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

import boto3
import botocore.config

process = subprocess.Popen([sys.argv[1], "serve", "--headless", "--port", "0", "--clock", "manual"],
                           stdout=subprocess.PIPE, text=True)
url = "http://127.0.0.1:" + re.search(r"127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1)


def check(label, got, expected):
    assert got == expected, f"{label}: expected {expected!r}, got {got!r}"
    print("ok  ", label)


def get(path, headers=None, body=None, method="GET"):
    request = urllib.request.Request(url + path, body, headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers.get("Content-Type"), answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type"), error.read().decode()


try:
    sqs = boto3.client("sqs", endpoint_url=url, region_name="us-east-1", aws_access_key_id="test",
                       aws_secret_access_key="test", config=botocore.config.Config(retries={"max_attempts": 1}))
    queue = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    sqs.send_message(QueueUrl=queue, MessageBody="first",
                     MessageAttributes={"kind": {"DataType": "String", "StringValue": "a"}})
    sqs.send_message(QueueUrl=queue, MessageBody="second")
    sqs.send_message(QueueUrl=queue, MessageBody="later", DelaySeconds=60)
    taken = sqs.receive_message(QueueUrl=queue, VisibilityTimeout=30)["Messages"][0]
    check("a receive took the first", taken["Body"], "first")
    quoted = urllib.parse.quote(queue, safe="")

    status, kind, text = get(f"/_aws/sqs/messages?QueueUrl={quoted}")
    check("the query protocol's answer: XML", (status, kind), (200, "text/xml"))
    check("only the visible message", re.findall(r"<Body>(.*?)</Body>", text), ["second"])
    check("with LocalStack's receipt handle", re.findall(r"<ReceiptHandle>(.*?)</ReceiptHandle>", text),
          ["SQS/BACKDOOR/ACCESS"])
    check("and every attribute, its receive count 0",
          re.findall(r"<Name>ApproximateReceiveCount</Name><Value>(\d+)</Value>", text), ["0"])

    status, _, text = get(f"/_aws/sqs/messages?QueueUrl={quoted}&ShowInvisible=true&ShowDelayed=true")
    check("ShowInvisible and ShowDelayed: in flight, visible, delayed",
          re.findall(r"<Body>(.*?)</Body>", text), ["first", "second", "later"])
    check("IsVisible", re.findall(r"<Name>IsVisible</Name><Value>(\w+)</Value>", text), ["false", "true", "false"])
    check("IsDelayed", re.findall(r"<Name>IsDelayed</Name><Value>(\w+)</Value>", text), ["false", "false", "true"])
    check("the in-flight one's receive count is 1",
          re.findall(r"<Name>ApproximateReceiveCount</Name><Value>(\d+)</Value>", text), ["1", "0", "0"])

    # JSON, as an AWS JSON client (or a test helper) asks, and the queue named in the path.
    status, kind, text = get("/_aws/sqs/messages", {"Content-Type": "application/x-amz-json-1.0",
                                                    "X-Amz-Target": "AmazonSQS.ReceiveMessage"},
                             json.dumps({"QueueUrl": queue, "ShowInvisible": True}).encode(), "POST")
    answer = json.loads(text)
    check("JSON: status and type", (status, kind), (200, "application/x-amz-json-1.0"))
    check("JSON: bodies", [m["Body"] for m in answer["Messages"]], ["first", "second"])
    check("JSON: the message attribute", answer["Messages"][0]["MessageAttributes"],
          {"kind": {"DataType": "String", "StringValue": "a"}})
    status, _, text = get("/_aws/sqs/messages/us-east-1/000000000000/jobs")
    check("by path", re.findall(r"<Body>(.*?)</Body>", text), ["second"])

    # LocalStack's JSON, as a Testcontainers test asks for it (GET, Accept: application/json) and reads it
    # ($.ReceiveMessageResponse.ReceiveMessageResult.Message[*]): the query answer's shape, attributes as a list.
    status, kind, text = get(f"/_aws/sqs/messages?QueueUrl={quoted}&ShowInvisible=true",
                             {"Accept": "application/json"})
    answer = json.loads(text)
    check("Accept: application/json: LocalStack's JSON", (status, kind, list(answer["ReceiveMessageResponse"])),
          (200, "application/json", ["ReceiveMessageResult", "ResponseMetadata"]))
    listed = answer["ReceiveMessageResponse"]["ReceiveMessageResult"]["Message"]
    check("its messages, bodies and LocalStack's handle", [(m["Body"], m["ReceiptHandle"]) for m in listed],
          [("first", "SQS/BACKDOOR/ACCESS"), ("second", "SQS/BACKDOOR/ACCESS")])
    check("its attributes as {Name, Value}", {a["Name"]: a["Value"] for a in listed[1]["Attribute"]}["IsVisible"],
          "true")
    check("its message attribute", listed[0]["MessageAttribute"],
          [{"Name": "kind", "Value": {"DataType": "String", "StringValue": "a"}}])
    check("its request id", answer["ReceiveMessageResponse"]["ResponseMetadata"]["RequestId"] != "", True)
    empty_queue = urllib.parse.quote(sqs.create_queue(QueueName="nothing")["QueueUrl"], safe="")
    status, _, text = get(f"/_aws/sqs/messages?QueueUrl={empty_queue}", {"Accept": "application/json"})
    check("no message: a null result, as LocalStack's", json.loads(text)["ReceiveMessageResponse"]
          ["ReceiveMessageResult"], None)

    # It changed nothing: the in-flight one is still held, the visible one has never been received.
    check("nothing received by the looks",
          [(m["Body"], m["Attributes"]["ApproximateReceiveCount"])
           for m in sqs.receive_message(QueueUrl=queue, AttributeNames=["All"], MaxNumberOfMessages=10)["Messages"]],
          [("second", "1")])

    status, _, text = get("/_aws/sqs/messages?QueueUrl=http://x/000000000000/nowhere")
    check("a queue that does not exist: SQS's error",
          (status, re.search(r"<Code>(.*?)</Code>", text).group(1)), (400, "AWS.SimpleQueueService.NonExistentQueue"))
    status, _, text = get("/_aws/sqs/messages")
    check("no QueueUrl: the same", status, 400)
    status, _, text = get(f"/_aws/sqs/messages?QueueUrl={quoted}", {"Origin": "https://evil.example"})
    check("a web page is refused", status, 403)
    print("all peek cases passed")
finally:
    process.terminate()
    process.wait(timeout=10)
