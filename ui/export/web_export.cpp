#include "export/web_export.h"

#include "export/web_resources.h"
#include "export/whole_file.h"
#include "lifeline/picture/picture_json.h"
#include "lifeline/teach/glossary.h"
#include "timeline/lane_painter.h"
#include "timeline/timeline_style.h"

#include <QFileInfo>

namespace lifeline::ui {

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
    for (const picture::LaneMark mark : picture::kLaneMarks)
        marks[picture::markWords(mark).id] = { { "color", css(laneMarkColor(mark, style)) } };
    return { { "background", css(style.background) }, { "marks", marks }, { "text", css(style.text) },
        { "grid", css(style.grid) }, { "group", css(style.groupBackground) }, { "now", css(style.now) },
        { "ink", css(style.patternInk) }, { "mark", css(style.mark) }, { "polling", css(style.polling) },
        { "working", css(style.working) }, { "failed", css(style.failed) }, { "crash", css(style.crash) },
        { "states", states }, { "gap", style.segmentGap }, { "darkText", style.darkSegmentText },
        { "actorText",
            { { "working", css(inkOn(style.working)) }, { "failed", css(inkOn(style.failed)) },
                { "crash", css(inkOn(style.crash)) } } } };
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

// A text with [[glossary links]] as the page shows it, split by core's textPieces (the page parses nothing): [[text],
// [text, termId], ...], a piece with a term's id shown with its definition on hover and focus, as the window does; the
// terms it links go into `glossary`, by id.
void link(json& text, json& glossary)
{
    if (!text.is_string())
        return;
    json pieces = json::array();
    for (const teach::TextPiece& piece : teach::textPieces(text.get<std::string>())) {
        if (!piece.link || !piece.term) {
            pieces.push_back({ piece.text });
            continue;
        }
        pieces.push_back({ piece.text, piece.term->id });
        glossary[piece.term->id]
            = { { "id", piece.term->id }, { "term", piece.term->term }, { "definition", piece.term->definition } };
    }
    text = std::move(pieces);
}

// The lesson's and the exercise's texts as pieces, and the glossary terms they link.
void linkTexts(json& lesson, json& practice, json& glossary)
{
    if (lesson.is_object())
        for (auto& [key, text] : lesson.items())
            link(text, glossary);
    if (practice.is_object())
        for (const char* key : { "question", "hint" })
            if (practice.contains(key))
                link(practice[key], glossary);
}

} // namespace

json webRunData(const RunView& run, const std::vector<analysis::MomentSpec>& momentSpecs, const QString& label)
{
    picture::RunPicture drawn;
    drawn.setRun(&run, momentSpecs);
    (void)drawn.sync();
    json data = picture::pictureJson(drawn, label.toStdString());
    data["events"] = picture::eventsJson(run);
    return data;
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
    json lesson = request.lesson, practice = request.practice, glossary = json::object();
    linkTexts(lesson, practice, glossary);
    const json pageData = { { "format", picture::kPictureFormat }, { "title", request.title.toStdString() },
        { "claim", request.claim.toStdString() }, { "lesson", lesson }, { "nav", request.nav },
        { "practice", practice }, { "runs", drawn }, { "words", picture::wordsJson() }, { "glossary", glossary },
        { "glossaryPage", request.glossaryPage },
        { "palette",
            { { "light", palette(TimelineStyle::light()) }, { "dark", palette(TimelineStyle::darkTheme()) },
                { "highContrast", palette(TimelineStyle::highContrast()) } } } };
    const auto page = fillSlots(webResource("player.html"),
        { { "/*LIFELINE_PALETTE*/", std::string(webResource("palette.css")) },
            { "/*LIFELINE_RUN*/", packedForPage(pageData) }, { "/*LIFELINE_EVENTS*/", packedForPage(events) },
            { "LIFELINE_TITLE", request.title.toHtmlEscaped().toStdString() } });
    if (!page)
        return Failure { page.message() };
    return writeWholeFile(request.path, page.value());
}

Outcome<> exportWebPage(const RunView& run, const WebPageRequest& request)
{
    return writeWebPage({ webRunData(run, request.moments) }, request);
}

} // namespace lifeline::ui
