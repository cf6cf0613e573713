#include "lifeline/import/trace_import.h"

#include "lifeline/run/lane_name.h"
#include "lifeline/support/duration.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace lifeline::import {

using endpoint::SqsAction;
using observe::ObservedCall;

namespace {

// What a span did to SQS, whichever attribute vocabulary its instrumentation writes.
enum class Op : uint8_t { Send, SendBatch, Receive, Process, Delete, DeleteBatch, ChangeVisibility, Other };

const std::string* firstOf(const SpanAttributes& attributes, std::initializer_list<std::string_view> keys)
{
    for (const std::string_view key : keys)
        if (const auto* value = attributeOf(attributes, key); value && !value->empty())
            return value;
    return nullptr;
}

std::string lower(std::string text)
{
    std::ranges::transform(text, text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

// The JavaScript and Java SDK instrumentations write "aws_sqs" (Java's older ones "AmazonSQS"), the Python ones
// "aws.sqs"; each AWS SDK instrumentation also writes rpc.service ("SQS", Java's "Sqs").
bool isSqsSpan(const Span& span)
{
    if (const auto* system = firstOf(span.attributes, { "messaging.system" })) {
        const std::string s = lower(*system);
        if (s == "aws_sqs" || s == "aws.sqs" || s == "amazonsqs")
            return true;
    }
    if (const auto* service = firstOf(span.attributes, { "rpc.service" })) {
        const std::string s = lower(*service);
        return s == "sqs" || s == "amazonsqs";
    }
    return false;
}

std::optional<Op> operationOf(const Span& span)
{
    if (const auto* method = firstOf(span.attributes, { "rpc.method" })) {
        static const std::map<std::string, Op, std::less<>> kMethods { { "SendMessage", Op::Send },
            { "SendMessageBatch", Op::SendBatch }, { "ReceiveMessage", Op::Receive }, { "DeleteMessage", Op::Delete },
            { "DeleteMessageBatch", Op::DeleteBatch }, { "ChangeMessageVisibility", Op::ChangeVisibility },
            { "ChangeMessageVisibilityBatch", Op::ChangeVisibility } };
        const auto it = kMethods.find(*method);
        return it == kMethods.end() ? Op::Other : it->second;
    }
    std::string op;
    if (const auto* given = firstOf(span.attributes, { "messaging.operation.type", "messaging.operation" }))
        op = lower(*given);
    else if (const auto space = span.name.rfind(' '); space != std::string::npos)
        op = lower(span.name.substr(space + 1)); // "orders send": the semantic conventions' span name
    if (op == "send" || op == "publish" || op == "create")
        return Op::Send;
    if (op == "receive")
        return Op::Receive;
    if (op == "process" || op == "deliver")
        return Op::Process;
    if (op == "settle")
        return Op::Delete;
    return std::nullopt;
}

std::string queueOf(const Span& span)
{
    if (const auto* name = firstOf(span.attributes, { "messaging.destination.name", "messaging.destination" }))
        return observe::queueNameFromUrl(*name);
    if (const auto* url = firstOf(span.attributes,
            { "url.full", "messaging.url", "aws.queue.url", "aws.sqs.queue.url", "aws.sqs.queue_url" }))
        return observe::queueNameFromUrl(*url);
    if (const auto space = span.name.rfind(' '); space != std::string::npos && space > 0)
        return span.name.substr(0, span.name.find(' '));
    return {};
}

std::vector<std::string> idsOf(const SpanAttributes& attributes)
{
    if (const auto* id = firstOf(attributes, { "messaging.message.id", "messaging.message_id" }))
        return { *id };
    return {};
}

std::string shortId(const std::string& spanId)
{
    return spanId.size() > 8 ? spanId.substr(0, 8) + "…" : spanId;
}

std::string originOf(const Span& span)
{
    return span.origin + ", span " + shortId(span.spanId) + " (" + span.name + ")";
}

// What the Observer is told, in the order SQS did it. At one instant: polls begin, sends land, receives answer,
// process spans claim what was received, deletes and changes come last (each needs what came before).
struct Action {
    enum What : uint8_t { PollStart, Send, Receive, ProcessStart, Delete, ProcessEnd } what;
    TimeMs at;
    size_t seq; // the span's place among the spans read: ties keep it
    const Span* span;
    std::string queue;
    std::vector<std::string> ids;
};

class Importer {
public:
    Importer(const std::vector<Span>& spans, const QueueSettings& settings)
        : m_spans(spans)
        , m_settings(settings)
    {
    }

    ImportedRun run()
    {
        ImportedRun imported;
        imported.report.spansRead = m_spans.size();
        std::vector<Action> actions = collect(imported.report);
        int64_t epochNs = INT64_MAX, lastNs = 0;
        for (const Action& a : actions) {
            epochNs = std::min(epochNs, a.span->startNs);
            lastNs = std::max(lastNs, a.span->endNs);
        }
        imported.epochMs = actions.empty() ? 0 : epochNs / 1000000;
        m_epochMs = imported.epochMs;
        for (Action& a : actions)
            a.at -= m_epochMs;
        std::ranges::stable_sort(actions, [](const Action& a, const Action& b) {
            return a.at != b.at ? a.at < b.at : a.what != b.what ? a.what < b.what : a.seq < b.seq;
        });
        imported.observer = std::make_unique<observe::Observer>(m_epochMs, observe::ObserverOptions { true });
        m_observer = imported.observer.get();
        applySettings(actions, imported.report);
        for (const Action& action : actions) {
            m_observer->advanceTo(std::max<TimeMs>(action.at, m_observer->run().now()));
            play(action, imported.report);
        }
        if (!actions.empty())
            m_observer->advanceTo(std::max<TimeMs>(lastNs / 1000000 - m_epochMs, m_observer->run().now()));
        const RunView& run = m_observer->run();
        imported.report.messages = run.messageCount();
        for (size_t i = 0; i < run.log().size(); ++i)
            imported.report.inferredEvents += run.log()[i].inferred() ? 1 : 0;
        imported.report.contradictions = m_observer->contradictions();
        for (const auto& [queue, count] : m_pendingWithoutId)
            notJoined(
                imported.report, "received messages with no MessageId (no link to their send, no process span)", count);
        return imported;
    }

private:
    static TimeMs ms(int64_t ns) { return ns / 1000000; }

    void notJoined(ImportReport& report, const std::string& what, size_t count = 1)
    {
        if (count > 0)
            report.notJoined[what] += count;
    }

    // The one message a span's nearest ancestor names (a process span of one message), for calls that name none.
    std::optional<std::string> messageAbove(const Span& span) const
    {
        const Span* above = spanAbove(span);
        return above ? std::optional(idsOf(above->attributes).front()) : std::nullopt;
    }

    // The nearest ancestor naming one message: a process span.
    const Span* spanAbove(const Span& span) const
    {
        const Span* at = &span;
        for (int depth = 0; depth < 64 && !at->parentSpanId.empty(); ++depth) {
            const auto parent = m_byId.find(at->parentSpanId);
            if (parent == m_byId.end() || parent->second->traceId != at->traceId)
                return nullptr;
            at = parent->second;
            if (idsOf(at->attributes).size() == 1)
                return at;
        }
        return nullptr;
    }

    // A span's queue; a call that names none (the Java instrumentation's DeleteMessage, unless its experimental
    // attributes are on) takes its process span's.
    std::string queueOfCall(const Span& span, Op op) const
    {
        std::string queue = queueOf(span);
        if (queue.empty() && (op == Op::Delete || op == Op::DeleteBatch || op == Op::ChangeVisibility))
            if (const Span* above = spanAbove(span))
                queue = queueOf(*above);
        return queue;
    }

    std::vector<Action> collect(ImportReport& report)
    {
        m_byId.reserve(m_spans.size());
        for (const Span& span : m_spans)
            m_byId.emplace(span.spanId, &span); // 64 random bits: the trace is checked when a parent is looked up
        std::vector<Action> actions;
        for (size_t seq = 0; seq < m_spans.size(); ++seq) {
            const Span& span = m_spans[seq];
            if (!isSqsSpan(span))
                continue;
            const auto op = operationOf(span);
            if (!op || *op == Op::Other)
                continue;
            const std::string queue = queueOfCall(span, *op);
            if (queue.empty()) {
                notJoined(report, "SQS spans that name no queue");
                continue;
            }
            ++report.sqsCalls;
            const auto add = [&](Action::What what, int64_t ns, std::vector<std::string> ids) {
                actions.push_back({ what, ms(ns), seq, &span, queue, std::move(ids) });
            };
            collectSpan(span, *op, report, add);
        }
        return actions;
    }

    // One SQS span's actions, through `add(what, at, ids)`; what it cannot tie to a message, counted.
    template <class Add> void collectSpan(const Span& span, Op op, ImportReport& report, const Add& add)
    {
        std::vector<std::string> ids = idsOf(span.attributes);
        switch (op) {
        case Op::Send:
        case Op::SendBatch:
            if (ids.empty() && !span.failed)
                notJoined(report,
                    op == Op::SendBatch ? "batch sends with no MessageIds in their spans"
                                        : "sends with no MessageId in their spans");
            else
                add(Action::Send, span.startNs, std::move(ids)); // sent before anyone can receive it
            break;
        case Op::Receive:
            for (const SpanLink& link : span.links)
                for (auto& id : idsOf(link.attributes))
                    if (std::ranges::find(ids, id) == ids.end())
                        ids.push_back(std::move(id));
            if (const auto* count = firstOf(span.attributes, { "messaging.batch.message_count" }))
                if (const int64_t n = std::atoll(count->c_str()); n > int64_t(ids.size()))
                    m_withoutIdBySpan[&span] = size_t(n) - ids.size();
            add(Action::PollStart, span.startNs, {});
            add(Action::Receive, span.endNs, std::move(ids)); // its answer: received from then on
            break;
        case Op::Process:
            if (ids.empty())
                break; // a process span of no one message (a batch's): nothing to tie
            add(Action::ProcessStart, span.startNs, ids);
            add(Action::ProcessEnd, span.endNs, ids); // the consumer's row: its work on the message
            // The Python boto3sqs instrumentation ends a message's process span when DeleteMessage names its receipt
            // handle: its end is the delete (docs/import.md).
            if (span.scope == "opentelemetry.instrumentation.boto3sqs")
                add(Action::Delete, span.endNs, std::move(ids));
            break;
        case Op::ChangeVisibility:
            notJoined(report, "visibility changes (their new timeout is not in the trace)");
            break;
        case Op::Delete:
        case Op::DeleteBatch:
            if (ids.empty())
                if (auto above = messageAbove(span))
                    ids.push_back(std::move(*above));
            if (ids.empty())
                notJoined(report,
                    op == Op::DeleteBatch ? "batch deletes with no message named above them"
                                          : "deletes with no message named above them (no process span of one "
                                            "message is their parent)");
            else
                add(Action::Delete, span.startNs, std::move(ids));
            break;
        case Op::Other:
            break;
        }
    }

    // A queue's settings: its own by name, else a template queue's whose logical id its CloudFormation name carries
    // ("orders-stack-OrdersQueue-1AB2C3D4"), else every queue's.
    const AttributeMap* settingsOf(const std::string& name) const
    {
        if (const auto given = m_settings.byQueue.find(name); given != m_settings.byQueue.end())
            return &given->second;
        for (const auto& [logicalId, attributes] : m_settings.byLogicalId) {
            const auto at = name.find("-" + logicalId + "-");
            if (at != std::string::npos && at > 0 && name.find('-', at + logicalId.size() + 2) == std::string::npos)
                return &attributes;
        }
        return m_settings.everyQueue ? &*m_settings.everyQueue : nullptr;
    }

    void applySettings(const std::vector<Action>& actions, ImportReport& report)
    {
        std::vector<std::string> names;
        for (const Action& a : actions)
            if (std::ranges::find(names, a.queue) == names.end())
                names.push_back(a.queue);
        for (size_t i = 0; i < names.size(); ++i) { // a dead-letter queue named by a policy joins the list
            const AttributeMap* attributes = settingsOf(names[i]);
            if (!attributes) {
                report.queuesWithDefaults.push_back(names[i]);
                m_observer->noteAttributes(names[i], {});
                continue;
            }
            m_observer->noteAttributes(names[i], *attributes);
            const auto& policy
                = m_observer->run().queueAttributes(*m_observer->run().queueIndex(names[i]))->redrivePolicy;
            if (policy) {
                const std::string dlq = policy->deadLetterTargetArn.substr(policy->deadLetterTargetArn.rfind(':') + 1);
                if (std::ranges::find(names, dlq) == names.end())
                    names.push_back(dlq);
            }
        }
    }

    uint32_t actorFor(const Span& span)
    {
        std::string name
            = span.service.empty() || span.service.starts_with("unknown_service") ? "client" : span.service;
        const auto known = m_actors.find(name);
        if (known != m_actors.end())
            return known->second;
        const uint32_t actor = m_observer->addActor(name);
        m_actors.emplace(std::move(name), actor);
        return actor;
    }

    std::string handleKey(const std::string& queue, const std::string& id) const { return queue + '\n' + id; }

    void receive(const Action& action, const std::vector<std::string>& ids, uint32_t actor, bool claimed)
    {
        ObservedCall call;
        call.action = "ReceiveMessage";
        call.known = SqsAction::ReceiveMessage;
        call.queue = action.queue;
        call.ok = claimed || !action.span->failed; // a process span that failed is the consumer's work failing
        call.origin = originOf(*action.span);
        // A receive span's answer came somewhere in it; a process span standing for its receive starts at it.
        call.uncertainMs = claimed ? 0 : ms(action.span->endNs) - ms(action.span->startNs);
        if (!claimed)
            refusal(call, *action.span);
        for (const std::string& id : ids) {
            const std::string handle = "imported-" + std::to_string(++m_handles);
            call.received.push_back({ id, handle, {}, std::nullopt, std::nullopt });
            m_latestHandle[handleKey(action.queue, id)] = handle;
            if (!claimed)
                m_unclaimed.insert(handleKey(action.queue, id));
        }
        m_observer->observe(call, actor);
    }

    static void refusal(ObservedCall& call, const Span& span)
    {
        if (!span.failed)
            return;
        call.errorCode = "Error";
        call.errorMessage = span.statusMessage.empty() ? "the span's status is ERROR" : span.statusMessage;
    }

    void play(const Action& action, ImportReport& report)
    {
        const uint32_t actor = actorFor(*action.span);
        switch (action.what) {
        case Action::PollStart:
            m_observer->pollStarted(action.queue, actor);
            break;
        case Action::Send: {
            ObservedCall call;
            call.action = "SendMessage";
            call.known = SqsAction::SendMessage;
            call.queue = action.queue;
            call.ok = !action.span->failed;
            call.origin = originOf(*action.span);
            refusal(call, *action.span);
            for (const std::string& id : action.ids)
                call.sent.push_back({ id, std::nullopt, {}, {} });
            m_observer->observe(call, actor);
            break;
        }
        case Action::Receive:
            receive(action, action.ids, actor, false);
            if (const auto without = m_withoutIdBySpan.find(action.span); without != m_withoutIdBySpan.end())
                m_pendingWithoutId[action.queue] += without->second; // their process spans may name them
            break;
        case Action::ProcessStart: {
            // The receive a process span belongs to, when one returned its message and no process span took it yet;
            // else the process span is all the trace has of that receive (boto3sqs, Java): it is the receive.
            const std::string key = handleKey(action.queue, action.ids.front());
            if (m_unclaimed.erase(key) == 0) {
                receive(action, action.ids, actor, true);
                if (m_pendingWithoutId[action.queue] > 0)
                    --m_pendingWithoutId[action.queue]; // one a receive span counted without its id
            }
            // Another process span of the message going on or finished before: a duplicate processing (◆).
            Work& work = m_work[key];
            m_observer->noteWork(action.queue, action.ids.front(), Cause::ProcessingStarted, actor,
                Event::processingStart(work.going > 0 || work.finished, 0));
            ++work.going;
            break;
        }
        case Action::ProcessEnd: {
            Work& work = m_work[handleKey(action.queue, action.ids.front())];
            work.going -= work.going > 0 ? 1 : 0;
            work.finished = work.finished || !action.span->failed;
            m_observer->noteWork(action.queue, action.ids.front(),
                action.span->failed ? Cause::ProcessingFailed : Cause::ProcessingFinished, actor,
                action.span->failed ? uint32_t(FailureKind::Threw) : 0);
            break;
        }
        case Action::Delete: {
            ObservedCall call;
            call.action = "DeleteMessage";
            call.known = SqsAction::DeleteMessage;
            call.queue = action.queue;
            call.ok = !action.span->failed;
            call.origin = originOf(*action.span);
            refusal(call, *action.span);
            for (const std::string& id : action.ids) {
                const auto handle = m_latestHandle.find(handleKey(action.queue, id));
                if (handle == m_latestHandle.end()) {
                    notJoined(report, "deletes of messages the trace never shows received");
                    continue;
                }
                if (!m_deleted.insert(handle->second).second)
                    continue; // the same delete seen twice (a process span's end and its DeleteMessage span)
                call.handles.push_back({ handle->second, 0 });
            }
            if (!call.handles.empty() || !call.ok)
                m_observer->observe(call, actor);
            break;
        }
        }
    }

    const std::vector<Span>& m_spans;
    const QueueSettings& m_settings;
    observe::Observer* m_observer = nullptr;
    int64_t m_epochMs = 0;
    std::unordered_map<std::string_view, const Span*> m_byId; // views of the spans' own ids
    std::map<std::string, uint32_t> m_actors;
    std::unordered_map<std::string, std::string> m_latestHandle; // queue and MessageId -> the latest receive's
    std::set<std::string> m_unclaimed; // receipts no process span has taken yet
    std::set<std::string> m_deleted; // handles already deleted
    struct Work {
        uint32_t going = 0; // process spans of the message begun and not ended
        bool finished = false; // one ended without an error
    };
    std::unordered_map<std::string, Work> m_work; // by queue and MessageId
    std::map<const Span*, size_t> m_withoutIdBySpan; // a receive span's messages it names no id of
    std::map<std::string, size_t> m_pendingWithoutId; // per queue: received, no id, no process span naming them yet
    uint64_t m_handles = 0;
};

} // namespace

ImportedRun importSpans(const std::vector<Span>& spans, const QueueSettings& settings)
{
    return Importer(spans, settings).run();
}

nlohmann::json ImportReport::toJson(const RunView& run) const
{
    nlohmann::json out { { "spansRead", spansRead }, { "sqsCalls", sqsCalls }, { "messages", messages },
        { "inferredEvents", inferredEvents }, { "notJoined", notJoined },
        { "queuesWithDefaults", queuesWithDefaults } };
    nlohmann::json list = nlohmann::json::array();
    for (const auto& c : contradictions)
        list.push_back({ { "atMs", c.at }, { "message", formatMessageId(run.messageIdParts(c.lane)) },
            { "what", c.what }, { "span", c.origin } });
    out["contradictions"] = std::move(list);
    return out;
}

std::string ImportReport::text(const RunView& run) const
{
    const auto counted
        = [](size_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); };
    std::string out = "imported " + counted(sqsCalls, "SQS span", "SQS spans") + " of " + std::to_string(spansRead)
        + ": " + counted(messages, "message", "messages") + ", " + counted(inferredEvents, "event", "events")
        + " inferred from the queues' settings\n";
    for (const auto& [what, count] : notJoined) // `what` names them in the plural: the count goes after it
        out += "not drawn: " + what + ": " + std::to_string(count) + "\n";
    for (const auto& c : contradictions)
        out += "contradicts the settings: at " + formatDuration(c.at) + ", " + laneName(run, c.lane) + " " + c.what
            + " (" + c.origin + ")\n";
    for (const std::string& queue : queuesWithDefaults)
        out += queue
            + ": no settings given, SQS's defaults assumed (VisibilityTimeout 30 s, retention 4 days, no "
              "dead-letter queue); give --attributes, --template, --terraform or --queue-url\n";
    return out;
}

} // namespace lifeline::import
