// Fair queues: a standard queue's tenants are its MessageGroupIds; a tenant holding 30 or more messages in flight and
// more than a tenth of the queue's is noisy, and a receive then serves quiet tenants first ("How Amazon SQS fair
// queues work", SQS Developer Guide).
#include "engine_fixture.h"
#include "lifeline/run/event_text.h"

using namespace lifeline;
using namespace lifeline::test;

namespace {
// Receives up to `n` messages, ten at a time, keeping them in flight; their bodies in the order received.
std::vector<std::string> take(Fixture& f, const std::string& queue, int n)
{
    std::vector<std::string> out;
    while (int(out.size()) < n) {
        const auto got = f.receive(queue, std::min(10, n - int(out.size())), 300);
        if (got.empty())
            break;
        for (const auto& m : got)
            out.push_back(m.body);
    }
    return out;
}
} // namespace

TEST_CASE("fair queues: a tenant's 30th message in flight makes it noisy - the quiet tenant is served first", "[fair]")
{
    Fixture f;
    f.create("jobs");
    for (int i = 1; i <= 200; ++i)
        f.send("jobs", "a" + std::to_string(i), {}, std::string("tenant-a"));
    // 29 in flight: not yet noisy.
    CHECK(take(f, "jobs", 29).back() == "a29");
    CHECK(f.engine.noisyTenants("jobs").empty());
    for (int i = 1; i <= 5; ++i)
        f.send("jobs", "b" + std::to_string(i), {}, std::string("tenant-b"));
    // The 30th: A holds all of the queue's 30 in flight (more than a tenth) and 30 of its own.
    CHECK(take(f, "jobs", 1) == std::vector<std::string> { "a30" });
    CHECK(f.engine.noisyTenants("jobs") == std::vector<std::string> { "tenant-a" });
    // B's five come first though A's 170 were sent before them; then A's, in its order.
    CHECK(take(f, "jobs", 8) == std::vector<std::string> { "b1", "b2", "b3", "b4", "b5", "a31", "a32", "a33" });
    CHECK(f.engine.noisyTenants("jobs") == std::vector<std::string> { "tenant-a" });
}

TEST_CASE("fair queues: without group ids nothing changes - the queue's order alone", "[fair]")
{
    Fixture f;
    f.create("jobs");
    for (int i = 1; i <= 60; ++i)
        f.send("jobs", "a" + std::to_string(i));
    f.send("jobs", "b1");
    CHECK(take(f, "jobs", 61).back() == "b1");
    CHECK(f.engine.noisyTenants("jobs").empty());
}

TEST_CASE(
    "fair queues: a noisy tenant is quiet again when its backlog drains - or after 5 minutes without sends", "[fair]")
{
    SECTION("drained")
    {
        Fixture f;
        f.create("jobs");
        for (int i = 1; i <= 31; ++i)
            f.send("jobs", "a" + std::to_string(i), {}, std::string("tenant-a"));
        take(f, "jobs", 30);
        CHECK(f.engine.noisyTenants("jobs") == std::vector<std::string> { "tenant-a" });
        CHECK(take(f, "jobs", 1) == std::vector<std::string> { "a31" }); // nothing quiet waits: A is served
        CHECK(f.engine.noisyTenants("jobs").empty()); // its backlog is empty
    }
    SECTION("five minutes without sends")
    {
        Fixture f;
        f.create("jobs", { { "VisibilityTimeout", "43200" } });
        for (int i = 1; i <= 40; ++i)
            f.send("jobs", "a" + std::to_string(i), {}, std::string("tenant-a"));
        take(f, "jobs", 30);
        f.advanceSeconds(299);
        f.send("jobs", "b1", {}, std::string("tenant-b"));
        CHECK(take(f, "jobs", 1) == std::vector<std::string> { "b1" });
        f.send("jobs", "b2", {}, std::string("tenant-b"));
        f.advanceSeconds(1); // A's last send was 5 minutes ago
        CHECK(take(f, "jobs", 2) == std::vector<std::string> { "a31", "a32" }); // A is quiet: the queue's order
        CHECK(f.engine.noisyTenants("jobs").empty());
    }
}

TEST_CASE("fair queues: among noisy tenants the one with the fewest in flight is served first", "[fair]")
{
    Fixture f;
    f.create("jobs");
    for (int i = 1; i <= 50; ++i)
        f.send("jobs", "a" + std::to_string(i), {}, std::string("tenant-a"));
    take(f, "jobs", 40); // A: 40 in flight, noisy
    for (int i = 1; i <= 50; ++i)
        f.send("jobs", "b" + std::to_string(i), {}, std::string("tenant-b"));
    // B is quiet until it holds 30: its messages first (A is noisy), then it too is noisy (30 of 70 in flight).
    CHECK(take(f, "jobs", 30).back() == "b30");
    CHECK(f.engine.noisyTenants("jobs") == std::vector<std::string> { "tenant-a", "tenant-b" });
    // Both noisy: B has 30 in flight, A 40, so B until it has 40, then one each, the fewer first (B on a tie: it
    // comes first in the scan only when it has fewer; A is older in the noisy list and wins ties).
    const auto next = take(f, "jobs", 12);
    CHECK(std::vector<std::string>(next.begin(), next.begin() + 10)
        == std::vector<std::string> { "b31", "b32", "b33", "b34", "b35", "b36", "b37", "b38", "b39", "b40" });
    CHECK(std::vector<std::string>(next.begin() + 10, next.end()) == std::vector<std::string> { "a41", "b41" });
}

TEST_CASE("fair queues: a noisy tenant's messages back from flight wait behind the quiet tenant's - then its own order",
    "[fair]")
{
    Fixture f;
    f.create("jobs");
    for (int i = 1; i <= 35; ++i)
        f.send("jobs", "a" + std::to_string(i), {}, std::string("tenant-a"));
    CHECK(f.receive("jobs", 10, 5).size() == 10); // a1..a10, for 5 seconds
    take(f, "jobs", 20); // 30 in flight: A is noisy
    f.send("jobs", "b1", {}, std::string("tenant-b"));
    f.advanceSeconds(6); // a1..a10 come back
    // B first; then A's in its order, a message back from flight behind what waited (docs/decisions.md's table,
    // "redelivery order (standard)").
    CHECK(take(f, "jobs", 3) == std::vector<std::string> { "b1", "a31", "a32" });
    CHECK(f.counters("jobs").inFlight == 23);
}

TEST_CASE(
    "fair queues: a tenant turning noisy and quiet again is noted on the queue's row, with its group id", "[fair]")
{
    Fixture f;
    f.create("jobs", { { "VisibilityTimeout", "43200" } });
    for (int i = 1; i <= 40; ++i)
        f.send("jobs", "a" + std::to_string(i), {}, std::string("tenant-a"));
    f.advanceSeconds(7);
    take(f, "jobs", 30);
    f.advanceSeconds(300);
    take(f, "jobs", 1); // five minutes without sends: quiet at this receive
    std::vector<std::string> notes;
    const RunView& run = f.engine.run();
    for (size_t i = 0; i < run.log().size(); ++i) {
        const Event& e = run.log()[i];
        if (e.cause == Cause::TenantNoisy || e.cause == Cause::TenantQuiet)
            notes.push_back(
                std::to_string(e.time / 1000) + " " + run.queueInfo(e.queue).name + " " + eventSentence(run, e, "SQS"));
    }
    CHECK(notes
        == std::vector<std::string> {
            "7 jobs tenant tenant-a noisy: 30 or more of its messages in flight, over a tenth of the queue's; quiet "
            "tenants are served first",
            "307 jobs tenant tenant-a quiet again: its backlog drained or it sent nothing for 5 minutes",
        });
}
