// Fair queues: a standard queue whose messages carry a MessageGroupId serves its tenants fairly ("How Amazon SQS fair
// queues work", SQS Developer Guide). A tenant is noisy once it holds 30 or more messages in flight and more than a
// tenth of the queue's; while any tenant is noisy a receive takes quiet tenants' messages first, in the queue's order,
// then noisy tenants', the one with the fewest in flight first. A noisy tenant is quiet again when its backlog has
// drained or it has sent nothing for five minutes; nothing is ever dropped or throttled. What the docs leave open,
// and the second measure (a tenant's share of processing time) this leaves out: docs/decisions.md, "Fair queues".
#include "engine_internal.h"

#include <algorithm>

namespace lifeline {

namespace {

// The tenant index of a lane on a queue with tenants, or -1 (no MessageGroupId: a tenant of its own, never noisy).
int64_t tenantIndex(const FairTenants& fair, const MessageExtra* extra)
{
    return extra ? fair.indexOf(extra->groupId) : -1;
}

} // namespace

void Engine::enterTenant(QueueState& queue, MessageIndex lane, bool sent)
{
    const MessageExtra* e = m_run.extra(lane);
    if (queue.fifo() || !e || e->groupId.empty())
        return;
    if (!queue.fair)
        queue.fair.emplace();
    queue.fair->enter(e->groupId, now(), sent);
    countTenant(queue, lane, MessageState::None, m_run.message(lane).state);
}

void Engine::countTenant(QueueState& queue, MessageIndex lane, MessageState from, MessageState to)
{
    if (!queue.fair)
        return;
    const int64_t index = tenantIndex(*queue.fair, m_run.extra(lane));
    if (index < 0)
        return;
    if (const auto turn = queue.fair->count(uint32_t(index), from, to, queue.counters().inFlight))
        setNoisy(queue, uint32_t(index), *turn);
}

void Engine::setNoisy(QueueState& queue, uint32_t tenant, bool noisy)
{
    m_run.note(kNoMessage, queue.index, MessageState::None, noisy ? Cause::TenantNoisy : Cause::TenantQuiet, kSqsActor,
        m_run.addText(*queue.fair->tenants[tenant].name));
    const std::deque<MessageIndex> held = queue.fair->setNoisy(tenant, noisy);
    // What it was passed over for waited longest: back at the front, in its order.
    queue.ready.insert(queue.ready.begin(), held.begin(), held.end());
}

template <class Out>
void Engine::collectFair(QueueState& queue, size_t max, int64_t visibilitySeconds, uint32_t actor, Out& out)
{
    FairTenants& fair = *queue.fair;
    for (const uint32_t silent : fair.silentSince(now()))
        setNoisy(queue, silent, false);
    const auto receivable = [&](MessageIndex lane) {
        if (gone(lane))
            return false; // an entry of a message that ended long ago
        const MessageRecord& record = m_run.message(lane);
        return record.state == MessageState::Visible && record.queue == queue.index;
    };
    const auto tenantOf = [&](MessageIndex lane) { return tenantIndex(fair, m_run.extra(lane)); };
    while (out.size() < max) {
        const MessageIndex lane = fair.next(queue.ready, receivable, tenantOf);
        if (lane == kNoMessage)
            return;
        if (takeOrDeadLetter(queue, lane, actor))
            deliverTo(out, queue, lane, visibilitySeconds, actor);
    }
}

template void Engine::collectFair(QueueState&, size_t, int64_t, uint32_t, std::vector<ReceivedMessage>&);
template void Engine::collectFair(QueueState&, size_t, int64_t, uint32_t, DeliveryList&);

std::vector<std::string> Engine::noisyTenants(const std::string& queueName) const
{
    const auto index = queueIndex(queueName);
    return index && m_queues[*index]->fair ? m_queues[*index]->fair->noisyNames() : std::vector<std::string> {};
}

} // namespace lifeline
