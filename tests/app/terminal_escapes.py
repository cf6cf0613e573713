#!/usr/bin/env python3
"""What a file or a request puts in a message never reaches a terminal as a control sequence: `lifeline run` on a
scenario whose attribute name holds an OSC title sequence (ESC ] 0 ; ... BEL) and a C1 CSI (U+009B) prints them as
\\x1b, \\x07 and \\u009b on a terminal (a pseudo-terminal here), and as they are into a pipe.

Usage: terminal_escapes.py LIFELINE"""
import json
import os
import pty
import subprocess
import sys
import tempfile

LIFELINE = sys.argv[1]
work = tempfile.mkdtemp(prefix="lifeline-tty-")
scenario = os.path.join(work, "evil.json")
json.dump({"queues": [{"name": "q", "attributes": {"\x1b]0;pwned\x07\u009b2J": 1}}]}, open(scenario, "w"))

leader, follower = pty.openpty()
process = subprocess.Popen([LIFELINE, "run", scenario], stdout=follower, stderr=follower, close_fds=True)
os.close(follower)
shown = b""
while True:
    try:
        chunk = os.read(leader, 65536)
    except OSError:  # the child closed its end
        break
    if not chunk:
        break
    shown += chunk
process.wait(timeout=30)
assert process.returncode == 2, (process.returncode, shown)
assert b"\x1b" not in shown and b"\x07" not in shown and "\u009b".encode() not in shown, shown
assert b"attributes.\\x1b]0;pwned\\x07\\u009b2J: unknown attribute" in shown, shown
print("ok   a terminal sees the escapes as text")

piped = subprocess.run([LIFELINE, "run", scenario], capture_output=True)
assert "attributes.\x1b]0;pwned\x07\u009b2J: unknown attribute".encode() in piped.stderr, piped.stderr
print("ok   a pipe gets the bytes as they were")
print("all terminal cases passed")
