// SNS fan-out in a scenario: a topic's subscriptions, their filter policies, and the copies each queue receives.
#include "lifeline/analysis/summary.h"
#include "lifeline/run/event_text.h"
#include "lifeline/sim/simulation.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using namespace lifeline::sim;

namespace {
Scenario load(const std::string& json)
{
    auto parsed = parseScenario(json);
    if (auto* error = std::get_if<ScenarioError>(&parsed))
        FAIL(error->text());
    return std::get<Scenario>(std::move(parsed));
}

std::string problems(const std::string& json)
{
    auto parsed = parseScenario(json);
    const auto* error = std::get_if<ScenarioError>(&parsed);
    return error ? error->text() : std::string("(loaded)");
}

const char* kShop = R"({"duration": "1m",
    "queues": [{"name": "invoicing"}, {"name": "shipping"}, {"name": "customs"}],
    "topics": [{"name": "orders", "subscriptions": [{"queue": "invoicing"}, {"queue": "shipping"},
        {"queue": "customs", "filterPolicy": {"region": ["eu", {"prefix": "eu-"}]}}]}],
    "producers": [{"name": "shop", "topic": "orders", "messages": [
        {"at": "1s", "label": "order 1", "attributes": {"region": "eu"}},
        {"at": "2s", "label": "order 2", "attributes": {"region": "us"}},
        {"at": "3s", "label": "order 3", "attributes": {"region": "eu-north"}},
        {"at": "4s", "label": "order 4"}]}],
    "consumers": [{"name": "billing", "queue": "invoicing", "processing": "1s"},
                  {"name": "packer", "queue": "shipping", "processing": "1s"},
                  {"name": "broker", "queue": "customs", "processing": "1s"}]})";
} // namespace

TEST_CASE("a topic delivers a copy to every subscribed queue its filter policy lets in, sent by the topic", "[fan-out]")
{
    Simulation s(load(kShop));
    s.runToEnd();
    const RunSummary summary = s.summary();
    CHECK(summary.sent == 10); // 4 orders to invoicing and shipping, 2 of them to customs
    CHECK(summary.queues.at("invoicing").sent == 4);
    CHECK(summary.queues.at("shipping").sent == 4);
    CHECK(summary.queues.at("customs").sent == 2);
    CHECK(summary.queues.at("customs").deleted == 2);
    CHECK(summary.toJson()["queues"]["shipping"]["deleted"] == 4);
    // Each copy is its own message, sent at the publish's instant by the topic, labelled as published.
    const RunView& run = s.engine().run();
    std::vector<std::string> customs;
    for (size_t i = 0; i < run.log().size(); ++i) {
        const Event& e = run.log()[i];
        if (e.cause != Cause::Send)
            continue;
        CHECK(run.actorName(e.actor) == "SNS topic orders");
        if (run.queueInfo(e.queue).name == "customs")
            customs.push_back(run.extra(e.message)->label + " at " + std::to_string(e.time));
    }
    CHECK(customs == std::vector<std::string> { "order 1 at 1000", "order 3 at 3000" });
}

TEST_CASE("a filter policy: every attribute it names must match one of its conditions", "[fan-out]")
{
    SubscriptionSpec s;
    s.filterPolicy["region"] = { FilterCondition { FilterCondition::Kind::AnythingBut, { "us" }, true } };
    s.filterPolicy["tier"] = { FilterCondition { FilterCondition::Kind::Exists, {}, false } };
    CHECK(s.accepts({ { "region", "eu" } }));
    CHECK_FALSE(s.accepts({ { "region", "us" } }));
    CHECK_FALSE(s.accepts({})); // anything-but needs the attribute
    CHECK_FALSE(s.accepts({ { "region", "eu" }, { "tier", "gold" } })); // exists: false
    CHECK(SubscriptionSpec {}.accepts({})); // no policy: everything
}

TEST_CASE("a scenario's topics are refused with the field and what SNS allows", "[fan-out]")
{
    const std::string queues = R"("queues": [{"name": "a"}, {"name": "b.fifo", "type": "fifo"}], "duration": "1m",)";
    CHECK(problems("{" + queues + R"("topics": [{"name": "t", "subscriptions": [{"queue": "b.fifo"}]}]})")
        == "topics[0].subscriptions[0].queue: an SNS standard topic cannot deliver to the FIFO queue \"b.fifo\"");
    CHECK(problems("{" + queues + R"("topics": [{"name": "t", "subscriptions": [{"queue": "c"}]}]})")
        == "topics[0].subscriptions[0].queue: no queue is named \"c\"; did you mean \"a\"?");
    CHECK(problems("{" + queues + R"("topics": [{"name": "t", "subscriptions": []}]})")
        == "topics[0].subscriptions: must list at least one queue, as [{\"queue\": \"shipping\"}]");
    CHECK(
        problems("{" + queues
            + R"("topics": [{"name": "t", "subscriptions": [{"queue": "a", "filterPolicy": {"r": [{"suffix": "x"}]}}]}]})")
        == "topics[0].subscriptions[0].filterPolicy.r[0].suffix: unknown key; known keys are anything-but prefix "
           "exists");
    CHECK(problems("{" + queues + R"("topics": [{"name": "t", "subscriptions": [{"queue": "a"}]}],
        "producers": [{"topic": "u"}]})")
        == "producers[0].topic: no topic is named \"u\"");
    CHECK(problems("{" + queues + R"("topics": [{"name": "t", "subscriptions": [{"queue": "a"}]}],
        "producers": [{"topic": "t", "messages": [{"at": "1s", "body": "x", "delaySeconds": 5}]}]})")
        == "producers[0].messages[0]: a publish to an SNS standard topic takes no delaySeconds, groupId or "
           "deduplicationId");
    CHECK(problems("{" + queues + R"("producers": [{"queue": "a", "messages": [{"at": "1s", "body": "x",
        "attributes": {"n": 5}}]}]})")
        == "producers[0].messages[0].attributes.n: must be a string");
}

TEST_CASE("a message's attributes reach SQS as String message attributes", "[fan-out]")
{
    Simulation s(load(R"({"duration": "10s", "queues": [{"name": "q"}],
        "producers": [{"queue": "q", "messages": [{"at": "1s", "body": "x", "attributes": {"region": "eu"}}]}]})"));
    s.runToEnd();
    REQUIRE(s.engine().extra(0) != nullptr);
    CHECK(s.engine().extra(0)->attributes == std::vector<MessageAttribute> { { "region", { "String", "eu", {} } } });
}
