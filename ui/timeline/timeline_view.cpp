#include "timeline/timeline_view.h"

#include "timeline/actor_painter.h"
#include "timeline/lane_facts.h"
#include "timeline/lane_history.h"
#include "timeline/timeline_accessible.h"

#include <QAccessible>
#include <QCursor>
#include <QFocusEvent>
#include <QFontInfo>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

namespace lifeline::ui {

TimelineView::TimelineView(LaneModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_style(TimelineStyle::light())
    , m_painter(*model, m_style)
    , m_state(new ViewState(this))
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    TimelineAccessible::install();
    setAccessibleName(tr("Timeline"));
    // A screen reader's table follows the run a few times a second, not at every frame.
    m_accessibleUpdate = new QTimer(this);
    m_accessibleUpdate->setSingleShot(true);
    m_accessibleUpdate->setInterval(250);
    connect(m_accessibleUpdate, &QTimer::timeout, this, [this] {
        if (auto* table = TimelineAccessible::existing(this))
            table->viewChanged();
    });
    setMinimumSize(400, 200);
    m_frame.axis.msPerPixel = 100;
    // While a filter is on, new lanes and changed states are matched again (batched: once per model change).
    const auto modelChanged = [this] {
        if (m_painter.filter().active())
            m_painter.refreshFilter();
        m_lanesChanged = true;
        update();
    };
    connect(model, &LaneModel::lanesChanged, this, modelChanged);
    connect(model, &LaneModel::runReset, this, [this] {
        if (auto* table = TimelineAccessible::existing(this))
            table->runReplaced();
    });
    // Following live has one owner, the view state's action: a toggle by the user or by setFollowLive() lands here.
    connect(m_state, &ViewState::followLiveToggled, this, [this](bool follow) {
        if (follow)
            setNow(m_frame.now);
        emit followLiveChanged(follow);
    });
    connect(m_state, &ViewState::zoomInRequested, this, [this] {
        zoomAround(m_style.labelWidth + timeWidth() / 2, 1.5);
        m_state->endZoomGesture();
    });
    connect(m_state, &ViewState::zoomOutRequested, this, [this] {
        zoomAround(m_style.labelWidth + timeWidth() / 2, 1 / 1.5);
        m_state->endZoomGesture();
    });
    connect(m_state, &ViewState::fitRequested, this, &TimelineView::fitKey);
    connect(m_state, &ViewState::zoomBackRequested, this, &TimelineView::zoomBack);
    connect(m_state, &ViewState::aliveOnlyToggled, this, &TimelineView::setAliveOnly);
    connect(model, &LaneModel::runReset, this, [this] {
        m_frame.selected = kNoMessage;
        m_frame.firstRow = 0;
        m_frame.focusedMoment = 0;
        update();
    });
}

void TimelineView::setAliveOnly(bool alive)
{
    m_aliveChosen = true;
    m_painter.rows().setAliveOnly(alive);
    m_state->aliveOnlyAction()->setChecked(alive);
    m_frame.firstRow = 0;
    update();
}

void TimelineView::setLaneOrder(LaneOrder order)
{
    m_painter.rows().setOrder(order);
    m_frame.firstRow = 0;
    update();
}

void TimelineView::setQueueExpanded(QueueIndex queue, bool expanded)
{
    m_painter.rows().setExpanded(queue, expanded);
    update();
}

void TimelineView::arrangeRows()
{
    if (!m_model->run())
        return;
    // Above a few hundred lanes the run is listed by what is alive in view, unless the user said otherwise.
    if (!m_aliveChosen && !aliveOnly() && m_model->lanes().laneCount() > kAliveAbove) {
        m_painter.rows().setAliveOnly(true);
        m_state->aliveOnlyAction()->setChecked(true);
    }
    // The anchor: the row under the mouse, else the top one; after the rows change it stays where it was on screen.
    const QPoint mouse = mapFromGlobal(QCursor::pos());
    const QRect lanes = m_painter.lanesArea(rect(), m_frame.legend);
    const int anchorRow
        = lanes.contains(mouse) ? m_frame.firstRow + (mouse.y() - lanes.top()) / m_style.rowHeight : m_frame.firstRow;
    const int total = m_painter.totalRows();
    const RowRef anchor = m_painter.rowAt(std::clamp(anchorRow, 0, std::max(0, total - 1)));
    const bool changed = m_painter.arrange(rect(), m_frame);
    // Rows fill the height while they are few (a lesson's lanes read from across a room), and shrink as lanes arrive:
    // while the run plays, a third of the way each paint (the eye follows a lane that moves, not one that jumps).
    const int before = m_style.rowHeight;
    m_rowTarget = m_painter.fillingRowHeight(m_painter.roomForRows(rect(), m_frame.legend), m_least.rowHeight);
    m_style.rowHeight
        = m_easeRows && m_rowTarget < before ? before - std::max(1, (before - m_rowTarget) / 3) : m_rowTarget;
    if (m_style.rowHeight != before)
        update(); // the whole view: this paint may have been the now line's strip
    growType();
    if (!changed && m_frame.firstRow == 0)
        return;
    if (const int now = m_painter.rows().rowNear(anchor, anchorRow); changed && now >= 0 && anchorRow < total)
        m_frame.firstRow += now - anchorRow;
    const int maxFirst = std::max(0, m_painter.scrollableRows(rect()) - m_painter.rowsVisible(rect()) + 1);
    m_frame.firstRow = std::clamp(m_frame.firstRow, 0, maxFirst);
}

void TimelineView::growType()
{
    // Rows three lines tall get type a quarter larger, and names the room it takes: read from across a room.
    const int base = m_least.textPixels > 0 ? m_least.textPixels : QFontInfo(font()).pixelSize();
    const bool grown = m_style.rowHeight >= 3 * base;
    m_style.rowTextPixels = grown ? base * 5 / 4 : 0;
    const int labelWidth = grown ? m_least.labelWidth * 5 / 4 : m_least.labelWidth;
    if (labelWidth == m_style.labelWidth)
        return;
    const bool wasFitted = keepsFit();
    m_style.labelWidth = labelWidth;
    if (wasFitted) // the time the view showed stays in it
        fitKept(m_fitted->from, m_fitted->to);
}

bool TimelineView::keepsFit() const
{
    return m_fitted && m_fitted->start == m_frame.axis.start && m_fitted->msPerPixel == m_frame.axis.msPerPixel;
}

bool TimelineView::clickOnLabel(const RowRef& row)
{
    if (row.kind == LaneModel::QueueBand) {
        setQueueExpanded(QueueIndex(row.group), true);
        return true;
    }
    if (row.kind == LaneModel::QueueGroup && m_painter.rows().expanded(QueueIndex(row.group))) {
        setQueueExpanded(QueueIndex(row.group), false);
        return true;
    }
    return false;
}

void TimelineView::setTheme(Theme theme)
{
    m_theme = theme;
    const TimelineStyle base = TimelineStyle::of(theme);
    m_style = m_scale == 1 ? base : base.scaledBy(m_scale, QFontInfo(font()).pixelSize());
    m_least = m_style;
    update();
}

void TimelineView::setPresentationScale(double scale)
{
    m_scale = scale;
    setTheme(m_theme);
}

void TimelineView::setNow(TimeMs now)
{
    const TimeMs before = m_frame.now;
    m_frame.now = now;
    // Following live keeps "now" at about nine tenths of the width (from 0 until the run fills the view). Moving the
    // axis repaints the whole view: while nothing on the lanes changed, ten times a second, the line moving in its
    // strip between (docs/decisions.md, "An idle run paints only what it changes").
    const double span = timeWidth() * m_frame.axis.msPerPixel;
    const TimeMs start = std::max<TimeMs>(0, now - TimeMs(span * 0.9));
    const bool wait = !m_lanesChanged && m_followMoved.isValid() && m_followMoved.elapsed() < 100
        && start >= m_frame.axis.start && now < m_frame.axis.start + TimeMs(span * 0.97);
    if (!followingLive() || wait) {
        repaintNowStrip(before, now);
        return;
    }
    m_followMoved.start();
    m_frame.axis.start = start;
    viewMoved();
}

void TimelineView::repaintNowStrip(TimeMs from, TimeMs to)
{
    // Only "now" moved: only the strip it crossed changes (the line, what grows to it, a deadline's dotted line), so
    // only it is painted (docs/decisions.md). A change of the run repaints everything (lanesChanged); so does a whole
    // repaint every quarter second, for a label that a growing segment now has room for.
    if (!m_wholePaint.isValid() || m_wholePaint.elapsed() >= 250 || m_style.rowHeight != m_rowTarget) {
        update();
        return;
    }
    TimeAxis axis = m_frame.axis;
    axis.left = m_style.labelWidth;
    const double x0 = axis.toX(std::min(from, to)), x1 = axis.toX(std::max(from, to));
    if (x1 < m_style.labelWidth - 8 || x0 > width() + 8)
        return; // not in view
    // To the right edge: a lane's countdown ("visible again in 23 s") is drawn just after the line and changes as it.
    update(QRect(int(x0) - 6, 0, width() - int(x0) + 6, height()));
}

void TimelineView::viewMoved()
{
    // Nothing happens before 0 s: however the view got there (a moment early in the run, a drag, a zoom at the
    // left edge), it starts at 0 at the earliest, keeping its scale.
    m_frame.axis.start = std::max<TimeMs>(0, m_frame.axis.start);
    m_steppedTo.reset();
    emit viewChanged();
    update();
}

void TimelineView::centreOn(TimeMs time)
{
    setFollowLive(false);
    m_frame.axis.start = time - TimeMs(timeWidth() * m_frame.axis.msPerPixel / 2);
    viewMoved();
}

void TimelineView::setFilter(const LaneFilter& filter)
{
    m_painter.setFilter(filter);
    m_frame.firstRow = 0;
    update();
}

TimeMs TimelineView::measured() const
{
    if (m_frame.measureFrom < 0 || m_frame.measureTo < 0)
        return -1;
    return std::abs(m_frame.measureTo - m_frame.measureFrom);
}

TimeMs TimelineView::timeAt(double x) const
{
    TimeAxis axis = m_frame.axis;
    axis.left = m_style.labelWidth;
    return std::max<TimeMs>(0, axis.toTime(x));
}

void TimelineView::stepEvent(int direction)
{
    if (m_frame.selected == kNoMessage || !m_model->run())
        return;
    const auto times = laneEventTimes(*m_model->run(), m_model->lanes(), m_frame.selected);
    // "Here" is the event stepped to last, while the view has not moved since (near 0 s the view cannot be centred
    // on it); else the middle of the view.
    const TimeMs centre = m_steppedTo.value_or(m_frame.axis.start + TimeMs(timeWidth() * m_frame.axis.msPerPixel / 2));
    const TimeMs slack = TimeMs(m_frame.axis.msPerPixel); // within a pixel counts as "here"
    std::optional<TimeMs> target;
    if (direction > 0) {
        const auto next = std::upper_bound(times.begin(), times.end(), centre + slack);
        if (next != times.end())
            target = *next;
    } else {
        const auto previous = std::lower_bound(times.begin(), times.end(), centre - slack);
        if (previous != times.begin())
            target = *std::prev(previous);
    }
    if (!target)
        return;
    centreOn(*target);
    m_steppedTo = target;
}

void TimelineView::fitAll()
{
    m_state->beginZoom(window());
    m_state->endZoomGesture();
    fitKept(0, std::max({ m_frame.now, m_runEnd, TimeMs(1000) }));
}

void TimelineView::fitRun()
{
    m_state->clearHistory();
    fitKept(0, std::max({ m_frame.now, m_runEnd, TimeMs(1000) }));
}

void TimelineView::frameRange(TimeMs from, TimeMs to)
{
    setFollowLive(false);
    if (!keepsFit() || m_fitted->from != from || m_fitted->to != to)
        fitKept(from, std::max(from + 1, to));
}

void TimelineView::fitKept(TimeMs from, TimeMs to)
{
    m_frame.axis.fit(from, to, timeWidth());
    viewMoved();
    m_fitted = Fitted { from, to, m_frame.axis.start, m_frame.axis.msPerPixel };
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // A fitted range stays fitted as the window or its docks change size, until the view moves otherwise.
    if (keepsFit())
        fitKept(m_fitted->from, m_fitted->to);
}

void TimelineView::zoomBack()
{
    const auto previous = m_state->back();
    if (!previous)
        return;
    setFollowLive(false);
    m_frame.axis.start = previous->start;
    m_frame.axis.msPerPixel = previous->msPerPixel;
    viewMoved();
}

void TimelineView::showWindow(TimeMs start, double msPerPixel)
{
    if (m_frame.axis.start == start && m_frame.axis.msPerPixel == msPerPixel)
        return;
    setFollowLive(false);
    m_frame.axis.start = start;
    m_frame.axis.msPerPixel = msPerPixel;
    viewMoved();
}

void TimelineView::zoomAround(double x, double factor)
{
    m_state->beginZoom(window());
    TimeAxis axis = m_frame.axis;
    axis.left = m_style.labelWidth;
    axis.zoomAround(x, factor);
    m_frame.axis.start = axis.start;
    m_frame.axis.msPerPixel = axis.msPerPixel;
    viewMoved();
}

void TimelineView::panPixels(double dx)
{
    m_state->endZoomGesture();
    m_frame.axis.panPixels(dx);
    setFollowLive(false);
    viewMoved();
}

void TimelineView::scrollRows(int rows)
{
    const int maxFirst = std::max(0, m_painter.scrollableRows(rect()) - m_painter.rowsVisible(rect()) + 1);
    m_frame.firstRow = std::clamp(m_frame.firstRow + rows, 0, maxFirst);
    update();
}

void TimelineView::setFollowLive(bool follow)
{
    m_state->setFollowingLive(follow);
}

bool TimelineView::followingLive() const
{
    return m_state->followingLive();
}

void TimelineView::select(MessageIndex lane)
{
    if (lane != m_frame.selected)
        m_steppedTo.reset();
    m_frame.selected = lane;
    if (lane != kNoMessage) {
        const int row = m_painter.rowOfLane(lane);
        const int visible = m_painter.rowsVisible(rect()) - 2;
        if (row >= 0 && row < m_painter.scrollableRows(rect())
            && (row < m_frame.firstRow || row >= m_frame.firstRow + visible))
            m_frame.firstRow = std::max(0, row - visible / 2);
    }
    emit laneSelected(lane);
    update();
    if (hasFocus())
        if (auto* table = TimelineAccessible::existing(this)) {
            arrangeRows();
            table->viewChanged();
            table->announceSelection();
        }
}

void TimelineView::tellAccessibility()
{
    if (TimelineAccessible::existing(this) && !m_accessibleUpdate->isActive())
        m_accessibleUpdate->start();
}

void TimelineView::stepLane(int direction)
{
    // The next message row in the rows' order (consumers and queue rows are passed over); from none, the first.
    const int rows = m_painter.totalRows();
    const int from
        = m_frame.selected == kNoMessage ? (direction > 0 ? -1 : rows) : m_painter.rowOfLane(m_frame.selected);
    for (int r = from + direction; r >= 0 && r < rows; r += direction)
        if (const RowRef row = m_painter.rowAt(r); row.kind == LaneModel::MessageRow) {
            select(row.id);
            return;
        }
}

void TimelineView::paintEvent(QPaintEvent* event)
{
    if (event->rect().contains(rect())) {
        m_wholePaint.start();
        m_lanesChanged = false;
    }
    arrangeRows();
    QPainter p(this);
    m_painter.paint(p, rect(), m_frame);
    if (hasFocus() && m_focusVisible) { // the focus ring: keys act on this view (the selected lane has its own frame)
        p.setPen(QPen(m_style.selection, 2, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(rect().adjusted(1, 1, -2, -2));
    }
    tellAccessibility();
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    const double notches = event->angleDelta().y() / 120.0;
    if (event->modifiers() & Qt::ControlModifier) {
        zoomAround(event->position().x(), std::pow(1.25, notches));
        emit viewTaken();
    } else if (event->modifiers() & Qt::ShiftModifier) {
        panPixels(notches * 60);
        emit viewTaken();
    } else
        scrollRows(int(-notches * 3));
    event->accept();
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    if (!m_focusVisible) {
        m_focusVisible = true;
        update();
    }
    if (event->key() != Qt::Key_F)
        m_lastKeyWasFit = false;
    if (event->key() != Qt::Key_W && event->key() != Qt::Key_S)
        m_state->endZoomGesture(); // a run of W and S presses is one gesture for Back
    const double middle = m_style.labelWidth + timeWidth() / 2;
    switch (event->key()) {
    case Qt::Key_W:
        zoomAround(middle, 1.5);
        break;
    case Qt::Key_S:
        zoomAround(middle, 1 / 1.5);
        break;
    case Qt::Key_A:
        panPixels(timeWidth() / 5);
        break;
    case Qt::Key_D:
        panPixels(-timeWidth() / 5);
        break;
    case Qt::Key_F:
        fitKey();
        break;
    case Qt::Key_Backspace:
        zoomBack();
        break;
    case Qt::Key_N:
        stepMoment(event->modifiers() & Qt::ShiftModifier ? -1 : +1);
        break;
    case Qt::Key_Period:
    case Qt::Key_Right:
        stepEvent(+1);
        break;
    case Qt::Key_Comma:
    case Qt::Key_Left:
        stepEvent(-1);
        break;
    case Qt::Key_Up:
    case Qt::Key_Down:
        stepLane(event->key() == Qt::Key_Down ? +1 : -1);
        event->accept();
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (const int row = m_painter.rowOfLane(m_frame.selected); row >= 0)
            emit storyTold(rowFacts(*m_model, m_painter.rowAt(row)).story());
        event->accept();
        return;
    case Qt::Key_Escape:
        m_frame.measureFrom = m_frame.measureTo = -1;
        select(kNoMessage);
        event->accept();
        return;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    emit viewTaken(); // every key above moves the view
    event->accept();
}

void TimelineView::focusMoment(int number)
{
    const auto& moments = m_model->moments();
    if (number < 1 || size_t(number) > moments.size() || !m_model->run())
        return;
    const analysis::Moment& moment = moments[size_t(number - 1)];
    setFollowLive(false);
    m_state->beginZoom(window());
    m_state->endZoomGesture();
    // Zoomed to the message's life (20 s to 5 min of it), centred on the moment.
    TimeMs span = 60000;
    if (moment.lane != kNoMessage && !moment.onActorRow) {
        const auto times = laneEventTimes(*m_model->run(), m_model->lanes(), moment.lane);
        if (!times.empty())
            span = std::clamp<TimeMs>((times.back() - times.front()) * 6 / 5, 20000, 300000);
    }
    m_frame.axis.fit(moment.at - span / 2, moment.at + span / 2, timeWidth());
    m_frame.focusedMoment = number;
    const int row = m_painter.rowOfMoment(moment);
    const int visible = m_painter.rowsVisible(rect()) - 2;
    // A pinned consumer's row is always in view: the lanes stay where they are.
    if (row >= 0 && row < m_painter.scrollableRows(rect())
        && (row < m_frame.firstRow + 1 || row >= m_frame.firstRow + visible))
        m_frame.firstRow = std::max(0, row - visible / 3);
    if (moment.lane != kNoMessage && !moment.onActorRow)
        select(moment.lane);
    emit momentFocused(number);
    viewMoved();
}

void TimelineView::stepMoment(int direction)
{
    const int count = int(m_model->moments().size());
    if (count == 0)
        return;
    int next = m_frame.focusedMoment + direction;
    if (m_frame.focusedMoment == 0) // none yet: N starts at the first, Shift+N at the last
        next = direction > 0 ? 1 : count;
    focusMoment(std::clamp(next, 1, count));
}

void TimelineView::fitRange(TimeMs from, TimeMs to)
{
    setFollowLive(false);
    m_state->beginZoom(window());
    m_state->endZoomGesture();
    fitKept(from, std::max(from + 1, to));
}

void TimelineView::fitKey()
{
    // F centres the selection; F again (or with nothing selected) fits the whole run.
    setFollowLive(false);
    const auto times = m_frame.selected != kNoMessage && m_model->run()
        ? laneEventTimes(*m_model->run(), m_model->lanes(), m_frame.selected)
        : std::vector<TimeMs>();
    const bool again = m_lastKeyWasFit;
    m_lastKeyWasFit = true;
    if (again || times.empty()) {
        fitAll();
        return;
    }
    m_state->beginZoom(window());
    m_state->endZoomGesture();
    const TimeMs end = std::max(times.back(), std::min(m_frame.now, times.back() + 1000));
    m_frame.axis.fit(times.front() - 1000, end + 1000, timeWidth());
    viewMoved();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    m_focusVisible = false;
    m_state->endZoomGesture();
    m_lastKeyWasFit = false;
    m_dragFrom = m_pressAt = event->position().toPoint();
    // Shift+drag, or a drag on the ruler, measures a time range.
    const bool onRuler = m_pressAt.y() < m_style.rulerHeight && m_pressAt.x() > m_style.labelWidth;
    if (event->button() == Qt::LeftButton && ((event->modifiers() & Qt::ShiftModifier) || onRuler)) {
        m_measuring = true;
        m_frame.measureFrom = m_frame.measureTo = timeAt(m_pressAt.x());
        update();
        return;
    }
    m_dragging = true;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    if (m_measuring) {
        m_frame.measureTo = timeAt(event->position().x());
        update();
        return;
    }
    if (m_dragging && (event->buttons() & (Qt::LeftButton | Qt::MiddleButton | Qt::RightButton))) {
        const QPoint now = event->position().toPoint();
        if ((now - m_pressAt).manhattanLength() > 3) {
            panPixels(now.x() - m_dragFrom.x());
            emit viewTaken();
            scrollRows((m_dragFrom.y() - now.y()) / m_style.rowHeight);
            if ((m_dragFrom.y() - now.y()) / m_style.rowHeight != 0)
                m_dragFrom.setY(now.y());
            m_dragFrom.setX(now.x());
        }
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    const bool click = (event->position().toPoint() - m_pressAt).manhattanLength() <= 3;
    m_dragging = false;
    if (m_measuring) {
        m_measuring = false;
        if (click)
            m_frame.measureFrom = m_frame.measureTo = -1;
        update();
        return;
    }
    if (!click || event->button() != Qt::LeftButton)
        return;
    if (const int moment = m_painter.momentAt(rect(), m_frame, event->position().toPoint())) {
        focusMoment(moment);
        emit viewTaken();
        return;
    }
    // A click on a band's label lists its queue's lanes; on an expanded queue's name, back to its band.
    const auto row = m_painter.rowUnder(rect(), m_frame, event->position().toPoint());
    if (row && event->position().x() < m_style.labelWidth && clickOnLabel(*row))
        return;
    // A click on a consumer's work box selects the message it worked on; anywhere else on an actor's row (its
    // name, its polling) is about that actor.
    if (row && row->kind == LaneModel::ActorRow) {
        const auto work = event->position().x() >= m_style.labelWidth && m_model->run()
            ? workAt(*m_model, row->id, timeAt(event->position().x()), m_frame.now)
            : std::nullopt;
        if (work && work->firstLane != kNoMessage)
            select(work->firstLane);
        else
            emit actorClicked(row->id);
        return;
    }
    const auto hit = m_painter.hit(rect(), m_frame, event->position().toPoint());
    select(hit && hit->row.kind == LaneModel::MessageRow ? MessageIndex(hit->row.id) : kNoMessage);
}

bool TimelineView::event(QEvent* event)
{
    // Up and Down are the lanes'; Left and Right a selected lane's events (with none, the window's step keeps Right).
    if (event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const bool lanes = key->key() == Qt::Key_Up || key->key() == Qt::Key_Down;
        const bool events
            = (key->key() == Qt::Key_Left || key->key() == Qt::Key_Right) && m_frame.selected != kNoMessage;
        if (key->modifiers() == Qt::NoModifier && (lanes || events)) {
            event->accept();
            return true;
        }
    }
    if (event->type() == QEvent::FocusIn || event->type() == QEvent::FocusOut) {
        // The ring shows when the keyboard is in use, as a browser's :focus-visible does: not for a mouse user.
        const Qt::FocusReason reason = static_cast<QFocusEvent*>(event)->reason();
        if (event->type() == QEvent::FocusIn && (reason == Qt::TabFocusReason || reason == Qt::BacktabFocusReason))
            m_focusVisible = true;
        update();
    }
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const int moment = m_painter.momentAt(rect(), m_frame, help->pos()))
            QToolTip::showText(help->globalPos(),
                QStringLiteral("%1  %2").arg(moment).arg(
                    QString::fromStdString(m_model->moments()[size_t(moment - 1)].caption)),
                this);
        else if (const auto hit = m_painter.hit(rect(), m_frame, help->pos()))
            QToolTip::showText(help->globalPos(), hit->text, this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace lifeline::ui
