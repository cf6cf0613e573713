// Reading a scenario's `script`: timed single calls by named clients. Each step names its call and what it needs;
// a step that names a queue, consumer, label or earlier receive the scenario lacks is a load error with its path,
// like every other field.
#include "lifeline/endpoint/sqs_action.h"
#include "lifeline/support/duration.h"
#include "scenario_reading.h"

#include <array>
#include <set>

namespace lifeline::scenario {

namespace {

using nlohmann::json;
using Call = ScriptStep::Call;

// A script's calls: SQS's, named as SQS names them, and two of Lifeline's own.
constexpr std::string_view sqsName(endpoint::SqsAction action)
{
    return endpoint::nameOf(action);
}
constexpr std::array<std::pair<std::string_view, Call>, 8> kCalls {
    std::pair { sqsName(endpoint::SqsAction::SendMessage), Call::SendMessage },
    std::pair { sqsName(endpoint::SqsAction::ReceiveMessage), Call::ReceiveMessage },
    std::pair { sqsName(endpoint::SqsAction::DeleteMessage), Call::DeleteMessage },
    std::pair { sqsName(endpoint::SqsAction::ChangeMessageVisibility), Call::ChangeMessageVisibility },
    std::pair { sqsName(endpoint::SqsAction::SetQueueAttributes), Call::SetQueueAttributes },
    std::pair { sqsName(endpoint::SqsAction::PurgeQueue), Call::PurgeQueue },
    std::pair { std::string_view("stopConsumer"), Call::StopConsumer },
    std::pair { std::string_view("startConsumer"), Call::StartConsumer },
};

// The keys each call takes (besides at, as and call).
std::set<std::string> keysOf(Call call)
{
    switch (call) {
    case Call::SendMessage:
        return { "queue", "label", "body", "delaySeconds", "groupId", "deduplicationId" };
    case Call::ReceiveMessage:
        return { "queue", "waitTimeSeconds", "maxMessages", "visibilityTimeout" };
    case Call::DeleteMessage:
        return { "queue", "message" };
    case Call::ChangeMessageVisibility:
        return { "queue", "message", "visibilityTimeout" };
    case Call::SetQueueAttributes:
        return { "queue", "attributes" };
    case Call::PurgeQueue:
        return { "queue" };
    case Call::StopConsumer:
    case Call::StartConsumer:
        return { "consumer" };
    }
    return {};
}

// A reader of one step: each problem is reported with its path and the step goes on being read, so one pass finds
// them all.
class StepReader {
public:
    StepReader(const json& v, std::string path)
        : m_v(v)
        , m_path(std::move(path))
    {
    }

    std::optional<std::string> text(const char* key, bool required)
    {
        const auto it = m_v.find(key);
        if (it == m_v.end()) {
            if (required)
                reading::report(m_path + "." + key, "is required");
            return std::nullopt;
        }
        if (!it->is_string() || it->get<std::string>().empty()) {
            reading::report(m_path + "." + key, "must be a non-empty string, got " + it->dump());
            return std::nullopt;
        }
        return it->get<std::string>();
    }

    std::optional<int64_t> integer(const char* key, int64_t low, int64_t high, bool required = false)
    {
        const auto it = m_v.find(key);
        if (it == m_v.end()) {
            if (required)
                reading::report(m_path + "." + key, "is required");
            return std::nullopt;
        }
        if (!it->is_number_integer() || it->get<int64_t>() < low || it->get<int64_t>() > high) {
            reading::report(m_path + "." + key,
                "must be a whole number from " + std::to_string(low) + " to " + std::to_string(high) + ", got "
                    + it->dump());
            return std::nullopt;
        }
        return it->get<int64_t>();
    }

    const json& value() const { return m_v; }
    const std::string& path() const { return m_path; }

private:
    const json& m_v;
    std::string m_path;
};

std::set<std::string> consumerNames(const Scenario& scenario)
{
    std::set<std::string> names;
    for (const ConsumerSpec& c : scenario.consumers)
        for (int64_t k = 1; k <= c.count; ++k)
            names.insert(c.count == 1 ? c.name : c.name + "-" + std::to_string(k));
    return names;
}

struct ScriptContext {
    std::vector<std::string> queues;
    std::set<std::string> consumers;
    std::set<std::string> labels; // defined by the steps read so far
    std::vector<Call> calls; // of the steps read so far
};

void readQueue(StepReader& r, ScriptStep& step, const ScriptContext& context)
{
    // One queue needs no name; with several the step names it.
    if (!r.value().contains("queue") && context.queues.size() == 1) {
        step.queue = context.queues.front();
        return;
    }
    const auto queue = r.text("queue", true);
    if (!queue)
        return;
    step.queue = *queue;
    if (std::find(context.queues.begin(), context.queues.end(), *queue) == context.queues.end()) {
        const std::string near = reading::nearest(*queue, context.queues);
        reading::report(r.path() + ".queue",
            "no queue named \"" + *queue + "\" in the scenario"
                + (near.empty() ? "" : "; did you mean \"" + near + "\"?"));
    }
}

void readMessageReference(StepReader& r, ScriptStep& step, const ScriptContext& context, size_t index)
{
    const std::string path = r.path() + ".message";
    const auto it = r.value().find("message");
    if (it == r.value().end()) {
        reading::report(path, "is required: a label, or {\"receivedBy\": N} for what step N received");
    } else if (it->is_string()) {
        step.messageLabel = it->get<std::string>();
        if (!context.labels.contains(step.messageLabel))
            reading::report(path, "no earlier SendMessage step has the label \"" + step.messageLabel + "\"");
    } else if (it->is_object() && it->size() == 1 && it->contains("receivedBy")
        && (*it)["receivedBy"].is_number_integer()) {
        const int64_t n = (*it)["receivedBy"].get<int64_t>();
        if (n < 1 || size_t(n) > index || context.calls[size_t(n - 1)] != Call::ReceiveMessage)
            reading::report(path + ".receivedBy",
                "must be the number (from 1) of an earlier ReceiveMessage step, got " + std::to_string(n));
        else
            step.receivedBy = size_t(n);
    } else {
        reading::report(path, "must be a label or {\"receivedBy\": N}, got " + it->dump());
    }
}

void readCallFields(StepReader& r, ScriptStep& step, ScriptContext& context, size_t index)
{
    switch (step.call) {
    case Call::SendMessage:
        step.label = r.text("label", false).value_or("");
        step.message.body = r.text("body", false).value_or(step.label.empty() ? "message" : step.label);
        step.message.delaySeconds = r.integer("delaySeconds", INT32_MIN, INT32_MAX); // SQS judges the range
        if (const auto group = r.text("groupId", false))
            step.message.groupId = group;
        if (const auto dedup = r.text("deduplicationId", false))
            step.message.deduplicationId = dedup;
        if (!step.label.empty() && !context.labels.insert(step.label).second)
            reading::report(r.path() + ".label", "another step already has the label \"" + step.label + "\"");
        break;
    case Call::ReceiveMessage:
        step.waitTimeSeconds = r.integer("waitTimeSeconds", 0, 20);
        step.maxMessages = r.integer("maxMessages", 1, 10);
        step.visibilityTimeout = r.integer("visibilityTimeout", 0, 43200);
        break;
    case Call::DeleteMessage:
        readMessageReference(r, step, context, index);
        break;
    case Call::ChangeMessageVisibility:
        readMessageReference(r, step, context, index);
        // SQS judges the value (over 43,200 is its own error, shown on the timeline).
        step.visibilityTimeout = r.integer("visibilityTimeout", INT32_MIN, INT32_MAX, true);
        break;
    case Call::SetQueueAttributes: {
        const auto it = r.value().find("attributes");
        if (it == r.value().end() || !it->is_object() || it->empty()) {
            reading::report(r.path() + ".attributes", "must be an object of SQS attribute names and values");
            break;
        }
        for (const auto& [name, value] : it->items())
            step.attributes[name] = value.is_string() ? value.get<std::string>() : value.dump();
        break;
    }
    case Call::PurgeQueue:
        break;
    case Call::StopConsumer:
    case Call::StartConsumer:
        if (const auto consumer = r.text("consumer", true)) {
            step.consumer = *consumer;
            if (!context.consumers.contains(*consumer))
                reading::report(r.path() + ".consumer", "no consumer named \"" + *consumer + "\" in the scenario");
        }
        break;
    }
}

std::optional<ScriptStep> readStep(const json& v, const std::string& path, ScriptContext& context, size_t index)
{
    if (!v.is_object()) {
        reading::report(path, "must be an object with \"at\" and \"call\"");
        return std::nullopt;
    }
    StepReader r(v, path);
    ScriptStep step;
    const auto call = r.text("call", true);
    if (!call)
        return std::nullopt;
    const auto known = std::find_if(kCalls.begin(), kCalls.end(), [&](const auto& c) { return *call == c.first; });
    if (known == kCalls.end()) {
        std::string list;
        for (const auto& c : kCalls) {
            list += list.empty() ? "" : ", ";
            list += c.first;
        }
        reading::report(path + ".call", "unknown call \"" + *call + "\"; known are " + list);
        return std::nullopt;
    }
    step.call = known->second;
    if (const auto at = r.text("at", true)) {
        const auto parsed = parseDuration(*at);
        if (!parsed || *parsed < 0)
            reading::report(path + ".at", "must be a duration such as \"100s\" or \"2m\", got \"" + *at + "\"");
        else
            step.at = *parsed;
    }
    if (v.contains("as"))
        step.as = r.text("as", false).value_or(step.as);
    const std::set<std::string> keys = keysOf(step.call);
    for (const auto& item : v.items())
        if (item.key() != "at" && item.key() != "as" && item.key() != "call" && !keys.contains(item.key()))
            reading::report(path + "." + item.key(), "not a key of " + *call);
    if (step.call != Call::StopConsumer && step.call != Call::StartConsumer)
        readQueue(r, step, context);
    readCallFields(r, step, context, index);
    return step;
}

} // namespace

const char* toString(ScriptStep::Call call)
{
    for (const auto& c : kCalls)
        if (c.second == call)
            return c.first.data(); // every name is a string literal, so its view ends in a NUL
    return "?";
}

namespace reading {

std::vector<ScriptStep> readScript(const json& list, const std::string& path, const Scenario& scenario)
{
    std::vector<ScriptStep> steps;
    if (!list.is_array()) {
        report(path, "must be a list of steps");
        return steps;
    }
    ScriptContext context;
    for (const QueueSpec& q : scenario.queues)
        context.queues.push_back(q.name);
    context.consumers = consumerNames(scenario);
    for (size_t i = 0; i < list.size(); ++i) {
        const auto step = readStep(list[i], at(path, i), context, i);
        context.calls.push_back(step ? step->call : Call::PurgeQueue);
        if (step)
            steps.push_back(*step);
    }
    return steps;
}

} // namespace reading

} // namespace lifeline::scenario
