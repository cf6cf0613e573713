// libFuzzer: what `lifeline import` reads: the input as OTLP JSON spans (a request a line, or one body) or a CloudTrail
// log file, imported with a queue whose settings make every inference run (a short timeout, a delay, a dead-letter
// queue after two receives).
#include "lifeline/import/cloudtrail_records.h"
#include "lifeline/import/live_import.h"
#include "lifeline/import/trace_import.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace lifeline::import;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    static const QueueSettings settings = [] {
        QueueSettings s;
        s.everyQueue = lifeline::AttributeMap { { "VisibilityTimeout", "2" }, { "DelaySeconds", "1" },
            { "MessageRetentionPeriod", "60" },
            { "RedrivePolicy", R"({"deadLetterTargetArn":"arn:aws:sqs:us-east-1:1:dlq","maxReceiveCount":2})" } };
        return s;
    }();
    std::vector<Span> spans;
    std::map<std::string, size_t> notDrawn;
    const auto document = nlohmann::json::parse(text, nullptr, false);
    if (isCloudTrail(document)) {
        if (!readCloudTrail(document, "fuzz.json", spans, notDrawn))
            return 0;
    } else if (!readOtlpJson(text, "fuzz.jsonl", spans)) {
        return 0;
    }
    const ImportedRun imported = importSpans(spans, settings);
    (void)imported.report.toJson(imported.run());
    (void)imported.report.text(imported.run());
    // The same spans received live, as a request, played a lag behind with a short history (live_import.h).
    LiveImport live(settings, LiveImportOptions { .lagMs = 1000, .historyMs = 5000 });
    if (live.addRequest(text, 1765100000000))
        live.advance(1765100000000 + 60000);
    live.finish();
    (void)live.report().toJson(live.run());
    return 0;
}
