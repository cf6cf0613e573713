// The timeline painted offscreen: pixel probes find each state's colour where the log says the lane is in that
// state; selection, zoom and follow-live behave as the conventions say.
#include "lifeline/engine/engine.h"
#include "test_support.h"
#include "timeline/lane_history.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_view.h"
#include "timeline/view_state.h"

#include <QFontInfo>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <set>

using namespace lifeline;
using namespace lifeline::ui;

namespace {
struct Rendered {
    QImage image;
    TimelineFrame frame;
};

QColor probe(const QImage& image, const TimelinePainter& painter, const TimelineFrame& frame, int flatRow, TimeMs t,
    const TimelineStyle& style)
{
    TimeAxis axis = frame.axis;
    axis.left = style.labelWidth;
    const int x = int(axis.toX(t));
    const int y = painter.rowTop(image.rect(), frame, flatRow) + style.rowHeight / 2;
    return image.pixelColor(x, y);
}

// A lesson run to its end and painted at 1200x400 over [0, to], in the light style.
struct PaintedLesson {
    std::unique_ptr<sim::Simulation> simulation;
    LaneModel model;
    TimelineStyle style = TimelineStyle::light();
    std::unique_ptr<TimelinePainter> painter;
    TimelineFrame frame;
    QImage image { 1200, 400, QImage::Format_ARGB32_Premultiplied };

    PaintedLesson(const char* id, TimeMs to)
        : simulation(test::lessonSimulation(id))
    {
        simulation->runToEnd();
        model.setRun(&simulation->engine().run());
        painter = std::make_unique<TimelinePainter>(model, style);
        frame.now = simulation->now();
        frame.axis.fit(0, to, 1200 - style.labelWidth);
        QPainter p(&image);
        painter->paint(p, image.rect(), frame);
    }
    QColor at(int row, TimeMs t) const { return probe(image, *painter, frame, row, t, style); }
    int actorRow(const QString& name) const
    {
        for (int r = 0; r < painter->totalRows(); ++r)
            if (painter->rowAt(r).kind == LaneModel::ActorRow && model.actorName(painter->rowAt(r).id) == name)
                return r;
        return -1;
    }
};

// A lesson run to 60 s in a shown 1000x400 timeline view, following live.
struct ShownView {
    std::unique_ptr<sim::Simulation> simulation;
    LaneModel model;
    TimelineView view { &model };

    explicit ShownView(const char* id)
        : simulation(test::lessonSimulation(id))
    {
        simulation->advanceTo(60000);
        model.setRun(&simulation->engine().run());
        view.resize(1000, 400);
        view.show();
        view.setRunEnd(simulation->duration());
        view.setNow(simulation->now());
    }
};
} // namespace

TEST_CASE("timeline: segments have their state's colour at known times (lesson 7)", "[ui][timeline]")
{
    test::application();
    auto simulation = test::lessonSimulation("consumer-crash");
    simulation->runToEnd();
    LaneModel model;
    model.setRun(&simulation->engine().run());
    const TimelineStyle style = TimelineStyle::light();
    TimelinePainter painter(model, style);
    QImage image(1200, 400, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(1);
    TimelineFrame frame;
    frame.now = simulation->now();
    frame.axis.fit(0, 60000, 1200 - style.labelWidth);
    {
        QPainter p(&image);
        painter.paint(p, image.rect(), frame);
    }
    // Row 0 is the queue's group; row 1 the one message: in flight 0-30 s (worker-1, crashed at 5 s), visible at
    // 30 s for an instant, in flight again from 30 s (worker-2), deleted at 40 s.
    CHECK(probe(image, painter, frame, 1, 15000, style) == style.stateColor[size_t(MessageState::InFlight)]);
    CHECK(probe(image, painter, frame, 1, 35000, style) == style.stateColor[size_t(MessageState::InFlight)]);
    CHECK(probe(image, painter, frame, 1, 52500, style) == style.background);
    // The deleted end cap at 40 s is green.
    CHECK(probe(image, painter, frame, 1, 40000, style) == style.stateColor[size_t(MessageState::Deleted)]);
    // A background pixel left of 0 s, in the label column, is not a state colour.
    CHECK(image.pixelColor(5, 5) != style.stateColor[size_t(MessageState::InFlight)]);
}

TEST_CASE(
    "timeline: a delayed message is orange (with its hatch) before it turns visible (lesson 2 fix)", "[ui][timeline]")
{
    test::application();
    auto fixed = scenario::applyFix(teach::findLesson("delay-queue")->scenario);
    sim::Simulation simulation(std::get<scenario::Scenario>(std::move(fixed)));
    simulation.advanceTo(20000);
    LaneModel model;
    model.setRun(&simulation.engine().run());
    const TimelineStyle style = TimelineStyle::darkTheme();
    TimelinePainter painter(model, style);
    QImage image(900, 300, QImage::Format_ARGB32_Premultiplied);
    TimelineFrame frame;
    frame.now = simulation.now();
    frame.axis.fit(0, 30000, 900 - style.labelWidth);
    QPainter p(&image);
    painter.paint(p, image.rect(), frame);
    p.end();
    // Sample a few pixels of the first lane at 5 s: each is the orange or the hatch drawn over it.
    int orange = 0;
    TimeAxis axis = frame.axis;
    axis.left = style.labelWidth;
    const int y = painter.rowTop(image.rect(), frame, 1);
    for (int dy = 3; dy < style.rowHeight - 3; ++dy)
        orange += image.pixelColor(int(axis.toX(5000)), y + dy).red() > 150;
    CHECK(orange >= 6);
    CHECK(probe(image, painter, frame, 1, 27500, style) == style.background); // the future is empty
}

TEST_CASE("timeline view: selection - Esc - zoom keys and follow-live", "[ui][timeline]")
{
    test::application();
    auto simulation = test::lessonSimulation("visibility-too-short");
    simulation->advanceTo(60000);
    LaneModel model;
    model.setRun(&simulation->engine().run());
    TimelineView view(&model);
    view.resize(1000, 400);
    view.show();
    view.setRunEnd(simulation->duration());
    view.setNow(simulation->now());
    CHECK(view.followingLive());
    const double before = view.frame().axis.msPerPixel;
    QTest::keyClick(&view, Qt::Key_W);
    CHECK(view.frame().axis.msPerPixel == Approx(before / 1.5));
    QTest::keyClick(&view, Qt::Key_S);
    CHECK(view.frame().axis.msPerPixel == Approx(before));
    // A manual pan stops following live; the button brings it back.
    QTest::keyClick(&view, Qt::Key_A);
    CHECK_FALSE(view.followingLive());
    view.setFollowLive(true);
    CHECK(view.followingLive());
    // Click on the first message's segment selects it; Esc clears.
    QSignalSpy selected(&view, &TimelineView::laneSelected);
    const auto& frame = view.frame();
    TimeAxis axis = frame.axis;
    axis.left = view.timelineStyle().labelWidth;
    const int y = view.painter().rowTop(view.rect(), frame, 1) + view.timelineStyle().rowHeight / 2;
    const int x = int(axis.toX(std::max<TimeMs>(frame.axis.start + 2000, 2000)));
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(x, y));
    REQUIRE(selected.count() == 1);
    CHECK(view.selected() == 0);
    QTest::keyClick(&view, Qt::Key_Escape);
    CHECK(view.selected() == kNoMessage);
    // F fits the whole run.
    QTest::keyClick(&view, Qt::Key_F);
    CHECK(view.frame().axis.start == 0);
    CHECK(view.frame().axis.endFor(1000 - view.timelineStyle().labelWidth) >= simulation->duration());
}

TEST_CASE("selection shows the message history and the period and comma keys step through its events", "[ui][timeline]")
{
    test::application();
    auto simulation = test::lessonSimulation("consumer-crash");
    simulation->runToEnd();
    LaneModel model;
    model.setRun(&simulation->engine().run());
    const auto history = laneHistory(simulation->engine().run(), model.lanes(), 0);
    std::vector<QString> texts;
    for (const auto& entry : history)
        texts.push_back(entry.text);
    // sent, receive #1 by worker-1, its processing, the crash, the timeout, receive #2 by worker-2, processing,
    // finished, deleted.
    REQUIRE(history.size() == 9);
    CHECK(texts[0] == QStringLiteral("sent by shop"));
    CHECK(texts[1] == QStringLiteral("receive #1 by worker-1"));
    CHECK(texts[3] == QStringLiteral("worker-1 crashed while holding it"));
    CHECK(history[3].time == 5000);
    CHECK(texts[4] == QStringLiteral("visibility timeout ended: visible again"));
    CHECK(history[4].time == 30000);
    CHECK(texts[5] == QStringLiteral("receive #2 by worker-2"));
    CHECK(texts[8] == QStringLiteral("deleted by worker-2"));
    CHECK(history[8].time == 40000);

    TimelineView view(&model);
    view.resize(1000, 300);
    view.show();
    view.setNow(simulation->now());
    view.select(0);
    view.centreOn(0);
    QTest::keyClick(&view, Qt::Key_Period);
    const TimeMs halfView = TimeMs((1000 - view.timelineStyle().labelWidth) * view.frame().axis.msPerPixel / 2);
    const auto centre = [&] { return view.frame().axis.start + halfView; };
    // Centred on each event, as far as the view can go: it never starts before 0 s.
    CHECK(std::abs(centre() - std::max<TimeMs>(5000, halfView)) <= 1); // the crash
    QTest::keyClick(&view, Qt::Key_Period);
    CHECK(std::abs(centre() - std::max<TimeMs>(30000, halfView)) <= 1); // the timeout and the second receive
    QTest::keyClick(&view, Qt::Key_Comma);
    CHECK(std::abs(centre() - std::max<TimeMs>(5000, halfView)) <= 1);
    CHECK(view.frame().axis.start >= 0);
    CHECK_FALSE(view.followingLive());
}

TEST_CASE("filter by consumer - by state and by id - and Shift+drag measures a range", "[ui][timeline]")
{
    test::application();
    auto simulation = test::lessonSimulation("visibility-too-short");
    simulation->runToEnd();
    LaneModel model;
    model.setRun(&simulation->engine().run());
    TimelineView view(&model);
    view.resize(1000, 400);
    view.show();
    view.setNow(simulation->now());
    REQUIRE(view.painter().shownLanes() == 5);

    // The messages a consumer worked on, as the log says.
    std::set<MessageIndex> byWorker2;
    const auto& log = simulation->engine().log();
    for (size_t i = 0; i < log.size(); ++i)
        if (log[i].cause == Cause::ProcessingStarted && model.actorName(log[i].actor) == QStringLiteral("worker-2"))
            byWorker2.insert(log[i].message);
    view.setFilter(LaneFilter { QStringLiteral("worker-2"), LaneFilter::State::All });
    CHECK(view.painter().shownLanes() == byWorker2.size());
    CHECK(view.painter().rowAt(1).kind == LaneModel::MessageRow);
    CHECK(byWorker2.count(view.painter().rowAt(1).id) == 1);

    size_t duplicated = 0;
    for (MessageIndex lane = 0; lane < model.lanes().laneCount(); ++lane)
        duplicated += model.lanes().lane(lane).duplicates > 0;
    REQUIRE(duplicated > 0);
    view.setFilter(LaneFilter { {}, LaneFilter::State::Duplicates });
    CHECK(view.painter().shownLanes() == duplicated);

    const QString id = QString::fromStdString(simulation->engine().messageId(3).substr(0, 6));
    view.setFilter(LaneFilter { id, LaneFilter::State::All });
    CHECK(view.painter().shownLanes() == 1);
    view.setFilter(LaneFilter {});
    CHECK(view.painter().shownLanes() == 5);

    view.setFollowLive(false);
    view.fitAll();
    const int y = view.painter().rowTop(view.rect(), view.frame(), 1) + 5;
    QTest::mousePress(&view, Qt::LeftButton, Qt::ShiftModifier, QPoint(300, y));
    QTest::mouseMove(&view, QPoint(500, y));
    QTest::mouseRelease(&view, Qt::LeftButton, Qt::ShiftModifier, QPoint(500, y));
    CHECK(view.measured() == view.timeAt(500) - view.timeAt(300));
    CHECK(view.measured() > 0);
    QTest::keyClick(&view, Qt::Key_Escape);
    CHECK(view.measured() == -1);
}

TEST_CASE("a refused request is marked on its queue's row with SQS's text on hover (lesson 4)", "[ui][timeline]")
{
    test::application();
    auto simulation = test::lessonSimulation("fifo-refuses-timers");
    simulation->runToEnd();
    LaneModel model;
    model.setRun(&simulation->engine().run());
    REQUIRE(model.lanes().refusals(0).size() == 3);
    const TimelineStyle style = TimelineStyle::light();
    TimelinePainter painter(model, style);
    TimelineFrame frame;
    frame.now = simulation->now();
    frame.axis.fit(0, 20000, 1000 - style.labelWidth);
    const QRect rect(0, 0, 1000, 300);
    TimeAxis axis = frame.axis;
    axis.left = style.labelWidth;
    const TimeMs first = simulation->engine().log()[model.lanes().refusals(0)[0]].time;
    const auto hit = painter.hit(rect, frame, QPoint(int(axis.toX(first)), painter.rowTop(rect, frame, 0) + 8));
    REQUIRE(hit.has_value());
    CHECK(hit->text.contains(QStringLiteral(
        "Value 30 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for "
        "this queue type.")));
    QImage image(1000, 300, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&image);
    painter.paint(p, image.rect(), frame);
    p.end();
    int red = 0;
    for (int dx = -5; dx <= 5; ++dx)
        for (int dy = 2; dy < style.groupHeight - 6; ++dy) {
            const QColor c = image.pixelColor(int(axis.toX(first)) + dx, painter.rowTop(rect, frame, 0) + dy);
            red += c.red() > 150 && c.green() < 120 && c.blue() < 120; // the mark is drawn in the crash red
        }
    CHECK(red > 0);
}

TEST_CASE("consumer lanes: back-to-back jobs stay separate boxes even when the first starts before the view",
    "[ui][timeline]")
{
    test::application();
    auto simulation = test::lessonSimulation("visibility-too-short");
    simulation->runToEnd();
    LaneModel model;
    model.setRun(&simulation->engine().run());
    const TimelineStyle style = TimelineStyle::light();
    TimelinePainter painter(model, style);
    TimelineFrame frame;
    frame.now = simulation->now();
    frame.axis.fit(30000, 100000, 1200 - style.labelWidth);
    QImage image(1200, 400, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&image);
    painter.paint(p, image.rect(), frame);
    p.end();
    int row = -1;
    for (int r = 0; r < painter.totalRows(); ++r)
        if (painter.rowAt(r).kind == LaneModel::ActorRow
            && model.actorName(painter.rowAt(r).id) == QStringLiteral("worker-1"))
            row = r;
    REQUIRE(row >= 0);
    TimeAxis axis = frame.axis;
    axis.left = style.labelWidth;
    const int y = painter.rowTop(image.rect(), frame, row) + style.rowHeight / 2;
    // worker-1 finishes a job and starts the next at 50 s and at 75 s: a hairline there, working colour around.
    for (const TimeMs t : { TimeMs(50000), TimeMs(75000) }) {
        const int x = int(std::lround(axis.toX(t)));
        CHECK(image.pixelColor(x, y) == style.background);
        CHECK(image.pixelColor(x + 2, y) == style.working); // the label starts 3 px in
        CHECK(image.pixelColor(x - 5, y) == style.working);
    }
}

TEST_CASE("timeline view: Back undoes zoom gestures one at a time - and the actions follow the view", "[ui][timeline]")
{
    test::application();
    ShownView shown("visibility-too-short");
    TimelineView& view = shown.view;
    view.setFollowLive(false);
    view.fitRun(); // a new run's fit is not a gesture
    ViewState* state = view.viewState();
    CHECK(state->historySize() == 0);
    CHECK_FALSE(state->zoomBackAction()->isEnabled());
    const auto fitted = std::make_pair(view.frame().axis.start, view.frame().axis.msPerPixel);
    // Two W presses are one gesture; A (a pan) ends it; S is the next.
    QTest::keyClick(&view, Qt::Key_W);
    QTest::keyClick(&view, Qt::Key_W);
    CHECK(state->historySize() == 1);
    const auto zoomedIn = std::make_pair(view.frame().axis.start, view.frame().axis.msPerPixel);
    CHECK(zoomedIn.second == Approx(fitted.second / 2.25));
    QTest::keyClick(&view, Qt::Key_A);
    const auto panned = std::make_pair(view.frame().axis.start, view.frame().axis.msPerPixel);
    QTest::keyClick(&view, Qt::Key_S);
    CHECK(state->historySize() == 2);
    CHECK(state->zoomBackAction()->isEnabled());
    // Back: to where the S started (after the pan), then to before the two W presses.
    QTest::keyClick(&view, Qt::Key_Backspace);
    CHECK(std::make_pair(view.frame().axis.start, view.frame().axis.msPerPixel) == panned);
    state->zoomBackAction()->trigger();
    CHECK(std::make_pair(view.frame().axis.start, view.frame().axis.msPerPixel) == fitted);
    CHECK_FALSE(state->zoomBackAction()->isEnabled());
    // The follow action and the view agree whichever side changes.
    CHECK_FALSE(state->followLiveAction()->isChecked());
    state->followLiveAction()->trigger();
    CHECK(view.followingLive());
    QTest::keyClick(&view, Qt::Key_D);
    CHECK_FALSE(view.followingLive());
    CHECK_FALSE(state->followLiveAction()->isChecked());
    // One owner: a change says so once, whoever makes it; setting what is already so says nothing.
    QSignalSpy changes(&view, &ui::TimelineView::followLiveChanged);
    view.setFollowLive(false);
    CHECK(changes.count() == 0);
    view.setFollowLive(true);
    CHECK(state->followLiveAction()->isChecked());
    state->followLiveAction()->trigger();
    CHECK_FALSE(view.followingLive());
    REQUIRE(changes.count() == 2);
    CHECK(changes.at(0).at(0).toBool());
    CHECK_FALSE(changes.at(1).at(0).toBool());
}

TEST_CASE(
    "timeline: a state that lasted no time is a tick in its colour - with its own hover (lesson 7)", "[ui][timeline]")
{
    test::application();
    const PaintedLesson lesson("consumer-crash", 60000);
    const TimelineStyle& style = lesson.style;
    // The message is visible at 30 s for no time at all, between worker-1's receive and worker-2's.
    CHECK(lesson.at(1, 30000) == style.stateColor[size_t(MessageState::Visible)]);
    CHECK(lesson.at(1, 29000) == style.stateColor[size_t(MessageState::InFlight)]);
    TimeAxis axis = lesson.frame.axis;
    axis.left = style.labelWidth;
    const int y = lesson.painter->rowTop(lesson.image.rect(), lesson.frame, 1) + style.rowHeight / 2;
    const auto hit = lesson.painter->hit(lesson.image.rect(), lesson.frame, QPoint(int(axis.toX(30000)), y));
    REQUIRE(hit);
    CHECK(hit->state == MessageState::Visible);
    CHECK(hit->text.contains(QStringLiteral("visible for 0 ms at 30s")));
}

TEST_CASE("timeline legend: only what the run has shown - messages then consumers", "[ui][timeline]")
{
    test::application();
    const PaintedLesson lesson("consumer-crash", 60000);
    const TimelineStyle& style = lesson.style;
    // Lesson 7: one message, received, lost in a crash, received again and deleted.
    CHECK(lesson.painter->legend().names()
        == QStringList { QStringLiteral("Messages:"), QStringLiteral("visible"), QStringLiteral("in flight"),
            QStringLiteral("deleted"), QStringLiteral("✕ crash"), QStringLiteral("Consumers:"),
            QStringLiteral("polling"), QStringLiteral("working"), QStringLiteral("failed"),
            QStringLiteral("crashed") });
    // The consumers' colours are apart from every message state's.
    for (const QColor& activity : { style.polling, style.working, style.failed })
        for (size_t state = 1; state < size_t(MessageState::Count); ++state)
            CHECK(activity != style.stateColor[state]);
}

TEST_CASE("consumer lanes: a poll that crosses the right edge is drawn to the edge (lesson 7)", "[ui][timeline]")
{
    test::application();
    const PaintedLesson lesson("consumer-crash", 50000); // worker-2's third poll runs from 40 s to 60 s
    const int row = lesson.actorRow(QStringLiteral("worker-2"));
    REQUIRE(row >= 0);
    CHECK(lesson.at(row, 45000) == lesson.style.polling);
    CHECK(lesson.at(row, 49800) == lesson.style.polling);
}

TEST_CASE("timeline: a message in flight shows its visibility deadline and a heartbeat moves it", "[ui][timeline]")
{
    test::application();
    const auto* lesson = teach::findLesson("heartbeat");
    REQUIRE(lesson != nullptr);
    auto fixed = scenario::applyFix(lesson->scenario);
    REQUIRE(std::holds_alternative<scenario::Scenario>(fixed));
    sim::Simulation simulation(std::get<scenario::Scenario>(std::move(fixed)));
    const TimelineStyle style = TimelineStyle::light();
    const QColor ink = style.stateColor[size_t(MessageState::InFlight)];
    // Painted at `now`, the pixel near the top of the first lane at time t (the bracket spans the lane's height; the
    // dotted line to it runs along the middle).
    const auto bracketAt = [&](TimeMs now, TimeMs t) {
        simulation.advanceTo(now);
        LaneModel model;
        model.setRun(&simulation.engine().run());
        TimelinePainter painter(model, style);
        TimelineFrame frame;
        frame.now = simulation.now();
        frame.axis.fit(0, 30000, 1200 - style.labelWidth);
        QImage image(1200, 300, QImage::Format_ARGB32_Premultiplied);
        QPainter p(&image);
        painter.paint(p, image.rect(), frame);
        TimeAxis axis = frame.axis;
        axis.left = style.labelWidth;
        const int y = painter.rowTop(image.rect(), frame, 1) + 4;
        return image.pixelColor(int(std::lround(axis.toX(t))), y);
    };
    // Received at 0 s with a 10 s timeout: at 4 s the bracket stands at 10 s.
    CHECK(bracketAt(4000, 10000) == ink);
    CHECK(bracketAt(4000, 15000) != ink);
    // The heartbeat at 5 s sets 10 s from then: at 6 s the bracket has moved to 15 s.
    CHECK(bracketAt(6000, 15000) == ink);
    CHECK(bracketAt(6000, 10000) != ink);
    // The hover says the time left.
    LaneModel model;
    model.setRun(&simulation.engine().run());
    const TimelinePainter painter(model, style);
    TimelineFrame frame;
    frame.now = simulation.now();
    frame.axis.fit(0, 30000, 1200 - style.labelWidth);
    TimeAxis axis = frame.axis;
    axis.left = style.labelWidth;
    const QRect rect(0, 0, 1200, 300);
    const auto hit = painter.hit(rect, frame, QPoint(int(axis.toX(3000)), painter.rowTop(rect, frame, 1) + 9));
    REQUIRE(hit);
    CHECK(hit->text.endsWith(QStringLiteral("visible again in 9s (at 15s) unless deleted or extended")));
}

TEST_CASE("timeline: marks stand on their own plate - never under a label - at least 12 px", "[ui][timeline]")
{
    test::application();
    auto simulation = test::lessonSimulation("visibility-too-short");
    simulation->runToEnd();
    LaneModel model;
    model.setRun(&simulation->engine().run());
    const TimelineStyle style = TimelineStyle::darkTheme(); // labels on in-flight bars are white, plates dark
    const TimelinePainter painter(model, style);
    TimelineFrame frame;
    frame.now = simulation->now();
    frame.axis.fit(0, 90000, 1400 - style.labelWidth);
    QImage image(1400, 400, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&image);
    painter.paint(p, image.rect(), frame);
    p.end();
    TimeAxis axis = frame.axis;
    axis.left = style.labelWidth;
    // The first lane: worker-2 starts it again at 10 s (2x), where "in flight #2" begins.
    const int x = int(std::lround(axis.toX(10000)));
    const int top = painter.rowTop(image.rect(), frame, 1);
    int markLeft = 10000, markRight = -1, white = 0;
    for (int px = x - 8; px <= x + 8; ++px)
        for (int py = top + 1; py < top + style.rowHeight - 1; ++py) {
            const QColor c = image.pixelColor(px, py);
            if (c == style.duplicate) {
                markLeft = std::min(markLeft, px);
                markRight = std::max(markRight, px);
            }
            white += c.lightness() > 200 ? 1 : 0;
        }
    CHECK(markRight - markLeft + 1 >= 10); // "2×" at 13 px is about 14 px wide
    CHECK(white == 0); // no label text under the mark: the label starts after it
    // The label is there, right after the plate: light text pixels within 60 px after it.
    int labelPixels = 0;
    for (int px = x + 9; px < x + 70; ++px)
        for (int py = top + 3; py < top + style.rowHeight - 3; ++py)
            labelPixels += image.pixelColor(px, py).lightness() > 200 ? 1 : 0;
    CHECK(labelPixels > 20);
}

TEST_CASE(
    "timeline: a selected message's receives flow from the consumers' rows - its work boxes outlined", "[ui][timeline]")
{
    test::application();
    auto simulation = test::lessonSimulation("visibility-too-short");
    simulation->runToEnd();
    LaneModel model;
    model.setRun(&simulation->engine().run());
    const TimelineStyle style = TimelineStyle::light();
    const TimelinePainter painter(model, style);
    TimelineFrame frame;
    frame.now = simulation->now();
    frame.axis.fit(0, 90000, 1400 - style.labelWidth);
    const auto paint = [&](MessageIndex selected) {
        frame.selected = selected;
        QImage image(1400, 400, QImage::Format_ARGB32_Premultiplied);
        QPainter p(&image);
        painter.paint(p, image.rect(), frame);
        return image;
    };
    TimeAxis axis = frame.axis;
    axis.left = style.labelWidth;
    const QRect rect(0, 0, 1400, 400);
    int worker2 = -1;
    for (int r = 0; r < painter.totalRows(); ++r)
        if (painter.rowAt(r).kind == LaneModel::ActorRow && model.actorName(painter.rowAt(r).id) == "worker-2")
            worker2 = r;
    REQUIRE(worker2 > 0);
    // worker-2 receives the first message at 10 s: the arrow crosses lane 3 (not sent until 20 s) at 10 s.
    const double x = axis.toX(10000);
    const int crossing = painter.rowTop(rect, frame, 3) + style.rowHeight / 2;
    const auto darkest = [&](const QImage& image) { // the line is antialiased: its darkest pixel across x
        int lightness = 255;
        for (int px = int(x) - 1; px <= int(x) + 2; ++px)
            lightness = std::min(lightness, image.pixelColor(px, crossing).lightness());
        return lightness;
    };
    CHECK(darkest(paint(0)) < 80);
    CHECK(darkest(paint(kNoMessage)) > 200);
    // worker-2's work on it (10 s to 35 s) is outlined along its top edge.
    const int edge = painter.rowTop(rect, frame, worker2) + 1;
    CHECK(paint(0).pixelColor(int(axis.toX(20000)), edge) == style.selection);
    CHECK(paint(1).pixelColor(int(axis.toX(20000)), edge) != style.selection);
}

TEST_CASE("timeline: a click on a work box selects its message - off it the actor is clicked", "[ui][timeline]")
{
    test::application();
    ShownView shown("visibility-too-short");
    TimelineView& view = shown.view;
    QSignalSpy actorClicks(&view, &TimelineView::actorClicked);
    const RunView& run = shown.simulation->engine().run();
    uint32_t actor = 0;
    while (actor < run.actorCount() && run.actorName(actor) != "worker-1")
        ++actor;
    int worker1 = -1;
    for (int r = 0; r < view.painter().totalRows(); ++r)
        if (view.painter().rowAt(r).kind == LaneModel::ActorRow && view.painter().rowAt(r).id == actor)
            worker1 = r;
    REQUIRE(worker1 > 0);
    TimeAxis axis = view.frame().axis;
    axis.left = view.timelineStyle().labelWidth;
    const int y = view.painter().rowTop(view.rect(), view.frame(), worker1) + view.timelineStyle().rowHeight / 2;
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(int(axis.toX(5000)), y)); // working on the first message
    CHECK(view.selected() == 0);
    CHECK(actorClicks.isEmpty());
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(20, y)); // its name
    CHECK(actorClicks.size() == 1);
}

TEST_CASE("timeline: the legend lists what the view shows - not the whole run", "[ui][timeline]")
{
    test::application();
    auto simulation = test::lessonSimulation("visibility-too-short");
    simulation->runToEnd();
    LaneModel model;
    model.setRun(&simulation->engine().run());
    const TimelineStyle style = TimelineStyle::light();
    const TimelinePainter painter(model, style);
    TimelineFrame frame;
    frame.now = simulation->now();
    const QRect rect(0, 0, 1400, 400);
    const auto bit = [](MessageState s) { return 1u << unsigned(s); };
    // The first 9 seconds: one message, visible for an instant (its tick) and in flight; nothing deleted or
    // duplicated yet.
    frame.axis.fit(0, 9000, 1400 - style.labelWidth);
    const LegendContent early = painter.contentInView(rect, frame);
    CHECK(early.states == (bit(MessageState::Visible) | bit(MessageState::InFlight)));
    CHECK_FALSE(early.shows(picture::LaneMark::Duplicate));
    CHECK(early.working);
    // The first 90 seconds: visible, in flight, deleted and the duplicates.
    frame.axis.fit(0, 90000, 1400 - style.labelWidth);
    const LegendContent action = painter.contentInView(rect, frame);
    CHECK(action.states == (bit(MessageState::Visible) | bit(MessageState::InFlight) | bit(MessageState::Deleted)));
    CHECK(action.shows(picture::LaneMark::Duplicate));
    // Long after the last message: no message state at all.
    frame.axis.fit(150000, 240000, 1400 - style.labelWidth);
    const LegendContent late = painter.contentInView(rect, frame);
    CHECK(late.states == 0);
    // ...and then no "Messages:" heading with nothing under it.
    TimelineLegend legend(style);
    legend.setContent(late);
    CHECK(legend.names()
        == QStringList { QStringLiteral("Consumers:"), QStringLiteral("polling"), QStringLiteral("working") });
}

TEST_CASE("timeline: the view never shows time before 0 s - moments - centring - dragging - zooming", "[ui][timeline]")
{
    test::application();
    ShownView shown("life-of-a-message"); // its first moment, the receive, is at 0 s
    TimelineView& view = shown.view;
    shown.model.setMomentSpecs(shown.simulation->scenario().lesson->moments);
    shown.model.setRun(&shown.simulation->engine().run());
    REQUIRE_FALSE(shown.model.moments().empty());
    REQUIRE(shown.model.moments().front().at < 10000);
    view.focusMoment(1);
    CHECK(view.frame().axis.start == 0);
    CHECK(view.frame().focusedMoment == 1);
    view.centreOn(2000);
    CHECK(view.frame().axis.start == 0);
    const double scale = view.frame().axis.msPerPixel;
    view.panPixels(500); // dragging the timeline to the right: toward earlier times
    CHECK(view.frame().axis.start == 0);
    CHECK(view.frame().axis.msPerPixel == scale); // the scale stays
    view.zoomAround(view.timelineStyle().labelWidth + 10, 0.25); // zooming out near the left edge
    CHECK(view.frame().axis.start == 0);
    QTest::keyClick(&view, Qt::Key_N); // the first moment again, by key
    CHECK(view.frame().axis.start >= 0);
}

TEST_CASE("timeline: rows grow to fill the height while lanes are few - and shrink to 18 px as lanes arrive",
    "[ui][timeline]")
{
    test::application();
    Engine engine;
    REQUIRE(engine.createQueue("orders").ok());
    LaneModel model;
    model.setRun(&engine.run());
    TimelineView view(&model);
    view.resize(1000, 600);
    view.show();
    const auto send = [&](int count) {
        for (int i = 0; i < count; ++i) {
            SendMessageRequest request;
            request.queue = "orders";
            request.body = "order " + std::to_string(engine.messageCount() + 1);
            REQUIRE(engine.sendMessage(request).ok());
        }
        model.sync();
        (void)view.grab(); // a paint arranges the rows
    };
    const TimelineStyle& style = view.timelineStyle();
    // Three lanes (five rows with the queue's and the consumers'): the tallest rows, larger type, wider names.
    send(3);
    CHECK(view.painter().totalRows() == 5);
    CHECK(style.rowHeight == 64);
    CHECK(style.rowTextPixels == QFontInfo(view.font()).pixelSize() * 5 / 4);
    CHECK(style.labelWidth == TimelineStyle::light().labelWidth * 5 / 4);
    // Twelve: the rows fill the room between them.
    send(9);
    const int rows = view.painter().totalRows();
    REQUIRE(rows == 14);
    const int room = view.painter().roomForRows(view.rect(), true);
    CHECK(style.rowHeight > TimelineStyle::light().rowHeight);
    CHECK(style.rowHeight < 64);
    CHECK(rows * style.rowHeight <= room);
    CHECK(rows * (style.rowHeight + 1) > room);
    // While the run plays they shrink over a few paints, a third of the way each (never past their height), and
    // snap to it when it pauses.
    view.setEaseRows(true);
    const int twelve = style.rowHeight;
    send(6);
    const int filling = view.painter().fillingRowHeight(view.painter().roomForRows(view.rect(), true), 18);
    REQUIRE(filling < twelve - 3);
    CHECK(style.rowHeight == twelve - (twelve - filling) / 3);
    std::vector<int> heights { style.rowHeight };
    for (int paint = 0; paint < 20 && heights.back() > filling; ++paint) {
        (void)view.grab();
        heights.push_back(style.rowHeight);
    }
    CHECK(heights.back() == filling);
    CHECK(std::is_sorted(heights.rbegin(), heights.rend()));
    CHECK(heights.size() >= 3);
    send(2);
    view.setEaseRows(false);
    (void)view.grab();
    CHECK(style.rowHeight == view.painter().fillingRowHeight(view.painter().roomForRows(view.rect(), true), 18));
    // Fifty: never below the screen's 18 px (the rows scroll), with the theme's type and names.
    send(18);
    CHECK(style.rowHeight == TimelineStyle::light().rowHeight);
    CHECK(style.rowTextPixels == 0);
    CHECK(style.labelWidth == TimelineStyle::light().labelWidth);
    // A lane is named by its body; the hover says its name and its MessageId.
    TimelineFrame frame = view.frame();
    TimeAxis axis = frame.axis;
    axis.left = style.labelWidth;
    const auto hit = hitRow(model, view.painter().rowAt(1), axis, engine.now(), int(axis.toX(0)) + 1);
    REQUIRE(hit);
    CHECK(hit->text.startsWith(QStringLiteral("order 1 · ") + QString::fromStdString(engine.messageId(0)) + "\n"));
}

namespace {
// The hover's text over `lane` at `t` in a run of `scenario` to its end (an axis of 100 ms a pixel from 0 s).
QString hoverAt(const scenario::Scenario& scenario, MessageIndex lane, TimeMs t)
{
    sim::Simulation simulation(scenario);
    simulation.runToEnd();
    LaneModel model;
    model.setRun(&simulation.engine().run());
    TimeAxis axis;
    axis.msPerPixel = 100;
    const auto hit = hitRow(model, RowRef { LaneModel::MessageRow, 0, lane, 0 }, axis, simulation.now(), int(t / 100));
    return hit ? hit->text : QString();
}

scenario::Scenario fixed(const char* lesson)
{
    return std::get<scenario::Scenario>(scenario::applyFix(teach::findLesson(lesson)->scenario));
}
} // namespace

TEST_CASE("timeline: a segment says what holds it - the queue's delay or a timer, the visibility timeout, a reset",
    "[ui][timeline]")
{
    test::application();
    const scenario::Scenario& timer = teach::findLesson("message-timer")->scenario;
    // Lesson 3: the retry (lane 1) waits the queue's 10 s as written; its own 60 s timer with the fix.
    CHECK(hoverAt(timer, 1, 5000).endsWith(QStringLiteral("\nDelaySeconds 10 s")));
    CHECK(hoverAt(timer, 1, 5000).contains(QStringLiteral("delayed 10s by the queue's DelaySeconds")));
    CHECK(hoverAt(fixed("message-timer"), 1, 30000).endsWith(QStringLiteral("\ntimer 1 min")));
    CHECK(hoverAt(fixed("message-timer"), 1, 30000).contains(QStringLiteral("delayed 1m by its message timer")));
    // Lesson 8: in flight for the 10 s timeout that ran out as written; with the fix, deleted before its 60 s ran out.
    CHECK(hoverAt(teach::findLesson("visibility-too-short")->scenario, 0, 5000)
              .endsWith(QStringLiteral("\n#1 · visibility 10 s")));
    CHECK(hoverAt(fixed("visibility-too-short"), 0, 5000).endsWith(QStringLiteral("\n#1 · visibility 1 min")));
    // Lesson 9's fix: the heartbeat resets the timeout to 10 s every 5 s.
    CHECK(hoverAt(fixed("heartbeat"), 0, 20000).endsWith(QStringLiteral("\n#1 · reset to 10 s")));
    // A visible segment says nothing more than its state.
    CHECK(hoverAt(teach::findLesson("visibility-too-short")->scenario, 1, 12000)
              .endsWith(QStringLiteral("\ncause: sent by app")));
}

TEST_CASE("timeline: a message sent by hand says who sent it and what delays it", "[ui][timeline]")
{
    test::application();
    sim::Simulation simulation(test::scenarioFrom(R"({"duration": "2m", "queues": [{"name": "jobs"}]})"));
    simulation.advanceTo(10000);
    scenario::TimedMessage message;
    message.body = "by hand";
    message.delaySeconds = 30;
    REQUIRE(simulation.sendMessage("jobs", message));
    simulation.advanceTo(60000);
    LaneModel model;
    model.setRun(&simulation.engine().run());
    TimeAxis axis;
    axis.msPerPixel = 100;
    const auto hover = [&](TimeMs t) {
        const auto hit = hitRow(model, RowRef { LaneModel::MessageRow, 0, 0, 0 }, axis, simulation.now(), int(t / 100));
        return hit ? hit->text : QString();
    };
    CHECK(hover(20000).contains(QStringLiteral(
        "delayed from 10s to 40s (30s)\ncause: sent by operator, delayed 30s by its message timer\ntimer 30 s")));
    CHECK(hover(50000).endsWith(QStringLiteral("\ncause: delay ended: visible")));
}

TEST_CASE("timeline: a crashed consumer's row is a box of the crash colour its word fits on", "[ui][timeline]")
{
    test::application();
    // Lesson 7: worker-1 crashes at 5 s and stays down.
    PaintedLesson lesson("consumer-crash", 60000);
    const int row = lesson.actorRow(QStringLiteral("worker-1"));
    REQUIRE(row >= 0);
    TimeAxis axis = lesson.frame.axis;
    axis.left = lesson.style.labelWidth;
    const int top = lesson.painter->rowTop(lesson.image.rect(), lesson.frame, row);
    const int x = int(axis.toX(30000));
    // Filled to 3 px from the row's edges (it was a 4 px line in an 18 px row).
    CHECK(lesson.image.pixelColor(x, top + 4) == lesson.style.crash);
    CHECK(lesson.image.pixelColor(x, top + lesson.style.rowHeight - 5) == lesson.style.crash);
    CHECK(lesson.image.pixelColor(x, top + 1) != lesson.style.crash);
}

TEST_CASE("timeline view: now moving on a still axis repaints without moving the view - following live moves it",
    "[ui][timeline]")
{
    test::application();
    ShownView shown("visibility-too-short");
    TimelineView& view = shown.view;
    view.setFollowLive(false);
    view.fitRange(0, 240000);
    const TimeAxis axis = view.frame().axis;
    QSignalSpy moved(&view, &TimelineView::viewChanged);
    view.setNow(70000);
    CHECK(moved.isEmpty());
    CHECK(view.frame().now == 70000);
    CHECK(view.frame().axis.start == axis.start);
    CHECK(view.frame().axis.msPerPixel == axis.msPerPixel);
    view.setFollowLive(true);
    moved.clear();
    view.setNow(900000);
    CHECK(moved.size() == 1);
    CHECK(view.frame().axis.start > axis.start);
}

TEST_CASE("timeline view: the consumers' rows are pinned in a strip - arriving lanes and scrolling never move them",
    "[ui][timeline]")
{
    test::application();
    // Lesson 14: sixteen lanes in two FIFO queues and three consumers, in a view too short for every row.
    auto simulation = test::lessonSimulation("fifo-message-groups");
    simulation->advanceTo(30000);
    LaneModel model;
    model.setRun(&simulation->engine().run());
    TimelineView view(&model);
    view.resize(1000, 360);
    view.show();
    view.setFollowLive(false);
    view.fitRange(0, 120000);
    (void)view.grab();
    const TimelinePainter& painter = view.painter();
    const QRect strip = painter.actorStrip(view.rect(), true);
    REQUIRE_FALSE(strip.isNull());
    const int actorsTop = painter.totalRows() - strip.height() / view.timelineStyle().rowHeight;
    REQUIRE(painter.rowAt(actorsTop).kind == LaneModel::ActorGroup);
    const int worker = actorsTop + 1;
    const int workerTop = painter.rowTop(view.rect(), view.frame(), worker);
    CHECK(workerTop >= strip.top());
    CHECK(workerTop < strip.bottom());
    // Lanes arrive (ten invoices at 65 s) and outgrow the view: the strip stays at its bottom.
    simulation->advanceTo(90000);
    model.sync();
    (void)view.grab();
    const QRect after = painter.actorStrip(view.rect(), true);
    CHECK(after.bottom() == painter.lanesArea(view.rect(), true).bottom());
    CHECK(after.height() == 4 * view.timelineStyle().rowHeight); // the group row and three consumers
    const int pinnedTop = painter.rowTop(view.rect(), view.frame(), painter.totalRows() - 2);
    // Scrolling moves the lanes under a still strip, as far as the last lane and no further.
    view.scrollRows(1000);
    CHECK(view.frame().firstRow > 0);
    CHECK(painter.rowTop(view.rect(), view.frame(), painter.totalRows() - 2) == pinnedTop);
    const int lastLane = painter.scrollableRows(view.rect()) - 1;
    CHECK(painter.rowTop(view.rect(), view.frame(), lastLane) < after.top());
    // The mouse over the strip finds the consumer, over the lanes a lane.
    const auto under = painter.rowUnder(view.rect(), view.frame(), QPoint(300, pinnedTop + 2));
    REQUIRE(under);
    CHECK(under->kind == LaneModel::ActorRow);
    const auto lane = painter.rowUnder(
        view.rect(), view.frame(), QPoint(300, painter.rowTop(view.rect(), view.frame(), lastLane) + 2));
    REQUIRE(lane);
    CHECK(lane->kind != LaneModel::ActorRow);
    // A click on the pinned consumer's name, after lanes arrived and the lanes scrolled, is that consumer's.
    QSignalSpy actorClicks(&view, &TimelineView::actorClicked);
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(20, pinnedTop + view.timelineStyle().rowHeight / 2));
    REQUIRE(actorClicks.size() == 1);
    CHECK(actorClicks.front().front().toUInt() == painter.rowAt(painter.totalRows() - 2).id);
    CHECK(painter.rowAt(painter.totalRows() - 2).kind == LaneModel::ActorRow);
}
