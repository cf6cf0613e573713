#include "lifeline/export/run_file.h"

#include "../engine_internal.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

namespace lifeline {

namespace {
constexpr const char* kFormat = "lifeline-run";
constexpr int kVersion = 1;
const char* kSettable[] = { "DelaySeconds", "VisibilityTimeout", "MessageRetentionPeriod", "MaximumMessageSize",
    "ReceiveMessageWaitTimeSeconds", "RedrivePolicy", "RedriveAllowPolicy", "ContentBasedDeduplication",
    "DeduplicationScope", "FifoThroughputLimit", "SqsManagedSseEnabled", "KmsMasterKeyId",
    "KmsDataKeyReusePeriodSeconds", "Policy" };
} // namespace

// Fills an engine's private state from a recording (Engine declares it a friend).
struct EngineAccess {
    static void restore(Engine& engine, const nlohmann::json& run);
    static nlohmann::json queues(const Engine& engine);
    static const std::vector<MessageExtra>& extras(const Engine& engine) { return engine.m_extras; }
};

nlohmann::json EngineAccess::queues(const Engine& engine)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& q : engine.m_queues) {
        nlohmann::json attributes = nlohmann::json::object();
        for (const char* name : kSettable)
            if (auto value = attributeValue(q->attributes, name))
                attributes[name] = *value;
        out.push_back({ { "name", q->name }, { "arn", q->arn }, { "alive", q->alive }, { "fifo", q->fifo() },
            { "createdAt", q->createdAt }, { "modifiedAt", q->modifiedAt }, { "attributes", attributes },
            { "counters", { q->counters.visible, q->counters.inFlight, q->counters.delayed } } });
    }
    return out;
}

void EngineAccess::restore(Engine& engine, const nlohmann::json& run)
{
    engine.m_now = run.at("now").get<TimeMs>();
    for (const auto& q : run.at("queues")) {
        auto queue = std::make_unique<QueueState>();
        queue->index = QueueIndex(engine.m_queues.size());
        queue->uid = engine.m_nextQueueUid++;
        queue->name = q.at("name").get<std::string>();
        queue->arn = q.at("arn").get<std::string>();
        queue->alive = q.at("alive").get<bool>();
        queue->createdAt = q.at("createdAt").get<TimeMs>();
        queue->modifiedAt = q.at("modifiedAt").get<TimeMs>();
        QueueAttributes defaults;
        defaults.fifo = q.at("fifo").get<bool>();
        AttributeMap attributes = q.at("attributes").get<AttributeMap>();
        auto applied = applyAttributes(defaults, attributes, { false, defaults.fifo });
        if (!applied)
            throw std::runtime_error("queue " + queue->name + ": " + applied.error().message);
        queue->attributes = std::move(applied).value();
        const auto& counters = q.at("counters");
        queue->counters = QueueCounters { counters.at(0).get<int64_t>(), counters.at(1).get<int64_t>(),
            counters.at(2).get<int64_t>() };
        engine.m_queueInfo.push_back(
            QueueInfo { queue->name, queue->arn, queue->alive, defaults.fifo, queue->createdAt });
        engine.m_queues.push_back(std::move(queue));
    }
    const size_t queueCount = engine.m_queues.size();
    for (const auto& t : run.at("texts"))
        engine.m_log.addText(t.get<std::string>());
    const size_t texts = run.at("texts").size();
    const size_t messages = run.at("messages").size();
    for (const auto& e : run.at("events")) {
        Event event { e.at(0).get<TimeMs>(), e.at(1).get<MessageIndex>(), e.at(2).get<uint32_t>(),
            e.at(3).get<uint32_t>(), e.at(4).get<QueueIndex>(), MessageState(e.at(5).get<int>()),
            MessageState(e.at(6).get<int>()), Cause(e.at(7).get<int>()) };
        const bool textual = event.cause == Cause::RequestRefused || event.cause == Cause::AttributesChanged
            || event.cause == Cause::Warning || event.cause == Cause::OperatorAction;
        if ((event.message != kNoMessage && event.message >= messages)
            || (event.queue != kNoQueue && event.queue >= queueCount) || int(event.cause) >= int(Cause::Count)
            || int(event.from) >= int(MessageState::Count) || int(event.to) >= int(MessageState::Count)
            || (textual && event.detail >= texts))
            throw std::runtime_error("an event refers to something the file does not have");
        engine.m_log.append(event);
    }
    for (const auto& x : run.at("extras")) {
        MessageExtra extra;
        extra.groupId = x.at("group").get<std::string>();
        extra.deduplicationId = x.at("dedup").get<std::string>();
        extra.sequenceNumber = x.at("sequence").get<std::string>();
        extra.awsTraceHeader = x.at("trace").get<std::string>();
        extra.deadLetterQueueSourceArn = x.at("dlqSource").get<std::string>();
        extra.origin = x.at("origin").get<MessageIndex>();
        extra.md5OfAttributes = x.at("md5OfAttributes").get<std::string>();
        for (const auto& a : x.at("attributes"))
            extra.attributes.push_back(MessageAttribute { a.at(0).get<std::string>(),
                { a.at(1).get<std::string>(), a.at(2).get<std::string>(), a.at(3).get<std::string>() } });
        engine.m_extras.push_back(std::move(extra));
    }
    for (const auto& m : run.at("messages")) {
        MessageRecord record;
        record.idHi = m.at(0).get<uint64_t>();
        record.idLo = m.at(1).get<uint64_t>();
        record.body = m.at(2).get<std::string>();
        record.sentAt = m.at(3).get<TimeMs>();
        record.enqueuedAt = m.at(4).get<TimeMs>();
        record.dueAt = m.at(5).get<TimeMs>();
        record.firstReceiveAt = m.at(6).get<TimeMs>();
        record.receivedAt = m.at(7).get<TimeMs>();
        record.receiveCount = m.at(8).get<uint32_t>();
        record.queue = m.at(9).get<QueueIndex>();
        record.state = MessageState(m.at(10).get<int>());
        record.extra = m.at(11).get<uint32_t>();
        record.md5 = md5(record.body);
        if (record.queue >= queueCount || int(record.state) >= int(MessageState::Count)
            || (record.extra != UINT32_MAX && record.extra >= engine.m_extras.size()))
            throw std::runtime_error("a message refers to something the file does not have");
        engine.m_messages.push_back(std::move(record));
    }
}

std::string saveRun(
    const Engine& engine, const std::vector<std::string>& actorNames, const std::string& title, const std::string& path)
{
    using nlohmann::json;
    json events = json::array();
    const EventLog& log = engine.log();
    for (size_t i = 0; i < log.size(); ++i) {
        const Event& e = log[i];
        events.push_back({ e.time, e.message, e.actor, e.detail, e.queue, int(e.from), int(e.to), int(e.cause) });
    }
    json texts = json::array();
    for (size_t i = 0; i < log.textCount(); ++i)
        texts.push_back(log.text(uint32_t(i)));
    json messages = json::array();
    json extras = json::array();
    for (MessageIndex lane = 0; lane < engine.messageCount(); ++lane) {
        const MessageRecord& r = engine.message(lane);
        messages.push_back({ r.idHi, r.idLo, r.body, r.sentAt, r.enqueuedAt, r.dueAt, r.firstReceiveAt, r.receivedAt,
            r.receiveCount, r.queue, int(r.state), r.extra });
    }
    for (const MessageExtra& x : EngineAccess::extras(engine)) {
        json attributes = json::array();
        for (const auto& a : x.attributes)
            attributes.push_back({ a.name, a.value.dataType, a.value.stringValue, a.value.binaryValue });
        extras.push_back({ { "group", x.groupId }, { "dedup", x.deduplicationId }, { "sequence", x.sequenceNumber },
            { "trace", x.awsTraceHeader }, { "dlqSource", x.deadLetterQueueSourceArn }, { "origin", x.origin },
            { "md5OfAttributes", x.md5OfAttributes }, { "attributes", attributes } });
    }
    const json run { { "format", kFormat }, { "version", kVersion }, { "title", title }, { "now", engine.now() },
        { "actors", actorNames }, { "queues", EngineAccess::queues(engine) }, { "texts", texts }, { "events", events },
        { "messages", messages }, { "extras", extras } };
    const std::vector<uint8_t> bytes = json::to_cbor(run);
    // Whole or nothing: write beside, then rename over.
    const std::string temporary = path + ".part";
    {
        std::ofstream out(temporary, std::ios::binary);
        if (!out)
            return "cannot write '" + path + "': " + std::strerror(errno);
        out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        out.flush();
        if (!out) {
            std::remove(temporary.c_str());
            return "cannot write '" + path + "': " + std::strerror(errno);
        }
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        std::remove(temporary.c_str());
        return "cannot write '" + path + "': " + why;
    }
    return {};
}

std::variant<RecordedRun, std::string> openRun(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return "cannot read '" + path + "': " + std::strerror(errno);
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto run = nlohmann::json::from_cbor(bytes, true, false);
    if (run.is_discarded() || !run.is_object() || run.value("format", "") != kFormat)
        return "'" + path + "' is not a Lifeline run file (or it is damaged)";
    if (run.value("version", 0) != kVersion)
        return "'" + path + "' is a run file of another version (" + std::to_string(run.value("version", 0)) + ")";
    RecordedRun out;
    try {
        out.engine = std::make_unique<Engine>();
        EngineAccess::restore(*out.engine, run);
        out.actorNames = run.at("actors").get<std::vector<std::string>>();
        out.title = run.value("title", "");
    } catch (const std::exception& e) {
        return "'" + path + "' is damaged: " + e.what();
    }
    return out;
}

} // namespace lifeline
