#include "lifeline/analysis/summary.h"

#include "lifeline/analysis/moments.h"
#include "lifeline/run/event_text.h"
#include "lifeline/run/fault_kind.h"
#include "lifeline/support/duration.h"
#include "lifeline/timeline/depth_series.h"

#include <optional>

namespace lifeline::analysis {

nlohmann::json RunSummary::toJson() const
{
    nlohmann::json consumersJson = nlohmann::json::array();
    for (const auto& c : consumers)
        consumersJson.push_back({ { "name", c.name }, { "received", c.received }, { "finished", c.finished },
            { "failed", c.failed }, { "heldAtCrash", c.heldAtCrash } });
    nlohmann::json queuesJson = nlohmann::json::object();
    for (const auto& [name, q] : queues)
        queuesJson[name] = { { "sent", q.sent }, { "received", q.received }, { "deleted", q.deleted } };
    nlohmann::json producersJson = nlohmann::json::object();
    for (const auto& [name, p] : producers)
        producersJson[name] = { { "sent", p.sent }, { "received", p.received }, { "longestWaitMs", p.longestWaitMs } };
    nlohmann::json momentsJson = nlohmann::json::array();
    for (const auto& m : moments)
        momentsJson.push_back({ { "at", double(m.at) / 1000.0 }, { "lane", m.lane }, { "caption", m.caption } });
    nlohmann::json out {
        { "until", double(until) / 1000.0 },
        { "sent", sent },
        { "received", received },
        { "deleted", deleted },
        { "duplicates", duplicates },
        { "deadLettered", deadLettered },
        { "expired", expired },
        { "emptyReceives", emptyReceives },
        { "alarmsFired", alarmsFired },
        { "firstAlarmMs", firstAlarmMs },
        { "requests", requests },
        { "billedRequests", billedRequests },
        { "longestWaitMs", longestWaitMs },
        { "shortestWaitMs", shortestWaitMs },
        { "longestToDeleteMs", longestToDeleteMs },
        { "longestToDlqMs", longestToDlqMs },
        { "peakWorking", peakWorking },
        { "errorsByCode", errorsByCode },
        { "faultsByKind", faultsByKind },
        { "peakDepth",
            { { "visible", peak.visible }, { "inFlight", peak.inFlight }, { "delayed", peak.delayed },
                { "deadLetterQueues", peak.deadLetterQueues } } },
        { "consumers", consumersJson },
        { "queues", queuesJson },
        { "producers", producersJson },
        { "warnings", warnings },
        { "moments", momentsJson },
    };
    if (!steps.empty()) {
        nlohmann::json stepsJson = nlohmann::json::array();
        for (const auto& step : steps)
            stepsJson.push_back({ { "at", double(step.at) / 1000.0 }, { "as", step.as }, { "call", step.call },
                { "answer", step.answer } });
        out["steps"] = stepsJson;
    }
    return out;
}

std::string RunSummary::claim() const
{
    std::string text;
    const auto add = [&text](int64_t n, const char* one, const char* many) {
        if (n <= 0)
            return;
        text += (text.empty() ? "" : " \u00b7 ") + std::to_string(n) + " " + (n == 1 ? one : many);
    };
    add(duplicates, "duplicate processing", "duplicate processings");
    add(deadLettered, "moved to a DLQ", "moved to a DLQ");
    add(expired, "expired", "expired");
    int64_t refused = 0;
    for (const auto& [code, count] : errorsByCode)
        refused += count;
    add(refused, "refused request", "refused requests");
    if (text.empty() && emptyReceives >= 10 * std::max<int64_t>(1, received))
        add(emptyReceives, "empty receive", "empty receives");
    int64_t injected = 0;
    for (const auto& [kind, count] : faultsByKind)
        injected += count;
    add(injected, "fault injected", "faults injected");
    if (text.empty())
        add(deleted, "deleted, none twice", "deleted, none twice");
    return text;
}

std::string FigureChange::text() const
{
    const bool duration = figure.ends_with("Ms");
    const auto value = [duration](int64_t v) { return duration ? describeDuration(v) : std::to_string(v); };
    return label + " " + value(asWritten) + " \u2192 " + value(fixed);
}

namespace {

std::vector<FigureChange> figuresOf(const RunSummary& a, const RunSummary& b)
{
    const auto errors = [](const RunSummary& s) {
        int64_t n = 0;
        for (const auto& [code, count] : s.errorsByCode)
            n += count;
        return n;
    };
    return {
        { "duplicates", "duplicate processings", a.duplicates, b.duplicates },
        { "deadLettered", "moved to a DLQ", a.deadLettered, b.deadLettered },
        { "expired", "expired", a.expired, b.expired },
        { "errors", "refused requests", errors(a), errors(b) },
        { "received", "receives", a.received, b.received },
        { "emptyReceives", "empty receives", a.emptyReceives, b.emptyReceives },
        { "alarmsFired", "alarms fired", a.alarmsFired, b.alarmsFired },
        { "requests", "requests", a.requests, b.requests },
        { "billedRequests", "billed requests", a.billedRequests, b.billedRequests },
        { "deleted", "deleted", a.deleted, b.deleted },
        { "sent", "sent", a.sent, b.sent },
        { "longestWaitMs", "longest wait from send to first receive", a.longestWaitMs, b.longestWaitMs },
        { "shortestWaitMs", "shortest wait from send to first receive", a.shortestWaitMs, b.shortestWaitMs },
        { "longestToDeleteMs", "longest from send to delete", a.longestToDeleteMs, b.longestToDeleteMs },
        { "longestToDlqMs", "longest from send to a dead-letter queue", a.longestToDlqMs, b.longestToDlqMs },
        { "moments", "key moments", int64_t(a.moments.size()), int64_t(b.moments.size()) },
    };
}

// One producer's figure ("producers.NAME.longestWaitMs"): its name may hold dots, its figure's key does not.
std::optional<FigureChange> producerFigure(const RunSummary& a, const RunSummary& b, const std::string& measure)
{
    static const std::string prefix = "producers.";
    const size_t dot = measure.rfind('.');
    if (!measure.starts_with(prefix) || dot <= prefix.size())
        return std::nullopt;
    const std::string name = measure.substr(prefix.size(), dot - prefix.size());
    const std::string key = measure.substr(dot + 1);
    const auto figure = [&](const RunSummary& s) -> int64_t {
        const auto it = s.producers.find(name);
        if (it == s.producers.end())
            return 0;
        return key == "sent" ? it->second.sent : key == "received" ? it->second.received : it->second.longestWaitMs;
    };
    if (key == "sent")
        return FigureChange { measure, name + "'s messages sent", figure(a), figure(b) };
    if (key == "received")
        return FigureChange { measure, name + "'s messages received", figure(a), figure(b) };
    if (key == "longestWaitMs")
        return FigureChange { measure, name + "'s longest wait from send to first receive", figure(a), figure(b) };
    return std::nullopt;
}

} // namespace

const std::vector<std::string>& comparedFigures()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& f : figuresOf({}, {}))
            out.push_back(f.figure);
        return out;
    }();
    return names;
}

bool isComparedFigure(const std::string& figure)
{
    const auto& names = comparedFigures();
    return std::find(names.begin(), names.end(), figure) != names.end() || producerFigure({}, {}, figure).has_value();
}

std::string RunSummary::measureClaim(const std::string& measure, const std::string& label) const
{
    if (const auto f = producerFigure(*this, *this, measure)) {
        const std::string words = label.empty() ? f->label : label;
        if (!f->figure.ends_with("Ms"))
            return words + ": " + std::to_string(f->asWritten);
        const std::string name = measure.substr(10, measure.rfind('.') - 10);
        const bool measured = producers.contains(name) && producers.at(name).received > 0;
        return words + ": " + (measured ? describeDuration(f->asWritten) : std::string("not yet"));
    }
    for (const FigureChange& f : figuresOf(*this, *this)) {
        if (f.figure != measure)
            continue;
        const std::string words = label.empty() ? f.label : label;
        if (!f.figure.ends_with("Ms"))
            return words + ": " + std::to_string(f.asWritten);
        // A time is measured once what it ends with has happened at least once.
        const bool measured = f.figure == "longestToDeleteMs" ? deleted > 0
            : f.figure == "longestToDlqMs"                    ? deadLettered > 0
                                                              : received > 0;
        return words + ": " + (measured ? describeDuration(f.asWritten) : std::string("not yet"));
    }
    return claim();
}

std::vector<FigureChange> compareSummaries(
    const RunSummary& a, const RunSummary& b, const std::string& measure, const std::string& measureLabel)
{
    std::vector<FigureChange> changed;
    if (auto f = producerFigure(a, b, measure)) {
        f->label = measureLabel.empty() ? f->label : measureLabel;
        changed.push_back(*f);
    }
    // Every fix changes the calls a run makes a little: what they cost is told only where it is the lesson's point.
    const auto costOnly = [](const FigureChange& f) { return f.figure == "requests" || f.figure == "billedRequests"; };
    for (auto& f : figuresOf(a, b)) {
        if (f.figure == measure) {
            f.label = measureLabel.empty() ? f.label : measureLabel;
            changed.insert(changed.begin(), f);
        } else if (f.asWritten != f.fixed && (!costOnly(f) || measure == "requests" || measure == "billedRequests")) {
            changed.push_back(f);
        }
    }
    return changed;
}

nlohmann::json comparisonJson(const RunSummary& asWritten, const RunSummary& fixed, const std::string& measure)
{
    nlohmann::json differences = nlohmann::json::array();
    for (const auto& change : compareSummaries(asWritten, fixed, measure))
        differences.push_back(
            { { "figure", change.figure }, { "asWritten", change.asWritten }, { "fixed", change.fixed } });
    return { { "asWritten", asWritten.toJson() }, { "fixed", fixed.toJson() }, { "differences", differences } };
}

namespace {
// Peak depth by state: the depth series keeps each bucket's peak, so its largest bucket is the run's peak.
RunSummary::Peak peakOf(const RunView& engine)
{
    RunSummary::Peak peak;
    DepthSeries depth(2, std::max<TimeMs>(1, engine.now() + 1));
    depth.sync(engine);
    for (const DepthSample& b : depth.buckets()) {
        peak.visible = std::max<int64_t>(peak.visible, b.visible);
        peak.inFlight = std::max<int64_t>(peak.inFlight, b.inFlight);
        peak.delayed = std::max<int64_t>(peak.delayed, b.delayed);
        peak.deadLetterQueues = std::max<int64_t>(peak.deadLetterQueues, b.deadLetter);
    }
    return peak;
}

// The most actors at work at once: an actor is at work while it works on any message (a batch is one invocation's).
int64_t peakWorkingOf(const RunView& engine)
{
    std::map<uint32_t, int64_t> workingOn; // messages each actor is working on
    int64_t atWork = 0, peak = 0;
    const auto stops = [&](uint32_t actor, bool all) {
        auto it = workingOn.find(actor);
        if (it == workingOn.end() || it->second == 0)
            return; // a throttled batch was never worked on
        it->second = all ? 0 : it->second - 1;
        atWork -= it->second == 0;
    };
    const EventLog& log = engine.log();
    for (size_t i = log.firstRetained(); i < log.size(); ++i) {
        const Event& e = log[i];
        if (e.cause == Cause::ProcessingStarted && workingOn[e.actor]++ == 0)
            peak = std::max(peak, ++atWork);
        else if (e.cause == Cause::ProcessingFinished || e.cause == Cause::ProcessingFailed)
            stops(e.actor, false);
        else if (e.cause == Cause::ConsumerCrashed)
            stops(e.actor, true);
    }
    return peak;
}

// A script's step as its event tells it: "ChangeMessageVisibility m1 VisibilityTimeout=43200: OK".
RunSummary::StepLine stepOf(const RunView& engine, const Event& e)
{
    const std::string& text = engine.log().text(e.textIndex());
    const size_t space = text.find(' ');
    return { e.time, engine.actorName(e.actor), text.substr(0, space),
        space == std::string::npos ? std::string() : text.substr(space + 1) };
}
// The waits from a send to its first receive: the run's longest and shortest, and each producer's (ProducerFigures,
// with its sends). A producer's message still waiting at the end has waited at least until then: a tenant starved to
// the end of the run is not one that never waited.
class Waits {
public:
    Waits(const RunView& engine, RunSummary& s)
        : m_engine(engine)
        , m_s(s)
    {
    }
    void sent(const Event& e)
    {
        if (e.actor < kFirstActor)
            return; // SQS's own (a redrive) or the operator's
        ++m_s.producers[m_engine.actorName(e.actor)].sent;
        if (m_senderOf.size() <= e.message)
            m_senderOf.resize(size_t(e.message) + 1, 0);
        m_senderOf[e.message] = e.actor;
    }
    void firstReceive(const Event& e)
    {
        const TimeMs wait = e.time - m_engine.times(e.message).sentAt;
        m_s.longestWaitMs = std::max(m_s.longestWaitMs, wait);
        m_shortest = std::min(m_shortest, wait);
        if (e.message >= m_senderOf.size() || m_senderOf[e.message] == 0)
            return;
        ProducerFigures& p = m_s.producers[m_engine.actorName(m_senderOf[e.message])];
        ++p.received;
        p.longestWaitMs = std::max(p.longestWaitMs, wait);
        m_senderOf[e.message] = 0; // its wait is counted
    }
    void finish()
    {
        m_s.shortestWaitMs = m_shortest == INT64_MAX ? 0 : m_shortest;
        for (MessageIndex lane = 0; lane < m_senderOf.size(); ++lane) {
            if (m_senderOf[lane] == 0 || m_engine.forgotten(lane) || !isLive(m_engine.message(lane).state))
                continue;
            ProducerFigures& p = m_s.producers[m_engine.actorName(m_senderOf[lane])];
            p.longestWaitMs = std::max(p.longestWaitMs, m_s.until - m_engine.times(lane).sentAt);
        }
    }

private:
    const RunView& m_engine;
    RunSummary& m_s;
    std::vector<uint32_t> m_senderOf; // by lane: who sent it, until its first receive (0: none, or counted)
    TimeMs m_shortest = INT64_MAX;
};
} // namespace

namespace {
// What the run said rather than did: its warnings, alarms, scripted steps and refusals.
void readNote(const RunView& engine, const Event& e, RunSummary& s)
{
    const EventLog& log = engine.log();
    switch (e.cause) {
    case Cause::Warning:
        s.warnings.push_back(log.text(e.textIndex()));
        break;
    case Cause::AlarmFired:
        if (s.alarmsFired++ == 0)
            s.firstAlarmMs = e.time;
        break;
    case Cause::ScriptedCall:
        s.steps.push_back(stepOf(engine, e));
        break;
    case Cause::RequestRefused: {
        const std::string& text = log.text(e.textIndex());
        ++s.errorsByCode[text.substr(0, text.find(':'))];
        break;
    }
    case Cause::InjectedCopy:
        ++s.faultsByKind[faultWords(FaultKind::Duplicate).id];
        break;
    case Cause::FaultInjected:
        if (e.detail < uint32_t(FaultKind::Count))
            ++s.faultsByKind[faultWords(FaultKind(e.detail)).id];
        break;
    default:
        break;
    }
}
} // namespace

RunSummary summarizeLog(const RunView& engine)
{
    RunSummary s;
    s.until = engine.now();
    s.peak = peakOf(engine);
    s.peakWorking = peakWorkingOf(engine);
    // Consumers, as far as the log tells: every actor that received a message, in the order they first did.
    std::map<uint32_t, size_t> consumerOf;
    const auto consumer = [&](uint32_t actor) -> ConsumerSummary& {
        auto [it, added] = consumerOf.emplace(actor, s.consumers.size());
        if (added)
            s.consumers.push_back(ConsumerSummary { engine.actorName(actor), 0, 0, 0, 0 });
        return s.consumers[it->second];
    };
    const EventLog& log = engine.log();
    Waits waits(engine, s);
    for (size_t i = log.firstRetained(); i < log.size(); ++i) { // what a bounded history still holds
        const Event& e = log[i];
        switch (e.cause) {
        case Cause::Send:
            ++s.sent;
            ++s.queues[engine.queueInfo(e.queue).name].sent;
            waits.sent(e);
            break;
        case Cause::Receive:
            ++s.received;
            ++s.queues[engine.queueInfo(e.queue).name].received;
            if (e.receiveNumber() == 1)
                waits.firstReceive(e);
            if (e.actor >= kFirstActor)
                ++consumer(e.actor).received;
            break;
        case Cause::Delete:
            ++s.deleted;
            ++s.queues[engine.queueInfo(e.queue).name].deleted;
            s.longestToDeleteMs = std::max(s.longestToDeleteMs, e.time - engine.times(e.message).sentAt);
            break;
        case Cause::MoveToDlq:
            ++s.deadLettered;
            s.longestToDlqMs = std::max(s.longestToDlqMs, e.time - engine.times(e.message).sentAt);
            break;
        case Cause::Expiry:
            ++s.expired;
            break;
        case Cause::PollEnded:
            s.emptyReceives += e.messagesReturned() == 0;
            break;
        case Cause::ProcessingStarted:
            s.duplicates += e.duplicate();
            break;
        case Cause::ProcessingFinished:
            if (consumerOf.count(e.actor) && !e.repeatSkipped()) // a repeat skipped was not processed
                ++consumer(e.actor).finished;
            break;
        case Cause::ProcessingFailed:
            if (consumerOf.count(e.actor))
                ++consumer(e.actor).failed;
            break;
        case Cause::ConsumerCrashed:
            if (consumerOf.count(e.actor))
                consumer(e.actor).heldAtCrash += e.heldMessages();
            break;
        default:
            readNote(engine, e, s);
            break;
        }
    }
    waits.finish();
    return s;
}

std::string momentLaneLabel(const RunView& engine, const Moment& moment)
{
    if (moment.onActorRow)
        return engine.actorName(moment.actor);
    if (moment.lane != kNoMessage)
        return engine.messageId(moment.lane).substr(0, 8);
    return moment.queue != kNoQueue ? engine.queueInfo(moment.queue).name : std::string();
}

} // namespace lifeline::analysis
