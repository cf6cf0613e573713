// How many of a Lambda trigger's pollers may take a batch: the back-off of an SQS event source mapping whose function
// throttles. AWS: "If the invocation fails due to throttling, Lambda gradually backs off retries by reducing the amount
// of concurrency allocated to your Amazon SQS event source mapping" (Lambda developer guide, SQS error handling); its
// standard mode adds "up to 300 more concurrent invokes per minute" while messages remain (services-sqs-scaling).
// AWS gives no figures for the back-off itself, so this is an approximation (docs/decisions.md, "A Lambda trigger
// backs off"): every throttled batch takes one poller out, never below the function's concurrency; none comes back
// while a batch still waits for a free function, and then one every 200 ms (300 a minute), up to all the scenario's.
#pragma once

#include "lifeline/run/event_log.h"

#include <cstdint>
#include <limits>
#include <optional>

namespace lifeline::sim {

class MappingScaler {
public:
    static constexpr TimeMs kRegrowEvery = 200; // 300 more a minute
    static constexpr TimeMs kWhileThrottled = std::numeric_limits<TimeMs>::max();

    MappingScaler(int64_t pollers, int64_t concurrency);

    // Pollers 0 .. allowed(now) - 1 may take a batch now.
    int64_t allowed(TimeMs now) const;
    // When poller `rank`, backed off now, may take a batch again: a time, or kWhileThrottled (until no batch waits
    // and then its turn); none when it may now.
    std::optional<TimeMs> backedOffUntil(int64_t rank, TimeMs now) const;
    // A batch found every concurrency slot taken: one poller fewer, and none back while it waits.
    void throttled(TimeMs now);
    // No batch waits for a slot any more: pollers come back from now.
    void noneWaiting(TimeMs now);

private:
    int64_t m_pollers;
    int64_t m_floor; // the function's concurrency: with that many pollers, none throttles
    int64_t m_allowed; // at the last throttle
    bool m_throttling = false; // a batch waits for a slot
    TimeMs m_throttledAt = -1;
    TimeMs m_regrowingSince = -1; // none yet: every poller polls
};

} // namespace lifeline::sim
