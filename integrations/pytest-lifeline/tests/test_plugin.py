"""The plugin's own tests: the fixture's server lives for its test and no longer, the timeline is written only for a
test that failed (or with --lifeline-keep) and named in its report, and tests side by side get servers of their own."""
import os
import urllib.error
import urllib.request

import pytest

from pytest_lifeline import LifelineError, LifelineSQS

pytest_plugins = ["pytester"]

INNER = '''
def test_passes(lifeline_sqs):
    sqs = lifeline_sqs.client()
    sqs.create_queue(QueueName="ok")
    assert lifeline_sqs.advance("1s") == 1000

def test_fails(lifeline_sqs):
    sqs = lifeline_sqs.client()
    queue = sqs.create_queue(QueueName="jobs", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
    sqs.send_message(QueueUrl=queue, MessageBody="job")
    sqs.receive_message(QueueUrl=queue)
    lifeline_sqs.advance("10s")
    assert sqs.receive_message(QueueUrl=queue).get("Messages"), "expected the job back after 10 s"
'''


def test_the_server_lives_for_its_test_only(lifeline_sqs):
    url = lifeline_sqs.endpoint_url
    assert lifeline_sqs.now_ms == 0
    assert lifeline_sqs.advance(1500) == 1500
    lifeline_sqs.stop()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url + "/_lifeline/clock", timeout=5)


def test_a_port_given_is_the_port_it_listens_on():
    import socket
    with socket.socket() as probe:  # a port free now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = LifelineSQS(port=port)
    try:
        assert server.endpoint_url == f"http://127.0.0.1:{port}"
        assert server.advance("1m30s") == 90000
    finally:
        server.stop()


def test_the_port_option_reaches_the_fixture(pytester):
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    pytester.makepyfile(f"""
def test_port(lifeline_sqs):
    assert lifeline_sqs.endpoint_url == "http://127.0.0.1:{port}"
""")
    assert pytester.runpytest("-p", "pytest_lifeline.plugin", f"--lifeline-port={port}").ret == 0


def test_two_servers_side_by_side_have_their_own_ports_and_clocks():
    a, b = LifelineSQS(), LifelineSQS()
    try:
        assert a.endpoint_url != b.endpoint_url
        a.advance("1m")
        assert (a.now_ms, b.now_ms) == (60000, 0)
    finally:
        a.stop()
        b.stop()


def test_a_refused_advance_raises_with_the_servers_reason(lifeline_sqs):
    with pytest.raises(LifelineError, match=r"by: the clock only moves forward, got \"-1s\""):
        lifeline_sqs.advance("-1s")
    assert lifeline_sqs.now_ms == 0


def test_a_failed_test_gets_its_timeline_and_a_passing_one_none(pytester):
    pytester.makepyfile(INNER)
    result = pytester.runpytest("-p", "pytest_lifeline.plugin")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*SQS timeline: .pytest-lifeline/test_fails.png*"])
    folder = pytester.path / ".pytest-lifeline"
    assert sorted(os.listdir(folder)) == ["test_fails.lifeline", "test_fails.png"]
    assert (folder / "test_fails.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_session_server_is_shared_by_the_tests_that_take_it(pytester):
    pytester.makepyfile('''
urls = []

def test_one(lifeline_sqs_session):
    urls.append(lifeline_sqs_session.endpoint_url)
    lifeline_sqs_session.advance("1s")

def test_two(lifeline_sqs_session):
    urls.append(lifeline_sqs_session.endpoint_url)
    assert urls[0] == urls[1]
    assert lifeline_sqs_session.now_ms == 1000
''')
    pytester.runpytest("-p", "pytest_lifeline.plugin").assert_outcomes(passed=2)


def test_keep_writes_every_tests_run(pytester):
    pytester.makepyfile(INNER)
    result = pytester.runpytest("-p", "pytest_lifeline.plugin", "--lifeline-keep")
    result.assert_outcomes(passed=1, failed=1)
    assert sorted(os.listdir(pytester.path / ".pytest-lifeline")) == [
        "test_fails.lifeline", "test_fails.png", "test_passes.lifeline", "test_passes.png"]


def test_reset_gives_a_fresh_endpoint_on_the_same_port(lifeline_sqs):
    sqs = lifeline_sqs.client()
    queue = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    first = sqs.send_message(QueueUrl=queue, MessageBody="one")["MessageId"]
    lifeline_sqs.advance("5m")
    url = lifeline_sqs.endpoint_url
    assert lifeline_sqs.reset() == 0
    assert (lifeline_sqs.endpoint_url, lifeline_sqs.now_ms, sqs.list_queues().get("QueueUrls", [])) == (url, 0, [])
    queue = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    # A new id group: the next test's message never carries the last test's id.
    assert sqs.send_message(QueueUrl=queue, MessageBody="two")["MessageId"] != first
    assert [(lane["body"], lane["state"]) for lane in lifeline_sqs.lanes("jobs")["queues"][0]["lanes"]] == [
        ("two", "visible")]


def test_faults_injected_by_the_fixture_are_the_same_for_the_same_seed(lifeline_sqs):
    sqs = lifeline_sqs.client()

    def deliveries():
        queue = sqs.create_queue(QueueName="payments")["QueueUrl"]
        for n in range(10):
            sqs.send_message(QueueUrl=queue, MessageBody=f"payment {n}")
        got = []
        for _ in range(10):
            for m in sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10).get("Messages", []):
                got.append(m["Body"])
                sqs.delete_message(QueueUrl=queue, ReceiptHandle=m["ReceiptHandle"])
        return got

    plan = {"seed": 5, "faults": [{"kind": "duplicate", "rate": 0.4}]}
    assert lifeline_sqs.faults(plan)["plan"] == plan
    first = deliveries()
    struck = lifeline_sqs.faults()["struck"]["duplicate"]
    assert struck > 0 and len(first) == 10 + struck
    lifeline_sqs.reset()  # the plan stays, its draws start again from its seed
    assert deliveries() == first
    assert lifeline_sqs.faults(None)["plan"] is None
    lifeline_sqs.reset()
    assert sorted(deliveries()) == sorted(f"payment {n}" for n in range(10))
    with pytest.raises(LifelineError, match=r"faults\[0\]\.kind: one of duplicate, shortPoll"):
        lifeline_sqs.faults([{"kind": "slow", "rate": 1}])


def test_the_server_draws_its_run(lifeline_sqs):
    lifeline_sqs.client().create_queue(QueueName="drawn")
    assert lifeline_sqs.timeline()[:8] == b"\x89PNG\r\n\x1a\n"
    assert lifeline_sqs.timeline("svg", "800x450").startswith(b"<?xml")
    with pytest.raises(LifelineError, match=r"size: must be WIDTHxHEIGHT from 200x150 to 4096x4096"):
        lifeline_sqs.timeline(size="10x10")
