// sim.virtual_speedup: virtual seconds simulated per wall second for 100 consumers, a 1,000 messages/s producer,
// 20 s long polls and one hour of virtual time. Also what bounds it from below on this machine: the run keeps every
// event and every message lane, and merely writing that much fresh memory takes sim.memory_floor_s.
#include "bench_util.h"
#include "lifeline/export/run_export.h"
#include "lifeline/io/run_file.h"
#include "lifeline/sim/simulation.h"

#include <algorithm>
#include <cstring>
#include <malloc.h>
#include <ostream>
#include <streambuf>
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
// An output that keeps nothing and, every megabyte written, notes the heap in use: the peak of what a writer holds
// besides its output.
class HeapWatchingSink : public std::streambuf {
public:
    HeapWatchingSink()
        : m_baseline(heapInUse())
        , m_peak(m_baseline)
    {
    }
    double peakExtraMegabytes() const { return double(m_peak - m_baseline) / (1024.0 * 1024.0); }
    size_t written() const { return m_written; }

protected:
    int overflow(int c) override
    {
        count(1);
        return c == EOF ? 0 : c;
    }
    std::streamsize xsputn(const char*, std::streamsize n) override
    {
        count(size_t(n));
        return n;
    }

private:
    static size_t heapInUse()
    {
        const struct mallinfo2 info = mallinfo2();
        return info.uordblks + info.hblkhd;
    }
    void count(size_t n)
    {
        m_written += n;
        if (m_written - m_lastSample >= (size_t(1) << 20)) {
            m_lastSample = m_written;
            m_peak = std::max(m_peak, heapInUse());
        }
    }
    size_t m_baseline;
    size_t m_peak;
    size_t m_written = 0;
    size_t m_lastSample = 0;
};
} // namespace

void runSimulationBenchmarks()
{
    const char* scenario = R"({"duration": "1h", "seed": 1,
        "queues": [{"name": "work", "attributes": {"VisibilityTimeout": 30}}],
        "producers": [{"queue": "work", "rate": 1000}],
        "consumers": [{"name": "w", "queue": "work", "count": 100, "waitTimeSeconds": 20, "maxMessages": 10,
                       "processing": {"uniform": ["5ms", "15ms"]}}]})";
    auto parsed = scenario::parseScenario(std::string(scenario));
    size_t kept = 0;
    double messages = 0;
    {
        sim::Simulation simulation(std::get<scenario::Scenario>(std::move(parsed)));
        const auto start = std::chrono::steady_clock::now();
        simulation.runToEnd();
        const double seconds = secondsSince(start);
        report("sim.virtual_speedup", double(simulation.duration()) / 1000.0 / seconds, "x");
        messages = double(simulation.summary().sent);
        report("sim.messages", messages, "messages");
        const Engine& engine = simulation.engine();
        report("sim.events_per_message", double(engine.log().size()) / messages, "events");
        kept = engine.log().eventBytes() + engine.messageCount() * sizeof(MessageRecord);
        // The hour's Chrome trace, written to nowhere: the extra memory the writer holds at its peak.
        HeapWatchingSink sink;
        std::ostream out(&sink);
        const auto traceStart = std::chrono::steady_clock::now();
        writeChromeTrace(engine.run(), out);
        report("export.trace_s_hour", secondsSince(traceStart), "s");
        report("export.trace_peak_mb_hour", sink.peakExtraMegabytes(), "MB");
        report("export.trace_mb_hour", double(sink.written()) / (1024.0 * 1024.0), "MB");
        // The hour's run file, the same way.
        HeapWatchingSink runSink;
        std::ostream runOut(&runSink);
        const auto runStart = std::chrono::steady_clock::now();
        writeRun(engine.run(), "hour", runOut);
        report("export.run_file_s_hour", secondsSince(runStart), "s");
        report("export.run_file_peak_mb_hour", runSink.peakExtraMegabytes(), "MB");
        report("export.run_file_bytes_per_message", double(runSink.written()) / messages, "bytes");
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
