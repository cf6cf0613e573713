#!/usr/bin/env python3
"""`lifeline proxy` in front of an upstream that answers as no SQS should, and as SQS does at its limits: an answer
nested 200,000 levels deep (JSON and XML), ten messages of 1 MiB whose characters all need escaping, and a
SignatureDoesNotMatch that quotes the session token the proxy signed with. The proxy must answer every client,
keep serving, leave the token out of everything it writes, and record the run when stopped.

Usage: hostile_upstream.py LIFELINE"""
import http.client
import http.server
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading

LIFELINE = sys.argv[1]
TOKEN = "IQoJb3JpZ2luX2VjEHostileTestToken0042/abc+def=="
work = tempfile.mkdtemp(prefix="lifeline-hostile-")
failures = []
answer_next = {"mode": "plain"}
MIB = 1024 * 1024


def xml_receive(bodies):
    messages = "".join(
        f"<Message><MessageId>00000000-0000-4000-8000-00000000000{i}</MessageId><ReceiptHandle>h{i}</ReceiptHandle>"
        f"<MD5OfBody>x</MD5OfBody><Body>{body}</Body></Message>" for i, body in enumerate(bodies))
    return ("<ReceiveMessageResponse><ReceiveMessageResult>" + messages +
            "</ReceiveMessageResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata>"
            "</ReceiveMessageResponse>").encode()


class Upstream(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        mode, status, kind = answer_next["mode"], 200, "text/xml"
        if mode == "token":  # what SQS says to a request signed with the wrong secret: its canonical request, quoted
            status = 403
            quoted = ("The request signature we calculated does not match the signature you provided.\n\n"
                      "The Canonical String for this request should have been\n'POST\n/\n\nhost:127.0.0.1\n"
                      f"x-amz-security-token:{self.headers.get('X-Amz-Security-Token', '')}\n'")
            body = (f"<ErrorResponse><Error><Type>Sender</Type><Code>SignatureDoesNotMatch</Code>"
                    f"<Message>{quoted}</Message></Error><RequestId>r</RequestId></ErrorResponse>").encode()
        elif mode == "deep-json":
            kind = "application/x-amz-json-1.0"
            body = b'{"Messages": ' + b"[" * 200000 + b"]" * 200000 + b"}"
        elif mode == "deep-xml":
            body = (b"<ReceiveMessageResponse><ReceiveMessageResult>" + b"<Message>" * 200000 +
                    b"</Message>" * 200000 + b"</ReceiveMessageResult></ReceiveMessageResponse>")
        elif mode == "huge":  # ten messages of 1 MiB of quotes: 6 MiB each as XML
            body = xml_receive(["&quot;" * MIB] * 10)
        else:
            body = b"<ListQueuesResponse><ListQueuesResult></ListQueuesResult></ListQueuesResponse>"
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
threading.Thread(target=server.serve_forever, daemon=True).start()
record = os.path.join(work, "hostile.lifeline")
stderr_path = os.path.join(work, "proxy.err")
proxy = subprocess.Popen(
    [LIFELINE, "proxy", "--upstream", f"http://127.0.0.1:{server.server_address[1]}", "--port", "0", "--headless",
     "--record", record, "--poll-attributes", "1h"], stdout=subprocess.PIPE, stderr=open(stderr_path, "w"), text=True,
    env=dict(os.environ, AWS_ACCESS_KEY_ID="AKIAHOSTILETEST00042", AWS_SECRET_ACCESS_KEY="hostile-secret",
             AWS_SESSION_TOKEN=TOKEN, AWS_REGION="eu-west-1", HOME=work))
port = int(re.search(r"http://127\.0\.0\.1:(\d+)", proxy.stdout.readline()).group(1))


def call(action, extra="", mode="plain"):
    answer_next["mode"] = mode
    body = f"Action={action}&Version=2012-11-05&QueueUrl=http://127.0.0.1/000000000000/jobs{extra}"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("POST", "/", body, {"Content-Type": "application/x-www-form-urlencoded"})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, data


def case(function):
    try:
        function()
        print("ok  ", function.__name__)
    except Exception as error:  # report every case, then fail
        failures.append(function.__name__)
        print("FAIL", function.__name__, repr(error))
    return function


@case
def an_answer_200000_levels_deep_is_passed_on_and_the_proxy_goes_on():
    for mode in ("deep-json", "deep-xml"):
        status, data = call("ReceiveMessage", mode=mode)
        assert status == 200 and len(data) > 400000, (mode, status, len(data))
        assert proxy.poll() is None, f"the proxy died on {mode}"
        assert call("ListQueues")[0] == 200, "not serving after " + mode


@case
def ten_messages_of_1_mib_that_need_escaping_reach_the_client():
    status, data = call("ReceiveMessage", "&MaxNumberOfMessages=10", mode="huge")
    assert status == 200, (status, data[:300])
    assert data.count(b"<Message>") == 10 and len(data) > 60 * MIB, len(data)


@case
def the_session_token_quoted_by_signature_does_not_match_is_scrubbed_from_the_answer():
    status, data = call("SendMessage", "&MessageBody=x", mode="token")
    assert status == 403 and b"SignatureDoesNotMatch" in data, (status, data)
    assert TOKEN.encode() not in data and b"IQoJ" not in data, data
    assert b"x-amz-security-token:[hidden]" in data, data


proxy.send_signal(signal.SIGINT)
out, _ = proxy.communicate(timeout=30)


@case
def the_run_is_recorded_and_nothing_written_holds_the_token():
    assert proxy.returncode == 0, proxy.returncode
    csv_path = os.path.join(work, "hostile.csv")
    done = subprocess.run([LIFELINE, "run", record, "--csv", csv_path], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    written = open(record, "rb").read() + open(stderr_path, "rb").read() + out.encode() + open(csv_path, "rb").read()
    assert b"SignatureDoesNotMatch" in open(csv_path, "rb").read(), "the refusal was not recorded"
    assert TOKEN.encode() not in written and b"IQoJ" not in written


server.shutdown()
if failures:
    print("FAILED:", ", ".join(failures))
    sys.exit(1)
print("all hostile upstream cases passed")
