// The one writer of a run (RunView says what a run holds). The Engine applies SQS's rules over a RunStore it owns; the
// run-file reader and the recording proxy's observer build one through the same calls. The store keeps what must
// agree inside a run, so no writer can forget it: a queue's counters follow its lanes' states, every state change is
// an event in the log at the store's clock, a lane's times are packed or kept whole beside it, the bodies' heap is
// counted as they are written, and with a bounded history whole chunks of ended lanes are released.
//
// Invariants: lanes and queues are only ever appended (their indices are what events, receipts and timers name); a
// lane's state changes only through newLane() and transition(); the clock never goes back.
#pragma once

#include "lifeline/run/run_view.h"

namespace lifeline {

class RunStore : public RunView {
public:
    // `idSeed`: the run's seed, which the MessageIds of lanes with IdSource::Lane are drawn from. `historyMs`: how
    // long what ended is remembered (EngineOptions::historyMs); negative, everything.
    explicit RunStore(uint64_t idSeed = 1, TimeMs historyMs = -1);

    // The clock moves to `time`, never backwards.
    void setNow(TimeMs time) { m_now = std::max(m_now, time); }

    // --- queues --------------------------------------------------------------------------------------------------
    // A new queue at the end of the table (the caller keeps the table under kNoQueue entries).
    QueueIndex addQueue(QueueInfo queue);
    void setQueueAttributes(QueueIndex queue, QueueAttributes attributes);
    void setQueueArn(QueueIndex queue, std::string arn);
    void setQueueAlive(QueueIndex queue, bool alive) { m_queues[queue].alive = alive; }

    // --- actors --------------------------------------------------------------------------------------------------
    // A new actor at the end of the table; its index names it in events. Without a group it is a group of its own.
    uint32_t addActor(std::string name, std::string group = {});

    // --- events --------------------------------------------------------------------------------------------------
    uint32_t addText(std::string text) { return m_log.addText(std::move(text)); }
    // An event that changes no lane's state, at the clock: an actor's decision, a queue's, a refusal, a request that
    // had no effect, a lane's timer moved. Its states before and after are both `state`.
    void note(MessageIndex lane, QueueIndex queue, MessageState state, Cause cause, uint32_t actor = kSqsActor,
        uint32_t detail = 0)
    {
        m_log.append(Event { m_now, lane, actor, detail, queue, state, state, cause });
    }

    // --- lanes ---------------------------------------------------------------------------------------------------
    // A new lane in `queue`, entering state `to`: counted, and logged with its cause, actor and detail. With a bounded
    // history its chunk is held at least until `holdUntil` (a FIFO send's deduplication window).
    MessageIndex newLane(
        QueueIndex queue, MessageState to, Cause cause, uint32_t actor, uint32_t detail, TimeMs holdUntil = INT64_MIN);
    // The lane's state changes to `to`: its queue's counters follow, the change is logged, and a lane that ends
    // starts its hold in a bounded history.
    void transition(MessageIndex lane, MessageState to, Cause cause, uint32_t actor = kSqsActor, uint32_t detail = 0);
    void countReceive(MessageIndex lane) { ++recordOf(lane).receiveCount; }
    void setReceiveCount(MessageIndex lane, uint32_t count) { recordOf(lane).receiveCount = count; }
    void setBody(MessageIndex lane, std::string_view body);
    // Frees the body; keepName: a lane still to be drawn (a run kept with --history) keeps the name it gave its lane.
    void clearBody(MessageIndex lane, bool keepName);
    // Packs the lane's times into its record, or keeps them whole beside it when they do not pack.
    void setTimes(MessageIndex lane, const LaneTimes& times)
    {
        PackedLaneTimes& packed = recordOf(lane).packedTimes;
        const bool wasWide = packed.wide();
        if (!packed.pack(times))
            m_wideTimes[lane] = times;
        else if (wasWide)
            m_wideTimes.erase(lane);
    }
    // The lane's MessageId is `id`, kept beside the lanes (IdSource::Kept).
    void keepMessageId(MessageIndex lane, MessageIdParts id);
    // The lane's MessageId is its origin's (IdSource::Origin): the origin's own must be drawn from the seed.
    void idFromOrigin(MessageIndex lane) { recordOf(lane).idSource = IdSource::Origin; }
    // The lane's extras, made empty when it has none.
    MessageExtra& extraFor(MessageIndex lane);
    void setExtra(MessageIndex lane, MessageExtra extra);

    // --- a recorded run ------------------------------------------------------------------------------------------
    // What a run file holds is the outcome of a run: its events, its lanes as they ended up, its queues with their
    // counters. The reader checks each before it adds it; these take them as they are.
    void addRecordedEvent(const Event& event) { m_log.append(event); }
    void addRecordedExtra(MessageExtra extra) { m_extras.push_back(std::move(extra)); }
    void addRecordedLane(MessageRecord record, const LaneTimes& times, MessageIdParts id);

    // --- a bounded history ---------------------------------------------------------------------------------------
    // Forgets events older than `time`, and every whole chunk of lanes whose ended ones' hold has passed: the few
    // still live (at most an eighth of it) keep their records beside the chunks until they end and their hold passes.
    void forgetBefore(TimeMs time);

private:
    // A held lane's record, in its chunk or kept beside the released chunks.
    MessageRecord& recordOf(MessageIndex lane) { return m_lanes.released(lane) ? m_survivors.at(lane) : m_lanes[lane]; }
    void releaseLaneChunk(size_t chunk);
    // A long body's heap block and malloc's header for it (0: kept inline).
    static size_t bodyHeapCost(const CompactText& body) { return body.heapBytes() > 0 ? body.heapBytes() + 16 : 0; }
    static void enterCounters(QueueCounters& counters, MessageState state);
    static void leaveCounters(QueueCounters& counters, MessageState state);
};

} // namespace lifeline
