// libFuzzer: scenario files. Any text must load or give a ScenarioError: no crash, no hang, no undefined behaviour
// (durations of 1e300, deep nesting, odd keys). A scenario that loads is also run briefly: what loads must run; and
// its run becomes the data a web page, the window and the API's JSON are drawn from (the picture, the events), and
// that data is written out as a page writes it.
#include "lifeline/picture/picture_json.h"
#include "lifeline/picture/run_picture.h"
#include "lifeline/scenario/scenario.h"
#include "lifeline/sim/simulation.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto parsed = lifeline::scenario::parseScenario(text);
    auto* scenario = std::get_if<lifeline::scenario::Scenario>(&parsed);
    if (!scenario)
        return 0;
    (void)lifeline::scenario::applyFix(*scenario); // a broken patch is an error, not a crash
    // Huge bursts and crowds are valid but slow under ASan: the fuzzer runs the small ones.
    for (const auto& producer : scenario->producers)
        for (const auto& burst : producer.bursts)
            if (burst.second > 1000)
                return 0;
    for (const auto& consumer : scenario->consumers)
        if (consumer.count > 100)
            return 0;
    for (const auto& lambda : scenario->lambdas)
        if (lambda.pollers > 100)
            return 0;
    // A short stretch of the run: enough to start every actor, bounded so a heavy scenario cannot time out.
    lifeline::sim::Simulation simulation(*scenario);
    for (int step = 0; step < 2000 && simulation.engine().log().size() < 20000; ++step) {
        const lifeline::TimeMs next = simulation.nextEventTime();
        if (next > 60000 || next == INT64_MAX)
            break;
        simulation.advanceTo(next);
    }
    // A run that made a crowd of events inside one step (a Lambda at VisibilityTimeout 0 gives a batch up and takes
    // it again at the same instant) is drawn elsewhere; here it would only cost the fuzzer its time limit.
    if (simulation.engine().log().size() > 20000)
        return 0;
    lifeline::picture::RunPicture picture;
    picture.setRun(&simulation.engine().run(), {});
    (void)picture.sync();
    const auto replace = nlohmann::json::error_handler_t::replace;
    (void)lifeline::picture::pictureJson(picture, "fuzz").dump(-1, ' ', false, replace);
    (void)lifeline::picture::lanesJson(picture).dump(-1, ' ', false, replace);
    (void)lifeline::picture::eventsJson(simulation.engine().run()).dump(-1, ' ', false, replace);
    return 0;
}
