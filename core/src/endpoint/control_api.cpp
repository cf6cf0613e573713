#include "lifeline/endpoint/control_api.h"

#include "lifeline/endpoint/fault_plan_json.h"
#include "lifeline/endpoint/protocol.h"
#include "lifeline/support/json_depth.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <nlohmann/json.hpp>
#include <tuple>

namespace lifeline::endpoint {

namespace {
HttpResponse jsonResponse(int status, const nlohmann::json& body)
{
    HttpResponse response;
    response.status = status;
    response.headers.emplace_back("Content-Type", "application/json");
    // An error may echo what the client sent (a query key, a queue's name): bytes that are not UTF-8 are replaced,
    // never thrown (a GET of /_lifeline/runs/current?%FF=1 ended serve).
    response.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return response;
}

// The body as a JSON object (an empty body is an empty object), or the 400 that says why not.
std::variant<nlohmann::json, HttpResponse> bodyObject(const HttpRequest& request)
{
    if (request.body.empty())
        return nlohmann::json::object();
    // A control body is one flat object: deeper text is refused before it is parsed (json_depth.h says why).
    if (jsonNestsDeeperThan(request.body, kMaxJsonNesting))
        return controlError(400, "body",
            "the body nests deeper than " + std::to_string(kMaxJsonNesting)
                + " levels; it must be one JSON object, "
                  "such as {\"by\": \"30s\"}");
    auto parsed = nlohmann::json::parse(request.body, nullptr, false, true);
    if (parsed.is_discarded() || !parsed.is_object())
        return controlError(400, "body", "the body must be a JSON object, such as {\"by\": \"30s\"}");
    return parsed;
}

// Digits (and a point) then a unit parseDuration knows: a duration, if one too long for it.
bool shapedLikeDuration(std::string_view text)
{
    const size_t digits = text.find_first_not_of("0123456789.");
    const std::string_view unit = digits == std::string_view::npos ? std::string_view() : text.substr(digits);
    return digits != 0 && (unit.empty() || unit == "ms" || unit == "s" || unit == "m" || unit == "h" || unit == "d");
}

std::variant<ControlCommand, HttpResponse> parseAdvance(const nlohmann::json& body)
{
    ControlCommand command;
    command.kind = ControlCommand::Kind::Advance;
    for (const auto& [key, value] : body.items()) {
        if (key == "afterWaiting") {
            if (!value.is_number_integer() || value.get<int64_t>() < 1 || value.get<int64_t>() > kMostAwaitedReceives)
                return controlError(400, key,
                    "how many receives to wait for before advancing: a whole number from 1 to 10000, got "
                        + value.dump());
            command.afterWaiting = int(value.get<int64_t>());
        } else if (key != "by") {
            return controlError(
                400, key, "unknown field '" + key + "'; an advance takes \"by\" and, to wait first, \"afterWaiting\"");
        }
    }
    if (!body.contains("by"))
        return controlError(400, "by", "missing: how far to move the clock, such as {\"by\": \"30s\"}");
    const auto& by = body["by"];
    const bool backwards = (by.is_string() && by.get<std::string>().starts_with('-'))
        || (by.is_number_integer() && by.get<int64_t>() < 0);
    if (backwards)
        return controlError(400, "by", "the clock only moves forward, got " + by.dump());
    // A number in quotes is ambiguous here, where a JSON number is milliseconds and a bare number elsewhere seconds.
    if (by.is_string() && !by.get<std::string>().empty()
        && by.get<std::string>().find_first_not_of("0123456789.") == std::string::npos)
        return controlError(400, "by",
            "a number in quotes has no unit: write \"" + by.get<std::string>() + "ms\" or \"" + by.get<std::string>()
                + "s\", or a number of milliseconds without quotes, got " + by.dump());
    std::optional<TimeMs> ms;
    if (by.is_string())
        ms = lifeline::parseDuration(by.get<std::string>());
    else if (by.is_number_integer())
        ms = by.get<int64_t>();
    if (!ms && by.is_string() && shapedLikeDuration(by.get<std::string>()))
        return controlError(400, "by", "at most a year (366 days) at a time, got " + by.dump());
    if (!ms)
        return controlError(400, "by",
            "must be a duration such as \"500ms\", \"30s\", \"1m30s\" or \"4d\", or a number of milliseconds, got "
                + by.dump());
    if (*ms > kLongestAdvanceMs)
        return controlError(400, "by", "at most a year (366 days) at a time, got " + by.dump());
    command.by = *ms;
    return command;
}

std::variant<ControlCommand, HttpResponse> parseSetClock(const nlohmann::json& body)
{
    ControlCommand command;
    command.kind = ControlCommand::Kind::SetClock;
    for (const auto& [key, value] : body.items()) {
        if (key == "speed") {
            if (!value.is_number() || value.get<double>() <= 0 || value.get<double>() > kFastestSpeed)
                return controlError(400, "speed", "must be a number above 0 and at most 10000, got " + value.dump());
            command.speed = value.get<double>();
        } else if (key == "paused") {
            if (!value.is_boolean())
                return controlError(400, "paused", "must be true or false, got " + value.dump());
            command.paused = value.get<bool>();
        } else {
            return controlError(400, key, "unknown field '" + key + "'; the clock takes \"speed\" and \"paused\"");
        }
    }
    if (!command.speed && !command.paused)
        return controlError(400, "body", "nothing to set: give \"speed\", \"paused\" or both");
    return command;
}

// "1600x900": each side within the server's limits (an image is drawn in memory).
std::optional<std::pair<int, int>> parseImageSize(std::string_view text)
{
    const size_t x = text.find('x');
    if (x == std::string_view::npos)
        return std::nullopt;
    const auto side = [](std::string_view digits) -> std::optional<int> {
        int value = 0;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        if (error != std::errc() || end != digits.data() + digits.size())
            return std::nullopt;
        return value;
    };
    const auto width = side(text.substr(0, x)), height = side(text.substr(x + 1));
    if (!width || !height || *width < kSmallestRunImage.first || *width > kLargestRunImageSide
        || *height < kSmallestRunImage.second || *height > kLargestRunImageSide)
        return std::nullopt;
    return std::pair { *width, *height };
}

std::variant<ControlCommand, HttpResponse> parseReadRun(const HttpRequest& request)
{
    const auto pairs = splitForm(request.query());
    if (!pairs)
        return controlError(400, "query", "a malformed %-escape in the query string");
    ControlCommand command;
    command.kind = ControlCommand::Kind::ReadRun;
    bool sized = false;
    for (const auto& [key, value] : *pairs) {
        if (key == "format") {
            static const std::pair<std::string_view, ControlCommand::RunFormat> kFormats[]
                = { { "lifeline", ControlCommand::RunFormat::Lifeline }, { "json", ControlCommand::RunFormat::Json },
                      { "png", ControlCommand::RunFormat::Png }, { "svg", ControlCommand::RunFormat::Svg } };
            const std::string_view asked = value;
            const auto* found = std::find_if(std::begin(kFormats), std::end(kFormats),
                [asked](const auto& format) { return format.first == asked; });
            if (found == std::end(kFormats))
                return controlError(400, "format",
                    "format=lifeline (a run file), json (the lanes), png or svg (the timeline) is served, got '" + value
                        + "'");
            command.format = found->second;
        } else if (key == "queue") {
            if (value.empty())
                return controlError(400, "queue", "names the queue whose lanes to read, got nothing");
            command.queue = value;
        } else if (key == "size") {
            const auto size = parseImageSize(value);
            if (!size)
                return controlError(400, "size",
                    "must be WIDTHxHEIGHT from 200x150 to 4096x4096, such as 1600x900, got '" + value + "'");
            std::tie(command.width, command.height) = *size;
            sized = true;
        } else {
            return controlError(400, key, "unknown parameter '" + key + "'; the run takes format, queue and size");
        }
    }
    const bool image
        = command.format == ControlCommand::RunFormat::Png || command.format == ControlCommand::RunFormat::Svg;
    if (sized && !image)
        return controlError(400, "size", "sizes an image: add format=png or format=svg");
    if (!command.queue.empty() && command.format == ControlCommand::RunFormat::Lifeline)
        return controlError(400, "queue",
            "a run file holds every queue; leave out queue, or read one queue's lanes with format=json, png or svg");
    return command;
}
} // namespace

bool isControlPath(std::string_view path)
{
    return path.starts_with(kControlPrefix);
}

std::variant<ControlCommand, HttpResponse> parseControlRequest(const HttpRequest& request)
{
    const std::string_view path = request.path();
    const bool post = request.method == "POST";
    if (path == "/_lifeline/clock") {
        if (request.method == "GET")
            return ControlCommand {};
        if (!post)
            return controlError(405, "method", "GET reads the clock, POST sets it; got " + request.method);
        auto body = bodyObject(request);
        if (auto* error = std::get_if<HttpResponse>(&body))
            return std::move(*error);
        return parseSetClock(std::get<nlohmann::json>(body));
    }
    if (path == "/_lifeline/clock/advance") {
        if (!post)
            return controlError(405, "method", "the clock is advanced by POST; got " + request.method);
        auto body = bodyObject(request);
        if (auto* error = std::get_if<HttpResponse>(&body))
            return std::move(*error);
        return parseAdvance(std::get<nlohmann::json>(body));
    }
    if (path == "/_lifeline/reset") {
        if (!post)
            return controlError(405, "method", "the endpoint is reset by POST; got " + request.method);
        auto body = bodyObject(request);
        if (auto* error = std::get_if<HttpResponse>(&body))
            return std::move(*error);
        if (const auto& fields = std::get<nlohmann::json>(body); !fields.empty())
            return controlError(
                400, fields.begin().key(), "unknown field '" + fields.begin().key() + "'; a reset takes no fields");
        ControlCommand command;
        command.kind = ControlCommand::Kind::Reset;
        return command;
    }
    if (path == "/_lifeline/runs/current") {
        if (request.method != "GET")
            return controlError(405, "method", "the run is read by GET; got " + request.method);
        return parseReadRun(request);
    }
    return controlError(404, "path",
        "no control endpoint " + std::string(path)
            + "; there are GET and POST /_lifeline/clock, POST /_lifeline/clock/advance, POST /_lifeline/reset, "
              "GET /_lifeline/runs/current and GET, POST and DELETE /_lifeline/faults");
}

HttpResponse faultsReply(const HttpRequest& request, Engine& engine)
{
    const auto answer = [&engine] {
        nlohmann::json body { { "plan", nullptr }, { "struck", nlohmann::json::object() } };
        if (const FaultDice* dice = engine.faults())
            body = { { "plan", faultPlanJson(dice->plan()) }, { "struck", faultCountsJson(*dice) } };
        return jsonResponse(200, body);
    };
    if (request.method == "GET")
        return answer();
    if (request.method == "DELETE") {
        engine.setFaults(std::nullopt);
        return answer();
    }
    if (request.method != "POST")
        return controlError(
            405, "method", "GET reads the faults, POST sets them, DELETE clears them; got " + request.method);
    if (jsonNestsDeeperThan(request.body, 8))
        return controlError(400, "body", "the body nests deeper than 8 levels; it must be a fault plan");
    const auto parsed = nlohmann::json::parse(request.body, nullptr, false, true);
    if (parsed.is_discarded())
        return controlError(400, "body",
            "the body must be a fault plan, such as {\"seed\": 7, \"faults\": [{\"kind\": \"duplicate\", \"rate\": "
            "0.2}]}");
    auto plan = parseFaultPlan(parsed);
    if (!plan) {
        const std::string& message = plan.error().message;
        const size_t colon = message.find(": ");
        return controlError(400, colon == std::string::npos ? "body" : message.substr(0, colon),
            colon == std::string::npos ? message : message.substr(colon + 2));
    }
    engine.setFaults(std::move(plan).value());
    return answer();
}

HttpResponse clockResponse(const ClockState& clock)
{
    nlohmann::json waiting = nlohmann::json::object();
    for (const auto& [queue, receives] : clock.waiting)
        waiting[queue] = receives;
    return jsonResponse(200,
        { { "now_ms", clock.nowMs }, { "speed", clock.speed }, { "paused", clock.paused }, { "manual", clock.manual },
            { "waiting", waiting } });
}

HttpResponse controlError(int status, std::string_view field, std::string_view message)
{
    return jsonResponse(status, { { "error", { { "field", field }, { "message", message } } } });
}

} // namespace lifeline::endpoint
