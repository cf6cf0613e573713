// libFuzzer: CloudFormation, SAM and CDK templates through `lifeline check --template`'s reader and its rules. Any
// text must read as queues or fail with a message naming the file, never crash, recurse without bound or grow
// without bound (aliases, self-reference, nesting). The queues' processing times are dropped before the rules run:
// what is fuzzed is the reading, not the simulation a processing time starts.
#include "lifeline/check/check_report.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto queues = lifeline::check::readTemplate(std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
    if (!queues) {
        if (!queues.message().starts_with("fuzz.yaml: "))
            __builtin_trap();
        return 0;
    }
    for (auto& q : queues.value())
        q.consumer.erase("processing");
    lifeline::check::CheckRun run;
    run.source = "fuzz.yaml";
    run.format = lifeline::check::ReportFormat::Sarif;
    std::ostringstream out;
    (void)lifeline::check::checkQueues(queues.value(), run, out);
    return 0;
}
