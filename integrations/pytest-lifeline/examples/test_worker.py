"""The worker's behaviour against a local SQS whose clock the test moves: none of these tests sleeps, so a 30 s
visibility timeout, three receives before the DLQ and a 15-minute delay take milliseconds of wall time."""
import json
import threading

from worker import work_once


def failing(body):
    raise RuntimeError("payment service down")


def test_a_failed_job_comes_back_after_its_visibility_timeout(lifeline_sqs):
    sqs = lifeline_sqs.client()
    queue = sqs.create_queue(QueueName="jobs", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
    sqs.send_message(QueueUrl=queue, MessageBody="order-1")
    assert work_once(sqs, queue, failing) == []
    lifeline_sqs.advance("29s")
    assert work_once(sqs, queue, lambda body: None) == []  # still hidden: its 30 s are not up
    lifeline_sqs.advance("1s")
    assert work_once(sqs, queue, lambda body: None) == ["order-1"]


def test_a_poison_job_goes_to_the_dlq_at_the_receive_after_its_third(lifeline_sqs):
    sqs = lifeline_sqs.client()
    dlq = sqs.create_queue(QueueName="jobs-dlq")["QueueUrl"]
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    queue = sqs.create_queue(QueueName="jobs", Attributes={
        "VisibilityTimeout": "30",
        "RedrivePolicy": json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": "3"})})["QueueUrl"]
    sqs.send_message(QueueUrl=queue, MessageBody="poison")
    for _ in range(3):
        work_once(sqs, queue, failing)
        lifeline_sqs.advance("30s")
    # Received three times, it is back in the queue: SQS moves it when a fourth receive would exceed the count.
    assert [m["Attributes"]["ApproximateReceiveCount"] for m in lifeline_sqs.messages(queue)] == ["3"]
    assert work_once(sqs, queue, failing) == []
    assert lifeline_sqs.messages(queue, invisible=True, delayed=True) == []
    moved = lifeline_sqs.messages(dlq)
    assert [m["Body"] for m in moved] == ["poison"]
    assert moved[0]["Attributes"]["ApproximateReceiveCount"] == "3"


def test_a_fifo_group_is_handled_in_order_one_at_a_time(lifeline_sqs):
    sqs = lifeline_sqs.client()
    queue = sqs.create_queue(QueueName="orders.fifo", Attributes={
        "FifoQueue": "true", "ContentBasedDeduplication": "true", "VisibilityTimeout": "30"})["QueueUrl"]
    for step in ("created", "paid", "shipped"):
        sqs.send_message(QueueUrl=queue, MessageBody=step, MessageGroupId="order-7")
    seen = []
    # The first attempt fails: the group waits for it; nothing after it is handed out meanwhile.
    assert work_once(sqs, queue, failing) == []
    assert work_once(sqs, queue, seen.append) == []
    lifeline_sqs.advance("30s")
    while len(seen) < 3:
        work_once(sqs, queue, seen.append)
    assert seen == ["created", "paid", "shipped"]


def test_a_delayed_job_is_hidden_for_its_delay_and_only_then(lifeline_sqs):
    sqs = lifeline_sqs.client()
    queue = sqs.create_queue(QueueName="reminders")["QueueUrl"]
    sqs.send_message(QueueUrl=queue, MessageBody="remind", DelaySeconds=900)
    lifeline_sqs.advance("899s")
    assert [m["Attributes"]["IsDelayed"] for m in lifeline_sqs.messages(queue, delayed=True)] == ["true"]
    assert work_once(sqs, queue, lambda body: None) == []
    lifeline_sqs.advance("1s")
    assert work_once(sqs, queue, lambda body: None) == ["remind"]


def test_a_long_poll_waits_for_virtual_time_and_is_answered_by_it(lifeline_sqs):
    sqs = lifeline_sqs.client()
    queue = sqs.create_queue(QueueName="late")["QueueUrl"]
    sqs.send_message(QueueUrl=queue, MessageBody="in a minute", DelaySeconds=60)
    lifeline_sqs.advance("60s")
    assert work_once(sqs, queue, lambda body: None, wait_seconds=20) == ["in a minute"]


def test_a_long_poll_started_first_is_answered_by_the_advance_that_waits_for_it(lifeline_sqs):
    # The worker long-polls on its own thread; the test moves the clock once the poll waits (after_waiting), never
    # sooner and without a sleep, so the message due in 10 s reaches the poll that has waited for it since 0 (a 20 s
    # poll: an advance of 30 s would end it empty at 20 s, as SQS would).
    sqs = lifeline_sqs.client()
    queue = sqs.create_queue(QueueName="inbox")["QueueUrl"]
    sqs.send_message(QueueUrl=queue, MessageBody="due in 10 s", DelaySeconds=10)
    done = []
    worker = threading.Thread(target=lambda: done.extend(work_once(sqs, queue, lambda body: None, wait_seconds=20)))
    worker.start()
    lifeline_sqs.advance("10s", after_waiting=1)
    worker.join(timeout=30)
    assert done == ["due in 10 s"]
    assert lifeline_sqs.waiting == {}
