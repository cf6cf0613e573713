#include "lifeline/endpoint/fault_plan_json.h"

#include "lifeline/endpoint/sqs_action.h"
#include "lifeline/support/duration.h"

#include <set>

namespace lifeline::endpoint {

using nlohmann::json;

namespace {
Failure wrong(const std::string& field, const std::string& what)
{
    return Failure { field + ": " + what };
}

std::string kindList()
{
    std::string out;
    for (size_t k = 0; k < size_t(FaultKind::Count); ++k)
        out += std::string(k ? ", " : "") + faultWords(FaultKind(k)).id;
    return out;
}

Outcome<FaultRule> parseRule(const json& value, const std::string& at)
{
    if (!value.is_object())
        return wrong(at, "an object such as {\"kind\": \"duplicate\", \"rate\": 0.2}");
    static const std::set<std::string> kKnown { "kind", "rate", "at", "from", "until", "queue", "action", "limit",
        "delay" };
    for (const auto& [key, _] : value.items())
        if (!kKnown.count(key))
            return wrong(
                at + "." + key, "not a field of a fault (kind, rate, at, from, until, queue, action, limit, delay)");
    FaultRule rule;
    const auto kind = value.find("kind");
    if (kind == value.end() || !kind->is_string() || !faultKindNamed(kind->get<std::string>()))
        return wrong(at + ".kind", "one of " + kindList());
    rule.kind = *faultKindNamed(kind->get<std::string>());
    const auto rate = value.find("rate");
    const auto times = value.find("at");
    if ((rate == value.end()) == (times == value.end()))
        return wrong(at, "a \"rate\" (a chance from 0 to 1 for each call) or \"at\" times, one of them");
    if (rate != value.end()) {
        if (!rate->is_number() || !(rate->get<double>() >= 0 && rate->get<double>() <= 1))
            return wrong(at + ".rate", "a number from 0 to 1");
        rule.rate = rate->get<double>();
    } else {
        if (!times->is_array() || times->empty() || times->size() > 10000)
            return wrong(at + ".at", "a list of 1 to 10,000 times such as [\"5s\", \"1m\"]");
        for (size_t i = 0; i < times->size(); ++i) {
            const auto t = durationFromJson((*times)[i]);
            if (!t)
                return wrong(at + ".at[" + std::to_string(i) + "]", "a time such as \"5s\" or a number of seconds");
            rule.at.push_back(*t);
        }
    }
    for (const char* bound : { "from", "until" })
        if (const auto t = value.find(bound); t != value.end()) {
            const auto time = durationFromJson(*t);
            if (!time || *time < 0)
                return wrong(at + "." + bound, "a time such as \"5s\" or a number of seconds");
            (std::string_view(bound) == "from" ? rule.from : rule.until) = *time;
        }
    if (rule.from && rule.until && *rule.until <= *rule.from)
        return wrong(at + ".until", "a time after \"from\"");
    if (const auto q = value.find("queue"); q != value.end()) {
        if (!q->is_string() || q->get<std::string>().empty())
            return wrong(at + ".queue", "a queue's name");
        rule.queue = q->get<std::string>();
    }
    if (const auto a = value.find("action"); a != value.end()) {
        if (!a->is_string() || !sqsActionNamed(a->get<std::string>()))
            return wrong(at + ".action", "an SQS action such as \"ReceiveMessage\" or \"SendMessage\"");
        rule.action = a->get<std::string>();
        const bool receiveFault = rule.kind == FaultKind::Duplicate || rule.kind == FaultKind::ShortPollSample;
        if (receiveFault && rule.action != "ReceiveMessage")
            return wrong(
                at + ".action", std::string("a ") + faultWords(rule.kind).id + " fault happens on ReceiveMessage only");
    }
    if (const auto d = value.find("delay"); d != value.end()) {
        if (rule.kind != FaultKind::Latency)
            return wrong(at + ".delay", "only a latency fault has a delay");
        const auto delay = durationFromJson(*d);
        if (!delay || *delay < 1 || *delay > 120000)
            return wrong(at + ".delay", "a time from 1ms to 120s, such as \"2s\"");
        rule.delay = *delay;
    }
    if (const auto l = value.find("limit"); l != value.end()) {
        if (!l->is_number_integer() || l->get<int64_t>() < 1 || l->get<int64_t>() > 1000000000)
            return wrong(at + ".limit", "a whole number from 1");
        rule.limit = uint32_t(l->get<int64_t>());
    }
    return rule;
}

Outcome<FaultPlan> parseRules(const json& list, const std::string& at, FaultPlan plan)
{
    if (!list.is_array() || list.size() > 100)
        return wrong(at, "a list of up to 100 faults, such as [{\"kind\": \"duplicate\", \"rate\": 0.2}]");
    for (size_t i = 0; i < list.size(); ++i) {
        auto rule = parseRule(list[i], at + "[" + std::to_string(i) + "]");
        if (!rule)
            return rule.error();
        plan.rules.push_back(std::move(rule).value());
    }
    return plan;
}
} // namespace

Outcome<FaultPlan> parseFaultPlan(const json& value, const std::string& where)
{
    const std::string prefix = where.empty() ? std::string() : where + ".";
    if (value.is_array()) // the faults alone (a scenario's "faults", whose seed is the scenario's)
        return parseRules(value, where.empty() ? "faults" : where, FaultPlan {});
    if (!value.is_object())
        return wrong(where.empty() ? "the plan" : where,
            "an object such as {\"seed\": 7, \"faults\": [{\"kind\": \"duplicate\", \"rate\": 0.2}]}");
    for (const auto& [key, _] : value.items())
        if (key != "seed" && key != "faults")
            return wrong(prefix + key, "not a field of a fault plan (seed, faults)");
    FaultPlan plan;
    if (const auto seed = value.find("seed"); seed != value.end()) {
        if (!seed->is_number_integer() || seed->get<int64_t>() < 0)
            return wrong(prefix + "seed", "a whole number from 0");
        plan.seed = seed->get<uint64_t>();
    }
    const auto faults = value.find("faults");
    if (faults == value.end())
        return wrong(
            prefix + "faults", "a list of up to 100 faults, such as [{\"kind\": \"duplicate\", \"rate\": 0.2}]");
    return parseRules(*faults, prefix + "faults", std::move(plan));
}

json faultPlanJson(const FaultPlan& plan)
{
    json faults = json::array();
    for (const FaultRule& rule : plan.rules) {
        json r { { "kind", faultWords(rule.kind).id } };
        if (rule.at.empty())
            r["rate"] = rule.rate;
        else {
            r["at"] = json::array();
            for (const TimeMs t : rule.at)
                r["at"].push_back(formatDuration(t));
        }
        if (rule.from)
            r["from"] = formatDuration(*rule.from);
        if (rule.until)
            r["until"] = formatDuration(*rule.until);
        if (!rule.queue.empty())
            r["queue"] = rule.queue;
        if (!rule.action.empty())
            r["action"] = rule.action;
        if (rule.limit)
            r["limit"] = *rule.limit;
        if (rule.kind == FaultKind::Latency)
            r["delay"] = formatDuration(rule.delay);
        faults.push_back(std::move(r));
    }
    return { { "seed", plan.seed }, { "faults", std::move(faults) } };
}

json faultCountsJson(const FaultDice& dice)
{
    json out = json::object();
    for (size_t k = 0; k < size_t(FaultKind::Count); ++k)
        out[faultWords(FaultKind(k)).id] = dice.struck()[k];
    return out;
}

} // namespace lifeline::endpoint
