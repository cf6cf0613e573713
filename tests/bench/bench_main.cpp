// lifeline-bench: prints one figure per line as `name value unit`. Run it from a release build.
#include <cstdio>

namespace lifeline::bench {
void runEngineBenchmarks();
}

int main()
{
#ifndef NDEBUG
    std::fprintf(stderr, "lifeline-bench: this is not a release build; the figures mean little.\n");
#endif
    lifeline::bench::runEngineBenchmarks();
    return 0;
}
