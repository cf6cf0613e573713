#include "lifeline/sim/summary.h"

#include "lifeline/sim/simulation.h"
#include "simulation_internal.h"

namespace lifeline::sim {

nlohmann::json RunSummary::toJson() const
{
    nlohmann::json consumersJson = nlohmann::json::array();
    for (const auto& c : consumers)
        consumersJson.push_back({ { "name", c.name }, { "received", c.received }, { "finished", c.finished },
            { "failed", c.failed }, { "heldAtCrash", c.heldAtCrash } });
    return nlohmann::json {
        { "until", double(until) / 1000.0 },
        { "sent", sent },
        { "received", received },
        { "deleted", deleted },
        { "duplicates", duplicates },
        { "deadLettered", deadLettered },
        { "expired", expired },
        { "emptyReceives", emptyReceives },
        { "errorsByCode", errorsByCode },
        { "peakDepth",
            { { "visible", peak.visible }, { "inFlight", peak.inFlight }, { "delayed", peak.delayed },
                { "deadLetterQueues", peak.deadLetterQueues } } },
        { "consumers", consumersJson },
        { "warnings", warnings },
    };
}

RunSummary Simulation::summary() const
{
    RunSummary s;
    s.until = m_engine.now();
    std::vector<bool> isDeadLetterQueue(m_engine.queueCount(), false);
    for (const auto& q : m_scenario.queues)
        if (q.deadLetterQueue)
            if (auto index = m_engine.queueIndex(*q.deadLetterQueue))
                isDeadLetterQueue[*index] = true;
    // Depth by state over time, replayed from the log: the peak of each.
    int64_t visible = 0, inFlight = 0, delayed = 0, inDeadLetterQueues = 0;
    const auto shift = [&](QueueIndex queue, MessageState state, int delta) {
        if (queue < isDeadLetterQueue.size() && isDeadLetterQueue[queue]) {
            if (isLive(state))
                inDeadLetterQueues += delta;
            return;
        }
        if (state == MessageState::Visible)
            visible += delta;
        else if (state == MessageState::InFlight)
            inFlight += delta;
        else if (state == MessageState::Delayed)
            delayed += delta;
    };
    const EventLog& log = m_engine.log();
    for (size_t i = 0; i < log.size(); ++i) {
        const Event& e = log[i];
        switch (e.cause) {
        case Cause::Send:
            ++s.sent;
            break;
        case Cause::Receive:
            ++s.received;
            break;
        case Cause::Delete:
            ++s.deleted;
            break;
        case Cause::MoveToDlq:
            ++s.deadLettered;
            break;
        case Cause::Expiry:
            ++s.expired;
            break;
        case Cause::PollEnded:
            s.emptyReceives += e.detail == 0;
            break;
        case Cause::ProcessingStarted:
            s.duplicates += e.detail == 1;
            break;
        case Cause::RequestRefused: {
            const std::string& text = log.text(e.detail);
            ++s.errorsByCode[text.substr(0, text.find(':'))];
            break;
        }
        default:
            break;
        }
        if (e.message != kNoMessage && e.from != e.to) {
            shift(e.queue, e.from, -1);
            shift(e.queue, e.to, +1);
            s.peak.visible = std::max(s.peak.visible, visible);
            s.peak.inFlight = std::max(s.peak.inFlight, inFlight);
            s.peak.delayed = std::max(s.peak.delayed, delayed);
            s.peak.deadLetterQueues = std::max(s.peak.deadLetterQueues, inDeadLetterQueues);
        }
    }
    for (const auto& c : m_consumers)
        s.consumers.push_back(c->stats);
    s.warnings = m_warnings;
    return s;
}

} // namespace lifeline::sim
