// The runtime state of the simulation's actors.
#pragma once

#include "lifeline/sim/simulation.h"

#include <cmath>
#include <string_view>

namespace lifeline::sim {

// std::llround (half away from zero) without its library call, which was 2% of a simulated message (a producer's
// next tick, a drawn processing time): exact for 0 <= x < 2^52, where x - trunc(x) loses nothing; std::llround
// itself for anything else (negative, huge, NaN).
inline int64_t roundToInteger(double x)
{
    if (x >= 0.0 && x < 4503599627370496.0) {
        const auto whole = int64_t(x);
        return x - double(whole) >= 0.5 ? whole + 1 : whole;
    }
    return std::llround(x);
}

// The SendMessage request for one of a scenario's messages (an action's, the operator's, a script step's).
inline SendMessageRequest sendRequest(const std::string& queue, const TimedMessage& message, uint32_t actor)
{
    SendMessageRequest request;
    request.queue = queue;
    request.body = message.body;
    request.delaySeconds = message.delaySeconds;
    request.messageGroupId = message.groupId;
    request.messageDeduplicationId = message.deduplicationId;
    request.actor = actor;
    return request;
}

// A rate-driven producer's agenda token: its rate generation above this bit, the message number below.
constexpr int kRateGenerationShift = 40;

// A producer's own body cut at its "{n}"s once: each message writes the pieces and its number, without searching
// the text again (a producer at 1,000 messages/s expands it a thousand times a second). The same text as expandBody.
class BodyTemplate {
public:
    explicit BodyTemplate(std::string_view body);
    // `number` in decimal, as the producer's DecimalCounter keeps it.
    void expand(std::string& out, std::string_view number) const;

private:
    std::vector<std::string> m_pieces; // the text around the "{n}"s: one more piece than there are of them
    size_t m_piecesLength = 0;
};

// A count from 0 kept as its decimal text too: the next number's text is the last one's with a digit or a few
// carried, not a conversion.
class DecimalCounter {
public:
    int64_t next()
    {
        for (size_t i = m_digits.size(); i-- > 0;) {
            if (m_digits[i] != '9') {
                ++m_digits[i];
                return ++m_value;
            }
            m_digits[i] = '0';
        }
        m_digits.insert(m_digits.begin(), '1');
        return ++m_value;
    }
    int64_t value() const { return m_value; }
    std::string_view text() const { return m_digits; }

private:
    int64_t m_value = 0;
    std::string m_digits = "0";
};

struct Simulation::Producer {
    explicit Producer(const ProducerSpec& spec)
        : spec(&spec)
        , body(spec.body)
    {
        request.queue = spec.queue; // its queue is its spec's: named once, not at each message
    }
    const ProducerSpec* spec = nullptr;
    uint32_t actor = 0;
    DecimalCounter sent; // numbers the messages: {n}
    bool fifo = false; // its queue's type (a name ending in .fifo: it cannot change)
    // The rate as it is now: the k-th rate message (k from rateBase) is due at rateOrigin + (k - rateBase) / rate.
    // A change starts a new generation so what was planned at the old rate is dropped.
    double rate = 0;
    TimeMs rateOrigin = 0;
    int64_t rateBase = 0;
    uint64_t rateGeneration = 0;
    int64_t rateSent = 0; // rate-driven messages sent so far
    // Its last request, reused: a producer at 1,000 messages/s would otherwise build and free one a millisecond.
    SendMessageRequest request;
    BodyTemplate body; // its spec's body, cut at "{n}"
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
};

struct Simulation::Consumer {
    explicit Consumer(const ConsumerSpec& spec)
        : spec(&spec)
    {
        // Its queue named once: a name copied into a fresh request at each poll was compared with the queue's at
        // once, and reading what was just written (a wide load over narrow stores) stalled the processor: 9% of
        // the benchmark's time, in perf's samples, for a comparison of four bytes.
        request.queue = spec.queue;
        request.deliveriesOnly = true;
    }
    const ConsumerSpec* spec = nullptr;
    uint32_t actor = 0;
    ConsumerState state = ConsumerState::Idle;
    uint64_t generation = 0; // bumped by a crash or restart: what was planned before is dropped
    PollId poll = 0; // the long poll it waits on
    std::deque<HeldMessage> batch; // received, not started
    std::optional<HeldMessage> current;
    ConsumerSummary stats;
    bool removed = false;
    ReceiveMessageRequest request; // its receive, kept: see the constructor
};

struct Simulation::Poller {
    size_t lambda = 0;
    uint32_t actor = 0;
    PollId poll = 0;
    std::vector<ReceivedMessage> batch;
    TimeMs gatheringSince = -1; // when the batch being gathered got its first message (a batching window)
    size_t batchBytes = 0; // its bodies' size: Lambda's payload is at most 6 MB
    bool parked = false; // not polling: the mapping's maximum concurrency is reached
    bool held = false; // the batch waits for a free concurrency slot
    bool failNext = false; // the operator clicked its tile: the next invocation fails
    uint64_t heldToken = 0; // which wait a HeldBatchExpires agenda item belongs to
    bool failed = false;
    bool timedOut = false;
};

} // namespace lifeline::sim
