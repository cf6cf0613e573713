// Lambda pollers on the timeline: an invocation is one bar for its whole batch, its function timeout a tick where
// the invocation would be stopped (in the crash colour when it was), and the hover says which.
#include "lifeline/scenario/scenario.h"
#include "test_support.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_painter.h"

#include <QImage>
#include <QPainter>

using namespace lifeline;
using namespace lifeline::ui;

namespace {
struct PollerView {
    std::unique_ptr<sim::Simulation> simulation;
    LaneModel model;
    TimelineStyle style = TimelineStyle::light();
    std::unique_ptr<TimelinePainter> painter;
    TimelineFrame frame;
    QImage image { 1200, 500, QImage::Format_ARGB32_Premultiplied };
    int row = -1; // the first poller's row

    PollerView(scenario::Scenario scenario, TimeMs until, TimeMs viewTo)
        : simulation(std::make_unique<sim::Simulation>(std::move(scenario)))
    {
        simulation->advanceTo(until);
        model.setRun(&simulation->engine().run());
        painter = std::make_unique<TimelinePainter>(model, style);
        frame.now = simulation->now();
        frame.axis.fit(0, viewTo, 1200 - style.labelWidth);
        QPainter p(&image);
        painter->paint(p, image.rect(), frame);
        p.end();
        for (int r = 0; r < painter->totalRows() && row < 0; ++r)
            if (painter->rowAt(r).kind == LaneModel::ActorRow)
                row = r;
        REQUIRE(row >= 0);
    }
    int x(TimeMs t) const { return int(std::lround(frame.axis.toX(t) + style.labelWidth - frame.axis.left)); }
    int middle() const { return painter->rowTop(image.rect(), frame, row) + style.rowHeight / 2; }
    QColor at(TimeMs t) const { return image.pixelColor(x(t), middle()); }
    QString hover(TimeMs t) const
    {
        const auto hit = painter->hit(image.rect(), frame, QPoint(x(t), middle()));
        return hit ? hit->text : QString();
    }
};

scenario::Scenario scenarioOf(const char* json)
{
    auto parsed = scenario::parseScenario(std::string(json));
    REQUIRE(std::holds_alternative<scenario::Scenario>(parsed));
    return std::get<scenario::Scenario>(std::move(parsed));
}
} // namespace

TEST_CASE("lambda rows: a batch is one bar and its function timeout a tick (lesson 21)", "[ui][timeline][lambda]")
{
    test::application();
    PollerView view(teach::findLesson("lambda-partial-batch")->scenario, 30000, 20000);
    CHECK(view.model.actorName(view.painter->rowAt(view.row).id) == QStringLiteral("fulfil/poller-1"));
    // The invocation of ten orders throws at 2 s: one failed bar from 0 to 2 s, not ten.
    CHECK(view.at(1000) == view.style.failed);
    CHECK(view.hover(1000)
        == QStringLiteral("invocation: batch of 10 · failed\nfrom 0s to 2s (2s)\n"
                          "function timeout 10s: stopped at 10s if still running"));
    // Its function timeout (10 s) is a tick in the text colour: it did not run into it.
    CHECK(view.at(10000) == view.style.text);
    CHECK(view.at(6000) != view.style.text);
}

TEST_CASE("lambda rows: with ReportBatchItemFailures only the poison order fails", "[ui][timeline][lambda]")
{
    test::application();
    auto fixed = scenario::applyFix(teach::findLesson("lambda-partial-batch")->scenario);
    PollerView view(std::get<scenario::Scenario>(std::move(fixed)), 30000, 20000);
    CHECK(view.at(1000) == view.style.working);
    CHECK(view.hover(1000).startsWith(QStringLiteral("invocation: batch of 10 · 1 failed\nfrom 0s to 2s (2s)")));
}

TEST_CASE(
    "lambda rows: an invocation stopped by its timeout ends on the tick in the crash colour", "[ui][timeline][lambda]")
{
    test::application();
    PollerView view(scenarioOf(R"({
        "name": "slow function", "duration": "2m",
        "queues": [ { "name": "jobs", "attributes": { "VisibilityTimeout": 60 } } ],
        "producers": [ { "name": "p", "queue": "jobs", "bursts": [ { "at": "0s", "count": 3 } ] } ],
        "lambdas": [ { "name": "slow", "queue": "jobs", "timeout": "1s", "processing": "2s", "concurrency": 1,
                       "pollers": 1 } ] })"),
        10000, 4000);
    CHECK(view.at(500) == view.style.failed);
    CHECK(view.at(1000) == view.style.crash);
    CHECK(view.hover(500)
        == QStringLiteral("invocation: batch of 3 · timed out\nfrom 0s to 1s (1s)\n"
                          "stopped by the function timeout (1s): the whole batch comes back"));
    // After the invocation the poller long-polls: no work bar, no tooltip there.
    CHECK(view.hover(3000).isEmpty());
}

TEST_CASE("lambda rows: a consumer's work keeps its message id and has no timeout tick", "[ui][timeline][lambda]")
{
    test::application();
    PollerView view(teach::findLesson("consumer-crash")->scenario, 60000, 60000);
    // worker-1 takes the message at 0 s and crashes at 5 s.
    CHECK(view.hover(2000).startsWith(QStringLiteral("processing ")));
    CHECK_FALSE(view.hover(2000).contains(QStringLiteral("timeout")));
}
