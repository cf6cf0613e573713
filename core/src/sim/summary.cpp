#include "lifeline/sim/summary.h"

#include "lifeline/depth_series.h"
#include "lifeline/event_text.h"
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

RunSummary summarizeLog(const Engine& engine, const std::vector<std::string>& actorNames)
{
    RunSummary s;
    s.until = engine.now();
    // Peak depth by state: the depth series keeps each bucket's peak, so its largest bucket is the run's peak.
    DepthSeries depth(2, std::max<TimeMs>(1, engine.now() + 1));
    depth.sync(engine);
    for (const DepthSample& b : depth.buckets()) {
        s.peak.visible = std::max<int64_t>(s.peak.visible, b.visible);
        s.peak.inFlight = std::max<int64_t>(s.peak.inFlight, b.inFlight);
        s.peak.delayed = std::max<int64_t>(s.peak.delayed, b.delayed);
        s.peak.deadLetterQueues = std::max<int64_t>(s.peak.deadLetterQueues, b.deadLetter);
    }
    // Consumers, as far as the log tells: every actor that received a message, in the order they first did.
    std::map<uint32_t, size_t> consumerOf;
    const auto consumer = [&](uint32_t actor) -> ConsumerSummary& {
        auto [it, added] = consumerOf.emplace(actor, s.consumers.size());
        if (added)
            s.consumers.push_back(ConsumerSummary { actorName(actorNames, actor), 0, 0, 0, 0 });
        return s.consumers[it->second];
    };
    const EventLog& log = engine.log();
    for (size_t i = 0; i < log.size(); ++i) {
        const Event& e = log[i];
        switch (e.cause) {
        case Cause::Send:
            ++s.sent;
            break;
        case Cause::Receive:
            ++s.received;
            if (e.actor >= kFirstActor)
                ++consumer(e.actor).received;
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
            s.emptyReceives += e.messagesReturned() == 0;
            break;
        case Cause::ProcessingStarted:
            s.duplicates += e.duplicate();
            break;
        case Cause::ProcessingFinished:
            if (consumerOf.count(e.actor))
                ++consumer(e.actor).finished;
            break;
        case Cause::ProcessingFailed:
            if (consumerOf.count(e.actor))
                ++consumer(e.actor).failed;
            break;
        case Cause::ConsumerCrashed:
            if (consumerOf.count(e.actor))
                consumer(e.actor).heldAtCrash += e.heldMessages();
            break;
        case Cause::Warning:
            s.warnings.push_back(log.text(e.textIndex()));
            break;
        case Cause::RequestRefused: {
            const std::string& text = log.text(e.textIndex());
            ++s.errorsByCode[text.substr(0, text.find(':'))];
            break;
        }
        default:
            break;
        }
    }
    return s;
}

RunSummary Simulation::summary() const
{
    RunSummary s = summarizeLog(m_engine, actorNames());
    // The simulation knows its consumers, also those that never received anything, and its warnings.
    s.consumers.clear();
    for (const auto& c : m_consumers)
        s.consumers.push_back(c->stats);
    s.warnings = m_warnings;
    return s;
}

} // namespace lifeline::sim
