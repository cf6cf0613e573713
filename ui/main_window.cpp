#include "main_window.h"

#include "image_export.h"
#include "lane_history.h"
#include "lane_model.h"
#include "lifeline/engine.h"
#include "lifeline/export/run_export.h"
#include "lifeline/sim/duration.h"
#include "lifeline/sim/simulation.h"
#include "live_driver.h"
#include "overview_strip.h"
#include "timeline_view.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSplitter>
#include <QStatusBar>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <sstream>

namespace lifeline::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_model(new LaneModel(this))
    , m_timeline(new TimelineView(m_model, this))
    , m_overview(new OverviewStrip(this))
    , m_details(new QTextBrowser(this))
    , m_driver(new LiveDriver(nullptr, m_model, this))
    , m_lesson(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_clock(new QLabel(this))
{
    setWindowTitle(tr("Lifeline"));
    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    m_lesson->setWordWrap(true);
    m_lesson->setTextFormat(Qt::RichText);
    m_lesson->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_summary->setTextFormat(Qt::RichText);
    sideLayout->addWidget(m_lesson);
    sideLayout->addWidget(m_summary);
    m_details->setPlaceholderText(tr("Click a message lane to see its whole history. Esc clears; . and , step "
                                     "through its events; F centres it."));
    sideLayout->addWidget(m_details, 1);
    side->setMinimumWidth(280);
    side->setMaximumWidth(420);

    auto* timelineColumn = new QWidget(this);
    auto* timelineLayout = new QVBoxLayout(timelineColumn);
    timelineLayout->setContentsMargins(0, 0, 0, 0);
    timelineLayout->setSpacing(0);
    timelineLayout->addWidget(m_overview);
    timelineLayout->addWidget(m_timeline, 1);
    auto* splitter = new QSplitter(this);
    splitter->addWidget(timelineColumn);
    splitter->addWidget(side);
    splitter->setStretchFactor(0, 1);
    setCentralWidget(splitter);
    statusBar()->addPermanentWidget(m_clock);
    buildToolbar();
    buildMenus();
    resize(1280, 760);

    connect(m_driver, &LiveDriver::advanced, this, [this](TimeMs now) {
        m_timeline->setNow(now);
        m_overview->sync();
        if (m_timeline->selected() != kNoMessage)
            showDetails(m_timeline->selected());
        refresh();
    });
    connect(m_driver, &LiveDriver::playingChanged, this,
        [this](bool playing) { m_play->setText(playing ? tr("Pause") : tr("Play")); });
    connect(m_driver, &LiveDriver::laggingChanged, this, [this](bool lagging) {
        statusBar()->showMessage(
            lagging ? tr("The simulation cannot keep up with this speed: time runs slower.") : QString());
    });
    connect(m_timeline, &TimelineView::followLiveChanged, this, [this](bool on) { m_follow->setChecked(on); });
    connect(m_timeline, &TimelineView::viewChanged, this,
        [this] { m_overview->setWindow(m_timeline->visibleFrom(), m_timeline->visibleTo()); });
    connect(m_overview, &OverviewStrip::timeRequested, m_timeline, &TimelineView::centreOn);
    connect(m_timeline, &TimelineView::laneSelected, this, &MainWindow::showDetails);
}

MainWindow::~MainWindow() = default;

void MainWindow::openScenario(const sim::Scenario& scenario)
{
    m_driver->pause();
    m_scenario = std::make_unique<sim::Scenario>(scenario);
    auto simulation = std::make_unique<sim::Simulation>(*m_scenario);
    showSimulation(simulation.get());
    m_ownedSimulation = std::move(simulation); // the old run goes only after the model points at the new one
}

void MainWindow::restart()
{
    if (m_scenario)
        openScenario(*std::make_unique<sim::Scenario>(*m_scenario));
}

void MainWindow::showDetails(MessageIndex lane)
{
    if (!m_engine || lane == kNoMessage) {
        m_details->clear();
        return;
    }
    const MessageRecord& record = m_engine->message(lane);
    QString html = QStringLiteral("<b>%1</b><br>").arg(QString::fromStdString(record.messageId()));
    if (!record.body.empty())
        html += QStringLiteral("<i>%1</i><br>").arg(QString::fromStdString(record.body.substr(0, 200)).toHtmlEscaped());
    html += QStringLiteral("<table cellspacing=0 cellpadding=2>");
    for (const auto& entry : laneHistory(*m_engine, m_model->lanes(), lane, m_actorNames)) {
        html += QStringLiteral("<tr><td align=right>%1</td><td>%2</td><td>%3</td></tr>")
                    .arg(QString::fromStdString(sim::formatDuration(entry.time)),
                        QString::fromStdString(m_engine->queueInfo(entry.queue).name), entry.text.toHtmlEscaped());
    }
    m_details->setHtml(html + QStringLiteral("</table>"));
}

MainWindow::MainWindow(const Engine& engine, QWidget* parent)
    : MainWindow(parent)
{
    showEngine(engine);
}

void MainWindow::buildToolbar()
{
    auto* bar = addToolBar(tr("Simulation"));
    bar->setObjectName(QStringLiteral("simulation"));
    m_play = bar->addAction(tr("Play"), m_driver, &LiveDriver::togglePlay);
    m_play->setShortcut(Qt::Key_Space);
    auto* step = bar->addAction(tr("Step"), m_driver, &LiveDriver::step);
    step->setShortcut(Qt::Key_Right);
    step->setToolTip(tr("Step to the next event (Right)"));
    m_speed = new QComboBox(this);
    for (int speed : { 1, 2, 5, 10, 30, 100, 300, 1000, 3000 })
        m_speed->addItem(QStringLiteral("%1×").arg(speed), speed);
    m_speed->setCurrentIndex(3);
    m_speed->setToolTip(tr("Virtual seconds per wall second"));
    connect(m_speed, &QComboBox::currentIndexChanged, this,
        [this](int) { m_driver->setSpeed(m_speed->currentData().toDouble()); });
    m_driver->setSpeed(10);
    bar->addWidget(m_speed);
    bar->addSeparator();
    m_follow = bar->addAction(tr("Follow live"));
    m_follow->setCheckable(true);
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Keep \"now\" in view; any manual pan stops following"));
    connect(m_follow, &QAction::toggled, m_timeline, &TimelineView::setFollowLive);
    // Filter lanes by text (id, body, group, consumer) and by state.
    bar->addSeparator();
    auto* filterText = new QLineEdit(this);
    filterText->setPlaceholderText(tr("Filter: id, body, group or consumer"));
    filterText->setClearButtonEnabled(true);
    filterText->setMaximumWidth(240);
    auto* filterState = new QComboBox(this);
    filterState->addItem(tr("all messages"), int(LaneFilter::State::All));
    filterState->addItem(tr("in the queue"), int(LaneFilter::State::Live));
    filterState->addItem(tr("in flight"), int(LaneFilter::State::InFlight));
    filterState->addItem(tr("ended"), int(LaneFilter::State::Ended));
    filterState->addItem(tr("dead-lettered"), int(LaneFilter::State::DeadLettered));
    filterState->addItem(tr("processed twice"), int(LaneFilter::State::Duplicates));
    const auto applyFilter = [this, filterText, filterState] {
        m_timeline->setFilter(
            LaneFilter { filterText->text().trimmed(), LaneFilter::State(filterState->currentData().toInt()) });
    };
    connect(filterText, &QLineEdit::textChanged, this, applyFilter);
    connect(filterState, &QComboBox::currentIndexChanged, this, applyFilter);
    bar->addWidget(filterText);
    bar->addWidget(filterState);
    bar->addSeparator();
    auto* restartAction = bar->addAction(tr("Restart"), this, &MainWindow::restart);
    restartAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    restartAction->setToolTip(tr("Run the scenario again from the start (Ctrl+R)"));
    bar->addAction(tr("Fit (F)"), this, [this] {
        m_timeline->setFollowLive(false);
        m_timeline->fitAll();
    });
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(tr("&Open run..."), this, &MainWindow::openRunFile);
    open->setShortcut(QKeySequence::Open);
    auto* save = file->addAction(tr("&Save run..."), this, &MainWindow::saveRunAs);
    save->setShortcut(QKeySequence::Save);
    file->addSeparator();
    auto* image = file->addAction(tr("Export &image..."), this, &MainWindow::exportImage);
    image->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addAction(tr("Export &trace (Perfetto)..."), this, [this] { exportData(true); });
    file->addAction(tr("Export &CSV..."), this, [this] { exportData(false); });
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
}

QString MainWindow::defaultFileName(const QString& suffix) const
{
    QString base = m_title.isEmpty() ? tr("lifeline") : m_title.section(QLatin1Char(':'), 0, 0);
    base = base.toLower().replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    const QString at = m_engine ? QString::fromStdString(sim::formatDuration(m_engine->now())) : QString();
    return QStringLiteral("%1-%2.%3").arg(base, at, suffix);
}

void MainWindow::exportImage()
{
    if (!m_engine)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export image"), defaultFileName(QStringLiteral("png")),
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    bool ok = false;
    const QString size = QInputDialog::getText(this, tr("Export image"), tr("Size in pixels (width x height):"),
        QLineEdit::Normal, QStringLiteral("1920x1080"), &ok);
    if (!ok)
        return;
    const QStringList ranges { tr("The whole run"), tr("The visible window") };
    const QString range = QInputDialog::getItem(this, tr("Export image"), tr("What to draw:"), ranges, 0, false, &ok);
    if (!ok)
        return;
    ImageExportRequest request;
    request.path = path;
    if (range == ranges[1]) {
        request.from = std::max<TimeMs>(0, m_timeline->visibleFrom());
        request.to = m_timeline->visibleTo();
    }
    const auto parts = size.split(QLatin1Char('x'));
    request.size = parts.size() == 2 ? QSize(parts[0].trimmed().toInt(), parts[1].trimmed().toInt()) : QSize();
    request.title = m_title;
    const QString error = exportTimelineImage(*m_engine, m_actorNames, request);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export image"), tr("The image was not saved: %1").arg(error));
    else
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

void MainWindow::showRecordedRun(RecordedRun run)
{
    m_driver->pause();
    auto recorded = std::make_unique<RecordedRun>(std::move(run));
    showEngine(*recorded->engine);
    m_actorNames = recorded->actorNames;
    m_model->setEngine(m_engine, m_actorNames);
    setLesson(QString::fromStdString(recorded->title), tr("A saved run, shown as it was recorded."));
    m_recorded = std::move(recorded);
    m_ownedSimulation.reset();
    m_scenario.reset();
}

void MainWindow::saveRunAs()
{
    if (!m_engine)
        return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save run"), defaultFileName(QStringLiteral("lifeline")), tr("Lifeline run (*.lifeline)"));
    if (path.isEmpty())
        return;
    const std::string error = saveRun(*m_engine, m_actorNames, m_title.toStdString(), path.toStdString());
    if (!error.empty())
        QMessageBox::warning(this, tr("Save run"), tr("The run was not saved: %1").arg(QString::fromStdString(error)));
    else
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

void MainWindow::openRunFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open run"), QString(), tr("Lifeline run (*.lifeline)"));
    if (path.isEmpty())
        return;
    auto opened = openRun(path.toStdString());
    if (auto* error = std::get_if<std::string>(&opened)) {
        QMessageBox::warning(this, tr("Open run"), QString::fromStdString(*error));
        return;
    }
    showRecordedRun(std::get<RecordedRun>(std::move(opened)));
}

void MainWindow::exportData(bool trace)
{
    if (!m_engine)
        return;
    const QString path = QFileDialog::getSaveFileName(this, trace ? tr("Export trace") : tr("Export CSV"),
        defaultFileName(trace ? QStringLiteral("json") : QStringLiteral("csv")),
        trace ? tr("Chrome trace (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    std::ostringstream out;
    if (trace)
        writeChromeTrace(*m_engine, m_actorNames, out);
    else
        writeEventsCsv(*m_engine, m_actorNames, out);
    QSaveFile file(path);
    const std::string text = out.str();
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size())
        || !file.commit())
        QMessageBox::warning(this, tr("Export"), tr("The file was not saved: %1").arg(file.errorString()));
    else
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

void MainWindow::showSimulation(sim::Simulation* simulation)
{
    m_simulation = simulation;
    m_engine = &simulation->engine();
    m_actorNames = simulation->actorNames();
    m_model->setEngine(m_engine, m_actorNames);
    m_overview->setEngine(m_engine);
    m_overview->setRunEnd(simulation->duration());
    m_details->clear();
    m_driver->setSimulation(simulation);
    m_timeline->setRunEnd(simulation->duration());
    m_timeline->setNow(simulation->now());
    refresh();
}

void MainWindow::showEngine(const Engine& engine)
{
    m_simulation = nullptr;
    m_engine = &engine;
    m_driver->setSimulation(nullptr);
    m_actorNames.clear();
    m_model->setEngine(m_engine);
    m_overview->setEngine(m_engine);
    m_overview->setRunEnd(engine.now());
    m_timeline->setRunEnd(engine.now());
    m_timeline->setNow(engine.now());
    m_timeline->setFollowLive(false);
    m_timeline->fitAll();
    QTimer::singleShot(0, m_timeline, &TimelineView::fitAll); // again once the window has its real size
    refresh();
}

void MainWindow::setLesson(const QString& title, const QString& text)
{
    m_title = title;
    QString body = text.toHtmlEscaped();
    body.replace(QStringLiteral("\n\n"), QStringLiteral("</p><p>"));
    m_lesson->setText(QStringLiteral("<h3>%1</h3><p>%2</p>").arg(title.toHtmlEscaped(), body));
    setWindowTitle(tr("Lifeline - %1").arg(title));
}

void MainWindow::refresh()
{
    if (!m_engine)
        return;
    QString html
        = QStringLiteral("<table cellpadding=4><tr><th align=left>%1</th><th>%2</th><th>%3</th><th>%4</th></tr>")
              .arg(tr("queue"), tr("visible"), tr("in flight"), tr("delayed"));
    for (size_t i = 0; i < m_engine->queueCount(); ++i) {
        const auto& info = m_engine->queueInfo(QueueIndex(i));
        if (!info.alive)
            continue;
        const auto counters = m_engine->counters(info.name).value();
        html += QStringLiteral(
            "<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td><td align=right>%4</td></tr>")
                    .arg(QString::fromStdString(info.name))
                    .arg(counters.visible)
                    .arg(counters.inFlight)
                    .arg(counters.delayed);
    }
    html += QStringLiteral("</table><p>%1</p>").arg(tr("%n event(s) in the log", nullptr, int(m_engine->log().size())));
    if (m_simulation)
        html += QStringLiteral("<p>%1</p>")
                    .arg(tr("duplicate processing: %1").arg(m_simulation->duplicateProcessings()));
    m_summary->setText(html);
    m_clock->setText(tr("virtual time %1").arg(QString::fromStdString(sim::formatDuration(m_engine->now()))));
}

} // namespace lifeline::ui
