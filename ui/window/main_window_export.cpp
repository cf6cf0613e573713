// The window's exports: images, animations and the clipboard.
#include "export/animation_export.h"
#include "export/image_export.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/sim/summary.h"
#include "timeline/timeline_view.h"
#include "window/live_driver.h"
#include "window/main_window.h"
#include "window/run_session.h"

#include <QClipboard>
#include <QFileDialog>
#include <QGuiApplication>
#include <QInputDialog>
#include <QMessageBox>
#include <QPainter>
#include <QProgressDialog>

namespace lifeline::ui {

QString MainWindow::claimText() const
{
    if (simulation())
        return QString::fromStdString(simulation()->summary().claim());
    return engine() ? QString::fromStdString(sim::summarizeLog(*engine(), actorNames()).claim()) : QString();
}

void MainWindow::exportImage()
{
    if (!engine())
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
    const QStringList ranges { tr("The action (to the last state change)"), tr("The visible window") };
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
    request.dark = m_dark;
    request.claim = claimText();
    if (simulation() && simulation()->scenario().lesson)
        request.moments = simulation()->scenario().lesson->moments;
    const auto exported = exportTimelineImage(*engine(), actorNames(), request);
    if (!exported)
        QMessageBox::warning(this, tr("Export image"),
            tr("The image was not saved: %1").arg(QString::fromStdString(exported.message())));
    else
        say(tr("Saved %1").arg(path));
}

QImage MainWindow::copyTimeline()
{
    // The visible window at twice the view's size, sharp on a slide.
    QImage image(m_timeline->size() * 2, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(2);
    image.fill(Qt::white);
    QPainter p(&image);
    m_timeline->painter().paint(p, m_timeline->rect(), m_timeline->frame());
    p.end();
    QGuiApplication::clipboard()->setImage(image);
    say(tr("The timeline is on the clipboard (%1x%2 pixels): paste it into a slide.")
            .arg(image.width())
            .arg(image.height()));
    return image;
}

void MainWindow::exportAnimationFile()
{
    if (!m_scenario) {
        say(tr("An animation replays a simulation: open a lesson or a scenario first."));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Export animation"),
        defaultFileName(QStringLiteral("gif")), tr("Animated GIF (*.gif);;MP4 video (*.mp4)"));
    if (path.isEmpty())
        return;
    bool ok = false;
    const QString size = QInputDialog::getText(this, tr("Export animation"), tr("Size in pixels (width x height):"),
        QLineEdit::Normal, QStringLiteral("1280x720"), &ok);
    if (!ok)
        return;
    const int fps
        = QInputDialog::getInt(this, tr("Export animation"), tr("Frames a second:"), 15, kMinFps, kMaxFps, 1, &ok);
    if (!ok)
        return;
    const int seconds
        = QInputDialog::getInt(this, tr("Export animation"), tr("Length of the video, in seconds:"), 8, 1, 600, 1, &ok);
    if (!ok)
        return;
    AnimationRequest request;
    request.path = path;
    const auto parts = size.split(QLatin1Char('x'));
    request.size = parts.size() == 2 ? QSize(parts[0].trimmed().toInt(), parts[1].trimmed().toInt()) : QSize();
    request.fps = fps;
    request.duration = TimeMs(seconds) * 1000;
    request.title = m_title;
    request.dark = m_dark;
    exportAnimationTo(request);
}

bool MainWindow::exportAnimationTo(AnimationRequest request)
{
    m_driver->pause(); // the window's run stays where it is; the animation simulates its own
    QProgressDialog progress(tr("Painting the animation..."), tr("Cancel"), 0, animationFrames(request), this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300);
    request.progress = [&progress](int done, int) {
        progress.setValue(done);
        return !progress.wasCanceled();
    };
    const auto exported = exportAnimation(*m_scenario, request);
    if (exported) {
        say(tr("Saved %1").arg(request.path));
        return true;
    }
    if (exported.message() == "cancelled")
        say(tr("The animation was cancelled: nothing was written."));
    else
        QMessageBox::warning(this, tr("Export animation"),
            tr("The animation was not saved: %1").arg(QString::fromStdString(exported.message())));
    return false;
}

} // namespace lifeline::ui
