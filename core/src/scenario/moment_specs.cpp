// Reading a lesson's "moments" list: each entry names its pattern ("when"), its caption and optional filters. A
// problem names its path and what is allowed, like every other field of a scenario.
#include "lifeline/analysis/moments.h"
#include "lifeline/support/duration.h"
#include "scenario_reading.h"

#include <algorithm>
#include <array>
#include <set>

namespace lifeline::scenario {

namespace {

using nlohmann::json;

constexpr std::array<std::pair<const char*, FailureKind>, 5> kFailureNames {
    std::pair { "threw", FailureKind::Threw },
    std::pair { "poison", FailureKind::Poison },
    std::pair { "timed-out", FailureKind::TimedOut },
    std::pair { "throttled", FailureKind::Throttled },
    std::pair { "in-progress", FailureKind::InProgressElsewhere },
};

const std::set<std::string>& knownKeys()
{
    static const std::set<std::string> keys { "when", "caption", "queue", "receive", "failure", "body", "to", "minAge",
        "maxAge", "deadLetterQueue", "limit" };
    return keys;
}

std::optional<TimeMs> age(const json& v, const char* key, const std::string& path)
{
    const auto value = v.find(key);
    if (value == v.end())
        return std::nullopt;
    const auto parsed = value->is_string() ? parseDuration(value->get<std::string>()) : std::nullopt;
    if (!parsed || *parsed < 0)
        reading::report(path + "." + key, "must be a duration such as \"15s\" or \"2m\", got " + value->dump());
    return parsed;
}

// The caption's placeholders must be ones the finder fills in (MomentSpec::caption lists them): a typo would show
// as "{consumr}" to the learner. {dlq}, {reason}, {tenant} and {alarm} are filled in only by the event that has them.
bool captionReads(const std::string& caption, analysis::MomentKind kind, const std::string& path)
{
    static const std::vector<std::string> kKnown { "{consumer}", "{queue}", "{receive}", "{ordinal}", "{age}",
        "{sinceReceive}", "{sentAt}", "{time}", "{body}", "{dlq}", "{reason}", "{tenant}", "{alarm}",
        "{maxReceiveCount}", "{retention}", "{fault}" };
    for (size_t open = caption.find('{'); open != std::string::npos; open = caption.find('{', open + 1)) {
        const size_t close = caption.find('}', open);
        const std::string name
            = caption.substr(open, close == std::string::npos ? std::string::npos : close - open + 1);
        if (std::find(kKnown.begin(), kKnown.end(), name) == kKnown.end()) {
            std::string known;
            for (const auto& k : kKnown)
                known += (known.empty() ? "" : ", ") + k;
            reading::report(path, "unknown placeholder " + name + "; known are " + known);
            return false;
        }
        const analysis::MomentKind fills = name == "{dlq}" ? analysis::MomentKind::DeadLettered
            : name == "{reason}"                           ? analysis::MomentKind::Refused
            : name == "{tenant}"                           ? analysis::MomentKind::TenantNoisy
            : name == "{alarm}"                            ? analysis::MomentKind::AlarmFired
                                                           : kind;
        if (fills != kind) {
            reading::report(path, name + " is filled in only by \"when\": \"" + toString(fills) + "\"");
            return false;
        }
    }
    return true;
}

// "to": the state the event leaves the message in.
std::optional<MessageState> leavesIn(const nlohmann::json& v, const std::string& path)
{
    const auto to = v.find("to");
    if (to == v.end())
        return std::nullopt;
    for (const auto state : { MessageState::Delayed, MessageState::Visible, MessageState::InFlight,
             MessageState::Deleted, MessageState::DeadLettered, MessageState::Expired, MessageState::Purged })
        if (to->is_string() && to->get<std::string>() == toString(state))
            return state;
    reading::report(
        path + ".to", "must be one of delayed, visible, in-flight, deleted, dead-lettered, expired, purged");
    return std::nullopt;
}

// "deadLetterQueue": the premise a caption's words make (true: the queue has a dead-letter queue; false: it has none).
std::optional<bool> deadLetterPremise(const nlohmann::json& v, const std::string& path)
{
    const auto dlq = v.find("deadLetterQueue");
    if (dlq == v.end())
        return std::nullopt;
    if (dlq->is_boolean())
        return dlq->get<bool>();
    reading::report(path + ".deadLetterQueue",
        "must be true (only while the queue has a dead-letter queue) or false (only while it has none), got "
            + dlq->dump());
    return std::nullopt;
}

std::optional<analysis::MomentSpec> readOne(const json& v, const std::string& path)
{
    if (!v.is_object()) {
        reading::report(path, "must be an object with \"when\" and \"caption\"");
        return std::nullopt;
    }
    const size_t before = reading::problemCount();
    for (const auto& item : v.items())
        if (!knownKeys().count(item.key()))
            reading::report(path + "." + item.key(),
                "unknown key; known keys are when caption queue receive failure body to minAge maxAge deadLetterQueue "
                "limit");
    analysis::MomentSpec spec;
    const auto when = v.find("when");
    const auto kind
        = when != v.end() && when->is_string() ? analysis::momentKindNamed(when->get<std::string>()) : std::nullopt;
    if (!kind) {
        std::string known;
        for (const auto& name : analysis::momentKindNames())
            known += " " + name;
        const std::string guess = when != v.end() && when->is_string()
            ? reading::nearest(when->get<std::string>(), analysis::momentKindNames())
            : std::string();
        reading::report(path + ".when",
            guess.empty() ? "must be one of" + known : "unknown pattern; did you mean \"" + guess + "\"?");
    } else {
        spec.kind = *kind;
    }
    const auto caption = v.find("caption");
    if (caption == v.end() || !caption->is_string() || caption->get<std::string>().empty())
        reading::report(path + ".caption", "must be a text that says what the moment shows");
    else if (captionReads(caption->get<std::string>(), spec.kind, path + ".caption"))
        spec.caption = caption->get<std::string>();
    if (const auto queue = v.find("queue"); queue != v.end()) {
        if (queue->is_string() && !queue->get<std::string>().empty())
            spec.queue = queue->get<std::string>();
        else
            reading::report(path + ".queue", "must be the name of one of the scenario's queues");
    }
    if (const auto receive = v.find("receive"); receive != v.end()) {
        if (receive->is_number_integer() && receive->get<int64_t>() >= 1 && receive->get<int64_t>() <= 1000)
            spec.receive = uint32_t(receive->get<int64_t>());
        else
            reading::report(path + ".receive", "must be a receive number from 1 to 1000, got " + receive->dump());
        if (spec.kind != analysis::MomentKind::Receive && kind)
            reading::report(path + ".receive", "applies to \"when\": \"receive\" only");
    }
    if (const auto failure = v.find("failure"); failure != v.end()) {
        for (const auto& [name, k] : kFailureNames)
            if (failure->is_string() && failure->get<std::string>() == name)
                spec.failure = k;
        if (!spec.failure)
            reading::report(path + ".failure", "must be one of threw, poison, timed-out, throttled, in-progress");
        if (spec.kind != analysis::MomentKind::Failed && kind)
            reading::report(path + ".failure", "applies to \"when\": \"failed\" only");
    }
    if (const auto body = v.find("body"); body != v.end()) {
        if (body->is_string() && !body->get<std::string>().empty())
            spec.body = body->get<std::string>();
        else
            reading::report(path + ".body", "must be a text the message's body contains");
    }
    spec.to = leavesIn(v, path);
    spec.minAge = age(v, "minAge", path);
    spec.maxAge = age(v, "maxAge", path);
    spec.deadLetterQueue = deadLetterPremise(v, path);
    if (const auto limit = v.find("limit"); limit != v.end()) {
        if (limit->is_number_integer() && limit->get<int64_t>() >= 1 && limit->get<int64_t>() <= 20)
            spec.limit = limit->get<int64_t>();
        else
            reading::report(path + ".limit", "must be a whole number from 1 to 20, got " + limit->dump());
    }
    if (reading::problemCount() != before)
        return std::nullopt;
    return spec;
}

} // namespace

std::vector<analysis::MomentSpec> reading::readMomentSpecs(const json& list, const std::string& path)
{
    std::vector<analysis::MomentSpec> specs;
    if (!list.is_array()) {
        reading::report(path, "must be a list of moments");
        return specs;
    }
    for (size_t i = 0; i < list.size(); ++i)
        if (auto spec = readOne(list[i], reading::at(path, i)))
            specs.push_back(std::move(*spec));
    return specs;
}

} // namespace lifeline::scenario
