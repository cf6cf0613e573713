// A CloudFormation, SAM or synthesised CDK template read into the queues `lifeline check` reviews. The text becomes
// one JSON shape (template_document.cpp), its values are evaluated as far as the template fixes them
// (template_values.cpp), and here each queue is put together with what reads it and what lies around it. Every
// relation (a DLQ by its ARN, a trigger by its source, a policy by its queues, an alarm by its dimension) is indexed
// once, so a template's size costs time in proportion, not in its square.
#include "lifeline/check/template_reader.h"

#include "serverless_document.h"
#include "template_document.h"
#include "template_values.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

namespace lifeline::check {

namespace {

using json = nlohmann::json;

// What reads a queue: an AWS::Lambda::EventSourceMapping, or an SQS event of an AWS::Serverless::Function.
struct Trigger {
    std::string path; // "Resources.M.Properties", "Resources.F.Properties.Events.Work.Properties"
    const json* properties = nullptr;
    std::string function; // the function resource, or "" for one outside the template
    std::string functionNamed; // what FunctionName says of one outside the template
};

class TemplateQueues {
public:
    explicit TemplateQueues(const TemplateDocument& document)
        : m_document(document)
        , m_values(document.root)
    {
        for (const auto& [id, resource] : m_values.resources().items())
            if (m_values.typeOf(id) == "AWS::SQS::Queue") {
                m_queueIds.push_back(id);
                m_byName[m_values.queueArn(id)] = id;
                m_byName[m_values.queueUrl(id)] = id;
            }
        if (m_queueIds.empty())
            throw TemplateError("declares no AWS::SQS::Queue: nothing to check");
        for (const auto& [id, resource] : m_values.resources().items())
            index(id);
    }

    std::vector<TemplateQueue> queues() const
    {
        std::vector<TemplateQueue> out;
        out.reserve(m_queueIds.size());
        for (const std::string& id : m_queueIds) {
            checkRedriveChain(id);
            out.push_back(queue(id));
        }
        markDeadLetterQueues(out);
        return out;
    }

private:
    // The queue of the template a value names: directly (!GetAtt Q.Arn, !Ref Q), or by its ARN or URL; "" for
    // none.
    std::string queueOf(const json& v) const
    {
        const std::string named = m_values.resourceNamed(v);
        if (!named.empty())
            return m_values.typeOf(named) == "AWS::SQS::Queue" ? named : "";
        std::string why;
        const auto text = m_values.text(v, why);
        const auto it = text ? m_byName.find(*text) : m_byName.end();
        return it == m_byName.end() ? "" : it->second;
    }

    // Each resource that relates to queues, filed under the queue it names.
    void index(const std::string& id)
    {
        const std::string type = m_values.typeOf(id);
        const json& p = m_values.properties(id);
        if (type == "AWS::Lambda::EventSourceMapping" && p.contains("EventSourceArn")) {
            const std::string queue = queueOf(p["EventSourceArn"]);
            if (!queue.empty())
                addTrigger(queue, "Resources." + id + ".Properties", p);
        } else if (type == "AWS::Serverless::Function" && p.contains("Events") && p["Events"].is_object()) {
            for (const auto& [name, event] : p["Events"].items())
                if (event.is_object() && event.value("Type", json()) == "SQS" && event.contains("Properties")
                    && event["Properties"].is_object() && event["Properties"].contains("Queue")) {
                    const std::string queue = queueOf(event["Properties"]["Queue"]);
                    if (!queue.empty())
                        addTrigger(queue, "Resources." + id + ".Properties.Events." + name + ".Properties",
                            event["Properties"], id);
                }
        } else if (type == "AWS::SQS::QueuePolicy" || type == "AWS::SQS::QueueInlinePolicy") {
            if (!p.contains("PolicyDocument"))
                return;
            json named = json::array();
            if (p.contains("Queues") && p["Queues"].is_array())
                named = p["Queues"];
            else if (p.contains("Queue"))
                named.push_back(p["Queue"]);
            for (const json& queue : named)
                if (const std::string q = queueOf(queue); !q.empty())
                    m_policies.emplace(q, m_values.evaluateAll(p["PolicyDocument"]).dump());
        } else if (type == "AWS::CloudWatch::Alarm") {
            m_anyAlarm = true;
            collectQueueDimensions(m_values.evaluateAll(p));
        }
    }

    // A trigger that is switched off (Enabled: false) reads nothing: it is listed, not counted as a consumer.
    void addTrigger(const std::string& queue, const std::string& path, const json& p, const std::string& function = {})
    {
        std::string why;
        if (p.contains("Enabled") && m_values.text(p["Enabled"], why) == "false") {
            m_disabled[queue].push_back(path.substr(0, path.size() - std::string(".Properties").size()));
            return;
        }
        if (m_triggers.contains(queue))
            return; // the first reads it; the check reviews one consumer side per queue
        Trigger t { path, &p, function, {} };
        if (function.empty() && p.contains("FunctionName")) {
            t.function = m_values.resourceNamed(p["FunctionName"]);
            if (t.function.empty()) {
                const auto named = m_values.text(p["FunctionName"], why);
                t.functionNamed = named ? *named : "a function " + why;
            }
        }
        m_triggers.emplace(queue, std::move(t));
    }

    void collectQueueDimensions(const json& v)
    {
        if (v.is_object() && v.value("Name", json()) == "QueueName" && v.contains("Value") && v["Value"].is_string())
            m_alarmedQueues.insert(v["Value"].get<std::string>());
        if (v.is_object() || v.is_array())
            for (const json& item : v)
                collectQueueDimensions(item);
    }

    // The queue a RedrivePolicy's deadLetterTargetArn names, or "".
    std::string deadLetterTargetOf(const std::string& id) const
    {
        const json& p = m_values.properties(id);
        if (!p.contains("RedrivePolicy") || !p["RedrivePolicy"].is_object()
            || !p["RedrivePolicy"].contains("deadLetterTargetArn"))
            return {};
        const json& target = p["RedrivePolicy"]["deadLetterTargetArn"];
        const std::string named = m_values.resourceNamed(target);
        return named.empty() ? queueOf(target) : named;
    }
    // A dead-letter queue that is not a queue, or a chain of them that comes back to where it started, is a broken
    // template: SQS refuses the first, CloudFormation the second (a circular dependency between the resources).
    void checkRedriveChain(const std::string& id) const
    {
        std::vector<std::string> chain { id };
        for (std::string at = id;;) {
            const std::string next = deadLetterTargetOf(at);
            if (next.empty())
                return;
            if (m_values.typeOf(next) != "AWS::SQS::Queue")
                throw TemplateError("Resources." + at + ".Properties.RedrivePolicy.deadLetterTargetArn: names " + next
                    + ", an " + m_values.typeOf(next) + ", not an AWS::SQS::Queue");
            const bool seen = std::find(chain.begin(), chain.end(), next) != chain.end();
            chain.push_back(next);
            if (seen) {
                std::string path;
                for (const auto& q : chain)
                    path += (path.empty() ? "" : " -> ") + q;
                throw TemplateError("Resources." + id + ".Properties.RedrivePolicy: a circular RedrivePolicy: " + path
                    + " (a dead-letter queue's own RedrivePolicy must not lead back)");
            }
            if (chain.size() > m_queueIds.size())
                return;
            at = next;
        }
    }

    // A RedrivePolicy (or RedriveAllowPolicy) written as a map, its parts evaluated; nothing when a part is not
    // fixed (SQS refuses a policy without its parts, so none is better than half of one), the parts named.
    std::optional<std::string> policyOf(
        const std::string& name, const json& value, std::vector<std::string>& unknown) const
    {
        json policy = json::object();
        bool open = false;
        for (const auto& [key, part] : value.items()) {
            std::string why;
            const auto text = m_values.text(part, why);
            if (!text) {
                unknown.push_back(name + "." + key + ": " + why);
                open = true;
                continue;
            }
            const bool number = key == "maxReceiveCount" && wholeNumber(*text);
            policy[key] = number ? json(std::stoll(*text)) : json(*text);
        }
        if (open)
            return std::nullopt;
        return policy.dump();
    }

    // The queue's attributes as get-queue-attributes prints them; what the template leaves open into `unknown`.
    json attributesOf(const std::string& id, std::vector<std::string>& unknown, bool& redriveOpen) const
    {
        json out = json::object();
        for (const auto& [name, value] : m_values.properties(id).items()) {
            if (name == "QueueName" || name == "Tags")
                continue;
            std::string why;
            const bool policy = name == "RedrivePolicy" || name == "RedriveAllowPolicy";
            if (policy && value.is_object() && !value.contains("Ref") && !value.contains("Fn::Sub")) {
                if (const auto text = policyOf(name, value, unknown))
                    out[name] = *text;
                else if (name == "RedrivePolicy")
                    redriveOpen = true;
                continue;
            }
            const auto got = m_values.evaluate(value, why);
            if (got && (got->is_object() || got->is_array()))
                out[name] = got->dump(); // a policy written as a map
            else if (got)
                out[name] = m_values.text(*got, why).value_or("");
            else if (why != TemplateValues::kNoValue) {
                unknown.push_back(name + ": " + why);
                redriveOpen = redriveOpen || name == "RedrivePolicy";
            }
        }
        out["QueueArn"] = m_values.queueArn(id);
        return out;
    }

    TemplateQueue queue(const std::string& id) const
    {
        TemplateQueue q;
        q.logicalId = id;
        q.line = m_document.lineOf("Resources." + id);
        for (const auto& [name, value] : m_values.properties(id).items())
            q.lines[name] = m_document.lineOf("Resources." + id + ".Properties." + name);
        bool redriveOpen = false;
        q.attributes = attributesOf(id, q.unknown, redriveOpen);
        const std::string dlq = deadLetterTargetOf(id);
        if (!dlq.empty() && (q.attributes.contains("RedrivePolicy") || redriveOpen)) {
            std::vector<std::string> ignored; // the DLQ's own unknowns are its own entry's
            bool ignoredOpen = false;
            q.deadLetterAttributes = attributesOf(dlq, ignored, ignoredOpen);
            addAlarm(dlq, q);
        }
        if (redriveOpen) {
            // The queue has a redrive policy the template does not fix: "no DLQ" would be the reader's gap, not the
            // queue's, and the rules of its receive count cannot be checked.
            for (const char* rule :
                { "max-receive-count-1", "lambda-max-receive-count-under-5", "max-receive-count-high" })
                q.notChecked.push_back({ rule, "a redrive policy the template fixes" });
            q.waivers.push_back({ "no-dlq",
                "the template (Resources." + id
                    + ".Properties.RedrivePolicy, not fixed by "
                      "it)" });
        }
        if (const auto it = m_policies.find(id); it != m_policies.end())
            q.attributes["Policy"] = it->second;
        if (const auto it = m_disabled.find(id); it != m_disabled.end())
            for (const std::string& path : it->second)
                q.unknown.push_back(
                    m_document.inFile(path) + ": Enabled: false, so it reads nothing and is not counted as a consumer");
        if (const auto it = m_triggers.find(id); it != m_triggers.end())
            q.consumer["lambda"] = trigger(it->second, q);
        addMetadata(id, q);
        return q;
    }

    // What Metadata: {lifeline: {...}} on resource `id` says of the consumer side (the queue's, or its function's),
    // and the rules it waives (ignore: [rule, ...]).
    void addMetadata(const std::string& id, TemplateQueue& q) const
    {
        const json& r = m_values.resources()[id];
        if (!r.contains("Metadata") || !r["Metadata"].is_object() || !r["Metadata"].contains("lifeline"))
            return;
        const json& said = r["Metadata"]["lifeline"];
        const std::string where = "Resources." + id + ".Metadata.lifeline";
        if (!said.is_object())
            throw TemplateError(where + ": must be a map (processing, consumers, ...)");
        for (const auto& [key, value] : said.items()) {
            if (key != "ignore") {
                q.consumer[key] = value;
                continue;
            }
            if (!value.is_array()
                || !std::all_of(value.begin(), value.end(), [](const json& v) { return v.is_string(); }))
                throw TemplateError(where + ".ignore: must be a list of rule ids, such as [no-dlq]");
            for (const auto& rule : value)
                q.waivers.push_back({ rule.get<std::string>(), where + ".ignore" });
        }
    }

    // Whether an AWS::CloudWatch::Alarm has a QueueName dimension naming queue `dlq`; not said when the template
    // has no alarm at all (its alarms may be kept elsewhere).
    void addAlarm(const std::string& dlq, TemplateQueue& q) const
    {
        if (m_anyAlarm)
            q.consumer["deadLetterAlarm"] = m_alarmedQueues.contains(m_values.queueName(dlq));
    }

    // A property of the function, its own or (for a SAM function) from Globals.Function; nothing when neither says.
    const json* functionProperty(const std::string& function, const char* name, std::string& path) const
    {
        const json& own = m_values.properties(function);
        if (own.contains(name)) {
            path = "Resources." + function + ".Properties." + name;
            return &own[name];
        }
        const json& root = m_values.root();
        if (m_values.typeOf(function) == "AWS::Serverless::Function" && root.contains("Globals")
            && root["Globals"].is_object() && root["Globals"].contains("Function")
            && root["Globals"]["Function"].is_object() && root["Globals"]["Function"].contains(name)) {
            path = std::string("Globals.Function.") + name;
            return &root["Globals"]["Function"][name];
        }
        return nullptr;
    }

    // The trigger as the check's "lambda" consumer side; what the template leaves open named in q.unknown.
    json trigger(const Trigger& t, TemplateQueue& q) const
    {
        json l = json::object();
        const json& p = *t.properties;
        q.lines["trigger"] = m_document.lineOf(t.path.substr(0, t.path.size() - std::string(".Properties").size()));
        const auto fixed = [&](const char* name, const json& v) -> std::optional<json> {
            std::string why;
            auto got = m_values.evaluate(v, why);
            if (!got && why != TemplateValues::kNoValue)
                q.unknown.push_back(m_document.inFile(t.path + "." + name) + ": " + why);
            return got;
        };
        if (t.function.empty()) {
            q.unknown.push_back(m_document.inFile(t.path + ".FunctionName") + ": "
                + (t.functionNamed.empty() ? "not given" : t.functionNamed)
                + ", a function outside the template, so its Timeout is not known");
        } else {
            std::string path;
            if (const json* timeout = functionProperty(t.function, "Timeout", path)) {
                q.lines["Timeout"] = m_document.lineOf(path);
                std::string why;
                if (const auto s = m_values.text(*timeout, why))
                    l["timeout"] = *s + "s";
                else
                    q.unknown.push_back(m_document.inFile(path) + ": " + why);
            } else {
                l["timeout"] = "3s"; // Lambda's default
                q.lines["Timeout"] = m_document.lineOf("Resources." + t.function);
            }
            if (const json* reserved = functionProperty(t.function, "ReservedConcurrentExecutions", path)) {
                q.lines["ReservedConcurrentExecutions"] = m_document.lineOf(path);
                if (const auto n = fixed("ReservedConcurrentExecutions", *reserved); n && n->is_number_integer())
                    l["reservedConcurrency"] = *n;
            }
            // A dead-letter queue of the function's own (CloudFormation's DeadLetterConfig, SAM's DeadLetterQueue).
            for (const char* name : { "DeadLetterConfig", "DeadLetterQueue" })
                if (functionProperty(t.function, name, path)) {
                    q.lines["DeadLetterConfig"] = m_document.lineOf(path);
                    l["functionDeadLetter"] = true;
                }
            addMetadata(t.function, q);
        }
        const auto whole = [&](const char* name, const json& v, const char* key) {
            if (const auto got = fixed(name, v)) {
                std::string why;
                const auto s = m_values.text(*got, why);
                l[key] = s && wholeNumber(*s) ? json(std::stoll(*s)) : *got;
            }
        };
        if (p.contains("BatchSize"))
            whole("BatchSize", p["BatchSize"], "batchSize");
        if (p.contains("MaximumBatchingWindowInSeconds"))
            if (const auto w = fixed("MaximumBatchingWindowInSeconds", p["MaximumBatchingWindowInSeconds"]))
                l["batchingWindow"] = (w->is_string() ? w->get<std::string>() : w->dump()) + "s";
        if (p.contains("ScalingConfig") && p["ScalingConfig"].is_object()
            && p["ScalingConfig"].contains("MaximumConcurrency"))
            whole("ScalingConfig.MaximumConcurrency", p["ScalingConfig"]["MaximumConcurrency"], "maxConcurrency");
        if (p.contains("ProvisionedPollerConfig") && p["ProvisionedPollerConfig"].is_object()) {
            const json& provisioned = p["ProvisionedPollerConfig"];
            for (const auto& [name, key] :
                { std::pair { "MinimumPollers", "minimumPollers" }, std::pair { "MaximumPollers", "maximumPollers" } })
                if (provisioned.contains(name))
                    whole((std::string("ProvisionedPollerConfig.") + name).c_str(), provisioned[name], key);
            if (!l.contains("minimumPollers") && !l.contains("maximumPollers")) // provisioned mode at its defaults
                l["minimumPollers"] = 2;
        }
        if (p.contains("FunctionResponseTypes"))
            if (const auto types = fixed("FunctionResponseTypes", p["FunctionResponseTypes"]);
                types && types->is_array())
                for (const auto& type : *types)
                    if (type == "ReportBatchItemFailures")
                        l["reportBatchItemFailures"] = true;
        return l;
    }

    const TemplateDocument& m_document;
    TemplateValues m_values;
    std::vector<std::string> m_queueIds;
    std::unordered_map<std::string, std::string> m_byName; // a queue's ARN or URL -> its id
    std::unordered_map<std::string, Trigger> m_triggers; // queue id -> the first enabled trigger that reads it
    std::unordered_map<std::string, std::vector<std::string>> m_disabled; // queue id -> triggers switched off
    std::unordered_map<std::string, std::string> m_policies; // queue id -> its policy document
    bool m_anyAlarm = false;
    std::set<std::string> m_alarmedQueues; // the QueueName dimensions of every alarm
};

} // namespace

void markDeadLetterQueues(std::vector<TemplateQueue>& queues)
{
    std::unordered_map<std::string, size_t> byArn;
    for (size_t i = 0; i < queues.size(); ++i)
        if (queues[i].attributes.contains("QueueArn") && queues[i].attributes["QueueArn"].is_string())
            byArn.emplace(queues[i].attributes["QueueArn"].get<std::string>(), i);
    for (const TemplateQueue& source : queues) {
        if (source.deadLetterAttributes.is_null() || !source.deadLetterAttributes.contains("QueueArn"))
            continue;
        const auto it = byArn.find(source.deadLetterAttributes["QueueArn"].get<std::string>());
        if (it == byArn.end() || !queues[it->second].consumer.empty())
            continue;
        std::string& of = queues[it->second].deadLetterOf; // one DLQ may serve several queues: each is named
        of += (of.empty() ? "" : ", ") + source.logicalId;
    }
}

Outcome<std::vector<TemplateQueue>> readTemplate(const std::string& text, const std::string& fileName)
{
    try {
        TemplateDocument document = readTemplateDocument(text);
        if (isServerlessService(document))
            document = serverlessTemplate(document);
        return TemplateQueues(document).queues();
    } catch (const TemplateError& e) {
        return Failure { fileName + ": " + e.what() };
    } catch (const json::exception& e) { // a value of a shape the reader did not expect: named, never a crash
        return Failure { fileName + ": cannot be read as a template: " + e.what() };
    }
}

} // namespace lifeline::check
