// Faults SQS really has, injected on purpose (docs/faults.md): a standard queue's second copy of a message
// (at-least-once delivery), a short poll that samples a subset of SQS's servers and returns fewer messages than are
// visible, and calls refused with SQS's own errors (throttling, 500 and 503, OverLimit, KMS on an encrypted queue).
// Off unless a plan is given; the same plan, seed and calls give the same faults, call for call.
#pragma once

#include "lifeline/run/event_log.h"
#include "lifeline/run/fault_kind.h"
#include "lifeline/support/result.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lifeline {

struct FaultRule {
    FaultKind kind = FaultKind::Duplicate;
    double rate = 0; // the chance each matching call has
    std::vector<TimeMs> at = {}; // or: the first matching call at or after each of these times
    // Only calls from `from` and before `until` (a burst of throttling: rate 1 for two seconds).
    std::optional<TimeMs> from = std::nullopt;
    std::optional<TimeMs> until = std::nullopt;
    std::string queue = {}; // only this queue's calls (empty: every queue)
    std::string action = {}; // only this action (empty: ReceiveMessage for the two receive faults, any call otherwise)
    std::optional<uint32_t> limit = std::nullopt; // at most this many
    TimeMs delay = 1000; // a latency fault's: how much later the answer comes
};

struct FaultPlan {
    uint64_t seed = 1;
    std::vector<FaultRule> rules = {};
};

// Its JSON (a scenario's "faults", `serve --faults FILE`, the control API): lifeline/endpoint/fault_plan_json.h.

// Decides, call by call, which faults strike: its own random stream from the plan's seed, drawn only for calls a
// rule matches, so the same calls meet the same faults.
class FaultDice {
public:
    explicit FaultDice(FaultPlan plan);
    const FaultPlan& plan() const { return m_plan; }
    // Whether a fault of `kind` strikes this call.
    bool strikes(FaultKind kind, std::string_view action, std::string_view queue, TimeMs now);
    // The first refusing fault that strikes this call, if any; `encrypted`: the queue has a KMS key.
    std::optional<FaultKind> refusal(std::string_view action, std::string_view queue, TimeMs now, bool encrypted);
    // How much later this call is answered, if a latency fault strikes it.
    std::optional<TimeMs> latency(std::string_view action, std::string_view queue, TimeMs now);
    // A draw from 0 to n - 1 (how many a sampled short poll returns).
    uint32_t below(uint32_t n);
    // How many of each kind struck so far.
    const std::array<uint32_t, size_t(FaultKind::Count)>& struck() const { return m_struck; }

private:
    bool matches(size_t rule, std::string_view action, std::string_view queue, TimeMs now);
    FaultPlan m_plan;
    uint64_t m_state;
    std::vector<size_t> m_nextAt; // per rule: the first of its `at` times not yet used
    std::vector<uint32_t> m_used; // per rule: how many times it struck
    std::array<uint32_t, size_t(FaultKind::Count)> m_struck {};
};

} // namespace lifeline
