// Replays the cases recorded from real AWS (tests/data/aws-recorded) on the engine: the same steps must give the
// same error codes, texts and HTTP statuses, and the same digests and counts where the recording has them.
#include "engine_fixture.h"

#include <fstream>
#include <nlohmann/json.hpp>

using namespace lifeline;
using namespace lifeline::test;
using nlohmann::json;

namespace {

const json& snapshot()
{
    static const json data = [] {
        std::ifstream in(std::string(LIFELINE_AWS_RECORDED_DIR) + "/test_sqs.snapshot.json");
        REQUIRE(in.good());
        return json::parse(in);
    }();
    return data;
}

const json& recorded(const std::string& testId, const std::string& label)
{
    for (const auto& [key, value] : snapshot().items())
        if (key.ends_with("::" + testId))
            return value.at("recorded-content").at(label);
    FAIL("no recording " << testId);
    static const json none;
    return none;
}

// Compares an engine error with AWS's recorded one; `placeholders` undoes the recording's normalisation.
void expectRecordedError(const std::string& testId, const std::string& label, SqsError error,
    const std::vector<std::pair<std::string, std::string>>& placeholders = {})
{
    for (const auto& [value, placeholder] : placeholders) {
        for (size_t at = error.message.find(value); at != std::string::npos;
             at = error.message.find(value, at + placeholder.size()))
            error.message.replace(at, value.size(), placeholder);
    }
    const json& aws = recorded(testId, label);
    INFO(testId << " / " << label);
    CHECK(error.code == aws.at("Error").at("Code").get<std::string>());
    CHECK(error.message == aws.at("Error").at("Message").get<std::string>());
    CHECK(error.httpStatus == aws.at("ResponseMetadata").at("HTTPStatusCode").get<int>());
}

const AttributeMap kFifo { { "FifoQueue", "true" }, { "ContentBasedDeduplication", "true" } };

} // namespace

TEST_CASE("golden: send errors", "[golden]")
{
    Fixture f;
    f.create("q");
    f.create("q.fifo", kFifo);
    f.create("plain.fifo", { { "FifoQueue", "true" } });
    expectRecordedError("test_send_empty_message[sqs]", "send_empty_message", f.sendError("q", ""));
    expectRecordedError(
        "test_send_oversized_message[sqs]", "send_oversized_message", f.sendError("q", std::string(1048577, 'a')));
    REQUIRE(f.engine.setQueueAttributes("q", { { "MaximumMessageSize", "1024" } }).ok());
    expectRecordedError("test_send_message_with_updated_maximum_message_size[sqs]", "send_oversized_message",
        f.sendError("q", std::string(1025, 'a')));
    expectRecordedError("test_fifo_queue_send_message_with_delay_seconds_fails[sqs]", "send_message",
        f.sendError("q.fifo", "x", 2, "g"));
    expectRecordedError("test_posting_to_fifo_requires_deduplicationid_group_id[sqs]", "missing-parameter",
        f.sendError("plain.fifo", "x"));
    expectRecordedError("test_posting_to_fifo_requires_deduplicationid_group_id[sqs]", "invalid-parameter-value",
        f.sendError("plain.fifo", "x", {}, "g"));
    SendMessageRequest request;
    request.queue = "q.fifo";
    request.body = "x";
    request.messageGroupId = "g";
    request.attributes = { { "ErrorDetails", { "String", "", "" } } };
    expectRecordedError("test_send_message_with_empty_string_attribute[sqs]", "empty-string-attr",
        f.engine.sendMessage(request).error());
    const std::pair<const char*, std::string> badIds[]
        = { { "empty", "" }, { "too_long", std::string(129, 'a') }, { "spaces", "group 123" } };
    for (const auto& [name, id] : badIds) {
        expectRecordedError(
            std::string("test_send_message_to_standard_queue_with_invalid_message_group_id[") + name + "]",
            "error-response", f.sendError("q", "x", {}, id));
        expectRecordedError(std::string("test_message_deduplication_id_invalid[") + name + "]", "error-response",
            f.sendError("q.fifo", "x", {}, "g", id));
    }
}

TEST_CASE("golden: batch errors", "[golden]")
{
    Fixture f;
    f.create("q");
    f.create("plain.fifo", { { "FifoQueue", "true" } });
    std::vector<SendMessageBatchEntry> twenty;
    for (int i = 0; i < 20; ++i)
        twenty.push_back({ "id" + std::to_string(i), "m", {}, {}, {}, {}, {} });
    expectRecordedError("test_too_many_entries_in_batch_request[sqs]", "test_too_many_entries_in_batch_request",
        f.engine.sendMessageBatch("q", twenty).error());
    expectRecordedError("test_invalid_batch_id[sqs]", "test_invalid_batch_id",
        f.engine.sendMessageBatch("q", { { "Hello World!", "m", {}, {}, {}, {}, {} } }).error());
    const std::string half(524288, 'a');
    expectRecordedError("test_send_message_batch_with_oversized_contents[sqs]", "send_oversized_message_batch",
        f.engine.sendMessageBatch("q", { { "a", half, {}, {}, {}, {}, {} }, { "b", half + "a", {}, {}, {}, {}, {} } })
            .error());
    expectRecordedError("test_send_batch_missing_message_group_id_for_fifo_queue[sqs]",
        "test_missing_message_group_id_for_fifo_queue",
        f.engine.sendMessageBatch("plain.fifo", { { "a", "m", {}, {}, {}, std::string("d"), {} } }).error());
    expectRecordedError("test_send_batch_missing_deduplication_id_for_fifo_queue[sqs]",
        "test_missing_deduplication_id_for_fifo_queue",
        f.engine.sendMessageBatch("plain.fifo", { { "a", "m", {}, {}, std::string("g"), {}, {} } }).error());
    const std::string longId
        = "testLongIdtestLongIdtestLongIdtestLongIdtestLongIdtestLongIdtestLongIdtestLongIdtestLongIdtestLongId";
    for (const std::string& id : std::vector<std::string> { "", "invalid:id", longId })
        expectRecordedError("test_delete_message_batch_invalid_msg_id[sqs-" + id + "]", "error_response",
            f.engine.deleteMessageBatch("q", { { id, "handle" } }).error());
    std::vector<DeleteMessageBatchEntry> deletes;
    std::vector<ChangeVisibilityBatchEntry> changes;
    for (int i = 0; i < 20; ++i) {
        deletes.push_back({ "id" + std::to_string(i), "handle" });
        changes.push_back({ "id" + std::to_string(i), "handle", 1 });
    }
    expectRecordedError("test_delete_message_batch_with_too_large_batch[sqs]", "error_response",
        f.engine.deleteMessageBatch("q", deletes).error());
    expectRecordedError("test_change_message_visibility_batch_with_too_large_batch[sqs]", "error_response",
        f.engine.changeMessageVisibilityBatch("q", changes).error());
}

TEST_CASE("golden: queue errors", "[golden]")
{
    Fixture f;
    f.create("q", { { "DelaySeconds", "1" } });
    expectRecordedError("test_create_queue_with_different_attributes_raises_exception[sqs]", "create_queue_01",
        f.engine.createQueue("q", { { "DelaySeconds", "2" } }).error());
    f.create("f.fifo", kFifo);
    expectRecordedError("test_create_fifo_queue_with_different_attributes_raises_error[sqs]", "queue-already-exists",
        f.engine.createQueue("f.fifo", { { "FifoQueue", "true" }, { "ContentBasedDeduplication", "false" } }).error());
    const std::pair<const char*, AttributeMap> standardWithFifo[] = {
        { "invalid-attribute-fifo-queue", { { "FifoQueue", "false" } } },
        { "invalid-attribute-content-based-deduplication", { { "ContentBasedDeduplication", "true" } } },
        { "invalid-attribute-deduplication-scope", { { "DeduplicationScope", "queue" } } },
        { "invalid-attribute-throughput-limit", { { "FifoThroughputLimit", "perQueue" } } },
    };
    for (const auto& [label, attributes] : standardWithFifo)
        expectRecordedError("test_create_standard_queue_with_fifo_attribute_raises_error[sqs]", label,
            f.engine.createQueue("s", attributes).error());
    expectRecordedError("test_set_unsupported_attribute_standard[sqs]", "invalid-attr-name-1",
        f.engine.setQueueAttributes("q", { { "FifoQueue", "true" } }).error());
    REQUIRE(f.engine.setQueueAttributes("f.fifo", { { "FifoQueue", "true" } }).ok()); // as the recorded test does
    expectRecordedError("test_set_unsupported_attribute_fifo[sqs]", "invalid-attr-name-2",
        f.engine.setQueueAttributes("f.fifo", { { "FifoQueue", "false" } }).error());
    REQUIRE(f.engine.purgeQueue("q").ok());
    expectRecordedError("test_successive_purge_calls_fail[sqs]", "purge_queue_error", f.engine.purgeQueue("q").error(),
        { { " q ", " <queue-name> " } });
    expectRecordedError(
        "test_non_existent_queue", "queue-does-not-exist", f.engine.getQueueAttributes("nope", { "All" }).error());
}

TEST_CASE("golden: receive and delete errors", "[golden]")
{
    Fixture f;
    f.create("q");
    ReceiveMessageRequest request;
    request.queue = "q";
    request.maxNumberOfMessages = 11;
    expectRecordedError("test_send_receive_max_number_of_messages[sqs]", "send_max_number_of_messages",
        f.engine.receiveMessage(request).error());
    request.maxNumberOfMessages = 1;
    request.waitTimeSeconds = 21;
    expectRecordedError("test_send_receive_wait_time_seconds[sqs]", "recieve_message_error_too_large",
        f.engine.receiveMessage(request).error());
    request.waitTimeSeconds = -1;
    expectRecordedError("test_send_receive_wait_time_seconds[sqs]", "recieve_message_error_too_small",
        f.engine.receiveMessage(request).error());

    f.create(
        "f.fifo", { { "FifoQueue", "true" }, { "ContentBasedDeduplication", "true" }, { "VisibilityTimeout", "1" } });
    f.send("f.fifo", "m", {}, "g");
    const auto got = f.receive("f.fifo");
    f.advanceSeconds(1.5);
    expectRecordedError("test_fifo_delete_after_visibility_timeout[sqs]", "delete_after_timeout_fifo",
        f.engine.deleteMessage("f.fifo", got[0].receiptHandle).error(),
        { { got[0].receiptHandle, "<receipt-handle:1>" } });
}

TEST_CASE("golden: DLQ carries id - body - attributes - trace header - receive count 2", "[golden][dlq]")
{
    Fixture f;
    f.create("dlq");
    f.create("q", { { "VisibilityTimeout", "0" } });
    REQUIRE(f.engine.setQueueAttributes("q", { { "RedrivePolicy", f.redrivePolicy("dlq", 1) } }).ok());
    SendMessageRequest request;
    request.queue = "q";
    request.body = "message-1";
    request.attributes = { { "MyAttribute", { "String", "foobar", "" } } };
    request.awsTraceHeader = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";
    REQUIRE(f.engine.sendMessage(request).ok());
    request.body = "message-2";
    request.attributes.clear();
    request.awsTraceHeader.reset();
    REQUIRE(f.engine.sendMessage(request).ok());
    const auto before = f.receive("q", 10);
    REQUIRE(f.receive("q", 10).empty());
    const auto after = f.receive("dlq", 10);
    const json& awsBefore = recorded("test_dead_letter_queue_message_attributes", "rec-pre-dlq");
    const json& awsAfter = recorded("test_dead_letter_queue_message_attributes", "dlq-messages");
    REQUIRE(before.size() == awsBefore.size());
    REQUIRE(after.size() == awsAfter.size());
    for (size_t i = 0; i < after.size(); ++i) {
        INFO("message " << i);
        CHECK(before[i].md5OfBody.hex() == awsBefore[i].at("MD5OfBody").get<std::string>());
        CHECK(after[i].md5OfBody.hex() == awsAfter[i].at("MD5OfBody").get<std::string>());
        CHECK(after[i].body == awsAfter[i].at("Body").get<std::string>());
        CHECK(after[i].messageId == before[i].messageId);
        if (awsAfter[i].contains("MD5OfMessageAttributes"))
            CHECK(after[i].md5OfMessageAttributes == awsAfter[i].at("MD5OfMessageAttributes").get<std::string>());
        const auto& awsAttributes = awsAfter[i].at("Attributes");
        const auto ours
            = after[i].systemAttributes({ "ApproximateReceiveCount", "AWSTraceHeader", "DeadLetterQueueSourceArn" });
        CHECK(ours.at("ApproximateReceiveCount") == awsAttributes.at("ApproximateReceiveCount").get<std::string>());
        CHECK(ours.count("AWSTraceHeader") == awsAttributes.count("AWSTraceHeader"));
        CHECK(ours.count("DeadLetterQueueSourceArn") == 1);
    }
}

namespace {
void expectRecordedAttributes(Engine& engine, const std::string& label)
{
    INFO(label);
    const json& aws = recorded("test_set_queue_attributes_default_values[sqs]", label);
    const auto ours = engine.getQueueAttributes("q", { "All" }).value();
    std::vector<std::string> awsKeys, ourKeys;
    for (const auto& [key, value] : aws.at("Attributes").items()) {
        awsKeys.push_back(key);
        if (key.find("Timestamp") == std::string::npos && key != "QueueArn")
            CHECK(ours.at(key) == value.get<std::string>());
    }
    for (const auto& [key, value] : ours)
        ourKeys.push_back(key);
    std::sort(awsKeys.begin(), awsKeys.end());
    CHECK(ourKeys == awsKeys);
}
} // namespace

TEST_CASE("golden: default attributes of a new queue - a KMS key set and removed", "[golden][attributes]")
{
    Fixture f;
    f.create("q");
    expectRecordedAttributes(f.engine, "get-queue-attributes-initial-values");
    REQUIRE(
        f.engine
            .setQueueAttributes("q", { { "KmsMasterKeyId", "testKeyId" }, { "KmsDataKeyReusePeriodSeconds", "6000" } })
            .ok());
    expectRecordedAttributes(f.engine, "get-queue-attributes-after-update");
    REQUIRE(
        f.engine.setQueueAttributes("q", { { "KmsMasterKeyId", "" }, { "KmsDataKeyReusePeriodSeconds", "300" } }).ok());
    expectRecordedAttributes(f.engine, "get-queue-attributes-after-set-to-defaults");
}
