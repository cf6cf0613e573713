// A Terraform plan or state (`terraform show -json`) read into the queues `lifeline check` reviews. Known values come
// from planned_values (a plan) or values (a state); what is known only after apply is named from resource_changes'
// after_unknown, and the configuration's references say which resource it would come from: for a resource made with
// count or for_each, the instance of the same key (aws_sqs_queue.dlq[each.key] from aws_sqs_queue.main["orders"] is
// aws_sqs_queue.dlq["orders"]). Every relation is indexed once, so a plan's size costs time in proportion.
#include "lifeline/check/terraform_reader.h"

#include "lifeline/support/json_depth.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

namespace lifeline::check {

namespace {

using json = nlohmann::json;

struct Bad {
    std::string message;
};

constexpr int kDeepestPlan = 256;

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

// A member of a JSON object, or null: a plan writes null for what is not set, and a member may be missing.
const json& field(const json& v, const char* key)
{
    static const json none;
    if (!v.is_object())
        return none;
    const auto it = v.find(key);
    return it == v.end() ? none : *it;
}

// An address without its instance keys: the configuration's name for every instance of it
// (module.jobs["a"].aws_sqs_queue.main[0] -> module.jobs.aws_sqs_queue.main).
std::string withoutKeys(const std::string& address)
{
    std::string out;
    int depth = 0;
    bool quoted = false;
    for (char c : address) {
        if (c == '"' && depth > 0)
            quoted = !quoted;
        else if (c == '[' && !quoted)
            ++depth;
        else if (c == ']' && !quoted)
            --depth;
        else if (depth == 0)
            out += c;
    }
    return out;
}

struct Resource {
    std::string address;
    std::string base; // withoutKeys(address)
    std::string type;
    json values;
    json unknown = json::object(); // after_unknown: argument -> true
    const json* expressions = nullptr; // the configuration's, with references made absolute
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
        if (field(doc, "errored") == true)
            throw Bad { "the plan errored (`terraform plan` failed): it says nothing reliable of what would be "
                        "applied; fix the plan first" };
        const json* root = nullptr;
        if (field(field(doc, "planned_values"), "root_module").is_object())
            root = &doc["planned_values"]["root_module"];
        else if (field(field(doc, "values"), "root_module").is_object())
            root = &doc["values"]["root_module"];
        if (!root)
            throw Bad { "has no planned_values or values (not what `terraform show -json` prints)" };
        collect(*root);
        for (size_t i = 0; i < m_resources.size(); ++i)
            m_byAddress.emplace(m_resources[i].address, i);
        for (size_t i = 0; i < m_resources.size(); ++i) {
            m_byBase[m_resources[i].base].push_back(i);
            m_byBaseAndKeys.emplace(m_resources[i].base + keysOf(m_resources[i].address), i);
        }
        if (field(doc, "resource_changes").is_array())
            for (const json& change : doc["resource_changes"])
                if (Resource* r = find(field(change, "address"));
                    r && field(field(change, "change"), "after_unknown").is_object())
                    r->unknown = change["change"]["after_unknown"];
        if (field(field(doc, "configuration"), "root_module").is_object())
            collectExpressions(doc["configuration"]["root_module"], "");
        if (std::none_of(
                m_resources.begin(), m_resources.end(), [](const Resource& r) { return r.type == "aws_sqs_queue"; }))
            throw Bad { "declares no aws_sqs_queue: nothing to check" };
        index();
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
        if (field(module, "resources").is_array())
            for (const json& r : module["resources"])
                if (field(r, "mode") == "managed" && field(r, "address").is_string() && field(r, "type").is_string()) {
                    const std::string address = r["address"];
                    const json& values = field(r, "values");
                    m_resources.push_back({ address, withoutKeys(address), r["type"].get<std::string>(),
                        values.is_object() ? values : json::object() });
                }
        if (field(module, "child_modules").is_array())
            for (const json& child : module["child_modules"])
                collect(child);
    }
    // A module's configuration names resources relative to it: prefixed here with the module's address.
    void collectExpressions(const json& module, const std::string& prefix)
    {
        if (field(module, "resources").is_array())
            for (const json& r : module["resources"]) {
                if (!field(r, "address").is_string() || !field(r, "expressions").is_object())
                    continue;
                json expressions = r["expressions"];
                for (auto& [name, expression] : expressions.items())
                    if (field(expression, "references").is_array())
                        for (auto& reference : expression["references"])
                            if (reference.is_string())
                                reference = prefix + reference.get<std::string>();
                auto& kept = m_expressions.emplace_back(std::move(expressions));
                for (size_t i : byBase(prefix + r["address"].get<std::string>()))
                    m_resources[i].expressions = &kept;
            }
        if (field(module, "module_calls").is_object())
            for (const auto& [name, call] : module["module_calls"].items())
                if (field(call, "module").is_object())
                    collectExpressions(call["module"], prefix + "module." + name + ".");
    }
    const std::vector<size_t>& byBase(const std::string& base) const
    {
        static const std::vector<size_t> none;
        const auto it = m_byBase.find(base);
        return it == m_byBase.end() ? none : it->second;
    }
    Resource* find(const json& address)
    {
        const auto it = address.is_string() ? m_byAddress.find(address.get<std::string>()) : m_byAddress.end();
        return it == m_byAddress.end() ? nullptr : &m_resources[it->second];
    }

    // The resource of `type` an argument's expression refers to ("aws_sqs_queue.dlq.arn" -> aws_sqs_queue.dlq). For
    // a resource of many instances, the one the reference names by its key, else the one of the same keys as `from`
    // (count.index, each.key), else the only one.
    const Resource* referred(const Resource& from, const char* argument, const std::string& type) const
    {
        static const json none;
        const json& references = field(field(from.expressions ? *from.expressions : none, argument), "references");
        if (!references.is_array())
            return nullptr;
        for (const json& reference : references) {
            if (!reference.is_string())
                continue;
            const std::string text = reference;
            const auto at = text.find(type + ".");
            if (at == std::string::npos || (at > 0 && text[at - 1] != '.'))
                continue;
            const auto nameEnd = text.find_first_of(".[", at + type.size() + 1);
            const std::string base = withoutKeys(text.substr(0, nameEnd));
            if (nameEnd != std::string::npos && text[nameEnd] == '[') { // a literal key: aws_sqs_queue.dlq["a"]
                const auto close = text.find(']', nameEnd);
                if (const auto it = m_byAddress.find(text.substr(0, close + 1)); it != m_byAddress.end())
                    return &m_resources[it->second];
            }
            const auto& instances = byBase(base);
            if (instances.size() == 1)
                return &m_resources[instances[0]];
            if (const auto it = m_byBaseAndKeys.find(base + keysOf(from.address)); it != m_byBaseAndKeys.end())
                return &m_resources[it->second];
        }
        return nullptr;
    }
    // The instance keys of an address, in order (module.jobs["a"].aws_sqs_queue.main[0] -> ["a"][0]).
    static std::string keysOf(const std::string& address)
    {
        std::string out;
        int depth = 0;
        bool quoted = false;
        for (char c : address) {
            if (c == '"' && depth > 0)
                quoted = !quoted;
            else if (c == '[' && !quoted)
                ++depth;
            if (depth > 0)
                out += c;
            if (c == ']' && !quoted)
                --depth;
        }
        return out;
    }

    static std::string queueName(const Resource& r)
    {
        const json& name = field(r.values, "name");
        return name.is_string() ? name.get<std::string>() : r.address;
    }
    static std::string arnOf(const Resource& r)
    {
        if (const auto arn = attributeText(field(r.values, "arn")))
            return *arn;
        return "arn:aws:sqs:us-east-1:123456789012:" + queueName(r); // not yet created: its name says which it is
    }

    // Each resource that relates to queues, filed under the queue it names.
    void index()
    {
        for (const Resource& r : m_resources)
            if (r.type == "aws_sqs_queue") {
                m_byArn.emplace(arnOf(r), &r);
                if (const auto url = attributeText(field(r.values, "url")))
                    m_byUrl.emplace(*url, &r);
            } else if (r.type == "aws_lambda_function") {
                for (const char* key : { "function_name", "arn" })
                    if (const auto name = attributeText(field(r.values, key)))
                        m_functions.emplace(*name, &r);
            }
        for (const Resource& r : m_resources) {
            if (r.type == "aws_sqs_queue_redrive_policy" || r.type == "aws_sqs_queue_policy") {
                if (const Resource* q = queueByUrl(r))
                    (r.type == "aws_sqs_queue_policy" ? m_policies : m_redrivePolicies).emplace(q, &r);
            } else if (r.type == "aws_lambda_event_source_mapping") {
                const Resource* q = referred(r, "event_source_arn", "aws_sqs_queue");
                if (!q)
                    if (const auto arn = attributeText(field(r.values, "event_source_arn"));
                        arn && m_byArn.contains(*arn))
                        q = m_byArn.at(*arn);
                if (q)
                    m_triggers[q].push_back(&r);
            } else if (r.type == "aws_cloudwatch_metric_alarm") {
                m_anyAlarm = true;
                collectQueueDimensions(r.values);
                if (const Resource* q = referred(r, "dimensions", "aws_sqs_queue"))
                    m_alarmedQueues.insert(queueName(*q));
            }
        }
    }
    const Resource* queueByUrl(const Resource& r) const
    {
        if (const Resource* q = referred(r, "queue_url", "aws_sqs_queue"))
            return q;
        const auto url = attributeText(field(r.values, "queue_url"));
        const auto it = url ? m_byUrl.find(*url) : m_byUrl.end();
        return it == m_byUrl.end() ? nullptr : it->second;
    }
    void collectQueueDimensions(const json& v)
    {
        if (v.is_object() && field(v, "QueueName").is_string())
            m_alarmedQueues.insert(v["QueueName"].get<std::string>());
        if (v.is_object() || v.is_array())
            for (const json& item : v)
                collectQueueDimensions(item);
    }

    json attributesOf(const Resource& r, std::vector<std::string>& unknown) const
    {
        json out = json::object();
        for (const auto& [argument, attribute] : kQueueArguments) {
            if (field(r.unknown, argument) == true) {
                unknown.push_back(std::string(attribute) + ": known only after apply" + afterApplyNote(r, argument));
                continue;
            }
            if (const auto value = attributeText(field(r.values, argument)))
                out[attribute] = *value;
        }
        out["QueueArn"] = arnOf(r);
        return out;
    }
    std::string afterApplyNote(const Resource& r, const std::string& argument) const
    {
        if (argument != "redrive_policy")
            return {};
        const Resource* dlq = referred(r, "redrive_policy", "aws_sqs_queue");
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
        if (const auto it = m_redrivePolicies.find(&r); it != m_redrivePolicies.end())
            if (const auto text = attributeText(field(it->second->values, "redrive_policy")))
                q.attributes["RedrivePolicy"] = *text;
        if (const auto it = m_policies.find(&r); it != m_policies.end())
            if (const auto text = attributeText(field(it->second->values, "policy")))
                q.attributes["Policy"] = *text;
        if (q.attributes.contains("RedrivePolicy")) {
            const json policy = json::parse(q.attributes["RedrivePolicy"].get<std::string>(), nullptr, false);
            const auto target = attributeText(field(policy, "deadLetterTargetArn"));
            if (const auto it = target ? m_byArn.find(*target) : m_byArn.end(); it != m_byArn.end())
                addDeadLetterQueue(*it->second, q);
        }
        // Before apply the policy is unknown, but the configuration names its queue: that queue is the DLQ.
        if (q.deadLetterAttributes.is_null() && field(r.unknown, "redrive_policy") == true)
            if (const Resource* dlq = referred(r, "redrive_policy", "aws_sqs_queue")) {
                addDeadLetterQueue(*dlq, q);
                // The queue will have a DLQ: "no DLQ" would be the plan's gap, not the queue's.
                q.waivers.push_back(
                    { "no-dlq", "the plan (its RedrivePolicy, known only after apply, names " + dlq->address + ")" });
            }
        addTrigger(r, q);
        return q;
    }

    void addDeadLetterQueue(const Resource& dlq, TemplateQueue& q) const
    {
        std::vector<std::string> ignored; // the DLQ's own unknowns are its own entry's
        q.deadLetterAttributes = attributesOf(dlq, ignored);
        // Whether an alarm names the DLQ in a QueueName dimension (by value or by reference); not said when the plan
        // has no alarm at all.
        if (m_anyAlarm)
            q.consumer["deadLetterAlarm"] = m_alarmedQueues.contains(queueName(dlq));
    }

    // The first enabled aws_lambda_event_source_mapping that reads the queue, as the check's "lambda" consumer side.
    void addTrigger(const Resource& queueResource, TemplateQueue& q) const
    {
        const auto found = m_triggers.find(&queueResource);
        if (found == m_triggers.end())
            return;
        for (const Resource* m : found->second) {
            if (field(m->values, "enabled") == false) {
                q.unknown.push_back(
                    m->address + ": enabled = false, so it reads nothing and is not counted as a consumer");
                continue;
            }
            q.consumer["lambda"] = trigger(*m, q);
            return;
        }
    }
    json trigger(const Resource& m, TemplateQueue& q) const
    {
        const Resource* function = referred(m, "function_name", "aws_lambda_function");
        const auto name = attributeText(field(m.values, "function_name"));
        if (!function && name && m_functions.contains(*name))
            function = m_functions.at(*name);
        json l = json::object();
        if (!function) {
            q.unknown.push_back(m.address + ".function_name: " + name.value_or("not known before apply")
                + ", a function outside the plan, so its timeout is not known");
        } else {
            const json& timeout = field(function->values, "timeout");
            l["timeout"] = (timeout.is_number_integer() ? timeout.dump() : std::string("3")) + "s";
            const json& reserved = field(function->values, "reserved_concurrent_executions");
            if (reserved.is_number_integer() && reserved.get<int64_t>() >= 0) // -1: none reserved
                l["reservedConcurrency"] = reserved;
            const json& deadLetter = field(function->values, "dead_letter_config"); // a list of one block
            if (deadLetter.is_array() && !deadLetter.empty())
                l["functionDeadLetter"] = true;
        }
        if (field(m.values, "batch_size").is_number_integer())
            l["batchSize"] = m.values["batch_size"];
        if (field(m.values, "maximum_batching_window_in_seconds").is_number_integer())
            l["batchingWindow"] = m.values["maximum_batching_window_in_seconds"].dump() + "s";
        const json& scaling = field(m.values, "scaling_config");
        if (scaling.is_array() && !scaling.empty() && field(scaling[0], "maximum_concurrency").is_number_integer())
            l["maxConcurrency"] = scaling[0]["maximum_concurrency"];
        const json& provisioned = field(m.values, "provisioned_poller_config"); // a list of one block
        if (provisioned.is_array() && !provisioned.empty()) {
            for (const auto& [name, key] : { std::pair { "minimum_pollers", "minimumPollers" },
                     std::pair { "maximum_pollers", "maximumPollers" } })
                if (field(provisioned[0], name).is_number_integer())
                    l[key] = provisioned[0][name];
            if (!l.contains("minimumPollers") && !l.contains("maximumPollers"))
                l["minimumPollers"] = 2;
        }
        const json& responses = field(m.values, "function_response_types");
        if (responses.is_array()
            && std::find(responses.begin(), responses.end(), "ReportBatchItemFailures") != responses.end())
            l["reportBatchItemFailures"] = true;
        return l;
    }

    std::vector<Resource> m_resources;
    std::unordered_map<std::string, size_t> m_byAddress;
    std::unordered_map<std::string, std::vector<size_t>> m_byBase; // every instance of a configuration's resource
    std::unordered_map<std::string, size_t> m_byBaseAndKeys; // aws_sqs_queue.dlq + ["orders"] -> that instance
    std::deque<json> m_expressions; // the configuration's, each shared by its instances (a deque: they stay put)
    std::unordered_map<std::string, const Resource*> m_byArn; // queues by ARN
    std::unordered_map<std::string, const Resource*> m_byUrl; // queues by URL
    std::unordered_map<std::string, const Resource*> m_functions; // functions by name and ARN
    std::unordered_map<const Resource*, const Resource*> m_redrivePolicies; // queue -> its redrive policy resource
    std::unordered_map<const Resource*, const Resource*> m_policies; // queue -> its queue policy resource
    std::unordered_map<const Resource*, std::vector<const Resource*>> m_triggers; // queue -> mappings reading it
    bool m_anyAlarm = false;
    std::set<std::string> m_alarmedQueues; // the QueueName dimensions of every alarm
};

} // namespace

Outcome<std::vector<TemplateQueue>> readTerraformPlan(const std::string& text, const std::string& fileName)
{
    // A plan nests a module's modules and a value's structure: far less than this. Deeper text is refused before it
    // is parsed, so nothing recursive walks it (json_depth.h).
    if (jsonNestsDeeperThan(text, kDeepestPlan))
        return Failure { fileName + ": nested deeper than " + std::to_string(kDeepestPlan) + " levels: not a plan" };
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
