"""Replays of the recorded message-level cases: sends and their limits, receives and their attribute filters,
batches, visibility, deletes and dead-letter queues."""
import uuid

from registry import replays

ATTRIBUTE_K = {"k": {"DataType": "String", "StringValue": "x"}}
ATTRIBUTE_K_SIZE = len("k") + len("String") + len("x")


@replays("test_send_receive_max_number_of_messages")
def max_number_of_messages(c):
    url = c.queue()
    c.sqs.send_message(QueueUrl=url, MessageBody="message")
    c.error(lambda: c.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=11), "send_max_number_of_messages")


@replays("test_send_oversized_message")
def oversized(c):
    url = c.queue()
    body = "a" * (1048576 - ATTRIBUTE_K_SIZE + 1)
    c.error(lambda: c.sqs.send_message(QueueUrl=url, MessageBody=body, MessageAttributes=ATTRIBUTE_K),
            "send_oversized_message")


@replays("test_send_message_with_updated_maximum_message_size")
def oversized_after_update(c):
    url = c.queue()
    c.sqs.set_queue_attributes(QueueUrl=url, Attributes={"MaximumMessageSize": "1024"})
    c.sqs.send_message(QueueUrl=url, MessageBody="a" * 1024)
    body = "a" * (1024 - ATTRIBUTE_K_SIZE + 1)
    c.error(lambda: c.sqs.send_message(QueueUrl=url, MessageBody=body, MessageAttributes=ATTRIBUTE_K),
            "send_oversized_message")


@replays("test_send_message_batch_with_oversized_contents")
def batch_oversized(c):
    url = c.queue()
    entries = [{"Id": "1", "MessageBody": "a" * (1048576 - ATTRIBUTE_K_SIZE), "MessageAttributes": ATTRIBUTE_K},
               {"Id": "2", "MessageBody": "a"}]
    c.error(lambda: c.sqs.send_message_batch(QueueUrl=url, Entries=entries), "send_oversized_message_batch")


@replays("test_send_message_batch_with_oversized_contents_with_updated_maximum_message_size")
def batch_ignores_queue_maximum(c):
    url = c.queue()
    c.sqs.set_queue_attributes(QueueUrl=url, Attributes={"MaximumMessageSize": "2048"})
    entries = [{"Id": "1", "MessageBody": "a" * (2048 - ATTRIBUTE_K_SIZE), "MessageAttributes": ATTRIBUTE_K},
               {"Id": "2", "MessageBody": "a"}]
    c.record("send_oversized_message_batch", c.sqs.send_message_batch(QueueUrl=url, Entries=entries))


@replays("test_send_batch_message_size")
def batch_entry_too_large(c):
    url = c.queue()
    c.sqs.set_queue_attributes(QueueUrl=url, Attributes={"MaximumMessageSize": "1024"})
    entries = [{"Id": str(uuid.uuid4()), "MessageBody": "a" * 1025},
               {"Id": str(uuid.uuid4()), "MessageBody": "a" * 1024}]
    c.record("send-message-batch-result", c.sqs.send_message_batch(QueueUrl=url, Entries=entries))


@replays("test_fifo_queue_send_message_with_delay_seconds_fails")
def fifo_delay_refused(c):
    url = c.queue(fifo=True, ContentBasedDeduplication="true")
    c.error(lambda: c.sqs.send_message(QueueUrl=url, MessageBody="message-1", MessageGroupId="1", DelaySeconds=2),
            "send_message")


@replays("test_fifo_queue_send_message_with_zero_delay_defaults_to_queue_delay")
def fifo_zero_delay(c):
    url = c.queue(fifo=True, ContentBasedDeduplication="true", DelaySeconds=2)
    c.record("send_message_result", c.sqs.send_message(QueueUrl=url, MessageBody="message-1", MessageGroupId="1",
                                                       DelaySeconds=0))
    c.record("receive_message_initial_result", c.sqs.receive_message(QueueUrl=url))
    c.wait(3)
    c.record("receive_message_after_delay_result", c.sqs.receive_message(QueueUrl=url))


@replays("test_fifo_message_attributes")
def fifo_message_attributes(c):
    url = c.queue(fifo=True, ContentBasedDeduplication="true", VisibilityTimeout=0, DeduplicationScope="messageGroup",
                  FifoThroughputLimit="perMessageGroupId")
    c.record("send_message", c.sqs.send_message(QueueUrl=url, MessageBody="message-body-1", MessageGroupId="group-1",
                                                MessageDeduplicationId="dedup-1"))
    c.record("receive_message_0", c.sqs.receive_message(QueueUrl=url, AttributeNames=["All"], WaitTimeSeconds=10))
    c.record("receive_message_1", c.sqs.receive_message(QueueUrl=url, AttributeNames=["All"], WaitTimeSeconds=10))


@replays("test_fifo_empty_message_groups_added_back_to_queue")
def fifo_empty_group_back(c):
    url = c.queue(fifo=True, ContentBasedDeduplication="true")
    c.sqs.send_message(QueueUrl=url, MessageBody="Message 1", MessageGroupId="group")
    first = c.record("inital-fifo-receive", c.sqs.receive_message(QueueUrl=url))
    c.sqs.delete_message(QueueUrl=url, ReceiptHandle=first["Messages"][0]["ReceiptHandle"])
    c.record("empty-fifo-receive", c.sqs.receive_message(QueueUrl=url))
    c.sqs.send_message(QueueUrl=url, MessageBody="Message 2", MessageGroupId="group")
    c.record("final-fifo-receive", c.sqs.receive_message(QueueUrl=url))


@replays("test_too_many_entries_in_batch_request")
def too_many_entries(c):
    url = c.queue()
    entries = [{"Id": f"message-{i}", "MessageBody": f"messageBody-{i}"} for i in range(20)]
    c.error(lambda: c.sqs.send_message_batch(QueueUrl=url, Entries=entries), "test_too_many_entries_in_batch_request")


@replays("test_invalid_batch_id")
def invalid_batch_id(c):
    url = c.queue()
    c.error(lambda: c.sqs.send_message_batch(QueueUrl=url, Entries=[{"Id": "message:x1", "MessageBody": "m"}]),
            "test_invalid_batch_id")


@replays("test_send_batch_missing_deduplication_id_for_fifo_queue")
def batch_missing_dedup(c):
    url = c.queue(fifo=True, ContentBasedDeduplication="false")
    entries = [{"Id": "a", "MessageBody": "messageBody", "MessageGroupId": "test-group", "MessageDeduplicationId": "d"},
               {"Id": "b", "MessageBody": "messageBody", "MessageGroupId": "test-group"}]
    c.error(lambda: c.sqs.send_message_batch(QueueUrl=url, Entries=entries),
            "test_missing_deduplication_id_for_fifo_queue")


@replays("test_send_batch_missing_message_group_id_for_fifo_queue")
def batch_missing_group(c):
    url = c.queue(fifo=True, ContentBasedDeduplication="false")
    entries = [{"Id": "a", "MessageBody": "messageBody", "MessageGroupId": "test-group",
                "MessageDeduplicationId": "d1"},
               {"Id": "b", "MessageBody": "messageBody", "MessageDeduplicationId": "d2"}]
    c.error(lambda: c.sqs.send_message_batch(QueueUrl=url, Entries=entries),
            "test_missing_message_group_id_for_fifo_queue")


@replays("test_delete_message_batch_invalid_msg_id")
def delete_batch_invalid_id(c):
    url = c.queue()
    c.error(lambda: c.sqs.delete_message_batch(QueueUrl=url, Entries=[{"Id": c.param, "ReceiptHandle": "testHandle1"}]),
            "error_response")


def _twenty_received(c, url):
    for _ in range(2):
        c.sqs.send_message_batch(QueueUrl=url, Entries=[{"Id": f"m-{i}", "MessageBody": f"b-{i}"} for i in range(10)])
    received = []
    while len(received) < 20:
        received += c.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", [])
    return received


@replays("test_delete_message_batch_with_too_large_batch")
def delete_batch_too_large(c):
    url = c.queue()
    entries = [{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(_twenty_received(c, url))]
    c.error(lambda: c.sqs.delete_message_batch(QueueUrl=url, Entries=entries), "error_response")


@replays("test_change_message_visibility_batch_with_too_large_batch")
def change_batch_too_large(c):
    url = c.queue()
    entries = [{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"], "VisibilityTimeout": 123}
               for i, m in enumerate(_twenty_received(c, url))]
    c.error(lambda: c.sqs.change_message_visibility_batch(QueueUrl=url, Entries=entries), "error_response")


@replays("test_send_message_with_binary_attributes")
def binary_attributes(c):
    url = c.queue()
    attributes = {"attr1": {"BinaryValue": b"traceparent\x1e00-774062d6c37081a5a0b9b5b88e30627c-2d2482211f6489da-01",
                            "DataType": "Binary"}}
    c.sqs.send_message(QueueUrl=url, MessageBody="test", MessageAttributes=attributes)
    c.record("binary-attrs-msg", c.sqs.receive_message(QueueUrl=url, MessageAttributeNames=["All"]))


@replays("test_send_message_with_empty_string_attribute")
def empty_string_attribute(c):
    url = c.queue()
    c.error(lambda: c.sqs.send_message(QueueUrl=url, MessageBody="test", MessageAttributes={
        "ErrorDetails": {"StringValue": "", "DataType": "String"}}), "empty-string-attr")


@replays("test_send_empty_message")
def empty_body(c):
    url = c.queue()
    c.error(lambda: c.sqs.send_message(QueueUrl=url, MessageBody=""), "send_empty_message")


@replays("test_send_message_to_standard_queue_with_invalid_message_group_id")
def invalid_group_id(c):
    url = c.queue()
    group = {"empty": "", "too_long": "a" * 129, "spaces": "group 123"}[c.param]
    c.error(lambda: c.sqs.send_message(QueueUrl=url, MessageBody="test", MessageGroupId=group), "error-response")


@replays("test_message_deduplication_id_invalid")
def invalid_dedup_id(c):
    url = c.queue(fifo=True)
    dedup = {"empty": "", "too_long": "a" * 129, "spaces": "group 123"}[c.param]
    c.error(lambda: c.sqs.send_message(QueueUrl=url, MessageBody="test", MessageGroupId="g",
                                       MessageDeduplicationId=dedup), "error-response")


@replays("test_message_deduplication_id_success")
def valid_dedup_ids(c):
    # Nothing was recorded: every printable ASCII character but space, up to 128 of them, is a valid id.
    url = c.queue(fifo=True)
    for dedup in ["a" * 128, "".join(chr(i) for i in range(33, 127))[:128], "dedup-1_x.y:z"]:
        c.expect("MessageId" in c.sqs.send_message(QueueUrl=url, MessageBody="test", MessageGroupId="g",
                                                   MessageDeduplicationId=dedup), f"refused {dedup!r}")


@replays("test_posting_to_fifo_requires_deduplicationid_group_id")
def fifo_needs_ids(c):
    url = c.queue(fifo=True)
    for client, suffix in [(c.sqs, ""), (c.json, "-query")]:  # the -query labels were recorded in JSON too
        c.error(lambda: client.send_message(QueueUrl=url, MessageBody="m", MessageGroupId="g"),
                "invalid-parameter-value" + suffix)
        c.error(lambda: client.send_message(QueueUrl=url, MessageBody="m", MessageDeduplicationId="d"),
                "missing-parameter" + suffix)


@replays("test_send_receive_wait_time_seconds")
def wait_time_limits(c):
    url = c.queue()
    c.error(lambda: c.sqs.receive_message(QueueUrl=url, WaitTimeSeconds=21), "recieve_message_error_too_large")
    c.error(lambda: c.sqs.receive_message(QueueUrl=url, WaitTimeSeconds=-1), "recieve_message_error_too_small")
    c.sqs.send_message(QueueUrl=url, MessageBody="message")
    c.record("empty_short_poll_by_default_resp", c.sqs.receive_message(QueueUrl=url))
    c.sqs.send_message(QueueUrl=url, MessageBody="message")
    c.record("empty_short_poll_explicit_resp", c.sqs.receive_message(QueueUrl=url, WaitTimeSeconds=0))


@replays("test_receive_empty_queue")
def receive_empty(c):
    url = c.queue()
    c.record("empty_short_poll_resp_no_param", c.sqs.receive_message(QueueUrl=url))
    c.record("empty_short_poll_resp", c.sqs.receive_message(QueueUrl=url, WaitTimeSeconds=0))
    c.record("empty_long_poll_resp", c.sqs.receive_message(QueueUrl=url, WaitTimeSeconds=1))


@replays("test_aws_trace_header_propagation")
def trace_header_from_http_header(c):
    url = c.queue()
    traced = c.sqs.with_headers(
        {"X-Amzn-Trace-Id": "Root=1-3152b799-8954dae64eda91bc9a23a7e8;Parent=7fa8c0f79203be72;Sampled=1"})
    traced.send_message(QueueUrl=url, MessageBody="test", MessageAttributes={
        "timestamp": {"StringValue": "1493147359900", "DataType": "Number"}})
    received = c.sqs.receive_message(QueueUrl=url, AttributeNames=["AWSTraceHeader", "SentTimestamp"],
                                     MessageAttributeNames=["All"])
    c.record("xray-msg", received["Messages"][0])


@replays("test_fair_queue_with_message_group_id")
def fair_queue(c):
    url = c.queue()
    c.record("send_message", c.sqs.send_message(QueueUrl=url, MessageBody="message", MessageGroupId="test"))
    c.record("get-message-with-deduplication-id", c.sqs.receive_message(QueueUrl=url, AttributeNames=["All"]))
