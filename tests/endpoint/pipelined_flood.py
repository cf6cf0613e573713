#!/usr/bin/env python3
"""One client pipelines 20,000 requests whose answers (200 KB each) it never reads; another client's request is answered
at once all the while, and the flood's connection is read no faster than its answers drain (the server's memory stays
bounded).

Usage: pipelined_flood.py LIFELINE"""
import re
import socket
import subprocess
import sys
import time
import urllib.request

process = subprocess.Popen([sys.argv[1], "serve", "--headless", "--port", "0"], stdout=subprocess.PIPE, text=True)


def rss_mb():
    for line in open(f"/proc/{process.pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0


try:
    port = int(re.search(r"127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1))
    url = f"http://127.0.0.1:{port}/"

    def call(body, timeout=10):
        request = urllib.request.Request(url, body.encode(), {"Content-Type": "application/x-www-form-urlencoded"})
        return urllib.request.urlopen(request, timeout=timeout).read().decode()

    queue = re.search(r"<QueueUrl>(.*)</QueueUrl>", call("Action=CreateQueue&QueueName=flood")).group(1)
    call(f"Action=SendMessage&QueueUrl={queue}&MessageBody=" + "x" * 200000)
    # Each answer the 200 KB message again (received with a visibility timeout of 0): 4 GB if all were held.
    body = f"Action=ReceiveMessage&QueueUrl={queue}&VisibilityTimeout=0"
    one = (f"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
           f"Content-Length: {len(body)}\r\n\r\n{body}").encode()
    before = rss_mb()
    flood = socket.create_connection(("127.0.0.1", port))
    flood.setblocking(False)
    pending = one * 20000
    sent = 0
    worst = 0.0
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline:
        try:
            if sent < len(pending):
                sent += flood.send(pending[sent:sent + 65536])
        except BlockingIOError:
            pass
        started = time.monotonic()
        assert "<ListQueuesResponse" in call("Action=ListQueues", timeout=5)
        worst = max(worst, time.monotonic() - started)
        time.sleep(0.05)
    grown = rss_mb() - before
    print(f"ok   another client answered within {worst * 1000:.0f} ms at worst; {sent} of {len(pending)} bytes of "
          f"requests taken; the server grew {grown:.0f} MB")
    assert worst < 1.0, f"another client waited {worst:.1f} s"
    assert grown < 64, f"the server grew {grown:.0f} MB holding answers nobody reads"
    flood.close()
    assert "<ListQueuesResponse" in call("Action=ListQueues")
finally:
    process.terminate()
    process.wait(timeout=10)
print("all flood cases passed")
