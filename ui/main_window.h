// The main window: the overview and the timeline in the middle; a toolbar to play, pause, step, restart and set
// the speed; the lesson's text, the queues' counters and the selected message's history beside them. (Controls,
// consumer tiles, charts and the event log come with the main-window issue.)
#pragma once

#include "lifeline/event_log.h"
#include "lifeline/export/run_file.h"

#include <QMainWindow>
#include <memory>

class QLabel;
class QComboBox;
class QAction;
class QTextBrowser;

namespace lifeline {
class Engine;
namespace sim {
class Simulation;
struct Scenario;
} // namespace sim
} // namespace lifeline

namespace lifeline::ui {

class LaneModel;
class LiveDriver;
class OverviewStrip;
class TimelineView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    explicit MainWindow(const Engine& engine, QWidget* parent = nullptr); // a finished run, shown still
    ~MainWindow() override;

    // Runs a scenario in the window (the window owns the run); Restart starts it again from the beginning.
    void openScenario(const sim::Scenario& scenario);
    void restart();
    // A saved run, shown as it was (no simulation behind it).
    void showRecordedRun(RecordedRun run);

    void showSimulation(sim::Simulation* simulation);
    void showEngine(const Engine& engine);
    // Re-reads the engine (counters, event count).
    void refresh();
    // The lesson (or scenario) on show: its title and text.
    void setLesson(const QString& title, const QString& text);

    LaneModel* laneModel() const { return m_model; }
    TimelineView* timeline() const { return m_timeline; }
    LiveDriver* driver() const { return m_driver; }
    OverviewStrip* overview() const { return m_overview; }
    QTextBrowser* details() const { return m_details; }
    sim::Simulation* simulation() const { return m_simulation; }

private:
    void buildToolbar();
    void buildMenus();
    void exportImage();
    void exportData(bool trace);
    void saveRunAs();
    void openRunFile();
    QString defaultFileName(const QString& suffix) const;
    void showDetails(MessageIndex lane);

    const Engine* m_engine = nullptr;
    sim::Simulation* m_simulation = nullptr;
    std::unique_ptr<sim::Scenario> m_scenario; // what openScenario() runs, for restart
    std::unique_ptr<sim::Simulation> m_ownedSimulation;
    std::vector<std::string> m_actorNames;
    std::unique_ptr<RecordedRun> m_recorded;
    LaneModel* m_model;
    TimelineView* m_timeline;
    OverviewStrip* m_overview;
    QTextBrowser* m_details;
    LiveDriver* m_driver;
    QLabel* m_lesson;
    QLabel* m_summary;
    QLabel* m_clock;
    QComboBox* m_speed = nullptr;
    QAction* m_play = nullptr;
    QAction* m_follow = nullptr;
    QString m_title;
};

} // namespace lifeline::ui
