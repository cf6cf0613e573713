// Fair queues' tenants: a standard queue whose messages carry a MessageGroupId serves its tenants fairly ("How
// Amazon SQS fair queues work", SQS Developer Guide). The policy's rule with its state, kept in the queue's state
// (QueueState::fair); the engine logs the turns and delivers what next() picks (engine_fair.cpp).
#pragma once

#include "lifeline/run/event_log.h"
#include "lifeline/run/sqs_types.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lifeline {

// A tenant of a standard queue (fair queues): the messages sent with one MessageGroupId.
struct FairTenant {
    const std::string* name = nullptr; // its MessageGroupId: the key in FairTenants::byName (nodes do not move)
    int64_t waiting = 0; // visible or delayed: its backlog
    int64_t inFlight = 0;
    TimeMs lastSendAt = 0;
    bool noisy = false;
    std::deque<MessageIndex> held; // its visible messages passed over while it is noisy, oldest first (lazy)
};

// A tenant is noisy from when it holds at least this many messages in flight, and more than a tenth of the queue's;
// it is quiet again once its backlog drains or it has sent nothing for five minutes (AWS-doc).
inline constexpr int64_t kNoisyInFlight = 30;
inline constexpr TimeMs kNoisyQuietAfterMs = TimeMs(5) * 60 * 1000;

// A standard queue's tenants, from its first message with a MessageGroupId (docs/decisions.md, "Fair queues"): their
// counts and when each turns noisy or quiet, the policy's rule with its state; the engine logs the turns and serves
// the receives (engine_fair.cpp).
struct FairTenants {
    std::unordered_map<std::string, uint32_t> byName;
    std::vector<FairTenant> tenants;
    std::vector<uint32_t> noisy; // the noisy tenants, in the order they turned noisy

    // The tenant of a MessageGroupId, added when new; its latest send now when `sent`.
    uint32_t enter(const std::string& groupId, TimeMs now, bool sent)
    {
        const auto [it, added] = byName.emplace(groupId, uint32_t(tenants.size()));
        if (added)
            tenants.emplace_back().name = &it->first;
        if (sent)
            tenants[it->second].lastSendAt = now;
        return it->second;
    }
    // The tenant of a MessageGroupId, or -1 (none: a message of its own, never noisy).
    int64_t indexOf(const std::string& groupId) const
    {
        if (groupId.empty())
            return -1;
        const auto it = byName.find(groupId);
        return it == byName.end() ? -1 : int64_t(it->second);
    }
    // A message of the tenant moved from one state to another: whether the tenant now turns noisy (true) or quiet
    // (false: its backlog drained), or neither. `queueInFlight` is the queue's own count.
    std::optional<bool> count(uint32_t tenant, MessageState from, MessageState to, int64_t queueInFlight)
    {
        const auto waiting
            = [](MessageState state) { return state == MessageState::Visible || state == MessageState::Delayed; };
        FairTenant& t = tenants[tenant];
        t.waiting += int64_t(waiting(to)) - int64_t(waiting(from));
        t.inFlight += int64_t(to == MessageState::InFlight) - int64_t(from == MessageState::InFlight);
        if (!t.noisy && t.inFlight >= kNoisyInFlight && t.inFlight * 10 > queueInFlight)
            return true;
        if (t.noisy && t.waiting == 0)
            return false;
        return std::nullopt;
    }
    // Marks the tenant; quiet again, it hands back the messages it was passed over for, oldest first.
    std::deque<MessageIndex> setNoisy(uint32_t tenant, bool isNoisy)
    {
        FairTenant& t = tenants[tenant];
        t.noisy = isNoisy;
        if (isNoisy) {
            noisy.push_back(tenant);
            return {};
        }
        std::erase(noisy, tenant);
        return std::exchange(t.held, {});
    }
    // The next message a receive takes from `ready` (the queue's visible messages in order, lazy), or kNoMessage:
    // quiet tenants' first, a noisy tenant's set aside for it as it is passed over, then the noisy tenants', the one
    // with the fewest in flight first. `receivable(lane)`: the entry is still a visible message of the queue;
    // `tenantOf(lane)`: its tenant, or -1.
    template <class Receivable, class TenantOf>
    MessageIndex next(std::deque<MessageIndex>& ready, const Receivable& receivable, const TenantOf& tenantOf)
    {
        while (!ready.empty()) {
            const MessageIndex lane = ready.front();
            ready.pop_front();
            if (!receivable(lane))
                continue;
            const int64_t index = tenantOf(lane);
            if (index < 0 || !tenants[size_t(index)].noisy)
                return lane;
            tenants[size_t(index)].held.push_back(lane);
        }
        FairTenant* fewest = nullptr;
        for (const uint32_t index : noisy) {
            FairTenant& t = tenants[index];
            while (!t.held.empty() && !receivable(t.held.front()))
                t.held.pop_front();
            if (!t.held.empty() && (!fewest || t.inFlight < fewest->inFlight))
                fewest = &t;
        }
        if (!fewest)
            return kNoMessage;
        const MessageIndex lane = fewest->held.front();
        fewest->held.pop_front();
        return lane;
    }
    // The noisy tenants' MessageGroupIds, sorted.
    std::vector<std::string> noisyNames() const
    {
        std::vector<std::string> out;
        for (const uint32_t index : noisy)
            out.push_back(*tenants[index].name);
        std::sort(out.begin(), out.end());
        return out;
    }
    // The noisy tenants that have sent nothing for five minutes, latest turned first: quiet again.
    std::vector<uint32_t> silentSince(TimeMs now) const
    {
        std::vector<uint32_t> silent;
        for (size_t i = noisy.size(); i-- > 0;)
            if (now - tenants[noisy[i]].lastSendAt >= kNoisyQuietAfterMs)
                silent.push_back(noisy[i]);
        return silent;
    }
};

} // namespace lifeline
