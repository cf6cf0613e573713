// A randomized run: valid and invalid operations on several queues (standard, FIFO, DLQs), with the invariants
// checked after every step against a model rebuilt from the event log alone:
// - every lane's state in the log's replay equals the engine's (so a viewer can draw every lane from the log);
// - every transition starts from the state the lane was in;
// - the queue counters equal a recount;
// - FIFO order holds within every group (nothing is delivered past an earlier live message of its group);
// - nothing is lost: lanes = delayed + visible + in flight + deleted + dead-lettered + expired + purged + redriven.
#include "engine_fixture.h"

#include <array>
#include <random>
#include <unordered_map>

#ifndef LIFELINE_RANDOM_OPS
#define LIFELINE_RANDOM_OPS 1000000
#endif

using namespace lifeline;

namespace {

struct LogModel {
    explicit LogModel(const Engine& e)
        : engine(e)
    {
    }
    const Engine& engine;
    std::vector<MessageIndex> touched;
    size_t read = 0;
    std::vector<MessageState> state; // per lane, from the log alone
    std::vector<uint64_t> receiveBatch; // the batch (one per receive call) of each lane's latest receive
    uint64_t batch = 0;
    std::array<size_t, size_t(MessageState::Count)> totals {};
    std::map<QueueIndex, QueueCounters> counters;
    // FIFO: per (queue, group) the lanes in send order (terminal ones are skipped when checking).
    std::map<std::pair<QueueIndex, std::string>, std::vector<MessageIndex>> groups;
    size_t fifoReceivesChecked = 0;

    static void count(QueueCounters& c, MessageState s, int delta)
    {
        if (s == MessageState::Visible)
            c.visible += delta;
        else if (s == MessageState::InFlight)
            c.inFlight += delta;
        else if (s == MessageState::Delayed)
            c.delayed += delta;
    }

    static bool live(MessageState s)
    {
        return s == MessageState::Delayed || s == MessageState::Visible || s == MessageState::InFlight;
    }

    void catchUp()
    {
        const auto& log = engine.log();
        for (; read < log.size(); ++read) {
            const Event& e = log[read];
            if (e.cause == Cause::PollEnded)
                ++batch;
            if (e.message == kNoMessage)
                continue;
            if (e.message >= state.size()) {
                REQUIRE(e.message == state.size()); // lanes appear in order
                REQUIRE(e.from == MessageState::None);
                state.push_back(MessageState::None);
                receiveBatch.push_back(0);
                const auto& record = engine.message(e.message);
                if (engine.queueInfo(record.queue).fifo)
                    groups[{ record.queue, engine.extra(e.message)->groupId }].push_back(e.message);
            }
            if (e.cause == Cause::RequestRefused)
                continue;
            if (e.cause == Cause::NoEffect && engine.forgotten(e.message)) {
                // A request with the receipt of a message the engine forgot: it had ended, its state is not known.
                REQUIRE_FALSE(live(state[e.message]));
                REQUIRE(e.from == MessageState::None);
                continue;
            }
            REQUIRE(state[e.message] == e.from);
            --totals[size_t(e.from)];
            ++totals[size_t(e.to)];
            count(counters[e.queue], e.from, -1);
            count(counters[e.queue], e.to, +1);
            state[e.message] = e.to;
            if (e.cause == Cause::Receive) {
                receiveBatch[e.message] = batch;
                checkFifoOrder(e.message);
            }
            touched.push_back(e.message);
        }
        // After the step, every lane it touched is where the log's replay says.
        for (const MessageIndex lane : touched)
            REQUIRE(engine.message(lane).state == state[lane]);
        touched.clear();
    }

    void checkFifoOrder(MessageIndex lane)
    {
        const auto& record = engine.message(lane);
        if (!engine.queueInfo(record.queue).fifo)
            return;
        ++fifoReceivesChecked;
        const auto& members = groups[{ record.queue, engine.extra(lane)->groupId }];
        for (const MessageIndex earlier : members) {
            if (earlier == lane)
                break;
            if (!live(state[earlier]))
                continue;
            // An earlier live message of the group must have been delivered in this same receive, before it.
            REQUIRE(state[earlier] == MessageState::InFlight);
            REQUIRE(receiveBatch[earlier] == batch);
        }
    }

    void checkCounters(const std::vector<std::string>& queues)
    {
        size_t lanes = 0;
        for (size_t s = 1; s < totals.size(); ++s)
            lanes += totals[s];
        REQUIRE(lanes == engine.messageCount());
        REQUIRE(state.size() == engine.messageCount());
        for (const auto& name : queues) {
            const auto index = engine.queueIndex(name);
            if (!index)
                continue;
            REQUIRE(engine.counters(name).value() == counters[*index]);
        }
    }
};

} // namespace

namespace {

// `operations` random operations on an engine that remembers `historyMs` (negative: everything).
void randomizedRun(int64_t historyMs, int operations)
{
    EngineOptions options;
    options.historyMs = historyMs;
    Engine engine(options);
    LogModel model(engine);
    std::mt19937_64 rng(20261130);
    const auto pick = [&](auto n) { return decltype(n)(rng() % uint64_t(n)); };
    const std::vector<std::string> names { "std-a", "std-b", "dlq", "f1.fifo", "f2.fifo", "fdlq.fifo" };
    std::vector<std::string> handles;
    std::map<std::string, size_t> errorsByCode;
    size_t delivered = 0;

    const auto queueArn = [&](const std::string& name) { return "arn:aws:sqs:us-east-1:000000000000:" + name; };
    const auto createAll = [&] {
        for (const auto& name : names) {
            AttributeMap attributes;
            if (name.ends_with(".fifo")) {
                attributes["FifoQueue"] = "true";
                attributes["ContentBasedDeduplication"] = pick(2) ? "true" : "false";
            }
            attributes["VisibilityTimeout"] = std::to_string(pick(4));
            attributes["MessageRetentionPeriod"] = std::to_string(60 + pick(120));
            // Called again later: a queue that exists (its attributes differ) or was deleted less than 60 s ago is
            // refused, and the run goes on with what is there, as a client's would.
            (void)engine.createQueue(name, attributes);
        }
        (void)engine.setQueueAttributes("std-a",
            { { "RedrivePolicy", "{\"deadLetterTargetArn\":\"" + queueArn("dlq") + "\",\"maxReceiveCount\":3}" } });
        (void)engine.setQueueAttributes("f1.fifo",
            { { "RedrivePolicy",
                "{\"deadLetterTargetArn\":\"" + queueArn("fdlq.fifo") + "\",\"maxReceiveCount\":2}" } });
    };
    createAll();
    const auto collect = [&](const std::vector<ReceivedMessage>& messages) {
        for (const auto& m : messages) {
            ++delivered;
            if (handles.size() < 4096)
                handles.push_back(m.receiptHandle);
            else
                handles[pick(handles.size())] = m.receiptHandle;
        }
    };
    const auto note = [&](const auto& result) {
        if (!result.ok())
            ++errorsByCode[result.error().code];
    };

    for (int step = 0; step < operations; ++step) {
        const std::string& queue = names[pick(names.size())];
        const bool fifo = queue.ends_with(".fifo");
        const int op = int(pick(100));
        if (op < 30) { // send
            SendMessageRequest request;
            request.queue = queue;
            request.body = pick(50) ? "body-" + std::to_string(pick(40)) : std::string();
            if (pick(4) == 0)
                request.delaySeconds = int64_t(pick(5)) - (pick(50) == 0 ? 10 : 0);
            if (fifo || pick(10) == 0)
                request.messageGroupId = pick(40) ? "g" + std::to_string(pick(5)) : std::string("bad group");
            if (fifo && pick(2))
                request.messageDeduplicationId = "d" + std::to_string(pick(1000));
            note(engine.sendMessage(request));
        } else if (op < 35) { // batch send
            std::vector<SendMessageBatchEntry> entries;
            const size_t n = pick(12);
            for (size_t i = 0; i < n; ++i) {
                SendMessageBatchEntry e;
                e.id = pick(30) ? "e" + std::to_string(i) : "bad id";
                e.body = "batch-" + std::to_string(pick(40));
                if (fifo)
                    e.messageGroupId = "g" + std::to_string(pick(5));
                if (fifo && pick(2))
                    e.messageDeduplicationId = "d" + std::to_string(pick(1000));
                if (pick(5) == 0)
                    e.delaySeconds = int64_t(pick(3));
                entries.push_back(e);
            }
            note(engine.sendMessageBatch(queue, entries));
        } else if (op < 60) { // receive
            ReceiveMessageRequest request;
            request.queue = queue;
            request.maxNumberOfMessages = int64_t(pick(11)) + (pick(50) == 0 ? 5 : 0);
            if (pick(3) == 0)
                request.visibilityTimeout = int64_t(pick(6));
            request.waitTimeSeconds = pick(4) == 0 ? int64_t(pick(3)) : 0;
            request.actor = uint32_t(1 + pick(8));
            const auto result = engine.receiveMessage(request);
            note(result);
            if (result.ok())
                collect(result->messages);
        } else if (op < 75) { // delete
            const std::string handle = handles.empty() || pick(30) == 0 ? "garbage" : handles[pick(handles.size())];
            if (pick(6) == 0) {
                std::vector<DeleteMessageBatchEntry> entries { { "a", handle } };
                if (!handles.empty())
                    entries.push_back({ "b", handles[pick(handles.size())] });
                note(engine.deleteMessageBatch(queue, entries));
            } else {
                note(engine.deleteMessage(queue, handle));
            }
        } else if (op < 82) { // change visibility
            const std::string handle = handles.empty() || pick(30) == 0 ? "garbage" : handles[pick(handles.size())];
            note(engine.changeMessageVisibility(queue, handle, int64_t(pick(8)) - (pick(40) == 0 ? 9 : 0)));
        } else if (op < 95) { // time passes
            engine.advanceBy(TimeMs(pick(3000)));
        } else if (op < 97) { // attributes, valid and not
            const char* keys[] = { "DelaySeconds", "VisibilityTimeout", "MessageRetentionPeriod", "Bogus" };
            note(engine.setQueueAttributes(queue, { { keys[pick(4)], std::to_string(int64_t(pick(10)) - 1) } }));
        } else if (op < 98) {
            note(engine.purgeQueue(queue));
        } else if (op < 99) {
            note(engine.startMessageMoveTask(queueArn(pick(2) ? "dlq" : "fdlq.fifo"), std::nullopt,
                pick(2) ? std::optional<int64_t>(1 + pick(5)) : std::nullopt));
        } else if (pick(20) == 0) { // rarely: delete a queue and bring everything back
            note(engine.deleteQueue(queue));
            engine.advanceBy(60000);
            createAll();
        }
        for (const auto& poll : engine.takeCompletedPolls())
            collect(poll.messages);
        model.catchUp();
        model.checkCounters(names);
    }
    // A final sweep: every lane's engine state equals the log's replay (a forgotten lane had ended).
    size_t forgotten = 0;
    for (MessageIndex lane = 0; lane < engine.messageCount(); ++lane) {
        if (engine.forgotten(lane)) {
            REQUIRE_FALSE(LogModel::live(model.state[lane]));
            ++forgotten;
            continue;
        }
        REQUIRE(engine.message(lane).state == model.state[lane]);
    }
    INFO("lanes " << engine.messageCount() << ", delivered " << delivered << ", forgotten " << forgotten);
    CHECK((historyMs < 0 ? forgotten == 0 : forgotten > engine.messageCount() / 2));
    CHECK(delivered > size_t(operations) / 20);
    CHECK(model.fifoReceivesChecked > size_t(operations) / 100);
    CHECK(model.totals[size_t(MessageState::DeadLettered)] > 0);
    CHECK(model.totals[size_t(MessageState::Expired)] > 0);
    CHECK(model.totals[size_t(MessageState::Redriven)] > 0);
    CHECK(errorsByCode.size() >= 6); // invalid input was exercised too
}

} // namespace

TEST_CASE("randomized: invariants hold after every one of a million operations", "[randomized]")
{
    randomizedRun(-1, LIFELINE_RANDOM_OPS);
}

// Longer than any one step advances the clock (a queue deleted, then 60 s): what the model reads after a step, the
// engine still holds; receipts it kept of forgotten messages are used again.
TEST_CASE("randomized: the same invariants when the engine forgets what ended two minutes ago", "[randomized]")
{
    randomizedRun(120000, LIFELINE_RANDOM_OPS / 4);
}
