#include "lifeline/timeline/noisy_spans.h"

#include <algorithm>

namespace lifeline {

std::vector<NoisySpan> noisySpans(const RunView& run, const LaneIndex& index, QueueIndex queue, TimeMs now)
{
    std::vector<NoisySpan> spans;
    std::vector<size_t> open; // indexes into spans of the tenants noisy so far
    const EventLog& log = run.log();
    const TimeMs heldFrom = log.firstRetained() < log.size() ? log[log.firstRetained()].time : 0;
    for (const uint32_t ev : index.tenantMarks(queue)) {
        const Event& e = log[ev];
        const std::string& tenant = log.text(e.textIndex());
        const auto it = std::find_if(open.begin(), open.end(), [&](size_t s) { return spans[s].tenant == tenant; });
        if (e.cause == Cause::TenantNoisy && it == open.end()) {
            int slot = 0; // the lowest slot no open span takes
            while (std::any_of(open.begin(), open.end(), [&](size_t s) { return spans[s].slot == slot; }))
                ++slot;
            spans.push_back(NoisySpan { tenant, e.time, now, true, slot });
            open.push_back(spans.size() - 1);
        } else if (e.cause == Cause::TenantQuiet && it != open.end()) {
            spans[*it].to = e.time;
            spans[*it].open = false;
            open.erase(it);
        } else if (e.cause == Cause::TenantQuiet) { // its turning noisy was forgotten
            spans.insert(spans.begin(), NoisySpan { tenant, heldFrom, e.time, false, 0 });
            for (size_t& s : open)
                ++s;
        }
    }
    return spans;
}

} // namespace lifeline
