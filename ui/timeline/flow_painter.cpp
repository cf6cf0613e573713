#include "timeline/flow_painter.h"

#include <QPolygonF>
#include <unordered_map>

namespace lifeline::ui {

namespace {

void arrow(QPainter& p, QPointF from, QPointF to)
{
    p.drawLine(from, to);
    const double direction = to.y() < from.y() ? 1 : -1; // the head points at `to`
    p.drawPolygon(
        QPolygonF({ to, QPointF(to.x() - 4, to.y() + 6 * direction), QPointF(to.x() + 4, to.y() + 6 * direction) }));
}

} // namespace

void paintFlows(QPainter& p, const QRect& lanes, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, const QRect& laneRow, const std::function<QRect(uint32_t)>& actorRow)
{
    const RunView& run = *model.run();
    const LaneIndex& index = model.lanes();
    if (frame.selected == kNoMessage || frame.selected >= index.laneCount())
        return;
    p.save();
    p.setClipRect(lanes);
    p.setRenderHint(QPainter::Antialiasing, true);
    QPen pen(style.selection, 1.5);
    p.setPen(pen);
    p.setBrush(style.selection);
    std::unordered_map<uint32_t, TimeMs> workingSince; // by actor
    const auto outline = [&](uint32_t actor, TimeMs from, TimeMs to) {
        const QRect row = actorRow(actor);
        if (row.isNull())
            return;
        const double x0 = std::max(frame.axis.left, frame.axis.toX(from));
        const double x1 = std::min(double(lanes.right()), frame.axis.toX(to));
        if (x1 < x0)
            return;
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(x0, row.top() + 1.5, std::max(2.0, x1 - x0), row.height() - 3));
        p.setBrush(style.selection);
    };
    for (uint32_t ev = index.lane(frame.selected).first; ev != kNoEvent; ev = index.nextOfLane(ev)) {
        const Event& e = run.log()[ev];
        if (e.cause == Cause::Receive && e.actor >= kFirstActor && !laneRow.isNull()) {
            const QRect row = actorRow(e.actor);
            const double x = frame.axis.toX(e.time);
            if (!row.isNull() && x >= frame.axis.left && x <= lanes.right()) {
                const bool below = row.top() > laneRow.top();
                arrow(p, QPointF(x, below ? row.top() + 2 : row.bottom() - 2),
                    QPointF(x, below ? laneRow.bottom() - 1 : laneRow.top() + 1));
            }
        } else if (e.cause == Cause::ProcessingStarted) {
            workingSince[e.actor] = e.time;
        } else if (e.cause == Cause::ProcessingFinished || e.cause == Cause::ProcessingFailed
            || e.cause == Cause::ConsumerCrashed) {
            if (const auto it = workingSince.find(e.actor); it != workingSince.end()) {
                outline(e.actor, it->second, e.time);
                workingSince.erase(it);
            }
        }
    }
    for (const auto& [actor, since] : workingSince) // still working on it
        outline(actor, since, frame.now);
    p.restore();
}

} // namespace lifeline::ui
