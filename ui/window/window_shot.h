// The window as a user would see it at a virtual instant, rendered offscreen: `lifeline screenshot` writes it (the
// README's screenshot is made with it) and tests measure it. The run is played to the instant on virtual time, so
// the same request gives the same picture.
#pragma once

#include "lifeline/scenario/scenario.h"

#include <QImage>
#include <QSize>
#include <memory>

namespace lifeline::ui {

class ComparisonPane;
class MainWindow;

struct WindowShotRequest {
    scenario::Scenario scenario; // a lesson (with its panel, moments and framing) or another scenario
    TimeMs at = 20000; // the virtual instant shown
    QSize size { 1920, 1080 };
    bool dark = false;
    bool highContrast = false;
    bool compare = false; // Compare with the fix (both runs to their ends) instead of the window
    bool presenter = false; // presenter mode
};

class WindowShot {
public:
    explicit WindowShot(const WindowShotRequest& request); // builds the window and plays it to `at`
    ~WindowShot();
    WindowShot(const WindowShot&) = delete;
    WindowShot& operator=(const WindowShot&) = delete;

    MainWindow& window() { return *m_window; }
    ComparisonPane* comparison() const { return m_comparison; } // with `compare`; else none
    QImage image(); // what is on screen: the window, or Compare's

private:
    std::unique_ptr<MainWindow> m_window;
    ComparisonPane* m_comparison = nullptr;
    QSize m_size;
};

} // namespace lifeline::ui
