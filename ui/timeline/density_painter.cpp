#include "timeline/density_painter.h"

#include "lifeline/sim/duration.h"

#include <QLocale>
#include <QObject>
#include <QPolygonF>
#include <algorithm>
#include <array>
#include <vector>

namespace lifeline::ui {

namespace {
QString count(int64_t n)
{
    return QLocale::system().toString(qlonglong(n));
}

// The buckets a column [from, to) covers, or none when it lies past what the series holds.
bool bucketsOf(const DensitySeries& density, TimeMs from, TimeMs to, size_t& first, size_t& last)
{
    if (density.bucketCount() == 0 || to <= 0 || density.bucketOf(from) >= density.bucketCount())
        return false;
    first = density.bucketOf(from);
    last = std::min(density.bucketOf(std::max(from, to - 1)), density.bucketCount() - 1);
    return true;
}
} // namespace

BandColumn queueBandColumn(const DensitySeries& density, QueueIndex queue, TimeMs from, TimeMs to)
{
    BandColumn column;
    const auto& buckets = density.queue(queue);
    size_t first = 0, last = 0;
    if (buckets.empty() || !bucketsOf(density, from, to, first, last))
        return column;
    column.known = true;
    const QueueDensity& end = buckets[last];
    column.delayed = end.delayed;
    column.visible = end.visible;
    column.inFlight = end.inFlight;
    for (size_t b = first; b <= last; ++b) {
        column.sent += buckets[b].sent;
        column.deleted += buckets[b].deleted;
        column.deadLettered += buckets[b].deadLettered;
        column.expired += buckets[b].expired;
    }
    return column;
}

void paintQueueBand(QPainter& p, const QRect& band, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, QueueIndex queue)
{
    const TimeAxis& axis = frame.axis;
    const int x0 = std::max(int(axis.left), band.left()), x1 = band.right();
    if (x1 <= x0)
        return;
    std::vector<BandColumn> columns(size_t(x1 - x0 + 1));
    int32_t most = 1, mostEnded = 1;
    for (int x = x0; x <= x1; ++x) {
        const TimeMs from = std::max<TimeMs>(0, axis.toTime(x));
        BandColumn& c = columns[size_t(x - x0)];
        if (from <= frame.now) // nothing to say about the future
            c = queueBandColumn(model.density(), queue, from, std::min(axis.toTime(x + 1), frame.now + 1));
        most = std::max(most, c.live());
        mostEnded = std::max(mostEnded, c.deleted + c.deadLettered + c.expired);
    }
    // Stacked areas, one polygon per state: delayed at the bottom, then visible, then in flight.
    const int strip = std::max(3, band.height() / 12); // what ended, under the areas
    const double bottom = band.bottom() - strip, height = band.height() - strip - 4;
    const double scale = height / double(most);
    const std::array<MessageState, 3> states { MessageState::Delayed, MessageState::Visible, MessageState::InFlight };
    std::array<QPolygonF, 3> tops, bases;
    for (size_t i = 0; i < columns.size(); ++i) {
        const BandColumn& c = columns[i];
        if (!c.known)
            continue;
        const double x = x0 + double(i);
        double level = 0;
        const std::array<int32_t, 3> values { c.delayed, c.visible, c.inFlight };
        for (size_t s = 0; s < 3; ++s) {
            bases[s] << QPointF(x, bottom - level * scale) << QPointF(x + 1, bottom - level * scale);
            level += values[s];
            tops[s] << QPointF(x, bottom - level * scale) << QPointF(x + 1, bottom - level * scale);
        }
    }
    p.setPen(Qt::NoPen);
    for (size_t s = 0; s < 3; ++s) {
        if (tops[s].isEmpty())
            continue;
        QPolygonF area = tops[s];
        for (auto it = bases[s].crbegin(); it != bases[s].crend(); ++it)
            area << *it;
        p.setBrush(style.fill(states[s]));
        p.drawPolygon(area);
    }
    // The strip: dead-lettered or expired in their colours whenever there were any, else deleted by how many.
    for (size_t i = 0; i < columns.size(); ++i) {
        const BandColumn& c = columns[i];
        const int32_t ended = c.deleted + c.deadLettered + c.expired;
        if (!c.known || ended == 0)
            continue;
        QColor color = style.stateColor[size_t(c.deadLettered > 0 ? MessageState::DeadLettered
                : c.expired > 0                                   ? MessageState::Expired
                                                                  : MessageState::Deleted)];
        if (c.deadLettered == 0 && c.expired == 0)
            color.setAlpha(60 + 195 * ended / mostEnded);
        p.fillRect(QRectF(x0 + double(i), bottom + 1, 1, strip - 1), color);
    }
    // The scale: how many messages the band's height stands for.
    p.setPen(style.text);
    p.drawText(QRect(x0 + 4, band.top() + 1, 240, 14), Qt::AlignLeft | Qt::AlignTop,
        QObject::tr("%1 in the queue at most").arg(count(most)));
}

void paintActorBand(QPainter& p, const QRect& band, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, size_t group)
{
    const DensitySeries& density = model.density();
    if (group >= density.groupCount() || density.groupActors(group) == 0)
        return;
    const auto& buckets = density.groupActivity(group);
    const TimeAxis& axis = frame.axis;
    const int x0 = std::max(int(axis.left), band.left()), x1 = band.right();
    const double height = band.height() - 3, bottom = band.bottom() - 1;
    const double actors = density.groupActors(group);
    for (int x = x0; x <= x1; ++x) {
        const TimeMs from = std::max<TimeMs>(0, axis.toTime(x)), to = std::min(frame.now, axis.toTime(x + 1));
        size_t first = 0, last = 0;
        if (to <= from || !bucketsOf(density, from, to, first, last) || last >= buckets.size())
            continue;
        double working = 0, polling = 0;
        for (size_t b = first; b <= last; ++b) {
            working += buckets[b].workingMs;
            polling += buckets[b].pollingMs;
        }
        const double span = double(last - first + 1) * double(density.bucketMs()) * actors;
        const double workH = height * std::min(1.0, working / span);
        const double pollH = height * std::min(1.0 - workH / height, polling / span);
        p.fillRect(QRectF(x, bottom - workH, 1, workH), style.working);
        p.fillRect(QRectF(x, bottom - workH - pollH, 1, pollH), style.polling);
    }
}

QString queueBandText(const LaneModel& model, QueueIndex queue, TimeMs at)
{
    const DensitySeries& density = model.density();
    const BandColumn c = queueBandColumn(density, queue, at, at + 1);
    if (!c.known)
        return {};
    const TimeMs bucket = density.bucketMs();
    const TimeMs start = TimeMs(density.bucketOf(at)) * bucket;
    QString text = QObject::tr("%1 at %2: %3 visible, %4 in flight, %5 delayed")
                       .arg(QString::fromStdString(model.engine()->queueInfo(queue).name),
                           QString::fromStdString(sim::formatDuration(start + bucket)), count(c.visible),
                           count(c.inFlight), count(c.delayed));
    text += QObject::tr("\nin these %1: %2 arrived, %3 deleted")
                .arg(QString::fromStdString(sim::formatDuration(bucket)), count(c.sent), count(c.deleted));
    if (c.deadLettered > 0)
        text += QObject::tr(", %1 moved to the DLQ").arg(count(c.deadLettered));
    if (c.expired > 0)
        text += QObject::tr(", %1 expired").arg(count(c.expired));
    return text + QObject::tr("\nToo many lanes to read here: zoom in, or click the queue's name to list them.");
}

QString actorBandText(const LaneModel& model, size_t group, TimeMs at)
{
    const DensitySeries& density = model.density();
    if (group >= density.groupCount() || density.bucketCount() == 0)
        return {};
    const size_t b = std::min(density.bucketOf(at), density.bucketCount() - 1);
    const ActivityDensity& a = density.groupActivity(group)[b];
    const double span = double(density.bucketMs()) * density.groupActors(group);
    return QObject::tr("%1 (%2 consumers) at %3: %4% working, %5% polling, %6% idle")
        .arg(QString::fromStdString(density.groupName(group)), count(density.groupActors(group)),
            QString::fromStdString(sim::formatDuration(TimeMs(b + 1) * density.bucketMs())),
            QString::number(std::lround(100.0 * a.workingMs / span)),
            QString::number(std::lround(100.0 * a.pollingMs / span)),
            QString::number(std::max(0L, 100 - std::lround(100.0 * (a.workingMs + a.pollingMs) / span))));
}

} // namespace lifeline::ui
