// SNS fan-out in a scenario: a topic's subscriptions, their filter policies, and the copies each queue receives.
#include "lifeline/analysis/summary.h"
#include "lifeline/run/event_text.h"
#include "lifeline/sim/simulation.h"
#include "scenario_text.h"
#include "sim/service_access.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using namespace lifeline::analysis;
using namespace lifeline::scenario;
using namespace lifeline::sim;

namespace {

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
    Simulation s(test::scenarioFrom(kShop));
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
    Simulation s(test::scenarioFrom(R"({"duration": "10s", "queues": [{"name": "q"}],
        "producers": [{"queue": "q", "messages": [{"at": "1s", "body": "x", "attributes": {"region": "eu"}}]}]})"));
    s.runToEnd();
    REQUIRE(s.engine().extra(0) != nullptr);
    CHECK(s.engine().extra(0)->attributes == std::vector<MessageAttribute> { { "region", { "String", "eu", {} } } });
}

namespace {
// A bucket's events to a queue with this policy and key; the run's refusals' texts, and what arrived.
struct S3Run {
    std::vector<std::string> refusals;
    int64_t sent = 0;
    std::string firstBody;
};

S3Run s3Run(const std::string& policy, const std::string& kmsKey, const std::string& keys = "[]")
{
    nlohmann::json scenario
        = nlohmann::json::parse(R"({"duration": "10s", "queues": [{"name": "scans", "attributes": {}}],
        "producers": [{"name": "uploads", "queue": "scans", "s3Bucket": "scan-bucket",
                       "messages": [{"at": "1s", "body": "page-1.pdf"}]}]})");
    scenario["kmsKeys"] = nlohmann::json::parse(keys);
    if (!policy.empty())
        scenario["queues"][0]["attributes"]["Policy"] = policy;
    if (!kmsKey.empty())
        scenario["queues"][0]["attributes"]["KmsMasterKeyId"] = kmsKey;
    Simulation s(test::scenarioFrom(scenario.dump()));
    s.runToEnd();
    S3Run out;
    const RunView& run = s.engine().run();
    for (size_t i = 0; i < run.log().size(); ++i)
        if (run.log()[i].cause == Cause::RequestRefused)
            out.refusals.push_back(run.log().text(run.log()[i].textIndex()));
    out.sent = s.summary().sent;
    if (run.messageCount() > 0)
        out.firstBody = std::string(run.message(0).body.view());
    return out;
}

std::string allowS3(const std::string& condition)
{
    return R"({"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"Service": "s3.amazonaws.com"},
        "Action": "SQS:SendMessage", "Resource": "arn:aws:sqs:us-east-1:000000000000:scans")"
        + (condition.empty() ? std::string() : ", \"Condition\": " + condition) + "}]}";
}
} // namespace

TEST_CASE("S3 events reach a queue whose policy allows S3 for the bucket - others are dropped with the reason",
    "[fan-out][s3]")
{
    const auto allowed = s3Run(allowS3(R"({"ArnLike": {"aws:SourceArn": "arn:aws:s3:*:*:scan-*"}})"), "");
    CHECK(allowed.refusals.empty());
    CHECK(allowed.sent == 1);
    const auto event = nlohmann::json::parse(allowed.firstBody);
    CHECK(event["Records"][0]["eventSource"] == "aws:s3");
    CHECK(event["Records"][0]["s3"]["bucket"]["name"] == "scan-bucket");
    CHECK(event["Records"][0]["s3"]["object"]["key"] == "page-1.pdf");

    CHECK(s3Run("", "").refusals
        == std::vector<std::string> {
            "AccessDenied: no statement of scans's policy allows s3.amazonaws.com "
            "sqs:SendMessage for arn:aws:s3:::scan-bucket; the event is dropped (page-1.pdf)" });
    // Another bucket's condition, an account that is not the bucket's, a condition Lifeline does not read.
    CHECK(s3Run(allowS3(R"({"ArnEquals": {"aws:SourceArn": "arn:aws:s3:::other"}})"), "").sent == 0);
    CHECK(s3Run(allowS3(R"({"StringEquals": {"aws:SourceAccount": "111122223333"}})"), "").sent == 0);
    CHECK(s3Run(allowS3(R"({"StringEquals": {"aws:SourceAccount": "000000000000"}})"), "").sent == 1);
    CHECK(s3Run(allowS3(R"({"IpAddress": {"aws:SourceIp": "10.0.0.0/8"}})"), "").sent == 0);
    const std::string denied = R"({"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "sqs:*"},
        {"Effect": "Deny", "Principal": {"AWS": "*"}, "Action": "sqs:Send*"}]})";
    CHECK(s3Run(denied, "").refusals
        == std::vector<std::string> { "AccessDenied: a Deny statement of scans's policy refuses s3.amazonaws.com "
                                      "sqs:SendMessage; the event is dropped (page-1.pdf)" });
}

TEST_CASE(
    "S3 events to an SSE-KMS queue: the AWS managed key refuses S3 - a customer key must allow it", "[fan-out][s3]")
{
    const std::string policy = allowS3("");
    CHECK(s3Run(policy, "alias/aws/sqs").refusals
        == std::vector<std::string> { "KMS.AccessDeniedException: alias/aws/sqs is the AWS managed key: its key policy "
                                      "cannot be changed to let s3.amazonaws.com use it; the event is dropped "
                                      "(page-1.pdf)" });
    CHECK(s3Run(policy, "alias/scans", R"([{"alias": "alias/scans"}])").refusals
        == std::vector<std::string> { "KMS.AccessDeniedException: the key policy of alias/scans does not let "
                                      "s3.amazonaws.com use it (kms:GenerateDataKey, kms:Decrypt); the event is "
                                      "dropped (page-1.pdf)" });
    CHECK(
        s3Run(policy, "alias/scans", R"([{"alias": "alias/scans", "allowServices": ["s3.amazonaws.com"]}])").sent == 1);
}

TEST_CASE("IAM patterns: * any run - ? one character - case only where asked", "[fan-out][s3]")
{
    CHECK(iamPatternMatches("arn:aws:s3:::scan-*", "arn:aws:s3:::scan-bucket"));
    CHECK(iamPatternMatches("*", ""));
    CHECK(iamPatternMatches("a?c*", "abcdef"));
    CHECK_FALSE(iamPatternMatches("a?c", "ac"));
    CHECK_FALSE(iamPatternMatches("SQS:SendMessage", "sqs:sendmessage"));
    CHECK(iamPatternMatches("SQS:SendMessage", "sqs:sendmessage", true));
    CHECK(iamPatternMatches("*:*:scan", "arn:x:scan"));
    CHECK_FALSE(iamPatternMatches("*:scan", "arn:x:scans"));
}

TEST_CASE("a subscription writes its statement into the queue's policy - without it SNS's copies are dropped",
    "[fan-out][s3]")
{
    const std::string scenario = R"({"duration": "10s", "queues": [{"name": "a"}, {"name": "b"}],
        "topics": [{"name": "t", "subscriptions": [{"queue": "a"}, {"queue": "b", "queuePolicy": false}]}],
        "producers": [{"topic": "t", "messages": [{"at": "1s", "label": "news"}]}]})";
    Simulation s(test::scenarioFrom(scenario));
    s.runToEnd();
    const auto policy = nlohmann::json::parse(s.engine().getQueueAttributes("a", { "Policy" }).value().at("Policy"));
    CHECK(policy["Statement"]
        == nlohmann::json::parse(
            R"([{"Sid": "topic-t", "Effect": "Allow", "Principal": {"Service": "sns.amazonaws.com"},
            "Action": "sqs:SendMessage", "Resource": "arn:aws:sqs:us-east-1:000000000000:a",
            "Condition": {"ArnEquals": {"aws:SourceArn": "arn:aws:sns:us-east-1:000000000000:t"}}}])"));
    CHECK(s.engine().getQueueAttributes("b", { "Policy" }).value().count("Policy") == 0);
    const RunSummary summary = s.summary();
    CHECK(summary.queues.at("a").sent == 1);
    CHECK(summary.queues.count("b") == 0);
    CHECK(summary.errorsByCode == std::map<std::string, int64_t> { { "AccessDenied", 1 } });
}

namespace {
// A producer in `account` sends one order to the queue orders with `policy`: what SQS refused, and how many arrived.
S3Run accountRun(const std::string& account, const std::string& policy)
{
    nlohmann::json scenario = nlohmann::json::parse(R"({"duration": "10s", "queues": [{"name": "orders"}],
        "producers": [{"name": "partner", "queue": "orders", "messages": [{"at": "1s", "body": "order 1"}]}]})");
    scenario["producers"][0]["account"] = account;
    if (!policy.empty())
        scenario["queues"][0]["attributes"] = { { "Policy", policy } };
    Simulation s(test::scenarioFrom(scenario.dump()));
    s.runToEnd();
    S3Run out;
    const RunView& run = s.engine().run();
    for (size_t i = 0; i < run.log().size(); ++i)
        if (run.log()[i].cause == Cause::RequestRefused)
            out.refusals.push_back(run.log().text(run.log()[i].textIndex()));
    out.sent = s.summary().sent;
    return out;
}

std::string policyFor(const std::string& effect, const std::string& principal, const std::string& action)
{
    return R"({"Version": "2012-10-17", "Statement": [{"Effect": ")" + effect + R"(", "Principal": )" + principal
        + R"(, "Action": ")" + action + R"(", "Resource": "arn:aws:sqs:us-east-1:000000000000:orders"}]})";
}
} // namespace

TEST_CASE("a producer of another account sends only when the queue's policy names its account - else SQS's "
          "AccessDenied",
    "[fan-out][account]")
{
    const std::string denied = "AccessDenied: Access to the resource "
                               "https://sqs.us-east-1.amazonaws.com/000000000000/orders is denied. (order 1)";
    const auto none = accountRun("111122223333", "");
    CHECK(none.refusals == std::vector<std::string> { denied });
    CHECK(none.sent == 0);
    // The queue's own account is let in by its identity policies, not by the queue's.
    CHECK(accountRun("000000000000", "").sent == 1);
    const std::string root = R"({"AWS": "arn:aws:iam::111122223333:root"})";
    CHECK(accountRun("111122223333", policyFor("Allow", root, "sqs:SendMessage")).sent == 1);
    CHECK(accountRun("111122223333", policyFor("Allow", R"({"AWS": ["111122223333"]})", "SQS:*")).sent == 1);
    CHECK(accountRun("111122223333", policyFor("Allow", R"("*")", "sqs:SendMessage")).sent == 1);
    // Another account named, another action, a service principal, a Deny beside an Allow: refused.
    CHECK(accountRun(
              "111122223333", policyFor("Allow", R"({"AWS": "arn:aws:iam::444455556666:root"})", "sqs:SendMessage"))
              .refusals
        == std::vector<std::string> { denied });
    CHECK(accountRun("111122223333", policyFor("Allow", root, "sqs:ReceiveMessage")).sent == 0);
    CHECK(accountRun("111122223333", policyFor("Allow", R"({"Service": "sns.amazonaws.com"})", "sqs:SendMessage")).sent
        == 0);
    const std::string both = R"({"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Principal": "*", "Action": "sqs:SendMessage"},
        {"Effect": "Deny", "Principal": {"AWS": "111122223333"}, "Action": "sqs:*"}]})";
    CHECK(accountRun("111122223333", both).sent == 0);
    // Checked at load: twelve digits, and only for a producer that sends to a queue itself.
    CHECK(problems(R"({"queues": [{"name": "orders"}], "producers": [{"queue": "orders", "account": "1234"}]})")
        == "producers[0].account: must be an AWS account id, 12 digits, got \"1234\"");
}

namespace {
// The alarm's changes in a run of the DLQ lesson's shape with `metric`: what each mark says, and when.
std::vector<std::pair<TimeMs, std::string>> alarmChanges(const std::string& metric, int threshold = 0)
{
    nlohmann::json scenario = nlohmann::json::parse(R"({"duration": "4m",
        "queues": [{"name": "dlq"}, {"name": "orders", "attributes": {"VisibilityTimeout": 20},
                    "deadLetter": {"queue": "dlq", "maxReceiveCount": 3}}],
        "producers": [{"name": "shop", "queue": "orders", "messages": [{"at": "2s", "body": "poison order"}]}],
        "consumers": [{"name": "worker", "queue": "orders", "processing": "1s"}]})");
    scenario["alarms"]
        = { { { "name", "dlq-watch" }, { "queue", "dlq" }, { "metric", metric }, { "threshold", threshold } } };
    Simulation s(test::scenarioFrom(scenario.dump()));
    s.runToEnd();
    std::vector<std::pair<TimeMs, std::string>> out;
    const RunView& run = s.engine().run();
    for (size_t i = 0; i < run.log().size(); ++i)
        if (run.log()[i].cause == Cause::AlarmFired || run.log()[i].cause == Cause::AlarmOk)
            out.emplace_back(run.log()[i].time, run.log().text(run.log()[i].textIndex()));
    CHECK(s.summary().alarmsFired == int64_t(std::count_if(out.begin(), out.end(), [](const auto& c) {
        return c.second.find(": ALARM") != std::string::npos;
    })));
    return out;
}
} // namespace

TEST_CASE("a CloudWatch alarm: OK after its first period - the DLQ's visible count fires - its sends never count a "
          "redrive move",
    "[alarm]")
{
    // The poison order is received at 2, 22 and 42 s and moved to the DLQ by the receive at 62 s.
    const auto visible = alarmChanges("ApproximateNumberOfMessagesVisible");
    CHECK(visible
        == std::vector<std::pair<TimeMs, std::string>> {
            { 60000, "dlq-watch: OK, ApproximateNumberOfMessagesVisible 0 <= 0 for 1 min" },
            { 120000, "dlq-watch: ALARM, ApproximateNumberOfMessagesVisible 1 > 0 for 1 min" } });
    const auto sent = alarmChanges("NumberOfMessagesSent");
    CHECK(sent
        == std::vector<std::pair<TimeMs, std::string>> {
            { 60000, "dlq-watch: OK, NumberOfMessagesSent 0 <= 0 for 1 min" } });
    CHECK(alarmChanges("ApproximateNumberOfMessagesVisible", 1).size() == 1); // 1 is not above 1
    CHECK(problems(R"({"queues": [{"name": "q"}], "alarms": [{"queue": "q", "metric": "NumberOfMessagesDeleted"}]})")
        == "alarms[0].metric: must be ApproximateNumberOfMessagesVisible, NumberOfMessagesSent or "
           "ApproximateAgeOfOldestMessage (the metrics Lifeline evaluates), got \"NumberOfMessagesDeleted\"");
    CHECK(problems(R"({"queues": [{"name": "q"}], "alarms": [{"queue": "q", "metric": "NumberOfMessagesSent",
        "period": "90s"}]})")
        == "alarms[0].period: must be whole minutes from 1m to 1d (SQS's metrics are a minute's), got \"90s\"");
    CHECK(problems(R"({"queues": [{"name": "q"}], "alarms": [{"queue": "qq", "metric": "NumberOfMessagesSent"}]})")
        == "alarms[0].queue: no queue is named \"qq\"; did you mean \"q\"?");
}

TEST_CASE("a CloudWatch alarm on ApproximateAgeOfOldestMessage: a queue nobody reads fires - a message received three "
          "times is left out",
    "[alarm]")
{
    const auto changes = [](const std::string& consumers) {
        Simulation s(
            test::scenarioFrom(R"({"duration": "2m", "queues": [{"name": "q", "attributes": {"VisibilityTimeout": 10}}],
            "alarms": [{"name": "age", "queue": "q", "metric": "ApproximateAgeOfOldestMessage", "threshold": 30}],
            "producers": [{"queue": "q", "messages": [{"at": "5s", "body": "job"}]}],
            "consumers": [)"
                + consumers + "]}"));
        s.runToEnd();
        std::vector<std::pair<TimeMs, std::string>> out;
        const RunView& run = s.engine().run();
        for (size_t i = 0; i < run.log().size(); ++i)
            if (run.log()[i].cause == Cause::AlarmFired || run.log()[i].cause == Cause::AlarmOk)
                out.emplace_back(run.log()[i].time, run.log().text(run.log()[i].textIndex()));
        CHECK(s.summary().firstAlarmMs
            == (out.empty() || out[0].second.find(": ALARM") == std::string::npos ? 0 : out[0].first));
        return out;
    };
    // Nobody reads: at 1 min the job has waited 55 s, whole seconds from its enqueue at 5 s.
    CHECK(changes("")
        == std::vector<std::pair<TimeMs, std::string>> {
            { 60000, "age: ALARM, ApproximateAgeOfOldestMessage 55 > 30 for 1 min" } });
    // A worker that fails it every time receives it at 5, 15, 25 s ...: from its third receive it is set aside, and
    // the queue's oldest message is none.
    CHECK(changes(R"({"queue": "q", "processing": "1s", "failureProbability": 1})")
        == std::vector<std::pair<TimeMs, std::string>> {
            { 60000, "age: OK, ApproximateAgeOfOldestMessage 0 <= 30 for 1 min" } });
}
