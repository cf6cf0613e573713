// lifeline-bench: prints one figure per line as `name value unit`. Run it from a release build.
#include <QGuiApplication>
#include <cstdio>
#include <string>

namespace lifeline::bench {
void runEngineBenchmarks();
void runSimulationBenchmarks();
void runUiBenchmarks();
} // namespace lifeline::bench

int main(int argc, char** argv)
{
#ifndef NDEBUG
    std::fprintf(stderr, "lifeline-bench: this is not a release build; the figures mean little.\n");
#endif
    // `lifeline-bench [engine|sim|ui]`: one group of figures; none: all of them.
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
    return 0;
}
