// How a Lambda trigger scales (docs/sqs-semantics.md, 1.11): standard mode, already scaled up or from idle, and
// provisioned mode with its event pollers (ProvisionedPollerConfig).
#include "scenario_reading.h"

namespace lifeline::scenario {

namespace {
constexpr int64_t kStandardStart = 5; // "five batches at a time with five concurrent invocations"
constexpr TimeMs kStandardEvery = 200; // "up to 300 more concurrent invokes per minute"
constexpr TimeMs kProvisionedEvery = 60; // "up to 1,000 concurrent invokes per minute"
constexpr int64_t kInvokesPerPoller = 10; // "each event poller can handle ... up to 10 concurrent invokes"
constexpr int64_t kMostPollers = 100; // Lifeline's: 1,000 concurrent batches, as `pollers`
} // namespace

int64_t LambdaSpec::startingPollers() const
{
    if (provisioned)
        return std::min(pollers, provisioned->minimumPollers * kInvokesPerPoller);
    return scaleFromIdle ? std::min(pollers, kStandardStart) : pollers;
}

TimeMs LambdaSpec::scaleUpEvery() const
{
    return provisioned ? kProvisionedEvery : kStandardEvery;
}

namespace reading {

void readMappingScaling(const nlohmann::json& v, const std::string& path, LambdaSpec& spec)
{
    if (v.contains("scaleFromIdle")) {
        if (!v["scaleFromIdle"].is_boolean())
            report(join(path, "scaleFromIdle"), "must be true or false");
        else
            spec.scaleFromIdle = v["scaleFromIdle"].get<bool>();
    }
    if (!v.contains("provisionedPollerConfig"))
        return;
    const std::string p = join(path, "provisionedPollerConfig");
    const nlohmann::json& config = v["provisionedPollerConfig"];
    if (!config.is_object()) {
        report(p, "must be an object with minimumPollers and maximumPollers");
        return;
    }
    checkKeys(config, p, { "minimumPollers", "maximumPollers" });
    LambdaSpec::ProvisionedPollers provisioned;
    provisioned.minimumPollers = integer(config, p, "minimumPollers", 2, 200).value_or(2);
    provisioned.maximumPollers = integer(config, p, "maximumPollers", 2, 10000).value_or(200);
    if (provisioned.maximumPollers > kMostPollers)
        report(join(p, "maximumPollers"),
            "Lifeline runs at most 100 event pollers (1,000 concurrent batches); AWS accepts up to 10,000 and its "
            "default is 200, got "
                + std::to_string(provisioned.maximumPollers));
    if (provisioned.minimumPollers > provisioned.maximumPollers)
        report(join(p, "minimumPollers"),
            "must be at most maximumPollers (" + std::to_string(provisioned.maximumPollers) + "), got "
                + std::to_string(provisioned.minimumPollers));
    if (v.contains("pollers"))
        report(join(path, "pollers"), "is set by provisionedPollerConfig: maximumPollers x 10 concurrent batches");
    if (spec.maximumConcurrency)
        report(join(path, "maximumConcurrency"),
            "cannot be used with provisionedPollerConfig: AWS makes them mutually exclusive (maximumPollers bounds "
            "a provisioned mapping)");
    if (spec.scaleFromIdle)
        report(join(path, "scaleFromIdle"), "is standard mode's: a provisioned mapping starts at its minimumPollers");
    spec.pollers = std::min(provisioned.maximumPollers, kMostPollers) * kInvokesPerPoller;
    spec.provisioned = provisioned;
}

} // namespace reading

} // namespace lifeline::scenario
