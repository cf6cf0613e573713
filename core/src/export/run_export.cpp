#include "lifeline/export/run_export.h"

#include "lifeline/run/event_text.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace lifeline {

std::string utf8Prefix(std::string_view text, size_t characters)
{
    size_t end = 0;
    for (size_t count = 0; end < text.size() && count < characters; ++count) {
        ++end;
        while (end < text.size() && (uint8_t(text[end]) & 0xC0) == 0x80) // continuation bytes
            ++end;
    }
    return std::string(text.substr(0, end));
}

std::string csvField(const std::string& text)
{
    // A text a spreadsheet would run as a formula (a body of "=HYPERLINK(...)") starts with an apostrophe and is
    // quoted, as OWASP's CSV-injection advice says; the apostrophe is shown, never run.
    const bool formula = !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos;
    if (!formula && text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = formula ? "\"'" : "\"";
    for (const char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + '"';
}

void writeEventsCsv(const RunView& run, std::ostream& out)
{
    out << "time_ms,queue,message_id,lane,from,to,cause,actor,note,body,group,dedup\r\n";
    const EventLog& log = run.log();
    for (size_t i = log.firstRetained(); i < log.size(); ++i) { // what a bounded history still holds
        const Event& e = log[i];
        out << e.time << ',' << csvField(e.queue == kNoQueue ? "" : run.queueInfo(e.queue).name) << ','
            << (e.message == kNoMessage ? "" : run.messageId(e.message)) << ','
            << (e.message == kNoMessage ? "" : std::to_string(e.message)) << ',' << toString(e.from) << ','
            << toString(e.to) << ',' << toString(e.cause) << ',' << csvField(run.actorName(e.actor)) << ','
            << csvField(eventDetail(run, e));
        if (e.message == kNoMessage) {
            out << ",,,\r\n";
            continue;
        }
        // Messages are named by what they carry, not only by their send order.
        const MessageRecord& record = run.message(e.message);
        const MessageExtra* extra = run.extra(e.message);
        out << ',' << csvField(utf8Prefix(record.body, kCsvBodyCharacters)) << ','
            << csvField(extra ? extra->groupId : std::string()) << ','
            << csvField(extra ? extra->deduplicationId : std::string()) << "\r\n";
    }
}

void writeChromeTrace(const RunView& run, std::ostream& out)
{
    using nlohmann::json;
    // Written while the log is read, one event at a time: the extra memory is a few bytes per lane (its open
    // segment), never a document of the whole run. The text is what dumping {"displayTimeUnit", "traceEvents"} as
    // one document gave (keys in that order; bodies and names are bytes as clients sent them: what is not UTF-8 is
    // replaced, not thrown over).
    out << R"({"displayTimeUnit":"ms","traceEvents":[)";
    bool first = true;
    const auto emit = [&out, &first](const json& event) {
        out << (first ? "" : ",") << event.dump(-1, ' ', false, json::error_handler_t::replace);
        first = false;
    };
    const auto us = [](TimeMs ms) { return ms * 1000; };
    // Names and order: a process per queue, a thread per lane.
    for (size_t q = 0; q < run.queueCount(); ++q) {
        emit({ { "ph", "M" }, { "name", "process_name" }, { "pid", q + 1 }, { "tid", 0 },
            { "args", { { "name", run.queueInfo(QueueIndex(q)).name } } } });
        emit({ { "ph", "M" }, { "name", "process_sort_index" }, { "pid", q + 1 }, { "tid", 0 },
            { "args", { { "sort_index", q } } } });
    }
    const EventLog& log = run.log();
    std::vector<TimeMs> since(run.messageCount(), -1);
    std::vector<MessageState> state(run.messageCount(), MessageState::None);
    std::vector<int64_t> depth(run.queueCount() * 3, 0); // visible, in flight, delayed per queue
    for (MessageIndex lane = 0; lane < run.messageCount(); ++lane) {
        const MessageRecord& record = run.message(lane);
        emit({ { "ph", "M" }, { "name", "thread_name" }, { "pid", record.queue + 1 }, { "tid", lane + 1 },
            { "args", { { "name", run.messageId(lane).substr(0, 8) + " (lane " + std::to_string(lane) + ")" } } } });
        emit({ { "ph", "M" }, { "name", "thread_sort_index" }, { "pid", record.queue + 1 }, { "tid", lane + 1 },
            { "args", { { "sort_index", lane } } } });
    }
    const auto closeSegment = [&](MessageIndex lane, TimeMs end) {
        if (since[lane] < 0 || !isLive(state[lane]))
            return;
        emit({ { "ph", "X" }, { "name", toString(state[lane]) }, { "cat", "state" },
            { "pid", run.message(lane).queue + 1 }, { "tid", lane + 1 }, { "ts", us(since[lane]) },
            { "dur", us(end - since[lane]) } });
    };
    const auto counter = [&](QueueIndex q, MessageState s, int delta) {
        const int slot = s == MessageState::Visible ? 0
            : s == MessageState::InFlight           ? 1
            : s == MessageState::Delayed            ? 2
                                                    : -1;
        if (slot >= 0)
            depth[size_t(q) * 3 + size_t(slot)] += delta;
    };
    for (size_t i = log.firstRetained(); i < log.size(); ++i) { // what a bounded history still holds
        const Event& e = log[i];
        if (e.message == kNoMessage || e.cause == Cause::RequestRefused || e.queue >= run.queueCount()) {
            if (e.cause == Cause::RequestRefused && e.queue != kNoQueue)
                emit({ { "ph", "i" }, { "name", "refused" }, { "s", "p" }, { "pid", e.queue + 1 }, { "tid", 0 },
                    { "ts", us(e.time) },
                    { "args", { { "error", eventDetail(run, e) }, { "actor", run.actorName(e.actor) } } } });
            continue;
        }
        const bool transition = e.from != e.to;
        if (transition) {
            closeSegment(e.message, e.time);
            state[e.message] = e.to;
            since[e.message] = e.time;
            counter(e.queue, e.from, -1);
            counter(e.queue, e.to, +1);
            emit({ { "ph", "C" }, { "name", "depth" }, { "pid", e.queue + 1 }, { "ts", us(e.time) },
                { "args",
                    { { "visible", depth[size_t(e.queue) * 3] }, { "in flight", depth[size_t(e.queue) * 3 + 1] },
                        { "delayed", depth[size_t(e.queue) * 3 + 2] } } } });
        }
        if (!transition || e.cause == Cause::Receive || e.cause == Cause::Delete || e.cause == Cause::MoveToDlq) {
            json args { { "cause", toString(e.cause) }, { "actor", run.actorName(e.actor) } };
            const std::string note = eventDetail(run, e);
            if (!note.empty())
                args["note"] = note;
            emit({ { "ph", "i" }, { "name", toString(e.cause) }, { "s", "t" }, { "pid", e.queue + 1 },
                { "tid", e.message + 1 }, { "ts", us(e.time) }, { "args", args } });
        }
    }
    for (MessageIndex lane = 0; lane < run.messageCount(); ++lane)
        closeSegment(lane, run.now());
    out << "]}\n";
}

} // namespace lifeline
