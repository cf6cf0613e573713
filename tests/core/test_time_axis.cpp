#include "lifeline/timeline/time_axis.h"

#include <catch2/catch.hpp>

using namespace lifeline;

TEST_CASE("time axis: time <-> pixel at several zoom levels", "[timeline][axis]")
{
    for (const double msPerPixel : { 0.5, 10.0, 100.0, 60000.0 }) {
        TimeAxis axis { 5000, msPerPixel, 150 };
        INFO(msPerPixel);
        CHECK(axis.toX(5000) == 150);
        CHECK(axis.toX(5000 + TimeMs(msPerPixel * 100)) == Approx(250));
        CHECK(axis.toTime(250) == 5000 + TimeMs(std::llround(msPerPixel * 100)));
        CHECK(axis.toTime(axis.toX(123456)) == Approx(123456).margin(msPerPixel));
    }
}

TEST_CASE("time axis: zooming keeps the time under the cursor still", "[timeline][axis]")
{
    TimeAxis axis { 0, 100, 150 };
    const TimeMs under = axis.toTime(650);
    axis.zoomAround(650, 4);
    CHECK(axis.msPerPixel == 25);
    CHECK(axis.toTime(650) == under);
    axis.zoomAround(300, 0.5);
    CHECK(axis.msPerPixel == 50);
    const TimeMs before = axis.toTime(750);
    axis.panPixels(100); // dragging right shows earlier times
    CHECK(axis.toTime(750) == before - 5000);
    axis.fit(0, 60000, 600);
    CHECK(axis.start == 0);
    CHECK(axis.msPerPixel == 100);
    CHECK(axis.endFor(600) == 60000);
}

TEST_CASE("ruler ticks: steps and labels by zoom", "[timeline][axis]")
{
    CHECK(tickStep(1) == 100);
    CHECK(tickStep(100) == 10000);
    CHECK(tickStep(1000) == 120000);
    CHECK(tickStep(100000) == 10800000);
    TimeAxis axis { 0, 100, 0 };
    const auto t = ticks(axis, 800);
    REQUIRE(t.size() == 9); // 0, 10 s, ... 80 s
    CHECK(t[0].time == 0);
    CHECK(t[0].major);
    CHECK_FALSE(t[1].major);
    CHECK(t[5].major);
    // One format with the hovers and captions (lifeline::formatDuration): never "1s250ms" or "664s500ms".
    CHECK(tickLabel(90000) == "1m30s");
    CHECK(tickLabel(7200000) == "2h");
    CHECK(tickLabel(250) == "250ms");
    CHECK(tickLabel(1250) == "1.25s");
    CHECK(tickLabel(664500) == "11m4.5s");
    CHECK(tickLabel(0) == "0s");
    CHECK(tickLabel(-1500) == "-1.5s");
}
