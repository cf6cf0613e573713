#include "window/controllers/export_controller.h"

#include "export/animation_export.h"
#include "export/image_export.h"
#include "lifeline/analysis/summary.h"
#include "lifeline/export/run_export.h"
#include "lifeline/io/run_file.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/support/duration.h"
#include "timeline/timeline_view.h"
#include "window/dialogs/export_dialog.h"
#include "window/runtime/live_driver.h"
#include "window/runtime/run_session.h"

#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QProgressDialog>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTemporaryDir>
#include <sstream>

namespace lifeline::ui {

ExportController::ExportController(
    RunSession* session, TimelineView* timeline, LiveDriver* driver, Presentation presentation, QWidget* window)
    : QObject(window)
    , m_session(session)
    , m_timeline(timeline)
    , m_driver(driver)
    , m_presentation(std::move(presentation))
    , m_window(window)
    , m_saveRun(new QAction(tr("&Save run..."), this))
    , m_exportImage(new QAction(tr("&Export (PNG, SVG, PDF, GIF, MP4)..."), this))
    , m_exportAnimation(new QAction(tr("Export &animation (GIF, MP4)..."), this))
    , m_exportSlide(new QAction(tr("Export &slide (the view, 1920x1080)"), this))
    , m_copyTimeline(new QAction(tr("Co&py the timeline"), this))
    , m_exportTrace(new QAction(tr("Export &trace (Perfetto)..."), this))
    , m_exportCsv(new QAction(tr("Export &CSV..."), this))
{
    m_saveRun->setShortcut(QKeySequence::Save);
    m_exportImage->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_copyTimeline->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    connect(m_saveRun, &QAction::triggered, this, &ExportController::saveRunAs);
    m_exportSlide->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    connect(m_exportImage, &QAction::triggered, this, [this] { exportWithDialog({}); }); // the last choice
    connect(m_exportAnimation, &QAction::triggered, this, [this] { exportWithDialog(QStringLiteral("gif")); });
    connect(m_exportSlide, &QAction::triggered, this, &ExportController::exportSlide);
    connect(m_copyTimeline, &QAction::triggered, this, &ExportController::copyTimeline);
    connect(m_exportTrace, &QAction::triggered, this, [this] { exportData(true); });
    connect(m_exportCsv, &QAction::triggered, this, [this] { exportData(false); });
}

void ExportController::addExportActions(QMenu* menu) const
{
    menu->addActions({ m_exportImage, m_exportAnimation, m_exportSlide, m_copyTimeline, m_exportTrace, m_exportCsv });
}

QString ExportController::defaultFileName(const QString& suffix) const
{
    const QString title = m_presentation.title();
    QString base = title.isEmpty() ? tr("lifeline") : title.section(QLatin1Char(':'), 0, 0);
    base = base.toLower().replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    const RunView* run = m_session->run();
    const QString at = run ? QString::fromStdString(lifeline::formatDuration(run->now())) : QString();
    return QStringLiteral("%1-%2.%3").arg(base, at, suffix);
}

void ExportController::saveRunAs()
{
    const RunView* run = m_session->run();
    if (!run)
        return;
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Save run"), defaultFileName(QStringLiteral("lifeline")), tr("Lifeline run (*.lifeline)"));
    if (path.isEmpty())
        return;
    const auto saved = saveRun(*run, m_presentation.title().toStdString(), path.toStdString());
    if (!saved)
        QMessageBox::warning(m_window, tr("Save run"),
            tr("The run was not saved: %1.%2")
                .arg(QString::fromStdString(saved.message()),
                    run->log().firstRetained() > 0
                        ? tr("\n\nTo save runs this long, choose View > History kept > Everything and restart the run.")
                        : QString()));
    else
        emit said(tr("Saved %1").arg(path));
}

void ExportController::exportData(bool trace)
{
    const RunView* run = m_session->run();
    if (!run)
        return;
    const QString path = QFileDialog::getSaveFileName(m_window, trace ? tr("Export trace") : tr("Export CSV"),
        defaultFileName(trace ? QStringLiteral("json") : QStringLiteral("csv")),
        trace ? tr("Chrome trace (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    std::ostringstream out;
    if (trace)
        writeChromeTrace(*run, out);
    else
        writeEventsCsv(*run, out);
    QSaveFile file(path);
    const std::string text = out.str();
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size())
        || !file.commit())
        QMessageBox::warning(m_window, tr("Export"), tr("The file was not saved: %1").arg(file.errorString()));
    else
        emit said(tr("Saved %1").arg(path));
}

QString ExportController::claimText() const
{
    if (const sim::Simulation* simulation = m_session->simulation())
        return QString::fromStdString(simulation->summary().claim());
    const RunView* run = m_session->run();
    return run ? QString::fromStdString(analysis::summarizeLog(*run).claim()) : QString();
}

ImageExportRequest ExportController::stillRequest(const ExportChoice& choice) const
{
    ImageExportRequest request;
    request.path = choice.path;
    if (choice.visibleWindow) {
        request.from = std::max<TimeMs>(0, m_timeline->visibleFrom());
        request.to = m_timeline->visibleTo();
    }
    request.size = choice.size;
    request.title = m_presentation.title();
    request.dark = m_presentation.theme() != Theme::Light;
    request.highContrast = m_presentation.theme() == Theme::HighContrast;
    request.claim = claimText();
    if (const sim::Simulation* simulation = m_session->simulation(); simulation && simulation->scenario().lesson)
        request.moments = simulation->scenario().lesson->moments;
    return request;
}

QImage ExportController::previewOf(const ExportChoice& choice) const
{
    // The still the choice would write (an animation's: its action, as its last frame shows it), through the export
    // itself, so the preview is what the file will be.
    const RunView* run = m_session->run();
    QTemporaryDir folder;
    if (!run || !folder.isValid())
        return {};
    ExportChoice still = choice;
    still.path = folder.filePath(QStringLiteral("preview.png"));
    still.visibleWindow = choice.visibleWindow && !choice.animation();
    return exportTimelineImage(*run, stillRequest(still)) ? QImage(still.path) : QImage();
}

void ExportController::exportWithDialog(const QString& format)
{
    const RunView* run = m_session->run();
    if (!run)
        return;
    ExportDialog dialog(
        defaultFileName(format.isEmpty() ? QStringLiteral("png") : format), m_timeline->size(),
        m_presentation.scenario() != nullptr, m_session->simulation() && !m_session->simulation()->journal().empty(),
        [this](const ExportChoice& choice) { return previewOf(choice); }, m_window);
    if (!format.isEmpty())
        dialog.setFormat(format);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const auto choice = dialog.choice();
    if (!choice)
        return;
    if (choice->animation()) {
        AnimationRequest request;
        request.path = choice->path;
        request.size = choice->size;
        request.fps = choice->fps;
        request.duration = TimeMs(choice->seconds) * 1000;
        request.title = m_presentation.title();
        request.dark = m_presentation.theme() != Theme::Light;
        request.highContrast = m_presentation.theme() == Theme::HighContrast;
        if (choice->asPlayed && m_session->simulation())
            request.asPlayed = std::make_shared<const sim::OperatorJournal>(m_session->simulation()->journal());
        exportAnimationTo(request);
        return;
    }
    writeStill(*choice);
}

bool ExportController::writeStill(const ExportChoice& choice)
{
    const RunView* run = m_session->run();
    if (!run)
        return false;
    const auto exported = exportTimelineImage(*run, stillRequest(choice));
    if (!exported) {
        QMessageBox::warning(
            m_window, tr("Export"), tr("The image was not saved: %1").arg(QString::fromStdString(exported.message())));
        return false;
    }
    emit said(tr("Saved %1").arg(choice.path));
    return true;
}

QString ExportController::exportSlide()
{
    // One key: the visible window as a 1920x1080 slide, next to the last export.
    ExportChoice slide;
    slide.path = QDir(ExportDialog::lastFolder()).filePath(defaultFileName(QStringLiteral("png")));
    slide.size = QSize(1920, 1080);
    slide.visibleWindow = true;
    return writeStill(slide) ? slide.path : QString();
}

QImage ExportController::copyTimeline()
{
    // The visible window at twice the view's size, sharp on a slide.
    QImage image(m_timeline->size() * 2, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(2);
    image.fill(Qt::white);
    QPainter p(&image);
    m_timeline->painter().paint(p, m_timeline->rect(), m_timeline->frame());
    p.end();
    QGuiApplication::clipboard()->setImage(image);
    emit said(tr("The timeline is on the clipboard (%1x%2 pixels): paste it into a slide.")
                  .arg(image.width())
                  .arg(image.height()));
    return image;
}

bool ExportController::exportAnimationTo(AnimationRequest request)
{
    const scenario::Scenario* scenario = m_presentation.scenario();
    if (!scenario)
        return false;
    m_driver->pause(); // the window's run stays where it is; the animation simulates its own
    QProgressDialog progress(tr("Painting the animation..."), tr("Cancel"), 0, animationFrames(request), m_window);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300);
    request.progress = [&progress](int done, int) {
        progress.setValue(done);
        return !progress.wasCanceled();
    };
    const auto exported = exportAnimation(*scenario, request);
    if (exported && exported.value() == AnimationEnd::Written) {
        emit said(tr("Saved %1, its captions beside it as %2")
                      .arg(request.path, QFileInfo(captionsPath(request.path)).fileName()));
        return true;
    }
    if (exported) // cancelled
        emit said(tr("The animation was cancelled: nothing was written."));
    else
        QMessageBox::warning(m_window, tr("Export animation"),
            tr("The animation was not saved: %1").arg(QString::fromStdString(exported.message())));
    return false;
}

} // namespace lifeline::ui
