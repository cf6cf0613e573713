#include "lifeline/export/run_export.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace lifeline {

void writeLanesJson(const RunView& run, std::ostream& out, std::string_view onlyQueue)
{
    using nlohmann::json;
    const EventLog& log = run.log();
    // One pass over the log held: each lane's segments and receives, in time order.
    std::vector<json> lanes(run.messageCount());
    for (size_t i = log.firstRetained(); i < log.size(); ++i) {
        const Event e = log[i];
        if (e.message == kNoMessage || e.message >= lanes.size() || e.cause == Cause::RequestRefused || e.from == e.to)
            continue;
        json& lane = lanes[e.message];
        if (lane.is_null())
            lane = json { { "segments", json::array() }, { "receives", json::array() } };
        json& segments = lane["segments"];
        if (!segments.empty() && segments.back()["to_ms"].is_null())
            segments.back()["to_ms"] = e.time;
        if (isLive(e.to))
            segments.push_back({ { "state", toString(e.to) }, { "from_ms", e.time }, { "to_ms", nullptr } });
        if (e.cause == Cause::Receive)
            lane["receives"].push_back(
                { { "at_ms", e.time }, { "receive", e.receiveNumber() }, { "client", run.actorName(e.actor) } });
    }
    json queues = json::array();
    for (size_t q = 0; q < run.queueCount(); ++q) {
        if (!onlyQueue.empty() && run.queueInfo(QueueIndex(q)).name != onlyQueue)
            continue;
        json entries = json::array();
        for (size_t l = 0; l < lanes.size(); ++l) {
            const auto lane = MessageIndex(l);
            if (lanes[l].is_null() || run.forgotten(lane) || run.message(lane).queue != q)
                continue;
            json entry { { "message_id", run.messageId(lane) }, { "body", std::string(run.message(lane).body.view()) },
                { "state", toString(run.message(lane).state) } };
            entry["segments"] = std::move(lanes[l]["segments"]);
            entry["receives"] = std::move(lanes[l]["receives"]);
            entries.push_back(std::move(entry));
        }
        queues.push_back({ { "name", run.queueInfo(QueueIndex(q)).name }, { "lanes", std::move(entries) } });
    }
    const TimeMs forgottenUntil = log.firstRetained() == 0 ? 0
        : log.firstRetained() < log.size()                 ? log[log.firstRetained()].time
                                                           : run.now();
    out << json {
        { "now_ms", run.now() }, { "forgotten_until_ms", forgottenUntil }, { "queues", std::move(queues) }
    }.dump();
}

} // namespace lifeline
