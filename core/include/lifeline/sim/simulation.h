// A running scenario: the engine plus its actors (producers, consumers, Lambda pollers, the operator) on the
// same virtual clock. Every actor decision is an event in the engine's log; the same scenario and seed give the
// same run, event for event.
#pragma once

#include "lifeline/analysis/summary.h"
#include "lifeline/engine/engine.h"
#include "lifeline/scenario/scenario.h"
#include "lifeline/sim/alarm_watch.h"
#include "lifeline/sim/mapping_scaler.h"
#include "lifeline/sim/operator_journal.h"
#include "lifeline/sim/processing_ledger.h"
#include "lifeline/sim/random.h"
#include "lifeline/sim/request_meter.h"
#include "lifeline/support/calendar_queue.h"
#include "lifeline/support/chunked_vector.h"

#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <unordered_map>

namespace lifeline::sim {

enum class ActorKind { Producer, Consumer, LambdaPoller, Operator, Sqs, ScriptClient, Topic };

enum class ConsumerState { Idle, Polling, Working, Crashed };

// What a consumer's processing of a message will do, decided from its body when it is received.
enum class Fate : uint8_t { Works, Poison, FailsOnce };

// What a consumer tile shows.
struct ConsumerStatus {
    std::string name;
    std::string group; // the run's group of its actor (RunView::actorGroup)
    std::string queue;
    uint32_t actor = 0;
    ConsumerState state = ConsumerState::Idle;
    MessageIndex holding = kNoMessage; // the message it is working on
    // When the held message's visibility ends for this consumer's receipt; 0 (long past) once another receive took
    // the message from it.
    TimeMs visibleAgainAt = 0;
    size_t waiting = 0; // received, not started yet
    bool removed = false; // taken away by the operator: it stays in the log, not on the tiles
    // A Lambda event-source-mapping poller (after the consumers in consumers()): Working while its batch is being
    // invoked, Crashed when its next invocation is set to fail (the Lambda way of crashing).
    bool lambda = false;
    bool throttled = false; // its batch waits for a free concurrency slot
    bool backedOff = false; // its mapping backed off from a throttled function: it takes no batch for now
    bool notScaledUp = false; // its mapping, started from idle, has not scaled up to it yet (with backedOff)
};

struct ServiceSender;

class Simulation {
public:
    // `historyMs`: how long the run remembers what ended (EngineOptions::historyMs; negative: all of it); its engine
    // forgets only when asked (engine().forgetHistory(), the window's between frames).
    explicit Simulation(
        scenario::Scenario scenario, std::optional<uint64_t> seed = std::nullopt, int64_t historyMs = -1);
    ~Simulation();
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    const scenario::Scenario& scenario() const { return m_scenario; }
    Engine& engine() { return m_engine; }
    const Engine& engine() const { return m_engine; }
    TimeMs now() const { return m_engine.now(); }
    TimeMs duration() const { return m_scenario.duration; }

    // Runs everything due up to `time` (virtual), in time order; nothing once the run has stalled.
    void advanceTo(TimeMs time);
    // Why the run stopped making progress, if it did: more than kStallSteps actor steps, or kStallEvents events, at
    // one virtual instant ("the run loops at 36.000 s: ..."). Once set, the clock stands where it stalled.
    const std::optional<std::string>& stall() const { return m_stall; }
    static constexpr uint64_t kStallSteps = 1'000'000;
    static constexpr size_t kStallEvents = 4'000'000;
    void runToEnd() { advanceTo(duration()); }
    // Forgets what the run's bounded history lets go (Engine::forgetHistory), and the processing records of the
    // messages it forgot.
    void forgetHistory();
    // The next time anything happens (an actor's step or an engine transition), or INT64_MAX.
    TimeMs nextEventTime();

    // Interactive crash / restart (by index, as in consumers()). For a Lambda poller, a crash makes its next
    // invocation fail (the whole batch comes back after its visibility timeout); a restart takes that back.
    bool crashConsumer(size_t index);
    bool restartConsumer(size_t index);
    std::vector<ConsumerStatus> consumers() const;

    // Live changes by the operator (the window's controls). Each is an OperatorAction event on the queue's row
    // before it takes effect; what SQS refuses is refused here the same way (logged, nothing changed).
    Status setQueueAttributes(const std::string& queue, const AttributeMap& attributes);
    Result<SendMessageResult> sendMessage(const std::string& queue, const scenario::TimedMessage& message);
    Result<std::string> createQueue(const std::string& name, const AttributeMap& attributes);
    // A consumer like the queue's first one (or a default one when the queue has none); its index in consumers().
    size_t addConsumer(const std::string& queue);
    // Stops it at once, like a crash that never restarts: a message it held comes back when its visibility ends.
    bool removeConsumer(size_t index);
    // Processing time of every consumer of `queue`, from their next message on.
    void setProcessingTime(const std::string& queue, const scenario::Distribution& processing);
    // Messages per second of a producer from now on (0 stops it); false for an unknown producer or a bad rate.
    bool setProducerRate(size_t producer, double rate);
    double producerRate(size_t producer) const;

    // What the window's controls did to this run, to play it again as it went (operate() records there).
    const OperatorJournal& journal() const { return m_journal; }
    OperatorJournal& journal() { return m_journal; }

    // actor id -> who (0 is SQS itself, 1 the operator: event_log.h); names match the scenario (consumers as name-1,
    // name-2 ...).
    const std::vector<std::string>& warnings() const { return m_warnings; }
    size_t duplicateProcessings() const { return m_ledger.duplicates(); }

    analysis::RunSummary summary() const;

private:
    struct Agenda {
        TimeMs at;
        uint64_t seq;
        int kind;
        uint32_t index;
        uint64_t token;
        bool operator>(const Agenda& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };
    enum AgendaKind : int {
        ProducerRate,
        ProducerBurst,
        ProducerMessage,
        ConsumerPoll,
        ConsumerWorkDone,
        ConsumerHeartbeat,
        ConsumerSettle, // the delete (or release) of the message its work finished, retried
        ConsumerCrash,
        ConsumerRestart,
        PollerPoll,
        InvocationDone,
        Action,
        HeldBatchExpires,
        ScriptCall,
        ScalingPolicy, // index: the consumer spec whose policy looks at its queue
        AlarmPeriod, // index: the scenario's alarm whose period ends
    };
    struct Producer;
    struct Consumer;
    struct Poller;

    // A new actor in the run (its group: RunStore::addActor) and the runtime its events go to.
    uint32_t addActor(const std::string& name, ActorKind kind, size_t slot, const std::string& group = {});
    void schedule(TimeMs at, int kind, uint32_t index, uint64_t token = 0);
    void run(const Agenda& item);
    // Counts a step at the present instant; false (and m_stall set) when the run makes no progress.
    bool progressing(const Agenda& item);
    std::string describeStep(const Agenda& item) const;
    void dispatchPolls();
    void produce(size_t producer, const scenario::TimedMessage& message);
    // A producer's own message (its rate or a burst): its body and timer, no group or deduplication id given.
    void produce(size_t producer);
    // Sends the producer's message `n`, its body already in the producer's request.
    MessageIndex sendProduced(size_t producer, int64_t n, const std::optional<int64_t>& delaySeconds,
        const std::optional<std::string>& groupId, const std::optional<std::string>& deduplicationId);
    // Publishes the producer's message `n` to its topic: a copy, sent by the topic, to every subscribed queue whose
    // filter policy accepts the attributes, each copy's lane labelled `label` (service_senders.cpp).
    void publish(
        size_t producer, int64_t n, const std::map<std::string, std::string>& attributes, const std::string& label);
    // Sends the producer's latest message (its body the object's key) as its bucket's S3 event notification, if the
    // queue's policy and key let S3 in; its lane labelled `label` or the key (service_senders.cpp).
    MessageIndex sendS3Event(size_t producer, const std::string& label);
    // Each subscription's statement in its queue's policy, at the start (service_senders.cpp).
    void addSubscriptionPolicies();
    // Whether the producer's request (its queue, its actor) from this service gets in; if not, the refusal is logged
    // on the queue's row, naming `what` was dropped.
    bool letIn(size_t producer, const ServiceSender& sender, const std::string& what);
    void runAction(size_t index);
    void noteOperator(const std::string& queue, const std::string& what);
    void scheduleRate(size_t producer, int64_t k);

    void consumerPoll(size_t index);
    // A new consumer of `spec`, named past every one it ever had, receiving from `firstPoll`; its index.
    size_t spawnConsumer(const scenario::ConsumerSpec& spec, TimeMs firstPoll);
    size_t siblingsOf(const scenario::ConsumerSpec& spec) const; // consumers that spec ever had, by its name
    // The spec's scaling policy looks at the queue's backlog and adds or retires consumers (scaling.cpp).
    void applyScalingPolicy(size_t spec);
    void consumerReceived(size_t index, const DeliveryList& messages, bool wasLongPoll, PollId poll);
    void consumerStartNext(size_t index);
    void consumerStart(size_t index, MessageIndex lane, const Receipt& receipt, Fate fate);
    // An idempotent consumer looks a message up first: true when it is new work; false when it was handled (a repeat
    // skipped and deleted, or left to another still on it), and the next one has started.
    bool idempotentCheck(size_t index, MessageIndex lane, const Receipt& receipt);
    void consumerWorkDone(size_t index);
    void consumerHeartbeat(size_t index);
    // The finished message's delete (a release, after a failure, with releaseOnFailure), retried while refused;
    // then the next message starts.
    void consumerSettle(size_t index);
    TimeMs nextStepBound(); // nextEventTime() or earlier, cheaply (Engine::nextDueBound): for advanceTo
    // true: duplicate processing. A Lambda invocation logs its function timeout with each start.
    bool startProcessing(MessageIndex lane, uint32_t actor, TimeMs functionTimeout = 0);

    void pollerPoll(size_t index);
    void pollerReceived(size_t index, std::vector<ReceivedMessage> messages, PollId poll);
    void invoke(size_t index);
    void invocationDone(size_t index);
    void heldBatchExpires(size_t index, uint64_t token);
    void wakeParkedPollers(size_t lambda); // a slot freed: of its maximum concurrency, or no batch waits any more

    void setUpLambdas(); // the event source mappings' pollers, and their six-times warning

    // A scenario's script (script.cpp): each step's call by its client, its answer an event on the client's row.
    void setUpScript();
    void runScriptStep(size_t step);
    void scriptReceived(size_t step, const std::vector<ReceivedMessage>& messages);
    void answerStep(size_t step, MessageIndex lane, const std::string& answer);
    std::optional<Receipt> scriptReceipt(const scenario::ScriptStep& step) const;

    scenario::Scenario m_scenario;
    Engine m_engine;
    Random m_random;
    uint64_t m_seq = 0;
    // A ring of 256 ms: what a busy run plans (a producer's next tick, work done 5-15 ms on) falls inside it;
    // further ahead goes to its heap (the ring's size: docs/decisions.md, "The simulation's work per message").
    CalendarQueue<Agenda, 8> m_agenda;
    // What is planned for the present instant, in the order planned: after whatever the agenda holds for it (planned
    // earlier, so sooner in order), without a trip through the heap. A consumer polls again this way after each
    // message.
    std::vector<Agenda> m_present;
    size_t m_presentNext = 0;
    std::vector<std::pair<ActorKind, size_t>> m_actorSlots; // actor id -> its runtime
    std::vector<std::unique_ptr<Producer>> m_producers;
    std::vector<uint32_t> m_topicActors; // per topic of the scenario: the actor its deliveries come from
    std::vector<std::unique_ptr<Consumer>> m_consumers;
    std::deque<scenario::ConsumerSpec>
        m_addedSpecs; // for consumers added to a queue that had none (a deque: stable addresses)
    std::vector<std::unique_ptr<Poller>> m_pollers;
    std::vector<int64_t> m_lambdaRunning; // per Lambda: invocations running
    std::vector<std::deque<size_t>> m_lambdaWaiting; // per Lambda: pollers whose batch waits for a free slot
    std::vector<MappingScaler> m_mappingScalers; // per Lambda: how many of its pollers may take a batch
    AlarmWatch m_alarms; // the scenario's CloudWatch alarms
    RequestMeter m_requests; // what its clients' SQS calls cost
    OperatorJournal m_journal;
    std::vector<CompletedPoll> m_completedPolls; // dispatchPolls' buffer, kept between calls
    ProcessingLedger m_ledger; // what clients are processing and completed: duplicate processings
    std::vector<std::string> m_warnings;
    // The run-loop guard: the instant being stepped, the steps taken and the log's size when it began.
    TimeMs m_stepInstant = -1;
    uint64_t m_stepsAtInstant = 0;
    size_t m_eventsBeforeInstant = 0;
    std::optional<std::string> m_stall;
    // The script's runtime: each step's client actor, the lanes labelled by its sends, what each receive got (by
    // step), and each lane's latest scripted receipt.
    std::vector<uint32_t> m_stepActor;
    std::map<std::string, MessageIndex> m_labels;
    std::map<size_t, std::vector<ReceivedMessage>> m_stepReceived;
    std::map<MessageIndex, Receipt> m_scriptReceipts;
    std::map<PollId, size_t> m_scriptPolls; // a waiting scripted receive: its step
};

// Makes `call` (a lambda taking the Simulation) on the live run and records it in the run's journal: what each of
// the window's controls does, so that an export "as played" makes the same call at the same instant.
template <class Call> auto operate(Simulation& run, Call call)
{
    run.journal().record(run.now(), run.engine().log().size(), [call](Simulation& again) { (void)call(again); });
    return call(run);
}

} // namespace lifeline::sim
