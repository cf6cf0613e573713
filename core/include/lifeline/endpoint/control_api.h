// The endpoint's control API for test suites, on the same port as SQS (docs/testing.md): the virtual clock belongs
// to the test. `GET /_lifeline/clock` reads it (and the receives parked, by queue); `POST /_lifeline/clock/advance`
// with `{"by": "30s"}` moves it (every timer due inside fires, in order; the answer is the new clock), with
// `"afterWaiting": N` once N receives are parked; `POST /_lifeline/clock` with `{"speed": N}` and/or
// `{"paused": true|false}` sets how it runs; `POST /_lifeline/reset` starts the endpoint again (every queue and message
// gone, the clock at 0, a new id and handle group); `GET /_lifeline/runs/current?format=lifeline` is the run so far as
// a run file (the window and `lifeline run --export` open it: a failed test's timeline), `format=json` its lanes as
// JSON, `format=png|svg` its timeline drawn (`&size=WxH`); `&queue=NAME` keeps one queue's lanes (JSON and images).
// JSON in and out; a bad request is a 400 naming the field, an unknown path a 404, a change by anything but POST a 405,
// and none of them changes anything. This file parses and answers; the server (ui/http/endpoint_server.cpp) owns the
// clock and applies the command.
#pragma once

#include "lifeline/endpoint/http.h"
#include "lifeline/engine/engine.h"
#include "lifeline/support/duration.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace lifeline::endpoint {

inline constexpr std::string_view kControlPrefix = "/_lifeline/";
inline constexpr TimeMs kLongestAdvanceMs = 366LL * 24 * 3600 * 1000; // a year, leap or not
inline constexpr double kFastestSpeed = 10000; // as `lifeline serve --speed`
inline constexpr std::pair<int, int> kRunImageSize { 1600, 900 }; // GET /_lifeline/runs/current?format=png
inline constexpr std::pair<int, int> kSmallestRunImage { 200, 150 }; // as `lifeline run --export`
inline constexpr int kLargestRunImageSide = 4096; // drawn in the server's memory: 64 MB at most

// How many parked receives an advance may wait for ({"afterWaiting": N}), and for how long in wall time.
inline constexpr int kMostAwaitedReceives = 10000;
inline constexpr int kLongestReceiveWaitMs = 10000;

struct ClockState {
    TimeMs nowMs = 0;
    double speed = 1;
    bool paused = false;
    bool manual = false; // --clock manual: it moves only when advanced
    std::map<std::string, size_t> waiting; // queue name -> its receives parked now (long polls waiting)
};

struct ControlCommand {
    enum class Kind { ReadClock, SetClock, Advance, Reset, ReadRun };
    enum class RunFormat { Lifeline, Json, Png, Svg };
    Kind kind = Kind::ReadClock;
    TimeMs by = 0; // Advance
    // Advance: first wait (in wall time, up to kLongestReceiveWaitMs) until this many receives are parked, so a test
    // that starts a long poll on another thread moves the clock only once the poll waits. 0: at once.
    int afterWaiting = 0;
    std::optional<double> speed; // SetClock
    std::optional<bool> paused; // SetClock
    RunFormat format = RunFormat::Lifeline; // ReadRun
    std::string queue; // ReadRun: only this queue's lanes (empty: every queue)
    int width = kRunImageSize.first; // ReadRun, an image
    int height = kRunImageSize.second;
};

bool isControlPath(std::string_view path);

// Faults SQS really has, injected (docs/faults.md): GET /_lifeline/faults answers {"plan": {...} or null, "struck":
// {"duplicate": 2, ...}}; POST with a plan (fault_plan_json.h) sets it, its dice starting from its seed; DELETE
// clears it. A plan that is not one is a 400 naming the field, and changes nothing.
inline constexpr std::string_view kFaultsPath = "/_lifeline/faults";
HttpResponse faultsReply(const HttpRequest& request, Engine& engine);
// The command a control request asks for, or the error answer to send (nothing is to change then).
std::variant<ControlCommand, HttpResponse> parseControlRequest(const HttpRequest& request);
// {"now_ms": ..., "speed": ..., "paused": ..., "manual": ..., "waiting": {"queue": receives parked, ...}}
HttpResponse clockResponse(const ClockState& clock);
// {"error": {"field": ..., "message": ...}} with `status`.
HttpResponse controlError(int status, std::string_view field, std::string_view message);

} // namespace lifeline::endpoint
