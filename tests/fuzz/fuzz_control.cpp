// libFuzzer: the control API's requests (docs/testing.md): the first byte picks the path and method, the rest is the
// body (or, for the run, the query string). Every input is a command or an error naming its field, never a crash:
// a body nested 80,000 levels deep once killed `serve`.
#include "lifeline/endpoint/control_api.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0)
        return 0;
    static const char* const kTargets[][2] = { { "POST", "/_lifeline/clock/advance" }, { "POST", "/_lifeline/clock" },
        { "GET", "/_lifeline/runs/current" }, { "POST", "/_lifeline/reset" }, { "GET", "/_lifeline/clock" },
        { "PUT", "/_lifeline/elsewhere" } };
    const auto& [method, path] = kTargets[data[0] % (sizeof kTargets / sizeof *kTargets)];
    const std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    lifeline::endpoint::HttpRequest request;
    request.method = method;
    const bool query = std::string(path) == "/_lifeline/runs/current";
    request.target = std::string(path) + (query ? "?" + rest : "");
    if (!query)
        request.body = rest;
    const auto reply = lifeline::endpoint::parseControlRequest(request);
    if (const auto* command = std::get_if<lifeline::endpoint::ControlCommand>(&reply)) {
        lifeline::endpoint::ClockState clock;
        clock.nowMs = command->by;
        clock.waiting[command->queue] = size_t(command->afterWaiting);
        (void)lifeline::endpoint::clockResponse(clock);
    }
    return 0;
}
