// AddPermission / RemovePermission: the queue found, its Policy changed by the rule in queue_permissions.h, and set.
#include "engine_internal.h"
#include "queue_permissions.h"

namespace lifeline {

Status Engine::addPermission(const std::string& name, const std::string& label,
    const std::vector<std::string>& accounts, const std::vector<std::string>& actions, uint32_t actor)
{
    auto found = requireQueue(name);
    if (!found)
        return refuse(kNoQueue, found.error(), actor);
    const QueueState& queue = *found.value();
    auto policy = policyWithPermission(queue.attributes().policy, queue.arn(), label, accounts, actions);
    if (!policy)
        return refuse(queue.index, policy.error(), actor);
    return setQueueAttributes(name, { { "Policy", policy.value() } }, actor);
}

Status Engine::removePermission(const std::string& name, const std::string& label, uint32_t actor)
{
    auto found = requireQueue(name);
    if (!found)
        return refuse(kNoQueue, found.error(), actor);
    const QueueState& queue = *found.value();
    auto policy = policyWithoutPermission(queue.attributes().policy, queue.arn(), label);
    if (!policy)
        return refuse(queue.index, policy.error(), actor);
    return setQueueAttributes(name, { { "Policy", policy.value() } }, actor);
}

} // namespace lifeline
