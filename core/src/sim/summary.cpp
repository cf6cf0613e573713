// A simulation's summary: the log's figures, with what only the simulation knows (every consumer, its warnings, the
// lesson's key moments).
#include "lifeline/analysis/summary.h"

#include "lifeline/analysis/moments.h"
#include "lifeline/sim/simulation.h"
#include "simulation_internal.h"

namespace lifeline::sim {

analysis::RunSummary Simulation::summary() const
{
    analysis::RunSummary s = analysis::summarizeLog(m_engine.run());
    // The simulation knows its consumers, also those that never received anything, and its warnings.
    s.consumers.clear();
    for (const auto& c : m_consumers)
        s.consumers.push_back(c->stats);
    s.warnings = m_warnings;
    s.requests = m_requests.requests();
    s.billedRequests = m_requests.billed();
    if (m_scenario.lesson)
        for (const analysis::Moment& m : findMoments(m_engine.run(), m_scenario.lesson->moments))
            s.moments.push_back({ m.at, momentLaneLabel(m_engine.run(), m), m.caption });
    return s;
}

} // namespace lifeline::sim
