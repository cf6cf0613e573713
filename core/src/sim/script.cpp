// A scenario's script: single calls by named clients at chosen times ("at 100 s C2 calls ChangeMessageVisibility
// with 43,200 s"). Each step is the engine's own call, made as its client, so SQS's rules and texts apply; its
// answer (OK with what came back, or SQS's error code and text) is a ScriptedCall event on the client's row and a
// line of the run's summary.
#include "lifeline/support/duration.h"
#include "simulation_internal.h"

namespace lifeline::sim {

namespace {
using Call = scenario::ScriptStep::Call;

std::string refused(const SqsError& error)
{
    return error.code + ": " + error.message;
}
} // namespace

void Simulation::setUpScript()
{
    std::map<std::string, uint32_t> clients;
    for (size_t i = 0; i < m_scenario.script.size(); ++i) {
        const scenario::ScriptStep& step = m_scenario.script[i];
        auto [client, added] = clients.try_emplace(step.as, 0);
        if (added)
            client->second = addActor(step.as, ActorKind::ScriptClient, 0);
        m_stepActor.push_back(client->second);
        schedule(step.at, ScriptCall, uint32_t(i));
    }
}

std::optional<Receipt> Simulation::scriptReceipt(const scenario::ScriptStep& step) const
{
    if (step.receivedBy > 0) { // what that step received first
        const auto got = m_stepReceived.find(step.receivedBy - 1);
        if (got == m_stepReceived.end() || got->second.empty())
            return std::nullopt;
        return got->second.front().receipt;
    }
    const auto lane = m_labels.find(step.messageLabel);
    if (lane == m_labels.end())
        return std::nullopt;
    const auto receipt = m_scriptReceipts.find(lane->second);
    return receipt == m_scriptReceipts.end() ? std::nullopt : std::optional<Receipt>(receipt->second);
}

void Simulation::answerStep(size_t index, MessageIndex lane, const std::string& answer)
{
    const scenario::ScriptStep& step = m_scenario.script[index];
    const std::string text = std::string(toString(step.call)) + " " + answer;
    m_engine.recordActorEvent(
        Cause::ScriptedCall, m_stepActor[index], lane, m_engine.queueIndex(step.queue).value_or(kNoQueue), 0, &text);
}

void Simulation::scriptReceived(size_t index, const std::vector<ReceivedMessage>& messages)
{
    m_stepReceived[index] = messages;
    std::string names;
    for (const ReceivedMessage& m : messages) {
        m_scriptReceipts[m.lane] = m.receipt;
        std::string name = m_engine.messageId(m.lane).substr(0, 8);
        for (const auto& [label, lane] : m_labels)
            if (lane == m.lane)
                name = label;
        names += (names.empty() ? "" : ", ") + name + " (receive #" + std::to_string(m.receipt.receiveCount) + ")";
    }
    answerStep(index, messages.empty() ? kNoMessage : messages.front().lane,
        messages.empty() ? "OK: no message" : "OK: " + names);
}

void Simulation::runScriptStep(size_t index)
{
    const scenario::ScriptStep& step = m_scenario.script[index];
    const uint32_t actor = m_stepActor[index];
    if (step.call != Call::StopConsumer && step.call != Call::StartConsumer) // a request: the RequestMeter's note
        m_requests.count(step.call == Call::SendMessage ? step.message.body.size() : 0);
    switch (step.call) {
    case Call::SendMessage: {
        const auto sent = m_engine.sendMessage(sendRequest(step.queue, step.message, actor));
        if (!sent) {
            answerStep(index, kNoMessage, refused(sent.error()));
            return;
        }
        if (!step.label.empty())
            m_labels[step.label] = sent->lane;
        m_engine.labelLane(sent->lane, step.label);
        answerStep(index, sent->lane,
            (step.label.empty() ? "" : step.label + " ") + "OK: MessageId "
                + m_engine.messageId(sent->lane).substr(0, 8));
        return;
    }
    case Call::ReceiveMessage: {
        ReceiveMessageRequest request;
        request.queue = step.queue;
        request.maxNumberOfMessages = step.maxMessages;
        request.waitTimeSeconds = step.waitTimeSeconds;
        request.visibilityTimeout = step.visibilityTimeout;
        request.actor = actor;
        auto received = m_engine.receiveMessage(request);
        if (!received)
            answerStep(index, kNoMessage, refused(received.error()));
        else if (received->pending) { // a long poll: answered when a message comes or its wait ends
            m_scriptPolls[received->poll] = index;
        } else
            scriptReceived(index, received->messages);
        return;
    }
    case Call::DeleteMessage:
    case Call::ChangeMessageVisibility: {
        const auto receipt = scriptReceipt(step);
        const std::string what = step.messageLabel.empty()
            ? "what step " + std::to_string(step.receivedBy) + " received"
            : step.messageLabel;
        if (!receipt) { // nothing was received to take a handle from: the call cannot be made
            answerStep(index, kNoMessage, what + ": not made, no receipt handle (nothing received yet)");
            return;
        }
        const Status status = step.call == Call::DeleteMessage
            ? m_engine.deleteMessage(step.queue, *receipt, actor)
            : m_engine.changeMessageVisibility(step.queue, *receipt, *step.visibilityTimeout, actor);
        const std::string args = step.call == Call::DeleteMessage
            ? what
            : what + " VisibilityTimeout=" + std::to_string(*step.visibilityTimeout);
        answerStep(index, receipt->lane, args + (status ? ": OK" : ": " + refused(status.error())));
        return;
    }
    case Call::SetQueueAttributes: {
        std::string args;
        for (const auto& [name, value] : step.attributes)
            args += (args.empty() ? "" : ", ") + name + "=" + value;
        const Status status = m_engine.setQueueAttributes(step.queue, step.attributes, actor);
        answerStep(index, kNoMessage, args + (status ? ": OK" : ": " + refused(status.error())));
        return;
    }
    case Call::PurgeQueue: {
        const Status status = m_engine.purgeQueue(step.queue, actor);
        answerStep(index, kNoMessage, step.queue + (status ? ": OK" : ": " + refused(status.error())));
        return;
    }
    case Call::StopConsumer:
    case Call::StartConsumer:
        for (size_t c = 0; c < m_consumers.size(); ++c)
            if (m_consumers[c]->stats.name == step.consumer) {
                const bool done = step.call == Call::StopConsumer ? crashConsumer(c) : restartConsumer(c);
                answerStep(index, kNoMessage, step.consumer + (done ? ": done" : ": nothing to do"));
            }
        return;
    }
}

} // namespace lifeline::sim
