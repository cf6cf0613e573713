// The main window's toolbar, menus and the file and help actions behind them.
#include "export/image_export.h"
#include "lifeline/engine/engine.h"
#include "lifeline/export/run_export.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/support/duration.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_view.h"
#include "timeline/view_state.h"
#include "window/controllers/export_controller.h"
#include "window/controllers/help_controller.h"
#include "window/controllers/history_setting.h"
#include "window/controllers/layout_controller.h"
#include "window/controllers/lesson_controller.h"
#include "window/controllers/live_source_controller.h"
#include "window/controllers/moment_stops.h"
#include "window/controllers/presenter_controller.h"
#include "window/dialogs/import_traces.h"
#include "window/dialogs/lesson_picker.h"
#include "window/dialogs/start_page.h"
#include "window/main_window.h"
#include "window/panels/consumer_tiles.h"
#include "window/panels/lane_view_controls.h"
#include "window/panels/queue_controls.h"
#include "window/runtime/live_driver.h"
#include "window/runtime/run_session.h"
#include "window/shortcut_table.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScreen>
#include <QSpinBox>
#include <QStatusBar>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>
#include <sstream>

namespace lifeline::ui {

QList<QAction*> MainWindow::buildToolbar()
{
    auto* bar = addToolBar(tr("Simulation"));
    bar->setObjectName(QStringLiteral("simulation"));
    m_play = bar->addAction(tr("Play"), m_driver, &LiveDriver::togglePlay);
    m_play->setObjectName(QStringLiteral("play"));
    m_play->setShortcut(Qt::Key_Space);
    m_play->setToolTip(tr("Play or pause (Space)"));
    m_step = bar->addAction(tr("Step"), m_driver, &LiveDriver::step);
    m_step->setObjectName(QStringLiteral("step"));
    m_step->setShortcut(Qt::Key_Right);
    m_step->setToolTip(tr("Step to the next event (Right)"));
    m_speed = new QComboBox(this);
    m_speed->setObjectName(QStringLiteral("speed"));
    for (int speed : LiveDriver::speeds())
        m_speed->addItem(QStringLiteral("%1×").arg(speed), speed);
    m_speed->setCurrentIndex(3);
    m_speed->setToolTip(tr("Virtual seconds per wall second ([ slower, ] faster)"));
    m_speed->setAccessibleName(tr("Speed"));
    connect(m_speed, &QComboBox::currentIndexChanged, this,
        [this](int) { m_driver->setSpeed(m_speed->currentData().toDouble()); });
    m_driver->setSpeed(10);
    bar->addWidget(m_speed);
    bar->addSeparator();
    bar->addAction(m_timeline->viewState()->followLiveAction());
    QList<QAction*> laneControls = addLaneViewControls(bar, m_timeline, this);
    bar->addSeparator();
    m_restart = bar->addAction(tr("Restart"), this, &MainWindow::restart);
    m_restart->setObjectName(QStringLiteral("restart"));
    m_restart->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_restart->setToolTip(tr("Run the scenario again from the start, as written (Ctrl+R)"));
    bar->addAction(m_timeline->viewState()->fitAction());
    auto* send = bar->addAction(tr("Send..."), this, &MainWindow::showSendDialog);
    send->setToolTip(tr("Send a message by hand (Ctrl+M)"));
    return laneControls;
}

void MainWindow::changeSpeed(int steps)
{
    m_speed->setCurrentIndex(std::clamp(m_speed->currentIndex() + steps, 0, m_speed->count() - 1));
    say(tr("Speed %1").arg(m_speed->currentText()), 2000);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open scenario..."), QKeySequence::Open, this, &MainWindow::openScenarioFile);
    file->addAction(tr("&Check a queue..."), m_lessons, &LessonController::showCheck);
    file->addAction(
        tr("Save scenario &as..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this, &MainWindow::saveScenarioAs);
    file->addSeparator();
    file->addAction(tr("Open &run..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this, &MainWindow::openRunFile);
    file->addAction(tr("&Import traces..."), this, [this] {
        if (auto imported = importTraces(this))
            showRecordedRun(std::move(imported->run), imported->report);
    });
    file->addAction(liveSources()->tracesAction());
    file->addAction(m_exports->saveRunAction());
    file->addSeparator();
    m_exports->addExportActions(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    buildViewMenu(menuBar()->addMenu(tr("&View")));
    buildSimulationAndLessonMenus();

    m_help->fillMenu(menuBar()->addMenu(tr("&Help")));
}

void MainWindow::buildViewMenu(QMenu* view)
{
    const ViewState* viewState = m_timeline->viewState();
    view->addAction(m_layout->action());
    view->addSeparator();
    view->addAction(viewState->followLiveAction());
    view->addAction(tr("&Fit the whole run"), this, [this] {
        m_timeline->setFollowLive(false);
        m_timeline->fitAll();
    });
    view->addAction(viewState->zoomInAction());
    view->addAction(viewState->zoomOutAction());
    view->addAction(viewState->zoomBackAction());
    view->addAction(m_presenter->action());
    view->addAction(m_lessons->compareAction());
    connect(m_lessons->compareAction(), &QAction::triggered, this, &MainWindow::compareWithFix);
    view->addSeparator();
    m_darkAction = view->addAction(tr("&Dark theme"));
    m_darkAction->setCheckable(true);
    m_darkAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    connect(m_darkAction, &QAction::toggled, this, [this](bool dark) {
        if (dark != m_dark)
            setDarkTheme(dark);
    });
    m_contrastAction = view->addAction(tr("&High contrast"));
    m_contrastAction->setCheckable(true);
    m_contrastAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H));
    connect(m_contrastAction, &QAction::toggled, this, [this](bool on) {
        if (on != m_highContrast)
            setHighContrast(on);
    });
    m_history->fillMenu(view->addMenu(tr("&History kept")));
    view->addSeparator();
    view->addAction(m_live->endpointAction());
    view->addSeparator();
    for (auto* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
}

void MainWindow::buildSimulationAndLessonMenus()
{
    QMenu* simulation = menuBar()->addMenu(tr("&Simulation"));
    simulation->addAction(m_play);
    simulation->addAction(m_step);
    simulation->addAction(m_restart);
    simulation->addAction(tr("&Faster"), QKeySequence(Qt::Key_BracketRight), this, [this] { changeSpeed(1); });
    simulation->addAction(tr("S&lower"), QKeySequence(Qt::Key_BracketLeft), this, [this] { changeSpeed(-1); });
    simulation->addSeparator();
    simulation->addAction(
        tr("Send a &message..."), QKeySequence(Qt::CTRL | Qt::Key_M), this, &MainWindow::showSendDialog);
    simulation->addAction(tr("&Add a consumer"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A), this,
        [this] { m_controls->stepConsumers(1); });
    simulation->addAction(tr("Remove a &consumer"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X), this,
        [this] { m_controls->stepConsumers(-1); });
    // The tiles are the crash buttons: one key away, not a score of Tab stops (their dock comes forward if tabbed).
    simulation->addAction(tr("Consumer &tiles"), QKeySequence(Qt::CTRL | Qt::Key_T), this, [this] {
        if (auto* tiles = findChild<QDockWidget*>(QStringLiteral("consumersDock"))) {
            tiles->show();
            tiles->raise();
        }
        m_tiles->setFocus(Qt::ShortcutFocusReason);
    });

    QMenu* lessons = menuBar()->addMenu(tr("&Lessons"));
    m_lessons->fillMenu(lessons);
    lessons->addSeparator();
    lessons->addAction(m_momentStops->action());
    lessons->addAction(tr("S&tart page..."), this, &MainWindow::showStartPage);
}

StartPage* MainWindow::showStartPage()
{
    auto* page = findChild<StartPage*>();
    if (!page) {
        page = new StartPage(this);
        connect(page, &StartPage::doorChosen, this, [this](const QString& id) {
            if (!m_lessons->openLesson(id))
                return;
            m_momentStops->action()->setChecked(true);
            compareWithFix();
        });
        connect(page, &StartPage::lessonListChosen, m_lessons, &LessonController::showLessonPicker);
    }
    page->show();
    page->raise();
    page->activateWindow();
    return page;
}

void MainWindow::openScenarioFile()
{
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Open scenario"), QString(), tr("Lifeline scenario (*.json)"));
    if (path.isEmpty())
        return;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        QMessageBox::warning(this, tr("Open scenario"), tr("Cannot read %1: %2").arg(path, file.errorString()));
        return;
    }
    auto parsed = scenario::parseScenario(file.readAll().toStdString());
    if (auto* error = std::get_if<scenario::ScenarioError>(&parsed)) {
        QMessageBox::warning(
            this, tr("Open scenario"), tr("%1 was not opened:\n%2").arg(path, QString::fromStdString(error->text())));
        return;
    }
    auto& scenario = std::get<scenario::Scenario>(parsed);
    if (scenario.lesson) {
        m_lessons->startLesson(scenario);
        return;
    }
    m_lessons->showText(QString::fromStdString(scenario.name), tr("A scenario from %1.").arg(path));
    openScenario(scenario);
    m_driver->play();
}

void MainWindow::saveScenarioAs()
{
    if (!m_scenario) {
        say(tr("There is no scenario to save: a saved run is saved with Save run."));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Save scenario"),
        m_exports->defaultFileName(QStringLiteral("json")), tr("Lifeline scenario (*.json)"));
    if (path.isEmpty())
        return;
    const std::string text = m_scenario->source.dump(2) + "\n";
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size())
        || !file.commit())
        QMessageBox::warning(this, tr("Save scenario"), tr("The scenario was not saved: %1").arg(file.errorString()));
    else
        say(tr("Saved %1").arg(path));
}

void MainWindow::showRecordedRun(RecordedRun recorded, const QString& note)
{
    m_live->stop();
    m_driver->pause();
    m_session->showRecorded(std::make_unique<RecordedRun>(std::move(recorded)));
    m_scenario.reset();
    showStill(*run());
    m_lessons->showText(QString::fromStdString(m_session->recorded()->title),
        note.isEmpty() ? tr("A saved run, shown as it was recorded.") : note);
}

void MainWindow::openRunFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open run"), QString(), tr("Lifeline run (*.lifeline)"));
    if (path.isEmpty())
        return;
    auto opened = openRun(path.toStdString());
    if (!opened) {
        QMessageBox::warning(this, tr("Open run"), QString::fromStdString(opened.message()));
        return;
    }
    showRecordedRun(std::move(opened).value());
}

} // namespace lifeline::ui
