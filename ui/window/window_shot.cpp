#include "window/window_shot.h"

#include "window/controllers/lesson_controller.h"
#include "window/controllers/presenter_controller.h"
#include "window/controllers/status_bar_controller.h"
#include "window/main_window.h"
#include "window/panels/comparison_pane.h"
#include "window/runtime/live_driver.h"

#include <QApplication>
#include <QPixmap>

namespace lifeline::ui {

namespace {
// Lets the window lay itself out (its docks arrange once it is shown at its size) and paint.
void settle()
{
    for (int i = 0; i < 3; ++i)
        QApplication::processEvents();
}
} // namespace

WindowShot::WindowShot(const WindowShotRequest& request)
    : m_window(std::make_unique<MainWindow>())
    , m_size(request.size)
{
    m_window->resize(request.size);
    m_window->setHighContrast(request.highContrast);
    m_window->setDarkTheme(request.dark);
    if (auto* status = m_window->findChild<StatusBarController*>())
        status->setProcessMemoryShown(false);
    m_window->show();
    settle();
    if (request.scenario.lesson)
        m_window->lessons()->startLesson(request.scenario);
    else
        m_window->openScenario(request.scenario);
    LiveDriver* driver = m_window->driver();
    driver->pause();
    settle();
    if (request.at > 0)
        driver->advanceBy(request.at); // on virtual time: the run is the same whatever the machine
    if (request.presenter) {
        m_window->presenter()->setPresenting(true);
        // Offscreen, "full screen" is the platform's own screen (800x800): the size asked for stands for it.
        m_window->showNormal();
        m_window->resize(request.size);
    }
    if (request.compare)
        m_comparison = m_window->compareWithFix(); // a pane of the window, below the lesson's timeline
    settle();
}

WindowShot::~WindowShot() = default;

QImage WindowShot::image()
{
    settle();
    QImage image = m_window->grab().toImage();
    // The size asked for, whatever the platform allowed the window (a screen smaller than it).
    return image.size() == m_size ? image : image.scaled(m_size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
}

} // namespace lifeline::ui
