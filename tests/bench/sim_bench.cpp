// sim.virtual_speedup: virtual seconds simulated per wall second for 100 consumers, a 1,000 messages/s producer,
// 20 s long polls and one hour of virtual time. Also what bounds it from below on this machine: the run keeps every
// event and every message lane, and merely writing that much fresh memory takes sim.memory_floor_s.
#include "bench_util.h"
#include "lifeline/sim/simulation.h"

#include <algorithm>
#include <cstring>
#include <sys/mman.h>
#include <vector>

namespace lifeline::bench {

namespace {
// Seconds to write `bytes` of fresh memory (mapped from the system, as the event log's chunks are), 32 bytes at a
// time in 2 MiB blocks: how the log grows. mmap, not malloc: freed heap memory would already be paged in.
double freshMemoryWriteSeconds(size_t bytes)
{
    constexpr size_t kBlock = size_t(2) << 20;
    std::vector<char*> blocks;
    const auto start = std::chrono::steady_clock::now();
    for (size_t done = 0; done < bytes; done += kBlock) {
        void* mapped = mmap(nullptr, kBlock, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapped == MAP_FAILED)
            break;
        char* block = static_cast<char*>(mapped);
        for (size_t i = 0; i < kBlock; i += 32)
            std::memset(block + i, int(i >> 5), 32);
        blocks.push_back(block);
    }
    const double seconds = secondsSince(start);
    for (char* block : blocks)
        munmap(block, kBlock);
    return seconds;
}
} // namespace

void runSimulationBenchmarks()
{
    const char* scenario = R"({"duration": "1h", "seed": 1,
        "queues": [{"name": "work", "attributes": {"VisibilityTimeout": 30}}],
        "producers": [{"queue": "work", "rate": 1000}],
        "consumers": [{"name": "w", "queue": "work", "count": 100, "waitTimeSeconds": 20, "maxMessages": 10,
                       "processing": {"uniform": ["5ms", "15ms"]}}]})";
    auto parsed = sim::parseScenario(std::string(scenario));
    size_t kept = 0;
    double messages = 0;
    {
        sim::Simulation simulation(std::get<sim::Scenario>(std::move(parsed)));
        const auto start = std::chrono::steady_clock::now();
        simulation.runToEnd();
        const double seconds = secondsSince(start);
        report("sim.virtual_speedup", double(simulation.duration()) / 1000.0 / seconds, "x");
        messages = double(simulation.summary().sent);
        report("sim.messages", messages, "messages");
        const Engine& engine = simulation.engine();
        report("sim.events_per_message", double(engine.log().size()) / messages, "events");
        kept = engine.log().size() * sizeof(Event) + engine.messageCount() * sizeof(MessageRecord);
    }
    report("sim.kept_bytes_per_message", double(kept) / messages, "bytes");
    // Time writing as much fresh memory: the part of the hour no change to the simulation's code removes while it
    // keeps every event. A floor, so the best of three (the first write after the run's memory was given back is
    // several times slower while the system takes that memory back).
    double floor = freshMemoryWriteSeconds(kept);
    for (int i = 0; i < 2; ++i)
        floor = std::min(floor, freshMemoryWriteSeconds(kept));
    report("sim.memory_floor_s", floor, "s");
}

} // namespace lifeline::bench
