#include "lifeline/import/trace_import.h"

#include <algorithm>

namespace lifeline::import {

Outcome<> addQueueAttributes(QueueSettings& settings, const nlohmann::json& document, const std::string& queue)
{
    if (!document.is_object())
        return Failure { "must be a JSON object: {\"Attributes\": {...}} as `aws sqs get-queue-attributes` prints it, "
                         "or the map itself" };
    const auto wrapped = document.find("Attributes");
    const nlohmann::json& map = wrapped != document.end() && wrapped->is_object() ? *wrapped : document;
    AttributeMap given;
    std::string named = queue;
    for (const auto& [key, value] : map.items()) {
        if (!value.is_string() && !value.is_number() && !value.is_boolean())
            return Failure { key + ": a string or a number, got " + value.dump() };
        const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
        if (key == "QueueArn" && named.empty())
            named = text.substr(text.rfind(':') + 1);
        if (!isKnownAttributeName(key))
            return Failure { key + ": not an SQS queue attribute" };
        const auto& settable = settableAttributeNames();
        if (std::ranges::find(settable, key) != settable.end())
            given[key] = text;
    }
    AttributeChangeContext context;
    context.creating = true;
    context.fifoQueue = given.count("FifoQueue") && given["FifoQueue"] == "true";
    if (auto applied = applyAttributes(QueueAttributes {}, given, context); !applied)
        return Failure { applied.error().code + ": " + applied.error().message };
    if (named.empty())
        settings.everyQueue = std::move(given);
    else
        settings.byQueue[named] = std::move(given);
    return {};
}

Outcome<> addTemplateQueues(QueueSettings& settings, const std::vector<check::TemplateQueue>& queues, bool byLogicalId)
{
    for (const check::TemplateQueue& queue : queues) {
        // The name the template gives it (its QueueArn's last part; the logical id when it gives none).
        const auto arn = queue.attributes.find("QueueArn");
        const std::string name = arn != queue.attributes.end() && arn->is_string()
            ? arn->get<std::string>().substr(arn->get<std::string>().rfind(':') + 1)
            : queue.logicalId;
        if (auto added = addQueueAttributes(settings, { { "Attributes", queue.attributes } }, name); !added)
            return Failure { queue.logicalId + ": " + added.message() };
        if (byLogicalId)
            settings.byLogicalId[queue.logicalId] = settings.byQueue[name];
    }
    return {};
}

} // namespace lifeline::import
