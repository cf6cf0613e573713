// Each lesson's wall time in the window, at the pace chosen for it: its script at that speed, and as it plays with
// its quiet waits passed faster (QuietWaits). Counted in frames of 33 ms, as the window's timer ticks: the figures
// are the same on any machine.
#include "lifeline/teach/lessons.h"
#include "window/controllers/lesson_controller.h"
#include "window/main_window.h"
#include "window/runtime/live_driver.h"

#include <QString>
#include <cstdio>

namespace lifeline::bench {

void runPaceBenchmark()
{
    int number = 0;
    for (const auto& lesson : teach::builtinLessons()) {
        ++number;
        ui::MainWindow window;
        window.resize(1366, 768);
        if (!window.lessons()->openLesson(QString::number(number)))
            continue;
        ui::LiveDriver& driver = *window.driver();
        driver.pause();
        const double script = double(lesson.scenario.duration) / driver.speed() / 1000.0;
        int frames = 0;
        for (; !driver.scriptEnded() && frames < 100000; ++frames)
            driver.frameAfter(33);
        std::printf("pace.lesson%02d.script %.1f s\npace.lesson%02d.played %.1f s (%zu quiet waits passed faster)\n",
            number, script, number, frames * 0.033, driver.fastSpans().size());
    }
}

} // namespace lifeline::bench
