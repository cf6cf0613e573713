#include "export/web_export.h"

#include "lifeline/export/run_export.h"
#include "lifeline/run/lane_name.h"
#include "timeline/lane_model.h"
#include "timeline/segment_words.h"
#include "timeline/timeline_style.h"

#include <QFile>
#include <QSaveFile>
#include <sstream>

namespace lifeline::ui {

const char* webPlayerSource(); // resources/web/player.html, compiled in (ui/CMakeLists.txt)

namespace {

using json = nlohmann::json;

const char* stateName(MessageState s)
{
    switch (s) {
    case MessageState::Delayed:
        return "delayed";
    case MessageState::Visible:
        return "visible";
    case MessageState::InFlight:
        return "inFlight";
    case MessageState::Deleted:
        return "deleted";
    case MessageState::DeadLettered:
        return "deadLettered";
    case MessageState::Expired:
        return "expired";
    case MessageState::Purged:
        return "purged";
    case MessageState::Redriven:
        return "redriven";
    default:
        return "none";
    }
}

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
        states[stateName(MessageState(s))]
            = { { "fill", css(style.stateColor[s]) }, { "pattern", patternName(style.statePattern[s]) } };
    return { { "background", css(style.background) }, { "text", css(style.text) }, { "grid", css(style.grid) },
        { "group", css(style.groupBackground) }, { "now", css(style.now) }, { "ink", css(style.patternInk) },
        { "mark", css(style.mark) }, { "states", states } };
}

// One lane's segments: [state, start, end, receive, words], end -1 while it goes on; its end cap's state.
json laneJson(const RunView& run, const LaneIndex& index, MessageIndex lane)
{
    json segments = json::array();
    SegmentReader reader(run, lane, true);
    reader.beginAfterForgotten(index);
    const EventLog& log = run.log();
    for (uint32_t ev = index.lane(lane).first; ev != kNoEvent; ev = index.nextOfLane(ev))
        if (const auto ended = reader.read(log[ev]))
            segments.push_back({ stateName(ended->state), ended->start.time, log[ev].time, ended->receives,
                reader.words(*ended).label.toStdString() });
    const Segment& last = reader.current();
    json out = { { "label", laneName(run, lane) }, { "segments", segments } };
    if (isLive(last.state))
        out["segments"].push_back(
            { stateName(last.state), last.start.time, -1, last.receives, reader.words(last).label.toStdString() });
    else if (last.state != MessageState::None)
        out["end"] = { stateName(last.state), last.start.time };
    out["receives"] = run.message(lane).receiveCount;
    return out;
}

} // namespace

json webRunData(const RunView& run, const WebPageRequest& request)
{
    LaneModel model;
    model.setMomentSpecs(request.moments);
    model.setEngine(&run);
    model.sync();
    json groups = json::array();
    for (int g = 0; g < model.queueGroupCount(); ++g) {
        json lanes = json::array();
        for (const MessageIndex lane : model.lanesOfGroup(g))
            lanes.push_back(laneJson(run, model.lanes(), lane));
        const auto& lanesOfGroup = model.lanesOfGroup(g);
        const std::string name
            = lanesOfGroup.empty() ? std::string() : run.queueInfo(run.message(lanesOfGroup.front()).queue).name;
        groups.push_back({ { "name", name }, { "lanes", lanes } });
    }
    json moments = json::array();
    int n = 0;
    for (const sim::Moment& m : model.moments())
        moments.push_back({ { "n", ++n }, { "t", m.at }, { "caption", m.caption },
            { "lane", m.lane == kNoMessage ? json() : json(laneName(run, m.lane)) } });
    std::ostringstream csv;
    writeEventsCsv(run, csv);
    return { { "format", 1 }, { "title", request.title.toStdString() }, { "claim", request.claim.toStdString() },
        { "end", run.now() }, { "groups", groups }, { "moments", moments }, { "csv", csv.str() },
        { "lesson", request.lesson },
        { "palette",
            { { "light", palette(TimelineStyle::light()) }, { "dark", palette(TimelineStyle::darkTheme()) } } } };
}

Outcome<> exportWebPage(const RunView& run, const WebPageRequest& request)
{
    // "</" inside the data would end its <script> element early: written as "<\/", which JSON reads the same.
    std::string data = webRunData(run, request).dump(-1, ' ', false, json::error_handler_t::replace);
    for (size_t at = data.find("</"); at != std::string::npos; at = data.find("</", at + 3))
        data.replace(at, 2, "<\\/");
    std::string page = webPlayerSource();
    const std::string slot = "/*LIFELINE_RUN*/null";
    const size_t at = page.find(slot);
    if (at == std::string::npos)
        return Failure { "the page template has no slot for the run" };
    page.replace(at, slot.size(), data);
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

} // namespace lifeline::ui
