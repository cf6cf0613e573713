// The main window: the timeline in the middle, a toolbar to play, pause, step and set the speed, the lesson's
// text beside it and the queues' counters below. (Controls, consumer tiles, charts and the event log come with
// the main-window issue.)
#pragma once

#include <QMainWindow>

class QLabel;
class QComboBox;
class QAction;

namespace lifeline {
class Engine;
namespace sim {
class Simulation;
}
} // namespace lifeline

namespace lifeline::ui {

class LaneModel;
class LiveDriver;
class TimelineView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    explicit MainWindow(const Engine& engine, QWidget* parent = nullptr); // a finished run, shown still

    void showSimulation(sim::Simulation* simulation);
    void showEngine(const Engine& engine);
    // Re-reads the engine (counters, event count).
    void refresh();
    // The lesson (or scenario) on show: its title and text.
    void setLesson(const QString& title, const QString& text);

    LaneModel* laneModel() const { return m_model; }
    TimelineView* timeline() const { return m_timeline; }
    LiveDriver* driver() const { return m_driver; }

private:
    void buildToolbar();

    const Engine* m_engine = nullptr;
    sim::Simulation* m_simulation = nullptr;
    LaneModel* m_model;
    TimelineView* m_timeline;
    LiveDriver* m_driver;
    QLabel* m_lesson;
    QLabel* m_summary;
    QLabel* m_clock;
    QComboBox* m_speed = nullptr;
    QAction* m_play = nullptr;
    QAction* m_follow = nullptr;
};

} // namespace lifeline::ui
