// Animations decoded back: the GIF's frame count is fps x duration at the asked size, and a middle frame of
// lesson 7 shows the message held in flight; bad requests say why and write nothing.
#include "export/animation_export.h"
#include "export/image_export.h"
#include "lifeline/sim/lessons.h"
#include "test_support.h"
#include "timeline/timeline_style.h"
#include "timeline/timeline_view.h"
#include "window/live_driver.h"
#include "window/main_window.h"

#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QImageReader>
#include <QTemporaryDir>

using namespace lifeline;
using namespace lifeline::ui;

TEST_CASE("animation: a GIF of lesson 7 - fps x duration frames - the message in flight mid-way", "[ui][export]")
{
    test::application();
    QTemporaryDir dir;
    AnimationRequest request;
    request.path = dir.filePath(QStringLiteral("lesson7.gif"));
    request.size = QSize(640, 360);
    request.fps = 10;
    request.duration = 3000;
    request.title = QStringLiteral("Lesson 7");
    int progressCalls = 0;
    request.progress = [&](int done, int all) {
        ++progressCalls;
        return done <= all;
    };
    REQUIRE(exportAnimation(sim::findLesson("consumer-crash")->scenario, request).ok());
    CHECK(progressCalls == 30);
    QImageReader reader(request.path);
    REQUIRE(reader.canRead());
    CHECK(reader.format() == "gif");
    CHECK(reader.imageCount() == 30);
    CHECK(reader.size() == QSize(640, 360));
    // Frame 15 of 30: half-way through the action (0 to about 45 s): worker-1 crashed holding the message, which is
    // in flight until 30 s. The in-flight colour is exact (it is in the palette).
    QImage frame;
    for (int i = 0; i <= 15; ++i)
        frame = reader.read();
    REQUIRE(!frame.isNull());
    const QColor inFlight = TimelineStyle::light().stateColor[size_t(MessageState::InFlight)];
    int held = 0;
    for (int y = 0; y < frame.height(); ++y)
        for (int x = 0; x < frame.width(); ++x)
            held += frame.pixelColor(x, y) == inFlight ? 1 : 0;
    CHECK(held > 2000);
}

TEST_CASE("animation: bad requests say why - a cancelled one writes nothing", "[ui][export]")
{
    test::application();
    QTemporaryDir dir;
    const sim::Scenario& scenario = sim::findLesson("consumer-crash")->scenario;
    AnimationRequest request;
    request.path = dir.filePath(QStringLiteral("x.gif"));
    request.fps = 0;
    CHECK(exportAnimation(scenario, request).message() == "the frame rate must be from 1 to 60 a second, got 0");
    request.fps = 15;
    request.duration = 500;
    CHECK(exportAnimation(scenario, request).message() == "the video's duration must be from 1 s to 10 min");
    request.duration = 2000;
    request.path = dir.filePath(QStringLiteral("x.avi"));
    CHECK(exportAnimation(scenario, request).message() == "unknown animation type 'avi': use .gif");
    request.path = dir.filePath(QStringLiteral("x.gif"));
    request.progress = [](int done, int) { return done < 5; };
    CHECK(exportAnimation(scenario, request).message() == "cancelled");
    CHECK_FALSE(QFile::exists(request.path));
}

TEST_CASE(
    "window: Ctrl+Shift+C copies the timeline at twice its size - File > Export animation writes a GIF", "[ui][export]")
{
    test::application();
    ui::MainWindow window;
    window.resize(1440, 900);
    window.show();
    REQUIRE(window.openLesson(QStringLiteral("7")));
    window.driver()->pause();
    window.driver()->advanceBy(40000);
    const QImage copied = window.copyTimeline();
    CHECK(copied.size() == window.timeline()->size() * 2);
    CHECK(copied.devicePixelRatio() == 2);
    CHECK(QGuiApplication::clipboard()->image().size() == copied.size());

    QTemporaryDir dir;
    AnimationRequest request;
    request.path = dir.filePath(QStringLiteral("window.gif"));
    request.size = QSize(480, 270);
    request.fps = 5;
    request.duration = 2000;
    CHECK(window.exportAnimationTo(request));
    QImageReader reader(request.path);
    CHECK(reader.imageCount() == 10);
    CHECK(window.simulation()->now() == 40000); // the window's own run stays where it was
}
