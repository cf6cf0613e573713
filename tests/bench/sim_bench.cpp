// sim.virtual_speedup: virtual seconds simulated per wall second for 100 consumers, a 1,000 messages/s producer,
// 20 s long polls and one hour of virtual time.
#include "bench_util.h"
#include "lifeline/sim/simulation.h"

namespace lifeline::bench {

void runSimulationBenchmarks()
{
    const char* scenario = R"({"duration": "1h", "seed": 1,
        "queues": [{"name": "work", "attributes": {"VisibilityTimeout": 30}}],
        "producers": [{"queue": "work", "rate": 1000}],
        "consumers": [{"name": "w", "queue": "work", "count": 100, "waitTimeSeconds": 20, "maxMessages": 10,
                       "processing": {"uniform": ["5ms", "15ms"]}}]})";
    auto parsed = sim::parseScenario(std::string(scenario));
    sim::Simulation simulation(std::get<sim::Scenario>(std::move(parsed)));
    const auto start = std::chrono::steady_clock::now();
    simulation.runToEnd();
    const double seconds = secondsSince(start);
    report("sim.virtual_speedup", double(simulation.duration()) / 1000.0 / seconds, "x");
    report("sim.messages", double(simulation.summary().sent), "messages");
}

} // namespace lifeline::bench
