#include "lifeline/timeline/lane_index.h"

#include <algorithm>

namespace lifeline {

bool LaneIndex::isActorWork(Cause cause)
{
    return cause == Cause::PollStarted || std::ranges::find(ActorStep::kCauses, cause) != ActorStep::kCauses.end();
}

LaneIndex::SyncResult LaneIndex::sync(const RunView& run)
{
    SyncResult result;
    result.firstNewLane = laneCount();
    result.firstNewActor = m_actorSteps.size();
    const EventLog& log = run.log();
    m_log = &log;
    const size_t end = log.size();
    // Events released before this index read them (a run computed ahead, then shown) are skipped: their words
    // hold no lane events.
    for (; m_read < log.firstRetained(); m_read += 64 - m_read % 64)
        if (m_read / 64 >= m_isLaneEvent.size()) {
            m_isLaneEvent.push_back(0);
            m_wordRank.push_back(uint32_t(m_laneEvents));
        }
    m_read = std::max(m_read, log.firstRetained());
    for (; m_read < end; ++m_read) {
        const Event& e = log[m_read];
        const uint32_t index = uint32_t(m_read);
        m_causesSeen.set(size_t(e.cause));
        m_inferredSeen = m_inferredSeen || e.inferred();
        if (e.cause != Cause::RequestRefused && e.message != kNoMessage)
            m_statesSeen |= 1u << unsigned(e.to);
        const size_t word = m_read / 64;
        if (word >= m_isLaneEvent.size()) {
            m_isLaneEvent.push_back(0);
            m_wordRank.push_back(uint32_t(m_laneEvents));
        }
        // A late event of a lane forgotten with its chunk (a second delete's refusal) has no chain to join.
        if (e.message != kNoMessage && !gone(e.message)) {
            while (laneCount() <= e.message) { // lanes appear in order; a new one starts empty
                const auto lane = MessageIndex(laneCount());
                if ((laneCount() >> kBlockBits) >= m_blocks.size())
                    m_blocks.push_back(LaneBlock { e.time, e.time, 0, UINT32_MAX });
                m_first.push_back(kNoEvent);
                m_last.push_back(kNoEvent);
                m_state.push_back(MessageState::None);
                if (lane < e.message && log.firstRetained() > 0)
                    adoptUnread(run, lane);
            }
            const MessageState before = stateOf(e.message);
            if (cleared(e.message)) { // it has a chain again
                --m_clearedInChunk[e.message >> kLaneChunkBits];
                --m_clearedCount;
            }
            m_isLaneEvent[word] |= uint64_t(1) << (m_read % 64);
            ++m_laneEvents;
            m_links.push_back(kNoEvent);
            if (lastOf(e.message) == kNoEvent || lastOf(e.message) == kForgottenEvents) {
                firstOf(e.message) = index;
                noteHead(e.message, index);
            } else {
                m_links[rank(lastOf(e.message))] = index;
            }
            lastOf(e.message) = index;
            if (e.cause != Cause::RequestRefused)
                stateOf(e.message) = e.to;
            trackLife(e, before);
            if (e.cause == Cause::ProcessingStarted && e.duplicate())
                ++m_duplicates[e.message];
            if (e.message < result.firstNewLane)
                result.changedLanes.push_back(e.message);
        }
        indexQueueMark(e, index);
        if (e.cause == Cause::AttributesChanged && e.queue != kNoQueue)
            indexRedriveChange(e, log.text(e.textIndex()));
        if (e.actor >= kFirstActor && isActorWork(e.cause))
            indexActorStep(e);
        if (e.cause == Cause::ScriptedCall)
            m_scriptCalls[e.actor].push_back(index);
        ++result.newEvents;
    }
    if (log.firstRetained() > m_forgotten)
        forget(run, log.firstRetained());
    std::sort(result.changedLanes.begin(), result.changedLanes.end());
    result.changedLanes.erase(
        std::unique(result.changedLanes.begin(), result.changedLanes.end()), result.changedLanes.end());
    return result;
}

std::vector<MessageIndex>& LaneIndex::headsIn(uint32_t event)
{
    const size_t span = (event >> kHeadSpanBits) - m_headSpansDone;
    if (span >= m_heads.size())
        m_heads.resize(span + 1);
    return m_heads[span];
}

void LaneIndex::forget(const RunView& run, size_t firstHeld)
{
    // The log releases whole chunks of 16,384 events: the boundary is always at the start of a span of heads.
    advanceHeads(firstHeld);
    m_forgotten = firstHeld;
    m_forgottenUntil = firstHeld < m_log->size() ? (*m_log)[firstHeld].time : run.now();
    // What only the forgotten events needed: their links and rank words, whole chunks below the boundary.
    const size_t word = firstHeld / 64;
    const size_t firstRank = word < m_wordRank.size() ? m_wordRank[word] : m_laneEvents;
    for (size_t chunk = 0; (chunk + 1) * decltype(m_links)::kChunkSize <= firstRank; ++chunk)
        m_links.releaseChunk(chunk); // a chunk already released is left as it is
    for (size_t chunk = 0; (chunk + 1) * decltype(m_isLaneEvent)::kChunkSize <= word; ++chunk) {
        m_isLaneEvent.releaseChunk(chunk);
        m_wordRank.releaseChunk(chunk);
    }
    // Steps: whole chunks whose last step is before the boundary.
    m_firstStep.resize(m_actorSteps.size(), 0);
    constexpr size_t kStepChunk = ChunkedVector<ActorStep, 12>::kChunkSize;
    for (size_t actor = 0; actor < m_actorSteps.size(); ++actor) {
        auto& steps = *m_actorSteps[actor];
        size_t& first = m_firstStep[actor];
        while ((first / kStepChunk + 1) * kStepChunk < steps.size()
            && TimeMs(steps[(first / kStepChunk + 1) * kStepChunk - 1].time) < m_forgottenUntil) {
            steps.releaseChunk(first / kStepChunk);
            first = (first / kStepChunk + 1) * kStepChunk;
        }
    }
    const auto dropForgotten = [firstHeld](std::vector<uint32_t>& events) {
        events.erase(events.begin(), std::lower_bound(events.begin(), events.end(), uint32_t(firstHeld)));
    };
    for (auto& marks : m_refusals)
        dropForgotten(marks);
    for (auto& marks : m_notes)
        dropForgotten(marks);
    for (auto& marks : m_tenantMarks)
        dropForgotten(marks);
    for (auto& [actor, calls] : m_scriptCalls)
        dropForgotten(calls);
}

void LaneIndex::advanceHeads(size_t firstHeld)
{
    while ((m_headSpansDone + 1) << kHeadSpanBits <= firstHeld) {
        std::vector<MessageIndex> lanes;
        if (!m_heads.empty()) { // none past the front: every later span is empty too
            lanes = std::move(m_heads.front());
            m_heads.pop_front();
        }
        ++m_headSpansDone; // before noteHead() files a lane under a later span
        for (const MessageIndex lane : lanes) {
            if (gone(lane) || firstOf(lane) == kNoEvent)
                continue;
            uint32_t event = firstOf(lane);
            while (event != kNoEvent && event < firstHeld)
                event = m_links[rank(event)];
            if (event != kNoEvent) {
                firstOf(lane) = event;
                noteHead(lane, event);
            } else if (isLive(stateOf(lane))) {
                firstOf(lane) = kNoEvent;
                lastOf(lane) = kForgottenEvents;
            } else {
                clearLane(lane);
            }
        }
    }
}

void LaneIndex::adoptUnread(const RunView& run, MessageIndex lane)
{
    // Its events were released before this index read them: what the run still knows of it is all there is.
    const bool known = !run.forgotten(lane);
    if (known && isLive(run.message(lane).state)) {
        stateOf(lane) = run.message(lane).state;
        lastOf(lane) = kForgottenEvents;
        ++m_blocks[lane >> kBlockBits].live;
        return;
    }
    // Ended, or forgotten by the run too. A cleared lane is drawn nowhere, so a forgotten one's end is not needed: it
    // reads as deleted.
    stateOf(lane) = known ? run.message(lane).state : MessageState::Deleted;
    clearLane(lane);
}

void LaneIndex::clearLane(MessageIndex lane)
{
    firstOf(lane) = kNoEvent;
    lastOf(lane) = kNoEvent;
    m_duplicates.erase(lane);
    const size_t chunk = lane >> kLaneChunkBits;
    if (chunk >= m_clearedInChunk.size())
        m_clearedInChunk.resize(chunk + 1, 0);
    ++m_clearedCount;
    if (m_first.chunkReleased(chunk)) { // a survivor of its chunk: now gone too
        m_laneSurvivors.erase(lane);
        return;
    }
    // A chunk of lanes all but an eighth cleared is released; the others survive beside it (a message left in a DLQ
    // for days must not hold its neighbours).
    constexpr size_t kChunk = decltype(m_first)::kChunkSize;
    if (++m_clearedInChunk[chunk] < kChunk - kChunk / 8 || (chunk + 1) * kChunk > laneCount())
        return;
    for (size_t l = chunk * kChunk; l < (chunk + 1) * kChunk; ++l)
        if (!cleared(MessageIndex(l)))
            m_laneSurvivors.emplace(MessageIndex(l), LaneHead { m_first[l], m_last[l], m_state[l] });
    m_first.releaseChunk(chunk);
    m_last.releaseChunk(chunk);
    m_state.releaseChunk(chunk);
}

MessageState LaneIndex::stateBefore(MessageIndex lane) const
{
    if (m_forgotten == 0 || lane >= laneCount() || gone(lane))
        return MessageState::None;
    if (firstOf(lane) == kNoEvent)
        return lastOf(lane) == kForgottenEvents ? stateOf(lane) : MessageState::None;
    return (*m_log)[firstOf(lane)].from;
}

void LaneIndex::indexQueueMark(const Event& e, uint32_t index)
{
    if (e.queue == kNoQueue)
        return;
    if (e.cause == Cause::RequestRefused) {
        if (e.queue >= m_refusals.size())
            m_refusals.resize(e.queue + 1);
        m_refusals[e.queue].push_back(index);
    } else if (e.cause == Cause::OperatorAction || e.cause == Cause::Warning || e.cause == Cause::AlarmFired
        || e.cause == Cause::AlarmOk || e.cause == Cause::FaultInjected) {
        if (e.queue >= m_notes.size())
            m_notes.resize(e.queue + 1);
        m_notes[e.queue].push_back(index);
    } else if (e.cause == Cause::TenantNoisy || e.cause == Cause::TenantQuiet) {
        if (e.queue >= m_tenantMarks.size())
            m_tenantMarks.resize(e.queue + 1);
        m_tenantMarks[e.queue].push_back(index);
    }
}

void LaneIndex::indexRedriveChange(const Event& e, const std::string& text)
{
    // The text lists the attributes set: "VisibilityTimeout=10, RedrivePolicy={...,"maxReceiveCount":3}".
    const size_t at = text.find("RedrivePolicy=");
    if (at == std::string::npos)
        return;
    uint32_t maxReceiveCount = 0; // an empty policy removes the DLQ
    const size_t end = text.find('}', at); // the policy's JSON ends there
    const size_t key = text.find("maxReceiveCount", at);
    if (key != std::string::npos && end != std::string::npos && key < end) {
        size_t digit = key + 15;
        while (digit < text.size() && (text[digit] == '"' || text[digit] == ':' || text[digit] == ' '))
            ++digit;
        while (digit < text.size() && text[digit] >= '0' && text[digit] <= '9' && maxReceiveCount < 100000)
            maxReceiveCount = maxReceiveCount * 10 + uint32_t(text[digit++] - '0');
    }
    if (e.queue >= m_redrive.size())
        m_redrive.resize(e.queue + 1);
    m_redrive[e.queue].emplace_back(e.time, maxReceiveCount);
}

std::optional<uint32_t> LaneIndex::maxReceiveCountAt(QueueIndex queue, TimeMs time) const
{
    if (queue >= m_redrive.size() || m_redrive[queue].empty())
        return std::nullopt;
    const auto& changes = m_redrive[queue];
    const auto after = std::upper_bound(changes.begin(), changes.end(), time,
        [](TimeMs t, const std::pair<TimeMs, uint32_t>& change) { return t < change.first; });
    return after == changes.begin() ? 0u : std::prev(after)->second;
}

void LaneIndex::indexActorStep(const Event& e)
{
    while (m_actorSteps.size() <= e.actor)
        m_actorSteps.push_back(std::make_unique<ChunkedVector<ActorStep, 12>>());
    if (m_openPoll.size() <= e.actor)
        m_openPoll.resize(e.actor + 1, -1);
    const uint32_t time = uint32_t(std::min<TimeMs>(e.time, UINT32_MAX));
    if (e.cause == Cause::PollStarted) {
        m_openPoll[e.actor] = e.time; // stored as a step only when it ends
    } else if (e.cause == Cause::PollEnded) {
        // A receive answered at once (a short poll, or a long one that found messages) never opened a poll: it is
        // a step of no length, so a real client that only short-polls still has a lane.
        const TimeMs started = m_openPoll[e.actor] >= 0 ? m_openPoll[e.actor] : e.time;
        const TimeMs length = std::min<TimeMs>(e.time - started, ActorStep::kNoLane - 1);
        m_actorSteps[e.actor]->push_back(ActorStep(time, MessageIndex(length), e.cause));
        m_openPoll[e.actor] = -1;
    } else {
        m_actorSteps[e.actor]->push_back(ActorStep(time, e.message, e.cause));
    }
    if (e.cause == Cause::ProcessingStarted && e.functionTimeout() > 0) {
        if (m_functionTimeout.size() <= e.actor)
            m_functionTimeout.resize(e.actor + 1, 0);
        m_functionTimeout[e.actor] = e.functionTimeout();
    }
    if (e.cause == Cause::ProcessingFailed && e.failure() == FailureKind::TimedOut) {
        auto& ends = m_timedOut[e.actor]; // one entry per invocation, not per message of its batch
        if (ends.empty() || ends.back() != e.time)
            ends.push_back(e.time);
    }
}

void LaneIndex::trackLife(const Event& e, MessageState before)
{
    LaneBlock& block = m_blocks[e.message >> kBlockBits];
    const MessageState after = stateOf(e.message);
    if (!isLive(before) && isLive(after))
        ++block.live;
    else if (isLive(before) && !isLive(after) && block.live > 0)
        --block.live;
    if (!isLive(after)) {
        block.lastEnd = std::max(block.lastEnd, e.time);
        const auto after = uint32_t(std::clamp<TimeMs>(e.time - block.born, 0, TimeMs(UINT32_MAX) - 1));
        block.firstEndAfterBorn = std::min(block.firstEndAfterBorn, after);
    }
}

TimeMs LaneIndex::bornAt(MessageIndex lane) const
{
    if (stateBefore(lane) != MessageState::None) // born before what is held
        return m_forgottenUntil;
    return gone(lane) || firstOf(lane) == kNoEvent ? 0 : (*m_log)[firstOf(lane)].time;
}

TimeMs LaneIndex::endedAt(MessageIndex lane) const
{
    if (gone(lane) || isLive(stateOf(lane)) || lastOf(lane) == kNoEvent)
        return -1;
    return (*m_log)[lastOf(lane)].time;
}

void LaneIndex::lanesAlive(TimeMs from, TimeMs to, std::vector<MessageIndex>& out) const
{
    out.clear();
    if (to < from || m_blocks.empty())
        return;
    // The blocks whose first lane was born by `to`; only the last of them can hold lanes born after it.
    const auto after = std::upper_bound(
        m_blocks.begin(), m_blocks.end(), to, [](TimeMs t, const LaneBlock& block) { return t < block.born; });
    const size_t blocks = size_t(after - m_blocks.begin());
    for (size_t b = 0; b < blocks; ++b) {
        if (m_blocks[b].live == 0 && m_blocks[b].lastEnd < from)
            continue;
        if (m_first.released(b << kBlockBits)) { // a block lies inside one chunk of lanes: only its survivors are left
            for (auto it = m_laneSurvivors.lower_bound(MessageIndex(b << kBlockBits));
                 it != m_laneSurvivors.end() && it->first < ((b + 1) << kBlockBits); ++it)
                if (it->second.last != kNoEvent && (isLive(it->second.state) || (*m_log)[it->second.last].time >= from))
                    out.push_back(it->first);
            continue;
        }
        const size_t last = std::min(laneCount(), (b + 1) << kBlockBits);
        // No lane of the block ended before the window (a lane's last event is never before its end): all of them
        // are in it, found without reading the log (a whole run in view lists every lane each frame).
        if (m_blocks[b].born + TimeMs(m_blocks[b].firstEndAfterBorn) >= from && b + 1 < blocks) {
            for (size_t lane = b << kBlockBits; lane < last; ++lane)
                if (lastOf(lane) != kNoEvent)
                    out.push_back(MessageIndex(lane));
            continue;
        }
        for (size_t lane = b << kBlockBits; lane < last; ++lane) {
            if (lastOf(lane) == kNoEvent)
                continue;
            if (b + 1 == blocks && bornAt(MessageIndex(lane)) > to)
                break;
            if (isLive(stateOf(lane)) || (*m_log)[lastOf(lane)].time >= from)
                out.push_back(MessageIndex(lane));
        }
    }
}

size_t LaneIndex::firstStepAt(uint32_t actor, TimeMs time) const
{
    const auto& steps = *m_actorSteps[actor];
    size_t low = firstStepHeld(actor), high = steps.size();
    while (low < high) {
        const size_t mid = (low + high) / 2;
        if (TimeMs(steps[mid].time) < time)
            low = mid + 1;
        else
            high = mid;
    }
    return low;
}

bool LaneIndex::timedOutAt(uint32_t actor, TimeMs time) const
{
    const auto it = m_timedOut.find(actor);
    return it != m_timedOut.end() && std::binary_search(it->second.begin(), it->second.end(), time);
}

void LaneIndex::clear()
{
    *this = LaneIndex();
}

size_t LaneIndex::bytesUsed() const
{
    size_t bytes = m_first.capacity() * 4 + m_last.capacity() * 4 + m_state.capacity() + m_duplicates.size() * 32
        + m_isLaneEvent.capacity() * 8 + m_wordRank.capacity() * 4 + m_links.capacity() * 4
        + m_openPoll.capacity() * sizeof(TimeMs) + m_functionTimeout.capacity() * sizeof(TimeMs)
        + m_blocks.capacity() * sizeof(LaneBlock);
    for (const auto& [actor, ends] : m_timedOut)
        bytes += 48 + ends.capacity() * sizeof(TimeMs);
    for (const auto& steps : m_actorSteps)
        bytes += sizeof(*steps) + steps->capacity() * sizeof(ActorStep);
    for (const auto& heads : m_heads)
        bytes += sizeof(std::vector<MessageIndex>) + heads.capacity() * sizeof(MessageIndex);
    bytes += m_clearedInChunk.capacity() * 4 + m_firstStep.capacity() * sizeof(size_t);
    bytes += m_laneSurvivors.size() * (sizeof(LaneHead) + 48); // a map node's record, key and links
    return bytes;
}

} // namespace lifeline
