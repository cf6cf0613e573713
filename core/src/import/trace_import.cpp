#include "lifeline/import/trace_import.h"

#include "lifeline/run/lane_name.h"
#include "lifeline/support/duration.h"

#include <algorithm>
#include <deque>
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

// A span as the import holds it: `pending` calls of it not yet played (it is let go only when none is), and the
// time played up to when it came (a live import lets it go a minute of the spans' time later).
struct HeldSpan {
    Span span;
    int64_t heldFromMs = 0;
    uint32_t pending = 0;
};

// What the Observer is told, in the order SQS did it. At one instant: polls begin, sends land, receives answer,
// process spans claim what was received, deletes and changes come last (each needs what came before).
struct Action {
    enum What : uint8_t { PollStart, Send, Receive, ProcessStart, Delete, ProcessEnd } what;
    int64_t at; // ms since 1970
    uint64_t seq; // the span's place among the spans added: ties keep it
    HeldSpan* held;
    const Span& span() const { return held->span; }
    std::string queue; // empty: a delete's, taken from its process span when it is played
    std::vector<std::string> ids;
};

// Once a live import has played a span, how long it keeps it for a call below it that comes in late.
constexpr int64_t kSpanGraceMs = 60000;

} // namespace

class TraceImport::Importer {
public:
    Importer(QueueSettings settings, observe::ObserverOptions options)
        : m_settings(std::move(settings))
        , m_options(options)
        , m_observer(std::make_unique<observe::Observer>(0, options)) // its run is shown before the first span comes
    {
    }

    void add(std::vector<Span> spans)
    {
        m_report.spansRead += spans.size();
        const size_t first = m_spans.size();
        for (Span& span : spans) {
            HeldSpan& held = m_spans.emplace_back();
            held.span = std::move(span);
            held.heldFromMs = m_playedMs;
            // 64 random bits: the trace is checked when a parent is looked up
            m_byId.emplace(held.span.spanId, &held.span);
        }
        std::vector<Action> actions;
        for (size_t i = first; i < m_spans.size(); ++i)
            collect(m_spans[i], actions);
        std::ranges::move(actions, std::back_inserter(m_pending));
    }

    void playUntil(int64_t atMs)
    {
        // The run's time 0 is the earliest call come in before the first is played: a live import's first requests may
        // come in any order (a file holds its spans in any order too).
        if (!m_started && std::ranges::any_of(m_pending, [&](const Action& a) { return a.at <= atMs; }))
            start(m_pending);
        const auto due
            = std::stable_partition(m_pending.begin(), m_pending.end(), [&](const Action& a) { return a.at <= atMs; });
        std::vector<Action> now(std::make_move_iterator(m_pending.begin()), std::make_move_iterator(due));
        m_pending.erase(m_pending.begin(), due);
        std::ranges::stable_sort(now, [](const Action& a, const Action& b) {
            return a.at != b.at ? a.at < b.at : a.what != b.what ? a.what < b.what : a.seq < b.seq;
        });
        for (const Action& action : now) // each queue's settings, before its first call is played
            if (!action.queue.empty() && std::ranges::find(m_queueNames, action.queue) == m_queueNames.end())
                applySettings(action.queue);
        for (const Action& action : now) {
            m_observer->advanceTo(std::max<TimeMs>(action.at - m_epochMs, m_observer->run().now()));
            play(action);
            --action.held->pending;
        }
        m_playedMs = std::max(m_playedMs, atMs);
        if (m_started) {
            m_observer->advanceTo(std::max<TimeMs>(m_playedMs - m_epochMs, m_observer->run().now()));
            m_observer->forgetHistory();
        }
        if (m_options.historyMs >= 0)
            letGoOfSpans();
    }

    void finish() { playUntil(m_latestEndMs); }

    const RunView& run() const { return m_observer->run(); }

    ImportReport report() const
    {
        ImportReport report = m_report;
        const RunView& view = run();
        report.messages = view.messageCount();
        for (size_t i = view.log().firstRetained(); i < view.log().size(); ++i) // what the history keeps
            report.inferredEvents += view.log()[i].inferred() ? 1 : 0;
        report.contradictions = m_observer->contradictions();
        for (const auto& [queue, count] : m_pendingWithoutId)
            if (count > 0)
                report.notJoined["received messages with no MessageId (no link to their send, no process span)"]
                    += count;
        return report;
    }

    int64_t epochMs() const { return m_epochMs; }
    int64_t latestEndMs() const { return m_latestEndMs; }
    size_t waiting() const { return m_pending.size(); }
    size_t spansHeld() const { return m_spans.size(); }

    ImportedRun take()
    {
        ImportedRun imported;
        imported.report = report();
        imported.epochMs = m_epochMs;
        imported.observer = std::move(m_observer);
        return imported;
    }

private:
    static int64_t ms(int64_t ns) { return ns / 1000000; }

    void start(const std::vector<Action>& actions)
    {
        int64_t epochNs = INT64_MAX;
        for (const Action& a : actions)
            epochNs = std::min(epochNs, a.span().startNs);
        m_epochMs = ms(epochNs);
        m_observer->setEpochMs(m_epochMs);
        m_started = true;
    }

    void letGoOfSpans()
    {
        while (!m_spans.empty() && m_spans.front().pending == 0
            && m_spans.front().heldFromMs + kSpanGraceMs < m_playedMs) {
            const Span& span = m_spans.front().span;
            if (const auto it = m_byId.find(span.spanId); it != m_byId.end() && it->second == &span)
                m_byId.erase(it);
            m_spans.pop_front();
        }
    }

    void notJoined(const std::string& what, size_t count = 1)
    {
        if (count > 0)
            m_report.notJoined[what] += count;
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

    void collect(HeldSpan& held, std::vector<Action>& actions)
    {
        const Span& span = held.span;
        if (!isSqsSpan(span))
            return;
        const auto op = operationOf(span);
        if (!op || *op == Op::Other)
            return;
        const bool deletes = *op == Op::Delete || *op == Op::DeleteBatch;
        std::string queue = queueOf(span);
        if (queue.empty() && *op == Op::ChangeVisibility)
            if (const Span* above = spanAbove(span))
                queue = queueOf(*above);
        // A call that names no queue (the Java instrumentation's DeleteMessage, unless its experimental attributes
        // are on) takes its process span's when it is played: by then a live import has that span too.
        if (queue.empty() && !deletes) {
            notJoined("SQS spans that name no queue");
            return;
        }
        if (!queue.empty())
            ++m_report.sqsCalls;
        const uint64_t seq = m_seq++;
        const auto add = [&](Action::What what, int64_t ns, std::vector<std::string> ids) {
            actions.push_back({ what, ms(ns), seq, &held, queue, std::move(ids) });
            ++held.pending;
            m_latestEndMs = std::max(m_latestEndMs, ms(span.endNs));
        };
        collectSpan(span, *op, add);
    }

    // One SQS span's actions, through `add(what, at, ids)`; what it cannot tie to a message, counted.
    template <class Add> void collectSpan(const Span& span, Op op, const Add& add)
    {
        std::vector<std::string> ids = idsOf(span.attributes);
        switch (op) {
        case Op::Send:
        case Op::SendBatch:
            if (ids.empty() && !span.failed)
                notJoined(op == Op::SendBatch ? "batch sends with no MessageIds in their spans"
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
            notJoined("visibility changes (their new timeout is not in the trace)");
            break;
        case Op::Delete:
        case Op::DeleteBatch:
            add(Action::Delete, span.startNs, std::move(ids)); // a message named above it is looked for when played
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

    // A queue the trace names, given its settings (and its dead-letter queue, named by its policy, in turn).
    void applySettings(const std::string& first)
    {
        std::vector<std::string> names { first };
        for (size_t i = 0; i < names.size(); ++i) {
            if (std::ranges::find(m_queueNames, names[i]) != m_queueNames.end())
                continue;
            m_queueNames.push_back(names[i]);
            const AttributeMap* attributes = settingsOf(names[i]);
            if (!attributes) {
                m_report.queuesWithDefaults.push_back(names[i]);
                m_observer->noteAttributes(names[i], {});
                continue;
            }
            m_observer->noteAttributes(names[i], *attributes);
            const auto& policy
                = m_observer->run().queueAttributes(*m_observer->run().queueIndex(names[i]))->redrivePolicy;
            if (policy)
                names.push_back(policy->deadLetterTargetArn.substr(policy->deadLetterTargetArn.rfind(':') + 1));
        }
    }

    static std::string serviceOf(const Span& span)
    {
        return span.service.empty() || span.service.starts_with("unknown_service") ? "client" : span.service;
    }

    // A service's rows: its first for its calls, one more for each piece of work going on at once (a consumer with
    // several workers), so no two work boxes share a row ("orders-app", "orders-app 2", ...; one group).
    struct ServiceRows {
        std::vector<uint32_t> actors;
        std::vector<uint32_t> going; // work going on per row
    };

    ServiceRows& rowsOf(const Span& span)
    {
        const std::string name = serviceOf(span);
        ServiceRows& rows = m_services[name];
        if (rows.actors.empty()) {
            rows.actors.push_back(m_observer->addActor(name, name));
            rows.going.push_back(0);
        }
        return rows;
    }

    uint32_t actorFor(const Span& span) { return rowsOf(span).actors.front(); }

    // The row a process span's work goes on: the service's first with none going on, else a new one.
    uint32_t workerFor(const Span& span)
    {
        ServiceRows& rows = rowsOf(span);
        size_t row = 0;
        while (row < rows.actors.size() && rows.going[row] > 0)
            ++row;
        if (row == rows.actors.size()) {
            const std::string name = serviceOf(span);
            rows.actors.push_back(m_observer->addActor(name + " " + std::to_string(row + 1), name));
            rows.going.push_back(0);
        }
        ++rows.going[row];
        m_workRow[&span] = row;
        return rows.actors[row];
    }

    // The row its process span's work went on, free again.
    uint32_t workerDone(const Span& span)
    {
        ServiceRows& rows = rowsOf(span);
        const auto started = m_workRow.find(&span);
        if (started == m_workRow.end())
            return rows.actors.front();
        const size_t row = started->second;
        m_workRow.erase(started);
        rows.going[row] -= rows.going[row] > 0 ? 1 : 0;
        return rows.actors[row];
    }

    // What the import keeps of a message (by queue and MessageId): its latest receipt, and its consumers' work.
    struct Track {
        std::string latestHandle; // the latest receive's (empty: none seen)
        bool unclaimed = false; // a receive returned it and no process span has taken it yet
        bool latestDeleted = false; // the latest receipt was deleted (a process span's end and its DeleteMessage)
        uint32_t going = 0; // process spans of the message begun and not ended
        bool finished = false; // one ended without an error
        TimeMs touched = 0;
    };

    Track& track(const std::string& queue, const std::string& id)
    {
        Track& t = m_tracks[queue + '\n' + id];
        t.touched = m_observer->run().now();
        return t;
    }

    // With a bounded history, what the import keeps of messages it has not heard of for longer is let go too.
    void forgetTracks()
    {
        if (m_options.historyMs < 0 || m_observer->run().now() < m_nextTrackSweep)
            return;
        m_nextTrackSweep = m_observer->run().now() + 1000;
        const TimeMs before = m_observer->run().now() - m_options.historyMs - kSpanGraceMs;
        std::erase_if(m_tracks, [&](const auto& entry) { return entry.second.touched < before; });
    }

    void receive(const Action& action, const std::vector<std::string>& ids, uint32_t actor, bool claimed)
    {
        ObservedCall call;
        call.action = "ReceiveMessage";
        call.known = SqsAction::ReceiveMessage;
        call.queue = action.queue;
        call.ok = claimed || !action.span().failed; // a process span that failed is the consumer's work failing
        call.origin = originOf(action.span());
        // A receive span's answer came somewhere in it; a process span standing for its receive starts at it.
        call.uncertainMs = claimed ? 0 : ms(action.span().endNs) - ms(action.span().startNs);
        if (!claimed)
            refusal(call, action.span());
        for (const std::string& id : ids) {
            const std::string handle = "imported-" + std::to_string(++m_handles);
            call.received.push_back({ id, handle, {}, std::nullopt, std::nullopt });
            Track& t = track(action.queue, id);
            t.latestHandle = handle;
            t.latestDeleted = false;
            t.unclaimed = t.unclaimed || !claimed;
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

    void play(const Action& action)
    {
        forgetTracks();
        const uint32_t actor = actorFor(action.span());
        switch (action.what) {
        case Action::PollStart:
            m_observer->pollStarted(action.queue, actor);
            break;
        case Action::Send: {
            ObservedCall call;
            call.action = "SendMessage";
            call.known = SqsAction::SendMessage;
            call.queue = action.queue;
            call.ok = !action.span().failed;
            call.origin = originOf(action.span());
            refusal(call, action.span());
            for (const std::string& id : action.ids)
                call.sent.push_back({ id, std::nullopt, {}, {} });
            m_observer->observe(call, actor);
            break;
        }
        case Action::Receive:
            receive(action, action.ids, actor, false);
            if (const auto without = m_withoutIdBySpan.find(&action.span()); without != m_withoutIdBySpan.end()) {
                m_pendingWithoutId[action.queue] += without->second; // their process spans may name them
                m_withoutIdBySpan.erase(without);
            }
            break;
        case Action::ProcessStart: {
            const uint32_t worker = workerFor(action.span());
            // The receive a process span belongs to, when one returned its message and no process span took it yet;
            // else the process span is all the trace has of that receive (boto3sqs, Java): it is the receive.
            if (!std::exchange(track(action.queue, action.ids.front()).unclaimed, false)) {
                receive(action, action.ids, worker, true);
                if (m_pendingWithoutId[action.queue] > 0)
                    --m_pendingWithoutId[action.queue]; // one a receive span counted without its id
            }
            // Another process span of the message going on or finished before: a duplicate processing (◆).
            Track& work = track(action.queue, action.ids.front());
            m_observer->noteWork(action.queue, action.ids.front(), Cause::ProcessingStarted, worker,
                Event::processingStart(work.going > 0 || work.finished, 0));
            ++work.going;
            break;
        }
        case Action::ProcessEnd: {
            Track& work = track(action.queue, action.ids.front());
            work.going -= work.going > 0 ? 1 : 0;
            work.finished = work.finished || !action.span().failed;
            m_observer->noteWork(action.queue, action.ids.front(),
                action.span().failed ? Cause::ProcessingFailed : Cause::ProcessingFinished, workerDone(action.span()),
                action.span().failed ? uint32_t(FailureKind::Threw) : 0);
            break;
        }
        case Action::Delete:
            playDelete(action, actor);
            break;
        }
    }

    // A delete names its message, or takes it (and its queue, when it names none) from the process span above it.
    void playDelete(const Action& action, uint32_t actor)
    {
        const Span& span = action.span();
        const bool batch = operationOf(span) == Op::DeleteBatch;
        std::string queue = action.queue;
        if (queue.empty()) {
            if (const Span* above = spanAbove(span))
                queue = queueOf(*above);
            if (queue.empty())
                return notJoined("SQS spans that name no queue");
            ++m_report.sqsCalls;
            if (std::ranges::find(m_queueNames, queue) == m_queueNames.end())
                applySettings(queue);
        }
        std::vector<std::string> ids = action.ids;
        if (ids.empty())
            if (auto above = messageAbove(span))
                ids.push_back(std::move(*above));
        if (ids.empty())
            return notJoined(batch ? "batch deletes with no message named above them"
                                   : "deletes with no message named above them (no process span of one message is "
                                     "their parent)");
        ObservedCall call;
        call.action = "DeleteMessage";
        call.known = SqsAction::DeleteMessage;
        call.queue = queue;
        call.ok = !span.failed;
        call.origin = originOf(span);
        refusal(call, span);
        for (const std::string& id : ids) {
            Track& t = track(queue, id);
            if (t.latestHandle.empty()) {
                notJoined("deletes of messages the trace never shows received");
                continue;
            }
            if (std::exchange(t.latestDeleted, true))
                continue; // the same delete seen twice (a process span's end and its DeleteMessage span)
            call.handles.push_back({ t.latestHandle, 0 });
        }
        if (!call.handles.empty() || !call.ok)
            m_observer->observe(call, actor);
    }

    QueueSettings m_settings;
    observe::ObserverOptions m_options;
    ImportReport m_report;
    std::unique_ptr<observe::Observer> m_observer;
    bool m_started = false; // an SQS span came: the run's time 0 is the first one's start
    int64_t m_epochMs = 0;
    int64_t m_latestEndMs = 0;
    int64_t m_playedMs = INT64_MIN;
    std::deque<HeldSpan> m_spans; // in the order they came
    std::unordered_map<std::string_view, const Span*> m_byId; // views of the spans' own ids
    std::vector<Action> m_pending; // calls not yet played
    std::vector<std::string> m_queueNames; // queues given their settings
    uint64_t m_seq = 0;
    std::map<std::string, ServiceRows> m_services;
    std::unordered_map<const Span*, size_t> m_workRow; // a process span going on: its service's row
    std::unordered_map<std::string, Track> m_tracks; // by queue and MessageId
    TimeMs m_nextTrackSweep = 0;
    std::map<const Span*, size_t> m_withoutIdBySpan; // a receive span's messages it names no id of
    std::map<std::string, size_t> m_pendingWithoutId; // per queue: received, no id, no process span naming them yet
    uint64_t m_handles = 0;
};

TraceImport::TraceImport(QueueSettings settings, observe::ObserverOptions options)
    : m_importer(std::make_unique<Importer>(std::move(settings), options))
{
}

TraceImport::~TraceImport() = default;

void TraceImport::add(std::vector<Span> spans)
{
    m_importer->add(std::move(spans));
}
void TraceImport::playUntil(int64_t atMs)
{
    m_importer->playUntil(atMs);
}
void TraceImport::finish()
{
    m_importer->finish();
}
const RunView& TraceImport::run() const
{
    return m_importer->run();
}
ImportReport TraceImport::report() const
{
    return m_importer->report();
}
int64_t TraceImport::epochMs() const
{
    return m_importer->epochMs();
}
int64_t TraceImport::latestEndMs() const
{
    return m_importer->latestEndMs();
}
size_t TraceImport::waiting() const
{
    return m_importer->waiting();
}
size_t TraceImport::spansHeld() const
{
    return m_importer->spansHeld();
}
ImportedRun TraceImport::take()
{
    return m_importer->take();
}

ImportedRun importSpans(std::vector<Span> spans, const QueueSettings& settings)
{
    TraceImport import(settings);
    import.add(std::move(spans));
    import.finish();
    return import.take();
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
