// Requests and results of the engine's SQS operations. Optional fields mirror "omitted" on the wire.
#pragma once

#include "lifeline/run/event_log.h"
#include "lifeline/run/queue_attributes.h"
#include "lifeline/support/digest.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace lifeline {

struct MessageAttributeValue {
    std::string dataType; // "String", "Number", "Binary", optionally with ".custom"
    std::string stringValue;
    std::string binaryValue; // raw bytes (base64 is the wire's business)

    bool operator==(const MessageAttributeValue&) const = default;
};

struct MessageAttribute {
    std::string name;
    MessageAttributeValue value;

    bool operator==(const MessageAttribute&) const = default;
};

struct SendMessageRequest {
    std::string queue; // queue name
    std::string body;
    std::optional<int64_t> delaySeconds;
    std::vector<MessageAttribute> attributes;
    std::optional<std::string> messageGroupId;
    std::optional<std::string> messageDeduplicationId;
    std::optional<std::string> awsTraceHeader;
    uint32_t actor = kOperatorActor;
};

struct SendMessageResult {
    std::string messageId;
    Md5Digest md5OfMessageBody;
    std::string md5OfMessageAttributes; // empty when the message has no attributes
    std::string md5OfMessageSystemAttributes; // of AWSTraceHeader, the one system attribute; empty without it
    std::string sequenceNumber; // FIFO only
    MessageIndex lane = kNoMessage; // the lane the message lives in (a deduplicated send reuses the first lane)
    bool deduplicated = false;
};

struct BatchEntryError {
    std::string id;
    std::string code;
    std::string message;
    bool senderFault = true;
};

template <class T> struct BatchResult {
    std::vector<std::pair<std::string, T>> successful; // entry id, result
    std::vector<BatchEntryError> failed;
};

struct SendMessageBatchEntry {
    std::string id;
    std::string body;
    std::optional<int64_t> delaySeconds;
    std::vector<MessageAttribute> attributes;
    std::optional<std::string> messageGroupId;
    std::optional<std::string> messageDeduplicationId;
    std::optional<std::string> awsTraceHeader;
};

struct ReceiveMessageRequest {
    std::string queue;
    std::optional<int64_t> maxNumberOfMessages;
    std::optional<int64_t> visibilityTimeout;
    std::optional<int64_t> waitTimeSeconds;
    std::optional<std::string> receiveRequestAttemptId;
    uint32_t actor = kOperatorActor;
    // The simulation's own consumers read no more of a message than its lane and receipt: with this set, the answer
    // is `deliveries` (nothing copied, formatted or allocated), not `messages`.
    bool deliveriesOnly = false;
};

// What a receipt handle says: which receive of which message in which queue. The engine's handle strings encode
// it (with a check value); a simulation passes it as is and never formats or parses a handle.
struct Receipt {
    MessageIndex lane = kNoMessage;
    uint32_t receiveCount = 0;
    uint32_t queueUid = 0;
};

struct ReceivedMessage {
    MessageIndex lane = kNoMessage;
    Receipt receipt;
    std::string messageId;
    std::string receiptHandle; // empty with EngineOptions::idStrings off: `receipt` is the handle then
    std::string body;
    Md5Digest md5OfBody;
    std::string md5OfMessageAttributes;
    std::vector<MessageAttribute> attributes;
    // System attributes; timestamps are epoch milliseconds.
    int64_t sentTimestamp = 0;
    int64_t approximateFirstReceiveTimestamp = 0;
    uint32_t approximateReceiveCount = 0;
    std::string_view senderId; // the engine's EngineOptions::senderId: valid while the engine lives
    std::string messageGroupId; // FIFO, or a fair-queue tenant on a standard queue
    std::string messageDeduplicationId; // FIFO
    std::string sequenceNumber; // FIFO
    std::string deadLetterQueueSourceArn; // in a DLQ
    std::string awsTraceHeader;
    bool fifo = false;

    // The system attributes AttributeNames asks for ("All" or names), as SQS returns them (strings).
    AttributeMap systemAttributes(const std::vector<std::string>& names) const;
};

// A message received with ReceiveMessageRequest::deliveriesOnly: which lane, and the receipt to delete it with.
struct Delivery {
    MessageIndex lane = kNoMessage;
    Receipt receipt;
};

static_assert(std::is_trivially_copyable_v<Delivery>);

// The deliveries of one receive, at most ten (MaxNumberOfMessages), held in place: a completed poll's list is
// never allocated.
class DeliveryList {
public:
    static constexpr size_t kCapacity = 10;
    void push_back(const Delivery& delivery) { m_items[m_size++] = delivery; }
    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const Delivery& operator[](size_t i) const { return m_items[i]; }
    const Delivery* begin() const { return m_items.data(); }
    const Delivery* end() const { return m_items.data() + m_size; }

private:
    std::array<Delivery, kCapacity> m_items {};
    uint8_t m_size = 0;
};

using PollId = uint64_t;

struct ReceiveOutcome {
    bool pending = false; // a long poll is waiting; its result arrives through Engine::takeCompletedPolls()
    PollId poll = 0;
    std::vector<ReceivedMessage> messages;
    DeliveryList deliveries; // instead of `messages` with ReceiveMessageRequest::deliveriesOnly
};

struct CompletedPoll {
    PollId poll = 0;
    uint32_t actor = kOperatorActor;
    std::vector<ReceivedMessage> messages;
    DeliveryList deliveries; // instead of `messages` when the poll asked for deliveries only
    bool queueDeleted = false;
};

struct ChangeVisibilityBatchEntry {
    std::string id;
    std::string receiptHandle;
    int64_t visibilityTimeout = 0;
};

struct DeleteMessageBatchEntry {
    std::string id;
    std::string receiptHandle;
};

struct QueueCounters {
    int64_t visible = 0; // ApproximateNumberOfMessages
    int64_t inFlight = 0; // ApproximateNumberOfMessagesNotVisible
    int64_t delayed = 0; // ApproximateNumberOfMessagesDelayed

    bool operator==(const QueueCounters&) const = default;
};

struct MoveTaskInfo {
    std::string taskHandle; // only while running
    std::string sourceArn;
    std::string destinationArn; // empty: back to each message's source
    std::optional<int64_t> maxNumberOfMessagesPerSecond;
    int64_t approximateNumberOfMessagesMoved = 0;
    int64_t approximateNumberOfMessagesToMove = 0;
    std::string status; // RUNNING, COMPLETED, CANCELLED, FAILED
    std::string failureReason;
    int64_t startedTimestamp = 0; // epoch ms
};

} // namespace lifeline
