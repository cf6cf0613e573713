#include "lifeline/sim/operator_journal.h"

#include "lifeline/sim/simulation.h"

namespace lifeline::sim {

void OperatorJournal::replayUpTo(Simulation& run, TimeMs time, size_t& next) const
{
    for (; next < m_calls.size() && m_calls[next].at <= time; ++next) {
        const Entry& call = m_calls[next];
        if (run.now() < call.at || run.engine().log().size() < call.eventsBefore)
            run.advanceTo(call.at);
        call.call(run);
    }
    run.advanceTo(time);
}

} // namespace lifeline::sim
