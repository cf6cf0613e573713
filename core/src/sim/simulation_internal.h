// The runtime state of the simulation's actors.
#pragma once

#include "lifeline/sim/distribution_text.h"
#include "lifeline/sim/simulation.h"

#include <string_view>

namespace lifeline::sim {

// A scenario message's attributes as SQS message attributes, each of type String.
inline std::vector<MessageAttribute> stringAttributes(const std::map<std::string, std::string>& attributes)
{
    std::vector<MessageAttribute> out;
    out.reserve(attributes.size());
    for (const auto& [name, value] : attributes)
        out.push_back(MessageAttribute { name, MessageAttributeValue { "String", value, {} } });
    return out;
}

// The SendMessage request for one of a scenario's messages (an action's, the operator's, a script step's).
inline SendMessageRequest sendRequest(const std::string& queue, const scenario::TimedMessage& message, uint32_t actor)
{
    SendMessageRequest request;
    request.queue = queue;
    request.body = message.body;
    request.delaySeconds = message.delaySeconds;
    request.messageGroupId = message.groupId;
    request.messageDeduplicationId = message.deduplicationId;
    request.actor = actor;
    request.attributes = stringAttributes(message.attributes);
    return request;
}

// A rate-driven producer's agenda token: its rate generation above this bit, the message number below.
constexpr int kRateGenerationShift = 40;

struct Simulation::Producer {
    explicit Producer(const scenario::ProducerSpec& spec)
        : spec(&spec)
    {
        request.queue = spec.queue; // its queue is its spec's: named once, not at each message
    }
    const scenario::ProducerSpec* spec = nullptr;
    const scenario::TopicSpec* topic = nullptr; // it publishes to this topic instead of sending to a queue
    uint32_t actor = 0;
    int64_t sent = 0; // messages sent so far: the next one's {n} is sent + 1
    bool fifo = false; // its queue's type (a name ending in .fifo: it cannot change)
    // The rate as it is now: the k-th rate message (k from rateBase) is due at rateOrigin + (k - rateBase) / rate.
    // A change starts a new generation so what was planned at the old rate is dropped.
    double rate = 0;
    TimeMs rateOrigin = 0;
    int64_t rateBase = 0;
    uint64_t rateGeneration = 0;
    int64_t rateSent = 0; // rate-driven messages sent so far
    // The user set its rate in the window: the scenario's count and stop, written for its script, no longer hold (a
    // rate set after the script must produce).
    bool userRate = false;
    SendMessageRequest request; // its last request, reused (its queue is set once)
};

// `body` with each "{n}" replaced by `n`, written into `out` (its buffer reused).
void expandBody(std::string& out, std::string_view body, int64_t n);

// What a consumer keeps of a message it received: no copy of the message, only what its work needs.
struct HeldMessage {
    MessageIndex lane = kNoMessage;
    Receipt receipt;
    // Its body has one of the consumer's poison markers (its processing always fails), or a flaky one and this is
    // its first receive (it fails this once).
    Fate fate = Fate::Works;
    bool failed = false; // its work is done and failed: what settles it is a release, not a delete
};

struct Simulation::Consumer {
    explicit Consumer(const scenario::ConsumerSpec& spec)
        : spec(&spec)
    {
        request.queue = spec.queue; // its request is kept between polls: its queue is named once
        request.deliveriesOnly = true;
    }
    const scenario::ConsumerSpec* spec = nullptr;
    uint32_t actor = 0;
    ConsumerState state = ConsumerState::Idle;
    uint64_t generation = 0; // bumped by a crash or restart: what was planned before is dropped
    PollId poll = 0; // the long poll it waits on
    std::deque<HeldMessage> batch; // received, not started
    std::optional<HeldMessage> current;
    analysis::ConsumerSummary stats;
    bool removed = false;
    bool retiring = false; // a scaling policy took it away: it stops before its next receive
    ReceiveMessageRequest request; // its receive, kept: see the constructor
    // Refused attempts of the call it is making (a receive, a delete or a release), and of its heartbeat's.
    uint32_t tries = 0;
    uint32_t heartbeatTries = 0;
};

// How long a client waits before retrying a call that was refused (its SDK's back-off: full jitter), counting the
// refusal in `tries`; none once the spec's attempts are spent, the call given up and `tries` back to 0.
std::optional<TimeMs> nextRetry(uint32_t& tries, const scenario::RetrySpec& spec, Random& random);

// A producer's message `n`, its body marked or padded as its spec says (poisonEvery, bodyBytes).
void shapeBody(const scenario::ProducerSpec& spec, std::string& body, int64_t n);

// The bodies a receive returned, in bytes: its payload, as the RequestMeter bills it.
size_t bodyBytes(const std::vector<ReceivedMessage>& messages);
size_t deliveredBytes(const RunView& run, const DeliveryList& messages);

struct Simulation::Poller {
    size_t lambda = 0;
    int64_t rank = 0; // its place among its mapping's pollers: the first ones poll while the mapping backs off
    uint32_t actor = 0;
    PollId poll = 0;
    std::vector<ReceivedMessage> batch {};
    TimeMs gatheringSince = -1; // when the batch being gathered got its first message (a batching window)
    size_t batchBytes = 0; // its bodies' size: Lambda's payload is at most 6 MB
    bool parked = false; // not polling: the mapping's maximum concurrency is reached, or it backed off from throttles
    bool held = false; // the batch waits for a free concurrency slot
    bool failNext = false; // the operator clicked its tile: the next invocation fails
    uint64_t heldToken = 0; // which wait a HeldBatchExpires agenda item belongs to
    bool failed = false;
    bool timedOut = false;
};

} // namespace lifeline::sim
