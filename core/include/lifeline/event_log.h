// The engine's one seam to the outside: an append-only log of every state change and every refused request.
// A viewer draws every lane from this log alone, reading only what is new (events are never rewritten).
#pragma once

#include "lifeline/chunked_vector.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace lifeline {

using TimeMs = int64_t; // virtual milliseconds since the run started
using MessageIndex = uint32_t; // a lane: index into Engine::message(); never reused
using QueueIndex = uint16_t; // index into Engine::queueInfo(); never reused, even after DeleteQueue

inline constexpr MessageIndex kNoMessage = UINT32_MAX;
inline constexpr QueueIndex kNoQueue = UINT16_MAX;
inline constexpr uint32_t kNoActor = 0; // actor 0 is "nobody / the operator"

enum class MessageState : uint8_t {
    None, // before the send
    Delayed, // waiting out the queue's DelaySeconds or its own timer
    Visible, // available to ReceiveMessage
    InFlight, // received, visibility timeout running
    Deleted, // terminal: DeleteMessage
    DeadLettered, // terminal in the source queue: moved to the DLQ (the DLQ holds a new lane, same MessageId)
    Expired, // terminal: retention period passed
    Purged, // terminal: PurgeQueue
    Redriven, // terminal in the DLQ: moved back by a message move task (a new message in the destination)
    Count
};

enum class Cause : uint8_t {
    Send, // None -> Delayed|Visible
    DelayEnded, // Delayed -> Visible
    Receive, // Visible -> InFlight; detail = receive number (ApproximateReceiveCount)
    VisibilityTimeout, // InFlight -> Visible
    VisibilityChanged, // InFlight -> InFlight (extended) or -> Visible (0); detail = new seconds
    Delete, // -> Deleted
    MoveToDlq, // Visible -> DeadLettered in the source; detail = DLQ queue index
    ArriveFromDlqSource, // None -> Visible in the DLQ; detail = source lane (MessageIndex)
    Expiry, // -> Expired
    Purge, // -> Purged
    Redrive, // Visible -> Redriven in the DLQ; detail = new lane in the destination
    ArriveFromRedrive, // None -> Visible|Delayed in the destination; detail = DLQ lane
    DelayChanged, // Delayed -> Delayed|Visible: a FIFO queue's DelaySeconds changed (retroactive)
    RequestRefused, // no state change; detail = index into Engine::errorText(); message may be kNoMessage
    QueueCreated, // queue events carry kNoMessage
    QueueDeleted,
    AttributesChanged, // detail = index into Engine::errorText() holding "Name=value" text
    PollStarted, // a long poll began waiting; actor = the caller; detail = poll id
    PollEnded, // a receive returned; detail = number of messages (0 = empty receive)
    // Actor events (the simulation's decisions; no state change). actor = who; message = the lane if any.
    ProcessingStarted, // detail = 1 when it is duplicate processing
    ProcessingFinished,
    ProcessingFailed, // detail: 0 failed, 1 poison, 2 function timeout
    ConsumerCrashed, // detail = messages it held
    ConsumerRestarted,
    Warning, // detail = index into EventLog::text()
    OperatorAction, // detail = index into EventLog::text()
    Count
};

// Delayed, visible or in flight: the message is still in its queue.
inline bool isLive(MessageState state)
{
    return state == MessageState::Delayed || state == MessageState::Visible || state == MessageState::InFlight;
}

const char* toString(MessageState state);
const char* toString(Cause cause);

// 32 bytes; a lane's history is the subsequence with its MessageIndex.
// A plain aggregate (no default member values): the log's storage is allocated without being written first.
struct Event {
    TimeMs time;
    MessageIndex message; // kNoMessage for queue and actor events
    uint32_t actor; // consumer / client that caused it (kNoActor: nobody)
    uint32_t detail; // cause-specific (see Cause)
    QueueIndex queue;
    MessageState from;
    MessageState to;
    Cause cause;
};
static_assert(sizeof(Event) == 32 && std::is_trivial_v<Event>);

// Stored in fixed chunks (ChunkedVector): appending never moves what was written, so a reader's references stay
// valid while the engine appends.
class EventLog {
public:
    void append(const Event& event) { m_events.push_back(event); }
    size_t size() const { return m_events.size(); }
    const Event& operator[](size_t i) const { return m_events[i]; }
    // Texts referenced by RequestRefused / AttributesChanged events.
    uint32_t addText(std::string text)
    {
        m_texts.push_back(std::move(text));
        return uint32_t(m_texts.size() - 1);
    }
    const std::string& text(uint32_t index) const { return m_texts[index]; }
    size_t textCount() const { return m_texts.size(); }
    size_t bytesUsed() const;

private:
    ChunkedVector<Event> m_events;
    std::vector<std::string> m_texts;
};

} // namespace lifeline
