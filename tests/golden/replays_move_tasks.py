"""Replays of the recorded message move tasks (test_sqs_move_task.snapshot.json, JSON protocol only: the query
protocol's 2012-11-05 API has no move tasks)."""
import uuid

from registry import replays


def _dlq_with_messages(c, count, sources=1):
    """A DLQ holding `count` messages from each of `sources` queues (maxReceiveCount 1, visibility 0)."""
    dlq = c.queue("dlq")
    source_urls = []
    for index in range(sources):
        url = c.queue(f"source{index}", VisibilityTimeout=0, RedrivePolicy=c.redrive(dlq, 1))
        for i in range(count):
            c.sqs.send_message(QueueUrl=url, MessageBody=f"message-{index}-{i}")
        received = 0
        while received < count:
            received += len(c.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", []))
        c.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)  # moves them
        source_urls.append(url)
    return dlq, source_urls


def _wait_for(c, source_arn, status):
    for _ in range(200):
        results = c.sqs.list_message_move_tasks(SourceArn=source_arn)["Results"]
        if results and results[0]["Status"] == status:
            return
        c.wait(0.25)
    raise AssertionError(f"the task never reached {status}")


@replays("test_basic_move_task_workflow", "json")
def basic_workflow(c):
    dlq, (source,) = _dlq_with_messages(c, 2)
    dlq_arn, source_arn = c.arn(dlq), c.arn(source)
    c.record("start-message-move-task-response",
             c.sqs.start_message_move_task(SourceArn=dlq_arn, DestinationArn=source_arn))
    _wait_for(c, dlq_arn, "COMPLETED")
    c.record("list-message-move-task-response", c.sqs.list_message_move_tasks(SourceArn=dlq_arn))


@replays("test_source_needs_redrive_policy", "json")
def source_not_a_dlq(c):
    plain, destination = c.queue("plain"), c.queue("destination")
    c.error(lambda: c.sqs.start_message_move_task(SourceArn=c.arn(plain), DestinationArn=c.arn(destination)), "error")


@replays("test_cancel_with_invalid_task_handle", "json")
def cancel_bad_handle(c):
    c.error(lambda: c.sqs.cancel_message_move_task(TaskHandle="foobared"), "error")


@replays("test_cancel_with_invalid_source_arn_in_task_handle", "json")
def cancel_unknown_source(c):
    handle = c.task_handle(str(uuid.uuid4()), "arn:aws:sqs:us-east-1:000000000000:" + c.name("missing"))
    c.error(lambda: c.sqs.cancel_message_move_task(TaskHandle=handle), "error")


@replays("test_cancel_with_invalid_task_id_in_task_handle", "json")
def cancel_unknown_task(c):
    dlq, _ = _dlq_with_messages(c, 1)
    handle = c.task_handle(str(uuid.uuid4()), c.arn(dlq))
    c.error(lambda: c.sqs.cancel_message_move_task(TaskHandle=handle), "error")


@replays("test_move_task_with_throughput_limit", "json")
def throughput_limit(c):
    dlq, (source,) = _dlq_with_messages(c, 2)
    c.record("start-message-move-task-response", c.sqs.start_message_move_task(
        SourceArn=c.arn(dlq), DestinationArn=c.arn(source), MaxNumberOfMessagesPerSecond=1))


@replays("test_destination_needs_to_exist", "json")
def missing_destination(c):
    dlq, _ = _dlq_with_messages(c, 1)
    c.error(lambda: c.sqs.start_message_move_task(
        SourceArn=c.arn(dlq), DestinationArn="arn:aws:sqs:us-east-1:000000000000:" + c.name("missing")), "error")


@replays("test_move_task_cancel", "json")
def cancel_running(c):
    c.use_exact_clock()
    dlq, (source,) = _dlq_with_messages(c, 10)
    dlq_arn = c.arn(dlq)
    handle = c.sqs.start_message_move_task(SourceArn=dlq_arn, DestinationArn=c.arn(source),
                                           MaxNumberOfMessagesPerSecond=1)["TaskHandle"]
    c.wait(1.5)  # one message a second: two have moved
    c.record("list-while", c.sqs.list_message_move_tasks(SourceArn=dlq_arn))
    c.record("cancel", c.sqs.cancel_message_move_task(TaskHandle=handle))
    c.record("list-after", c.sqs.list_message_move_tasks(SourceArn=dlq_arn))


@replays("test_move_task_delete_destination_queue_while_running", "json")
def destination_deleted(c):
    c.use_exact_clock()
    dlq, (source,) = _dlq_with_messages(c, 10)
    dlq_arn = c.arn(dlq)
    c.sqs.start_message_move_task(SourceArn=dlq_arn, DestinationArn=c.arn(source), MaxNumberOfMessagesPerSecond=1)
    c.wait(2.5)  # three have moved
    c.sqs.delete_queue(QueueUrl=source)
    c.wait(1)
    c.record("list", c.sqs.list_message_move_tasks(SourceArn=dlq_arn))


@replays("test_start_multiple_move_tasks", "json")
def two_tasks(c):
    c.use_exact_clock()
    dlq, (source,) = _dlq_with_messages(c, 10)
    start = dict(SourceArn=c.arn(dlq), DestinationArn=c.arn(source), MaxNumberOfMessagesPerSecond=1)
    c.sqs.start_message_move_task(**start)
    c.error(lambda: c.sqs.start_message_move_task(**start), "error")


@replays("test_move_task_workflow_with_default_destination", "json")
def default_destination(c):
    dlq, (source,) = _dlq_with_messages(c, 2)
    dlq_arn = c.record("source-arn", c.arn(dlq))
    c.record("original-source", c.arn(source))
    c.record("start-message-move-task-response", c.sqs.start_message_move_task(SourceArn=dlq_arn))
    _wait_for(c, dlq_arn, "COMPLETED")
    c.record("list-message-move-task-response", c.sqs.list_message_move_tasks(SourceArn=dlq_arn))


@replays("test_move_task_workflow_with_multiple_sources_as_default_destination", "json")
def default_destinations(c):
    dlq, (first, second) = _dlq_with_messages(c, 2, sources=2)
    dlq_arn = c.record("source-arn", c.arn(dlq))
    c.record("original-source-1", c.arn(first))
    c.record("original-source-2", c.arn(second))
    c.record("start-message-move-task-response", c.sqs.start_message_move_task(SourceArn=dlq_arn))
    _wait_for(c, dlq_arn, "COMPLETED")
    c.record("list-message-move-task-response", c.sqs.list_message_move_tasks(SourceArn=dlq_arn))
