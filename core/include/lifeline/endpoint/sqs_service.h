// The SQS API over the engine, protocol-neutral: an action and its parameters in the JSON protocol's input shape go
// in, the JSON protocol's output shape (or SqsError) comes out. Every operation the engine has; queue URLs are built
// from the request's Host; a queue is named by QueueUrl in the parameters or by the request's path
// (/{account}/{queue}). A ReceiveMessage that waits comes back as a pending poll: the caller answers it when the
// engine completes it (renderMessages), so a long poll never holds anyone up.
#pragma once

#include "lifeline/engine/engine.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace lifeline::endpoint {

struct CallContext {
    std::string host = "localhost:9324"; // the request's Host header: queue URLs start with http://{host}/
    std::string path; // the request's path: /{account}/{queue} names the queue when QueueUrl is absent
    uint32_t actor = kOperatorActor; // who sends and receives, for the timeline
};

// What a ReceiveMessage asked to see; kept with a pending poll for its answer.
struct ReceiveView {
    std::vector<std::string> attributeNames; // system attributes (AttributeNames + MessageSystemAttributeNames)
    std::vector<std::string> messageAttributeNames;
};

struct CallOutcome {
    nlohmann::json output = nlohmann::json::object();
    std::optional<SqsError> error;
    std::optional<PollId> pendingPoll; // ReceiveMessage is waiting; answer it with renderMessages() when it completes
    ReceiveView view;
    TimeMs answerAfterMs = 0; // a latency fault struck: the answer is held back this long (virtual ms)
};

class SqsService {
public:
    explicit SqsService(Engine& engine);

    CallOutcome call(const std::string& action, const nlohmann::json& params, const CallContext& context);
    // A ReceiveMessage answer: {"Messages": [...]} or {} when there are none.
    nlohmann::json renderMessages(const std::vector<ReceivedMessage>& messages, const ReceiveView& view) const;
    static bool knownAction(const std::string& action);
    std::string queueUrl(const std::string& host, const std::string& name) const;

private:
    Engine& m_engine;
};

} // namespace lifeline::endpoint
