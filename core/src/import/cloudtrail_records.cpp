#include "lifeline/import/cloudtrail_records.h"

#include <chrono>
#include <cstdio>

namespace lifeline::import {

using nlohmann::json;

bool isCloudTrail(const json& document)
{
    return document.is_object() && document.contains("Records") && document["Records"].is_array();
}

namespace {

// "2023-11-07T23:59:11Z" (CloudTrail's eventTime) in ns since 1970.
std::optional<int64_t> eventTimeNs(const std::string& text)
{
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
    char zone = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &s, &zone) != 7 || zone != 'Z'
        || text.size() != 20)
        return std::nullopt;
    const std::chrono::year_month_day date { std::chrono::year(y), std::chrono::month(unsigned(mo)),
        std::chrono::day(unsigned(d)) };
    // Nanoseconds since 1970 in 64 bits reach 2262: a later year (or an earlier one than CloudTrail) is no trail's.
    if (!date.ok() || y < 1970 || y > 2261 || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 60)
        return std::nullopt;
    const auto seconds = std::chrono::sys_days(date).time_since_epoch() + std::chrono::hours(h)
        + std::chrono::minutes(mi) + std::chrono::seconds(s);
    return std::chrono::duration_cast<std::chrono::nanoseconds>(seconds).count();
}

std::string text(const json& object, const char* key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

Outcome<> readCloudTrail(const json& document, const std::string& fileName, std::vector<Span>& spans,
    std::map<std::string, size_t>& notDrawn)
{
    const json& records = document["Records"];
    for (size_t i = 0; i < records.size(); ++i) {
        const json& record = records[i];
        const std::string where = fileName + ": Records[" + std::to_string(i) + "]";
        if (!record.is_object())
            return Failure { where + ": a record (an object)" };
        if (text(record, "eventSource") != "sqs.amazonaws.com")
            continue;
        const std::string action = text(record, "eventName");
        const auto at = eventTimeNs(text(record, "eventTime"));
        if (!at)
            return Failure { where + ".eventTime: a time such as 2023-11-07T23:59:11Z" };
        const auto parameters = record.find("requestParameters");
        const std::string queueUrl
            = parameters != record.end() && parameters->is_object() ? text(*parameters, "queueUrl") : std::string();
        if (action != "SendMessage") {
            if (action == "ReceiveMessage" || action == "DeleteMessage" || action == "DeleteMessageBatch"
                || action == "ChangeMessageVisibility" || action == "ChangeMessageVisibilityBatch"
                || action == "SendMessageBatch")
                ++notDrawn["CloudTrail " + action + " records (they name no MessageId)"];
            continue;
        }
        if (queueUrl.empty())
            return Failure { where + ".requestParameters.queueUrl: the queue's URL" };
        Span span;
        span.traceId = "cloudtrail";
        span.spanId = text(record, "eventID").empty() ? std::to_string(i) : text(record, "eventID");
        span.name = action;
        span.kind = SpanKind::Producer;
        span.startNs = span.endNs = *at;
        span.attributes = { { "rpc.service", "SQS" }, { "rpc.method", action }, { "url.full", queueUrl } };
        const auto response = record.find("responseElements");
        if (response != record.end() && response->is_object() && !text(*response, "messageId").empty())
            span.attributes.emplace_back("messaging.message.id", text(*response, "messageId"));
        span.failed = !text(record, "errorCode").empty();
        span.statusMessage = text(record, "errorCode") + ": " + text(record, "errorMessage");
        const std::string agent = text(record, "userAgent");
        span.service = agent.substr(0, agent.find(' '));
        span.scope = "cloudtrail";
        span.origin = where;
        spans.push_back(std::move(span));
    }
    return {};
}

} // namespace lifeline::import
