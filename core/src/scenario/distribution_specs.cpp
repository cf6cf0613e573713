// Processing times as people measure them: a log-normal fitted to a p50 and a p99 (a long tail, as real work has),
// or the measured times themselves. `lifeline check` writes them; a scenario may too.
#include "lifeline/support/duration.h"
#include "scenario_reading.h"

#include <cmath>

namespace lifeline::scenario::reading {

namespace {

using nlohmann::json;

std::optional<TimeMs> measured(const json& v, const std::string& path)
{
    const std::optional<TimeMs> parsed = durationFromJson(v);
    if (!parsed)
        report(path, "must be a duration such as 90s, 15m, 2h, 500ms or a number of seconds, at most a year");
    return parsed;
}

} // namespace

Distribution measuredDistribution(const json& v, const std::string& path)
{
    Distribution d;
    if (v.contains("lognormal")) {
        const std::string p = path + ".lognormal";
        const json& fit = v["lognormal"];
        if (!fit.is_object() || fit.size() != 2 || !fit.contains("p50") || !fit.contains("p99")) {
            report(p, "must be {\"p50\": D, \"p99\": D}");
            return d;
        }
        const auto p50 = measured(fit["p50"], p + ".p50");
        const auto p99 = measured(fit["p99"], p + ".p99");
        if (!p50 || !p99)
            return d;
        if (*p50 < 1)
            report(p + ".p50", "must be at least 1ms");
        else if (*p99 < *p50)
            report(p + ".p99", "must not be below p50 (" + formatDuration(*p50) + ")");
        d.kind = Distribution::Kind::LogNormal;
        d.a = std::max<TimeMs>(1, *p50);
        d.b = std::max(d.a, *p99);
        return d;
    }
    const std::string p = path + ".samples";
    const json& list = v["samples"];
    if (!list.is_array() || list.empty() || list.size() > 100000) {
        report(p, "must be a list of 1 to 100,000 durations");
        return d;
    }
    d.kind = Distribution::Kind::Samples;
    for (size_t i = 0; i < list.size(); ++i)
        if (const auto t = measured(list[i], at(p, i)))
            d.samples.push_back(*t);
    if (d.samples.empty())
        d.samples.push_back(0);
    return d;
}

} // namespace lifeline::scenario::reading
