#include "timeline/moment_painter.h"

#include <QFontMetrics>
#include <algorithm>
#include <cmath>

namespace lifeline::ui {

namespace {

constexpr int kCalloutPadding = 6;

void paintPin(QPainter& p, const PlacedMoment& m, double instantX, bool focused, const TimelineStyle& style)
{
    // A stem from the pin to the row's middle marks the instant; the pin carries the number.
    p.setPen(QPen(style.mark, focused ? 2 : 1));
    p.drawLine(QPointF(m.pin.x(), m.pin.y()), QPointF(instantX, m.row.center().y()));
    p.setPen(QPen(style.background, 1.5));
    p.setBrush(style.mark);
    const double r = style.pinRadius + (focused ? 1 : 0);
    p.drawEllipse(m.pin, r, r);
    QFont font = p.font();
    font.setBold(true);
    font.setPixelSize(style.pinRadius * 11 / 8);
    p.setFont(font);
    p.setPen(style.background);
    p.drawText(QRectF(m.pin.x() - r, m.pin.y() - r, 2 * r, 2 * r), Qt::AlignCenter, QString::number(m.number));
}

QSize calloutSize(const PlacedMoment& m, const QFontMetrics& metrics, int maxWidth)
{
    const QString text = QStringLiteral("%1  %2").arg(m.number).arg(m.caption);
    const QRect bounds = metrics.boundingRect(
        QRect(0, 0, maxWidth - 2 * kCalloutPadding, 1000), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, text);
    return { std::min(maxWidth, bounds.width() + 2 * kCalloutPadding + 2), bounds.height() + 2 * kCalloutPadding };
}

int leftFor(const PlacedMoment& m, int width, const QRect& lanes)
{
    const int left = int(m.pin.x()) - 12;
    return std::clamp(left, lanes.left() + 2, std::max(lanes.left() + 2, lanes.right() - width - 2));
}

bool clashes(const QRect& box, const std::vector<QRect>& drawn)
{
    return std::any_of(
        drawn.begin(), drawn.end(), [&](const QRect& other) { return other.adjusted(-4, -4, 4, 4).intersects(box); });
}

// Where the callout goes: in the free space below the rows, the first place there that clashes with no callout
// drawn; else, for the focused moment only (it would cover lanes), beside the pinned row (below it, or above it
// near the bottom). Empty when there is no room.
QRect calloutBox(const PlacedMoment& m, const QRect& lanes, int freeTop, const QSize& size,
    const std::vector<QRect>& drawn, bool focused, int pinRadius)
{
    const int left = leftFor(m, size.width(), lanes);
    for (int top = freeTop + 6; top + size.height() <= lanes.bottom() - 2; top += 8) {
        const QRect box(left, top, size.width(), size.height());
        if (!clashes(box, drawn))
            return box;
    }
    if (!focused)
        return {};
    int top = m.row.bottom() + 4;
    if (top + size.height() > lanes.bottom())
        top = std::max(lanes.top(), m.row.top() - 2 * pinRadius - 4 - size.height());
    const QRect beside(left, top, size.width(), size.height());
    return clashes(beside, drawn) ? QRect() : beside;
}

void paintCallout(QPainter& p, const PlacedMoment& m, const QRect& box, const TimelineStyle& style)
{
    QColor fill = style.background;
    fill.setAlpha(240);
    QColor leader = style.mark;
    leader.setAlpha(150);
    p.setPen(QPen(leader, 1, Qt::DashLine));
    p.drawLine(m.pin,
        QPointF(std::clamp(m.pin.x(), double(box.left()), double(box.right())),
            m.pin.y() < box.top() ? box.top() : box.bottom()));
    p.setPen(QPen(style.mark, 1));
    p.setBrush(fill);
    p.drawRoundedRect(QRectF(box).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
    QFont font = p.font();
    font.setBold(false);
    font.setPixelSize(style.calloutPixels);
    p.setFont(font);
    p.setPen(style.text);
    p.drawText(box.adjusted(kCalloutPadding, kCalloutPadding, -kCalloutPadding, -kCalloutPadding),
        Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, QStringLiteral("%1  %2").arg(m.number).arg(m.caption));
}

} // namespace

void spreadPins(std::vector<PlacedMoment>& moments, int radius)
{
    // Three pixels between two pins, so they read as two and never touch; a pin moved past one is checked again
    // against all those before it.
    const int apart = 2 * radius + 3;
    for (size_t i = 0; i < moments.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (moments[j].row == moments[i].row && std::abs(moments[j].pin.x() - moments[i].pin.x()) < apart) {
                moments[i].pin.setX(moments[j].pin.x() + apart);
                j = size_t(-1); // the loop's ++j starts it again at 0
            }
}

QPointF momentPinCentre(const QRect& row, double x, const QRect& lanes, int radius)
{
    const double above = row.top() - radius + 2;
    if (above - radius >= lanes.top())
        return { x, above };
    return { x, double(row.bottom() + radius - 1) };
}

std::vector<QRect> paintMoments(QPainter& p, const QRect& lanes, int freeTop, const std::vector<PlacedMoment>& moments,
    int focused, bool allCallouts, const TimelineStyle& style)
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setClipRect(lanes);
    QFont font = p.font();
    font.setPixelSize(style.calloutPixels);
    const QFontMetrics metrics(font);
    // Callouts first, so the pins (and their numbers) stay on top of any callout that passes over them.
    std::vector<QRect> drawn;
    std::vector<const PlacedMoment*> order;
    for (const PlacedMoment& m : moments)
        if (m.number == focused)
            order.insert(order.begin(), &m);
        else if (allCallouts)
            order.push_back(&m);
    for (const PlacedMoment* m : order) {
        const QRect box = calloutBox(*m, lanes, freeTop, calloutSize(*m, metrics, style.calloutWidth), drawn,
            m->number == focused, style.pinRadius);
        if (box.isNull())
            continue;
        paintCallout(p, *m, box, style);
        drawn.push_back(box);
    }
    for (const PlacedMoment& m : moments)
        paintPin(p, m, m.instantX, m.number == focused, style);
    p.restore();
    return drawn;
}

} // namespace lifeline::ui
