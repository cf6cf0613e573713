#!/usr/bin/env python3
"""`lifeline proxy` in front of an upstream that answers as no SQS should, and as SQS does at its limits: an answer
nested 200,000 levels deep (JSON and XML), ten messages of 1 MiB whose characters all need escaping, and a
SignatureDoesNotMatch that quotes the session token the proxy signed with. The proxy must answer every client, keep
serving, leave the token out of everything it writes, and record the run when stopped. A client that half-closes after
its request is answered; a send whose answer comes only after a receive returned its message is recorded as that
client's send. Its recording is never lost: a path that cannot be written is refused at start, SIGHUP and SIGQUIT
record as Ctrl+C does, and a killed proxy leaves what it had written a moment before. A TLS upstream under a company's
CA is trusted through AWS_CA_BUNDLE or SSL_CERT_FILE, as the AWS CLI trusts it.

Usage: hostile_upstream.py LIFELINE"""
import http.client
import json
import http.server
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

LIFELINE = sys.argv[1]
TOKEN = "IQoJb3JpZ2luX2VjEHostileTestToken0042/abc+def=="
work = tempfile.mkdtemp(prefix="lifeline-hostile-")
failures = []
answer_next = {"mode": "plain"}
late_send_received = threading.Event()
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
        request = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        mode, status, kind = answer_next["mode"], 200, "text/xml"
        if mode == "late-send" and b"Action=SendMessage" in request:  # answered once a receive has returned it
            late_send_received.wait(timeout=20)
            mode = "send"
        if mode == "token":  # what SQS says to a request signed with the wrong secret: its canonical request, quoted
            status = 403
            quoted = ("The request signature we calculated does not match the signature you provided.\n\n"
                      "The Canonical String for this request should have been\n'POST\n/\n\nhost:127.0.0.1\n"
                      f"x-amz-security-token:{self.headers.get('X-Amz-Security-Token', '')}\n'")
            body = (f"<ErrorResponse><Error><Type>Sender</Type><Code>SignatureDoesNotMatch</Code>"
                    f"<Message>{quoted}</Message></Error><RequestId>r</RequestId></ErrorResponse>").encode()
        elif mode == "bare-token":  # an error that quotes the token without its header's name
            status = 403
            token = self.headers.get("X-Amz-Security-Token", "")
            body = (f"<ErrorResponse><Error><Type>Sender</Type><Code>InvalidClientTokenId</Code>"
                    f"<Message>The security token {token} (or, encoded, {urllib.parse.quote(token, safe='')}) is "
                    f"invalid.</Message></Error><RequestId>r</RequestId></ErrorResponse>").encode()
        elif mode == "deep-json":
            kind = "application/x-amz-json-1.0"
            body = b'{"Messages": ' + b"[" * 200000 + b"]" * 200000 + b"}"
        elif mode == "deep-xml":
            body = (b"<ReceiveMessageResponse><ReceiveMessageResult>" + b"<Message>" * 200000 +
                    b"</Message>" * 200000 + b"</ReceiveMessageResult></ReceiveMessageResponse>")
        elif mode == "send":
            body = (b"<SendMessageResponse><SendMessageResult><MessageId>11111111-2222-4333-8444-555555555555"
                    b"</MessageId><MD5OfMessageBody>9dd4e461268c8034f5c8564e155c67a6</MD5OfMessageBody>"
                    b"</SendMessageResult></SendMessageResponse>")
        elif mode == "slow":  # an upstream that takes its time: the client has long since said all it will say
            time.sleep(0.3)
            body = b"<ListQueuesResponse><ListQueuesResult></ListQueuesResult></ListQueuesResponse>"
        elif mode == "huge":  # ten messages of 1 MiB of quotes: 6 MiB each as XML
            body = xml_receive(["&quot;" * MIB] * 10)
        elif mode == "late-send":  # the receive, while the send that made its message waits for its answer
            body = (b"<ReceiveMessageResponse><ReceiveMessageResult><Message><MessageId>"
                    b"11111111-2222-4333-8444-555555555555</MessageId><ReceiptHandle>late</ReceiptHandle>"
                    b"<MD5OfBody>x</MD5OfBody><Body>sent late</Body></Message></ReceiveMessageResult>"
                    b"</ReceiveMessageResponse>")
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
ENV = dict(os.environ, AWS_ACCESS_KEY_ID="AKIAHOSTILETEST00042", AWS_SECRET_ACCESS_KEY="hostile-secret",
           AWS_SESSION_TOKEN=TOKEN, AWS_REGION="eu-west-1", HOME=work)


def start_proxy(record_to, *more, stderr=subprocess.DEVNULL):
    return subprocess.Popen(
        [LIFELINE, "proxy", "--upstream", f"http://127.0.0.1:{server.server_address[1]}", "--port", "0", "--headless",
         "--record", record_to, "--poll-attributes", "1h", *more], stdout=subprocess.PIPE, stderr=stderr, text=True,
        env=ENV)


def port_of(process):
    return int(re.search(r"http://127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1))


proxy = start_proxy(record, stderr=open(stderr_path, "w"))
port = port_of(proxy)


def call(action, extra="", mode="plain", port=port):
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


@case
def a_client_that_half_closes_after_its_request_gets_the_answer():
    answer_next["mode"] = "slow"
    answered = 0
    for _ in range(20):
        body = b"Action=ListQueues&Version=2012-11-05"
        client = socket.create_connection(("127.0.0.1", port), timeout=10)
        client.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                       b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        client.shutdown(socket.SHUT_WR)  # legal TCP: "I have said all I will say"
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
        client.close()
        answered += answer.startswith(b"HTTP/1.1 200") and b"</ListQueuesResponse>" in answer
    assert answered == 20, f"{answered} of 20 answered"
    assert call("ListQueues")[0] == 200


@case
def a_token_quoted_without_its_name_is_scrubbed_too():
    status, data = call("SendMessage", "&MessageBody=x", mode="bare-token")
    assert status == 403 and b"InvalidClientTokenId" in data, (status, data)
    assert TOKEN.encode() not in data and b"IQoJ" not in data, data
    assert b"The security token [hidden] (or, encoded, [hidden]) is invalid." in data, data


def called_as(agent, body, port=port):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("POST", "/", body, {"Content-Type": "application/x-www-form-urlencoded", "User-Agent": agent})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, data


@case
def a_send_answered_after_its_receive_is_recorded_as_that_clients_send():
    late_record = os.path.join(work, "late.lifeline")
    late = start_proxy(late_record)
    late_port = port_of(late)
    answer_next["mode"] = "late-send"
    queue = "&QueueUrl=http://127.0.0.1/000000000000/jobs"
    sent = {}
    sender = threading.Thread(target=lambda: sent.update(answer=called_as(
        "producer/1", "Action=SendMessage&Version=2012-11-05&MessageBody=sent+late" + queue, late_port)))
    sender.start()
    time.sleep(0.3)  # the send is upstream, waiting
    status, data = called_as("worker/1", "Action=ReceiveMessage&Version=2012-11-05" + queue, late_port)
    late_send_received.set()
    sender.join(timeout=30)
    assert status == 200 and b"sent late" in data, (status, data)
    assert sent["answer"][0] == 200, sent
    late.send_signal(signal.SIGINT)
    late.communicate(timeout=20)
    csv_path = late_record + ".csv"
    done = subprocess.run([LIFELINE, "run", late_record, "--csv", csv_path], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    rows = [line for line in open(csv_path) if "11111111-2222-4333-8444-555555555555" in line]
    assert len(rows) == 2 and "send" in rows[0] and "producer/1" in rows[0], rows
    assert "receive" in rows[1] and "worker/1" in rows[1], rows
    summary = subprocess.run([LIFELINE, "run", late_record, "--summary"], capture_output=True, text=True)
    counted = json.loads(summary.stdout)
    assert (counted["sent"], counted["received"]) == (1, 1), summary.stdout


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


def lanes_in(run_file):
    csv_path = run_file + ".csv"
    done = subprocess.run([LIFELINE, "run", run_file, "--csv", csv_path], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return open(csv_path).read().count("11111111-2222-4333-8444-555555555555")


@case
def a_record_path_that_cannot_be_written_is_refused_at_start():
    done = subprocess.run([LIFELINE, "proxy", "--upstream", "http://127.0.0.1:9", "--port", "0", "--headless",
                           "--record", os.path.join(work, "no-such-folder", "x.lifeline")], capture_output=True,
                          text=True, env=ENV, timeout=20)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "lifeline proxy: --record: cannot write '" in done.stderr and "No such file or directory" in done.stderr, \
        done.stderr


@case
def sighup_records_as_ctrl_c_does():
    hup_record = os.path.join(work, "hup.lifeline")
    hup = start_proxy(hup_record)
    assert call("SendMessage", "&MessageBody=x", mode="send", port=port_of(hup))[0] == 200
    hup.send_signal(signal.SIGHUP)
    hup.communicate(timeout=20)
    assert hup.returncode == 0, hup.returncode
    assert lanes_in(hup_record) >= 1


@case
def sigquit_records_as_ctrl_c_does():
    quit_record = os.path.join(work, "quit.lifeline")
    quitting = start_proxy(quit_record)
    assert call("SendMessage", "&MessageBody=x", mode="send", port=port_of(quitting))[0] == 200
    quitting.send_signal(signal.SIGQUIT)
    quitting.communicate(timeout=20)
    assert quitting.returncode == 0, quitting.returncode
    assert lanes_in(quit_record) >= 1


@case
def a_killed_proxy_leaves_what_it_recorded_a_moment_before():
    kill_record = os.path.join(work, "killed.lifeline")
    killed = start_proxy(kill_record, "--record-every", "200ms")
    killed_port = port_of(killed)  # the banner comes after the first write
    assert os.path.exists(kill_record), "not written at start"
    assert call("SendMessage", "&MessageBody=x", mode="send", port=killed_port)[0] == 200
    time.sleep(0.8)
    killed.kill()
    killed.wait(timeout=10)
    assert lanes_in(kill_record) >= 1


@case
def a_tls_upstream_under_a_company_ca_is_trusted_through_aws_ca_bundle():
    key, cert = os.path.join(work, "ca.key"), os.path.join(work, "ca.crt")
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                           "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    tls = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    tls.socket = context.wrap_socket(tls.socket, server_side=True)
    threading.Thread(target=tls.serve_forever, daemon=True).start()
    try:
        for bundle_variable, trusted in ((None, False), ("AWS_CA_BUNDLE", True), ("SSL_CERT_FILE", True)):
            env = {k: v for k, v in ENV.items() if k not in ("AWS_CA_BUNDLE", "SSL_CERT_FILE")}  # this machine's own
            if bundle_variable:
                env[bundle_variable] = cert
            through = subprocess.Popen(
                [LIFELINE, "proxy", "--upstream", f"https://127.0.0.1:{tls.server_address[1]}", "--port", "0",
                 "--headless", "--poll-attributes", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True, env=env)
            try:
                through_port = port_of(through)
                status, data = call("ListQueues", port=through_port)
                assert (status == 200) == trusted, (bundle_variable, status, data[:300])
                if not trusted:
                    assert b"The certificate is self-signed, and untrusted" in data, data
            finally:
                through.terminate()
                through.wait(timeout=10)
    finally:
        tls.shutdown()


@case
def a_ca_bundle_that_holds_no_certificate_is_refused_at_start():
    empty = os.path.join(work, "empty.pem")
    open(empty, "w").write("not a certificate\n")
    done = subprocess.run([LIFELINE, "proxy", "--upstream", "https://127.0.0.1:9", "--port", "0", "--headless"],
                          capture_output=True, text=True, env=dict(ENV, AWS_CA_BUNDLE=empty), timeout=20)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert f"the CA bundle {empty} holds no PEM certificate" in done.stderr, done.stderr


server.shutdown()
if failures:
    print("FAILED:", ", ".join(failures))
    sys.exit(1)
print("all hostile upstream cases passed")
