// The main window: the overview and the timeline in the middle; docks around it for the queue controls, the consumer
// tiles, the lesson (with "apply the fix"), the selected message's history, the charts and the event log; a toolbar
// to play, pause, step, restart and set the speed; menus File, View, Simulation, Lessons and Help.
#pragma once

#include "lifeline/io/run_file.h"
#include "lifeline/run/event_log.h"
#include "timeline/timeline_style.h"

#include <QImage>
#include <QMainWindow>
#include <memory>

class QLabel;
class QSplitter;
class QMenu;
class QShortcut;
class QComboBox;
class QAction;
class QActionGroup;
class QPushButton;
class QTextBrowser;
class QTimer;

namespace lifeline {
class RunView;
namespace sim {
class Simulation;
} // namespace sim
namespace scenario {
struct Scenario;
} // namespace scenario
} // namespace lifeline

namespace lifeline::ui {

class ChartsPanel;
class EndpointServer;
struct EndpointOptions;
class ProxyServer;
struct ProxyOptions;
class ConsumerTiles;
class EventLogPanel;
class LaneModel;
class LiveDriver;
class ComparisonPane;
class ExportController;
class MomentStops;
class StartPage;
class PresenterController;
class LiveSourceController;
class HelpController;
class LayoutController;
class StoryFramer;
class HistorySetting;
class LessonController;
class StatusBarController;
class MomentList;
class OverviewStrip;
class QueueControls;
class LiveQueuePanel;
class RunSession;
class TimelineView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    explicit MainWindow(const RunView& run, QWidget* parent = nullptr); // a finished run, shown still
    ~MainWindow() override;

    // Runs a scenario in the window (the window owns the run); Restart starts it again from the beginning.
    void openScenario(const scenario::Scenario& scenario);
    void restart();
    // Every queue standard or FIFO: the scenario is rebuilt and runs from the start.
    void setQueueType(bool fifo);
    // A saved run, shown as it was (no simulation behind it).
    void showRecordedRun(RecordedRun run, const QString& note = {});

    // An engine someone else owns, shown still (tests and benchmarks).
    void showRun(const RunView& run);
    // The run on screen and its source (a simulation, a saved run, the local endpoint or the proxy); the panels
    // follow its sourceChanged.
    RunSession* session() const { return m_session; }
    // The lesson on show: opening one, its fix, its panel's text, practice, the drill and check dialogs.
    LessonController* lessons() const { return m_lessons; }
    // The local SQS endpoint (View > Local endpoint) and the recording proxy (`lifeline proxy`): real clients drive
    // the run, shown live; stopping keeps it on screen, still.
    LiveSourceController* liveSources() const { return m_live; }
    const RunView* run() const;
    // Re-reads the engine (counters, event count, tiles, controls, charts, event log).
    void refresh();
    void setDarkTheme(bool dark);
    bool darkTheme() const { return m_dark; }
    // White on black (TimelineStyle::highContrast, the widgets' palette to match), over the light or dark choice.
    void setHighContrast(bool on);
    bool highContrast() const { return m_highContrast; }
    Theme theme() const { return themeOf(m_dark, m_highContrast); }
    // Layout, theme and last lesson: read now and written on close (the app does this; tests do not).
    void rememberSettings();
    // Opens the send dialog for the chosen queue (modeless, so the run can be watched while typing).
    void showSendDialog();

    // The panels are found by their object names (timeline, overview, messageDetails, queueControls, liveQueue, play,
    // speed, consumerTiles, charts, eventLog, applyFix, moments, scriptBanner); the model and the driver are no
    // widgets.
    LaneModel* laneModel() const { return m_model; }
    LiveDriver* driver() const { return m_driver; }
    sim::Simulation* simulation() const;
    QString statusText() const; // what the status bar says now
    // The status bar's size of what the engine remembers: messages, events, memory (the window keeps it all).
    QString historyText() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void buildCentre(); // the timeline's column and the splitter Compare opens below it
    void buildDocks();
    void arrangeDocks(); // the first show: docks sized (or tabbed, on a small screen) for the window's size
    void connectScript(); // main_window_script.cpp
    void scriptEnded(); // the scenario's duration is reached: the view shows the action, the queue runs on
public:
    // View > Compare with the fix: the lesson as written and fixed, stacked (a window of its own); none without a
    // lesson that has a fix.
    ComparisonPane* compareWithFix();
    // The first start's question and its three doors (Lessons > Start page): a door opens its lesson playing with a
    // stop at each key moment, and Compare with the fix.
    StartPage* showStartPage();
    // View > Presenter mode (F11; Esc leaves).
    PresenterController* presenter() const { return m_presenter; }
    // The File menu's saving and exports (image, animation, clipboard, trace, CSV).
    ExportController* exports() const { return m_exports; }

private:
    void applyTheme(); // the dark and high-contrast choices, to the widgets and every view
    void connectPanels();
    // The session has a new source: every panel reads it (the one place where they are rewired).
    void bindPanels();
    void showStill(const RunView& run); // a run that does not move: fitted, not following
    QList<QAction*> buildToolbar(); // returns the lane view controls (the learning layout hides them)
    void buildMenus();
    void buildViewMenu(QMenu* view);
    void buildSimulationAndLessonMenus();
    void openRunFile();
    void openScenarioFile();
    void saveScenarioAs();
    // The run with a practice answer, advanced to just past where it went wrong (at < 0: its end), paused there.
    void showPracticeRun(const scenario::Scenario& scenario, TimeMs at);
    void showDetails(MessageIndex lane);
    void toggleConsumerOfActor(uint32_t actor);
    void changeSpeed(int steps);
    void showLiveState(); // the toolbar says "Live" and the clock is the wall clock's while real clients drive the run
    void say(const QString& text, int ms = 6000);
    // A lesson from the lesson controller: at its pace (the speed box), framed, playing.
    void playLesson(const scenario::Scenario& lesson);
    // The run changed between the clock's steps (a crash, a slider, a message sent by hand): every view reads it.
    void runChanged();

    RunSession* m_session;
    std::unique_ptr<scenario::Scenario> m_scenario; // what openScenario() runs, for restart
    LiveSourceController* m_live = nullptr; // the local endpoint and the recording proxy
    HistorySetting* m_history = nullptr; // View > History kept
    HelpController* m_help = nullptr; // the Help menu's windows
    LayoutController* m_layout = nullptr; // learning or engineering layout
    LessonController* m_lessons = nullptr; // the lesson panel, the lesson on show and its fix, practice, check
    LaneModel* m_model;
    TimelineView* m_timeline;
    ExportController* m_exports = nullptr;
    PresenterController* m_presenter = nullptr;
    MomentStops* m_momentStops = nullptr; // pauses a lesson on each key moment
    OverviewStrip* m_overview;
    QTextBrowser* m_details;
    LiveDriver* m_driver;
    QLabel* m_scriptBanner;
    QSplitter* m_centre; // the timeline column, and the comparison pane while it is open
    StoryFramer* m_framer = nullptr; // a lesson's story framed on the timeline as it unfolds
    bool m_docksArranged = false;
    QLabel* m_summary;
    StatusBarController* m_status = nullptr;
    QueueControls* m_controls;
    LiveQueuePanel* m_liveQueue;
    ConsumerTiles* m_tiles;
    ChartsPanel* m_charts;
    EventLogPanel* m_eventLog;
    QComboBox* m_speed = nullptr;
    QAction* m_play = nullptr;
    QAction* m_step = nullptr;
    QAction* m_restart = nullptr;
    QAction* m_darkAction = nullptr;
    QAction* m_contrastAction = nullptr;
    bool m_dark = false;
    bool m_highContrast = false;
    bool m_remember = false;
};

} // namespace lifeline::ui
