// How many of a Lambda trigger's pollers may take a batch: the mapping's scale-up, and its back-off from a function
// that throttles.
//
// Scale-up (docs/sqs-semantics.md, 1.11): a mapping that starts from idle has `starting` pollers polling (standard
// mode five, provisioned mode MinimumPollers x 10) and, from the first batch it receives, one more every `every` ms
// (standard mode 300 a minute, provisioned 1,000) up to all of them. AWS does not say when the rate is reached or how a
// mapping scales back down; Lifeline adds pollers at the full rate and keeps them (docs/decisions.md, "A Lambda trigger
// scales up").
//
// Back-off: AWS: "If the invocation fails due to throttling, Lambda gradually backs off retries by reducing the amount
// of concurrency allocated to your Amazon SQS event source mapping" (Lambda developer guide, SQS error handling). AWS
// gives no figures for it, so this is an approximation (docs/decisions.md, "A Lambda trigger backs off"): every
// throttled batch takes one poller out, never below the function's concurrency; none comes back while a batch still
// waits for a free function, and then one every `every` ms, up to all the scenario's.
#pragma once

#include "lifeline/run/event_log.h"

#include <cstdint>
#include <limits>
#include <optional>

namespace lifeline::sim {

class MappingScaler {
public:
    static constexpr TimeMs kWhileThrottled = std::numeric_limits<TimeMs>::max();

    MappingScaler(int64_t pollers, int64_t concurrency, int64_t starting, TimeMs every);

    // Pollers 0 .. allowed(now) - 1 may take a batch now.
    int64_t allowed(TimeMs now) const;
    // When poller `rank`, held back now, may take a batch again: a time, or kWhileThrottled (until no batch waits, or
    // the mapping's first batch, and then its turn); none when it may now.
    std::optional<TimeMs> backedOffUntil(int64_t rank, TimeMs now) const;
    // Poller `rank` has never been allowed yet: the mapping has not scaled up to it (not backed off from it).
    bool notScaledUpTo(int64_t rank, TimeMs now) const;
    // The mapping received its first batch: true the first time, when the held pollers' turns begin.
    bool received(TimeMs now);
    // A batch found every concurrency slot taken: one poller fewer, and none back while it waits.
    void throttled(TimeMs now);
    // No batch waits for a slot any more: pollers come back from now.
    void noneWaiting(TimeMs now);

private:
    int64_t m_pollers;
    int64_t m_floor; // the function's concurrency: with that many pollers, none throttles
    TimeMs m_every; // one more poller each
    int64_t m_allowed; // at the last change
    int64_t m_reached; // the most ever allowed before the last change
    bool m_active; // the mapping has received a batch (a mapping starting scaled up is active from the start)
    bool m_throttling = false; // a batch waits for a slot
    TimeMs m_throttledAt = -1;
    TimeMs m_regrowingSince = -1; // none yet: allowed stays where it is
};

} // namespace lifeline::sim
