// `lifeline import`: spans written by real instrumentations (and files shaped as their code writes them) become
// lanes, what SQS did between the calls inferred from the queues' settings and marked so, what cannot be tied counted,
// what contradicts the settings listed (docs/import.md).
#include "lifeline/check/template_reader.h"
#include "lifeline/import/cloudtrail_records.h"
#include "lifeline/import/import_files.h"
#include "lifeline/import/trace_import.h"
#include "lifeline/run/lane_name.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace lifeline;
using namespace lifeline::import;

namespace {

std::string fixture(const std::string& name)
{
    std::ifstream in(std::string(LIFELINE_IMPORT_DIR) + "/" + name, std::ios::binary);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<Span> spansOf(const std::string& name)
{
    std::vector<Span> spans;
    const auto read = readOtlpJson(fixture(name), name, spans);
    INFO((read ? std::string() : read.message()));
    REQUIRE(read);
    return spans;
}

QueueSettings ordersSettings(const std::string& attributesFile = "orders-attributes.json")
{
    QueueSettings settings;
    const auto added = addQueueAttributes(settings, nlohmann::json::parse(fixture(attributesFile)), "");
    REQUIRE(added);
    return settings;
}

// A lane's story: "time cause to" per event, times from the run's start.
std::string story(const RunView& run, MessageIndex lane)
{
    std::string out;
    for (size_t i = 0; i < run.log().size(); ++i) {
        const Event e = run.log()[i];
        if (e.message != lane || e.cause == Cause::PollEnded || e.cause == Cause::ProcessingStarted
            || e.cause == Cause::ProcessingFinished || e.cause == Cause::ProcessingFailed)
            continue; // the consumer's row: tested on its own
        out += std::to_string(e.time) + " " + toString(e.cause) + " " + toString(e.to)
            + (e.inferred() ? " (inferred)" : "") + "; ";
    }
    return out;
}

} // namespace

TEST_CASE("import: the JavaScript instrumentation's own spans - three orders, a crash and a poison message, as the "
          "server saw them")
{
    // Written by tests/import/otel_consumer.cjs (@opentelemetry/instrumentation-aws-sdk 0.79.0 against lifeline serve),
    // its two lines in reverse order: the import sorts by the spans' times.
    const ImportedRun imported = importSpans(spansOf("js-aws-sdk.jsonl"), ordersSettings());
    const RunView& run = imported.run();
    CHECK(imported.report.spansRead == 27);
    CHECK(imported.report.sqsCalls == 25); // the two CreateQueue calls draw nothing
    CHECK(imported.report.notJoined.empty());
    CHECK(imported.report.contradictions.empty());
    CHECK(imported.report.queuesWithDefaults == std::vector<std::string> { "orders-dlq" });
    REQUIRE(run.messageCount() == 4);
    CHECK(formatMessageId(run.messageIdParts(0)) == "9dd47e8f-3526-4846-ad86-e6d9bbb3f627");
    CHECK(story(run, 0) == "0 send visible; 176 receive in-flight; 198 delete deleted; ");
    // The crash: received, never deleted, visible again at its 2 s timeout (inferred), received again and deleted.
    CHECK(story(run, 1)
        == "56 send visible; 205 receive in-flight; 2205 visibility-timeout visible (inferred); 2205 receive "
           "in-flight; "
           "2227 delete deleted; ");
    CHECK(run.message(1).receiveCount == 2);
    // The poison order: two receives, then moved to the DLQ as a waiting long poll found it (maxReceiveCount 2).
    CHECK(story(run, 2)
        == "112 send visible; 230 receive in-flight; 2230 visibility-timeout visible (inferred); 2240 receive "
           "in-flight; "
           "4240 visibility-timeout visible (inferred); 4240 move-to-dlq dead-lettered (inferred); ");
    CHECK(run.queueInfo(run.message(3).queue).name == "orders-dlq");
    CHECK(story(run, 3)
        == "4240 arrive-from-dlq-source visible (inferred); 8295 receive in-flight; 8295 delete deleted; ");
    CHECK(imported.report.inferredEvents == 5); // the DLQ lane's arrival too
    // The consumer's process spans are its work on the consumer's row; a message worked on again after a process span
    // that ended without an error is a duplicate processing, as the simulation draws one.
    std::vector<std::string> work;
    for (size_t i = 0; i < run.log().size(); ++i)
        if (const Event e = run.log()[i]; e.cause == Cause::ProcessingStarted)
            work.push_back(std::to_string(e.time) + " #" + std::to_string(e.message) + (e.duplicate() ? " again" : ""));
    CHECK(
        work == std::vector<std::string> { "177 #0", "206 #1", "231 #2", "2205 #1 again", "2240 #2 again", "8295 #3" });
}

TEST_CASE("import: settings that contradict the trace are listed with the span they come from")
{
    // The same spans, told the queue's VisibilityTimeout is 30 s: the crashed order's second receive, 2 s after its
    // first, could not have happened.
    QueueSettings settings;
    REQUIRE(addQueueAttributes(
        settings, nlohmann::json::parse(R"({"Attributes": {"VisibilityTimeout": "30"}})"), "orders"));
    const ImportedRun imported = importSpans(spansOf("js-aws-sdk.jsonl"), settings);
    const auto& found = imported.report.contradictions;
    REQUIRE(found.size() == 2);
    CHECK(found[0].at == 2205);
    CHECK(found[0].lane == 1);
    CHECK(found[0].what
        == "received while in flight: receive #1's visibility timeout runs to 30.205s (a shorter VisibilityTimeout "
           "than the queue's, or a ChangeMessageVisibility the trace does not show)");
    CHECK(found[0].origin.starts_with("js-aws-sdk.jsonl:"));
    CHECK(found[0].origin.ends_with("(orders receive)"));
    CHECK(found[1].at == 2240);
    CHECK(found[1].lane == 2);
    // No redrive policy given: the poison order is never moved.
    CHECK(imported.report.inferredEvents == 0);
}

TEST_CASE("import: the Python boto3sqs instrumentation's shape - a process span is the receive, its end the delete")
{
    // tests/data/import/boto3sqs.json follows opentelemetry-python-contrib's boto3sqs instrumentation: no MessageId on
    // the receive span, a process span per message opened at the receive and ended by its DeleteMessage; a consumer
    // that crashed never ends its process span, so that receive is never exported.
    const ImportedRun imported = importSpans(spansOf("boto3sqs.json"), {});
    const RunView& run = imported.run();
    REQUIRE(run.messageCount() == 2);
    CHECK(story(run, 0) == "0 send visible; 1050 receive in-flight; 1500 delete deleted; ");
    CHECK(story(run, 1) == "100 send visible; 32000 receive in-flight; 32400 delete deleted; ");
    CHECK(run.actorName(run.log()[0].actor) == "billing");
    CHECK(imported.report.queuesWithDefaults == std::vector<std::string> { "orders" });
}

TEST_CASE("import: work going on at once in one service goes on rows of its own, freed when it ends")
{
    // Three messages of the boto3sqs shape, their process spans (receive to delete) overlapping as a consumer with two
    // workers runs them: A 1.0-3.0 s, B 1.5-2.5 s, C 3.5-4.0 s.
    std::vector<Span> spans;
    const auto span = [&](const std::string& id, const std::string& op, int64_t fromMs, int64_t toMs) {
        Span s;
        s.traceId = "0af7651916cd43dd8448eb211c80319c";
        s.spanId = op + id;
        s.name = "orders " + op;
        s.startNs = (1765100000000 + fromMs) * 1000000;
        s.endNs = (1765100000000 + toMs) * 1000000;
        s.attributes = { { "messaging.system", "aws.sqs" }, { "messaging.destination", "orders" },
            { "messaging.operation", op }, { "messaging.message_id", id } };
        s.scope = "opentelemetry.instrumentation.boto3sqs";
        s.service = "billing";
        spans.push_back(s);
    };
    for (const char* id : { "A", "B", "C" })
        span(id, "send", 0, 5);
    span("A", "process", 1000, 3000);
    span("B", "process", 1500, 2500);
    span("C", "process", 3500, 4000);
    const ImportedRun imported = importSpans(spans, {});
    const RunView& run = imported.run();
    std::vector<std::string> work;
    for (size_t i = 0; i < run.log().size(); ++i)
        if (const Event e = run.log()[i]; e.cause == Cause::ProcessingStarted || e.cause == Cause::ProcessingFinished)
            work.push_back(std::to_string(e.time) + " " + toString(e.cause) + " " + run.actorName(e.actor));
    CHECK(work
        == std::vector<std::string> { "1000 processing-started billing", "1500 processing-started billing 2",
            "2500 processing-finished billing 2", "3000 processing-finished billing", "3500 processing-started billing",
            "4000 processing-finished billing" });
    CHECK(run.actorCount() == kFirstActor + 2); // SQS, the operator, and the service's two rows
    CHECK(run.actorGroup(kFirstActor + 1) == "billing");
    CHECK(story(run, 1) == "0 send visible; 1500 receive in-flight; 2500 delete deleted; ");
}

TEST_CASE("import: what no span ties to a message is counted by kind, never drawn")
{
    const auto attribute = [](const char* key, const char* value) {
        return nlohmann::json { { "key", key }, { "value", { { "stringValue", value } } } };
    };
    const auto sqsSpan = [&](const char* id, const char* method, int kind, int64_t at, nlohmann::json extra) {
        nlohmann::json attributes = nlohmann::json::array({ attribute("messaging.system", "aws_sqs"),
            attribute("rpc.method", method), attribute("messaging.destination.name", "orders") });
        for (auto& a : extra)
            attributes.push_back(a);
        return nlohmann::json { { "traceId", "5b8efff798038103d269b633813fc60c" }, { "spanId", id },
            { "name", std::string("orders ") + method }, { "kind", kind }, { "startTimeUnixNano", std::to_string(at) },
            { "endTimeUnixNano", std::to_string(at + 5000000) }, { "attributes", attributes } };
    };
    const int64_t t0 = 1765100000000000000;
    nlohmann::json link = { { "traceId", "1" }, { "spanId", "2" },
        { "attributes", nlohmann::json::array({ attribute("messaging.message.id", "m-1") }) } };
    nlohmann::json receive = sqsSpan("c3", "ReceiveMessage", 5, t0 + 1000000000,
        nlohmann::json::array(
            { { { "key", "messaging.batch.message_count" }, { "value", { { "intValue", "3" } } } } }));
    receive["links"] = nlohmann::json::array({ link });
    const nlohmann::json request = { { "resourceSpans",
        nlohmann::json::array({ { { "scopeSpans",
            nlohmann::json::array({ { { "spans",
                nlohmann::json::array({ sqsSpan("a1", "SendMessage", 4, t0,
                                            nlohmann::json::array({ attribute("messaging.message.id", "m-1") })),
                    sqsSpan("b2", "SendMessageBatch", 4, t0 + 100000000, nlohmann::json::array()), receive,
                    sqsSpan("d4", "DeleteMessage", 3, t0 + 2000000000, nlohmann::json::array()),
                    sqsSpan("e5", "ChangeMessageVisibility", 3, t0 + 2000000000,
                        nlohmann::json::array()) }) } } }) } } }) } };
    std::vector<Span> spans;
    REQUIRE(readOtlpJson(request.dump(), "made.json", spans));
    const ImportedRun imported = importSpans(spans, {});
    CHECK(imported.report.notJoined
        == std::map<std::string, size_t> { { "batch sends with no MessageIds in their spans", 1 },
            { "deletes with no message named above them (no process span of one message is their parent)", 1 },
            { "received messages with no MessageId (no link to their send, no process span)", 2 },
            { "visibility changes (their new timeout is not in the trace)", 1 } });
    REQUIRE(imported.run().messageCount() == 1);
    CHECK(story(imported.run(), 0) == "0 send visible; 1005 receive in-flight; ");
}

TEST_CASE("import: a malformed file is refused with its line and the field, a good one in either vocabulary is read")
{
    std::vector<Span> spans;
    auto read = readOtlpJson("{\"resourceSpans\": []}\n{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": "
                             "[{\"traceId\": \"ab\", \"spanId\": \"cd\"}]}]}]}\n",
        "spans.jsonl", spans);
    REQUIRE(!read);
    CHECK(read.message()
        == "spans.jsonl:2: resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano: a time in nanoseconds since "
           "1970");
    read = readOtlpJson("{\"resourceSpans\": []}\n{\"resourceSpans\": [\n", "spans.jsonl", spans);
    REQUIRE(!read);
    CHECK(read.message()
        == "spans.jsonl:2: not JSON (an OTLP JSON request, one a line, as the Collector's file exporter writes; "
           "protobuf "
           "files are not read)");
    read = readOtlpJson("   \n", "empty.json", spans);
    REQUIRE(!read);
    CHECK(read.message() == "empty.json: empty (no spans)");
    read = readOtlpJson(std::string(100, '[') + std::string(100, ']'), "deep.json", spans);
    REQUIRE(!read);
    CHECK(read.message() == "deep.json: nested deeper than an OTLP request can be");
    CHECK(spans.empty());
    QueueSettings settings;
    const auto bad
        = addQueueAttributes(settings, nlohmann::json::parse(R"({"Attributes": {"VisibilityTimeout": "50000"}})"), "");
    REQUIRE(!bad);
    CHECK(bad.message() == "InvalidAttributeValue: Invalid value for the parameter VisibilityTimeout.");
}

TEST_CASE("import: a CloudTrail log file - its sends drawn at whole seconds, its receives and deletes counted")
{
    // Records shaped as AWS's SendMessage example (SQS Developer Guide, "Logging Amazon SQS API calls using AWS
    // CloudTrail"), out of order as CloudTrail delivers them, with an S3 record among them.
    const auto document = nlohmann::json::parse(fixture("cloudtrail.json"));
    REQUIRE(isCloudTrail(document));
    std::vector<Span> spans;
    std::map<std::string, size_t> notDrawn;
    REQUIRE(readCloudTrail(document, "cloudtrail.json", spans, notDrawn));
    CHECK(notDrawn
        == std::map<std::string, size_t> { { "CloudTrail DeleteMessage records (they name no MessageId)", 1 },
            { "CloudTrail ReceiveMessage records (they name no MessageId)", 1 } });
    const ImportedRun imported = importSpans(spans, {});
    const RunView& run = imported.run();
    REQUIRE(run.messageCount() == 2);
    CHECK(formatMessageId(run.messageIdParts(0)) == "93bb6e2d-1090-416c-81b0-31eb1faa8cd8");
    CHECK(story(run, 0) == "0 send visible; ");
    CHECK(story(run, 1) == "1000 send visible; ");
    CHECK(run.queueInfo(0).name == "MyQueue");
    CHECK(run.actorName(run.log()[1].actor) == "aws-cli/1.29.16");
    // A time that is not one, or one past what nanoseconds since 1970 hold in 64 bits (the fuzzer's 6946).
    for (const char* time : { "yesterday", "6946-11-07T23:59:11Z", "2023-11-07T-1:59:11Z" }) {
        nlohmann::json broken = document;
        broken["Records"][1]["eventTime"] = time;
        const auto read = readCloudTrail(broken, "cloudtrail.json", spans, notDrawn);
        REQUIRE(!read);
        CHECK(read.message() == "cloudtrail.json: Records[1].eventTime: a time such as 2023-11-07T23:59:11Z");
    }
}

TEST_CASE("import: the queues' settings from a template, by name - and by logical id in a name CloudFormation made")
{
    const auto queues = check::readTemplate(fixture("orders-template.yaml"), "orders-template.yaml");
    REQUIRE(queues);
    QueueSettings settings;
    REQUIRE(addTemplateQueues(settings, queues.value(), true));
    const ImportedRun imported = importSpans(spansOf("js-aws-sdk.jsonl"), settings);
    CHECK(imported.report.queuesWithDefaults.empty());
    CHECK(imported.report.inferredEvents == 5); // as with the attributes: the 2 s timeout, the DLQ after 2 receives
    CHECK(imported.report.contradictions.empty());
    CHECK(story(imported.run(), 2).ends_with("4240 move-to-dlq dead-lettered (inferred); "));

    // A queue the template names by no QueueName: CloudFormation calls it "{stack}-{LogicalId}-{suffix}".
    std::vector<Span> spans = spansOf("boto3sqs.json");
    for (Span& span : spans)
        for (auto& [key, value] : span.attributes)
            if (key == "messaging.destination")
                value = "shop-Orders-1AB2C3D4E5F6";
    QueueSettings byId;
    byId.byLogicalId["Orders"] = AttributeMap { { "VisibilityTimeout", "5" } };
    const ImportedRun generated = importSpans(spans, byId);
    CHECK(generated.report.queuesWithDefaults.empty());
    CHECK(generated.run().queueAttributes(0)->visibilityTimeout == 5);
    byId.byLogicalId = { { "Order", AttributeMap { { "VisibilityTimeout", "5" } } } }; // a part of the id: no
    CHECK(
        importSpans(spans, byId).report.queuesWithDefaults == std::vector<std::string> { "shop-Orders-1AB2C3D4E5F6" });
}

TEST_CASE("import: files as the command line and the window name them - each kind of settings file told apart, a "
          "missing file named")
{
    const std::string dir = LIFELINE_IMPORT_DIR;
    import::ImportFiles files;
    files.spans = { dir + "/js-aws-sdk.jsonl", dir + "/cloudtrail.json" };
    REQUIRE(addSettingsFile(files, dir + "/orders-template.yaml"));
    CHECK(files.templates == std::vector<std::string> { dir + "/orders-template.yaml" });
    REQUIRE(addSettingsFile(files, dir + "/orders-attributes.json"));
    CHECK(files.attributes.size() == 1);
    auto imported = importFiles(files);
    REQUIRE(imported);
    CHECK(imported.value().run().messageCount() == 6); // the instrumentation's four lanes and the trail's two sends
    CHECK(imported.value().report.notJoined.at("CloudTrail ReceiveMessage records (they name no MessageId)") == 1);
    // The instrumentation's five, and the trail's two sends expiring (retention, 4 days by default) long before the
    // instrumentation's spans, two years later.
    CHECK(imported.value().report.inferredEvents == 7);
    files.spans.push_back(dir + "/no-such-file.json");
    const auto missing = importFiles(files);
    REQUIRE(!missing);
    CHECK(missing.message() == "cannot read '" + dir + "/no-such-file.json': No such file or directory");
}

TEST_CASE("import: the Java agent's aws-sdk-2.2 shape - process spans while the consumer iterates, a DeleteMessage "
          "inside one")
{
    // tests/data/import/java-aws-sdk-2.2.json follows opentelemetry-java-instrumentation's aws-sdk-2.2 library
    // (SqsProcessRequestAttributesGetter, TracingIterator): no ids on the receive, a process span per message that is
    // current while the consumer handles it, the SDK's DeleteMessage inside it naming no queue.
    const ImportedRun imported = importSpans(spansOf("java-aws-sdk-2.2.json"), {});
    const RunView& run = imported.run();
    REQUIRE(run.messageCount() == 2);
    CHECK(story(run, 0) == "0 send visible; 1031 receive in-flight; 1380 delete deleted; ");
    // The receive's own answer came at 1.030 s, its messages' ids with the process spans after it.
    CHECK(story(run, 1)
        == "500 send visible; 1401 receive in-flight; 31401 visibility-timeout visible (inferred); 31441 receive "
           "in-flight; 31650 delete deleted; ");
    CHECK(imported.report.notJoined.empty());
    CHECK(run.queueInfo(0).name == "payments");
    // B's first processing failed (its span's status ERROR): the second is no duplicate.
    std::string work;
    for (size_t i = 0; i < run.log().size(); ++i)
        if (const Event e = run.log()[i]; e.message == 1 && e.actor != kSqsActor && e.cause != Cause::Receive
            && e.cause != Cause::Delete && e.cause != Cause::Send)
            work += std::string(toString(e.cause))
                + (e.cause == Cause::ProcessingStarted && e.duplicate() ? " again" : "") + "; ";
    CHECK(work == "processing-started; processing-failed; processing-started; processing-finished; ");
}
