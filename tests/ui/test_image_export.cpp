// Exports parsed back: the PNG decodes at the asked size with a state's colour where a segment must be, the SVG
// is XML with shapes, the PDF starts with %PDF and has a page; a failed save says why and keeps the old file.
#include "export/image_export.h"
#include "test_support.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_style.h"

#include <QDir>
#include <QDomDocument>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <csignal>
#include <map>
#include <set>
#include <sys/resource.h>

using namespace lifeline;
using namespace lifeline::ui;

TEST_CASE(
    "image export: PNG at the asked size with the in-flight colour where lesson 7's message is held", "[ui][export]")
{
    test::application();
    auto simulation = test::lessonSimulation("consumer-crash");
    simulation->runToEnd();
    QTemporaryDir dir;
    ImageExportRequest request;
    request.path = dir.filePath(QStringLiteral("lesson7.png"));
    request.size = QSize(1000, 400);
    request.from = 0;
    request.to = 60000;
    request.title = QStringLiteral("Lesson 7");
    REQUIRE(exportTimelineImage(simulation->engine().run(), request).ok());
    QImage image(request.path);
    REQUIRE(image.size() == QSize(1000, 400));
    // Find the in-flight colour at 15 s on some row: the message is held by worker-1 then.
    const TimelineStyle style = TimelineStyle::light();
    const int x = style.labelWidth + int(15000.0 / 60000.0 * (1000 - style.labelWidth));
    int inFlight = 0;
    for (int y = 0; y < image.height(); ++y)
        inFlight += image.pixelColor(x, y) == style.stateColor[size_t(MessageState::InFlight)];
    CHECK(inFlight >= 8);
}

TEST_CASE("image export: a text alternative in the PNG and the SVG - the title, the claim, each key moment at its time",
    "[ui][export][accessibility]")
{
    test::application();
    auto simulation = test::lessonSimulation("consumer-crash");
    simulation->runToEnd();
    QTemporaryDir dir;
    ImageExportRequest request;
    request.path = dir.filePath(QStringLiteral("lesson7.png"));
    request.size = QSize(1000, 400);
    request.title = QStringLiteral("Lesson 7 → the crash");
    request.claim = QStringLiteral("the order done after its send: 40 s");
    request.moments = simulation->scenario().lesson->moments;
    REQUIRE(exportTimelineImage(simulation->engine().run(), request).ok());
    // The moments as the run found them, at their times; text beyond Latin-1 kept.
    const QString expected = QStringLiteral(
        "Lesson 7 → the crash. The order done after its send: 40 s. At 5s: worker-1 crashes holding the message: "
        "nobody will delete it. At 30s: The visibility timeout ends 30 s after the receive: the message worker-1 held "
        "is visible again. At 30s: worker-2 receives it (#2). At 40s: worker-2 finishes the job and deletes it.");
    const QImage image(request.path);
    CHECK(image.text(QStringLiteral("Title")).toStdString() == request.title.toStdString());
    CHECK(image.text(QStringLiteral("Description")).toStdString() == expected.toStdString());
    request.path = dir.filePath(QStringLiteral("lesson7.svg"));
    REQUIRE(exportTimelineImage(simulation->engine().run(), request).ok());
    QFile svg(request.path);
    REQUIRE(svg.open(QIODevice::ReadOnly));
    QDomDocument document;
    REQUIRE(document.setContent(&svg));
    CHECK(document.elementsByTagName(QStringLiteral("title")).at(0).toElement().text().toStdString()
        == request.title.toStdString());
    CHECK(document.elementsByTagName(QStringLiteral("desc")).at(0).toElement().text().toStdString()
        == expected.toStdString());
    // A PDF's, in its XMP metadata (written uncompressed, as PDF/A readers expect).
    request.path = dir.filePath(QStringLiteral("lesson7.pdf"));
    REQUIRE(exportTimelineImage(simulation->engine().run(), request).ok());
    QFile pdf(request.path);
    REQUIRE(pdf.open(QIODevice::ReadOnly));
    CHECK(pdf.readAll().contains(
        ("<dc:description><rdf:Alt><rdf:li xml:lang='x-default'>" + expected + "</rdf:li>").toUtf8()));
    // What `lifeline run --alt` prints is the same text.
    CHECK(exportAltText({ { &simulation->engine().run(), request.moments, {} } }, request).toStdString()
        == expected.toStdString());
}

TEST_CASE("image export: high contrast - white on black, the lane's in-flight fill the theme's, a gap of black "
          "between two segments",
    "[ui][export][accessibility]")
{
    test::application();
    auto simulation = test::lessonSimulation("consumer-crash");
    simulation->runToEnd();
    QTemporaryDir dir;
    ImageExportRequest request;
    request.path = dir.filePath(QStringLiteral("hc.png"));
    request.size = QSize(1000, 400);
    request.title = QStringLiteral("Lesson 7");
    request.highContrast = true;
    REQUIRE(exportTimelineImage(simulation->engine().run(), request).ok());
    const QImage image(request.path);
    const TimelineStyle hc = TimelineStyle::highContrast();
    CHECK(image.pixelColor(2, 2) == hc.background);
    const QColor inFlight = hc.stateColor[size_t(MessageState::InFlight)];
    int held = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            held += image.pixelColor(x, y) == inFlight ? 1 : 0;
    CHECK(held > 1000);
    // Lesson 8's lanes turn visible when their timeout ends while they are in flight: in flight, then black (the
    // gap, two pixels: one in the light and dark themes), then visible.
    auto eight = test::lessonSimulation("visibility-too-short");
    eight->runToEnd();
    request.path = dir.filePath(QStringLiteral("hc8.png"));
    REQUIRE(exportTimelineImage(eight->engine().run(), request).ok());
    const QImage lanes(request.path);
    const QColor visible = hc.stateColor[size_t(MessageState::Visible)];
    int gaps = 0;
    for (int y = 0; y < lanes.height(); ++y)
        for (int x = 1; x + 2 < lanes.width(); ++x)
            gaps += lanes.pixelColor(x - 1, y) == inFlight && lanes.pixelColor(x, y) == hc.background
                    && lanes.pixelColor(x + 1, y) == hc.background && lanes.pixelColor(x + 2, y) == visible
                ? 1
                : 0;
    CHECK(gaps > 5);
}

TEST_CASE("image export: SVG is XML with shapes - PDF has a page", "[ui][export]")
{
    test::application();
    auto simulation = test::lessonSimulation("visibility-too-short");
    simulation->runToEnd();
    QTemporaryDir dir;
    ImageExportRequest request;
    request.title = QStringLiteral("Lesson 8");
    request.path = dir.filePath(QStringLiteral("lesson8.svg"));
    REQUIRE(exportTimelineImage(simulation->engine().run(), request).ok());
    QFile svg(request.path);
    REQUIRE(svg.open(QIODevice::ReadOnly));
    QDomDocument document;
    REQUIRE(document.setContent(&svg));
    CHECK(document.documentElement().tagName() == QStringLiteral("svg"));
    CHECK(document.elementsByTagName(QStringLiteral("rect")).count()
            + document.elementsByTagName(QStringLiteral("path")).count()
        > 20);

    request.path = dir.filePath(QStringLiteral("lesson8.pdf"));
    REQUIRE(exportTimelineImage(simulation->engine().run(), request).ok());
    QFile pdf(request.path);
    REQUIRE(pdf.open(QIODevice::ReadOnly));
    const QByteArray bytes = pdf.readAll();
    CHECK(bytes.startsWith("%PDF"));
    CHECK(bytes.contains("/Type /Page"));
}

TEST_CASE("image export: bad requests say why and a failed save keeps the earlier file", "[ui][export]")
{
    test::application();
    auto simulation = test::lessonSimulation("life-of-a-message");
    simulation->runToEnd();
    QTemporaryDir dir;
    ImageExportRequest request;
    request.path = dir.filePath(QStringLiteral("x.gif"));
    CHECK(exportTimelineImage(simulation->engine().run(), request).message()
        == "unknown image type 'gif': use .png, .svg or .pdf");
    request.path = dir.filePath(QStringLiteral("x.png"));
    request.size = QSize(10, 10);
    CHECK(exportTimelineImage(simulation->engine().run(), request).message().starts_with("the size must be"));
    request.path = QStringLiteral("/nonexistent-directory/x.png");
    request.size = QSize(800, 600);
    CHECK(exportTimelineImage(simulation->engine().run(), request).message().starts_with("cannot write"));
}

TEST_CASE("image export: the SVG has one in-flight shape per in-flight segment of the log (lesson 7)", "[ui][export]")
{
    test::application();
    auto simulation = test::lessonSimulation("consumer-crash");
    simulation->runToEnd();
    QTemporaryDir dir;
    ImageExportRequest request;
    request.path = dir.filePath(QStringLiteral("lesson7.svg"));
    request.size = QSize(1200, 400);
    request.title = QStringLiteral("Lesson 7");
    REQUIRE(exportTimelineImage(simulation->engine().run(), request).ok());
    // In-flight segments the log has (wider than the 3 px under which segments merge), plus the legend's swatch.
    const Engine& engine = simulation->engine();
    const double msPerPixel = double(engine.now()) / (1200 - TimelineStyle::light().labelWidth);
    int segments = 0;
    std::map<MessageIndex, TimeMs> since;
    for (size_t i = 0; i < engine.log().size(); ++i) {
        const Event& e = engine.log()[i];
        if (e.message == kNoMessage || e.from == e.to || e.cause == Cause::RequestRefused)
            continue;
        if (e.from == MessageState::InFlight && double(e.time - since[e.message]) / msPerPixel >= 3)
            ++segments;
        since[e.message] = e.time;
    }
    REQUIRE(segments == 2);
    QFile svg(request.path);
    REQUIRE(svg.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(svg.readAll());
    const QString inFlight = TimelineStyle::light().stateColor[size_t(MessageState::InFlight)].name();
    CHECK(text.count(QStringLiteral("fill=\"%1\"").arg(inFlight)) == segments + 1);
}

TEST_CASE("image export: light for print by default - the dark style on request", "[ui][export]")
{
    test::application();
    auto simulation = test::lessonSimulation("life-of-a-message");
    simulation->runToEnd();
    QTemporaryDir dir;
    ImageExportRequest request;
    request.size = QSize(800, 300);
    request.path = dir.filePath(QStringLiteral("light.png"));
    REQUIRE(exportTimelineImage(simulation->engine().run(), request).ok());
    request.dark = true;
    request.path = dir.filePath(QStringLiteral("dark.png"));
    REQUIRE(exportTimelineImage(simulation->engine().run(), request).ok());
    // A corner of the title band is the style's background.
    CHECK(QImage(dir.filePath(QStringLiteral("light.png"))).pixelColor(790, 5) == TimelineStyle::light().background);
    CHECK(QImage(dir.filePath(QStringLiteral("dark.png"))).pixelColor(790, 5) == TimelineStyle::darkTheme().background);
}

TEST_CASE(
    "image export: a 1920x1080 slide - 16 px type - rows up to 64 px - bars over 30 % of its height", "[ui][export]")
{
    test::application();
    const TimelineStyle slide = slideStyle(TimelineStyle::light(), QSize(1920, 1080));
    CHECK(slide.textPixels == 16);
    CHECK(slide.legendPixels == 16);
    CHECK(slide.markPixels == 18);
    CHECK(slide.pinRadius == 13);
    auto simulation = test::lessonSimulation("visibility-too-short");
    simulation->runToEnd();
    QTemporaryDir dir;
    ImageExportRequest request;
    request.path = dir.filePath(QStringLiteral("lesson8.png"));
    request.title = QStringLiteral("Lesson 8");
    request.moments = simulation->scenario().lesson->moments;
    REQUIRE(exportTimelineImage(simulation->engine().run(), request).ok());
    const QImage image(request.path);
    REQUIRE(image.size() == QSize(1920, 1080));
    // A pixel row counts where a bar is drawn across it: 40 px or more of a message state's or a consumer's colour.
    std::set<QRgb> bars { slide.polling.rgb(), slide.working.rgb() };
    for (const MessageState s : { MessageState::Visible, MessageState::InFlight, MessageState::Deleted })
        bars.insert(slide.stateColor[size_t(s)].rgb());
    int covered = 0;
    for (int y = 0; y < image.height(); ++y) {
        int run = 0;
        for (int x = slide.labelWidth; x < image.width() && run < 40; ++x)
            run += bars.count(image.pixel(x, y) | 0xff000000u) ? 1 : 0;
        covered += run >= 40 ? 1 : 0;
    }
    CHECK(covered * 100 / image.height() >= 30); // 9 % before slides had their own style
}

TEST_CASE("image export: a slide of few lanes grows them rather than leave its lower half empty", "[ui][export]")
{
    test::application();
    auto simulation = test::lessonSimulation("consumer-crash");
    simulation->runToEnd();
    QTemporaryDir dir;
    ImageExportRequest request;
    request.path = dir.filePath(QStringLiteral("lesson7.png"));
    request.size = QSize(1280, 720); // the GIF's and the clipboard's slide
    request.title = QStringLiteral("Lesson 7");
    request.moments = simulation->scenario().lesson->moments;
    REQUIRE(exportTimelineImage(simulation->engine().run(), request).ok());
    const QImage image(request.path);
    const TimelineStyle slide = slideStyle(TimelineStyle::light(), request.size);
    std::set<QRgb> bars { slide.polling.rgb(), slide.working.rgb(), slide.failed.rgb(), slide.crash.rgb() };
    for (const MessageState s : { MessageState::InFlight, MessageState::Deleted })
        bars.insert(slide.stateColor[size_t(s)].rgb());
    // Three lanes (the message, two consumers): the pixel rows their bars cross, and the lowest of them.
    int covered = 0, lowest = 0;
    for (int y = 0; y < image.height(); ++y) {
        int run = 0; // 40 px of bar side by side (the legend's swatches are narrower)
        for (int x = slide.labelWidth * 3 / 2; x < image.width() && run < 40; ++x)
            run = bars.count(image.pixel(x, y) | 0xff000000u) ? run + 1 : 0;
        if (run >= 40) {
            ++covered;
            lowest = y;
        }
    }
    INFO("bars over " << covered << " pixel rows, the lowest at " << lowest);
    CHECK(covered >= 3 * 55); // rows of 44 px before: bars of 40
    CHECK(lowest >= image.height() / 2); // their callouts below them, then the legend
}

TEST_CASE("image export: the default window is the action - the height can be fitted to the lanes", "[ui][export]")
{
    test::application();
    auto simulation = test::lessonSimulation("visibility-too-short");
    simulation->runToEnd();
    LaneModel model;
    model.setMomentSpecs(simulation->scenario().lesson->moments);
    model.setRun(&simulation->engine().run());
    // The last state change: the last message deleted at 85 s (sent at 40 s, received again at 75 s, 10 s of work
    // left by worker-1's 25). A tenth more, not the 4 minutes of the run.
    CHECK(actionEnd(model) == 85000 + 8500);
    CHECK(simulation->engine().now() == 240000);

    QTemporaryDir dir;
    ImageExportRequest request;
    request.path = dir.filePath(QStringLiteral("fitted.png"));
    request.size = QSize(1920, 0);
    REQUIRE(exportTimelineImage(simulation->engine().run(), request).ok());
    const QImage image(request.path);
    CHECK(image.width() == 1920);
    CHECK(image.height() > 600); // nine rows of 64 px, title, ruler, legend, callouts
    CHECK(image.height() < 1080);
}

TEST_CASE("image export: a clock standing at its last change - what happened at that instant is in the picture",
    "[ui][export]")
{
    test::application();
    // A test's manual clock: a message whose retention (60 s) ends at the instant the clock was advanced to.
    Engine engine;
    REQUIRE(engine.createQueue("q", { { "MessageRetentionPeriod", "60" } }).ok());
    SendMessageRequest send;
    send.queue = "q";
    send.body = "charge 1";
    REQUIRE(engine.sendMessage(send).ok());
    engine.advanceTo(60000);
    LaneModel model;
    model.setRun(&engine.run());
    CHECK(engine.run().message(0).state == MessageState::Expired);
    // Past the instant by a twentieth: the expiry is drawn, not cut at the edge where the picture used to stop.
    CHECK(actionEnd(model) == 63000);
    ImageExportRequest request;
    request.path = QStringLiteral("run.svg");
    request.size = QSize(1600, 900);
    const auto svg = drawTimelineImage(engine.run(), request);
    REQUIRE(svg);
    CHECK(svg.value().contains("expired")); // in the legend: the state the lane ended in
}

TEST_CASE(
    "image export: the endpoint's picture of a run without a message - or all at one instant - says so", "[ui][export]")
{
    test::application();
    Engine engine;
    const auto empty = drawEndpointRun(engine.run(), true, 1600, 900);
    REQUIRE(empty);
    CHECK(QByteArray::fromStdString(empty.value()).contains("No queue and no message in this run"));
    REQUIRE(engine.createQueue("q", {}).ok());
    const auto noMessage = drawEndpointRun(engine.run(), true, 1600, 900);
    REQUIRE(noMessage);
    CHECK(QByteArray::fromStdString(noMessage.value()).contains("No message was sent in this run"));
    // Sent and received with the clock standing: every lane a sliver at one instant, and the picture says why.
    SendMessageRequest send;
    send.queue = "q";
    send.body = "order 1";
    REQUIRE(engine.sendMessage(send).ok());
    const auto instant = drawEndpointRun(engine.run(), true, 1600, 900);
    REQUIRE(instant);
    CHECK(QByteArray::fromStdString(instant.value())
              .contains("Everything here happened at 0s, the clock standing: advance it between steps"));
    engine.advanceBy(2000);
    REQUIRE(engine.sendMessage(send).ok());
    const auto apart = drawEndpointRun(engine.run(), true, 1600, 900);
    REQUIRE(apart);
    CHECK_FALSE(QByteArray::fromStdString(apart.value()).contains("Everything here happened"));
}

TEST_CASE("image export: a write that fails part way (a full disk) names the reason and leaves no file cut short - "
          "the earlier file kept",
    "[ui][export]")
{
    test::application();
    auto simulation = test::lessonSimulation("consumer-crash");
    simulation->runToEnd();
    QTemporaryDir dir;
    ImageExportRequest request;
    request.size = QSize(1200, 600);
    request.title = QStringLiteral("Lesson 7");
    // A file size limit fails a write past 16 KiB as a full disk would, part way through; its signal is ignored so
    // that the write returns the error (EFBIG) instead of ending the process.
    const auto previous = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit {};
    REQUIRE(getrlimit(RLIMIT_FSIZE, &limit) == 0);
    const rlimit before = limit;
    limit.rlim_cur = 16384;
    REQUIRE(setrlimit(RLIMIT_FSIZE, &limit) == 0);
    std::map<QString, std::string> failures;
    for (const char* type : { "png", "svg", "pdf" }) {
        request.path = dir.filePath(QStringLiteral("lesson7.") + QLatin1String(type));
        failures[QLatin1String(type)] = exportTimelineImage(simulation->engine().run(), request).message();
    }
    // Over an earlier file: that one is kept as it was.
    const QString earlier = dir.filePath(QStringLiteral("earlier.svg"));
    {
        QFile file(earlier);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("<svg/>");
    }
    request.path = earlier;
    const std::string overEarlier = exportTimelineImage(simulation->engine().run(), request).message();
    REQUIRE(setrlimit(RLIMIT_FSIZE, &before) == 0);
    std::signal(SIGXFSZ, previous);
    for (const auto& [type, message] : failures) {
        INFO(type.toStdString());
        CHECK(message
            == "cannot write " + dir.filePath(QStringLiteral("lesson7.") + type).toStdString() + ": File too large");
        CHECK_FALSE(QFile::exists(dir.filePath(QStringLiteral("lesson7.") + type)));
    }
    CHECK(overEarlier == "cannot write " + earlier.toStdString() + ": File too large");
    QFile kept(earlier);
    REQUIRE(kept.open(QIODevice::ReadOnly));
    CHECK(kept.readAll() == "<svg/>");
    CHECK(
        QDir(dir.path()).entryList(QDir::Files) == QStringList { QStringLiteral("earlier.svg") }); // no temporary left
}
