#include "lifeline/sim/summary.h"

#include "lifeline/depth_series.h"
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
    // Peak depth by state: the depth series keeps each bucket's peak, so its largest bucket is the run's peak.
    DepthSeries depth(2, std::max<TimeMs>(1, m_engine.now() + 1));
    depth.sync(m_engine);
    for (const DepthSample& b : depth.buckets()) {
        s.peak.visible = std::max<int64_t>(s.peak.visible, b.visible);
        s.peak.inFlight = std::max<int64_t>(s.peak.inFlight, b.inFlight);
        s.peak.delayed = std::max<int64_t>(s.peak.delayed, b.delayed);
        s.peak.deadLetterQueues = std::max<int64_t>(s.peak.deadLetterQueues, b.deadLetter);
    }
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
    }
    for (const auto& c : m_consumers)
        s.consumers.push_back(c->stats);
    s.warnings = m_warnings;
    return s;
}

} // namespace lifeline::sim
