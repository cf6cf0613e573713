// Presenter mode (View > Presenter mode, F11): full screen, only the timeline with the current moment's caption and
// a large virtual clock above it, rows and type 1.6 times larger; Space plays or pauses, Right / Left go to the next
// / previous moment, C crashes the first working consumer, 1-9 crash or restart consumer N, R replays from the start,
// Esc leaves; what a key did (or why it did nothing) is said large in the bar. Readable from the back of a room.
// The controller owns the caption bar, the mode's action and its keys; the window hands it what the mode shows.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <functional>
#include <vector>

class QAction;
class QLabel;
class QMainWindow;
class QShortcut;
class QTimer;
class QWidget;

namespace lifeline::ui {

class ConsumerTiles;
class LaneModel;
class LiveDriver;
class OverviewStrip;
class RunSession;
class TimelineView;

class PresenterController : public QObject {
    Q_OBJECT
public:
    // What presenter mode shows and acts on.
    struct Stage {
        QMainWindow* window; // made full screen, its docks, toolbars, menus and status bar hidden
        TimelineView* timeline;
        OverviewStrip* overview; // hidden while presenting
        LaneModel* model; // the moments the caption tells
        RunSession* session;
        LiveDriver* driver;
        ConsumerTiles* tiles; // C crashes the first working consumer through them
        std::function<QString()> title; // the caption before the first moment
        std::function<void()> restart; // R
    };

    explicit PresenterController(Stage stage);

    // The caption and clock above the timeline (hidden until presenting).
    QWidget* bar() const { return m_bar; }
    // View > Presenter mode (F11), checkable.
    QAction* action() const { return m_action; }
    void setPresenting(bool on);
    bool presenting() const { return m_presenting; }
    QLabel* caption() const { return m_caption; }
    QLabel* clock() const { return m_clock; }
    // What the last key did, large beside the caption for a few seconds (the status bar is hidden).
    QLabel* notice() const { return m_notice; }

signals:
    void presentingChanged(bool on);
    void said(const QString& text);

private:
    void updateBar();
    void crashFirstWorking();
    void toggleConsumer(size_t index); // 1-9: crash consumer N, or restart it when it is crashed
    void tell(const QString& text); // on the stage while presenting, else in the status bar

    Stage m_stage;
    QWidget* m_bar;
    QLabel* m_caption;
    QLabel* m_clock;
    QLabel* m_notice;
    QTimer* m_noticeTimer;
    QAction* m_action;
    std::vector<QShortcut*> m_keys; // live only while presenting (Right is Step otherwise)
    QByteArray m_stateBefore;
    bool m_wasMaximized = false;
    bool m_presenting = false;
};

} // namespace lifeline::ui
