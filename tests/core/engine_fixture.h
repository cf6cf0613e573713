// Small helpers that keep the engine tests about behaviour rather than request plumbing.
#pragma once

#include "lifeline/engine/engine.h"

#include <catch2/catch.hpp>

namespace lifeline::test {

struct Fixture {
    Engine engine;

    std::string create(const std::string& name, const AttributeMap& attributes = {})
    {
        auto r = engine.createQueue(name, attributes);
        REQUIRE(r.ok());
        return r.value();
    }

    static SendMessageRequest sendRequest(const std::string& queue, const std::string& body,
        std::optional<int64_t> delay, std::optional<std::string> group, std::optional<std::string> dedup)
    {
        SendMessageRequest request;
        request.queue = queue;
        request.body = body;
        request.delaySeconds = delay;
        request.messageGroupId = std::move(group);
        request.messageDeduplicationId = std::move(dedup);
        return request;
    }

    SendMessageResult send(const std::string& queue, const std::string& body, std::optional<int64_t> delay = {},
        std::optional<std::string> group = {}, std::optional<std::string> dedup = {})
    {
        auto r = engine.sendMessage(sendRequest(queue, body, delay, std::move(group), std::move(dedup)));
        REQUIRE(r.ok());
        return r.value();
    }

    SqsError sendError(const std::string& queue, const std::string& body, std::optional<int64_t> delay = {},
        std::optional<std::string> group = {}, std::optional<std::string> dedup = {})
    {
        auto r = engine.sendMessage(sendRequest(queue, body, delay, std::move(group), std::move(dedup)));
        REQUIRE_FALSE(r.ok());
        return r.error();
    }

    std::vector<ReceivedMessage> receive(const std::string& queue, int64_t max = 1,
        std::optional<int64_t> visibility = {}, std::optional<int64_t> wait = int64_t(0),
        uint32_t actor = kOperatorActor)
    {
        ReceiveMessageRequest request;
        request.queue = queue;
        request.maxNumberOfMessages = max;
        request.visibilityTimeout = visibility;
        request.waitTimeSeconds = wait;
        request.actor = actor;
        auto r = engine.receiveMessage(request);
        REQUIRE(r.ok());
        REQUIRE_FALSE(r->pending);
        return r->messages;
    }

    std::vector<std::string> bodies(const std::vector<ReceivedMessage>& messages)
    {
        std::vector<std::string> out;
        for (const auto& m : messages)
            out.push_back(m.body);
        return out;
    }

    QueueCounters counters(const std::string& queue)
    {
        auto r = engine.counters(queue);
        REQUIRE(r.ok());
        return r.value();
    }

    std::string arn(const std::string& queue) { return engine.getQueueArn(queue).value(); }

    std::string redrivePolicy(const std::string& dlq, int maxReceiveCount)
    {
        return "{\"deadLetterTargetArn\":\"" + arn(dlq) + "\",\"maxReceiveCount\":" + std::to_string(maxReceiveCount)
            + "}";
    }

    void advanceSeconds(double seconds) { engine.advanceBy(TimeMs(seconds * 1000)); }
};

inline QueueCounters counts(int64_t visible, int64_t inFlight, int64_t delayed)
{
    return QueueCounters { visible, inFlight, delayed };
}

} // namespace lifeline::test

namespace Catch {
template <> struct StringMaker<lifeline::QueueCounters> {
    static std::string convert(const lifeline::QueueCounters& c)
    {
        return "{visible " + std::to_string(c.visible) + ", in flight " + std::to_string(c.inFlight) + ", delayed "
            + std::to_string(c.delayed) + "}";
    }
};
template <> struct StringMaker<lifeline::SqsError> {
    static std::string convert(const lifeline::SqsError& e)
    {
        return e.code + " (" + std::to_string(e.httpStatus) + "): " + e.message;
    }
};
} // namespace Catch
