#include "export/image_export.h"

#include "timeline/lane_model.h"
#include "timeline/timeline_painter.h"

#include <QFileInfo>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QStringList>
#include <QSvgGenerator>
#include <memory>

namespace lifeline::ui {

namespace {
constexpr int kTitleHeight = 48;

struct ModelPanel {
    const LaneModel* model;
    QString heading;
};

// The title and subtitle; returns the height they take.
int paintTitle(
    QPainter& p, const QRect& rect, const TimelineStyle& style, const QString& title, const QString& subtitle)
{
    QFont font = p.font();
    font.setPixelSize(18);
    font.setBold(true);
    p.setFont(font);
    p.setPen(style.text);
    // A title or subtitle wider than the image ends in an ellipsis rather than being cut mid-word.
    const int textWidth = rect.width() - 20;
    p.drawText(QRect(rect.left() + 10, rect.top() + 4, textWidth, 24), Qt::AlignVCenter | Qt::AlignLeft,
        QFontMetrics(font, p.device()).elidedText(title, Qt::ElideRight, textWidth));
    if (subtitle.isEmpty())
        return 30;
    font.setPixelSize(11);
    font.setBold(false);
    p.setFont(font);
    p.drawText(QRect(rect.left() + 10, rect.top() + 28, textWidth, 16), Qt::AlignVCenter | Qt::AlignLeft,
        QFontMetrics(font, p.device()).elidedText(subtitle, Qt::ElideRight, textWidth));
    return kTitleHeight;
}

void paintTimeline(
    QPainter& p, const QRect& timeline, const LaneModel& model, TimelineStyle style, TimeMs from, TimeMs to)
{
    // Rows shrink to show every lane when they can (down to 4 px); labels stay only where rows are tall enough.
    TimelinePainter probe(model, style);
    const int available = timeline.height() - style.rulerHeight - probe.legendHeight(timeline.width());
    style.rowHeight = std::clamp(available / std::max(1, probe.totalRows()), 4, 18);
    style.groupHeight = style.rowHeight;
    TimelinePainter painter(model, style);
    TimelineFrame frame;
    frame.now = model.engine()->now();
    frame.axis.fit(from, std::max(from + 1, to), timeline.width() - style.labelWidth);
    painter.paint(p, timeline, frame);
}

void paintExport(QPainter& p, const QRect& rect, const std::vector<ModelPanel>& panels, const TimelineStyle& style,
    const ImageExportRequest& request, TimeMs to)
{
    p.fillRect(rect, style.background);
    const bool single = panels.size() == 1;
    const QString subtitle
        = single && request.subtitle.isEmpty() ? queueSettings(*panels[0].model->engine()) : request.subtitle;
    const int top = paintTitle(p, rect, style, request.title, subtitle);
    const QRect area = rect.adjusted(0, top, 0, 0);
    const int height = area.height() / int(panels.size());
    for (size_t i = 0; i < panels.size(); ++i) {
        QRect panel(area.left(), area.top() + int(i) * height, area.width(), height);
        if (!single) {
            // Each panel's heading and its own queue settings (they are what the fix changed).
            QFont font = p.font();
            font.setPixelSize(14);
            font.setBold(true);
            p.setFont(font);
            p.setPen(style.text);
            const QString heading
                = panels[i].heading + QStringLiteral("   ") + queueSettings(*panels[i].model->engine());
            p.drawText(QRect(panel.left() + 10, panel.top() + 2, panel.width() - 20, 20),
                Qt::AlignVCenter | Qt::AlignLeft,
                QFontMetrics(font, p.device()).elidedText(heading, Qt::ElideRight, panel.width() - 20));
            panel.adjust(0, 24, 0, 0);
        }
        paintTimeline(p, panel, *panels[i].model, style, request.from, to);
    }
}

} // namespace

QString queueSettings(const Engine& engine)
{
    QStringList parts;
    for (size_t q = 0; q < engine.queueCount(); ++q) {
        const QueueInfo& info = engine.queueInfo(QueueIndex(q));
        const QueueAttributes* a = engine.queueAttributes(QueueIndex(q));
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
    if (request.size.width() < 200 || request.size.height() < 150 || request.size.width() > 16384
        || request.size.height() > 16384)
        return Failure { QObject::tr("the size must be from 200x150 to 16384x16384, got %1x%2")
                             .arg(request.size.width())
                             .arg(request.size.height())
                             .toStdString() };
    const QString suffix = QFileInfo(request.path).suffix().toLower();
    if (suffix != QStringLiteral("png") && suffix != QStringLiteral("svg") && suffix != QStringLiteral("pdf"))
        return Failure { QObject::tr("unknown image type '%1': use .png, .svg or .pdf").arg(suffix).toStdString() };
    return {};
}

Outcome<> writeImage(const std::vector<ModelPanel>& panels, const ImageExportRequest& request, TimeMs to)
{
    const TimelineStyle style = request.dark ? TimelineStyle::darkTheme() : TimelineStyle::light();
    const QRect rect(QPoint(0, 0), request.size);
    const QString suffix = QFileInfo(request.path).suffix().toLower();

    // Written through QSaveFile: a failed save leaves any earlier file as it was.
    QSaveFile file(request.path);
    if (!file.open(QIODevice::WriteOnly))
        return Failure { QObject::tr("cannot write '%1': %2").arg(request.path, file.errorString()).toStdString() };
    if (suffix == QStringLiteral("png")) {
        QImage image(request.size, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(1);
        QPainter p(&image);
        paintExport(p, rect, panels, style, request, to);
        p.end();
        if (!image.save(&file, "PNG"))
            return Failure { QObject::tr("could not encode the PNG").toStdString() };
    } else if (suffix == QStringLiteral("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(request.size);
        svg.setViewBox(rect);
        svg.setTitle(request.title);
        QPainter p(&svg);
        paintExport(p, rect, panels, style, request, to);
        p.end();
    } else {
        QPdfWriter pdf(&file);
        pdf.setTitle(request.title);
        pdf.setPageSize(QPageSize(QSizeF(request.size) * 0.75, QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(96);
        QPainter p(&pdf);
        paintExport(p, rect, panels, style, request, to);
        p.end();
    }
    if (!file.commit())
        return Failure { QObject::tr("cannot write '%1': %2").arg(request.path, file.errorString()).toStdString() };
    return {};
}

} // namespace

Outcome<> exportTimelineImage(
    const Engine& engine, const std::vector<std::string>& actorNames, const ImageExportRequest& request)
{
    if (auto refused = checkRequest(request); !refused)
        return refused;
    LaneModel model;
    model.setMomentSpecs(request.moments);
    model.setEngine(&engine, actorNames);
    const TimeMs to = request.to < 0 ? std::max<TimeMs>(engine.now(), 1000) : request.to;
    return writeImage({ { &model, QString() } }, request, to);
}

Outcome<> exportComparisonImage(const std::vector<ExportPanel>& panels, const ImageExportRequest& request)
{
    if (auto refused = checkRequest(request); !refused)
        return refused;
    std::vector<std::unique_ptr<LaneModel>> models;
    std::vector<ModelPanel> shown;
    TimeMs end = 1000;
    for (const ExportPanel& panel : panels) {
        models.push_back(std::make_unique<LaneModel>());
        models.back()->setMomentSpecs(panel.moments);
        models.back()->setEngine(panel.engine, panel.actorNames);
        shown.push_back({ models.back().get(), panel.heading });
        end = std::max(end, panel.engine->now());
    }
    if (shown.empty())
        return Failure { "nothing to draw" };
    return writeImage(shown, request, request.to < 0 ? end : request.to);
}

} // namespace lifeline::ui
