// The rules of `lifeline check` about messages that fail and how consumers ask: the dead-letter queue and its
// settings, short polling and a client timeout under the wait, a FIFO queue's single group, and tenants sharing a
// standard queue without MessageGroupIds.
#include "check_rule.h"
#include "lifeline/support/duration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lifeline::check::rules {

namespace {

using nlohmann::json;

int64_t failures(const analysis::RunSummary& s)
{
    int64_t failed = 0;
    for (const auto& c : s.consumers)
        failed += c.failed;
    return failed;
}

void poisonEvery(const CheckInput&, json& scenario, ScenarioShape& shape)
{
    scenario["producers"][0]["poisonEvery"] = shape.count;
}

// --- no-dlq ---

std::optional<RuleFinding> noDlq(const CheckInput& in)
{
    if (in.queue.redrivePolicy)
        return std::nullopt;
    if (in.lambda && in.lambda->functionDeadLetter) // the trap of lesson 29: believed covered, and not
        return RuleFinding { Severity::High,
            "The queue has no dead-letter queue, and its function's own dead-letter queue does not stand in for one: "
            "Lambda sends only failed asynchronous invocations there, and an SQS trigger invokes the function "
            "synchronously. A message the function always fails is received again and again until its retention ("
                + seconds(in.queue.messageRetentionPeriod) + ") ends, and the function's DLQ never sees it.",
            "Add a RedrivePolicy to this queue (maxReceiveCount 5: AWS advises at least 5 for a Lambda trigger); the "
            "function's DeadLetterConfig can stay for its asynchronous callers.",
            nullptr };
    return RuleFinding { Severity::Medium,
        "The queue has no dead-letter queue: a message that always fails (a poison message) is received again and "
        "again until its retention ("
            + seconds(in.queue.messageRetentionPeriod) + ") ends, and nobody sees why.",
        "Add a dead-letter queue with a RedrivePolicy, maxReceiveCount 5.", nullptr };
}

// A poison message cycling without a DLQ; the fix adds one.
void showPoisonWithoutDlq(const CheckInput& in, json& scenario, ScenarioShape& shape)
{
    shape.count = 10;
    shape.extra = 6 * (receiveCycleSeconds(in) + 1);
    shape.moments = json::array({ moment("failed", "The poison message fails again", 3) });
    scenario["queues"] = queuesJson(in, false);
    const json dlq = in.queue.fifo ? json { { "name", deadLetterName(in) }, { "type", "fifo" } }
                                   : json { { "name", deadLetterName(in) } };
    shape.fix = json::array({ { { "op", "add" }, { "path", "/queues/-" }, { "value", dlq } },
        { { "op", "add" }, { "path", "/queues/0/deadLetter" },
            { "value", { { "queue", deadLetterName(in) }, { "maxReceiveCount", 5 } } } } });
}

bool poisonCycles(const analysis::RunSummary& s, const CheckInput&)
{
    return s.deadLettered == 0 && failures(s) >= 3;
}

// --- max-receive-count-1 ---

std::optional<RuleFinding> maxReceiveCountOne(const CheckInput& in)
{
    if (!in.queue.redrivePolicy || in.queue.redrivePolicy->maxReceiveCount != 1)
        return std::nullopt;
    return RuleFinding { Severity::Medium,
        "maxReceiveCount is 1: one transient failure (a timeout, a crash, a deploy) moves the message to the "
        "dead-letter queue, where nothing processes it.",
        "Set maxReceiveCount to 5: transient failures get retries, poison messages still move on.", nullptr };
}

void showOneFailureMoves(const CheckInput&, json&, ScenarioShape& shape)
{
    shape.moments = json::array({ moment("dead-lettered", "One failure and it is in the DLQ", 2) });
    shape.fix = replaceAt("/queues/0/deadLetter/maxReceiveCount", 5);
    shape.seekSeed = true;
}

// Transient failures: one in five receives fails.
void transientFailures(const CheckInput&, json& scenario, ScenarioShape&)
{
    if (scenario.contains("consumers"))
        scenario["consumers"][0]["failureProbability"] = 0.2;
}

bool deadLettered(const analysis::RunSummary& s, const CheckInput&)
{
    return s.deadLettered > 0;
}

// --- max-receive-count-high ---

std::optional<RuleFinding> maxReceiveCountHigh(const CheckInput& in)
{
    const auto& redrive = in.queue.redrivePolicy;
    const int64_t cycle = receiveCycleSeconds(in);
    if (!redrive || redrive->maxReceiveCount <= 1 || redrive->maxReceiveCount * cycle < 3600)
        return std::nullopt;
    return RuleFinding { Severity::Medium,
        "A poison message is received " + std::to_string(redrive->maxReceiveCount) + " times, one visibility timeout ("
            + seconds(in.queue.visibilityTimeout) + ") apart, before it moves: it cycles for "
            + seconds(redrive->maxReceiveCount * cycle) + ", taking a consumer each time.",
        "Set maxReceiveCount to 5 (or fail fast: release a failed message with ChangeMessageVisibility 0).", nullptr };
}

int64_t receivesBeforeMove(const CheckInput& in)
{
    return in.queue.redrivePolicy ? in.queue.redrivePolicy->maxReceiveCount : 5;
}

void showLongCycle(const CheckInput& in, json&, ScenarioShape& shape)
{
    shape.count = 10;
    shape.extra = std::min<int64_t>(kMaxSeconds, (receivesBeforeMove(in) + 1) * (receiveCycleSeconds(in) + 1));
    shape.moments = json::array(
        { moment("failed", "The poison message fails again", 3), moment("dead-lettered", "Moved to the DLQ at last") });
    shape.fix = replaceAt("/queues/0/deadLetter/maxReceiveCount", 5);
}

bool manyFailures(const analysis::RunSummary& s, const CheckInput&)
{
    return failures(s) > 5;
}

// --- dlq-retention-not-longer ---

std::optional<RuleFinding> dlqRetentionNotLonger(const CheckInput& in)
{
    if (!in.queue.redrivePolicy || !in.deadLetterQueue || in.queue.fifo
        || in.deadLetterQueue->messageRetentionPeriod > in.queue.messageRetentionPeriod)
        return std::nullopt;
    return RuleFinding { Severity::High,
        "The dead-letter queue keeps messages " + seconds(in.deadLetterQueue->messageRetentionPeriod)
            + ", not longer than the source's " + seconds(in.queue.messageRetentionPeriod)
            + ". A standard queue keeps a message's original enqueue time when it moves, so one that failed for a "
              "while arrives in the DLQ nearly expired, and can expire at once.",
        "Set the DLQ's MessageRetentionPeriod to 1209600 (14 days, the maximum), longer than the source's.", nullptr };
}

void showExpiryInDlq(const CheckInput& in, json&, ScenarioShape& shape)
{
    shape.count = 10;
    const int64_t dlqRetention = in.deadLetterQueue ? in.deadLetterQueue->messageRetentionPeriod : 345600;
    shape.extra = std::max(std::min<int64_t>(kMaxSeconds, (receivesBeforeMove(in) + 1) * (receiveCycleSeconds(in) + 1)),
        dlqRetention + 60);
    shape.moments = json::array({ moment("dead-lettered", "Moved to the DLQ with its first enqueue time"),
        moment("expired", "Expired in the DLQ: its clock started when it was first sent", 1) });
    shape.fix = replaceAt("/queues/1/attributes/MessageRetentionPeriod", 1209600);
}

bool expired(const analysis::RunSummary& s, const CheckInput&)
{
    return s.expired > 0;
}

// --- short-polling ---

std::optional<RuleFinding> shortPolling(const CheckInput& in)
{
    if (in.lambda || in.effectiveWaitSeconds() != 0)
        return std::nullopt;
    const int64_t perHour = int64_t(in.consumers) * 3600;
    const double price = in.queue.fifo ? 0.50 : 0.40;
    char cost[64];
    std::snprintf(cost, sizeof cost, "$%.2f", double(perHour) * 730.0 * price / 1e6);
    return RuleFinding { Severity::Low,
        "The consumers short-poll (WaitTimeSeconds 0): while the queue is empty, " + std::to_string(in.consumers)
            + " consumer(s) make about " + std::to_string(perHour)
            + " empty receives an hour, assuming each asks again after about a second (a loop without a pause asks "
              "20 to 50 times a second). At the public price of $"
            + (in.queue.fifo ? std::string("0.50") : std::string("0.40"))
            + " per million requests (an assumption: check your region and free tier) that is about " + cost
            + " a month for nothing, and short polls can miss messages on a few servers.",
        "Long-poll: WaitTimeSeconds 20 on the receives, or ReceiveMessageWaitTimeSeconds 20 on the queue.",
        replaceAttribute("ReceiveMessageWaitTimeSeconds", 20) };
}

void showEmptyReceives(const CheckInput&, json&, ScenarioShape& shape)
{
    shape.count = 5;
    shape.moments
        = json::array({ moment("empty-receive", "An empty receive: a short poll answers at once, with nothing", 3) });
    shape.fix = replaceAt("/consumers/0/waitTimeSeconds", 20);
}

// Few messages: the consumers mostly ask an empty queue.
void slowProducer(const CheckInput&, json& scenario, ScenarioShape&)
{
    scenario["producers"][0]["rate"] = 0.02;
}

bool manyEmptyReceives(const analysis::RunSummary& s, const CheckInput& in)
{
    const double consumerMinutes = double(std::min(in.consumers, 200)) * double(s.until) / 60000.0;
    return double(s.emptyReceives) > 10.0 * std::max(1.0, consumerMinutes);
}

// --- client-timeout-under-wait (no scenario: Lifeline's consumers have no HTTP read timeout) ---

std::optional<RuleFinding> clientTimeoutUnderWait(const CheckInput& in)
{
    const int wait = in.effectiveWaitSeconds();
    if (in.lambda || !in.readTimeout || wait <= 0 || *in.readTimeout > int64_t(wait) * 1000)
        return std::nullopt;
    return RuleFinding { Severity::High,
        "The client's HTTP read timeout (" + formatDuration(*in.readTimeout) + ") is not longer than WaitTimeSeconds ("
            + seconds(wait)
            + "): the client gives up on a long poll SQS is still holding, and what SQS returns then is in flight for "
              "nobody until its visibility timeout ends.",
        "Make the read timeout longer than the wait: " + seconds(wait + 10) + " or more.", nullptr };
}

// --- fifo-single-group ---

std::optional<RuleFinding> fifoSingleGroup(const CheckInput& in)
{
    const bool parallel = in.lambda ? in.lambda->mostInvocations() != 1 : in.consumers > 1;
    if (!in.queue.fifo || in.groups != 1 || !parallel)
        return std::nullopt;
    return RuleFinding { Severity::Medium,
        "Every message has the same MessageGroupId: a FIFO queue hands out one group in order, so only one message "
        "(or batch) is in flight at a time and the other consumers wait.",
        "Use a MessageGroupId per entity whose order matters (a customer, an order): as many groups as consumers at "
        "least.",
        nullptr };
}

void noChange(const CheckInput&, json&, ScenarioShape&)
{
}

// One group, as the user has it; the fix spreads the messages over as many as there are consumers.
void oneGroup(const CheckInput& in, json& scenario, ScenarioShape& shape)
{
    scenario["producers"][0]["groups"] = 1;
    shape.fix = replaceAt("/producers/0/groups", std::max(2, std::min(in.consumers, 50)));
}

bool oneInFlight(const analysis::RunSummary& s, const CheckInput& in)
{
    return s.peak.inFlight <= in.maxMessages;
}

// --- tenants-without-group-id ---

// What one tenant's burst does to the others, with the consumers as the scenario runs them (at most 200; a Lambda
// trigger without a MaximumConcurrency at the 5 invocations Lifeline simulates): a burst that takes them a minute to
// drain, or four batches' time if that is longer (no fewer than 300 messages, no more than 20,000).
struct TenantBurst {
    int64_t inFlight = 0; // messages the consumers hold at most
    int64_t count = 0; // the noisy tenant's burst
    double drainSeconds = 0; // how long the consumers take to work through it
    TimeMs batchMs = 0; // one consumer's receive, worked through
};

TenantBurst tenantBurst(const CheckInput& in)
{
    const double perWorker = 1000.0 / double(std::max<TimeMs>(1, in.mean));
    TenantBurst b;
    double perSecond = 0;
    if (in.lambda) {
        const int batch = in.lambda->batchingWindow > 0 ? in.lambda->batchSize : std::min(in.lambda->batchSize, 10);
        const int invocations = in.lambda->mostInvocations() ? in.lambda->mostInvocations() : 5;
        b.inFlight = int64_t(invocations) * batch;
        perSecond = perWorker * invocations * batch;
        b.batchMs = in.mean;
    } else {
        b.inFlight = int64_t(in.consumers) * in.maxMessages;
        perSecond = perWorker * std::min(in.consumers, 200);
        b.batchMs = in.mean * in.maxMessages;
    }
    const double wanted = std::max(60.0, 4.0 * double(b.batchMs) / 1000.0);
    b.count = std::clamp<int64_t>(int64_t(std::ceil(wanted * perSecond)), 300, 20000);
    b.drainSeconds = double(b.count) / perSecond;
    return b;
}

// SQS counts a tenant noisy from 30 messages in flight (and by its share of processing time, which Lifeline does not
// simulate): with fewer in flight, no tenant ever is, and a group id changes nothing the scenario could show.
constexpr int64_t kNoisyInFlight = 30;

std::optional<RuleFinding> tenantsWithoutGroupId(const CheckInput& in)
{
    if (in.queue.fifo || in.tenants < 2 || in.groups > 0)
        return std::nullopt;
    const TenantBurst burst = tenantBurst(in);
    if (burst.inFlight < kNoisyInFlight)
        return std::nullopt;
    const double perSecond = double(burst.count) / burst.drainSeconds;
    const TimeMs thousand = TimeMs(std::llround(1000.0 / perSecond * 1000.0));
    return RuleFinding { Severity::Medium,
        std::to_string(in.tenants)
            + " tenants share this standard queue and send without a MessageGroupId: SQS hands messages out roughly "
              "in the order they came, so a burst of 1,000 from one tenant holds every other tenant's next message "
              "for about "
            + describeDuration(thousand) + " (what your consumers take to work through it).",
        "Send each message with its tenant's id as MessageGroupId: the standard queue becomes a fair queue, and while "
        "one tenant holds a flood in flight, receives serve the other tenants' messages first (no change to the "
        "consumers or the throughput).",
        nullptr };
}

// A tenant's burst, and up to three others sending a few messages while it drains; the fix names each tenant.
void tenantsShape(const CheckInput& in, json&, ScenarioShape& shape)
{
    const TenantBurst burst = tenantBurst(in);
    shape.count = 8; // the quiet tenants' messages: the run's length is theirs, plus the burst's drain
    shape.extra = int64_t(std::ceil(burst.drainSeconds)) + 10;
    shape.moments = json::array(
        { { { "when", "receive" }, { "receive", 1 }, { "body", "tenant-2" },
              { "minAge", ms(TimeMs(burst.drainSeconds * 500)) },
              { "caption",
                  "{consumer} receives {body} only now, {age} after its send: it waited behind tenant-1's burst" } },
            moment("tenant-noisy", "{tenant} turns noisy: receives serve the other tenants' messages first") });
    shape.measure = { { "figure", "producers.tenant-2.longestWaitMs" },
        { "label", "tenant-2's longest wait for a first receive" } };
}

void tenantsActors(const CheckInput& in, json& scenario, ScenarioShape& shape)
{
    const TenantBurst burst = tenantBurst(in);
    json producers = json::array({ { { "name", "tenant-1" }, { "queue", in.queueName },
        { "bursts", json::array({ { { "at", "5s" }, { "count", burst.count } } }) },
        { "body", "tenant-1 message {n}" } } });
    // The others start a tenth of the way into the drain and send their messages over its first half.
    const TimeMs start = 5000 + TimeMs(burst.drainSeconds * 100);
    const double rate = double(shape.count) / std::max(1.0, burst.drainSeconds / 2);
    for (int t = 2; t <= std::min(in.tenants, 4); ++t) {
        const std::string name = "tenant-" + std::to_string(t);
        producers.push_back({ { "name", name }, { "queue", in.queueName }, { "rate", rate }, { "start", ms(start) },
            { "count", shape.count }, { "body", name + " message {n}" } });
    }
    scenario["producers"] = producers;
    shape.fix = json::array();
    for (size_t p = 0; p < producers.size(); ++p)
        shape.fix.push_back({ { "op", "add" }, { "path", "/producers/" + std::to_string(p) + "/groupId" },
            { "value", producers[p]["name"] } });
}

// Another tenant's message waited half the burst's drain, or two batches' time if that is longer.
bool othersWait(const analysis::RunSummary& s, const CheckInput& in)
{
    const TenantBurst burst = tenantBurst(in);
    const TimeMs bound = std::max(TimeMs(burst.drainSeconds * 500), 2 * burst.batchMs);
    return std::any_of(s.producers.begin(), s.producers.end(),
        [&](const auto& p) { return p.first != "tenant-1" && p.second.longestWaitMs >= bound; });
}

} // namespace

const CheckRule kTenantsWithoutGroupId { "tenants-without-group-id",
    "Tenants share a standard queue without a MessageGroupId: one tenant's burst holds up the others",
    tenantsWithoutGroupId, tenantsShape, tenantsActors, othersWait, {}, false, { .processing = true } };
const CheckRule kNoDlq { "no-dlq", "The queue has no dead-letter queue: a poison message is received until it expires",
    noDlq, showPoisonWithoutDlq, poisonEvery, poisonCycles };
const CheckRule kMaxReceiveCount1 { "max-receive-count-1",
    "maxReceiveCount is 1: one transient failure moves a message to the dead-letter queue", maxReceiveCountOne,
    showOneFailureMoves, transientFailures, deadLettered };
const CheckRule kMaxReceiveCountHigh { "max-receive-count-high",
    "maxReceiveCount so high that a poison message cycles for an hour or more", maxReceiveCountHigh, showLongCycle,
    poisonEvery, manyFailures };
const CheckRule kDlqRetentionNotLonger { "dlq-retention-not-longer",
    "The dead-letter queue keeps messages no longer than its source: they expire there early", dlqRetentionNotLonger,
    showExpiryInDlq, poisonEvery, expired };
const CheckRule kShortPolling { "short-polling",
    "The consumers short-poll: empty receives cost requests and can miss messages", shortPolling, showEmptyReceives,
    slowProducer, manyEmptyReceives };
const CheckRule kClientTimeoutUnderWait { "client-timeout-under-wait",
    "The client's HTTP read timeout is not longer than the long poll's wait", clientTimeoutUnderWait, nullptr, nullptr,
    nullptr };
const CheckRule kFifoSingleGroup { "fifo-single-group",
    "A FIFO queue with one MessageGroupId: one message in flight at a time", fifoSingleGroup, noChange, oneGroup,
    oneInFlight };

} // namespace lifeline::check::rules
