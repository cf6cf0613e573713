#include "lifeline/io/run_file.h"

#include "cbor_head.h"
#include "lifeline/run/fault_kind.h"
#include "lifeline/support/duration.h"
#include "run_columns.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace lifeline {

namespace {
constexpr const char* kFormat = "lifeline-run";
// Version 3: the events and the lanes as compressed columns (run_columns.h), "format" and "version" first.
// Version 2: every event and lane a CBOR array; actor 0 is SQS and actor 1 the operator (version 1 had one actor 0
// for both). All three are read.
constexpr int kVersion = 3;
const char* kSettable[] = { "DelaySeconds", "VisibilityTimeout", "MessageRetentionPeriod", "MaximumMessageSize",
    "ReceiveMessageWaitTimeSeconds", "RedrivePolicy", "RedriveAllowPolicy", "ContentBasedDeduplication",
    "DeduplicationScope", "FifoThroughputLimit", "SqsManagedSseEnabled", "KmsMasterKeyId",
    "KmsDataKeyReusePeriodSeconds", "Policy" };
} // namespace

namespace {
nlohmann::json queuesOf(const RunView& run)
{
    nlohmann::json out = nlohmann::json::array();
    for (size_t index = 0; index < run.queueCount(); ++index) {
        const QueueInfo& q = run.queueInfo(QueueIndex(index));
        nlohmann::json attributes = nlohmann::json::object();
        for (const char* name : kSettable)
            if (auto value = attributeValue(q.attributes, name))
                attributes[name] = *value;
        out.push_back({ { "name", q.name }, { "arn", q.arn }, { "alive", q.alive }, { "fifo", q.fifo },
            { "createdAt", q.createdAt }, { "modifiedAt", q.modifiedAt }, { "attributes", attributes },
            { "counters", { q.counters.visible, q.counters.inFlight, q.counters.delayed } } });
    }
    return out;
}
} // namespace

namespace {
// Version 1 had one actor 0 for SQS and the operator: the operator's own calls go to actor 1, the rest is SQS's;
// every other actor moves up by one.
uint32_t actorFromVersion1(uint32_t actor, Cause cause)
{
    if (actor != 0)
        return actor + 1;
    switch (cause) {
    case Cause::Send:
    case Cause::OperatorAction:
    case Cause::AttributesChanged:
    case Cause::QueueCreated:
    case Cause::QueueDeleted:
    case Cause::Purge:
    case Cause::RequestRefused:
        return kOperatorActor;
    default:
        return kSqsActor;
    }
}

void check(bool condition, const std::string& what)
{
    if (!condition)
        throw std::runtime_error(what);
}

// A whole number of type T from the file. nlohmann's get<T>() casts a floating-point value (a NaN from CBOR too)
// without a check, which is undefined behaviour: a run file's numbers must be integers in T's range.
template <class T> T whole(const nlohmann::json& value)
{
    if (!value.is_number())
        return value.get<T>(); // nlohmann's own error: "type must be number, but is string"
    check(value.is_number_integer(), "a number that must be whole is " + value.dump());
    if (value.is_number_unsigned()) {
        const auto n = value.get<uint64_t>();
        check(n <= uint64_t(std::numeric_limits<T>::max()), "a number is out of range: " + value.dump());
        return T(n);
    }
    const auto n = value.get<int64_t>();
    check(n >= int64_t(std::numeric_limits<T>::min())
            && (n < 0 || uint64_t(n) <= uint64_t(std::numeric_limits<T>::max())),
        "a number is out of range: " + value.dump());
    return T(n);
}

// How many of each thing the file holds: what an event may refer to.
struct RunSizes {
    size_t queues, messages, texts, actors;
};

// Every reference an event makes points into the file: a damaged or crafted file must not make a viewer read out
// of bounds.
void checkReferences(const Event& event, const std::string& where, const RunSizes& sizes)
{
    check(event.message == kNoMessage || event.message < sizes.messages, where + " refers to a lane the file lacks");
    check(event.queue == kNoQueue || event.queue < sizes.queues, where + " refers to a queue the file lacks");
    check(event.message == kNoMessage || event.queue != kNoQueue, where + " names a lane but no queue");
    check(event.actor < std::max<size_t>(sizes.actors, kFirstActor) || event.actor == kSqsActor,
        where + " refers to an actor the file lacks");
    check(!event.hasText() || event.textIndex() < sizes.texts, where + " refers to a text the file lacks");
    switch (event.cause) {
    case Cause::MoveToDlq:
        check(event.deadLetterQueue() < sizes.queues, where + " moves to a queue the file lacks");
        break;
    case Cause::ArriveFromDlqSource:
    case Cause::Redrive:
    case Cause::ArriveFromRedrive:
    case Cause::InjectedCopy:
        check(event.linkedLane() < sizes.messages, where + " links to a lane the file lacks");
        break;
    case Cause::FaultInjected:
        check(event.detail < uint32_t(FaultKind::Count), where + " is garbled");
        break;
    case Cause::NoEffect:
        check(event.detail <= uint32_t(NoEffectKind::DeduplicatedSend), where + " is garbled");
        break;
    case Cause::ProcessingFailed:
        check(event.detail <= uint32_t(FailureKind::InProgressElsewhere), where + " is garbled");
        break;
    case Cause::ProcessingFinished:
        check(event.detail <= 1, where + " is garbled");
        break;
    default:
        break;
    }
}
} // namespace

namespace {
// Builds a RunStore from a file's run. Every reference is checked before it is used: a damaged or crafted file must
// not make a viewer read out of bounds or loop (a DLQ chain points only backwards, so following it ends).
class RunReader {
public:
    explicit RunReader(RunStore& run)
        : m_run(run)
    {
    }
    // The actors after SQS and the operator, with their groups (files before the groups were kept: each gathered
    // by its name without a "-N" count, as the window did then).
    void readActors(const std::vector<std::string>& names, const nlohmann::json* groups);
    void read(const nlohmann::json& run, int version);

private:
    void readQueues(const nlohmann::json& queues);
    void readEvents(const nlohmann::json& run, int version);
    void readExtras(const nlohmann::json& extras, size_t messages);
    void readMessages(const nlohmann::json& messages);
    void acceptEvent(const Event& event, size_t messages);
    void acceptLane(MessageRecord&& record, const LaneTimes& times, MessageIdParts id);

    RunStore& m_run;
};

// "worker-12" -> "worker": how a file without groups names a consumer's.
std::string groupFromName(const std::string& name)
{
    const size_t dash = name.find_last_of('-');
    if (dash == std::string::npos || dash == 0 || dash + 1 == name.size())
        return name;
    const bool counted
        = std::all_of(name.begin() + long(dash) + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
    return counted ? name.substr(0, dash) : name;
}

void RunReader::readActors(const std::vector<std::string>& names, const nlohmann::json* groups)
{
    const bool grouped = groups && groups->is_array() && groups->size() == names.size();
    for (size_t i = kFirstActor; i < names.size(); ++i)
        m_run.addActor(names[i], grouped ? (*groups)[i].get<std::string>() : groupFromName(names[i]));
}

void RunReader::read(const nlohmann::json& run, int version)
{
    const auto now = whole<TimeMs>(run.at("now"));
    check(now >= 0, "its clock is negative");
    m_run.setNow(now);
    readQueues(run.at("queues"));
    if (version < 3) {
        readEvents(run, version);
        readExtras(run.at("extras"), run.at("messages").size());
        readMessages(run.at("messages"));
        return;
    }
    for (const auto& t : run.at("texts"))
        m_run.addText(t.get<std::string>());
    const auto laneCount = whole<size_t>(run.at("laneCount"));
    const auto& events = run.at("events");
    const auto& lanes = run.at("lanes");
    check(events.is_binary() && lanes.is_binary(), "its events or lanes are not columns");
    run_columns::readEvents(events.get_binary(), whole<size_t>(run.at("eventCount")),
        [&](const Event& event) { acceptEvent(event, laneCount); });
    readExtras(run.at("extras"), laneCount);
    run_columns::readLanes(
        lanes.get_binary(), laneCount, [&](MessageRecord&& record, const LaneTimes& times, MessageIdParts id) {
            acceptLane(std::move(record), times, id);
        });
}

void RunReader::readQueues(const nlohmann::json& queues)
{
    for (const auto& q : queues) {
        QueueInfo queue;
        queue.name = q.at("name").get<std::string>();
        queue.arn = q.at("arn").get<std::string>();
        queue.alive = q.at("alive").get<bool>();
        queue.createdAt = whole<TimeMs>(q.at("createdAt"));
        queue.modifiedAt = whole<TimeMs>(q.at("modifiedAt"));
        QueueAttributes defaults;
        defaults.fifo = q.at("fifo").get<bool>();
        AttributeMap attributes = q.at("attributes").get<AttributeMap>();
        auto applied = applyAttributes(defaults, attributes, { false, defaults.fifo });
        if (!applied)
            throw std::runtime_error("queue " + queue.name + ": " + applied.error().message);
        queue.attributes = std::move(applied).value();
        const auto& counters = q.at("counters");
        queue.counters = QueueCounters { whole<int64_t>(counters.at(0)), whole<int64_t>(counters.at(1)),
            whole<int64_t>(counters.at(2)) };
        check(queue.counters.visible >= 0 && queue.counters.inFlight >= 0 && queue.counters.delayed >= 0,
            "queue " + queue.name + " has a negative counter");
        check(m_run.queueCount() < kNoQueue, "it has more queues than a run can hold");
        m_run.addQueue(std::move(queue));
    }
}

void RunReader::readEvents(const nlohmann::json& run, int version)
{
    for (const auto& t : run.at("texts"))
        m_run.addText(t.get<std::string>());
    const size_t messages = run.at("messages").size();
    for (const auto& e : run.at("events")) {
        const int cause = whole<int>(e.at(7));
        const int from = whole<int>(e.at(5));
        const int to = whole<int>(e.at(6));
        const std::string where = "event " + std::to_string(m_run.log().size());
        check(cause >= 0 && cause < int(Cause::Count), where + " has no known cause");
        check(from >= 0 && from < int(MessageState::Count) && to >= 0 && to < int(MessageState::Count),
            where + " has no known state");
        Event event { whole<TimeMs>(e.at(0)), whole<MessageIndex>(e.at(1)), whole<uint32_t>(e.at(2)),
            whole<uint32_t>(e.at(3)), whole<QueueIndex>(e.at(4)), MessageState(from), MessageState(to), Cause(cause) };
        if (version == 1)
            event.actor = actorFromVersion1(event.actor, event.cause);
        acceptEvent(event, messages);
    }
}

// An event of any version, checked before it joins the log: a known cause and states, in time order, and every
// reference inside the file.
void RunReader::acceptEvent(const Event& event, size_t messages)
{
    const EventLog& log = m_run.log();
    const std::string where = "event " + std::to_string(log.size());
    check(event.cause < Cause::Count, where + " has no known cause");
    check(event.from < MessageState::Count && event.to < MessageState::Count, where + " has no known state");
    const TimeMs previous = log.size() > 0 ? log[log.size() - 1].time : 0;
    check(event.time >= previous && event.time <= m_run.now(), where + " is out of time order");
    checkReferences(event, where, { m_run.queueCount(), messages, log.textCount(), m_run.actorCount() });
    m_run.addRecordedEvent(event);
}

void RunReader::readExtras(const nlohmann::json& extras, size_t messages)
{
    for (const auto& x : extras) {
        MessageExtra extra;
        extra.groupId = x.at("group").get<std::string>();
        extra.deduplicationId = x.at("dedup").get<std::string>();
        extra.sequenceNumber = x.at("sequence").get<std::string>();
        extra.awsTraceHeader = x.at("trace").get<std::string>();
        extra.deadLetterQueueSourceArn = x.at("dlqSource").get<std::string>();
        extra.origin = whole<MessageIndex>(x.at("origin"));
        extra.copy = x.value("copy", false);
        check(extra.origin == kNoMessage || extra.origin < messages, "an origin refers to a lane the file lacks");
        extra.md5OfAttributes = x.at("md5OfAttributes").get<std::string>();
        if (x.contains("label")) // files written before lanes had names have none
            extra.label = x.at("label").get<std::string>();
        for (const auto& a : x.at("attributes"))
            extra.attributes.push_back(MessageAttribute { a.at(0).get<std::string>(),
                { a.at(1).get<std::string>(), a.at(2).get<std::string>(), a.at(3).get<std::string>() } });
        m_run.addRecordedExtra(std::move(extra));
    }
}

void RunReader::readMessages(const nlohmann::json& messages)
{
    for (const auto& m : messages) {
        MessageRecord record;
        const MessageIdParts id { whole<uint64_t>(m.at(0)), whole<uint64_t>(m.at(1)) };
        record.body = m.at(2).get<std::string>();
        const LaneTimes times { whole<TimeMs>(m.at(3)), whole<TimeMs>(m.at(4)), whole<TimeMs>(m.at(5)),
            whole<TimeMs>(m.at(6)), whole<TimeMs>(m.at(7)) };
        record.receiveCount = whole<uint32_t>(m.at(8));
        record.queue = whole<QueueIndex>(m.at(9));
        const int state = whole<int>(m.at(10));
        check(state >= 0 && state < int(MessageState::Count),
            "lane " + std::to_string(m_run.messageCount()) + " has no known state");
        record.state = MessageState(state);
        record.extra = whole<uint32_t>(m.at(11));
        acceptLane(std::move(record), times, id);
    }
}

// A lane of any version, checked before it joins the run.
void RunReader::acceptLane(MessageRecord&& record, const LaneTimes& times, MessageIdParts id)
{
    const std::string where = "lane " + std::to_string(m_run.messageCount());
    check(record.queue < m_run.queueCount(), where + " refers to a queue the file lacks");
    check(record.state < MessageState::Count, where + " has no known state");
    check(
        record.extra == UINT32_MAX || record.extra < m_run.extras().size(), where + " refers to extras the file lacks");
    // A lane continues only an earlier one: a chain of origins always ends.
    if (record.extra != UINT32_MAX) {
        const MessageIndex origin = m_run.extras()[record.extra].origin;
        check(origin == kNoMessage || origin < m_run.messageCount(), where + " continues a later lane");
    }
    check(record.receiveCount <= 1000000000, where + " has a garbled receive count");
    m_run.addRecordedLane(std::move(record), times, id);
}
} // namespace

namespace {
void cborValue(std::ostream& out, const nlohmann::json& value)
{
    const std::vector<uint8_t> bytes = nlohmann::json::to_cbor(value);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// The small parts every version shares: a lane's rare extras (attributes, FIFO ids, DLQ origin).
void writeExtras(const RunView& run, std::ostream& out)
{
    using nlohmann::json;
    cborHead(out, 4, run.extras().size());
    for (size_t i = 0; i < run.extras().size(); ++i) {
        const MessageExtra& x = run.extras()[i];
        json attributes = json::array();
        for (const auto& a : x.attributes)
            attributes.push_back({ a.name, a.value.dataType, a.value.stringValue, a.value.binaryValue });
        cborValue(out,
            { { "group", x.groupId }, { "dedup", x.deduplicationId }, { "sequence", x.sequenceNumber },
                { "trace", x.awsTraceHeader }, { "dlqSource", x.deadLetterQueueSourceArn }, { "origin", x.origin },
                { "copy", x.copy }, { "md5OfAttributes", x.md5OfAttributes }, { "attributes", attributes },
                { "label", x.label } });
    }
}

void writeTexts(const EventLog& log, std::ostream& out)
{
    cborHead(out, 4, log.textCount());
    for (size_t i = 0; i < log.textCount(); ++i)
        cborValue(out, log.text(uint32_t(i)));
}
} // namespace

// The run as one CBOR map, written while it is read (never a document of the whole run in memory): what says which
// file it is first, then the small parts, then the events and the lanes as compressed columns.
void writeRun(const RunView& run, const std::string& title, std::ostream& out)
{
    std::vector<std::string> actorNames, actorGroups;
    for (uint32_t actor = 0; actor < run.actorCount(); ++actor) {
        actorNames.push_back(run.actorName(actor));
        actorGroups.push_back(run.actorGroup(actor));
    }
    cborHead(out, 5, 13);
    cborValue(out, "format");
    cborValue(out, kFormat);
    cborValue(out, "version");
    cborValue(out, kVersion);
    cborValue(out, "title");
    cborValue(out, title);
    cborValue(out, "now");
    cborValue(out, run.now());
    cborValue(out, "actors");
    cborValue(out, actorNames);
    cborValue(out, "actorGroups");
    cborValue(out, actorGroups);
    cborValue(out, "queues");
    cborValue(out, queuesOf(run));
    cborValue(out, "texts");
    writeTexts(run.log(), out);
    cborValue(out, "extras");
    writeExtras(run, out);
    cborValue(out, "eventCount");
    cborValue(out, run.log().size());
    cborValue(out, "events");
    run_columns::writeEvents(run.log(), out);
    cborValue(out, "laneCount");
    cborValue(out, run.messageCount());
    cborValue(out, "lanes");
    run_columns::writeLanes(run, out);
}

// Version 2: the map {actors, events, extras, format, messages, now, queues, texts, title, version} as nlohmann
// encodes it at once (keys in its sorted order), each event and lane a CBOR array.
void writeRunVersion2(const RunView& run, const std::string& title, std::ostream& out)
{
    const EventLog& log = run.log();
    std::vector<std::string> actorNames;
    for (uint32_t actor = 0; actor < run.actorCount(); ++actor)
        actorNames.push_back(run.actorName(actor));
    cborHead(out, 5, 10);
    cborValue(out, "actors");
    cborValue(out, actorNames);
    cborValue(out, "events");
    cborHead(out, 4, log.size());
    for (size_t i = 0; i < log.size(); ++i) {
        const Event& e = log[i];
        cborValue(out, { e.time, e.message, e.actor, e.detail, e.queue, int(e.from), int(e.to), int(e.cause) });
    }
    cborValue(out, "extras");
    writeExtras(run, out);
    cborValue(out, "format");
    cborValue(out, kFormat);
    cborValue(out, "messages");
    cborHead(out, 4, run.messageCount());
    for (MessageIndex lane = 0; lane < run.messageCount(); ++lane) {
        const MessageRecord& r = run.message(lane);
        const LaneTimes t = run.times(lane);
        const MessageIdParts id = run.messageIdParts(lane);
        cborValue(out,
            { id.hi, id.lo, r.body.str(), t.sentAt, t.enqueuedAt, t.dueAt, t.firstReceiveAt, t.receivedAt,
                r.receiveCount, r.queue, int(r.state), r.extra });
    }
    cborValue(out, "now");
    cborValue(out, run.now());
    cborValue(out, "queues");
    cborValue(out, queuesOf(run));
    cborValue(out, "texts");
    writeTexts(log, out);
    cborValue(out, "title");
    cborValue(out, title);
    cborValue(out, "version");
    cborValue(out, 2);
}

Outcome<> saveRun(const RunView& run, const std::string& title, const std::string& path)
{
    if (const EventLog& log = run.log(); log.firstRetained() > 0) {
        const TimeMs until = log.firstRetained() < log.size() ? log[log.firstRetained()].time : run.now();
        return Failure { "the run has forgotten its first " + lifeline::describeDuration(until)
            + " (it keeps a bounded history), and a run file holds a whole run" };
    }
    // Whole or nothing: write beside, then rename over.
    const std::string temporary = path + ".part";
    {
        std::vector<char> buffer(size_t(1) << 20); // the many small writes go out in megabytes
        std::ofstream out;
        out.rdbuf()->pubsetbuf(buffer.data(), std::streamsize(buffer.size()));
        out.open(temporary, std::ios::binary);
        if (!out)
            return Failure { "cannot write '" + path + "': " + std::strerror(errno) };
        try {
            writeRun(run, title, out);
        } catch (const std::exception& e) { // the compressor's memory ran out
            out.close();
            std::remove(temporary.c_str());
            return Failure { "cannot write '" + path + "': " + e.what() };
        }
        out.flush();
        if (!out) {
            std::remove(temporary.c_str());
            return Failure { "cannot write '" + path + "': " + std::strerror(errno) };
        }
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        std::remove(temporary.c_str());
        return Failure { "cannot write '" + path + "': " + why };
    }
    return {};
}

namespace {
// nlohmann's CBOR reader recurses once per level of nesting and trusts a container's declared size (an array "of
// 2^60 elements" throws from inside it even with exceptions off). This SAX handler in front of its DOM builder
// stops the read at kMaxCborNesting levels and at any container that claims more elements than bytes remain.
constexpr size_t kMaxCborNesting = 32;

class BoundedCborSax {
public:
    BoundedCborSax(nlohmann::json& result, size_t bytes)
        : m_dom(result, false)
        , m_bytes(bytes)
    {
    }
    using Json = nlohmann::json;
    bool null() { return m_dom.null(); }
    bool boolean(bool value) { return m_dom.boolean(value); }
    bool number_integer(Json::number_integer_t value) { return m_dom.number_integer(value); }
    bool number_unsigned(Json::number_unsigned_t value) { return m_dom.number_unsigned(value); }
    bool number_float(Json::number_float_t value, const Json::string_t& text)
    {
        return m_dom.number_float(value, text);
    }
    bool string(Json::string_t& value) { return m_dom.string(value); }
    bool binary(Json::binary_t& value) { return m_dom.binary(value); }
    bool start_object(size_t elements) { return enter(elements) && m_dom.start_object(elements); }
    bool key(Json::string_t& value) { return m_dom.key(value); }
    bool end_object()
    {
        --m_depth;
        return m_dom.end_object();
    }
    bool start_array(size_t elements) { return enter(elements) && m_dom.start_array(elements); }
    bool end_array()
    {
        --m_depth;
        return m_dom.end_array();
    }
    template <class Exception> bool parse_error(size_t position, const std::string& last, const Exception& error)
    {
        return m_dom.parse_error(position, last, error);
    }

private:
    bool enter(size_t elements)
    {
        const bool sized = elements != static_cast<size_t>(-1); // -1: indefinite length
        return ++m_depth <= kMaxCborNesting && (!sized || elements <= m_bytes);
    }
    nlohmann::detail::json_sax_dom_parser<Json> m_dom;
    size_t m_bytes;
    size_t m_depth = 0;
};

nlohmann::json parseCbor(const std::vector<uint8_t>& bytes)
{
    nlohmann::json result;
    BoundedCborSax sax(result, bytes.size());
    try {
        if (nlohmann::json::sax_parse(bytes, &sax, nlohmann::json::input_format_t::cbor, true))
            return result;
    } catch (const nlohmann::json::exception&) {
    }
    return nlohmann::json(nlohmann::json::value_t::discarded);
}
} // namespace

Outcome<RecordedRun> readRun(const std::vector<uint8_t>& bytes, const std::string& path)
{
    const std::string notOurs = "'" + path + "' is not a Lifeline run file (or it is damaged)";
    const auto run = parseCbor(bytes);
    if (run.is_discarded() || !run.is_object() || !run.contains("format") || run["format"] != kFormat)
        return Failure { notOurs };
    const int64_t stated
        = run.contains("version") && run["version"].is_number_integer() ? run["version"].get<int64_t>() : 0;
    if (stated < 1 || stated > kVersion)
        return Failure { "'" + path + "' is a run file of another version (" + std::to_string(stated) + ")" };
    const int version = int(stated);
    RecordedRun out;
    try {
        auto actorNames = run.at("actors").get<std::vector<std::string>>();
        if (version == 1) // actor 0 was SQS and the operator at once (see actorFromVersion1)
            actorNames.insert(actorNames.begin(), "SQS");
        out.run = std::make_unique<RunStore>();
        RunReader reader(*out.run);
        reader.readActors(actorNames, run.contains("actorGroups") ? &run["actorGroups"] : nullptr);
        reader.read(run, version);
        out.title = run.contains("title") && run["title"].is_string() ? run["title"].get<std::string>() : "";
    } catch (const std::exception& e) {
        std::string what = e.what();
        if (const auto bracket = what.find("] "); what.starts_with("[json.exception") && bracket != std::string::npos)
            what = what.substr(bracket + 2); // nlohmann's "[json.exception.type_error.302] type must be ..."
        return Failure { notOurs + ": " + what };
    }
    return out;
}

Outcome<RecordedRun> openRun(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Failure { "cannot read '" + path + "': " + std::strerror(errno) };
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return readRun(bytes, path);
}

} // namespace lifeline
