// lifeline-bench: prints one figure per line as `name value unit`. Run it from a release build.
#include <cstdio>
#include <string>

namespace lifeline::bench {
void runEngineBenchmarks();
void runSimulationBenchmarks();
} // namespace lifeline::bench

int main(int argc, char** argv)
{
#ifndef NDEBUG
    std::fprintf(stderr, "lifeline-bench: this is not a release build; the figures mean little.\n");
#endif
    const bool simOnly = argc > 1 && std::string(argv[1]) == "sim";
    if (!simOnly)
        lifeline::bench::runEngineBenchmarks();
    lifeline::bench::runSimulationBenchmarks();
    return 0;
}
