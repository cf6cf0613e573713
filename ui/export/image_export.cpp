#include "export/image_export.h"

#include "export/whole_file.h"
#include "lifeline/support/duration.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_painter.h"

#include <QBuffer>
#include <QFileInfo>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QStringList>
#include <QSvgGenerator>
#include <cmath>
#include <memory>

namespace lifeline::ui {

namespace {

struct ModelPanel {
    const LaneModel* model;
    QString heading;
    int layoutRows = 0; // the rows to lay out for (an animation's final count); 0: the model's own
};

// The rows as the request lists them (alive only, their order), fitted to a window and a height.
void arrangeRows(TimelinePainter& painter, const ImageExportRequest& request, TimeMs from, TimeMs to, int height)
{
    painter.rows().setAliveOnly(request.aliveOnly);
    painter.rows().setOrder(request.order);
    painter.rows().arrange(from, to, std::max(1, height / 3)); // legible: 3 px a row or more
}

// The title, then the claim (what the run measured) and the subtitle (the queues' settings) when given, in type
// scaled with the slide; returns the height they take. A line wider than the image ends in an ellipsis.
int paintTitle(QPainter& p, const QRect& rect, const TimelineStyle& style, const QStringList& lines)
{
    const int base = std::max(11, style.textPixels);
    const int sizes[3]
        = { base * 7 / 4, std::max(13, base * 9 / 8), std::max(12, base * 7 / 8) }; // read on a 720p slide
    const int textWidth = rect.width() - 2 * base;
    int y = rect.top() + base / 3;
    p.setPen(style.text);
    for (int i = 0; i < std::min<int>(3, int(lines.size())); ++i) {
        if (lines[i].isEmpty())
            continue;
        QFont font = p.font();
        font.setPixelSize(sizes[i]);
        font.setBold(i == 0);
        p.setFont(font);
        const int height = sizes[i] * 3 / 2;
        p.drawText(QRect(rect.left() + base, y, textWidth, height), Qt::AlignVCenter | Qt::AlignLeft,
            QFontMetrics(font, p.device()).elidedText(lines[i], Qt::ElideRight, textWidth));
        y += height;
    }
    return y - rect.top() + base / 3;
}

void paintTimeline(QPainter& p, const QRect& timeline, const LaneModel& model, TimelineStyle style,
    const ImageExportRequest& request, TimeMs to, int layoutRows)
{
    const TimeMs from = request.from;
    // Rows fill the height up to the tallest, and shrink to show every lane when they can (down to 3 px); labels stay
    // only where rows are tall enough. A band below them is kept for moments' callouts, so a slide shows what they say.
    int available = TimelinePainter(model, style).roomForRows(timeline, true);
    {
        TimelinePainter probe(model, style);
        arrangeRows(probe, request, from, to, available);
        // A few lanes on a tall slide: everything larger, up to half as large again, rather than a slide half empty
        // below rows at their tallest.
        const int rows = std::max(1, layoutRows > 0 ? layoutRows : probe.totalRows());
        const double spare = double(available) / rows / std::max(1, style.maxRowHeight);
        if (spare > 1.05) {
            style = style.scaledBy(std::min(1.5, spare), style.textPixels);
            available = TimelinePainter(model, style).roomForRows(timeline, true);
        }
    }
    TimelinePainter probe(model, style);
    arrangeRows(probe, request, from, to, available);
    style.rowHeight = layoutRows > 0 ? std::clamp(available / layoutRows, 3, style.maxRowHeight)
                                     : probe.fillingRowHeight(available, 3);
    style.groupHeight = style.rowHeight;
    TimelinePainter painter(model, style);
    arrangeRows(painter, request, from, to, available);
    TimelineFrame frame;
    frame.now = model.run()->now();
    frame.axis.fit(from, std::max(from + 1, to), timeline.width() - style.labelWidth);
    painter.paint(p, timeline, frame);
}

void paintExport(QPainter& p, const QRect& rect, const std::vector<ModelPanel>& panels, const TimelineStyle& style,
    const ImageExportRequest& request, TimeMs to)
{
    p.fillRect(rect, style.background);
    const bool single = panels.size() == 1;
    const QString subtitle
        = single && request.subtitle.isEmpty() ? queueSettings(*panels[0].model->run()) : request.subtitle;
    const int top = paintTitle(p, rect, style, { request.title, request.claim, subtitle });
    const QRect area = rect.adjusted(0, top, 0, 0);
    const int height = area.height() / int(panels.size());
    for (size_t i = 0; i < panels.size(); ++i) {
        QRect panel(area.left(), area.top() + int(i) * height, area.width(), height);
        if (!single) {
            // Each panel's heading and its own queue settings (they are what the fix changed).
            const int pixels = std::max(12, style.textPixels);
            QFont font = p.font();
            font.setPixelSize(pixels);
            font.setBold(true);
            p.setFont(font);
            p.setPen(style.text);
            const QString heading = panels[i].heading + QStringLiteral("   ") + queueSettings(*panels[i].model->run());
            p.drawText(QRect(panel.left() + pixels, panel.top() + 2, panel.width() - 2 * pixels, pixels * 3 / 2),
                Qt::AlignVCenter | Qt::AlignLeft,
                QFontMetrics(font, p.device()).elidedText(heading, Qt::ElideRight, panel.width() - 2 * pixels));
            panel.adjust(0, pixels * 3 / 2 + 4, 0, 0);
        }
        paintTimeline(p, panel, *panels[i].model, style, request, to, panels[i].layoutRows);
    }
}

} // namespace

void paintSlide(QPainter& p, const QRect& rect, const LaneModel& model, const TimelineStyle& style,
    const ImageExportRequest& request, TimeMs to, int layoutRows)
{
    paintExport(p, rect, { { &model, QString(), layoutRows } }, style, request, to);
}

TimelineStyle slideStyle(TimelineStyle s, const QSize& size)
{
    const double k = std::clamp(std::min(size.width() / 1920.0, size.height() / 1080.0), 0.5, 4.0);
    const auto scaled = [k](double px) { return int(std::lround(px * k)); };
    s.textPixels = std::max(11, scaled(16));
    s.legendPixels = s.textPixels;
    s.labelWidth = s.textPixels * 10;
    s.rulerHeight = s.textPixels * 2;
    s.legendHeight = s.textPixels * 2;
    s.markPixels = std::max(13, scaled(18));
    s.pinRadius = std::max(8, scaled(13));
    s.calloutPixels = std::max(12, scaled(16));
    s.calloutWidth = std::max(300, scaled(460));
    s.maxRowHeight = std::max(18, s.textPixels * 4); // about 64 px at 1080 lines (bars of 60)
    return s;
}

QString queueSettings(const RunView& run)
{
    QStringList parts;
    for (size_t q = 0; q < run.queueCount(); ++q) {
        const QueueInfo& info = run.queueInfo(QueueIndex(q));
        const QueueAttributes* a = run.queueAttributes(QueueIndex(q));
        if (!info.alive || !a)
            continue;
        QString text = QObject::tr("%1: visibility %2 s, delay %3 s")
                           .arg(QString::fromStdString(info.name))
                           .arg(a->visibilityTimeout)
                           .arg(a->delaySeconds);
        if (a->redrivePolicy)
            text += QObject::tr(", DLQ after %1 receives").arg(a->redrivePolicy->maxReceiveCount);
        if (a->receiveMessageWaitTimeSeconds > 0)
            text += QObject::tr(", wait %1 s").arg(a->receiveMessageWaitTimeSeconds);
        parts << text;
    }
    return parts.join(QStringLiteral("  ·  "));
}

namespace {

Outcome<> checkRequest(const ImageExportRequest& request)
{
    // A height of 0 asks for the height that fits the lanes.
    if (request.size.width() < 200 || (request.size.height() != 0 && request.size.height() < 150)
        || request.size.width() > 16384 || request.size.height() > 16384)
        return Failure { QObject::tr("the size must be from 200x150 to 16384x16384, got %1x%2")
                             .arg(request.size.width())
                             .arg(request.size.height())
                             .toStdString() };
    const QString suffix = QFileInfo(request.path).suffix().toLower();
    if (suffix != QStringLiteral("png") && suffix != QStringLiteral("svg") && suffix != QStringLiteral("pdf"))
        return Failure { QObject::tr("unknown image type '%1': use .png, .svg or .pdf").arg(suffix).toStdString() };
    return {};
}

} // namespace

TimeMs actionEnd(const LaneModel& model)
{
    const RunView& run = *model.run();
    TimeMs last = 0;
    const EventLog& log = run.log();
    for (size_t i = log.size(); i-- > log.firstRetained();)
        if (log[i].message != kNoMessage && log[i].from != log[i].to && log[i].cause != Cause::RequestRefused) {
            last = log[i].time;
            break;
        }
    for (const auto& moment : model.moments())
        last = std::max(last, moment.at);
    if (last == 0)
        return std::max<TimeMs>(run.now(), 1000);
    // A clock that stands at its last change (a test's manual clock, where an advance puts the events) would end
    // the picture on that instant, its marks cut at the edge: a little after it is drawn too.
    if (last >= run.now())
        return run.now() + std::max<TimeMs>(1000, run.now() / 20);
    return std::min(run.now(), last + std::max<TimeMs>(5000, last / 10));
}

namespace {

// The height that fits every lane at the tallest row, with the title, the ruler, the legend and room for callouts.
int fittingHeight(const std::vector<ModelPanel>& panels, const TimelineStyle& style, int width,
    const ImageExportRequest& request, TimeMs to)
{
    int height = style.textPixels * 6; // title, claim, settings
    for (const ModelPanel& panel : panels) {
        TimelinePainter probe(*panel.model, style);
        arrangeRows(probe, request, request.from, to, 16384); // more lanes than the tallest image holds: bands
        const int callouts = std::min<int>(3, int(panel.model->moments().size())) * style.calloutPixels * 3;
        height += style.rulerHeight + probe.legendHeight(width) + probe.totalRows() * style.maxRowHeight + callouts
            + (panels.size() > 1 ? style.textPixels * 2 : 0);
    }
    return std::clamp(height, 150, 16384);
}

QString altTextOf(const std::vector<ModelPanel>& panels, const ImageExportRequest& request)
{
    std::vector<std::pair<QString, const LaneModel*>> described;
    described.reserve(panels.size());
    for (const ModelPanel& panel : panels)
        described.emplace_back(panel.heading, panel.model);
    // A comparison has no claim of one run: its subtitle is the figures that differ.
    return imageAltText(request.title, request.claim.isEmpty() ? request.subtitle : request.claim, described);
}

// A PDF's description lives in its XMP metadata (Dublin Core's title and description), which Qt's own packet
// leaves out.
QByteArray pdfMetadata(const QString& title, const QString& description)
{
    const auto escaped = [](const QString& text) { return text.toHtmlEscaped().toUtf8(); };
    return QByteArrayLiteral("<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>\n"
                             "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF "
                             "xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>"
                             "<rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/'>"
                             "<dc:title><rdf:Alt><rdf:li xml:lang='x-default'>")
        + escaped(title)
        + QByteArrayLiteral("</rdf:li></rdf:Alt></dc:title><dc:description><rdf:Alt><rdf:li xml:lang='x-default'>")
        + escaped(description)
        + QByteArrayLiteral("</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>\n"
                            "<?xpacket end='w'?>");
}

// Paints the panels as `suffix` (png, svg or pdf) onto `out`.
Outcome<> paintImage(
    QIODevice& out, const QString& suffix, const std::vector<ModelPanel>& panels, ImageExportRequest request, TimeMs to)
{
    const TimelineStyle base = TimelineStyle::of(themeOf(request.dark, request.highContrast));
    // Sized by the width first when the height is to be found (`--size 1920x`).
    const QSize scaleFrom = request.size.height() > 0 ? request.size : QSize(request.size.width(), 100000);
    const TimelineStyle style = slideStyle(base, scaleFrom);
    if (request.size.height() == 0)
        request.size.setHeight(fittingHeight(panels, style, request.size.width(), request, to));
    const QRect rect(QPoint(0, 0), request.size);
    if (suffix == QStringLiteral("png")) {
        QImage image(request.size, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(1);
        QPainter p(&image);
        paintExport(p, rect, panels, style, request, to);
        p.end();
        image.setText(QStringLiteral("Title"), request.title);
        image.setText(QStringLiteral("Description"), altTextOf(panels, request));
        if (!image.save(&out, "PNG"))
            return Failure { QObject::tr("could not encode the PNG").toStdString() };
    } else if (suffix == QStringLiteral("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&out);
        svg.setSize(request.size);
        svg.setViewBox(rect);
        svg.setTitle(request.title);
        svg.setDescription(altTextOf(panels, request));
        QPainter p(&svg);
        paintExport(p, rect, panels, style, request, to);
        p.end();
    } else {
        QPdfWriter pdf(&out);
        pdf.setTitle(request.title);
        pdf.setDocumentXmpMetadata(pdfMetadata(request.title, altTextOf(panels, request)));
        pdf.setPageSize(QPageSize(QSizeF(request.size) * 0.75, QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(96);
        QPainter p(&pdf);
        paintExport(p, rect, panels, style, request, to);
        p.end();
    }
    return {};
}

Outcome<> writeImage(const std::vector<ModelPanel>& panels, const ImageExportRequest& request, TimeMs to)
{
    // Drawn whole first, then written whole: the SVG and PDF writers do not check their writes, and a full disk
    // would leave a file cut short.
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    if (auto painted = paintImage(buffer, QFileInfo(request.path).suffix().toLower(), panels, request, to); !painted)
        return painted;
    const QByteArray& bytes = buffer.data();
    return writeWholeFile(request.path, std::string_view(bytes.constData(), size_t(bytes.size())));
}

} // namespace

QString imageAltText(
    const QString& title, const QString& claim, const std::vector<std::pair<QString, const LaneModel*>>& panels)
{
    QStringList parts;
    if (!title.isEmpty())
        parts << title + QLatin1Char('.');
    if (!claim.isEmpty()) // a sentence of its own: "the order done ..." begins with a capital
        parts << claim.left(1).toUpper() + claim.mid(1) + QLatin1Char('.');
    for (const auto& [heading, model] : panels) {
        QStringList moments;
        for (const analysis::Moment& moment : model->moments())
            moments << QObject::tr("At %1: %2.")
                           .arg(QString::fromStdString(formatDuration(moment.at)),
                               QString::fromStdString(moment.caption));
        if (!heading.isEmpty() && (panels.size() > 1 || !moments.isEmpty()))
            parts << heading + QLatin1Char(':');
        parts << moments;
    }
    return parts.join(QLatin1Char(' '));
}

Outcome<> exportTimelineImage(const RunView& run, const ImageExportRequest& request)
{
    if (auto refused = checkRequest(request); !refused)
        return refused;
    LaneModel model;
    model.setMomentSpecs(request.moments);
    model.setRun(&run);
    const TimeMs to = request.to < 0 ? actionEnd(model) : request.to;
    return writeImage({ { &model, QString() } }, request, to);
}

Outcome<QByteArray> drawTimelineImage(const RunView& run, const ImageExportRequest& request)
{
    if (auto refused = checkRequest(request); !refused)
        return Failure { refused.message() };
    LaneModel model;
    model.setMomentSpecs(request.moments);
    model.setRun(&run);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    const TimeMs to = request.to < 0 ? actionEnd(model) : request.to;
    if (auto painted
        = paintImage(buffer, QFileInfo(request.path).suffix().toLower(), { { &model, QString() } }, request, to);
        !painted)
        return Failure { painted.message() };
    return buffer.data();
}

Outcome<std::string> drawEndpointRun(const RunView& run, bool svg, int width, int height)
{
    ImageExportRequest request;
    request.path = svg ? QStringLiteral("run.svg") : QStringLiteral("run.png");
    request.size = QSize(width, height);
    request.title = QStringLiteral("lifeline serve");
    // An empty frame says nothing; a failed test's picture of no message says so (what it sent went elsewhere).
    if (run.messageCount() == 0)
        request.claim = run.queueCount() == 0 ? QObject::tr("No queue and no message in this run")
                                              : QObject::tr("No message was sent in this run");
    else if (const EventLog& log = run.log();
             log.size() > log.firstRetained() && log[log.firstRetained()].time == log[log.size() - 1].time)
        // A test that never advanced its manual clock: every lane is a sliver at one instant. Said, with the way out.
        request.claim = QObject::tr("Everything here happened at %1, the clock standing: advance it between steps "
                                    "(POST /_lifeline/clock/advance) to draw them apart")
                            .arg(QString::fromStdString(formatDuration(log[log.size() - 1].time)));
    auto image = drawTimelineImage(run, request);
    if (!image)
        return Failure { image.message() };
    return image.value().toStdString();
}

namespace {

// The panels' models, each with its moments found over its run.
struct PanelModels {
    std::vector<std::unique_ptr<LaneModel>> models;
    std::vector<ModelPanel> shown;
    explicit PanelModels(const std::vector<ExportPanel>& panels)
    {
        for (const ExportPanel& panel : panels) {
            models.push_back(std::make_unique<LaneModel>());
            models.back()->setMomentSpecs(panel.moments);
            models.back()->setRun(panel.run);
            shown.push_back({ models.back().get(), panel.heading });
        }
    }
};

} // namespace

Outcome<> exportComparisonImage(const std::vector<ExportPanel>& panels, const ImageExportRequest& request)
{
    if (auto refused = checkRequest(request); !refused)
        return refused;
    const PanelModels panelModels(panels);
    TimeMs end = 1000;
    for (const ModelPanel& panel : panelModels.shown)
        end = std::max(end, actionEnd(*panel.model));
    if (panelModels.shown.empty())
        return Failure { "nothing to draw" };
    return writeImage(panelModels.shown, request, request.to < 0 ? end : request.to);
}

QString exportAltText(const std::vector<ExportPanel>& panels, const ImageExportRequest& request)
{
    return altTextOf(PanelModels(panels).shown, request);
}

} // namespace lifeline::ui
