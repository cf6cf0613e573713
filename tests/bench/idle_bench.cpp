// The window playing a lesson whose script has ended, nothing on its lanes changing: the CPU it takes over 10 s of
// wall time (user and system, every thread), at 1366x768, offscreen. What a speaker's laptop spends while they talk
// over a finished lesson. Goal: 5 % of a core or less.
#include "bench_util.h"
#include "window/controllers/lesson_controller.h"
#include "window/main_window.h"
#include "window/runtime/live_driver.h"

#include <QApplication>
#include <QEventLoop>
#include <QSettings>
#include <QTimer>
#include <sys/resource.h>

namespace lifeline::bench {

namespace {
double cpuSeconds()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// A loop of its own: QCoreApplication::quit() would close the window too.
void runFor(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}
} // namespace

void runIdleBenchmark()
{
    QSettings().setValue(QStringLiteral("lessons/stopAtMoments"), false); // the bench's settings: it plays on
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    if (!window.lessons()->openLesson(QStringLiteral("1")))
        return;
    ui::LiveDriver& driver = *window.driver();
    driver.pause();
    driver.advanceBy(window.simulation()->duration()); // the script has ended
    driver.play();
    runFor(2000); // settled: the end's notice shown, the view where it stays
    const double before = cpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    runFor(10000);
    report("window.idle_cpu_percent", 100.0 * (cpuSeconds() - before) / secondsSince(start), "%");
}

} // namespace lifeline::bench
