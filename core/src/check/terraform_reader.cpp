// A Terraform plan or state (`terraform show -json`) read into the queues `lifeline check` reviews. Known values come
// from planned_values (a plan) or values (a state); what is known only after apply is named from resource_changes'
// after_unknown, and the configuration's references say which resource it would come from.
#include "lifeline/check/terraform_reader.h"

#include <algorithm>
#include <functional>
#include <map>

namespace lifeline::check {

namespace {

using json = nlohmann::json;

struct Bad {
    std::string message;
};

// The aws_sqs_queue arguments that are queue attributes, and their names in SQS.
constexpr std::pair<const char*, const char*> kQueueArguments[] = {
    { "visibility_timeout_seconds", "VisibilityTimeout" },
    { "message_retention_seconds", "MessageRetentionPeriod" },
    { "max_message_size", "MaximumMessageSize" },
    { "delay_seconds", "DelaySeconds" },
    { "receive_wait_time_seconds", "ReceiveMessageWaitTimeSeconds" },
    { "fifo_queue", "FifoQueue" },
    { "content_based_deduplication", "ContentBasedDeduplication" },
    { "deduplication_scope", "DeduplicationScope" },
    { "fifo_throughput_limit", "FifoThroughputLimit" },
    { "kms_master_key_id", "KmsMasterKeyId" },
    { "kms_data_key_reuse_period_seconds", "KmsDataKeyReusePeriodSeconds" },
    { "sqs_managed_sse_enabled", "SqsManagedSseEnabled" },
    { "redrive_policy", "RedrivePolicy" },
    { "policy", "Policy" },
};

struct Resource {
    std::string address;
    std::string type;
    json values;
    json unknown = json::object(); // after_unknown: argument -> true
    json expressions = json::object(); // the configuration's, with references made absolute
};

// A value as get-queue-attributes prints it; nothing for what Terraform leaves empty or false-by-default.
std::optional<std::string> attributeText(const json& v)
{
    if (v.is_string() && !v.get<std::string>().empty())
        return v.get<std::string>();
    if (v.is_boolean() && v.get<bool>())
        return std::string("true");
    if (v.is_number_integer())
        return v.dump();
    return std::nullopt;
}

class Plan {
public:
    explicit Plan(const json& doc)
    {
        const json* root = nullptr;
        if (doc.contains("planned_values") && doc["planned_values"].contains("root_module"))
            root = &doc["planned_values"]["root_module"];
        else if (doc.contains("values") && doc["values"].contains("root_module"))
            root = &doc["values"]["root_module"];
        if (!root)
            throw Bad { "has no planned_values or values (not what `terraform show -json` prints)" };
        collect(*root);
        if (doc.contains("resource_changes") && doc["resource_changes"].is_array())
            for (const json& change : doc["resource_changes"])
                if (auto* r = find(change.value("address", "")); r && change.contains("change")
                    && change["change"].contains("after_unknown") && change["change"]["after_unknown"].is_object())
                    r->unknown = change["change"]["after_unknown"];
        if (doc.contains("configuration") && doc["configuration"].contains("root_module"))
            collectExpressions(doc["configuration"]["root_module"], "");
    }

    std::vector<TemplateQueue> queues() const
    {
        std::vector<TemplateQueue> out;
        for (const Resource& r : m_resources)
            if (r.type == "aws_sqs_queue")
                out.push_back(queue(r));
        markDeadLetterQueues(out);
        return out;
    }

private:
    void collect(const json& module)
    {
        if (module.contains("resources") && module["resources"].is_array())
            for (const json& r : module["resources"])
                if (r.is_object() && r.value("mode", "") == "managed" && r.contains("values"))
                    m_resources.push_back({ r.value("address", ""), r.value("type", ""), r["values"] });
        if (module.contains("child_modules") && module["child_modules"].is_array())
            for (const json& child : module["child_modules"])
                collect(child);
    }
    // A module's configuration names resources relative to it: prefixed here with the module's address.
    void collectExpressions(const json& module, const std::string& prefix)
    {
        if (module.contains("resources") && module["resources"].is_array())
            for (const json& r : module["resources"]) {
                Resource* resource = find(prefix + r.value("address", ""));
                if (!resource || !r.contains("expressions") || !r["expressions"].is_object())
                    continue;
                resource->expressions = r["expressions"];
                for (auto& [name, expression] : resource->expressions.items())
                    if (expression.is_object() && expression.contains("references"))
                        for (auto& reference : expression["references"])
                            reference = prefix + reference.get<std::string>();
            }
        if (module.contains("module_calls") && module["module_calls"].is_object())
            for (const auto& [name, call] : module["module_calls"].items())
                if (call.contains("module"))
                    collectExpressions(call["module"], prefix + "module." + name + ".");
    }
    Resource* find(const std::string& address)
    {
        for (Resource& r : m_resources)
            if (r.address == address)
                return &r;
        return nullptr;
    }
    const Resource* find(const std::string& address) const
    {
        for (const Resource& r : m_resources)
            if (r.address == address)
                return &r;
        return nullptr;
    }
    // The resource of `type` an argument's expression refers to ("aws_sqs_queue.dlq.arn" -> aws_sqs_queue.dlq).
    const Resource* referred(const Resource& from, const std::string& argument, const std::string& type) const
    {
        if (!from.expressions.contains(argument) || !from.expressions[argument].is_object()
            || !from.expressions[argument].contains("references"))
            return nullptr;
        for (const json& reference : from.expressions[argument]["references"]) {
            const std::string text = reference;
            const auto at = text.find(type + ".");
            if (at == std::string::npos || (at > 0 && text[at - 1] != '.'))
                continue;
            const auto end = text.find('.', at + type.size() + 1);
            if (const Resource* r = find(text.substr(0, end)))
                return r;
        }
        return nullptr;
    }

    static std::string queueName(const Resource& r) { return r.values.value("name", r.address); }
    static std::string arnOf(const Resource& r)
    {
        if (const auto arn = attributeText(r.values.value("arn", json())))
            return *arn;
        return "arn:aws:sqs:us-east-1:123456789012:" + queueName(r); // not yet created: its name says which it is
    }

    json attributesOf(const Resource& r, std::vector<std::string>& unknown) const
    {
        json out = json::object();
        for (const auto& [argument, attribute] : kQueueArguments) {
            if (r.unknown.value(argument, false) == true) {
                unknown.push_back(std::string(attribute) + ": known only after apply" + afterApplyNote(r, argument));
                continue;
            }
            if (const auto value = attributeText(r.values.value(argument, json())))
                out[attribute] = *value;
        }
        out["QueueArn"] = arnOf(r);
        return out;
    }
    std::string afterApplyNote(const Resource& r, const std::string& argument) const
    {
        if (argument != "redrive_policy")
            return {};
        const Resource* dlq = referred(r, argument, "aws_sqs_queue");
        return " (it names " + (dlq ? dlq->address : std::string("another queue"))
            + "): findings about a dead-letter queue assume none; check the state after apply "
              "(`terraform show -json`) for them";
    }

    TemplateQueue queue(const Resource& r) const
    {
        TemplateQueue q;
        q.logicalId = r.address;
        q.attributes = attributesOf(r, q.unknown);
        // A redrive policy or a queue policy may be its own resource, naming the queue by its URL (or, before apply,
        // by reference).
        if (const auto text = attached(r, "aws_sqs_queue_redrive_policy", "redrive_policy"))
            q.attributes["RedrivePolicy"] = *text;
        if (const auto text = attached(r, "aws_sqs_queue_policy", "policy"))
            q.attributes["Policy"] = *text;
        if (q.attributes.contains("RedrivePolicy")) {
            const json policy = json::parse(q.attributes["RedrivePolicy"].get<std::string>(), nullptr, false);
            if (policy.is_object() && policy.contains("deadLetterTargetArn"))
                for (const Resource& dlq : m_resources)
                    if (dlq.type == "aws_sqs_queue" && arnOf(dlq) == policy["deadLetterTargetArn"]) {
                        std::vector<std::string> ignored; // the DLQ's own unknowns are its own entry's
                        q.deadLetterAttributes = attributesOf(dlq, ignored);
                        addAlarm(dlq, q);
                    }
        }
        // Before apply the policy is unknown, but the configuration names its queue: that queue is the DLQ.
        if (q.deadLetterAttributes.is_null() && r.unknown.value("redrive_policy", false))
            if (const Resource* dlq = referred(r, "redrive_policy", "aws_sqs_queue")) {
                std::vector<std::string> ignored;
                q.deadLetterAttributes = attributesOf(*dlq, ignored);
                addAlarm(*dlq, q);
                // The queue will have a DLQ: "no DLQ" would be the plan's gap, not the queue's.
                q.waivers.push_back(
                    { "no-dlq", "the plan (its RedrivePolicy, known only after apply, names " + dlq->address + ")" });
            }
        addTrigger(r, q);
        return q;
    }

    // The `argument` of a resource of `type` attached to queue `r` by its queue_url.
    std::optional<std::string> attached(const Resource& r, const std::string& type, const std::string& argument) const
    {
        for (const Resource& a : m_resources)
            if (a.type == type
                && (referred(a, "queue_url", "aws_sqs_queue") == &r
                    || (a.values.contains("queue_url") && a.values["queue_url"] == r.values.value("url", json()))))
                return attributeText(a.values.value(argument, json()));
        return std::nullopt;
    }

    // Whether an aws_cloudwatch_metric_alarm names the DLQ in a QueueName dimension (its own, or a metric_query's),
    // by value or by reference; not said when the plan has no alarm at all.
    void addAlarm(const Resource& dlq, TemplateQueue& q) const
    {
        const std::function<bool(const json&)> names = [&](const json& v) {
            if (v.is_object() && v.value("QueueName", json()) == queueName(dlq))
                return true;
            return (v.is_object() || v.is_array()) && std::any_of(v.begin(), v.end(), names);
        };
        bool alarms = false;
        for (const Resource& a : m_resources) {
            if (a.type != "aws_cloudwatch_metric_alarm")
                continue;
            alarms = true;
            if (names(a.values) || referred(a, "dimensions", "aws_sqs_queue") == &dlq) {
                q.consumer["deadLetterAlarm"] = true;
                return;
            }
        }
        if (alarms)
            q.consumer["deadLetterAlarm"] = false;
    }

    void addTrigger(const Resource& queueResource, TemplateQueue& q) const
    {
        const std::string arn = arnOf(queueResource);
        for (const Resource& m : m_resources) {
            if (m.type != "aws_lambda_event_source_mapping")
                continue;
            const bool reads = m.values.value("event_source_arn", json()) == arn
                || referred(m, "event_source_arn", "aws_sqs_queue") == &queueResource;
            if (!reads)
                continue;
            const Resource* function = referred(m, "function_name", "aws_lambda_function");
            if (!function)
                for (const Resource& f : m_resources)
                    if (f.type == "aws_lambda_function"
                        && (m.values.value("function_name", json()) == f.values.value("function_name", json())
                            || m.values.value("function_name", json()) == f.values.value("arn", json())))
                        function = &f;
            json l = json::object();
            const json timeout = function ? function->values.value("timeout", json(3)) : json(3);
            l["timeout"] = (timeout.is_number_integer() ? timeout.dump() : std::string("3")) + "s";
            if (m.values.value("batch_size", json()).is_number_integer())
                l["batchSize"] = m.values["batch_size"];
            if (m.values.value("maximum_batching_window_in_seconds", json()).is_number_integer())
                l["batchingWindow"] = m.values["maximum_batching_window_in_seconds"].dump() + "s";
            const json scaling = m.values.value("scaling_config", json());
            if (scaling.is_array() && !scaling.empty()
                && scaling[0].value("maximum_concurrency", json()).is_number_integer())
                l["maxConcurrency"] = scaling[0]["maximum_concurrency"];
            const json responses = m.values.value("function_response_types", json());
            if (responses.is_array())
                for (const json& t : responses)
                    if (t == "ReportBatchItemFailures")
                        l["reportBatchItemFailures"] = true;
            q.consumer["lambda"] = l;
            return;
        }
    }

    std::vector<Resource> m_resources;
};

} // namespace

Outcome<std::vector<TemplateQueue>> readTerraformPlan(const std::string& text, const std::string& fileName)
{
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return Failure { fileName + ": not JSON (give what `terraform show -json PLAN` prints)" };
    try {
        return Plan(doc).queues();
    } catch (const Bad& bad) {
        return Failure { fileName + ": " + bad.message };
    } catch (const json::exception& e) {
        return Failure { fileName + ": cannot be read as a Terraform plan: " + e.what() };
    }
}

} // namespace lifeline::check
