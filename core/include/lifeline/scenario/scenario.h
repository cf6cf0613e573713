// A scenario: queues, actors, timed actions, duration and seed; for a lesson also its texts and its fix.
// Read from JSON (see docs/scenario-format.md); a file either loads whole or not at all.
#pragma once

#include "lifeline/analysis/moments.h"
#include "lifeline/engine/faults.h"
#include "lifeline/run/event_log.h"
#include "lifeline/run/queue_attributes.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace lifeline::scenario {

// How long one piece of work takes.
struct Distribution {
    enum class Kind { Fixed, Uniform, Exponential, Normal, LogNormal, Samples } kind = Kind::Fixed;
    TimeMs a = 1000; // fixed value, uniform low, exponential mean, normal mean, log-normal p50
    TimeMs b = 0; // uniform high, normal standard deviation, log-normal p99
    std::vector<TimeMs> samples; // Samples: each draw is one of them, equally likely (measured processing times)
};

struct QueueSpec {
    std::string name;
    bool fifo = false;
    AttributeMap attributes; // SQS attribute names, values as SQS takes them
    std::optional<std::string> deadLetterQueue; // name of another queue in the scenario
    int64_t maxReceiveCount = 0;
};

// The largest body a producer pads to (`bodyBytes`): past SQS's 1 MiB, to show it refused.
inline constexpr int64_t kLargestPaddedBody = int64_t(2) * 1024 * 1024;

// A message's label: a few words, as a lane's name ("the retry", "order 4 (poison)").
inline constexpr size_t kMaxLabelBytes = 64;

struct TimedMessage {
    TimeMs at = 0;
    std::string body;
    std::optional<int64_t> delaySeconds;
    std::optional<std::string> groupId;
    std::optional<std::string> deduplicationId;
    bool expectRefused = false; // the send is meant to be refused (a lesson shows SQS's answer)
    std::string label; // what the lesson calls it ("the retry"); its lane is named so (none: its body's first words)
    // Message attributes, each a String: what an SNS subscription's filter policy reads (and a consumer may).
    std::map<std::string, std::string> attributes;
};

struct ProducerSpec {
    std::string name;
    std::string queue; // where it sends; empty when it publishes to a topic
    std::string topic; // an SNS topic of the scenario's (fan-out); empty when it sends to a queue
    // Its messages are this S3 bucket's event notifications: S3 (the service principal s3.amazonaws.com) sends each
    // as an S3 event naming the object (the message's body), if the queue's policy and encryption key let it.
    std::string s3Bucket;
    // The AWS account it sends from, when not the queue's (000000000000): its calls reach the queue only if the
    // queue's policy allows that account sqs:SendMessage (its own IAM policy is taken to allow them).
    std::string account;
    double rate = 0; // messages per second; 0: none
    TimeMs start = 0;
    std::optional<TimeMs> stop;
    std::optional<int64_t> count; // stop after this many rate-driven messages
    std::vector<std::pair<TimeMs, int64_t>> bursts; // at, how many
    std::vector<TimedMessage> messages;
    std::string body = "message-{n}"; // {n} is the producer's message number, from 1
    std::optional<int64_t> bodyBytes; // each body padded with spaces to this size (large messages), up to 2 MiB
    std::optional<int64_t> delaySeconds; // a message timer on every message
    int64_t groups = 1; // FIFO: group ids g1..gN, round robin
    std::string
        groupId; // every message's MessageGroupId (a standard queue's tenant, a FIFO queue's one group); "": none
    int64_t poisonEvery = 0; // every Nth message's body says "poison"
    bool expectRefused = false; // its sends are meant to be refused (a lesson shows SQS's answer)
    // A burst's messages go in SendMessageBatch calls of up to this many (and up to 1 MiB of bodies): one request
    // each. 1: a SendMessage a message. Rate-driven and listed messages are sent one a call.
    int64_t sendBatch = 1;
};

// One condition of an SNS filter policy on a message attribute: the attribute is one of `values` (Equals), none of
// them (AnythingBut), starts with values[0] (Prefix), or is present or not (Exists).
struct FilterCondition {
    enum class Kind { Equals, AnythingBut, Prefix, Exists } kind = Kind::Equals;
    std::vector<std::string> values;
    bool exists = true;
    bool matches(const std::string* value) const; // the attribute's value, nullptr when the message has none
};

// A queue subscribed to a topic, with raw message delivery: a copy's body is the published body, its message
// attributes the published ones. A filter policy (its MessageAttributes scope) lets a copy in when, for every
// attribute it names, one of that attribute's conditions holds; no policy lets every message in.
struct SubscriptionSpec {
    std::string queue;
    // The subscription adds a statement allowing the topic to the queue's policy, as the console and the CDK do;
    // without it the queue's own policy must allow sns.amazonaws.com.
    bool addsQueuePolicy = true;
    std::map<std::string, std::vector<FilterCondition>> filterPolicy;
    bool accepts(const std::map<std::string, std::string>& attributes) const;
};

// An SNS standard topic, simulated as far as fan-out needs: a publish is delivered at once to every subscription
// that accepts it (docs/scenario-format.md, `topics`).
struct TopicSpec {
    std::string name;
    std::vector<SubscriptionSpec> subscriptions;
};

// A customer managed KMS key a queue may be encrypted with (KmsMasterKeyId): its alias, and the AWS services its key
// policy lets use it (kms:GenerateDataKey and kms:Decrypt), as "s3.amazonaws.com". The AWS managed key alias/aws/sqs
// is always there and lets no service in: its key policy cannot be changed.
struct KmsKeySpec {
    std::string alias;
    std::vector<std::string> allowServices;
};

struct CrashSpec {
    TimeMs at = 0;
    std::optional<TimeMs> restartAt;
};

// Target tracking on the backlog per consumer, as an autoscaling policy does: every `every` it looks at the queue's
// visible messages and sets the consumers to ceil(visible / backlogPerConsumer) within [min, max]. A consumer added
// starts receiving `warmUp` later; one taken away stops before its next receive, its work done.
struct ScalingSpec {
    int64_t backlogPerConsumer = 10;
    int64_t min = 1;
    int64_t max = 10;
    TimeMs every = 60000; // a CloudWatch metric's period
    TimeMs warmUp = 60000; // from the decision to the new consumer's first receive
};

// A client's SDK retrying a call SQS refused for its own reasons (a fault plan's throttling, 500, 503 ...: the
// errors the SDKs' standard retry mode retries): `attempts` calls in all, the n-th retry after a back-off drawn
// from 0 to min(20 s, backoff x 2^(n-1)) ("full jitter"). One attempt, the default: a refused call is given up.
struct RetrySpec {
    int64_t attempts = 1; // 1..10; the SDKs' standard mode makes 3
    TimeMs backoff = 1000; // the first retry's longest wait; 0: every retry at once
};

struct ConsumerSpec {
    std::string name; // with count > 1, consumers are named name-1, name-2, ...
    std::string queue;
    int64_t count = 1;
    int64_t waitTimeSeconds = 20;
    int64_t maxMessages = 1;
    std::optional<int64_t> visibilityTimeout;
    Distribution processing;
    double failureProbability = 0;
    bool deletes = true; // false: it finishes its work and forgets to delete (the message comes back)
    // A failed message is made visible again at once (ChangeMessageVisibility 0) instead of waiting out its timeout.
    bool releaseOnFailure = false;
    // It records what it has processed (an idempotency record shared by the consumers of its queue): a message already
    // processed is skipped and deleted, one another consumer is processing is left to come back.
    bool idempotent = false;
    std::vector<std::string> poison { "poison" }; // bodies containing one of these always fail
    std::vector<std::string> flaky; // bodies containing one of these fail on their first receive only
    std::optional<TimeMs> heartbeatEvery; // ChangeMessageVisibility while working
    int64_t heartbeatVisibilityTimeout = 30; // each heartbeat sets this timeout, counted from the call
    // Its SDK's retries of a refused call. Given up, a receive polls again after idleDelay, a delete or release is
    // lost (the message comes back when its timeout ends) and a heartbeat is skipped until the next is due.
    RetrySpec retries;
    std::vector<CrashSpec> crashes;
    TimeMs idleDelay = 1000; // pause after an empty receive before polling again
    TimeMs start = 0;
    std::optional<ScalingSpec> scaling; // `count` consumers at the start, then as many as the policy says
};

struct LambdaSpec {
    std::string name;
    std::string queue;
    int64_t batchSize = 10; // 1..10,000 on a standard queue (above 10 with a batching window), 1..10 on FIFO
    TimeMs batchingWindow = 0; // MaximumBatchingWindowInSeconds: how long a poller gathers a batch, 0..300 s
    std::optional<int64_t> maximumConcurrency; // the mapping's ScalingConfig.MaximumConcurrency, 2..1000
    TimeMs timeout = 3000; // the function timeout
    int64_t concurrency = 5; // functions running at once
    int64_t pollers = 5; // event-source-mapping pollers: concurrent batches (in provisioned mode, MaximumPollers x 10)
    // How the mapping starts. Standard mode, already scaled up (default): every poller polls from the start. With
    // scaleFromIdle, as after a quiet spell: five batches at once, and 300 more a minute once messages come, up to
    // `pollers`. In provisioned mode (ProvisionedPollerConfig), MinimumPollers x 10 batches at once (each event poller
    // handles up to 10 concurrent invokes), and up to 1,000 more a minute (docs/sqs-semantics.md, section 6).
    bool scaleFromIdle = false;
    struct ProvisionedPollers {
        int64_t minimumPollers = 2; // 2..200
        int64_t maximumPollers = 200; // 2..10,000 in AWS; Lifeline runs at most 100 (1,000 concurrent batches)
    };
    std::optional<ProvisionedPollers> provisioned;
    // The batches at once when the mapping starts, and how often one more may poll once messages come.
    int64_t startingPollers() const;
    TimeMs scaleUpEvery() const;
    Distribution processing;
    double failureProbability = 0; // a whole-batch error
    bool reportBatchItemFailures = false;
    double itemFailureProbability = 0; // with reportBatchItemFailures
    // The function's own DeadLetterConfig: a queue of the scenario. Lambda sends only a failed asynchronous
    // invocation there, and its pollers invoke the function synchronously, so from an SQS trigger it gets nothing
    // (lesson 29 draws it empty); the source queue's redrive policy is what catches a failing message.
    std::string deadLetterQueue;
};

// A CloudWatch alarm on one of a queue's metrics (docs/scenario-format.md, `alarms`): over `threshold` for one
// period, it goes to ALARM; at or under it, back to OK.
struct AlarmSpec {
    std::string name;
    std::string queue;
    // ApproximateNumberOfMessagesVisible or ApproximateAgeOfOldestMessage (seconds; at the period's end), or
    // NumberOfMessagesSent (in it)
    std::string metric;
    int64_t threshold = 0;
    TimeMs period = 60000; // whole minutes: SQS's metrics are a minute's
};

struct ActionSpec {
    TimeMs at = 0;
    enum class Kind { SetAttributes, Purge, Redrive, Send, Crash, Restart } kind = Kind::Send;
    std::string queue; // SetAttributes, Purge, Send; Redrive: the DLQ
    AttributeMap attributes;
    std::optional<std::string> destination; // Redrive
    TimedMessage message; // Send
    std::string consumer; // Crash, Restart
};

// One scripted call: a named client makes a single SQS call at a chosen time (docs/scenario-format.md, `script`).
struct ScriptStep {
    enum class Call {
        SendMessage,
        ReceiveMessage,
        DeleteMessage,
        ChangeMessageVisibility,
        SetQueueAttributes,
        PurgeQueue,
        StopConsumer,
        StartConsumer
    };
    TimeMs at = 0;
    std::string as = "script"; // the client that makes it (its own row on the timeline)
    Call call = Call::SendMessage;
    std::string queue;
    std::string label; // SendMessage: the name later steps use for the message
    TimedMessage message; // SendMessage: body, delay, group and deduplication ids
    std::optional<int64_t> waitTimeSeconds; // ReceiveMessage
    std::optional<int64_t> maxMessages; // ReceiveMessage
    std::optional<int64_t> visibilityTimeout; // ReceiveMessage (optional), ChangeMessageVisibility (required)
    AttributeMap attributes; // SetQueueAttributes
    // DeleteMessage, ChangeMessageVisibility: the message by its label (the handle of its latest scripted receive) or
    // as what step N (from 1) received first; a handle stays usable after its timeout, as a real client's does.
    std::string messageLabel;
    size_t receivedBy = 0;
    std::string consumer; // StopConsumer, StartConsumer: a consumer's name (NAME-k of several)
};
const char* toString(ScriptStep::Call call);

struct LessonText {
    std::string id;
    int number = 0;
    std::string title;
    std::string idea;
    std::string watch;
    std::string trap;
    std::string fix;
    nlohmann::json fixPatch; // JSON Patch (RFC 6902) that turns the scenario into its fix
    // What the fix is about, as a figure of the run's summary ("duplicates", "longestWaitMs") and its words ("first
    // receive after its send"): Compare leads with it.
    std::string measure;
    std::string measureLabel;
    std::vector<analysis::MomentSpec> moments; // the key moments, found in each run (its own and its fix's)
};

struct Scenario {
    std::string name;
    uint64_t seed = 1;
    TimeMs duration = 600000;
    bool quotas = false; // SQS's in-flight and FIFO throughput quotas (EngineOptions::quotas)
    // SQS's faults, injected (docs/faults.md): "faults": [{"kind": "duplicate", "rate": 0.2}], seeded by the run's
    // seed.
    std::optional<FaultPlan> faults;
    std::vector<QueueSpec> queues;
    std::vector<TopicSpec> topics;
    std::vector<KmsKeySpec> kmsKeys;
    std::vector<ProducerSpec> producers;
    std::vector<ConsumerSpec> consumers;
    std::vector<LambdaSpec> lambdas;
    std::vector<AlarmSpec> alarms;
    std::vector<ActionSpec> actions;
    std::vector<ScriptStep> script; // in the order written; each runs at its `at`
    std::optional<LessonText> lesson;
    nlohmann::json source; // the JSON it was read from (for the fix and for saving)
};

struct ScenarioProblem {
    std::string path; // producers[1].rate
    std::string message; // must be > 0, got -3
    std::string text() const { return path.empty() ? message : path + ": " + message; }
};

// What is wrong with a scenario: every problem found (up to kMaxScenarioProblems), the first one also as path and
// message. text() lists them all, a line each.
inline constexpr size_t kMaxScenarioProblems = 20;
struct ScenarioError {
    std::string path;
    std::string message;
    std::vector<ScenarioProblem> problems; // all of them, the first included; empty means just path and message

    std::string text() const;
};

// Parses and validates; on any error returns every problem it found (each with its path) and no scenario. Fields
// are checked first; references between them (queue and consumer names, what only SQS can judge) once the fields
// are right.
std::variant<Scenario, ScenarioError> parseScenario(const std::string& jsonText);
std::variant<Scenario, ScenarioError> parseScenario(const nlohmann::json& json);

// The scenario with every queue standard (fifo false) or FIFO, names gaining or losing ".fifo" wherever they appear.
std::variant<Scenario, ScenarioError> withQueueType(const Scenario& scenario, bool fifo);

// The scenario with its lesson's fix applied (the same scenario when it has none).
std::variant<Scenario, ScenarioError> applyFix(const Scenario& scenario);

} // namespace lifeline::scenario
