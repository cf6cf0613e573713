// RunView's reads and RunStore's writes (run_store.h says what the store keeps in agreement).
//
// A bounded history releases lane records a chunk at a time. Lane indices are what receipts, timers and the engine's
// lazy lists name, so they must never move or be reused: a chunk of 4,096 lanes is released once every lane in it has
// ended and its hold time has passed, and a reader asks forgotten() before it reads one.
#include "lifeline/run/run_store.h"

#include "lifeline/run/lane_name.h"
#include "lifeline/support/splitmix.h"

#include <algorithm>

namespace lifeline {

std::string formatMessageId(MessageIdParts id)
{
    // Hand-written because it is on every send and receive of the endpoint.
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text(36, '-');
    int at = 35;
    uint64_t lo = id.lo, hi = id.hi;
    for (int i = 0; i < 16; ++i, --at, lo >>= 4) {
        if (at == 23)
            --at;
        text[size_t(at)] = kDigits[lo & 15];
    }
    for (int i = 0; i < 16; ++i, --at, hi >>= 4) {
        if (at == 18 || at == 13 || at == 8)
            --at;
        text[size_t(at)] = kDigits[hi & 15];
    }
    return text;
}

const MessageRecord RunView::kForgottenMessage {};

RunView::RunView(uint64_t idSeed, TimeMs historyMs)
    : m_historyMs(historyMs)
    // Not the engine's first draw from the seed (a move task's id would show it): the seed with the bytes of
    // "lane ids" mixed in.
    , m_idKey([seed = uint64_t(idSeed ^ 0x6c616e6520696473ULL)]() mutable { return splitMix64(seed); }())
{
}

MessageIdParts RunView::laneUuid(MessageIndex lane) const
{
    // splitMix64's mix is a bijection: distinct lanes give distinct first halves.
    uint64_t state = m_idKey + uint64_t(lane) * 2 * kSplitMixGamma;
    const uint64_t hi = splitMix64(state);
    return asUuid(hi, splitMix64(state) ^ m_idKey);
}

MessageIdParts RunView::messageIdParts(MessageIndex lane) const
{
    const MessageRecord& record = message(lane);
    switch (record.idSource) {
    case IdSource::Lane:
        break;
    case IdSource::Origin:
        if (const MessageExtra* x = extra(lane); x && x->origin != kNoMessage)
            return laneUuid(x->origin);
        break;
    case IdSource::Kept:
        if (lane < m_keptIds.size())
            return m_keptIds[lane];
        break;
    }
    return laneUuid(lane);
}

const MessageExtra* RunView::extra(MessageIndex lane) const
{
    if (lane >= m_lanes.size() || forgotten(lane))
        return nullptr;
    const auto index = message(lane).extra;
    return index == UINT32_MAX ? nullptr : &m_extras[index];
}

MessageIndex RunView::firstLaneOf(MessageIndex lane) const
{
    for (const MessageExtra* e = extra(lane);
         e && (!e->deadLetterQueueSourceArn.empty() || e->copy) && e->origin != kNoMessage; e = extra(lane))
        lane = e->origin;
    return lane;
}

std::optional<QueueIndex> RunView::queueIndex(const std::string& name) const
{
    for (size_t i = 0; i < m_queues.size(); ++i)
        if (m_queues[i].alive && m_queues[i].name == name)
            return QueueIndex(i);
    return std::nullopt;
}

size_t RunView::bytesUsed() const
{
    size_t bytes = m_log.bytesUsed();
    bytes += m_lanes.capacity() * sizeof(MessageRecord) + m_bodyHeapBytes;
    // A survivor's node (its record, key, next pointer and hash) and the table's buckets.
    bytes += m_survivors.size() * (sizeof(MessageRecord) + 32) + m_survivors.bucket_count() * sizeof(void*)
        + m_survivorsEnded.size() * 16;
    bytes += m_extras.capacity() * sizeof(MessageExtra) + m_laneChunks.capacity() * sizeof(LaneChunk);
    bytes += m_queues.size() * sizeof(QueueInfo);
    return bytes;
}

std::string RunView::actorName(uint32_t actor) const
{
    return actor < m_actors.size() ? m_actors[actor].name : "client " + std::to_string(actor);
}

std::string RunView::actorGroup(uint32_t actor) const
{
    return actor < m_actors.size() ? m_actors[actor].group : actorName(actor);
}

RunStore::RunStore(uint64_t idSeed, TimeMs historyMs)
    : RunView(idSeed, historyMs)
{
}

uint32_t RunStore::addActor(std::string name, std::string group)
{
    if (group.empty())
        group = name;
    m_actors.push_back(Actor { std::move(name), std::move(group) });
    return uint32_t(m_actors.size() - 1);
}

QueueIndex RunStore::addQueue(QueueInfo queue)
{
    queue.fifo = queue.attributes.fifo;
    m_queues.push_back(std::move(queue));
    return QueueIndex(m_queues.size() - 1);
}

void RunStore::setQueueAttributes(QueueIndex queue, QueueAttributes attributes)
{
    m_queues[queue].attributes = std::move(attributes);
    m_queues[queue].modifiedAt = m_now;
}

void RunStore::setQueueArn(QueueIndex queue, std::string arn)
{
    m_queues[queue].arn = std::move(arn);
}

void RunStore::enterCounters(QueueCounters& counters, MessageState state)
{
    if (state == MessageState::Visible)
        ++counters.visible;
    else if (state == MessageState::InFlight)
        ++counters.inFlight;
    else if (state == MessageState::Delayed)
        ++counters.delayed;
}

void RunStore::leaveCounters(QueueCounters& counters, MessageState state)
{
    if (state == MessageState::Visible)
        --counters.visible;
    else if (state == MessageState::InFlight)
        --counters.inFlight;
    else if (state == MessageState::Delayed)
        --counters.delayed;
}

MessageIndex RunStore::newLane(
    QueueIndex queue, MessageState to, Cause cause, uint32_t actor, uint32_t detail, TimeMs holdUntil)
{
    const auto lane = MessageIndex(m_lanes.size());
    MessageRecord& record = m_lanes.emplace_back();
    record.queue = queue;
    record.state = to;
    if (m_historyMs >= 0) {
        const size_t chunk = lane >> kLaneChunkBits;
        if (chunk >= m_laneChunks.size())
            m_laneChunks.resize(chunk + 1);
        ++m_laneChunks[chunk].live;
        m_laneChunks[chunk].holdUntil = std::max(m_laneChunks[chunk].holdUntil, holdUntil);
    }
    enterCounters(m_queues[queue].counters, to);
    m_log.append(Event { m_now, lane, actor, detail, queue, MessageState::None, to, cause });
    return lane;
}

void RunStore::transition(MessageIndex lane, MessageState to, Cause cause, uint32_t actor, uint32_t detail)
{
    MessageRecord& record = recordOf(lane);
    const MessageState from = record.state;
    QueueCounters& counters = m_queues[record.queue].counters;
    leaveCounters(counters, from);
    enterCounters(counters, to);
    record.state = to;
    if (m_historyMs >= 0 && isLive(from) && !isLive(to)) {
        LaneChunk& chunk = m_laneChunks[lane >> kLaneChunkBits];
        --chunk.live;
        chunk.holdUntil = std::max(chunk.holdUntil, m_now + m_historyMs);
        if (m_lanes.released(lane))
            m_survivorsEnded.emplace_back(m_now + m_historyMs, lane);
    }
    m_log.append(Event { m_now, lane, actor, detail, record.queue, from, to, cause });
}

void RunStore::setBody(MessageIndex lane, std::string_view body)
{
    CompactText& held = recordOf(lane).body;
    m_bodyHeapBytes -= bodyHeapCost(held);
    held.assign(body);
    m_bodyHeapBytes += bodyHeapCost(held);
}

void RunStore::clearBody(MessageIndex lane, bool keepName)
{
    if (keepName)
        if (std::string name = bodyLaneName(recordOf(lane).body.view()); !name.empty())
            extraFor(lane).bodyName = std::move(name);
    CompactText& held = recordOf(lane).body;
    m_bodyHeapBytes -= bodyHeapCost(held);
    held.clear();
}

void RunStore::keepMessageId(MessageIndex lane, MessageIdParts id)
{
    if (m_keptIds.size() <= lane)
        m_keptIds.resize(size_t(lane) + 1);
    m_keptIds[lane] = id;
    recordOf(lane).idSource = IdSource::Kept;
}

MessageExtra& RunStore::extraFor(MessageIndex lane)
{
    MessageRecord& record = recordOf(lane);
    if (record.extra == UINT32_MAX)
        setExtra(lane, MessageExtra {});
    return m_extras[record.extra];
}

void RunStore::setExtra(MessageIndex lane, MessageExtra extra)
{
    uint32_t& slot = recordOf(lane).extra;
    if (slot != UINT32_MAX) {
        m_extras[slot] = std::move(extra);
        return;
    }
    // A slot a forgotten lane's extras left is used again.
    if (m_freeExtras.empty()) {
        m_extras.push_back(std::move(extra));
        slot = uint32_t(m_extras.size() - 1);
        return;
    }
    slot = m_freeExtras.back();
    m_freeExtras.pop_back();
    m_extras[slot] = std::move(extra);
}

void RunStore::addRecordedLane(MessageRecord record, const LaneTimes& times, MessageIdParts id)
{
    const auto lane = MessageIndex(m_lanes.size());
    m_lanes.push_back(std::move(record));
    m_bodyHeapBytes += bodyHeapCost(m_lanes[lane].body);
    setTimes(lane, times);
    keepMessageId(lane, id);
}

void RunStore::forgetBefore(TimeMs time)
{
    m_log.releaseBefore(time);
    constexpr size_t kChunk = size_t(1) << kLaneChunkBits;
    for (size_t chunk = m_firstHeldChunk; chunk < m_laneChunks.size(); ++chunk) {
        const LaneChunk& info = m_laneChunks[chunk];
        if (m_lanes.chunkReleased(chunk) || info.live > kChunk / 8 || info.holdUntil > m_now
            || (chunk + 1) * kChunk > m_lanes.size())
            continue;
        releaseLaneChunk(chunk);
    }
    while (m_firstHeldChunk < m_laneChunks.size() && m_lanes.chunkReleased(m_firstHeldChunk))
        ++m_firstHeldChunk;
    // Survivors that ended: forgotten once their hold passes, as their chunk would have been.
    while (!m_survivorsEnded.empty() && m_survivorsEnded.front().first <= m_now) {
        const MessageIndex lane = m_survivorsEnded.front().second;
        m_survivorsEnded.pop_front();
        const auto survivor = m_survivors.find(lane);
        if (survivor == m_survivors.end())
            continue;
        m_bodyHeapBytes -= bodyHeapCost(survivor->second.body);
        if (const uint32_t slot = survivor->second.extra; slot != UINT32_MAX) {
            m_extras[slot] = MessageExtra {};
            m_freeExtras.push_back(slot);
        }
        if (survivor->second.packedTimes.wide())
            m_wideTimes.erase(lane);
        m_survivors.erase(survivor);
    }
}

void RunStore::releaseLaneChunk(size_t chunk)
{
    constexpr size_t kChunk = size_t(1) << kLaneChunkBits;
    for (size_t lane = chunk * kChunk; lane < (chunk + 1) * kChunk; ++lane) {
        MessageRecord& record = m_lanes[lane];
        if (isLive(record.state)) { // it goes on beside the chunk, with its body, extras and times
            m_survivors.emplace(MessageIndex(lane), std::move(record));
            continue;
        }
        m_bodyHeapBytes -= bodyHeapCost(record.body);
        if (const uint32_t slot = record.extra; slot != UINT32_MAX) {
            m_extras[slot] = MessageExtra {};
            m_freeExtras.push_back(slot);
        }
        if (record.packedTimes.wide())
            m_wideTimes.erase(MessageIndex(lane));
    }
    m_lanes.releaseChunk(chunk);
}

} // namespace lifeline
