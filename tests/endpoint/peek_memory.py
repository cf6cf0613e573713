#!/usr/bin/env python3
"""LocalStack's peek (`/_aws/sqs/messages`) at a hundred 1 MiB messages, read by four clients at once, keeps the
server's resident memory within 50 MB of what it was with the messages sent: the answer (600 MiB of XML, every `"`
escaped) is made a message at a time as each client reads it, never whole. Each client gets the whole document, every
message once; a reset while a peek is being read cuts that answer instead of reading the new engine. Prints the peak
growth and what is kept afterwards. Usage: peek_memory.py LIFELINE"""
import http.client
import json
import re
import subprocess
import sys
import threading
import time

MESSAGES = 100
BODY = '"' * (1024 * 1024)  # 1 MiB, the most SQS takes; 6 MiB once escaped in XML
READERS = 4
LIMIT = 50 * 1024 * 1024

process = subprocess.Popen([sys.argv[1], "serve", "--headless", "--port", "0", "--clock", "manual"],
                           stdout=subprocess.PIPE, text=True)
port = int(re.search(r"127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1))


def call(connection, action, body):
    connection.request("POST", "/", json.dumps(body), {"X-Amz-Target": "AmazonSQS." + action,
                                                       "Content-Type": "application/x-amz-json-1.0"})
    response = connection.getresponse()
    data = json.loads(response.read())
    assert response.status == 200, f"{action}: {response.status} {data}"
    return data


def resident_bytes():
    with open(f"/proc/{process.pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+) kB", status.read()).group(1)) * 1024


def peek(results, index):
    """Reads the whole answer in 64 KiB reads, counting the messages and checking each body as it streams by."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/_aws/sqs/messages?QueueUrl=http://localhost/000000000000/big")
    response = connection.getresponse()
    tail, bodies, size = "", 0, 0
    while chunk := response.read(65536):
        size += len(chunk)
        text = tail + chunk.decode()
        bodies += text.count("<Body>")
        tail = text[-16:]  # a tag cut between two reads is counted once, in the read that completes it
        bodies -= tail.count("<Body>")
    bodies += tail.count("<Body>")
    results[index] = (response.status, response.getheader("Transfer-Encoding"), bodies, size, text.endswith(
        "</ReceiveMessageResponse>"))
    connection.close()


try:
    control = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    url = call(control, "CreateQueue", {"QueueName": "big"})["QueueUrl"]
    for _ in range(MESSAGES):
        call(control, "SendMessage", {"QueueUrl": url, "MessageBody": BODY})
    baseline = resident_bytes()
    results = [None] * READERS
    readers = [threading.Thread(target=peek, args=(results, i)) for i in range(READERS)]
    peak = baseline
    started = time.monotonic()
    for reader in readers:
        reader.start()
    while any(reader.is_alive() for reader in readers):
        peak = max(peak, resident_bytes())
        time.sleep(0.01)
    elapsed = time.monotonic() - started
    after = resident_bytes()
    print(f"resident memory: {baseline / 1048576:.1f} MiB with {MESSAGES} messages of 1 MiB; "
          f"{READERS} peeks of {results[0][3] / 1048576:.0f} MiB each in {elapsed:.1f} s: "
          f"peak {(peak - baseline) / 1048576:+.1f} MiB, after {(after - baseline) / 1048576:+.1f} MiB")
    for status, encoding, bodies, size, whole in results:
        assert (status, encoding, bodies, whole) == (200, "chunked", MESSAGES, True), (status, encoding, bodies, whole)
    assert peak - baseline < LIMIT, f"grew by {peak - baseline} bytes while peeking, more than {LIMIT}"

    # A reset while a peek is being read: the rest of that answer would come from an engine that is gone, so the
    # client sees it cut (an incomplete read), never a shorter document that looks whole.
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/_aws/sqs/messages?QueueUrl=http://localhost/000000000000/big")
    response = connection.getresponse()
    response.read(65536)
    control.request("POST", "/_lifeline/reset", "{}", {"Content-Type": "application/json"})
    reset = control.getresponse()
    reset.read()
    assert reset.status == 200, reset.status
    try:
        response.read()
        raise AssertionError("a peek read across a reset ended as if whole")
    except http.client.IncompleteRead:
        print("ok   a reset cuts the peek being read")
    print("all cases passed: peek memory")
finally:
    process.terminate()
    process.wait()
