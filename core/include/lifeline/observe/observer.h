// Lanes for what the recording proxy saw (`lifeline proxy`): each observed call, read into an ObservedCall, becomes
// events in a RunStore that viewers, exports and run files read as they read a simulated one. Nothing is
// simulated here: the lanes are written from the observations, and the run's clock is the proxy's wall time. What
// follows from SQS's rules alone is drawn (a delay ends, a visibility timeout ends, retention passes); what the proxy
// could not see is never guessed: a message first seen in a receive (sent before the proxy started, or by a client that
// talks to the upstream directly) starts with a FirstSeen event, and the viewer hatches the time before it as not
// observed. docs/decisions.md, "What the recording proxy draws", says where this stops.
#pragma once

#include "lifeline/observe/observed_call.h"
#include "lifeline/run/run_store.h"

#include <memory>
#include <optional>
#include <queue>
#include <set>
#include <unordered_map>

namespace lifeline::observe {

struct ObserverOptions {
    // `lifeline import`: what SQS's rules alone say happened between the calls is marked inferred (Event::inferred),
    // a message received maxReceiveCount times moves to its dead-letter queue at the next receive from its queue (as
    // SQS moves it), and calls that contradict the rules are listed (contradictions()).
    bool inferring = false;
    // How long what ended is remembered (RunStore's historyMs); negative: everything. A bounded history keeps a
    // long-running receiver's memory to what is live and what ended within it (forgetHistory()).
    TimeMs historyMs = -1;
};

// A call that the rules, with the queue's settings as given, say could not have happened as it did.
struct Contradiction {
    TimeMs at;
    MessageIndex lane;
    std::string what; // "received while in flight: receive #1's visibility timeout (30 s) runs to 42.000 s"
    std::string origin; // the call's (ObservedCall::origin)
};

class Observer {
public:
    // `epochMs`: the wall time (ms since 1970) of the engine's time 0, to read SentTimestamp.
    explicit Observer(int64_t epochMs, ObserverOptions options = {});
    ~Observer();
    Observer(const Observer&) = delete;
    Observer& operator=(const Observer&) = delete;

    const RunView& run() const { return *m_run; }
    // The wall time of time 0, when it is known only after the observer is made (an import's first span): before
    // the first call.
    void setEpochMs(int64_t epochMs) { m_epochMs = epochMs; }
    // The run drawn so far, taken out (the window shows an import as it shows a saved run): nothing more is observed.
    std::unique_ptr<RunStore> takeRun() { return std::move(m_run); }
    // A client in the run's actor table (a group of its own); its index is what observe() and pollStarted() take.
    uint32_t addActor(const std::string& name, std::string group = {})
    {
        return m_run->addActor(name, std::move(group));
    }

    // Moves the clock to `time` (never backwards), firing what SQS's rules say happens on the way: delays and
    // visibility timeouts that end, messages whose retention passes.
    void advanceTo(TimeMs time);
    // A ReceiveMessage went upstream for `actor` (its answer comes later through observe()): the client's row shows it
    // polling from now.
    void pollStarted(const std::string& queue, uint32_t actor);
    // A SendMessage(Batch) went upstream for `actor` with these messages (requestedSends): until sendEnded(token), a
    // receive that returns one of them before the send's own answer reaches the proxy (long polling makes that race
    // everyday) draws it sent by `actor`, not first seen.
    uint64_t sendStarted(const std::string& queue, uint32_t actor, std::vector<ObservedSend> requested);
    void sendEnded(uint64_t token); // its answer was observed, or never came
    // One call and its answer, at the current time.
    void observe(const ObservedCall& call, uint32_t actor);
    // A client's work on a message as its trace tells it (an import's process span): `cause` ProcessingStarted,
    // ProcessingFinished or ProcessingFailed on the message's lane in `queue`; nothing when no lane there has its id.
    void noteWork(const std::string& queue, const std::string& messageId, Cause cause, uint32_t actor, uint32_t detail);
    // What the queue's attributes are (the proxy's own GetQueueAttributes): delays, visibility timeouts and
    // retention follow them from now on.
    void noteAttributes(const std::string& queue, const AttributeMap& attributes);
    bool knowsAttributes(const std::string& queue) const { return m_attributesKnown.count(queue) != 0; }
    // Queue names seen in any call, for the proxy's attribute polling.
    std::vector<std::string> queuesSeen() const;

    // With a bounded history (ObserverOptions::historyMs), forgets what ended longer ago, in the run and in what the
    // observer keeps of each message (its id, its receipts, its timers); at most once a second of the run's time.
    void forgetHistory();

    // Receipt handles in calls that the proxy never saw given out (received outside it): nothing could be drawn.
    size_t unknownHandles() const { return m_unknownHandles; }
    const std::vector<Contradiction>& contradictions() const { return m_contradictions; }

private:
    struct Receipt {
        MessageIndex lane;
        uint32_t receiveNumber;
    };
    struct Due {
        TimeMs at;
        uint64_t seq;
        MessageIndex lane;
        uint8_t kind; // Kind
        bool operator>(const Due& other) const { return at != other.at ? at > other.at : seq > other.seq; }
    };
    enum Kind : uint8_t { DelayEnd, VisibilityEnd, RetentionEnd };
    struct SendInFlight {
        uint64_t token;
        std::string queue;
        uint32_t actor;
        std::vector<ObservedSend> messages; // those no receive has returned yet
    };

    QueueIndex queueFor(const std::string& name);
    void applyAttributes(QueueIndex queue, const AttributeMap& given);
    // A lane for a message the proxy saw, its MessageId kept as the upstream gave it.
    MessageIndex newLane(
        QueueIndex queue, const std::string& messageId, MessageState to, Cause cause, uint32_t actor, uint32_t detail);
    void noEffect(MessageIndex lane, NoEffectKind kind, uint32_t actor);
    void send(QueueIndex queue, const ObservedSend& sent, uint32_t actor);
    // A lane for a message whose send the proxy saw, with its body and group, until its retention ends.
    MessageIndex sentLane(QueueIndex queue, const ObservedSend& sent, MessageState to, uint32_t actor);
    void markSendSeen(MessageIndex lane);
    bool wasDeleted(const std::string& name) const; // a queue of that name was seen, and none is alive
    void receive(QueueIndex queue, const ObservedCall& call, uint32_t actor);
    MessageIndex laneForReceipt(QueueIndex queue, const ObservedReceipt& receipt);
    // The sender of a message a receive returned before its send's answer came: the send in flight to this queue
    // asking for the same body, that message taken from it; none when no send in flight asks for it.
    struct RequestedSend {
        uint32_t actor;
        ObservedSend message; // without its MessageId
    };
    std::optional<RequestedSend> takeSendInFlight(QueueIndex queue, const std::string& body);
    void deleteOrChange(const ObservedCall& call, uint32_t actor);
    void endAll(QueueIndex queue, MessageState to, Cause cause, uint32_t actor);
    void refused(QueueIndex queue, const ObservedCall& call, uint32_t actor);
    void schedule(TimeMs at, MessageIndex lane, Kind kind);
    void fire(const Due& due);
    // The detail of an event SQS's rules alone make: marked inferred when importing.
    uint32_t ruled(uint32_t detail = 0) const { return m_options.inferring ? detail | Event::kInferred : detail; }
    // A receive from `queue` moves what was received maxReceiveCount times to its dead-letter queue first.
    void moveDeadLetters(QueueIndex queue);
    // Says what in the lane's state contradicts `call` receiving it (importing only).
    void checkReceivable(MessageIndex lane, const ObservedCall& call);
    void contradiction(MessageIndex lane, std::string what, const ObservedCall& call);

    std::unique_ptr<RunStore> m_run;
    int64_t m_epochMs;
    ObserverOptions m_options;
    std::vector<Contradiction> m_contradictions;
    std::unordered_map<std::string, MessageIndex> m_laneById; // a MessageId's latest lane
    std::unordered_map<MessageIndex, TimeMs> m_receivedUncertain; // a lane's latest receive: ObservedCall::uncertainMs
    std::unordered_map<QueueIndex, uint32_t> m_openPolls; // receives begun and not yet answered, per queue
    std::unordered_map<MessageIndex, MessageIndex> m_movedTo; // a lane moved to its DLQ by inference: the DLQ's lane
    std::vector<bool> m_sendSeen; // per lane: its send's answer came through (a receive's may come first)
    std::unordered_map<std::string, Receipt> m_receipts;
    std::vector<std::vector<MessageIndex>> m_lanesOf; // per queue, for PurgeQueue and DeleteQueue
    std::priority_queue<Due, std::vector<Due>, std::greater<>> m_due;
    uint64_t m_seq = 0;
    uint32_t m_polls = 0;
    std::vector<SendInFlight> m_sendsInFlight; // one per connection with a send upstream, at most
    uint64_t m_sendTokens = 0;
    std::set<std::string> m_attributesKnown;
    size_t m_unknownHandles = 0;
    TimeMs m_nextForget = 0;
    size_t m_dueKept = 0; // timers left when the forgotten lanes' were last taken out
};

} // namespace lifeline::observe
