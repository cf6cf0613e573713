#!/usr/bin/env python3
"""A thousand concurrent long polls against `lifeline serve`, over raw keep-alive HTTP (JSON protocol): while they
wait, other requests are answered at once; each poll is answered as soon as a message is there for it; the ones
left over are answered, empty, when their wait ends. Usage: many_long_polls.py LIFELINE [POLLS]"""
import asyncio
import json
import re
import resource
import subprocess
import sys
import time

LIFELINE = sys.argv[1]
POLLS = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
SPEED = 10  # a 20 s wait lasts 2 wall seconds

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))


async def call(reader, writer, host, action, body):
    data = json.dumps(body).encode()
    writer.write((f"POST / HTTP/1.1\r\nHost: {host}\r\nX-Amz-Target: AmazonSQS.{action}\r\n"
                  f"Content-Type: application/x-amz-json-1.0\r\nContent-Length: {len(data)}\r\n\r\n").encode() + data)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ")[1])
    length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
    return status, json.loads(await reader.readexactly(length))


async def main():
    process = subprocess.Popen([LIFELINE, "serve", "--headless", "--port", "0", "--speed", str(SPEED)],
                               stdout=subprocess.PIPE, text=True)
    port = int(re.search(r"127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1))
    host = f"127.0.0.1:{port}"
    try:
        control = await asyncio.open_connection("127.0.0.1", port)
        status, created = await call(*control, host, "CreateQueue", {"QueueName": "many"})
        assert status == 200, created
        url = created["QueueUrl"]
        connections = []
        for _ in range(POLLS):
            connections.append(await asyncio.open_connection("127.0.0.1", port))
        started = time.monotonic()
        answered = {}

        async def poll(i, connection):
            status, body = await call(*connection, host, "ReceiveMessage", {"QueueUrl": url, "WaitTimeSeconds": 20})
            answered[i] = (time.monotonic() - started, body.get("Messages", []))

        tasks = [asyncio.create_task(poll(i, c)) for i, c in enumerate(connections)]
        await asyncio.sleep(0.5)
        assert not answered, f"{len(answered)} polls answered before any message"
        # While they all wait, another client is served at once.
        t = time.monotonic()
        status, attributes = await call(*control, host, "GetQueueAttributes",
                                        {"QueueUrl": url, "AttributeNames": ["ApproximateNumberOfMessages"]})
        assert status == 200 and time.monotonic() - t < 0.5, "a request waited behind the long polls"
        half = POLLS // 2
        for start in range(0, half, 10):
            entries = [{"Id": str(k), "MessageBody": f"m{start + k}"} for k in range(min(10, half - start))]
            status, _ = await call(*control, host, "SendMessageBatch", {"QueueUrl": url, "Entries": entries})
            assert status == 200
        sent_at = time.monotonic() - started
        while len(answered) < half and time.monotonic() - started < 10:
            await asyncio.sleep(0.01)
        with_message = [i for i, (_, messages) in answered.items() if len(messages) == 1]
        assert len(with_message) == half, f"{len(with_message)} of {half} polls got their message"
        bodies = sorted(answered[i][1][0]["Body"] for i in with_message)
        assert bodies == sorted(f"m{k}" for k in range(half)), "a message went to two polls, or to none"
        latest = max(answered[i][0] for i in with_message)
        print(f"{half} polls answered with a message {latest - sent_at:.3f} s after the last send")
        assert latest < 1.5, "polls were not answered as soon as messages came"
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=10)
        empty = [i for i, (_, messages) in answered.items() if not messages]
        assert len(empty) == POLLS - half, f"{len(empty)} polls ended empty"
        ended = sorted(answered[i][0] for i in empty)
        print(f"{len(empty)} polls ended empty between {ended[0]:.2f} s and {ended[-1]:.2f} s (wait: 2.0 s wall)")
        assert 1.9 <= ended[0] and ended[-1] < 3.5, "empty polls did not end with their wait"
        print(f"all cases passed: {POLLS} concurrent long polls")
    finally:
        process.terminate()
        process.wait(timeout=5)


asyncio.run(main())
