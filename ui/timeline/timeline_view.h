// The timeline widget: paints through TimelinePainter and owns the view state (zoom, pan, scroll, selection,
// follow-live). Interaction follows the lane viewers people know (timeline-ux.md): Ctrl+wheel or W/S zoom around
// the cursor, A/D or drag pan, wheel scrolls lanes, F fits the run, Esc clears the selection, hover explains. By
// keyboard alone: Up and Down move between lanes, Left and Right (with a lane selected) between its events, Enter tells
// its story; a screen reader reads the lanes as a table (timeline_accessible.h).
#pragma once

#include "timeline/timeline_painter.h"
#include "timeline/view_state.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <optional>

namespace lifeline::ui {

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(LaneModel* model, QWidget* parent = nullptr);

    const TimelineFrame& frame() const { return m_frame; }
    void setTheme(Theme theme);
    // Presenter mode: rows, type, marks and pins times `scale` (1: the screen's).
    void setPresentationScale(double scale);
    const TimelineStyle& timelineStyle() const { return m_style; }
    const TimelinePainter& painter() const { return m_painter; }
    const LaneModel& model() const { return *m_model; }
    TimeMs timeAt(double x) const;

    void setNow(TimeMs now); // also keeps "now" in view while following live
    void setRunEnd(TimeMs end) { m_runEnd = end; }
    // The waits that played faster (LiveDriver::fastSpans, which outlives the view's use of it), noted on the ruler.
    void setFastSpans(const std::vector<FastSpan>* spans) { m_frame.fastSpans = spans; }
    // Callouts for every moment that finds room (the default), or only the focused one (while a caption that says
    // the same is shown large over the view).
    void setMomentCallouts(bool all)
    {
        m_frame.momentCallouts = all;
        update();
    }
    // While the run plays rows shrink over a few paints as lanes arrive; paused (a screenshot, a test) they snap.
    void setEaseRows(bool ease)
    {
        m_easeRows = ease;
        update(); // paused, rows on their way snap to their height
    }
    // The user fits the whole run: a zoom gesture that Back undoes.
    void fitAll();
    // A new run is shown fitted: not a gesture, and the zoom history starts again.
    void fitRun();
    void zoomAround(double x, double factor);
    // Shows this time window (a linked view follows another): not a gesture, and not following live.
    void showWindow(TimeMs start, double msPerPixel);
    // A range the window frames (a lesson's story as it unfolds): kept through resizes; not a gesture, and the view
    // is not following live.
    void frameRange(TimeMs from, TimeMs to);
    // Fits [from, to] to the width: a zoom gesture that Back undoes; not following live.
    void fitRange(TimeMs from, TimeMs to);
    // Back to the window before the last zoom gesture (Backspace, Alt+Left, View > Back).
    void zoomBack();
    ViewState* viewState() const { return m_state; }
    void panPixels(double dx); // a manual pan: stops following live
    void scrollRows(int rows);
    bool followingLive() const; // the view state's Follow live action
    void setFollowLive(bool follow);
    void select(MessageIndex lane);
    void centreOn(TimeMs time); // a manual move: stops following live
    void setFilter(const LaneFilter& filter);
    // Lanes alive in view (the user's choice: the automatic switch above kAliveAbove lanes stops deciding).
    static constexpr size_t kAliveAbove = 300;
    void setAliveOnly(bool alive);
    bool aliveOnly() const { return m_painter.rows().aliveOnly(); }
    void setLaneOrder(LaneOrder order);
    // A queue drawn as a density band listed as lanes anyway (a click on its band's label), or back to a band.
    void setQueueExpanded(QueueIndex queue, bool expanded);
    TimeMs measured() const; // the measured range's length, or -1
    TimeMs visibleFrom() const { return m_frame.axis.start; }
    TimeMs visibleTo() const { return m_frame.axis.start + TimeMs(timeWidth() * m_frame.axis.msPerPixel); }
    MessageIndex selected() const { return m_frame.selected; }
    // A lesson's moments (LaneModel::moments(), numbered from 1): N / Shift+N or a click on a pin go to one, centred
    // and zoomed to its message's life, its row in view and its callout drawn.
    void focusMoment(int number);
    void stepMoment(int direction);
    int focusedMoment() const { return m_frame.focusedMoment; }

signals:
    void laneSelected(lifeline::MessageIndex lane); // kNoMessage when cleared
    void actorClicked(uint32_t actor); // a click on an actor's row off its work (the window crashes or restarts it)
    void followLiveChanged(bool following);
    void viewChanged(); // zoom, pan or "now" moved the visible window
    void viewTaken(); // the user zoomed, panned, fitted or went to a moment or an event: the view is theirs now
    void momentFocused(int number);
    // Enter on a lane: its story in words (lane_facts.h), for the status bar; the accessible table says the same.
    void storyTold(const QString& story);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    double timeWidth() const { return std::max(1, width() - m_style.labelWidth); }
    void viewMoved(); // after the axis changed: clamps it at 0 s, says so (viewChanged) and repaints
    void repaintNowStrip(TimeMs from, TimeMs to); // "now" moved and nothing else: the strip it crossed
    void fitKept(TimeMs from, TimeMs to); // fits the range, and keeps it fitted through resizes (m_fitted)
    void stepEvent(int direction); // `.` and `,`, or Left and Right: the selected lane's next or previous event
    void stepLane(int direction); // Up and Down: the message lane above or below the selected one
    void tellAccessibility(); // soon after the view changed: the accessible table reads its rows and cells again
    void fitKey(); // F: the selection, then the whole run
    // Fits the rows to the window before a paint, keeping the row under the mouse (else the top one) in place.
    void arrangeRows();
    void growType(); // after the rows' height is known: larger type and names for rows grown tall
    bool keepsFit() const; // the view still shows the range fitted last (m_fitted)
    bool clickOnLabel(const RowRef& row); // expands or collapses a band; true when it did
    ViewState::Window window() const { return { m_frame.axis.start, m_frame.axis.msPerPixel }; }

    LaneModel* m_model;
    TimelineStyle m_style;
    Theme m_theme = Theme::Light;
    double m_scale = 1;
    TimelineStyle m_least = TimelineStyle::light(); // the theme's sizes: rows, their type and names grow from them
    TimelinePainter m_painter;
    TimelineFrame m_frame;
    ViewState* m_state;
    TimeMs m_runEnd = 0;
    bool m_dragging = false;
    bool m_lastKeyWasFit = false;
    struct Fitted {
        TimeMs from, to; // the range fitted
        TimeMs start; // the axis it gave: a view still showing it is refitted when its width changes
        double msPerPixel;
    };
    std::optional<Fitted> m_fitted;
    QElapsedTimer m_wholePaint; // since the last paint of the whole view
    QElapsedTimer m_followMoved; // since following live last moved the axis
    bool m_lanesChanged = false; // since the last whole paint: that paint may as well move the axis
    std::optional<TimeMs> m_steppedTo; // the event `.` or `,` centred on last, until the view moves otherwise
    bool m_easeRows = false;
    int m_rowTarget = 0; // the height rows fill (fillingRowHeight); easing, they are on their way to it
    bool m_aliveChosen = false; // the user set "alive in view": no automatic switch any more
    bool m_measuring = false;
    QPoint m_dragFrom;
    QPoint m_pressAt;
    QTimer* m_accessibleUpdate;
    bool m_focusVisible = false; // the focus ring: after a key or a Tab into the view, until a mouse press
};

} // namespace lifeline::ui
