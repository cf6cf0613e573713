// What the recording proxy saw of one SQS call: the request a client made and the upstream's answer, read into the
// few facts a message's lane needs (which messages were sent, received, deleted or changed, through which receipt
// handles, with which delays and visibility timeouts). Both protocols arrive here in the JSON protocol's shapes: the
// request as endpoint::decodeRequest reads it, the answer as the proxy converts a query XML answer.
#pragma once

#include "lifeline/endpoint/sqs_action.h"
#include "lifeline/run/queue_attributes.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lifeline::observe {

struct ObservedSend {
    std::string messageId;
    std::optional<int64_t> delaySeconds; // the message's own DelaySeconds, when it gave one
    std::string body;
    std::string groupId; // FIFO
};

struct ObservedReceipt {
    std::string messageId;
    std::string receiptHandle;
    std::string body;
    std::optional<uint32_t> receiveCount; // ApproximateReceiveCount, when the client asked for it
    std::optional<int64_t> sentTimestampMs; // SentTimestamp (epoch ms), when the client asked for it
};

struct ObservedHandle {
    std::string receiptHandle;
    int64_t visibilitySeconds = 0; // ChangeMessageVisibility's new timeout
};

struct ObservedCall {
    std::string action; // "SendMessage": as the request named it, also an action Lifeline does not answer
    std::optional<endpoint::SqsAction> known; // the action, when Lifeline knows it
    bool is(endpoint::SqsAction a) const { return known == a; }
    std::string queue; // the queue's name, from QueueUrl or QueueName; empty for calls that name none
    bool ok = false; // the upstream answered 200
    std::string errorCode; // when not ok: the error's code ("AWS.SimpleQueueService.NonExistentQueue")
    std::string errorMessage;
    std::vector<ObservedSend> sent; // SendMessage, SendMessageBatch's successful entries
    std::vector<ObservedReceipt> received; // ReceiveMessage
    std::optional<int64_t> visibilitySeconds; // ReceiveMessage's own VisibilityTimeout
    std::vector<ObservedHandle> handles; // DeleteMessage(Batch), ChangeMessageVisibility(Batch): successful only
    AttributeMap attributes; // CreateQueue's and SetQueueAttributes' request, GetQueueAttributes' answer
    // How much earlier SQS may have answered than now (an import's receive: its span's length, since the answer
    // came somewhere in it; the proxy's: the time its request spent upstream): a visibility timeout counted from a
    // receive ends up to this much sooner.
    int64_t uncertainMs = 0;
    std::string origin; // where an import read it ("spans.jsonl:12, span 5f0c..."): what a contradiction points at
};

// Reads a call from the request's action and parameters and the answer's HTTP status and body (JSON shape). A field
// the answer lacks or has in another type is left out: the proxy draws what it can be sure of.
ObservedCall readCall(
    const std::string& action, const nlohmann::json& params, int status, const nlohmann::json& answer);

// The messages a SendMessage or SendMessageBatch request asks for, before its answer gives them MessageIds (which stay
// empty): what the proxy matches a receive against when the receive's answer comes first.
std::vector<ObservedSend> requestedSends(const std::string& action, const nlohmann::json& params);

// The actions whose answers change a lane or a queue row (the proxy reads no other answer).
bool isObserved(const std::string& action);

// "https://sqs.us-east-1.amazonaws.com/123456789012/orders" -> "orders"; a bare name stays as it is.
std::string queueNameFromUrl(std::string_view url);

} // namespace lifeline::observe
