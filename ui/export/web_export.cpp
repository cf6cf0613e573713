#include "export/web_export.h"

#include "lifeline/run/event_text.h"
#include "lifeline/run/lane_name.h"
#include "lifeline/teach/glossary.h"
#include "timeline/actor_painter.h"
#include "timeline/lane_model.h"
#include "timeline/lane_painter.h"
#include "timeline/segment_words.h"
#include "timeline/timeline_style.h"

#include <QSaveFile>
#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <optional>

namespace lifeline::ui {

const char* webPlayerSource(); // resources/web/player.html, compiled in (ui/CMakeLists.txt)

namespace {

using json = nlohmann::json;

const char* patternName(Qt::BrushStyle pattern)
{
    switch (pattern) {
    case Qt::BDiagPattern:
        return "bdiag";
    case Qt::FDiagPattern:
        return "fdiag";
    case Qt::HorPattern:
        return "hor";
    case Qt::VerPattern:
        return "ver";
    case Qt::CrossPattern:
        return "cross";
    case Qt::DiagCrossPattern:
        return "diagcross";
    default:
        return "none";
    }
}

const char* markName(LaneMarkKind kind)
{
    switch (kind) {
    case LaneMarkKind::Extended:
        return "extended";
    case LaneMarkKind::Crash:
        return "crash";
    case LaneMarkKind::Duplicate:
        return "duplicate";
    case LaneMarkKind::DeadLetter:
        return "deadLetter";
    case LaneMarkKind::ReceivedByNobody:
        return "receivedByNobody";
    }
    return "mark";
}

std::string css(const QColor& c)
{
    return "rgba(" + std::to_string(c.red()) + "," + std::to_string(c.green()) + "," + std::to_string(c.blue()) + ","
        + std::to_string(c.alphaF()).substr(0, 4) + ")";
}

// The app's palette, the same for the screen, the images and the page.
json palette(const TimelineStyle& style)
{
    json states = json::object();
    for (size_t s = 1; s < size_t(MessageState::Count); ++s)
        states[toString(MessageState(s))]
            = { { "fill", css(style.stateColor[s]) }, { "pattern", patternName(style.statePattern[s]) } };
    json marks = json::object();
    for (const LaneMarkKind kind : kLaneMarkKinds)
        marks[markName(kind)]
            = { { "glyph", laneMarkGlyph(kind).toStdString() }, { "color", css(laneMarkColor(kind, style)) } };
    return { { "background", css(style.background) }, { "marks", marks }, { "text", css(style.text) },
        { "grid", css(style.grid) }, { "group", css(style.groupBackground) }, { "now", css(style.now) },
        { "ink", css(style.patternInk) }, { "mark", css(style.mark) }, { "polling", css(style.polling) },
        { "working", css(style.working) }, { "failed", css(style.failed) }, { "crash", css(style.crash) },
        { "states", states } };
}

// One lane's segments: [state, start, end, receive, words], end -1 while it goes on; its end cap's state.
json laneJson(const RunView& run, const LaneIndex& index, MessageIndex lane)
{
    json segments = json::array();
    SegmentReader reader(run, lane, true);
    reader.beginAfterForgotten(index);
    const EventLog& log = run.log();
    json marks = json::array(); // [time, kind], as the app marks the lane
    for (uint32_t ev = index.lane(lane).first; ev != kNoEvent; ev = index.nextOfLane(ev)) {
        if (const auto ended = reader.read(log[ev]))
            segments.push_back({ toString(ended->state), ended->start.time, log[ev].time, ended->receives,
                reader.words(*ended).label.toStdString() });
        if (const auto kind = laneMarkAt(log[ev]))
            marks.push_back({ log[ev].time, markName(*kind) });
    }
    const Segment& last = reader.current();
    json out = { { "label", laneName(run, lane) }, { "segments", segments } };
    if (!marks.empty())
        out["marks"] = std::move(marks);
    if (isLive(last.state))
        out["segments"].push_back(
            { toString(last.state), last.start.time, -1, last.receives, reader.words(last).label.toStdString() });
    else if (last.state != MessageState::None)
        out["end"] = { toString(last.state), last.start.time };
    out["receives"] = run.message(lane).receiveCount;
    return out;
}

// A queue with more lanes than a page's rows can show is drawn as the app draws it then: a band of how many messages
// were delayed, visible and in flight over time.
constexpr size_t kMostLanes = 400;
constexpr size_t kBandPoints = 400;

// The band's levels at up to kBandPoints instants: [time, delayed, visible, in flight], each at its bucket's end.
json bandJson(const DensitySeries& density, QueueIndex queue)
{
    const auto& buckets = density.queue(queue);
    const size_t step = std::max<size_t>(1, (buckets.size() + kBandPoints - 1) / kBandPoints);
    json levels = json::array();
    for (size_t i = step - 1; i < buckets.size() + step - 1; i += step) {
        const size_t at = std::min(i, buckets.size() - 1);
        const QueueDensity& d = buckets[at];
        levels.push_back({ TimeMs(at + 1) * density.bucketMs(), d.delayed, d.visible, d.inFlight });
    }
    return levels;
}

// What an actor did, as its row shows it (readActorSpans, as the window reads it): ["poll", from, to], ["tick", at]
// (a receive answered at once), ["work", from, to, words, failed], ["crash", from, to]; to -1 while it goes on;
// failed when every message of the piece failed (the app's failed colour).
json actorJson(const LaneModel& model, uint32_t actor)
{
    const RunView& run = *model.engine();
    json spans = json::array();
    readActorSpans(model.lanes(), actor, std::numeric_limits<TimeMs>::min(), std::numeric_limits<TimeMs>::max(),
        run.now(), [&](const ActorSpan& span) {
            const json to = span.open ? json(-1) : json(span.to);
            switch (span.kind) {
            case ActorSpan::Tick:
                spans.push_back({ "tick", span.from });
                break;
            case ActorSpan::Poll:
                spans.push_back({ "poll", span.from, to });
                break;
            case ActorSpan::Work:
                spans.push_back({ "work", span.from, to, workLabel(run, span.work).toStdString(),
                    span.work.failed > 0 && span.work.failed == span.work.messages });
                break;
            case ActorSpan::Crash:
                spans.push_back({ "crash", span.from, to });
                break;
            }
            return true;
        });
    return { { "name", model.actorName(actor).toStdString() }, { "spans", spans } };
}

// Every event the run holds, one row each as the CSV export has them, compact: names once in tables, each row
// [time, queue, lane, from, to, cause, actor, note] by index (-1: none), its time as the milliseconds since the row
// before (mostly 0 or a few digits, which deflate packs a third smaller than whole times), so a long run's page stays
// small.
json eventsJson(const RunView& run)
{
    json names = json::object();
    std::map<std::string, int> index;
    json tables = { { "queue", json::array() }, { "lane", json::array() }, { "word", json::array() },
        { "actor", json::array() } };
    const auto at = [&](const char* table, const std::string& text) {
        const std::string key = std::string(table) + '\n' + text;
        const auto found = index.find(key);
        if (found != index.end())
            return found->second;
        tables[table].push_back(text);
        return index[key] = int(tables[table].size()) - 1;
    };
    json rows = json::array();
    const EventLog& log = run.log();
    TimeMs previous = 0;
    for (size_t i = log.firstRetained(); i < log.size(); ++i) {
        const Event& e = log[i];
        json row = { e.time - previous, e.queue == kNoQueue ? -1 : at("queue", run.queueInfo(e.queue).name),
            e.message == kNoMessage ? -1 : at("lane", laneName(run, e.message)), at("word", toString(e.from)),
            at("word", toString(e.to)), at("word", toString(e.cause)), at("actor", run.actorName(e.actor)) };
        if (std::string note = eventDetail(run, e); !note.empty())
            row.push_back(std::move(note));
        rows.push_back(std::move(row));
        previous = e.time;
    }
    tables["rows"] = std::move(rows);
    return tables;
}

// Deflated (zlib, which the browser's DecompressionStream("deflate") reads) and in base64: a long run's events
// compress tenfold, and base64 holds nothing that could end the <script> element.
std::string packedForPage(const json& data)
{
    QByteArray packed
        = qCompress(QByteArray::fromStdString(data.dump(-1, ' ', false, json::error_handler_t::replace)), 9);
    packed.remove(0, 4); // qCompress's own length prefix
    return packed.toBase64().toStdString();
}

// The glossary's terms the page's texts link ([[words]]): each linking form, in lower case, to its term, so the page
// shows a term's definition on its words as the window does.
json glossaryOf(const json& lesson, const json& practice)
{
    json terms = json::object();
    const auto read = [&](const json& text) {
        if (!text.is_string())
            return;
        for (const sim::TextPiece& piece : sim::textPieces(text.get<std::string>()))
            if (piece.link && piece.term)
                terms[QString::fromStdString(piece.text).toLower().toStdString()] = { { "id", piece.term->id },
                    { "term", piece.term->term }, { "definition", piece.term->definition } };
    };
    if (lesson.is_object())
        for (const auto& [key, text] : lesson.items())
            read(text);
    if (practice.is_object()) {
        read(practice.value("question", json()));
        read(practice.value("hint", json()));
    }
    return terms;
}

} // namespace

json webRunData(const RunView& run, const std::vector<sim::MomentSpec>& momentSpecs, const QString& label)
{
    LaneModel model;
    model.setMomentSpecs(momentSpecs);
    model.setEngine(&run);
    model.sync();
    json groups = json::array();
    for (int g = 0; g < model.queueGroupCount(); ++g) {
        const auto& lanesOfGroup = model.lanesOfGroup(g);
        if (lanesOfGroup.empty())
            continue;
        const QueueIndex queue = run.message(lanesOfGroup.front()).queue;
        json group = { { "name", run.queueInfo(queue).name }, { "count", lanesOfGroup.size() } };
        if (lanesOfGroup.size() > kMostLanes) {
            group["band"] = bandJson(model.density(), queue);
            group["lanes"] = json::array();
        } else {
            json lanes = json::array();
            for (const MessageIndex lane : lanesOfGroup)
                lanes.push_back(laneJson(run, model.lanes(), lane));
            group["lanes"] = std::move(lanes);
        }
        groups.push_back(std::move(group));
    }
    json actors = json::array();
    for (const uint32_t actor : model.shownActors())
        actors.push_back(actorJson(model, actor));
    json moments = json::array();
    int n = 0;
    for (const sim::Moment& m : model.moments())
        moments.push_back({ { "n", ++n }, { "t", m.at }, { "caption", m.caption },
            { "lane", m.lane == kNoMessage || m.onActorRow ? json() : json(laneName(run, m.lane)) },
            { "actor", m.onActorRow ? json(run.actorName(m.actor)) : json() } });
    return { { "label", label.toStdString() }, { "end", run.now() }, { "groups", groups }, { "actors", actors },
        { "moments", moments }, { "events", eventsJson(run) } };
}

Outcome<> writeWebPage(const std::vector<json>& runs, const WebPageRequest& request)
{
    // The events go apart from what is drawn: the page reads the picture's data before its first frame and the
    // events only when a reader opens their table (lesson 25's events are nine tenths of its data).
    json drawn = json::array(), events = json::array();
    for (json run : runs) {
        events.push_back(std::move(run["events"]));
        run.erase("events");
        drawn.push_back(std::move(run));
    }
    const json pageData = {
        { "format", 1 }, { "title", request.title.toStdString() }, { "claim", request.claim.toStdString() },
        { "lesson", request.lesson }, { "nav", request.nav }, { "practice", request.practice }, { "runs", drawn },
        { "glossary", glossaryOf(request.lesson, request.practice) }, { "glossaryPage", request.glossaryPage },
        { "palette", { { "light", palette(TimelineStyle::light()) }, { "dark", palette(TimelineStyle::darkTheme()) } } }
    };
    std::string page = webPlayerSource();
    for (const auto& [slot, data] :
        { std::pair { "/*LIFELINE_RUN*/", &pageData }, { "/*LIFELINE_EVENTS*/", &events } }) {
        const size_t at = page.find(slot);
        if (at == std::string::npos)
            return Failure { std::string("the page template has no slot ") + slot };
        page.replace(at, std::strlen(slot), packedForPage(*data));
    }
    const std::string title = request.title.toHtmlEscaped().toStdString();
    for (size_t t = page.find("LIFELINE_TITLE"); t != std::string::npos; t = page.find("LIFELINE_TITLE"))
        page.replace(t, 14, title);
    QSaveFile file(request.path);
    if (!file.open(QIODevice::WriteOnly))
        return Failure { "cannot write " + request.path.toStdString() + ": " + file.errorString().toStdString() };
    file.write(page.data(), qint64(page.size()));
    if (!file.commit())
        return Failure { "cannot write " + request.path.toStdString() + ": " + file.errorString().toStdString() };
    return {};
}

Outcome<> exportWebPage(const RunView& run, const WebPageRequest& request)
{
    return writeWebPage({ webRunData(run, request.moments) }, request);
}

} // namespace lifeline::ui
