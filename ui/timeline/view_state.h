// The timeline's view state that outlives a gesture: following live (its one owner: the action's checked state), and
// the zoom history that Back undoes, with the actions the window's toolbar and menus show (in the manner of KDAB
// Hotspot's FilterAndZoomStack). The TimelineView keeps the current frame (axis, scroll, selection) and tells this
// object before each zoom gesture.
#pragma once

#include "lifeline/run/event_log.h"

#include <QObject>
#include <optional>
#include <vector>

class QAction;

namespace lifeline::ui {

class ViewState : public QObject {
    Q_OBJECT
public:
    // A visible time window: where it starts and how many milliseconds a pixel holds.
    struct Window {
        TimeMs start = 0;
        double msPerPixel = 100;
    };
    static constexpr size_t kMaxHistory = 50;

    explicit ViewState(QObject* parent = nullptr);

    QAction* followLiveAction() const { return m_followLive; } // L; checkable
    QAction* zoomInAction() const { return m_zoomIn; } // Ctrl++
    QAction* zoomOutAction() const { return m_zoomOut; } // Ctrl+-
    QAction* fitAction() const { return m_fit; } // shown with F, which the timeline handles itself
    QAction* zoomBackAction() const { return m_zoomBack; } // Alt+Left, or Backspace in the timeline
    // Only the lanes alive in the visible window (checkable; on by itself once a run passes kAliveAbove lanes).
    QAction* aliveOnlyAction() const { return m_aliveOnly; }

    bool followingLive() const;
    void setFollowingLive(bool follow); // followLiveToggled when it changes, as for the user's toggle

    // The window before a zoom gesture starts (a run of W/S or Ctrl+wheel steps is one gesture; a fit is one).
    void beginZoom(Window current);
    void endZoomGesture() { m_inGesture = false; }
    // The window before the last gesture, removed from the history; none when the history is empty.
    std::optional<Window> back();
    size_t historySize() const { return m_history.size(); }
    void clearHistory();

signals:
    void followLiveToggled(bool follow);
    void zoomInRequested();
    void zoomOutRequested();
    void fitRequested();
    void zoomBackRequested();
    void aliveOnlyToggled(bool alive); // by the user

private:
    void updateBack();

    QAction* m_followLive;
    QAction* m_zoomIn;
    QAction* m_zoomOut;
    QAction* m_fit;
    QAction* m_zoomBack;
    QAction* m_aliveOnly;
    std::vector<Window> m_history;
    bool m_inGesture = false;
};

} // namespace lifeline::ui
