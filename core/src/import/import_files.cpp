#include "lifeline/import/import_files.h"

#include "lifeline/check/terraform_reader.h"
#include "lifeline/import/cloudtrail_records.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace lifeline::import {

namespace {

Outcome<std::string> readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Failure { "cannot read '" + path + "': " + std::strerror(errno) };
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

Outcome<QueueSettings> queueSettingsOf(const ImportFiles& files)
{
    QueueSettings settings;
    for (const auto& [queue, file] : files.attributes) {
        auto text = readText(file);
        if (!text)
            return Failure { text.message() };
        const auto document = nlohmann::json::parse(text.value(), nullptr, false);
        if (document.is_discarded())
            return Failure { file + ": not JSON" };
        if (auto added = addQueueAttributes(settings, document, queue); !added)
            return Failure { file + ": " + added.message() };
    }
    for (const check::TemplateQueue& queue : files.live) {
        if (auto added = addTemplateQueues(settings, { queue }, false); !added)
            return Failure { added.message() };
        if (queue.deadLetterAttributes.is_object() && queue.deadLetterAttributes.contains("QueueArn"))
            if (auto added = addQueueAttributes(settings, { { "Attributes", queue.deadLetterAttributes } }, ""); !added)
                return Failure { queue.logicalId + "'s dead-letter queue: " + added.message() };
    }
    for (const bool terraform : { false, true })
        for (const std::string& file : terraform ? files.plans : files.templates) {
            auto text = readText(file);
            if (!text)
                return Failure { text.message() };
            const auto queues
                = terraform ? check::readTerraformPlan(text.value(), file) : check::readTemplate(text.value(), file);
            if (!queues)
                return Failure { queues.message() };
            if (auto added = addTemplateQueues(settings, queues.value(), !terraform); !added)
                return Failure { file + ": " + added.message() };
        }
    return settings;
}

Outcome<ImportedRun> importFiles(const ImportFiles& files)
{
    auto read = queueSettingsOf(files);
    if (!read)
        return Failure { read.message() };
    const QueueSettings& settings = read.value();
    std::vector<Span> spans;
    std::map<std::string, size_t> notDrawn; // CloudTrail's records that name no message
    for (const std::string& file : files.spans) {
        auto text = readText(file);
        if (!text)
            return Failure { text.message() };
        // A trail's log file says so at its start ({"Records": [...]}); anything else is OTLP JSON.
        if (text.value().substr(0, 64).find("\"Records\"") != std::string::npos) {
            const auto document = nlohmann::json::parse(text.value(), nullptr, false);
            if (!isCloudTrail(document))
                return Failure { file + ": not a CloudTrail log file ({\"Records\": [...]}, unzipped)" };
            if (auto read = readCloudTrail(document, file, spans, notDrawn); !read)
                return Failure { read.message() };
        } else if (auto read = readOtlpJson(text.value(), file, spans); !read) {
            return Failure { read.message() };
        }
    }
    ImportedRun imported = importSpans(std::move(spans), settings);
    for (const auto& [what, count] : notDrawn)
        imported.report.notJoined[what] += count;
    return imported;
}

Outcome<> addSettingsFile(ImportFiles& files, const std::string& path)
{
    auto text = readText(path);
    if (!text)
        return Failure { text.message() };
    const auto document = nlohmann::json::parse(text.value(), nullptr, false);
    if (!document.is_discarded() && document.is_object()
        && (document.contains("planned_values") || document.contains("resource_changes")))
        files.plans.push_back(path);
    else if (!document.is_discarded() && document.is_object() && !document.contains("Resources"))
        files.attributes.emplace_back(std::string(), path);
    else
        files.templates.push_back(path);
    return {};
}

} // namespace lifeline::import
