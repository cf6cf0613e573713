#include "window/main_window.h"

#include "http/endpoint_server.h"
#include "http/proxy_server.h"
#include "lifeline/engine/engine.h"
#include "lifeline/run/lane_name.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/support/duration.h"
#include "timeline/lane_history.h"
#include "timeline/lane_model.h"
#include "timeline/overview_strip.h"
#include "timeline/timeline_view.h"
#include "window/controllers/export_controller.h"
#include "window/controllers/focus_keys.h"
#include "window/controllers/help_controller.h"
#include "window/controllers/history_setting.h"
#include "window/controllers/layout_controller.h"
#include "window/controllers/lesson_controller.h"
#include "window/controllers/live_source_controller.h"
#include "window/controllers/moment_announcer.h"
#include "window/controllers/moment_stops.h"
#include "window/controllers/presenter_controller.h"
#include "window/controllers/status_bar_controller.h"
#include "window/controllers/story_framer.h"
#include "window/dialogs/send_message_dialog.h"
#include "window/panels/charts_panel.h"
#include "window/panels/comparison_pane.h"
#include "window/panels/consumer_tiles.h"
#include "window/panels/event_log_panel.h"
#include "window/panels/live_queue_panel.h"
#include "window/panels/queue_controls.h"
#include "window/runtime/live_driver.h"
#include "window/runtime/run_session.h"
#include "window/theme.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace lifeline::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_session(new RunSession(this))
    , m_model(new LaneModel(this))
    , m_timeline(new TimelineView(m_model, this))
    , m_overview(new OverviewStrip(this))
    , m_details(new QTextBrowser(this))
    , m_driver(new LiveDriver(nullptr, m_model, this))
    , m_scriptBanner(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_controls(new QueueControls(this))
    , m_liveQueue(new LiveQueuePanel(this))
    , m_tiles(new ConsumerTiles(this))
    , m_charts(new ChartsPanel(this))
    , m_eventLog(new EventLogPanel(this))
{
    setWindowTitle(tr("Lifeline"));
    m_timeline->setObjectName(QStringLiteral("timeline"));
    m_overview->setObjectName(QStringLiteral("overview"));
    m_details->setObjectName(QStringLiteral("messageDetails"));
    m_scriptBanner->setObjectName(QStringLiteral("scriptBanner"));
    m_controls->setObjectName(QStringLiteral("queueControls"));
    m_liveQueue->setObjectName(QStringLiteral("liveQueue"));
    m_tiles->setObjectName(QStringLiteral("consumerTiles"));
    m_charts->setObjectName(QStringLiteral("charts"));
    m_eventLog->setObjectName(QStringLiteral("eventLog"));
    m_lessons = new LessonController({ this, m_model, m_timeline });
    connect(m_lessons, &LessonController::runRequested, this, &MainWindow::playLesson);
    connect(m_lessons, &LessonController::practiceRunRequested, this, &MainWindow::showPracticeRun);
    connect(m_lessons, &LessonController::titleChanged, this,
        [this](const QString& title) { setWindowTitle(tr("Lifeline - %1").arg(title)); });
    connect(m_lessons, &LessonController::said, this, [this](const QString& text) { say(text); });
    m_presenter = new PresenterController({ this, m_timeline, m_overview, m_model, m_session, m_driver, m_tiles,
        [this] { return m_lessons->title(); }, [this] { restart(); } });
    m_momentStops = new MomentStops(m_timeline, m_model, m_driver, this);
    new MomentAnnouncer(
        m_model, statusBar(), [this](const QString& text) { m_status->say(text, 8000); }, this);
    m_framer = new StoryFramer(m_timeline, m_model, m_driver, m_momentStops, this);
    buildCentre();
    m_status = new StatusBarController(statusBar());
    m_exports = new ExportController(m_session, m_timeline, m_driver,
        { [this] { return m_lessons->title(); }, [this] { return theme(); }, [this] { return m_scenario.get(); } },
        this);
    connect(m_exports, &ExportController::said, this, [this](const QString& text) { say(text); });
    connect(m_presenter, &PresenterController::said, this, [this](const QString& text) { say(text); });
    connect(m_presenter, &PresenterController::presentingChanged, this, [this](bool on) {
        if (on) // the stage is the timeline alone (and Esc is the presenter's)
            for (auto* pane : m_centre->findChildren<ComparisonPane*>())
                pane->close();
        if (m_step)
            m_step->setEnabled(!on && m_session->simulation()); // Right goes to the next moment instead
    });
    m_history = new HistorySetting(this);
    m_help = new HelpController(this);
    connect(m_history, &HistorySetting::changed, this, [this](int minutes) {
        say(minutes == 0
                ? tr("The window keeps every message and event, from the next run on (Simulation > Restart).")
                : tr("The window keeps the last %1 minutes of a run, from the next run on (Simulation > Restart).")
                      .arg(minutes));
    });
    m_live = new LiveSourceController(
        { this, m_session, m_driver, m_timeline, m_overview, m_model, m_liveQueue, m_history });
    connect(m_live, &LiveSourceController::started, this, [this](const QString& title, const QString& text) {
        m_scenario.reset();
        m_lessons->showText(title, text);
        showLiveState();
    });
    connect(m_live, &LiveSourceController::stopped, this, &MainWindow::showLiveState);
    connect(m_live, &LiveSourceController::frameShown, this, [this](TimeMs now) {
        m_play->setText(tr("● Live %1").arg(QString::fromStdString(lifeline::formatDuration(now))));
        refresh();
    });
    connect(m_live, &LiveSourceController::runChanged, this, &MainWindow::runChanged);
    connect(m_live, &LiveSourceController::said, this, [this](const QString& text, int ms) { say(text, ms); });
    buildDocks();
    m_layout = new LayoutController(this, m_controls, buildToolbar());
    new FocusKeys(this, m_timeline); // Space plays and pauses wherever the focus is
    connect(m_layout, &LayoutController::said, this, [this](const QString& text) { say(text); });
    buildMenus();
    // Roomy by default, but never bigger than the screen (high-DPI scaling shrinks it in logical pixels).
    QSize size(1440, 900);
    if (const QScreen* where = screen())
        size = size.boundedTo(where->availableGeometry().size() * 0.94);
    resize(size);

    connectPanels();
}

// What each panel tells the others: the timeline, the overview, the log, the tiles and the controls.
void MainWindow::connectPanels()
{
    connect(m_session, &RunSession::sourceChanged, this, &MainWindow::bindPanels);
    connectScript();
    connect(m_driver, &LiveDriver::advanced, this, [this](TimeMs now) {
        m_timeline->setNow(now);
        if (m_timeline->selected() != kNoMessage)
            showDetails(m_timeline->selected());
        refresh();
    });
    connect(m_driver, &LiveDriver::playingChanged, this,
        [this](bool playing) { m_play->setText(playing ? tr("Pause") : tr("Play")); });
    connect(m_driver, &LiveDriver::laggingChanged, this, [this](bool lagging) {
        if (lagging)
            say(tr("The simulation cannot keep up with %1×: time runs slower. Choose a lower speed.")
                    .arg(m_driver->speed()));
    });
    connect(m_timeline, &TimelineView::viewChanged, this, [this] {
        m_overview->setWindow(m_timeline->visibleFrom(), m_timeline->visibleTo());
        m_charts->setTimeRange(std::max<TimeMs>(0, m_timeline->visibleFrom()), m_timeline->visibleTo());
    });
    connect(m_overview, &OverviewStrip::timeRequested, m_timeline, &TimelineView::centreOn);
    connect(m_overview, &OverviewStrip::timeRequested, m_framer, &StoryFramer::take);
    connect(m_timeline, &TimelineView::laneSelected, this, [this](MessageIndex lane) {
        showDetails(lane);
        m_eventLog->showLane(lane);
    });
    connect(m_timeline, &TimelineView::actorClicked, this, &MainWindow::toggleConsumerOfActor);
    connect(m_timeline, &TimelineView::storyTold, this, [this](const QString& story) { m_status->say(story, 15000); });
    connect(m_eventLog, &EventLogPanel::eventActivated, this, [this](MessageIndex lane, TimeMs time) {
        if (lane != kNoMessage && lane != m_timeline->selected()) {
            const QSignalBlocker block(m_timeline); // the log chose it: no echo back to the log
            m_timeline->select(lane);
            showDetails(lane);
        }
        m_timeline->centreOn(time);
    });
    connect(m_tiles, &ConsumerTiles::toggled, this, [this](size_t index, bool crashed) {
        const auto tile = simulation()->consumers()[index];
        const QString name = QString::fromStdString(tile.name);
        if (tile.lambda)
            say(crashed ? tr("%1: its next invocation fails, and its whole batch comes back after the visibility "
                             "timeout.")
                              .arg(name)
                        : tr("%1: its next invocation runs as usual.").arg(name));
        else
            say(crashed ? tr("%1 crashed: what it held comes back when its visibility timeout ends.").arg(name)
                        : tr("%1 restarted.").arg(name));
        runChanged();
    });
    connect(m_controls, &QueueControls::applied, this, [this](const QString& what) {
        say(what);
        runChanged();
    });
    connect(m_controls, &QueueControls::refused, this, [this](const QString& error) {
        say(error, 12000);
        runChanged(); // the refusal is a mark on the queue's row
    });
    connect(m_liveQueue, &LiveQueuePanel::applied, this, [this](const QString& what) { say(what); });
    connect(m_liveQueue, &LiveQueuePanel::refused, this, [this](const QString& error) { say(error, 12000); });
    connect(m_controls, &QueueControls::consumersChanged, m_tiles, &ConsumerTiles::sync);
    connect(m_controls, &QueueControls::queueTypeRequested, this, &MainWindow::setQueueType);
    connect(m_controls, &QueueControls::sendRequested, this, &MainWindow::showSendDialog);
}

MainWindow::~MainWindow()
{
    // The worker advances the simulation the session owns: it stops before the session goes.
    m_driver->setThreaded(false);
    // The server answers parked polls through the engine it serves: it stops while that engine still exists.
    m_live->stop();
}

MainWindow::MainWindow(const RunView& run, QWidget* parent)
    : MainWindow(parent)
{
    showRun(run);
}

void MainWindow::buildCentre()
{
    // The presenter's bar, the overview, the script's banner and the timeline in a column; below it, while open, the
    // lesson's comparison with its fix (compareWithFix), in a splitter.
    auto* timelineColumn = new QWidget(this);
    auto* timelineLayout = new QVBoxLayout(timelineColumn);
    timelineLayout->setContentsMargins(0, 0, 0, 0);
    timelineLayout->setSpacing(0);
    timelineLayout->addWidget(m_presenter->bar());
    timelineLayout->addWidget(m_overview);
    m_scriptBanner->setWordWrap(true);
    m_scriptBanner->setContentsMargins(8, 4, 8, 4);
    m_scriptBanner->setAutoFillBackground(true);
    m_scriptBanner->setBackgroundRole(QPalette::ToolTipBase);
    m_scriptBanner->setForegroundRole(QPalette::ToolTipText);
    m_scriptBanner->hide();
    timelineLayout->addWidget(m_scriptBanner);
    timelineLayout->addWidget(m_timeline, 1);
    m_centre = new QSplitter(Qt::Vertical, this);
    m_centre->setObjectName(QStringLiteral("centre"));
    m_centre->setChildrenCollapsible(false);
    m_centre->addWidget(timelineColumn);
    setCentralWidget(m_centre);
}

void MainWindow::buildDocks()
{
    const auto dock = [this](const QString& title, const char* name, QWidget* content, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(QLatin1String(name));
        d->setWidget(content);
        addDockWidget(area, d);
        return d;
    };
    auto* controlsScroll = new QScrollArea(this);
    // A simulation's controls, or a live run's (shown by showLiveState()).
    auto* queuePanels = new QWidget(this);
    auto* queuePanelsLayout = new QVBoxLayout(queuePanels);
    queuePanelsLayout->setContentsMargins(0, 0, 0, 0);
    queuePanelsLayout->addWidget(m_controls);
    queuePanelsLayout->addWidget(m_liveQueue);
    m_liveQueue->hide();
    controlsScroll->setWidget(queuePanels);
    controlsScroll->setWidgetResizable(true);
    controlsScroll->setFrameShape(QFrame::NoFrame);
    controlsScroll->setMinimumWidth(260);
    dock(tr("Queue"), "queueDock", controlsScroll, Qt::LeftDockWidgetArea);

    auto* consumers = new QWidget(this);
    auto* consumersLayout = new QVBoxLayout(consumers);
    consumersLayout->setContentsMargins(4, 0, 4, 4);
    auto* buttons = new QHBoxLayout;
    auto* add = new QToolButton(consumers);
    add->setText(tr("+ Add"));
    add->setToolTip(tr("Add a consumer to the queue (Ctrl+Shift+A)"));
    auto* remove = new QToolButton(consumers);
    remove->setText(tr("- Remove"));
    remove->setToolTip(tr("Stop the newest consumer (Ctrl+Shift+X)"));
    // The hint wraps: on one line it made the left docks 431 px wide and the window wider than a 1024 px screen.
    auto* hint = new QLabel(tr("Click a consumer to crash it, again to restart it."), consumers);
    hint->setObjectName(QStringLiteral("consumersHint"));
    hint->setWordWrap(true);
    add->setObjectName(QStringLiteral("addConsumer"));
    remove->setObjectName(QStringLiteral("removeConsumer"));
    buttons->addWidget(hint, 1);
    buttons->addWidget(add);
    buttons->addWidget(remove);
    consumersLayout->addLayout(buttons);
    auto* tilesScroll = new QScrollArea(consumers);
    tilesScroll->setWidget(m_tiles);
    tilesScroll->setWidgetResizable(true);
    tilesScroll->setFrameShape(QFrame::NoFrame);
    consumersLayout->addWidget(tilesScroll, 1);
    dock(tr("Consumers"), "consumersDock", consumers, Qt::LeftDockWidgetArea);
    connect(add, &QToolButton::clicked, this, [this] { m_controls->stepConsumers(1); });
    connect(remove, &QToolButton::clicked, this, [this] { m_controls->stepConsumers(-1); });

    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    QWidget* lesson = m_lessons->buildPanel(m_summary);
    auto* lessonDock = dock(tr("Lesson"), "lessonDock", lesson, Qt::RightDockWidgetArea);

    m_details->setPlaceholderText(tr("Click a message lane to see its whole history. Esc clears; . and , step "
                                     "through its events; F centres it."));
    auto* messageDock = dock(tr("Message"), "messageDock", m_details, Qt::RightDockWidgetArea);
    resizeDocks({ lessonDock, messageDock }, { 560, 220 }, Qt::Vertical);

    auto* charts = dock(tr("Charts"), "chartsDock", m_charts, Qt::BottomDockWidgetArea);
    auto* log = dock(tr("Event log"), "eventLogDock", m_eventLog, Qt::BottomDockWidgetArea);
    tabifyDockWidget(charts, log);
    charts->raise();
    // Behind the Charts tab the log takes no rows (EventLogPanel::sync): its tab picked, it catches up.
    connect(log, &QDockWidget::visibilityChanged, m_eventLog, [this](bool visible) {
        if (visible)
            m_eventLog->catchUp();
    });
}

void MainWindow::openScenario(const scenario::Scenario& scenario)
{
    m_live->stop(); // one run on screen at a time
    m_driver->pause();
    m_scenario = std::make_unique<scenario::Scenario>(scenario);
    m_session->showSimulation(
        std::make_unique<sim::Simulation>(*m_scenario, std::nullopt, m_history->historyMsFor(m_scenario->duration)));
    sim::Simulation* simulation = m_session->simulation();
    m_overview->setRunEnd(simulation->duration());
    m_timeline->setRunEnd(simulation->duration());
    m_timeline->setNow(simulation->now());
    m_framer->frame(m_scenario.get());
    m_layout->setLesson(m_scenario->lesson ? &*m_scenario->lesson : nullptr);
    m_charts->setTimeRange(std::max<TimeMs>(0, m_timeline->visibleFrom()), m_timeline->visibleTo());
    refresh();
}

void MainWindow::restart()
{
    if (!m_scenario)
        return;
    // Replays: the run starts again from 0 s and plays, as the toolbar's tooltip and the README say. A control left
    // holding typed text gives the focus up first, so the Queue panel shows what the new run uses, not the typing.
    m_timeline->setFocus();
    openScenario(*std::make_unique<scenario::Scenario>(*m_scenario));
    m_driver->play();
    say(tr("Playing again from the start."));
}

void MainWindow::setQueueType(bool fifo)
{
    if (!m_scenario)
        return;
    auto converted = scenario::withQueueType(*m_scenario, fifo);
    if (auto* error = std::get_if<scenario::ScenarioError>(&converted)) {
        say(tr("The queues stay as they are: %1").arg(QString::fromStdString(error->text())), 12000);
        m_controls->sync();
        return;
    }
    m_lessons->convertQueues(fifo); // the fix button then applies to the converted lesson
    const bool playing = m_driver->playing();
    openScenario(std::get<scenario::Scenario>(converted));
    say(fifo ? tr("Every queue is FIFO now (a queue's type is fixed at creation, so the run starts again).")
             : tr("Every queue is standard now (a queue's type is fixed at creation, so the run starts again)."));
    if (playing)
        m_driver->play();
}

void MainWindow::showDetails(MessageIndex lane)
{
    if (!run() || lane == kNoMessage) {
        m_details->clear();
        m_charts->setHighlight(1, 0);
        return;
    }
    const MessageRecord& record = run()->message(lane);
    // Its name, its MessageId, and its body unless the name is all of it.
    const std::string name = laneName(*run(), lane);
    QString html
        = QStringLiteral("<b>%1</b><br>%2<br>")
              .arg(QString::fromStdString(name).toHtmlEscaped(), QString::fromStdString(run()->messageId(lane)));
    if (!record.body.empty() && record.body.view() != name)
        html += QStringLiteral("<i>%1</i><br>")
                    .arg(QString::fromUtf8(record.body.view().substr(0, 200)).toHtmlEscaped());
    html += QStringLiteral("<table cellspacing=0 cellpadding=2>");
    const auto history = laneHistory(*run(), m_model->lanes(), lane);
    for (const auto& entry : history) {
        html += QStringLiteral("<tr><td align=right>%1</td><td>%2</td><td>%3</td></tr>")
                    .arg(QString::fromStdString(lifeline::formatDuration(entry.time)),
                        QString::fromStdString(run()->queueInfo(entry.queue).name), entry.text.toHtmlEscaped());
    }
    m_details->setHtml(html + QStringLiteral("</table>"));
    // The charts shade the message's life: to its end when it has ended, else to now.
    if (!history.empty()) {
        const bool alive = isLive(m_model->lanes().lane(lane).state);
        m_charts->setHighlight(history.front().time, alive ? run()->now() : history.back().time);
    }
}

void MainWindow::toggleConsumerOfActor(uint32_t actor)
{
    if (!simulation())
        return;
    const auto consumers = simulation()->consumers();
    for (size_t i = 0; i < consumers.size(); ++i)
        if (consumers[i].actor == actor) {
            m_tiles->toggle(i);
            return;
        }
}

void MainWindow::showSendDialog()
{
    if (m_live->answerSend()) // a live run sends from its Queue panel, or takes nothing (traces)
        return;
    if (!simulation()) {
        say(tr("Open a scenario or a lesson first: a saved run cannot take new messages."));
        return;
    }
    auto* dialog = new SendMessageDialog(simulation(), m_controls->queue(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SendMessageDialog::sent, this, [this](const QString& what) {
        say(what);
        runChanged();
    });
    connect(dialog, &SendMessageDialog::refused, this, [this](const QString& error) {
        say(tr("Refused: %1").arg(error), 15000);
        runChanged();
    });
    // A new run replaces the simulation the dialog sends to: the dialog goes with it.
    connect(m_driver, &LiveDriver::simulationChanged, dialog, &QDialog::reject);
    dialog->show();
}

void MainWindow::bindPanels()
{
    const RunView* run = m_session->run();
    sim::Simulation* simulation = m_session->simulation();
    m_details->clear();
    m_driver->setSimulation(simulation);
    m_model->setMomentSpecs(simulation && simulation->scenario().lesson ? simulation->scenario().lesson->moments
                                                                        : std::vector<analysis::MomentSpec> {});
    m_model->setRun(run);
    m_overview->setRun(run);
    m_controls->setSimulation(simulation);
    m_tiles->setSimulation(simulation);
    // A proxied run's depth is what the upstream reports (its lanes are only what the proxy saw).
    m_charts->setSource(run, m_session->proxy() ? &m_session->proxy()->polledSeries() : &m_overview->series());
    m_eventLog->setRun(run);
    showLiveState();
}

void MainWindow::showRun(const RunView& run)
{
    m_live->stop();
    m_driver->pause();
    m_session->showRun(run);
    showStill(run);
}

void MainWindow::showStill(const RunView& run)
{
    m_overview->setRunEnd(run.now());
    m_timeline->setRunEnd(run.now());
    m_timeline->setNow(run.now());
    m_timeline->setFollowLive(false);
    m_timeline->fitRun();
    QTimer::singleShot(0, m_timeline, &TimelineView::fitRun); // again once the window has its real size
    refresh();
}

const RunView* MainWindow::run() const
{
    return m_session->run();
}

sim::Simulation* MainWindow::simulation() const
{
    return m_session->simulation();
}

void MainWindow::runChanged()
{
    m_model->sync();
    m_framer->userActed(); // a crash, a setting or a message of the user's: the frame grows with what they do
    m_timeline->update();
    refresh();
}

void MainWindow::refresh()
{
    if (!run())
        return;
    // A line per queue, not a table: the panel is narrow, and columns would be cut off at its edge.
    QString html;
    for (size_t i = 0; i < run()->queueCount(); ++i) {
        const auto& info = run()->queueInfo(QueueIndex(i));
        if (!info.alive)
            continue;
        const QueueCounters& counters = info.counters;
        html += QStringLiteral("<p><b>%1</b><br>%2</p>")
                    .arg(QString::fromStdString(info.name).toHtmlEscaped(),
                        tr("%1 visible · %2 in flight · %3 delayed")
                            .arg(counters.visible)
                            .arg(counters.inFlight)
                            .arg(counters.delayed));
    }
    const size_t events = run()->log().size();
    QString figures = events == 1 ? tr("1 event in the log") : tr("%L1 events in the log").arg(qulonglong(events));
    if (simulation())
        figures += tr(" · duplicate processing: %1").arg(simulation()->duplicateProcessings());
    html += QStringLiteral("<p>%1</p>").arg(figures);
    m_summary->setText(html);
    m_status->sync(run());
    m_overview->sync(); // first: the charts draw from its series
    m_tiles->sync();
    m_controls->sync();
    if (m_session->live())
        m_liveQueue->sync();
    m_charts->sync();
    m_eventLog->sync();
}

void MainWindow::say(const QString& text, int ms)
{
    m_status->say(text, ms);
}

QString MainWindow::historyText() const
{
    return run() ? StatusBarController::historyText(*run()) : QString();
}

QString MainWindow::statusText() const
{
    return m_status->message();
}

void MainWindow::setDarkTheme(bool dark)
{
    m_dark = dark;
    applyTheme();
}

void MainWindow::setHighContrast(bool on)
{
    m_highContrast = on;
    applyTheme();
}

void MainWindow::applyTheme()
{
    const Theme theme = this->theme();
    applyApplicationTheme(theme);
    const TimelineStyle style = TimelineStyle::of(theme);
    m_timeline->setTheme(theme);
    m_overview->setTimelineStyle(style);
    m_tiles->setTimelineStyle(style);
    m_charts->setDark(theme != Theme::Light);
    if (m_darkAction)
        m_darkAction->setChecked(m_dark);
    if (m_contrastAction)
        m_contrastAction->setChecked(m_highContrast);
}

void MainWindow::rememberSettings()
{
    m_remember = true;
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    // A layout the user left wins over the first-show arrangement.
    m_docksArranged = restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_layout->setEngineering(settings.value(QStringLiteral("view/engineeringLayout"), false).toBool());
    m_highContrast = settings.value(QStringLiteral("view/highContrast"), false).toBool();
    setDarkTheme(settings.value(QStringLiteral("view/dark"), false).toBool());
    // A learner's first lesson stops at each key moment; after that, as they left it.
    m_momentStops->action()->setChecked(
        settings.value(QStringLiteral("lessons/stopAtMoments"), !settings.contains(QStringLiteral("lessons/last")))
            .toBool());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_remember) {
        QSettings settings;
        settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
        settings.setValue(QStringLiteral("window/state"), saveState());
        settings.setValue(QStringLiteral("view/dark"), m_dark);
        settings.setValue(QStringLiteral("view/highContrast"), m_highContrast);
        settings.setValue(QStringLiteral("view/engineeringLayout"), m_layout->engineering());
        settings.setValue(QStringLiteral("lessons/stopAtMoments"), m_momentStops->action()->isChecked());
        if (!m_lessons->lessonId().isEmpty())
            settings.setValue(QStringLiteral("lessons/last"), m_lessons->lessonId());
    }
    m_driver->pause();
    m_live->saveProxyRecord();
    QMainWindow::closeEvent(event);
}

} // namespace lifeline::ui
