#!/usr/bin/env python3
"""Real clients through `lifeline proxy` to an upstream this test starts on loopback (`lifeline serve`, and
`moto_server` where the machine has it): every answer through the proxy equals the upstream's direct answer (ids
and handles aside), the recorded lanes have the states the calls imply, an upstream that is down gives the client
SQS's 503 shape while the proxy goes on, and the user's credentials appear nowhere the proxy writes.

Usage: proxy_clients.py LIFELINE AWS NODE_MODULES_DIR"""
import csv
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import boto3
import botocore
from botocore.config import Config
from botocore.exceptions import ClientError

LIFELINE, AWS, NODE_MODULES = sys.argv[1], sys.argv[2], sys.argv[3]
# The user's credentials, as the proxy finds them: they must never show up in its output or its run file.
KEY_ID, SECRET, TOKEN = "AKIAPROXYTESTKEY0042", "proxy-secret-4f9c2e7a1b", "proxy-session-token-77d1e0"
work = tempfile.mkdtemp(prefix="lifeline-proxy-")
failures = []


def case(function):
    try:
        function()
        print("ok  ", function.__name__)
    except Exception as error:  # report every case, then fail
        failures.append(function.__name__)
        print("FAIL", function.__name__, repr(error))
    return function


def start(args, env=None, pattern=r"http://127\.0\.0\.1:(\d+)"):
    log = open(os.path.join(work, args[1] + ".log"), "w+")
    process = subprocess.Popen([LIFELINE] + args, stdout=subprocess.PIPE, stderr=log, text=True, env=env)
    line = process.stdout.readline()
    match = re.search(pattern, line)
    if not match:
        process.kill()
        raise SystemExit(f"lifeline {args[0]} did not start: {line!r} {open(log.name).read()}")
    return process, "http://127.0.0.1:" + match.group(1), line, log.name


upstream, upstream_url, _, _ = start(["serve", "--headless", "--port", "0"])
proxy_env = dict(os.environ, AWS_ACCESS_KEY_ID=KEY_ID, AWS_SECRET_ACCESS_KEY=SECRET, AWS_SESSION_TOKEN=TOKEN,
                 AWS_REGION="eu-west-1", HOME=work)
record = os.path.join(work, "seen.lifeline")
proxy, proxy_url, banner, proxy_log = start(
    ["proxy", "--upstream", upstream_url, "--port", "0", "--headless", "--record", record, "--poll-attributes",
     "200ms"], env=proxy_env)
banner += proxy.stdout.readline()
print("proxy:", banner.strip().replace("\n", " / "))


def client(url):
    # The client's own keys are throwaway: the proxy signs again with the user's.
    return boto3.client("sqs", endpoint_url=url, region_name="us-east-1", aws_access_key_id="client-key",
                        aws_secret_access_key="client-secret",
                        config=Config(retries={"max_attempts": 0}, read_timeout=30))


via, direct = client(proxy_url), client(upstream_url)
protocol = via.meta.service_model.protocol
print(f"boto3 {boto3.__version__} botocore {botocore.__version__}: {protocol} protocol")
IDS = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def same_shape(a, b, path="answer"):
    """Equal but for message ids, receipt handles, request ids and timestamps."""
    if isinstance(a, dict):
        assert set(a) - {"ResponseMetadata"} == set(b) - {"ResponseMetadata"}, f"{path}: keys {set(a)} != {set(b)}"
        for k in a:
            if k not in ("ResponseMetadata", "ReceiptHandle", "MessageId", "SentTimestamp",
                         "ApproximateFirstReceiveTimestamp", "CreatedTimestamp", "LastModifiedTimestamp",
                         "QueueUrl", "QueueArn", "SequenceNumber"):
                same_shape(a[k], b[k], path + "." + k)
    elif isinstance(a, list):
        assert len(a) == len(b), f"{path}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            same_shape(x, y, f"{path}[{i}]")
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


def pair(name, **attributes):
    """A queue made through the proxy and its twin made directly, with the same attributes."""
    return (via.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"],
            direct.create_queue(QueueName=name + "-direct", Attributes=attributes)["QueueUrl"])


ids = {}


@case
def answers_equal_the_direct_ones():
    q, d = pair("orders", VisibilityTimeout="2")
    for c, url in ((via, q), (direct, d)):
        ids.setdefault("sent" if c is via else "sent-direct", []).append(
            c.send_message(QueueUrl=url, MessageBody="first", MessageAttributes={
                "kind": {"DataType": "String", "StringValue": "order"}})["MessageId"])
    a = via.send_message(QueueUrl=q, MessageBody="delayed", DelaySeconds=1)
    b = direct.send_message(QueueUrl=d, MessageBody="delayed", DelaySeconds=1)
    same_shape(a, b)
    ids["delayed"] = a["MessageId"]
    # Its own 30 s: the queue's 2 s could run out before the delete on a loaded machine.
    r1 = via.receive_message(QueueUrl=q, MaxNumberOfMessages=10, AttributeNames=["All"], VisibilityTimeout=30)
    r2 = direct.receive_message(QueueUrl=d, MaxNumberOfMessages=10, AttributeNames=["All"], VisibilityTimeout=30)
    same_shape(r1, r2)
    assert [m["Body"] for m in r1["Messages"]] == ["first"]
    via.delete_message(QueueUrl=q, ReceiptHandle=r1["Messages"][0]["ReceiptHandle"])
    same_shape(via.get_queue_attributes(QueueUrl=q, AttributeNames=["VisibilityTimeout", "DelaySeconds"]),
               direct.get_queue_attributes(QueueUrl=d, AttributeNames=["VisibilityTimeout", "DelaySeconds"]))
    # The delayed message: a long poll takes it as its second ends, and another as its 2 s visibility timeout ends
    # unanswered (each answered when the upstream has it, however slow the machine; the proxy allows the first
    # receive's time upstream between the upstream's clock and its own).
    got = via.receive_message(QueueUrl=q, WaitTimeSeconds=10)["Messages"]
    assert got[0]["MessageId"] == ids["delayed"], got
    again = via.receive_message(QueueUrl=q, WaitTimeSeconds=10, AttributeNames=["ApproximateReceiveCount"])
    assert again["Messages"][0]["Attributes"]["ApproximateReceiveCount"] == "2", again
    via.delete_message(QueueUrl=q, ReceiptHandle=again["Messages"][0]["ReceiptHandle"])
    ids["orders"] = q


@case
def errors_pass_through_unchanged():
    for call in (lambda c: c.get_queue_url(QueueName="no-such-queue"),
                 lambda c: c.send_message(QueueUrl=ids["orders"].replace("orders", "gone"), MessageBody="x"),
                 lambda c: c.create_queue(QueueName="bad name!")):
        answers = []
        for c in (via, direct):
            try:
                call(c)
                answers.append(None)
            except ClientError as error:
                answers.append((error.response["Error"], error.response["ResponseMetadata"]["HTTPStatusCode"]))
        assert answers[0] and answers[0] == answers[1], answers


@case
def a_message_sent_around_the_proxy_is_first_seen():
    q = ids["orders"]
    ids["around"] = direct.send_message(QueueUrl=q, MessageBody="around")["MessageId"]
    got = via.receive_message(QueueUrl=q, WaitTimeSeconds=2, AttributeNames=["SentTimestamp"])["Messages"]
    assert got[0]["MessageId"] == ids["around"]
    via.delete_message(QueueUrl=q, ReceiptHandle=got[0]["ReceiptHandle"])


@case
def batches_and_visibility_changes():
    q = ids["orders"]
    sent = via.send_message_batch(QueueUrl=q, Entries=[{"Id": "a", "MessageBody": "A"},
                                                      {"Id": "b", "MessageBody": "B"}])
    assert sorted(e["Id"] for e in sent["Successful"]) == ["a", "b"]
    ids["batch"] = [e["MessageId"] for e in sorted(sent["Successful"], key=lambda e: e["Id"])]
    got = via.receive_message(QueueUrl=q, MaxNumberOfMessages=10, WaitTimeSeconds=1)["Messages"]
    while len(got) < 2:
        got += via.receive_message(QueueUrl=q, MaxNumberOfMessages=10, WaitTimeSeconds=1)["Messages"]
    by_body = {m["Body"]: m for m in got}
    changed = via.change_message_visibility_batch(QueueUrl=q, Entries=[
        {"Id": "x", "ReceiptHandle": by_body["A"]["ReceiptHandle"], "VisibilityTimeout": 60}])
    assert [e["Id"] for e in changed["Successful"]] == ["x"]
    deleted = via.delete_message_batch(QueueUrl=q, Entries=[
        {"Id": "y", "ReceiptHandle": by_body["B"]["ReceiptHandle"]}])
    assert [e["Id"] for e in deleted["Successful"]] == ["y"]


def listening(port, within=20.0):
    """Returns once something accepts connections on the loopback port (a server just started), or fails."""
    deadline = time.monotonic() + within
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def run(args, env=None):
    return subprocess.run(args, capture_output=True, text=True, timeout=60, env=env)


@case
def the_aws_cli_through_the_proxy():
    env = dict(os.environ, AWS_ACCESS_KEY_ID="cli", AWS_SECRET_ACCESS_KEY="cli", AWS_DEFAULT_REGION="us-east-1",
               HOME=work)
    outputs = []
    for url in (proxy_url, upstream_url):
        listed = run([AWS, "--endpoint-url", url, "sqs", "get-queue-url", "--queue-name", "orders"], env)
        assert listed.returncode == 0, listed.stderr
        outputs.append(json.loads(listed.stdout))
        missing = run([AWS, "--endpoint-url", url, "sqs", "get-queue-url", "--queue-name", "nope"], env)
        outputs.append((missing.returncode, missing.stderr.strip()))
    assert outputs[0] == outputs[2] and outputs[1] == outputs[3], outputs
    sent = run([AWS, "--endpoint-url", proxy_url, "sqs", "send-message", "--queue-url", ids["orders"],
                "--message-body", "from the CLI"], env)
    assert sent.returncode == 0, sent.stderr
    ids["cli"] = json.loads(sent.stdout)["MessageId"]


@case
def the_javascript_sdk_in_json_through_the_proxy():
    script = os.path.join(work, "json.mjs")
    open(script, "w").write("""
import { SQSClient, SendMessageCommand, ReceiveMessageCommand, DeleteMessageCommand } from "@aws-sdk/client-sqs";
const sqs = new SQSClient({ endpoint: process.argv[2], region: "us-east-1",
  credentials: { accessKeyId: "js-key", secretAccessKey: "js-secret" } });
const QueueUrl = process.argv[3];
const sent = await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: "from JavaScript" }));
let got = [];
while (!got.some((m) => m.MessageId === sent.MessageId)) {
  const r = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
  got = r.Messages ?? [];
  for (const m of got) await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: m.ReceiptHandle }));
}
console.log(JSON.stringify({ id: sent.MessageId, deleted: got.map((m) => m.MessageId) }));
""")
    env = dict(os.environ, NODE_PATH=NODE_MODULES)
    # Beside node_modules, where an ES module's imports are found; named for this process, since the query and JSON
    # runs of this file go side by side under ctest -j2 (one name, and one removed the other's script).
    copied = os.path.join(os.path.dirname(NODE_MODULES), f"proxy-json-client-{os.getpid()}.mjs")
    shutil.copy(script, copied)
    try:
        out = run(["node", copied, proxy_url, ids["orders"]], env)
    finally:
        os.remove(copied)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    ids["json"] = result["id"]
    ids["json-deleted"] = result["deleted"]


@case
def pipelined_requests_are_answered_in_order_and_a_web_page_is_refused_before_going_upstream():
    port = int(proxy_url.rsplit(":", 1)[1])
    body = b"Action=ListQueues"

    def request(extra):
        return (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra
                + b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n" % len(body) + body)

    with socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(5)
        s.sendall(request(b"") + request(b"Origin: https://page.example\r\n") + request(b""))
        data = b""
        while data.count(b"HTTP/1.1 ") < 3:
            chunk = s.recv(65536)
            assert chunk, data
            data += chunk
    assert re.findall(rb"HTTP/1.1 (\d+)", data) == [b"200", b"403", b"200"], data


@case
def an_upstream_that_is_down_gets_a_503_and_the_proxy_goes_on():
    upstream.send_signal(signal.SIGTERM)
    upstream.wait(timeout=10)
    for _ in range(2):
        try:
            via.list_queues()
            raise AssertionError("answered with the upstream down")
        except ClientError as error:
            assert error.response["Error"]["Code"] == "ServiceUnavailable", error.response
            assert error.response["ResponseMetadata"]["HTTPStatusCode"] == 503
            assert "got no answer from " + upstream_url in error.response["Error"]["Message"], error.response
    assert proxy.poll() is None, "the proxy stopped"


# Stop the proxy as Ctrl+C would: it writes the run file whole.
proxy.send_signal(signal.SIGINT)
out, _ = proxy.communicate(timeout=20)
print("proxy said:", out.strip())


@case
def the_proxy_stopped_cleanly_and_recorded():
    assert proxy.returncode == 0, proxy.returncode
    assert os.path.exists(record) and not os.path.exists(record + ".part")


def lane_causes():
    csv_path = os.path.join(work, "seen.csv")
    done = run([LIFELINE, "run", record, "--csv", csv_path])
    assert done.returncode == 0, done.stderr
    lanes = {}
    for row in csv.DictReader(open(csv_path, newline="")):
        if row["message_id"] and (row["from"] != row["to"] or row["cause"] == "visibility-changed"):
            lanes.setdefault(row["message_id"], []).append(row["cause"])
    return lanes


@case
def the_recorded_lanes_have_the_states_the_calls_imply():
    lanes = lane_causes()
    assert lanes[ids["sent"][0]] == ["send", "receive", "delete"], lanes[ids["sent"][0]]
    assert lanes[ids["delayed"]] == ["send", "delay-ended", "receive", "visibility-timeout", "receive", "delete"], \
        lanes[ids["delayed"]]
    assert lanes[ids["around"]] == ["first-seen", "receive", "delete"], lanes[ids["around"]]
    a, b = ids["batch"]
    assert lanes[a] == ["send", "receive", "visibility-changed"], lanes[a]
    assert lanes[b] == ["send", "receive", "delete"], lanes[b]
    assert lanes[ids["cli"]][0] == "send" and lanes[ids["json"]][0] == "send"
    assert lanes[ids["json"]][-1] == "delete", lanes[ids["json"]]
    assert ids["sent-direct"][0] not in lanes  # the twin queue's traffic never passed the proxy


@case
def credentials_appear_nowhere_the_proxy_writes():
    written = open(record, "rb").read() + open(proxy_log, "rb").read() + (banner + out).encode()
    written += open(os.path.join(work, "seen.csv"), "rb").read()
    for secret in (KEY_ID, SECRET, TOKEN):
        assert secret.encode() not in written, secret
    assert "environment" in banner  # where they came from is said, not what they are


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@case
def moto_server_as_the_upstream():
    moto = shutil.which("moto_server")
    if not moto:
        print("     moto_server is not on this machine (Debian's archive lacks it): its part is skipped")
        return
    port = free_port()
    server = subprocess.Popen([moto, "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for line in server.stderr:
            if "Running on" in line:
                break
        moto_url = f"http://127.0.0.1:{port}"
        moto_record = os.path.join(work, "moto.lifeline")
        second, second_url, _, _ = start(["proxy", "--upstream", moto_url, "--port", "0", "--headless", "--record",
                                          moto_record], env=proxy_env)
        via_moto, moto_direct = client(second_url), client(moto_url)
        q = via_moto.create_queue(QueueName="moto-orders", Attributes={"VisibilityTimeout": "1"})["QueueUrl"]
        d = moto_direct.create_queue(QueueName="moto-twin", Attributes={"VisibilityTimeout": "1"})["QueueUrl"]
        same_shape(via_moto.send_message(QueueUrl=q, MessageBody="m"),
                   moto_direct.send_message(QueueUrl=d, MessageBody="m"))
        first = via_moto.receive_message(QueueUrl=q, WaitTimeSeconds=1)["Messages"][0]
        same_shape(first, moto_direct.receive_message(QueueUrl=d, WaitTimeSeconds=1)["Messages"][0])
        time.sleep(1.5)
        again = via_moto.receive_message(QueueUrl=q, WaitTimeSeconds=1)["Messages"][0]
        via_moto.delete_message(QueueUrl=q, ReceiptHandle=again["ReceiptHandle"])
        second.send_signal(signal.SIGINT)
        second.communicate(timeout=20)
        csv_path = os.path.join(work, "moto.csv")
        assert run([LIFELINE, "run", moto_record, "--csv", csv_path]).returncode == 0
        causes = [r["cause"] for r in csv.DictReader(open(csv_path, newline=""))
                  if r["message_id"] == first["MessageId"] and r["from"] != r["to"]]
        assert causes == ["send", "receive", "visibility-timeout", "receive", "delete"], causes
    finally:
        server.terminate()
        server.wait(timeout=10)


@case
def an_upstream_whose_certificate_does_not_verify_is_refused():
    # TLS verification is on: a self-signed upstream (openssl s_server on loopback) is not trusted, and the client
    # gets a 503 that says why.
    key, cert = os.path.join(work, "tls.key"), os.path.join(work, "tls.crt")
    made = run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                "-subj", "/CN=127.0.0.1"])
    assert made.returncode == 0, made.stderr
    port = free_port()
    server = subprocess.Popen(["openssl", "s_server", "-accept", str(port), "-cert", cert, "-key", key, "-www",
                               "-quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        listening(port)
        tls, tls_url, _, _ = start(["proxy", "--upstream", f"https://127.0.0.1:{port}", "--port", "0", "--headless"],
                                   env=proxy_env)
        try:
            client(tls_url).list_queues()
            raise AssertionError("a self-signed upstream was trusted")
        except ClientError as error:
            assert error.response["Error"]["Code"] == "ServiceUnavailable", error.response
            assert "TLS certificate was refused: The certificate is self-signed, and untrusted" in \
                error.response["Error"]["Message"], error.response
        finally:
            tls.terminate()
            tls.wait(timeout=10)
    finally:
        server.terminate()
        server.wait(timeout=10)


shutil.rmtree(work, ignore_errors=True) if not os.environ.get("KEEP") else print("kept", work)
if failures:
    print("FAILED:", ", ".join(failures))
    sys.exit(1)
print("all proxy cases passed")
