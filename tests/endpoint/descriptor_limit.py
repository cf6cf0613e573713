#!/usr/bin/env python3
"""`lifeline serve` under a low descriptor limit (256, as `ulimit -n 256` would set it) with 400 clients connected
and silent: it keeps serving. Its connection cap sits below the limit, and at the cap the oldest idle connection
makes way for a new one, so a real client's request is answered at once, and the server does not spin.

Usage: descriptor_limit.py LIFELINE"""
import re
import resource
import socket
import subprocess
import sys
import time
import urllib.request


def low_limit():
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))


process = subprocess.Popen([sys.argv[1], "serve", "--headless", "--port", "0"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, preexec_fn=low_limit)
try:
    port = int(re.search(r"127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1))
    idle = []
    for _ in range(400):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        idle.append(s)
    time.sleep(0.5)
    cpu_before = sum(map(int, open(f"/proc/{process.pid}/stat").read().split(")")[1].split()[11:13]))
    started = time.monotonic()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/", b"Action=ListQueues",
                                     {"Content-Type": "application/x-www-form-urlencoded"})
    answer = urllib.request.urlopen(request, timeout=10).read().decode()
    took = time.monotonic() - started
    assert "<ListQueuesResponse" in answer, answer
    assert took < 2, f"answered after {took:.1f} s"
    print(f"ok   answered in {took * 1000:.0f} ms with 400 silent clients under a limit of 256 descriptors")
    time.sleep(2)
    cpu_after = sum(map(int, open(f"/proc/{process.pid}/stat").read().split(")")[1].split()[11:13]))
    ticks = cpu_after - cpu_before  # clock ticks (100 a second) over about 2 s
    assert ticks < 50, f"the server spun: {ticks} ticks of CPU in 2 s"
    print(f"ok   {ticks} ticks of CPU in 2 s: not spinning")
    for s in idle:
        s.close()
finally:
    process.terminate()
    process.wait(timeout=10)
print("all descriptor cases passed")
