#include "lifeline/sim/simulation.h"
#include "lifeline/teach/lessons.h"
#include "lifeline/timeline/depth_series.h"

#include <catch2/catch.hpp>

using namespace lifeline;

TEST_CASE("depth series: exact counts per bucket on a small run", "[series]")
{
    Engine engine;
    REQUIRE(engine.createQueue("q", { { "VisibilityTimeout", "2" } }).ok());
    SendMessageRequest send;
    send.queue = "q";
    send.body = "a";
    REQUIRE(engine.sendMessage(send).ok());
    send.delaySeconds = 1;
    REQUIRE(engine.sendMessage(send).ok());
    DepthSeries series(512, 100);
    series.sync(engine.run());
    CHECK(series.current().visible == 1);
    CHECK(series.current().delayed == 1);
    engine.advanceTo(1000);
    ReceiveMessageRequest receive;
    receive.queue = "q";
    receive.maxNumberOfMessages = 10;
    REQUIRE(engine.receiveMessage(receive)->messages.size() == 2);
    engine.advanceTo(1500);
    series.sync(engine.run());
    CHECK(series.current().inFlight == 2);
    const auto& b = series.buckets();
    REQUIRE(b.size() == 16); // 0..1500 ms in 100 ms buckets
    CHECK(b[0].visible == 1);
    CHECK(b[0].delayed == 1);
    CHECK(b[5].delayed == 1); // nothing changed in between: the depth carries
    CHECK(b[10].inFlight == 2);
    CHECK(b[15].inFlight == 2);
}

TEST_CASE("depth series: stays within its buckets and keeps the peaks on a long run", "[series]")
{
    const auto* lesson = teach::findLesson("lambda-six-times");
    sim::Simulation simulation(lesson->scenario);
    DepthSeries series(64, 10);
    int32_t peakVisible = 0;
    for (TimeMs t = 0; t <= simulation.duration(); t += 777) {
        simulation.advanceTo(t);
        series.sync(simulation.engine().run());
        peakVisible = std::max(peakVisible, series.current().visible);
        REQUIRE(series.buckets().size() <= 64);
    }
    int32_t seriesPeak = 0, duplicates = 0;
    for (const auto& b : series.buckets()) {
        seriesPeak = std::max(seriesPeak, b.visible);
        duplicates += b.duplicates;
    }
    CHECK(seriesPeak >= peakVisible); // sampled peaks are never above what the series kept
    CHECK(duplicates == simulation.summary().duplicates);
    CHECK(series.bucketMs() * 64 >= simulation.duration());
}

TEST_CASE("depth series: levels pushed from polls carry until the next - each bucket keeps its peak", "[depth]")
{
    DepthSeries series(512, 100);
    DepthSample first;
    first.visible = 3;
    first.inFlight = 1;
    series.push(250, first);
    DepthSample second;
    second.visible = 1;
    second.deadLetter = 2;
    series.push(1250, second);
    series.advance(1500);
    const auto& buckets = series.buckets();
    REQUIRE(buckets.size() == 16);
    CHECK(buckets[1].visible == 0); // before the first poll: nothing reported yet
    CHECK(buckets[2].visible == 3);
    CHECK(buckets[2].inFlight == 1);
    CHECK(buckets[11].visible == 3); // carried until the next poll
    CHECK(buckets[12].visible == 3); // the bucket of the change keeps its peak
    CHECK(buckets[12].deadLetter == 2);
    CHECK(buckets[13].visible == 1);
    CHECK(buckets[13].inFlight == 0);
    CHECK(buckets[15].deadLetter == 2);
    CHECK(series.current().visible == 1);
}
