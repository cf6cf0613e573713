// `lifeline screenshot`'s window: a lesson at a virtual instant, as a user would see it. Lesson 8 at 20 s in a
// 1920x1080 window reads from across a room: its lanes are 24 px tall or more, and the lanes and the consumers' rows
// cover a quarter of the window's height or more.
#include "lifeline/teach/lessons.h"
#include "test_support.h"
#include "timeline/timeline_view.h"
#include "window/controllers/presenter_controller.h"
#include "window/main_window.h"
#include "window/window_shot.h"

using namespace lifeline;
using namespace lifeline::ui;

namespace {
WindowShotRequest lesson8(QSize size, bool dark = false)
{
    WindowShotRequest request;
    request.scenario = teach::findLesson("visibility-too-short")->scenario;
    request.at = 20000;
    request.size = size;
    request.dark = dark;
    return request;
}
} // namespace

TEST_CASE("window shot: lesson 8 at 20 s in 1920x1080 - lanes of 24 px or more covering a quarter of the height",
    "[ui][shot]")
{
    test::application();
    for (const bool dark : { false, true }) {
        WindowShot shot(lesson8({ 1920, 1080 }, dark));
        const QImage image = shot.image();
        CHECK(image.size() == QSize(1920, 1080));
        auto* view = test::widget<TimelineView>(shot.window(), "timeline");
        CHECK(view->frame().now == 20000);
        CHECK(view->timelineStyle().dark == dark);
        int lanes = 0, consumers = 0;
        for (int r = 0; r < view->painter().totalRows(); ++r) {
            const auto kind = view->painter().rowAt(r).kind;
            lanes += kind == LaneModel::MessageRow ? 1 : 0;
            consumers += kind == LaneModel::ActorRow ? 1 : 0;
        }
        CHECK(lanes == 3); // sent at 0, 10 and 20 s
        CHECK(consumers == 2);
        CHECK(view->timelineStyle().rowHeight >= 24);
        CHECK((lanes + consumers) * view->timelineStyle().rowHeight >= 1080 / 4);
    }
}

TEST_CASE("window shot: the same request gives the same picture - and Compare shows both runs", "[ui][shot]")
{
    test::application();
    const QImage first = WindowShot(lesson8({ 1024, 700 })).image();
    const QImage second = WindowShot(lesson8({ 1024, 700 })).image();
    CHECK(first.size() == QSize(1024, 700));
    CHECK(first == second);
    WindowShotRequest compare = lesson8({ 1366, 768 });
    compare.compare = true;
    WindowShot shot(compare);
    REQUIRE(shot.comparison() != nullptr);
    CHECK(shot.image().size() == QSize(1366, 768));
    // Presenter mode at the size asked for (offscreen, full screen would be the platform's 800x800).
    WindowShotRequest presenter = lesson8({ 1366, 768 });
    presenter.presenter = true;
    WindowShot presenting(presenter);
    CHECK(presenting.window().presenter()->presenting());
    CHECK(presenting.window().size() == QSize(1366, 768));
    CHECK(presenting.image().size() == QSize(1366, 768));
}
