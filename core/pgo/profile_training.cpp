// The run that trains lifeline_core's profile-guided build (core/pgo/profile_guided.cmake): every built-in lesson to
// its end with its three exports, the scale example given on the command line, and an SDK client's session with the
// local endpoint (send, receive ten, delete by receipt handle). It is the work the app, `lifeline run` and `lifeline
// serve` do most. What the profile never sees is optimised as without one; what it sees rarely is taken for cold,
// so each of those uses is here. The benchmark's own scenarios are left out: it measures what the profile learned
// from other runs.
#include "lifeline/endpoint/sqs_service.h"
#include "lifeline/export/run_export.h"
#include "lifeline/io/run_file.h"
#include "lifeline/scenario/scenario.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/lessons.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <streambuf>
#include <variant>

namespace {

// Takes every byte and keeps none: the writers format everything, and nothing reaches the disk.
class DiscardBuffer : public std::streambuf {
protected:
    int overflow(int c) override { return c == traits_type::eof() ? 0 : c; }
    std::streamsize xsputn(const char*, std::streamsize count) override { return count; }
};

// A client of `lifeline serve` through the service its requests reach: the JSON protocol's shapes, message ids,
// MD5 digests and receipt handles as strings, every receive answered with its attributes. It sends `backlog`
// messages, then receives ten at a time and deletes each until they are gone, `rounds` times: a backlog of ten is a
// consumer keeping up, a large one a consumer catching up after an outage.
size_t clientSession(int rounds, int backlog)
{
    using lifeline::endpoint::CallContext;
    using nlohmann::json;
    lifeline::Engine engine;
    lifeline::endpoint::SqsService service(engine);
    const CallContext context;
    const std::string url = service.call("CreateQueue", { { "QueueName", "orders" } }, context).output["QueueUrl"];
    const json attributes = { { "kind", { { "DataType", "String" }, { "StringValue", "new" } } } };
    size_t received = 0;
    for (int round = 0; round < rounds; ++round) {
        for (int i = 0; i < backlog; ++i)
            (void)service.call("SendMessage",
                { { "QueueUrl", url }, { "MessageBody", "order " + std::to_string(i) },
                    { "MessageAttributes", attributes } },
                context);
        for (;;) {
            const auto answer = service.call("ReceiveMessage",
                { { "QueueUrl", url }, { "MaxNumberOfMessages", 10 }, { "WaitTimeSeconds", 0 },
                    { "MessageSystemAttributeNames", { "All" } }, { "MessageAttributeNames", { "All" } } },
                context);
            const json messages = answer.output.value("Messages", json::array());
            if (messages.empty())
                break;
            for (const auto& m : messages) {
                (void)service.call(
                    "DeleteMessage", { { "QueueUrl", url }, { "ReceiptHandle", m["ReceiptHandle"] } }, context);
                ++received;
            }
        }
    }
    return received;
}

} // namespace

int main(int argc, char** argv)
{
    using namespace lifeline;
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s SCENARIO.json\n", argv[0]);
        return 2;
    }
    DiscardBuffer discard;
    std::ostream nowhere(&discard);
    for (const sim::LessonEntry& lesson : sim::builtinLessons()) {
        sim::Simulation simulation(lesson.scenario);
        simulation.runToEnd();
        const auto names = simulation.actorNames();
        writeEventsCsv(simulation.engine(), names, nowhere);
        writeChromeTrace(simulation.engine(), names, nowhere);
        writeRun(simulation.engine(), names, lesson.file, nowhere);
    }
    std::ifstream file(argv[1]);
    std::stringstream text;
    text << file.rdbuf();
    auto parsed = sim::parseScenario(text.str());
    if (!file || !std::holds_alternative<sim::Scenario>(parsed)) {
        std::fprintf(stderr, "%s: cannot read the scenario %s\n", argv[0], argv[1]);
        return 1;
    }
    sim::Simulation simulation(std::get<sim::Scenario>(std::move(parsed)));
    simulation.runToEnd();
    const size_t received = clientSession(5000, 10) + clientSession(1, 100000);
    std::printf("trained on %zu lessons, %s (%zu messages) and a client's %zu messages\n", sim::builtinLessons().size(),
        argv[1], simulation.engine().messageCount(), received);
    return 0;
}
