#!/usr/bin/env python3
"""Broken requests against `lifeline serve`: each gets its HTTP status and the protocol's error shape, and the server
goes on serving. Usage: bad_requests.py LIFELINE"""
import re
import socket
import subprocess
import sys

process = subprocess.Popen([sys.argv[1], "serve", "--headless", "--port", "0"], stdout=subprocess.PIPE, text=True)
port = int(re.search(r"127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1))


def exchange(raw):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(raw)
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            match = re.search(rb"Content-Length: (\d+)", head)
            if match and len(body) >= int(match.group(1)):
                break
    status = int(data.split(b" ")[1]) if data else 0
    return status, data.decode(errors="replace")


def form(body, extra=""):
    return (f"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n{extra}"
            f"Content-Length: {len(body)}\r\n\r\n{body}").encode()


def check(what, got, want_status, want_text):
    status, text = got
    assert status == want_status, f"{what}: status {status}, want {want_status}\n{text}"
    assert want_text in text, f"{what}: {want_text!r} not in\n{text}"
    print("ok  ", what)


try:
    # HTTP-level refusals come in SQS's error shape: the query protocol's XML unless X-Amz-Target says JSON.
    check("garbage", exchange(b"HELLO THERE\r\n\r\n"), 400,
          "<Code>MalformedHttpRequest</Code><Message>Malformed request line.</Message>")
    check("huge headers", exchange(b"GET / HTTP/1.1\r\nX: " + b"a" * 20000 + b"\r\n\r\n"), 431,
          "<Code>RequestHeaderFieldsTooLarge</Code><Message>The request&apos;s headers are larger than 16384 bytes.")
    check("huge body", exchange(b"POST / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n"), 413,
          "<Code>RequestEntityTooLarge</Code><Message>The request body is larger than 8388608 bytes.")
    check("huge body (JSON)",
          exchange(b"POST / HTTP/1.1\r\nX-Amz-Target: AmazonSQS.SendMessage\r\nContent-Length: 99999999\r\n\r\n"),
          413, '"__type":"com.amazonaws.sqs#RequestEntityTooLarge"')
    check("chunked body", exchange(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"), 411,
          "<Code>MissingContentLength</Code>")
    check("bare LF line endings", exchange(b"POST / HTTP/1.1\nHost: 127.0.0.1\nContent-Type: "
                                           b"application/x-www-form-urlencoded\nContent-Length: 17\n\n"
                                           b"Action=ListQueues"), 200, "<ListQueuesResponse")
    # What only a web page would send (request_guard.h).
    check("a cross-site form", exchange(form("Action=DeleteQueue&QueueUrl=q", "Origin: https://evil.example\r\n")),
          403, "<Code>AccessDenied</Code><Message>Requests from web pages are refused (Origin: https://evil.example)")
    check("a change over GET", exchange(b"GET /?Action=DeleteQueue&QueueUrl=q HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
          403, "The action DeleteQueue changes state and is refused over GET")
    # A no-cors fetch(url, {method: 'HEAD'}) from any page, without an Origin: refused as GET is (the body, if any).
    check("a change over HEAD",
          exchange(b"HEAD /?Action=CreateQueue&QueueName=from-a-page HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"), 403, "")
    check("nothing made by HEAD", exchange(form("Action=ListQueues")), 200, "<ListQueuesResponse")
    assert "from-a-page" not in exchange(form("Action=ListQueues"))[1], "HEAD created a queue"
    check("a read over GET", exchange(b"GET /?Action=ListQueues HTTP/1.1\r\nHost: localhost\r\n\r\n"), 200,
          "<ListQueuesResponse")
    check("DNS rebinding", exchange(form("Action=ListQueues").replace(b"Host: 127.0.0.1", b"Host: evil.example:9324")),
          403, "The Host evil.example is not this endpoint&apos;s address")
    check("unknown action (query)", exchange(form("Action=Explode&Version=2012-11-05")), 400,
          "<Code>InvalidAction</Code><Message>The action Explode is not valid for this endpoint.</Message>")
    check("no action (query)", exchange(form("Version=2012-11-05")), 400, "<Code>MissingAction</Code>")
    check("bad escape (query)", exchange(form("Action=%ZZ")), 400, "<Code>MalformedQueryString</Code>")
    check("bad JSON",
          exchange(b"POST / HTTP/1.1\r\nX-Amz-Target: AmazonSQS.ListQueues\r\nContent-Length: 5\r\n\r\n{oops"), 400,
          '"__type":"com.amazonaws.sqs#SerializationException"')
    check("bad parameter (JSON)",
          exchange(b'POST / HTTP/1.1\r\nX-Amz-Target: AmazonSQS.CreateQueue\r\nContent-Length: 16\r\n\r\n'
                   b'{"QueueName": 7}'),
          400, "Value 7 for parameter QueueName is invalid. Reason: Must be a string.")
    check("still serving", exchange(form("Action=ListQueues")), 200, "<ListQueuesResponse")
    print("all cases passed: broken requests")
finally:
    process.terminate()
    process.wait(timeout=5)
