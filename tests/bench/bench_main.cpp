// lifeline-bench: prints one figure per line as `name value unit`. Run it from a release build.
#include <QApplication>
#include <cstdio>
#include <string>

namespace lifeline::bench {
void runEngineBenchmarks();
void runSimulationBenchmarks();
void runUiBenchmarks();
void runExportBenchmark();
void runWindowBenchmark();
void runWindowMemoryBenchmark();
void runIdleBenchmark();
void runPaceBenchmark();
void runEndpointBenchmark();
void runProxyBenchmark();
void runCheckBenchmark();
void runImportBenchmark();
} // namespace lifeline::bench

int main(int argc, char** argv)
{
#ifndef NDEBUG
    std::fprintf(stderr, "lifeline-bench: this is not a release build; the figures mean little.\n");
#endif
    // `lifeline-bench [engine|sim|ui|export|window|idle|memory|pace|endpoint|proxy|check|import]`: one group of
    // figures; none: all of them.
    const std::string only = argc > 1 ? argv[1] : "";
    if (only.empty() || only == "engine")
        lifeline::bench::runEngineBenchmarks();
    if (only.empty() || only == "sim")
        lifeline::bench::runSimulationBenchmarks();
    if (only.empty() || only == "ui") {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        QGuiApplication application(argc, argv);
        lifeline::bench::runUiBenchmarks();
    }
    if (only.empty() || only == "export") {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        int one = 1;
        QGuiApplication application(one, argv);
        lifeline::bench::runExportBenchmark();
    }
    if (only.empty() || only == "window") {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        int one = 1;
        QApplication application(one, argv); // widgets: the whole main window
        lifeline::bench::runWindowBenchmark();
        lifeline::bench::runIdleBenchmark();
    }
    if (only == "idle") { // also in "window"
        qputenv("QT_QPA_PLATFORM", "offscreen");
        int one = 1;
        QApplication application(one, argv);
        lifeline::bench::runIdleBenchmark();
    }
    if (only.empty() || only == "memory") { // the window for 30 virtual minutes at scale: minutes of wall time
        qputenv("QT_QPA_PLATFORM", "offscreen");
        int one = 1;
        QApplication application(one, argv);
        lifeline::bench::runWindowMemoryBenchmark();
    }
    if (only.empty() || only == "pace") {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        int one = 1;
        QApplication application(one, argv);
        lifeline::bench::runPaceBenchmark();
    }
    if (only.empty() || only == "endpoint")
        lifeline::bench::runEndpointBenchmark();
    if (only.empty() || only == "proxy")
        lifeline::bench::runProxyBenchmark();
    if (only.empty() || only == "check")
        lifeline::bench::runCheckBenchmark();
    if (only.empty() || only == "import")
        lifeline::bench::runImportBenchmark();
    return 0;
}
