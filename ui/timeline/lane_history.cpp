#include "timeline/lane_history.h"

#include "lifeline/run/event_text.h"

namespace lifeline::ui {

std::vector<HistoryEntry> laneHistory(const RunView& run, const LaneIndex& index, MessageIndex lane)
{
    std::vector<HistoryEntry> out;
    if (lane >= index.laneCount())
        return out;
    // From the message's first lane through its DLQ continuations, in time order.
    std::vector<MessageIndex> lanes;
    for (MessageIndex l = lane; l != kNoMessage;) {
        lanes.insert(lanes.begin(), l);
        const MessageIndex root = run.firstLaneOf(l);
        if (root == l)
            break;
        l = run.extra(l)->origin;
    }
    for (const MessageIndex l : lanes) {
        for (uint32_t ev = index.lane(l).first; ev != kNoEvent; ev = index.nextOfLane(ev)) {
            const Event& e = run.log()[ev];
            HistoryEntry entry { e.time, e.queue, e.from, e.to, e.cause, e.actor, {} };
            entry.text = QString::fromStdString(eventSentence(run, e, run.actorName(e.actor)));
            out.push_back(std::move(entry));
        }
    }
    return out;
}

std::vector<TimeMs> laneEventTimes(const RunView& run, const LaneIndex& index, MessageIndex lane)
{
    std::vector<TimeMs> out;
    if (lane >= index.laneCount())
        return out;
    for (uint32_t ev = index.lane(lane).first; ev != kNoEvent; ev = index.nextOfLane(ev))
        if (out.empty() || out.back() != run.log()[ev].time)
            out.push_back(run.log()[ev].time);
    return out;
}

} // namespace lifeline::ui
