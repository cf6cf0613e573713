// The AWS services around a scenario's queues: its SNS topics (reading `topics` and a message's `attributes`, and
// what a subscription's filter policy lets in) and its customer managed KMS keys (`kmsKeys`). The filter policy
// language is SNS's (the Amazon SNS Developer Guide, "Amazon SNS message filtering"), as far as String attributes
// go: exact values, "anything-but", "prefix" and "exists".
#include "lifeline/scenario/scenario.h"
#include "scenario_reading.h"

#include <algorithm>

namespace lifeline::scenario {

bool FilterCondition::matches(const std::string* value) const
{
    switch (kind) {
    case Kind::Exists:
        return (value != nullptr) == exists;
    case Kind::Equals:
        return value && std::find(values.begin(), values.end(), *value) != values.end();
    case Kind::AnythingBut:
        return value && std::find(values.begin(), values.end(), *value) == values.end();
    case Kind::Prefix:
        return value && value->starts_with(values.front());
    }
    return false;
}

bool SubscriptionSpec::accepts(const std::map<std::string, std::string>& attributes) const
{
    return std::all_of(filterPolicy.begin(), filterPolicy.end(), [&](const auto& entry) {
        const auto found = attributes.find(entry.first);
        const std::string* value = found == attributes.end() ? nullptr : &found->second;
        return std::any_of(entry.second.begin(), entry.second.end(),
            [&](const FilterCondition& condition) { return condition.matches(value); });
    });
}

namespace reading {

namespace {

using nlohmann::json;

// SNS's limit on the attribute names one filter policy may name.
constexpr size_t kMaxFilterKeys = 5;
// A message's attribute limit in SQS (and so in a raw delivery to SQS).
constexpr size_t kMaxMessageAttributes = 10;

std::vector<std::string> stringList(const json& v, const std::string& path)
{
    std::vector<std::string> out;
    if (v.is_string())
        return { v.get<std::string>() };
    if (!v.is_array() || v.empty())
        fail(path, "must be a string or a non-empty list of strings");
    for (size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string())
            fail(at(path, i), "must be a string (Lifeline's messages carry String attributes)");
        out.push_back(v[i].get<std::string>());
    }
    return out;
}

FilterCondition condition(const json& v, const std::string& path)
{
    FilterCondition c;
    if (v.is_string()) {
        c.values = { v.get<std::string>() };
        return c;
    }
    if (!v.is_object() || v.size() != 1)
        fail(path, "must be a string or one of {\"anything-but\": ...}, {\"prefix\": \"...\"}, {\"exists\": true}");
    if (!checkKeys(v, path, { "anything-but", "prefix", "exists" }))
        return c; // reported: the scenario does not load
    const std::string key = v.begin().key();
    const json& value = v.begin().value();
    const std::string p = join(path, key);
    if (key == "exists") {
        if (!value.is_boolean())
            fail(p, "must be true or false");
        c.kind = FilterCondition::Kind::Exists;
        c.exists = value.get<bool>();
    } else if (key == "prefix") {
        if (!value.is_string() || value.get<std::string>().empty())
            fail(p, "must be a non-empty string");
        c.kind = FilterCondition::Kind::Prefix;
        c.values = { value.get<std::string>() };
    } else {
        c.kind = FilterCondition::Kind::AnythingBut;
        c.values = stringList(value, p);
    }
    return c;
}

SubscriptionSpec subscription(const json& v, const std::string& path)
{
    checkKeys(v, path, { "queue", "filterPolicy", "queuePolicy" });
    SubscriptionSpec s;
    s.queue = text(v, path, "queue");
    if (v.contains("queuePolicy") && !v["queuePolicy"].is_boolean())
        report(join(path, "queuePolicy"), "must be true or false");
    s.addsQueuePolicy = !v.contains("queuePolicy") || !v["queuePolicy"].is_boolean() || v["queuePolicy"].get<bool>();
    if (!v.contains("filterPolicy"))
        return s;
    const std::string policyPath = join(path, "filterPolicy");
    const json& policy = v["filterPolicy"];
    if (!policy.is_object() || policy.empty())
        fail(policyPath, "must be an object naming at least one message attribute, as {\"region\": [\"eu\"]}");
    if (policy.size() > kMaxFilterKeys)
        fail(policyPath,
            "SNS allows at most 5 attribute names in a filter policy, got " + std::to_string(policy.size()));
    for (const auto& [name, conditions] : policy.items()) {
        const std::string p = join(policyPath, name);
        if (!conditions.is_array() || conditions.empty())
            fail(p, "must be a non-empty list of conditions, as [\"eu\"] or [{\"prefix\": \"eu-\"}]");
        auto& list = s.filterPolicy[name];
        for (size_t i = 0; i < conditions.size(); ++i)
            list.push_back(condition(conditions[i], at(p, i)));
    }
    return s;
}

} // namespace

namespace {

std::vector<TopicSpec> readTopics(const json& list, const std::string& path)
{
    if (!list.is_array())
        fail(path, "must be a list of topics");
    std::vector<TopicSpec> topics;
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string p = at(path, i);
        checkKeys(list[i], p, { "name", "subscriptions" });
        TopicSpec topic;
        topic.name = text(list[i], p, "name");
        const bool named
            = std::none_of(topics.begin(), topics.end(), [&](const TopicSpec& t) { return t.name == topic.name; });
        if (!named)
            report(join(p, "name"), "another topic is named \"" + topic.name + "\"");
        const json& subscriptions = list[i].value("subscriptions", json::array());
        if (!subscriptions.is_array() || subscriptions.empty())
            fail(join(p, "subscriptions"), "must list at least one queue, as [{\"queue\": \"shipping\"}]");
        for (size_t s = 0; s < subscriptions.size(); ++s)
            topic.subscriptions.push_back(subscription(subscriptions[s], at(join(p, "subscriptions"), s)));
        topics.push_back(std::move(topic));
    }
    return topics;
}

std::vector<KmsKeySpec> readKmsKeys(const json& list, const std::string& path)
{
    if (!list.is_array())
        fail(path,
            "must be a list of keys, as [{\"alias\": \"alias/uploads\", \"allowServices\": [\"s3.amazonaws.com\"]}]");
    std::vector<KmsKeySpec> keys;
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string p = at(path, i);
        checkKeys(list[i], p, { "alias", "allowServices" });
        KmsKeySpec key;
        key.alias = text(list[i], p, "alias");
        if (!key.alias.starts_with("alias/") || key.alias.starts_with("alias/aws/"))
            report(join(p, "alias"),
                "must start with alias/ and not alias/aws/ (AWS's own keys), got \"" + key.alias + "\"");
        if (list[i].contains("allowServices"))
            key.allowServices = stringList(list[i]["allowServices"], join(p, "allowServices"));
        keys.push_back(std::move(key));
    }
    return keys;
}

} // namespace

void readServices(const json& v, Scenario& scenario)
{
    if (v.contains("topics"))
        scenario.topics = readTopics(v["topics"], "topics");
    if (v.contains("kmsKeys"))
        scenario.kmsKeys = readKmsKeys(v["kmsKeys"], "kmsKeys");
}

std::map<std::string, std::string> messageAttributes(const json& v, const std::string& path)
{
    if (!v.is_object())
        fail(path, "must be an object of names and String values, as {\"region\": \"eu\"}");
    if (v.size() > kMaxMessageAttributes)
        fail(path, "SQS takes at most 10 message attributes, got " + std::to_string(v.size()));
    std::map<std::string, std::string> out;
    for (const auto& [name, value] : v.items()) {
        if (!value.is_string())
            fail(join(path, name), "must be a string");
        out[name] = value.get<std::string>();
    }
    return out;
}

} // namespace reading

} // namespace lifeline::scenario
