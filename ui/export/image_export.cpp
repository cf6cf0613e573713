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

namespace lifeline::ui {

namespace {
constexpr int kTitleHeight = 48;

void paintExport(QPainter& p, const QRect& rect, const LaneModel& model, TimelineStyle style,
    const ImageExportRequest& request, TimeMs to)
{
    p.fillRect(rect, style.background);
    QFont title = p.font();
    title.setPixelSize(18);
    title.setBold(true);
    p.setFont(title);
    p.setPen(style.text);
    // A title or subtitle wider than the image ends in an ellipsis rather than being cut mid-word.
    const int textWidth = rect.width() - 20;
    p.drawText(QRect(rect.left() + 10, rect.top() + 4, textWidth, 24), Qt::AlignVCenter | Qt::AlignLeft,
        QFontMetrics(title, p.device()).elidedText(request.title, Qt::ElideRight, textWidth));
    QFont body = p.font();
    body.setPixelSize(11);
    body.setBold(false);
    p.setFont(body);
    p.drawText(QRect(rect.left() + 10, rect.top() + 28, textWidth, 16), Qt::AlignVCenter | Qt::AlignLeft,
        QFontMetrics(body, p.device())
            .elidedText(request.subtitle.isEmpty() ? queueSettings(*model.engine()) : request.subtitle, Qt::ElideRight,
                textWidth));
    // Rows shrink to show every lane when they can (down to 4 px); labels stay only where rows are tall enough.
    const QRect timeline = rect.adjusted(0, kTitleHeight, 0, 0);
    TimelinePainter probe(model, style);
    const int available = timeline.height() - style.rulerHeight - probe.legendHeight(timeline.width());
    style.rowHeight = std::clamp(available / std::max(1, probe.totalRows()), 4, 18);
    style.groupHeight = style.rowHeight;
    TimelinePainter painter(model, style);
    TimelineFrame frame;
    frame.now = model.engine()->now();
    frame.axis.fit(request.from, std::max(request.from + 1, to), timeline.width() - style.labelWidth);
    painter.paint(p, timeline, frame);
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

Outcome<> exportTimelineImage(
    const Engine& engine, const std::vector<std::string>& actorNames, const ImageExportRequest& request)
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
    LaneModel model;
    model.setEngine(&engine, actorNames);
    const TimelineStyle style = request.dark ? TimelineStyle::darkTheme() : TimelineStyle::light();
    const TimeMs to = request.to < 0 ? std::max<TimeMs>(engine.now(), 1000) : request.to;
    const QRect rect(QPoint(0, 0), request.size);

    // Written through QSaveFile: a failed save leaves any earlier file as it was.
    QSaveFile file(request.path);
    if (!file.open(QIODevice::WriteOnly))
        return Failure { QObject::tr("cannot write '%1': %2").arg(request.path, file.errorString()).toStdString() };
    if (suffix == QStringLiteral("png")) {
        QImage image(request.size, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(1);
        QPainter p(&image);
        paintExport(p, rect, model, style, request, to);
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
        paintExport(p, rect, model, style, request, to);
        p.end();
    } else {
        QPdfWriter pdf(&file);
        pdf.setTitle(request.title);
        pdf.setPageSize(QPageSize(QSizeF(request.size) * 0.75, QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(96);
        QPainter p(&pdf);
        paintExport(p, rect, model, style, request, to);
        p.end();
    }
    if (!file.commit())
        return Failure { QObject::tr("cannot write '%1': %2").arg(request.path, file.errorString()).toStdString() };
    return {};
}

} // namespace lifeline::ui
