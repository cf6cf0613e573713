// The main window. Until the timeline lands (issue: timeline view) it shows the engine's queue counters.
#pragma once

#include <QMainWindow>

class QLabel;

namespace lifeline {
class Engine;
}

namespace lifeline::ui {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const Engine& engine, QWidget* parent = nullptr);

    // Re-reads the engine (counters, event count) into the placeholder view.
    void refresh();
    // The lesson (or scenario) on show: its title and text.
    void setLesson(const QString& title, const QString& text);

private:
    const Engine& m_engine;
    QLabel* m_lesson;
    QLabel* m_summary;
};

} // namespace lifeline::ui
