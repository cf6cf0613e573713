#include "lifeline/engine/faults.h"

#include "lifeline/support/splitmix.h"

#include <algorithm>

namespace lifeline {

namespace {
bool refuses(FaultKind kind)
{
    return kind != FaultKind::Duplicate && kind != FaultKind::ShortPollSample && kind != FaultKind::Latency;
}
} // namespace

FaultDice::FaultDice(FaultPlan plan)
    : m_plan(std::move(plan))
    , m_state(m_plan.seed)
    , m_nextAt(m_plan.rules.size(), 0)
    , m_used(m_plan.rules.size(), 0)
{
    for (FaultRule& rule : m_plan.rules)
        std::sort(rule.at.begin(), rule.at.end());
}

bool FaultDice::matches(size_t index, std::string_view action, std::string_view queue, TimeMs now)
{
    const FaultRule& rule = m_plan.rules[index];
    if (!rule.queue.empty() && rule.queue != queue)
        return false;
    const bool receiveFault = rule.kind == FaultKind::Duplicate || rule.kind == FaultKind::ShortPollSample;
    if (rule.action.empty() ? receiveFault && action != "ReceiveMessage" : rule.action != action)
        return false;
    if (rule.limit && m_used[index] >= *rule.limit)
        return false;
    if ((rule.from && now < *rule.from) || (rule.until && now >= *rule.until))
        return false;
    bool hit = false;
    if (!rule.at.empty()) {
        // Each time strikes one call: the first matching call at or after it (a time listed twice, two calls).
        if (m_nextAt[index] < rule.at.size() && rule.at[m_nextAt[index]] <= now) {
            ++m_nextAt[index];
            hit = true;
        }
    } else if (rule.rate > 0) {
        hit = double(splitMix64(m_state) >> 11) * 0x1.0p-53 < rule.rate; // drawn only for a matching call
    }
    if (hit)
        ++m_used[index];
    return hit;
}

bool FaultDice::strikes(FaultKind kind, std::string_view action, std::string_view queue, TimeMs now)
{
    for (size_t i = 0; i < m_plan.rules.size(); ++i)
        if (m_plan.rules[i].kind == kind && matches(i, action, queue, now)) {
            ++m_struck[size_t(kind)];
            return true;
        }
    return false;
}

std::optional<FaultKind> FaultDice::refusal(std::string_view action, std::string_view queue, TimeMs now, bool encrypted)
{
    for (size_t i = 0; i < m_plan.rules.size(); ++i) {
        const FaultKind kind = m_plan.rules[i].kind;
        if (refuses(kind) && (encrypted || !faultWords(kind).encryptedOnly) && matches(i, action, queue, now)) {
            ++m_struck[size_t(kind)];
            return kind;
        }
    }
    return std::nullopt;
}

std::optional<TimeMs> FaultDice::latency(std::string_view action, std::string_view queue, TimeMs now)
{
    for (size_t i = 0; i < m_plan.rules.size(); ++i)
        if (m_plan.rules[i].kind == FaultKind::Latency && matches(i, action, queue, now)) {
            ++m_struck[size_t(FaultKind::Latency)];
            return m_plan.rules[i].delay;
        }
    return std::nullopt;
}

uint32_t FaultDice::below(uint32_t n)
{
    return n == 0 ? 0 : uint32_t(splitMix64(m_state) % n);
}

} // namespace lifeline
