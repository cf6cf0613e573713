// The endpoint's control API for test suites, on the same port as SQS (docs/testing.md): the virtual clock belongs
// to the test. `GET /_lifeline/clock` reads it; `POST /_lifeline/clock/advance` with `{"by": "30s"}` moves it (every
// timer due inside fires, in order; the answer is the new clock); `POST /_lifeline/clock` with `{"speed": N}` and/or
// `{"paused": true|false}` sets how it runs; `GET /_lifeline/runs/current?format=lifeline` is the run so far as a run
// file (the window and `lifeline run --export` open it: a failed test's timeline), `format=json` its lanes as JSON.
// JSON in and out; a bad request is a 400 naming the field, an unknown path a 404, a change by anything but POST a 405,
// and none of them changes anything. This file parses and answers; the server (ui/net/endpoint_server.cpp) owns the
// clock and applies the command.
#pragma once

#include "lifeline/endpoint/http.h"
#include "lifeline/support/duration.h"

#include <optional>
#include <string_view>
#include <variant>

namespace lifeline::endpoint {

inline constexpr std::string_view kControlPrefix = "/_lifeline/";
inline constexpr TimeMs kLongestAdvanceMs = 366LL * 24 * 3600 * 1000; // a year, leap or not
inline constexpr double kFastestSpeed = 10000; // as `lifeline serve --speed`

struct ClockState {
    TimeMs nowMs = 0;
    double speed = 1;
    bool paused = false;
    bool manual = false; // --clock manual: it moves only when advanced
};

struct ControlCommand {
    enum class Kind { ReadClock, SetClock, Advance, RunFile };
    Kind kind = Kind::ReadClock;
    TimeMs by = 0; // Advance
    std::optional<double> speed; // SetClock
    std::optional<bool> paused; // SetClock
    bool json = false; // RunFile: the lanes as JSON rather than a run file
};

bool isControlPath(std::string_view path);
// The command a control request asks for, or the error answer to send (nothing is to change then).
std::variant<ControlCommand, HttpResponse> parseControlRequest(const HttpRequest& request);
// {"now_ms": ..., "speed": ..., "paused": ..., "manual": ...}
HttpResponse clockResponse(const ClockState& clock);
// {"error": {"field": ..., "message": ...}} with `status`.
HttpResponse controlError(int status, std::string_view field, std::string_view message);

} // namespace lifeline::endpoint
