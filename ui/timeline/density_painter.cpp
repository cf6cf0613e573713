#include "timeline/density_painter.h"

#include "lifeline/support/duration.h"
#include "lifeline/timeline/noisy_spans.h"
#include "timeline/lane_painter.h"

#include <QImage>
#include <QLocale>
#include <QObject>
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace lifeline::ui {

namespace {
QString count(int64_t n)
{
    return QLocale::system().toString(qlonglong(n));
}

// A band's pixels, written a column at a time (premultiplied ARGB, transparent where nothing is drawn).
class BandImage {
public:
    BandImage(int width, int height)
        : m_image(width, height, QImage::Format_ARGB32_Premultiplied)
    {
        m_image.fill(Qt::transparent);
        m_bits = m_image.bits(); // once: scanLine() checks for a shared copy on every call
        m_stride = m_image.bytesPerLine();
    }
    // Rows [top, bottom) of column x.
    void fill(int x, int top, int bottom, QRgb color)
    {
        top = std::max(0, top);
        bottom = std::min(m_image.height(), bottom);
        for (int y = top; y < bottom; ++y)
            reinterpret_cast<QRgb*>(m_bits + qsizetype(y) * m_stride)[x] = color;
    }
    const QImage& image() const { return m_image; }

private:
    QImage m_image;
    uchar* m_bits = nullptr;
    qsizetype m_stride = 0;
};

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
    int64_t delayed = 0, visible = 0, inFlight = 0;
    for (size_t b = first; b <= last; ++b) {
        delayed += buckets[b].delayed;
        visible += buckets[b].visible;
        inFlight += buckets[b].inFlight;
        column.sent += buckets[b].sent;
        column.deleted += buckets[b].deleted;
        column.deadLettered += buckets[b].deadLettered;
        column.expired += buckets[b].expired;
    }
    // The levels' mean over the column (one bucket: exactly the engine's counts at its end), so a zoomed-out band
    // shows how full the queue was rather than the noise of one instant.
    const auto covered = int64_t(last - first + 1);
    column.delayed = int32_t((delayed + covered / 2) / covered);
    column.visible = int32_t((visible + covered / 2) / covered);
    column.inFlight = int32_t((inFlight + covered / 2) / covered);
    return column;
}

std::vector<BandColumn> laneColumns(
    const LaneModel& model, const LaneModel::Lanes& lanes, const TimeAxis& axis, int x0, int x1, TimeMs now)
{
    const long count = long(x1) - long(x0) + 1;
    std::vector<BandColumn> columns(static_cast<size_t>(count));
    std::vector<std::array<int32_t, 3>> steps(
        static_cast<size_t>(count) + 1); // per column: lanes entering (+) and leaving (-)
    // A segment [t0, t1) counts in the columns whose start it covers; what ends counts in the column it ends in.
    const auto startingAt = [&](TimeMs t) { return std::clamp(long(std::ceil(axis.toX(t) - 1e-9)) - x0, 0L, count); };
    const auto holding = [&](TimeMs t) { return std::clamp(long(std::floor(axis.toX(t))) - x0, 0L, count - 1); };
    const auto slot = [](MessageState state) {
        return state == MessageState::Delayed ? 0 : state == MessageState::Visible ? 1 : 2;
    };
    const RunView& run = *model.run();
    const LaneIndex& index = model.lanes();
    const TimeMs end = axis.toTime(x1 + 1);
    for (const MessageIndex lane : lanes) {
        MessageState state = index.stateBefore(lane); // None unless it began before the history held
        TimeMs since = index.forgottenUntil();
        for (uint32_t ev = index.lane(lane).first; ev != kNoEvent; ev = index.nextOfLane(ev)) {
            const Event& e = run.log()[ev];
            if (!picture::isTransition(e))
                continue;
            if (isLive(state)) {
                ++steps[size_t(startingAt(since))][size_t(slot(state))];
                --steps[size_t(startingAt(e.time))][size_t(slot(state))];
            }
            if (e.time >= axis.start && e.time < end) {
                BandColumn& c = columns[size_t(holding(e.time))];
                c.deleted += e.to == MessageState::Deleted;
                c.deadLettered += e.to == MessageState::DeadLettered;
                c.expired += e.to == MessageState::Expired;
                c.sent += e.from == MessageState::None;
            }
            state = e.to;
            since = e.time;
            if (since > end)
                break;
        }
        if (isLive(state) && since <= now) {
            ++steps[size_t(startingAt(since))][size_t(slot(state))];
            --steps[size_t(startingAt(now + 1))][size_t(slot(state))];
        }
    }
    std::array<int32_t, 3> level {};
    for (long i = 0; i < count; ++i) {
        for (size_t s = 0; s < 3; ++s)
            level[s] += steps[size_t(i)][s];
        BandColumn& c = columns[size_t(i)];
        c.known = axis.toTime(x0 + int(i)) <= now;
        c.delayed = level[0];
        c.visible = level[1];
        c.inFlight = level[2];
    }
    return columns;
}

int32_t paintQueueBand(QPainter& p, const QRect& band, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, QueueIndex queue, const LaneModel::Lanes* listed)
{
    const TimeAxis& axis = frame.axis;
    const int x0 = std::max(int(axis.left), band.left()), x1 = band.right();
    if (x1 <= x0)
        return 0;
    // Zoomed in past the buckets (one wider than two columns), a few enough lanes are counted themselves.
    const bool fromLanes
        = listed && listed->size() <= kLaneColumnsUpTo && double(model.density().bucketMs()) > 2 * axis.msPerPixel;
    std::vector<BandColumn> columns = fromLanes ? laneColumns(model, *listed, axis, x0, x1, frame.now)
                                                : std::vector<BandColumn>(size_t(x1 - x0 + 1));
    int32_t most = 1, mostEnded = 1;
    for (int x = x0; x <= x1; ++x) {
        const TimeMs from = std::max<TimeMs>(0, axis.toTime(x));
        BandColumn& c = columns[size_t(x - x0)];
        if (!fromLanes && from <= frame.now) // nothing to say about the future
            c = queueBandColumn(model.density(), queue, from, std::min(axis.toTime(x + 1), frame.now + 1));
        most = std::max(most, c.live());
        mostEnded = std::max(mostEnded, c.deleted + c.deadLettered + c.expired);
    }
    // Stacked areas: delayed at the bottom, then visible, then in flight; under them a strip of what ended
    // (dead-lettered or expired in their colours whenever there were any, else deleted by how many). Written into
    // an image a column at a time and drawn at once: a polygon of thousands of steps costs the rasteriser far more.
    const int width = int(columns.size()), height = band.height();
    const int strip = std::max(3, height / 12);
    const int base = height - strip - 1; // the areas' bottom row in the image
    const double scale = double(height - strip - 4) / double(most);
    const std::array<QRgb, 3> colors { style.stateColor[size_t(MessageState::Delayed)].rgba(),
        style.stateColor[size_t(MessageState::Visible)].rgba(),
        style.stateColor[size_t(MessageState::InFlight)].rgba() };
    BandImage image(width, height);
    for (int i = 0; i < width; ++i) {
        const BandColumn& c = columns[size_t(i)];
        if (!c.known)
            continue;
        const std::array<int32_t, 3> values { c.delayed, c.visible, c.inFlight };
        int32_t level = 0;
        int bottom = base;
        for (size_t s = 0; s < 3; ++s) {
            level += values[s];
            const int top = base - int(std::lround(level * scale));
            image.fill(i, top, bottom, colors[s]);
            bottom = top;
        }
        if (const int32_t n = c.deleted + c.deadLettered + c.expired; n > 0) {
            QColor color = style.stateColor[size_t(c.deadLettered > 0 ? MessageState::DeadLettered
                    : c.expired > 0                                   ? MessageState::Expired
                                                                      : MessageState::Deleted)];
            if (c.deadLettered == 0 && c.expired == 0)
                color.setAlpha(60 + 195 * n / mostEnded);
            image.fill(i, base + 1, height, qPremultiply(color.rgba()));
        }
    }
    p.drawImage(QPoint(x0, band.top()), image.image());
    return most;
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
    if (x1 <= x0)
        return;
    const int height = band.height(), base = height - 1, span = height - 3;
    const double actors = density.groupActors(group);
    const QRgb working = style.working.rgba(), polling = style.polling.rgba();
    BandImage image(x1 - x0 + 1, height);
    for (int x = x0; x <= x1; ++x) {
        // A column narrower than a millisecond still reads the bucket it lies in.
        const TimeMs from = std::max<TimeMs>(0, axis.toTime(x)),
                     to = std::min(frame.now, std::max(from + 1, axis.toTime(x + 1)));
        size_t first = 0, last = 0;
        if (to <= from || !bucketsOf(density, from, to, first, last) || last >= buckets.size())
            continue;
        double workMs = 0, pollMs = 0;
        for (size_t b = first; b <= last; ++b) {
            workMs += buckets[b].workingMs;
            pollMs += buckets[b].pollingMs;
        }
        const double total = double(last - first + 1) * double(density.bucketMs()) * actors;
        const double workShare = std::min(1.0, workMs / total);
        const double pollShare = std::min(1.0 - workShare, pollMs / total);
        const int workTop = base - int(std::lround(span * workShare));
        const int pollTop = base - int(std::lround(span * (workShare + pollShare)));
        image.fill(x - x0, workTop, base, working);
        image.fill(x - x0, pollTop, workTop, polling);
    }
    p.drawImage(QPoint(x0, band.top()), image.image());
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
                       .arg(QString::fromStdString(model.run()->queueInfo(queue).name),
                           QString::fromStdString(lifeline::formatDuration(start + bucket)), count(c.visible),
                           count(c.inFlight), count(c.delayed));
    text += QObject::tr("\nin these %1: %2 arrived, %3 deleted")
                .arg(QString::fromStdString(lifeline::formatDuration(bucket)), count(c.sent), count(c.deleted));
    if (c.deadLettered > 0)
        text += QObject::tr(", %1 moved to the DLQ").arg(count(c.deadLettered));
    if (c.expired > 0)
        text += QObject::tr(", %1 expired").arg(count(c.expired));
    // A fair queue's noisy groups then (CloudWatch's ApproximateNumberOfNoisyGroups, and which they are).
    QStringList noisy;
    for (const NoisySpan& span : noisySpans(*model.run(), model.lanes(), queue, model.run()->now()))
        if (span.from <= at && (at < span.to || span.open))
            noisy << QString::fromStdString(span.tenant);
    if (!noisy.isEmpty())
        text += QObject::tr("\nnoisy groups: %1 (%2): receives serve the quiet groups first")
                    .arg(count(noisy.size()), noisy.join(QStringLiteral(", ")));
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
            QString::fromStdString(lifeline::formatDuration(TimeMs(b + 1) * density.bucketMs())),
            QString::number(std::lround(100.0 * a.workingMs / span)),
            QString::number(std::lround(100.0 * a.pollingMs / span)),
            QString::number(std::max(0L, 100 - std::lround(100.0 * (a.workingMs + a.pollingMs) / span))));
}

} // namespace lifeline::ui
