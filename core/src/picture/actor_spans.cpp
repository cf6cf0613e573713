#include "lifeline/picture/actor_spans.h"

#include "lifeline/run/lane_name.h"

namespace lifeline::picture {

std::string workText(const RunView& run, const WorkBar& bar, Translate tr)
{
    const SegmentPhrase count { Phrase::None, bar.messages > 1 ? bar.messages : bar.failed };
    std::string label = bar.messages > 1 ? fillPhrase(tr("batch of %n").c_str(), count) : laneName(run, bar.firstLane);
    if (bar.timedOut)
        label += tr(" · timed out");
    else if (bar.failed > 0 && bar.messages > 1)
        label += bar.failed == bar.messages ? tr(" · failed")
                                            : fillPhrase(tr(" · %n failed").c_str(), { Phrase::None, bar.failed });
    return label;
}

} // namespace lifeline::picture
