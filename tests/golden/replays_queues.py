"""Replays of the recorded queue-level cases: attributes, tags, errors of CreateQueue and SetQueueAttributes,
listing, purging. Each function repeats the steps of one recorded test case (see ../shared/reference/sqs-semantics.md,
section 3) and records its answers under the recording's labels."""
import json

from registry import replays


@replays("test_tag_untag_queue")
def tag_untag(c):
    url = c.queue()
    c.sqs.tag_queue(QueueUrl=url, Tags={"tag1": "value1", "tag2": "value2", "tag3": ""})
    c.record("get-tag-1", c.sqs.list_queue_tags(QueueUrl=url))
    c.sqs.untag_queue(QueueUrl=url, TagKeys=["tag1", "tag3"])
    c.record("get-tag-2", c.sqs.list_queue_tags(QueueUrl=url))
    c.sqs.untag_queue(QueueUrl=url, TagKeys=["tag2"])
    c.record("get-tag-after-untag", c.sqs.list_queue_tags(QueueUrl=url))


@replays("test_sqs_permission_lifecycle")
def permission_lifecycle(c):
    # The recording's inputs, read from its answers: another account and the queue's own, then the own one alone.
    url = c.queue()
    own = c.arn(url).split(":")[4]
    policy = lambda: c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["Policy"])
    grant = lambda label, accounts: c.sqs.add_permission(
        QueueUrl=url, Label=label, AWSAccountIds=accounts, Actions=["ReceiveMessage"])
    c.record("add-permission-response", grant("crossaccountpermission", ["668614515564", own]))
    c.record("get-queue-policy-attribute", policy())
    c.record("remove-permission-response", c.sqs.remove_permission(QueueUrl=url, Label="crossaccountpermission"))
    c.record("get-queue-policy-attribute-after-removal", policy())
    grant("crossaccountpermission", [own])
    c.record("get-queue-policy-attribute-first-account-same-label", policy())
    c.error(lambda: grant("crossaccountpermission", [own]), "get-queue-policy-attribute-second-account-same-label")
    grant("crossaccountpermission2", [own])
    c.record("get-queue-policy-attribute-second-account-different-label", policy())
    c.sqs.remove_permission(QueueUrl=url, Label="crossaccountpermission")
    c.record("get-queue-policy-attribute-delete-first-permission", policy())
    c.sqs.remove_permission(QueueUrl=url, Label="crossaccountpermission2")
    c.record("get-queue-policy-attribute-delete-second-permission", policy())
    c.error(lambda: c.sqs.remove_permission(QueueUrl=url, Label="crossaccountpermission2"),
            "get-queue-policy-attribute-delete-non-existent-label")


@replays("test_create_fifo_queue_with_different_attributes_raises_error")
def fifo_exists_differently(c):
    c.queue(fifo=True, ContentBasedDeduplication="true")
    c.error(lambda: c.queue(fifo=True, ContentBasedDeduplication="false"), "queue-already-exists")


@replays("test_create_queue_with_different_attributes_raises_exception")
def exists_differently(c):
    url = c.queue(ReceiveMessageWaitTimeSeconds=1, DelaySeconds=1)
    c.expect(c.queue() == url, "a create without attributes returns the same URL")
    c.expect(c.queue(DelaySeconds=1) == url, "a create with one equal attribute returns the same URL")
    c.error(lambda: c.queue(ReceiveMessageWaitTimeSeconds=1, DelaySeconds=2), "create_queue_01")
    c.sqs.set_queue_attributes(QueueUrl=url, Attributes={"DelaySeconds": "2"})
    c.expect(c.queue(ReceiveMessageWaitTimeSeconds=1, DelaySeconds=2) == url, "equal after the update")
    c.error(lambda: c.queue(ReceiveMessageWaitTimeSeconds=1, DelaySeconds=1), "create_queue_02")


@replays("test_create_and_update_queue_attributes")
def create_and_update(c):
    url = c.queue(MessageRetentionPeriod=604800, ReceiveMessageWaitTimeSeconds=10, VisibilityTimeout=20)
    c.record("get_queue_attributes", c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"]))
    c.sqs.set_queue_attributes(QueueUrl=url, Attributes={"MaximumMessageSize": "2048", "VisibilityTimeout": "69",
                                                         "DelaySeconds": "420"})
    c.record("get_updated_queue_attributes", c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"]))


@replays("test_fifo_set_content_based_deduplication_strategy")
def content_based_dedup_strategy(c):
    url = c.queue(fifo=True, SqsManagedSseEnabled="true", ContentBasedDeduplication="true")
    c.record("before-update", c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"]))
    c.sqs.set_queue_attributes(QueueUrl=url, Attributes={"ContentBasedDeduplication": "false"})
    c.record("after-update", c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"]))


@replays("test_invalid_dead_letter_arn_rejected_before_lookup")
def dummy_dead_letter_arn(c):
    # Nothing was recorded (LocalStack marks it unimplemented); AWS refuses the ARN before looking it up.
    c.expect_error(lambda: c.queue(RedrivePolicy=json.dumps({"deadLetterTargetArn": "dummy", "maxReceiveCount": 42})),
                   "InvalidParameterValue", "deadLetterTargetArn")


@replays("test_set_unsupported_attribute_fifo")
def set_fifo_queue_on_fifo(c):
    standard = c.queue()
    c.error(lambda: c.sqs.set_queue_attributes(QueueUrl=standard, Attributes={"FifoQueue": "true"}),
            "invalid-attr-name-1")
    fifo = c.queue(fifo=True)
    c.sqs.set_queue_attributes(QueueUrl=fifo, Attributes={"FifoQueue": "true"})  # AWS takes it again (no label)
    c.error(lambda: c.sqs.set_queue_attributes(QueueUrl=fifo, Attributes={"FifoQueue": "false"}),
            "invalid-attr-name-2")


@replays("test_set_unsupported_attribute_standard")
def set_fifo_queue_on_standard(c):
    url = c.queue()
    c.error(lambda: c.sqs.set_queue_attributes(QueueUrl=url, Attributes={"FifoQueue": "true"}), "invalid-attr-name-1")
    c.error(lambda: c.sqs.set_queue_attributes(QueueUrl=url, Attributes={"FifoQueue": "false"}), "invalid-attr-name-2")


@replays("test_create_standard_queue_with_fifo_attribute_raises_error")
def standard_with_fifo_attributes(c):
    for label, attribute, value in [
            ("invalid-attribute-fifo-queue", "FifoQueue", "false"),
            ("invalid-attribute-content-based-deduplication", "ContentBasedDeduplication", "true"),
            ("invalid-attribute-deduplication-scope", "DeduplicationScope", "queue"),
            ("invalid-attribute-throughput-limit", "FifoThroughputLimit", "perQueue")]:
        c.error(lambda: c.sqs.create_queue(QueueName=c.name(), Attributes={attribute: value}), label)


@replays("test_successive_purge_calls_fail")
def purge_twice(c):
    url = c.queue()
    c.sqs.purge_queue(QueueUrl=url)
    c.error(lambda: c.sqs.purge_queue(QueueUrl=url), "purge_queue_error")


@replays("test_sse_queue_attributes")
def sse_attributes(c):
    names = ["KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds", "SqsManagedSseEnabled"]
    kms = c.queue("kms")
    c.sqs.set_queue_attributes(QueueUrl=kms, Attributes={"KmsMasterKeyId": "testKeyId",
                                                         "KmsDataKeyReusePeriodSeconds": "6000",
                                                         "SqsManagedSseEnabled": "false"})
    c.record("sse_kms_attributes", c.sqs.get_queue_attributes(QueueUrl=kms, AttributeNames=names))
    managed = c.queue("managed")
    c.sqs.set_queue_attributes(QueueUrl=managed, Attributes={"SqsManagedSseEnabled": "true"})
    c.record("sse_sqs_attributes", c.sqs.get_queue_attributes(QueueUrl=managed, AttributeNames=names))


@replays("test_sse_kms_and_sqs_are_mutually_exclusive")
def sse_exclusive(c):
    url = c.queue()
    try:
        c.sqs.set_queue_attributes(QueueUrl=url, Attributes={"KmsMasterKeyId": "testKeyId",
                                                             "SqsManagedSseEnabled": "true"})
    except Exception as error:  # the recording keeps the exception's text
        c.record("error", str(error))


@replays("test_non_existent_queue")
def non_existent_queue(c):
    c.error(lambda: c.json.get_queue_url(QueueName=c.name("missing")), "queue-does-not-exist")
    missing_url = c.endpoint + "/000000000000/" + c.name("missing")
    c.error(lambda: c.json.get_queue_attributes(QueueUrl=missing_url, AttributeNames=["All"]),
            "queue-does-not-exist-url")
    c.error(lambda: c.query.get_queue_url(QueueName=c.name("missing")), "queue-does-not-exist-query")


@replays("test_send_message_via_queue_url_with_json_protocol")
def json_to_queue_url(c):
    url = c.queue()
    c.record("receive-json-on-queue-url", c.json.at(url).receive_message(QueueUrl=url))


@replays("test_set_empty_redrive_policy")
def empty_redrive_policy(c):
    # Nothing was recorded: an empty RedrivePolicy removes the policy.
    dlq = c.queue("dlq")
    url = c.queue(RedrivePolicy=c.redrive(dlq, 3))
    c.sqs.set_queue_attributes(QueueUrl=url, Attributes={"RedrivePolicy": ""})
    attributes = c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    c.expect("RedrivePolicy" not in attributes, f"RedrivePolicy still set: {attributes.get('RedrivePolicy')}")


@replays("test_list_queues_pagination")
def list_pagination(c):
    prefix = c.name("test-queue")
    urls = [c.sqs.create_queue(QueueName=f"{prefix}-{i}")["QueueUrl"] for i in range(10)]
    c.expect(len(urls) == 10, "ten queues")
    c.record("list_all", c.sqs.list_queues(QueueNamePrefix=prefix))
    first = c.record("list_two_max", c.sqs.list_queues(QueueNamePrefix=prefix, MaxResults=2))
    c.record("list_remaining", c.sqs.list_queues(QueueNamePrefix=prefix, MaxResults=10, NextToken=first["NextToken"]))


@replays("test_set_queue_attributes_default_values")
def default_values(c):
    url = c.queue()
    c.record("get-queue-attributes-initial-values", c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"]))
    c.sqs.set_queue_attributes(QueueUrl=url, Attributes={"KmsMasterKeyId": "testKeyId",
                                                         "KmsDataKeyReusePeriodSeconds": "6000"})
    c.record("get-queue-attributes-after-update", c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"]))
    c.sqs.set_queue_attributes(QueueUrl=url, Attributes={"KmsMasterKeyId": "", "KmsDataKeyReusePeriodSeconds": "300"})
    c.record("get-queue-attributes-after-set-to-defaults",
             c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"]))


def _count(c, url):
    attributes = c.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=[
        "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed"])
    a = attributes["Attributes"]
    return (int(a["ApproximateNumberOfMessages"]), int(a["ApproximateNumberOfMessagesNotVisible"]),
            int(a["ApproximateNumberOfMessagesDelayed"]))


@replays("test_approximate_number_of_messages_not_visible")
def counters_standard(c):
    # Nothing was recorded; the case asserts 6 sent, 1 received -> 5/1/0, after the timeout 6/0/0.
    url = c.queue(VisibilityTimeout=2)
    for i in range(6):
        c.sqs.send_message(QueueUrl=url, MessageBody=f"message-{i}")
    c.sqs.receive_message(QueueUrl=url)
    c.expect(_count(c, url) == (5, 1, 0), f"after one receive: {_count(c, url)}")
    c.wait(3)
    c.expect(_count(c, url) == (6, 0, 0), f"after the timeout: {_count(c, url)}")


@replays("test_fifo_approximate_number_of_messages_not_visible")
def counters_fifo(c):
    # Messages of a blocked group still count as visible: 6 in 3 groups, one received from 2 groups -> 4/2/0.
    url = c.queue(fifo=True, ContentBasedDeduplication="true")
    for i in range(6):
        c.sqs.send_message(QueueUrl=url, MessageBody=f"message-{i}", MessageGroupId=f"group-{i % 3}")
    c.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1)
    c.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1)
    c.expect(_count(c, url) == (4, 2, 0), f"counters {_count(c, url)}")
