// A scenario with every queue turned standard or FIFO: the window's queue-type control. A queue's type is fixed when
// it is created, so this builds a new scenario (from the JSON it was read from, so its lesson fix still applies) and
// the run starts again. Names gain or lose ".fifo" everywhere they are mentioned.
#include "lifeline/scenario/scenario.h"

namespace lifeline::scenario {

namespace {

using json = nlohmann::json;

std::string convertedName(const std::string& name, bool fifo)
{
    const bool hasSuffix = name.size() > 5 && name.compare(name.size() - 5, 5, ".fifo") == 0;
    if (fifo && !hasSuffix)
        return name.size() + 5 <= 80 ? name + ".fifo" : name.substr(0, 75) + ".fifo";
    if (!fifo && hasSuffix)
        return name.substr(0, name.size() - 5);
    return name;
}

void renameAt(json& object, const char* key, bool fifo)
{
    if (object.is_object() && object.contains(key) && object[key].is_string())
        object[key] = convertedName(object[key].get<std::string>(), fifo);
}

} // namespace

std::variant<Scenario, ScenarioError> withQueueType(const Scenario& scenario, bool fifo)
{
    json source = scenario.source;
    if (!source.is_object() || !source.contains("queues") || !source["queues"].is_array())
        return ScenarioError { "queues", "the scenario has no queue list to convert", {} };
    for (auto& queue : source["queues"]) {
        renameAt(queue, "name", fifo);
        queue["type"] = fifo ? "fifo" : "standard";
        if (queue.contains("deadLetter"))
            renameAt(queue["deadLetter"], "queue", fifo);
        if (!fifo && queue.contains("attributes") && queue["attributes"].is_object())
            for (const char* fifoOnly :
                { "FifoQueue", "ContentBasedDeduplication", "DeduplicationScope", "FifoThroughputLimit" })
                queue["attributes"].erase(fifoOnly);
    }
    if (source.contains("topics") && source["topics"].is_array())
        for (auto& topic : source["topics"])
            if (topic.is_object() && topic.contains("subscriptions") && topic["subscriptions"].is_array())
                for (auto& subscription : topic["subscriptions"])
                    renameAt(subscription, "queue", fifo);
    for (const char* list : { "producers", "consumers", "lambdas" })
        if (source.contains(list) && source[list].is_array())
            for (auto& actor : source[list])
                renameAt(actor, "queue", fifo);
    if (source.contains("actions") && source["actions"].is_array())
        for (auto& action : source["actions"]) {
            renameAt(action, "purge", fifo);
            for (const char* kind : { "setAttributes", "send" })
                if (action.contains(kind))
                    renameAt(action[kind], "queue", fifo);
            if (action.contains("redrive")) {
                renameAt(action["redrive"], "source", fifo);
                renameAt(action["redrive"], "destination", fifo);
            }
        }
    if (source.contains("lesson") && source["lesson"].is_object() && source["lesson"].contains("moments")
        && source["lesson"]["moments"].is_array())
        for (auto& moment : source["lesson"]["moments"])
            renameAt(moment, "queue", fifo);
    return parseScenario(source);
}

} // namespace lifeline::scenario
