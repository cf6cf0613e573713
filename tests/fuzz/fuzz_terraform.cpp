// libFuzzer: `terraform show -json` output through `lifeline check --terraform`'s reader and its rules. Any text must
// read as queues or fail with a message naming the file, never crash (a null, a number where an object was, an
// address with unbalanced keys). No processing times are given, so no rule starts a simulation.
#include "lifeline/check/check_report.h"
#include "lifeline/check/terraform_reader.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const auto queues
        = lifeline::check::readTerraformPlan(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json");
    if (!queues) {
        if (!queues.message().starts_with("fuzz.json: "))
            __builtin_trap();
        return 0;
    }
    lifeline::check::CheckRun run;
    run.source = "fuzz.json";
    run.kind = lifeline::check::CheckRun::Source::Terraform;
    run.format = lifeline::check::ReportFormat::Json;
    std::ostringstream out;
    (void)lifeline::check::checkQueues(queues.value(), run, out);
    return 0;
}
