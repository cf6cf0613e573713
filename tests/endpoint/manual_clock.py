#!/usr/bin/env python3
"""`lifeline serve --clock manual`: virtual time stands until the test moves it with the control API, so a test of a
30-second visibility timeout, a 15-minute delay or a 4-day retention runs without sleeping. Raw HTTP for the exact
JSON of the control API and its errors; boto3 (query protocol, Debian's) for what a test suite does with it.

Usage: manual_clock.py LIFELINE"""
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

process = subprocess.Popen([sys.argv[1], "serve", "--headless", "--port", "0", "--clock", "manual"],
                           stdout=subprocess.PIPE, text=True)
banner = process.stdout.readline()
url = "http://127.0.0.1:" + re.search(r"127\.0\.0\.1:(\d+)", banner).group(1)


def control(method, path, body=None, headers=None):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(url + path, data, headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def check(label, got, expected):
    assert got == expected, f"{label}: expected {expected!r}, got {got!r}"
    print("ok  ", label)


try:
    assert "virtual time stands until POST /_lifeline/clock/advance" in banner, banner
    check("the clock stands at 0", control("GET", "/_lifeline/clock"),
          (200, {"now_ms": 0, "speed": 1.0, "paused": False, "manual": True, "waiting": {}}))
    time.sleep(0.3)
    check("and still at 0 after wall time passes", control("GET", "/_lifeline/clock")[1]["now_ms"], 0)

    sqs = boto3.client("sqs", endpoint_url=url, region_name="us-east-1", aws_access_key_id="test",
                       aws_secret_access_key="test",
                       config=botocore.config.Config(retries={"max_attempts": 1}, read_timeout=30))
    queue = sqs.create_queue(QueueName="jobs", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
    sqs.send_message(QueueUrl=queue, MessageBody="work")
    sqs.send_message(QueueUrl=queue, MessageBody="later", DelaySeconds=900)
    first = sqs.receive_message(QueueUrl=queue, AttributeNames=["All"])["Messages"]
    check("a receive takes the visible message", [m["Body"] for m in first], ["work"])

    # 29.999 s on: still in flight; one more millisecond: its visibility timeout has ended.
    check("advance 29999 ms answers the new clock", control("POST", "/_lifeline/clock/advance", {"by": 29999}),
          (200, {"now_ms": 29999, "speed": 1.0, "paused": False, "manual": True, "waiting": {}}))
    check("in flight until its 30 s are up", sqs.receive_message(QueueUrl=queue).get("Messages", []), [])
    control("POST", "/_lifeline/clock/advance", {"by": "1ms"})
    again = sqs.receive_message(QueueUrl=queue, AttributeNames=["ApproximateReceiveCount"])["Messages"]
    check("back after 30 s, received a second time",
          [(m["Body"], m["Attributes"]["ApproximateReceiveCount"]) for m in again], [("work", "2")])
    sqs.delete_message(QueueUrl=queue, ReceiptHandle=again[0]["ReceiptHandle"])

    # The lanes as JSON: what a test reads to see what happened, to the millisecond.
    with urllib.request.urlopen(url + "/_lifeline/runs/current?format=json", timeout=10) as answer:
        lanes = json.loads(answer.read())
    jobs = lanes["queues"][0]
    check("the lanes: the queue", (lanes["now_ms"], lanes["forgotten_until_ms"], jobs["name"]), (30000, 0, "jobs"))
    work, later = jobs["lanes"]
    check("the lanes' format version", lanes["version"], 1)
    check("the failed job's segments, in the timeline's words", work["segments"], [
        {"state": "visible", "from_ms": 0, "to_ms": 0, "words": "visible"},
        {"state": "in-flight", "from_ms": 0, "to_ms": 30000, "words": "#1 · visibility 30 s"},
        {"state": "visible", "from_ms": 30000, "to_ms": 30000, "words": "visible"},
        {"state": "in-flight", "from_ms": 30000, "to_ms": 30000, "words": "#2 · visibility 30 s"}])
    # Deleted, its body is no longer kept by a headless server: its lane is named by its MessageId's start, as drawn.
    check("its label and marks", (work["label"], work["marks"]), (work["message_id"][:8], []))
    check("a live message's lane is named by its body", later["label"], "later")
    check("its state and receives", (work["state"], [(r["at_ms"], r["receive"]) for r in work["receives"]]),
          ("deleted", [(0, 1), (30000, 2)]))
    check("its receives name the client", work["receives"][0]["client"].startswith("Boto3/"), True)
    check("the 15-minute timer still delayed, its segment open",
          (later["body"], later["state"], later["segments"]),
          ("later", "delayed", [{"state": "delayed", "from_ms": 0, "to_ms": None, "words": "timer 15 min"}]))

    # The 15-minute timer: 14m59.999s after its send nothing; at 15 minutes it is there (sent at 0).
    control("POST", "/_lifeline/clock/advance", {"by": f"{900000 - 30000 - 1}ms"})
    check("a 15-minute timer still delayed a millisecond before",
          sqs.receive_message(QueueUrl=queue).get("Messages", []), [])
    check("advance by \"1ms\"", control("POST", "/_lifeline/clock/advance", {"by": "1ms"})[1]["now_ms"], 900000)
    check("visible at 15 minutes", [m["Body"] for m in sqs.receive_message(QueueUrl=queue)["Messages"]], ["later"])

    # A long poll while the clock stands waits for the next advance, and is answered by it.
    empty = sqs.create_queue(QueueName="empty")["QueueUrl"]
    started = time.monotonic()
    poll = subprocess.Popen([sys.executable, "-c", f"""
import boto3, botocore.config
sqs = boto3.client("sqs", endpoint_url="{url}", region_name="us-east-1", aws_access_key_id="t",
                   aws_secret_access_key="t", config=botocore.config.Config(retries={{"max_attempts": 1}}))
sqs.get_queue_url(QueueName="empty")  # connected and warmed up
print("polling", flush=True)
print(len(sqs.receive_message(QueueUrl="{empty}", WaitTimeSeconds=20).get("Messages", [])))
"""], stdout=subprocess.PIPE, text=True)
    check("the poller is ready", poll.stdout.readline().strip(), "polling")
    # No sleep: an advance that waits for one receive to park answers once the poll waits, and says where it waits.
    parked = control("POST", "/_lifeline/clock/advance", {"by": 0, "afterWaiting": 1})
    check("afterWaiting: answered once the receive is parked, the clock where it stood",
          (parked[0], parked[1]["waiting"], parked[1]["now_ms"]), (200, {"empty": 1}, 900000))
    check("GET /_lifeline/clock: the receives waiting, by queue", control("GET", "/_lifeline/clock")[1]["waiting"],
          {"empty": 1})
    check("a long poll waits while the clock stands", poll.poll(), None)
    control("POST", "/_lifeline/clock/advance", {"by": "20s"})
    check("the advance past its 20 s answers it, empty", poll.communicate(timeout=10)[0].strip(), "0")
    print(f"     (answered {time.monotonic() - started:.1f} s of wall time after it began)")

    # A year at once (the longest advance): the clock moves, the queue's retention ends what was left.
    sqs.send_message(QueueUrl=empty, MessageBody="forgotten for a year")
    year = control("POST", "/_lifeline/clock/advance", {"by": "366d"})
    check("a year in one advance", year, (200, {"now_ms": 900000 + 20000 + 366 * 86400000, "speed": 1.0,
                                                "paused": False, "manual": True, "waiting": {}}))
    check("retention (4 days) removed it", sqs.receive_message(QueueUrl=empty).get("Messages", []), [])

    # Bad input: a 400 (404, 405) naming the field, and the clock where it was.
    now = control("GET", "/_lifeline/clock")[1]["now_ms"]
    cases = [
        ("POST", "/_lifeline/clock/advance", {"by": "-5s"}, 400, "by", "the clock only moves forward, got \"-5s\""),
        ("POST", "/_lifeline/clock/advance", {"by": -1}, 400, "by", "the clock only moves forward, got -1"),
        ("POST", "/_lifeline/clock/advance", {"by": "soon"}, 400, "by",
         "must be a duration such as \"500ms\", \"30s\", \"1m30s\" or \"4d\", or a number of milliseconds, got "
         "\"soon\""),
        ("POST", "/_lifeline/clock/advance", {"by": "1500"}, 400, "by",
         "a number in quotes has no unit: write \"1500ms\" or \"1500s\", or a number of milliseconds without quotes, "
         "got \"1500\""),
        ("POST", "/_lifeline/clock/advance", {"by": "30s1m"}, 400, "by",
         "must be a duration such as \"500ms\", \"30s\", \"1m30s\" or \"4d\", or a number of milliseconds, got "
         "\"30s1m\""),
        # A body nested past any control request's shape: refused before it is parsed, the server alive after.
        ("POST", "/_lifeline/clock/advance", b'{"by": ' + b"[" * 100000 + b"]" * 100000 + b"}", 400, "body",
         "the body nests deeper than 32 levels; it must be one JSON object, such as {\"by\": \"30s\"}"),
        # A query key that is not UTF-8 once decoded: named as well as it can be, the server alive after.
        ("GET", "/_lifeline/runs/current?%FF=1", None, 400, "\ufffd",
         "unknown parameter '\ufffd'; the run takes format, queue and size"),
        ("POST", "/_lifeline/clock", b"[" * 100000, 400, "body",
         "the body nests deeper than 32 levels; it must be one JSON object, such as {\"by\": \"30s\"}"),
        ("POST", "/_lifeline/clock/advance", {"by": "367d"}, 400, "by",
         "at most a year (366 days) at a time, got \"367d\""),
        ("POST", "/_lifeline/clock/advance", {}, 400, "by",
         "missing: how far to move the clock, such as {\"by\": \"30s\"}"),
        ("POST", "/_lifeline/clock/advance", {"by": "1s", "to": 5}, 400, "to",
         "unknown field 'to'; an advance takes \"by\" and, to wait first, \"afterWaiting\""),
        ("POST", "/_lifeline/clock/advance", {"by": "1s", "afterWaiting": 0}, 400, "afterWaiting",
         "how many receives to wait for before advancing: a whole number from 1 to 10000, got 0"),
        ("POST", "/_lifeline/clock/advance", {"by": "1s", "afterWaiting": "1"}, 400, "afterWaiting",
         "how many receives to wait for before advancing: a whole number from 1 to 10000, got \"1\""),
        # Nobody polls: after 10 s of wall time the advance is refused and the clock has not moved.
        ("POST", "/_lifeline/clock/advance", {"by": "1s", "afterWaiting": 1}, 408, "afterWaiting",
         "0 receive(s) waiting after 10 s, not 1: the clock did not move"),
        ("POST", "/_lifeline/clock/advance", b"{not json", 400, "body",
         "the body must be a JSON object, such as {\"by\": \"30s\"}"),
        ("GET", "/_lifeline/clock/advance", None, 405, "method", "the clock is advanced by POST; got GET"),
        ("PUT", "/_lifeline/clock", b"{}", 405, "method", "GET reads the clock, POST sets it; got PUT"),
        ("POST", "/_lifeline/clock", {"speed": 0}, 400, "speed", "must be a number above 0 and at most 10000, got 0"),
        ("POST", "/_lifeline/clock", {"paused": "yes"}, 400, "paused", "must be true or false, got \"yes\""),
        ("POST", "/_lifeline/clock", {}, 400, "body", "nothing to set: give \"speed\", \"paused\" or both"),
        ("GET", "/_lifeline/time", None, 404, "path",
         "no control endpoint /_lifeline/time; there are GET and POST /_lifeline/clock, POST /_lifeline/clock/advance, "
         "POST /_lifeline/reset, GET /_lifeline/runs/current and GET, POST and DELETE /_lifeline/faults"),
        ("GET", "/_lifeline/runs/current?format=gif", None, 400, "format",
         "format=lifeline (a run file), json (the lanes), png or svg (the timeline) is served, got 'gif'"),
        ("POST", "/_lifeline/runs/current", b"", 405, "method", "the run is read by GET; got POST"),
        ("GET", "/_lifeline/runs/current?format=png&size=100x100", None, 400, "size",
         "must be WIDTHxHEIGHT from 200x150 to 4096x4096, such as 1600x900, got '100x100'"),
        ("GET", "/_lifeline/runs/current?format=png&size=5000x900", None, 400, "size",
         "must be WIDTHxHEIGHT from 200x150 to 4096x4096, such as 1600x900, got '5000x900'"),
        ("GET", "/_lifeline/runs/current?format=json&size=800x600", None, 400, "size",
         "sizes an image: add format=png or format=svg"),
        ("GET", "/_lifeline/runs/current?queue=jobs", None, 400, "queue",
         "a run file holds every queue; leave out queue, or read one queue's lanes with format=json, png or svg"),
        ("GET", "/_lifeline/runs/current?format=png&queue=jobs", None, 400, "queue",
         "an image draws every queue of the run; read one queue's lanes with format=json"),
        ("GET", "/_lifeline/runs/current?format=json&queue=nope", None, 404, "queue",
         "the run has no queue named 'nope'"),
        ("GET", "/_lifeline/runs/current?format=json&at=5", None, 400, "at",
         "unknown parameter 'at'; the run takes format, queue and size"),
        ("GET", "/_lifeline/reset", None, 405, "method", "the endpoint is reset by POST; got GET"),
        ("POST", "/_lifeline/reset", {"keep": ["jobs"]}, 400, "keep", "unknown field 'keep'; a reset takes no fields"),
    ]
    for method, path, body, status, field, message in cases:
        check(f"{method} {path} {body!r}", control(method, path, body),
              (status, {"error": {"field": field, "message": message}}))
    check("none of them moved the clock", control("GET", "/_lifeline/clock")[1]["now_ms"], now)

    # A web page may not move it (an Origin), as it may not call SQS.
    status, answer = control("POST", "/_lifeline/clock/advance", {"by": "1s"}, {"Origin": "https://evil.example"})
    check("a page's advance is refused", (status, answer["error"]["field"]), (403, "origin"))
    check("and moved nothing", control("GET", "/_lifeline/clock")[1]["now_ms"], now)
    # The run so far as a run file, which `lifeline run` reads (a failed test's timeline).
    with urllib.request.urlopen(url + "/_lifeline/runs/current?format=lifeline", timeout=10) as answer:
        check("the run file's type", answer.headers.get("Content-Type"), "application/octet-stream")
        run = answer.read()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "run.lifeline")
        with open(path, "wb") as file:
            file.write(run)
        summary = json.loads(subprocess.run([sys.argv[1], "run", path, "--summary"], capture_output=True, text=True,
                                            check=True).stdout)
        check("it holds the test's run: its 3 sends", summary["sent"], 3)
    # One queue's lanes; the timeline drawn, as PNG (its size as asked) and as SVG.
    with urllib.request.urlopen(url + "/_lifeline/runs/current?format=json&queue=empty", timeout=10) as answer:
        one = json.loads(answer.read())
    check("queue=empty: that queue only, its one message (expired)", ([q["name"] for q in one["queues"]],
          [lane["state"] for lane in one["queues"][0]["lanes"]]), (["empty"], ["expired"]))
    with urllib.request.urlopen(url + "/_lifeline/runs/current?format=png&size=800x450", timeout=30) as answer:
        png = answer.read()
        check("format=png: a PNG of 800x450", (answer.headers.get("Content-Type"), png[:8],
              int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")),
              ("image/png", b"\x89PNG\r\n\x1a\n", 800, 450))
    with urllib.request.urlopen(url + "/_lifeline/runs/current?format=svg", timeout=30) as answer:
        svg = answer.read().decode()
        check("format=svg: an SVG of 1600x900 titled as the server",
              (answer.headers.get("Content-Type"), 'width="1600"' in svg.split(">", 2)[1] or 'width="1600' in svg,
               "<title>lifeline serve</title>" in svg), ("image/svg+xml", True, True))
    check("speed and pause are set and read back", control("POST", "/_lifeline/clock", {"speed": 60, "paused": True}),
          (200, {"now_ms": now, "speed": 60.0, "paused": True, "manual": True, "waiting": {}}))

    # A reset: every queue and message gone, the clock at 0 (speed and pause as they were), a new id and handle group
    # (the last test's message ids and handles name nothing); a long poll waiting then is answered as one whose queue
    # was deleted.
    first_id = lanes["queues"][0]["lanes"][0]["message_id"]
    sqs.send_message(QueueUrl=empty, MessageBody="held across the reset")
    old_handle = sqs.receive_message(QueueUrl=empty)["Messages"][0]["ReceiptHandle"]
    waiter = subprocess.Popen([sys.executable, "-c", f"""
import boto3, botocore.config, botocore.exceptions
sqs = boto3.client("sqs", endpoint_url="{url}", region_name="us-east-1", aws_access_key_id="t",
                   aws_secret_access_key="t", config=botocore.config.Config(retries={{"max_attempts": 1}}))
sqs.get_queue_url(QueueName="empty")
print("polling", flush=True)
try:
    sqs.receive_message(QueueUrl="{empty}", WaitTimeSeconds=20)
    print("answered")
except botocore.exceptions.ClientError as error:
    print(error.response["Error"]["Code"])
"""], stdout=subprocess.PIPE, text=True)
    check("a poller waits on 'empty'", waiter.stdout.readline().strip(), "polling")
    time.sleep(0.3)
    check("POST /_lifeline/reset answers the clock at 0", control("POST", "/_lifeline/reset"),
          (200, {"now_ms": 0, "speed": 60.0, "paused": True, "manual": True, "waiting": {}}))
    check("the waiting poll: its queue is gone", waiter.communicate(timeout=10)[0].strip(),
          "AWS.SimpleQueueService.NonExistentQueue")
    check("no queue is left", sqs.list_queues().get("QueueUrls", []), [])
    jobs = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    sent = sqs.send_message(QueueUrl=jobs, MessageBody="again")
    check("a new id group: the first message after the reset has another id", sent["MessageId"] != first_id, True)
    with urllib.request.urlopen(url + "/_lifeline/runs/current?format=json", timeout=10) as answer:
        after = json.loads(answer.read())
    check("the run is a new one", ([q["name"] for q in after["queues"]], after["now_ms"],
          [r["client"][:6] for r in after["queues"][0]["lanes"][0]["receives"]]), (["jobs"], 0, []))
    try:
        sqs.delete_message(QueueUrl=jobs, ReceiptHandle=old_handle)
        raise AssertionError("a handle from before the reset deleted something")
    except sqs.exceptions.ClientError as error:
        check("a handle from before the reset is invalid", error.response["Error"]["Code"], "ReceiptHandleIsInvalid")
    check("an empty body or {} both reset", control("POST", "/_lifeline/reset", {})[0], 200)
    check("a compound duration advances by its sum", control("POST", "/_lifeline/clock/advance", {"by": "1m30s"})[1]
          ["now_ms"], 90000)

    # A FIFO receive retried with its ReceiveRequestAttemptId (its answer lost): the same message and handle.
    control("POST", "/_lifeline/clock", {"paused": False})
    fifo = sqs.create_queue(QueueName="pay.fifo", Attributes={"FifoQueue": "true",
                                                               "ContentBasedDeduplication": "true"})["QueueUrl"]
    sqs.send_message(QueueUrl=fifo, MessageBody="charge", MessageGroupId="c1")
    got = sqs.receive_message(QueueUrl=fifo, ReceiveRequestAttemptId="try-1", AttributeNames=["All"])["Messages"]
    control("POST", "/_lifeline/clock/advance", {"by": "10s"})
    again = sqs.receive_message(QueueUrl=fifo, ReceiveRequestAttemptId="try-1", AttributeNames=["All"])["Messages"]
    check("a retried attempt id: the same handle, receive count 1",
          (again[0]["ReceiptHandle"] == got[0]["ReceiptHandle"], again[0]["Attributes"]["ApproximateReceiveCount"]),
          (True, "1"))
    check("another id: a new receive, the group in flight", sqs.receive_message(
        QueueUrl=fifo, ReceiveRequestAttemptId="try-2").get("Messages", []), [])
finally:
    process.terminate()
    process.wait(timeout=10)

# Without --clock manual the clock runs on wall time x --speed; the same API pauses it and moves it.
process = subprocess.Popen([sys.argv[1], "serve", "--headless", "--port", "0", "--speed", "100"],
                           stdout=subprocess.PIPE, text=True)
url = "http://127.0.0.1:" + re.search(r"127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1)
try:
    time.sleep(0.2)
    running = control("GET", "/_lifeline/clock")[1]
    check("a wall clock runs (x100: 0.2 s of wall time is about 20 s)",
          (running["manual"], running["speed"], running["now_ms"] >= 15000), (False, 100.0, True))
    paused = control("POST", "/_lifeline/clock", {"paused": True})[1]
    time.sleep(0.3)
    check("paused, it stands", control("GET", "/_lifeline/clock")[1]["now_ms"], paused["now_ms"])
    check("an advance while paused moves it by exactly that",
          control("POST", "/_lifeline/clock/advance", {"by": "10s"})[1]["now_ms"], paused["now_ms"] + 10000)
    control("POST", "/_lifeline/clock", {"paused": False})
    time.sleep(0.2)
    check("resumed, it runs on from there",
          control("GET", "/_lifeline/clock")[1]["now_ms"] > paused["now_ms"] + 10000 + 10000, True)
    print("all manual clock cases passed")
finally:
    process.terminate()
    process.wait(timeout=10)
