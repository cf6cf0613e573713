// Animations decoded back: the GIF's frame count is fps x duration at the asked size, and a middle frame of
// lesson 7 shows the message held in flight; bad requests say why and write nothing.
#include "export/animation_export.h"
#include "export/image_export.h"
#include "lifeline/teach/lessons.h"
#include "test_support.h"
#include "timeline/timeline_style.h"
#include "timeline/timeline_view.h"
#include "window/controllers/export_controller.h"
#include "window/controllers/lesson_controller.h"
#include "window/dialogs/export_dialog.h"
#include "window/main_window.h"
#include "window/panels/consumer_tiles.h"
#include "window/runtime/live_driver.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImageReader>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <cmath>
#include <functional>

extern "C" {
#include <libavformat/avformat.h>
}

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
    REQUIRE(exportAnimation(teach::findLesson("consumer-crash")->scenario, request).ok());
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
    // Beside it, its captions: the title, then each moment from the first frame that shows it. The action is 0 to
    // 45 s over frames 0..29 at 10 a second: 5 s is first shown by frame ceil(5 x 29 / 45) = 4 (0.4 s), 30 s by
    // frame 20, 40 s by frame 26; the last cue runs to the video's end (3 s).
    QFile captions(dir.filePath(QStringLiteral("lesson7.vtt")));
    REQUIRE(captions.open(QIODevice::ReadOnly));
    CHECK(captions.readAll().toStdString()
        == "WEBVTT\n\n"
           "00:00:00.000 --> 00:00:00.400\nLesson 7\n\n"
           "00:00:00.400 --> 00:00:02.000\nAt 5s: worker-1 crashes holding the message: nobody will delete it\n\n"
           "00:00:02.000 --> 00:00:02.600\nAt 30s: The visibility timeout ends 30 s after the receive: the message "
           "worker-1 held is visible again\nAt 30s: worker-2 receives it (#2)\n\n"
           "00:00:02.600 --> 00:00:03.000\nAt 40s: worker-2 finishes the job and deletes it\n");
}

TEST_CASE("animation: captions - a cue's text escaped, moments outside the window left out, one frame at 0",
    "[ui][export][accessibility]")
{
    std::vector<analysis::Moment> moments(3);
    moments[0].at = 1000;
    moments[0].caption = "before the window";
    moments[1].at = 61000;
    moments[1].caption = "a <b> & c --> d";
    moments[2].at = 3661500;
    moments[2].caption = "after an hour";
    CHECK(captionsPath(QStringLiteral("/tmp/a.b/run.mp4")) == QStringLiteral("/tmp/a.b/run.vtt"));
    CHECK(videoCaptions({}, moments, { 60000, 3700000, 100, 10 }).toStdString()
        == "WEBVTT\n\n00:00:00.100 --> 00:00:09.800\nAt 1m1s: a &lt;b&gt; &amp; c --&gt; d\n\n"
           "00:00:09.800 --> 00:00:10.000\nAt 1h1m1.5s: after an hour\n");
    CHECK(videoCaptions(QStringLiteral("One"), moments, { 0, 5000, 1, 1 }).toStdString()
        == "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nOne\nAt 1s: before the window\n");
}

TEST_CASE("animation: bad requests say why - a cancelled one writes nothing", "[ui][export]")
{
    test::application();
    QTemporaryDir dir;
    const scenario::Scenario& scenario = teach::findLesson("consumer-crash")->scenario;
    AnimationRequest request;
    request.path = dir.filePath(QStringLiteral("x.gif"));
    request.fps = 0;
    CHECK(exportAnimation(scenario, request).message() == "the frame rate must be from 1 to 60 a second, got 0");
    request.fps = 15;
    request.duration = 500;
    CHECK(exportAnimation(scenario, request).message() == "the video's duration must be from 1 s to 10 min");
    request.duration = 2000;
    request.path = dir.filePath(QStringLiteral("x.avi"));
    CHECK(exportAnimation(scenario, request).message() == "unknown animation type 'avi': use .gif or .mp4");
    request.path = dir.filePath(QStringLiteral("x.gif"));
    request.progress = [](int done, int) { return done < 5; };
    const auto cancelled = exportAnimation(scenario, request);
    REQUIRE(cancelled.ok());
    CHECK(cancelled.value() == AnimationEnd::Cancelled);
    CHECK_FALSE(QFile::exists(request.path));
}

TEST_CASE(
    "window: Ctrl+Shift+C copies the timeline at twice its size - File > Export animation writes a GIF", "[ui][export]")
{
    test::application();
    ui::MainWindow window;
    window.resize(1440, 900);
    window.show();
    REQUIRE(window.lessons()->openLesson(QStringLiteral("7")));
    window.driver()->pause();
    window.driver()->advanceBy(40000);
    const QImage copied = window.exports()->copyTimeline();
    CHECK(copied.size() == test::widget<ui::TimelineView>(window, "timeline")->size() * 2);
    CHECK(copied.devicePixelRatio() == 2);
    CHECK(QGuiApplication::clipboard()->image().size() == copied.size());

    QTemporaryDir dir;
    AnimationRequest request;
    request.path = dir.filePath(QStringLiteral("window.gif"));
    request.size = QSize(480, 270);
    request.fps = 5;
    request.duration = 2000;
    CHECK(window.exports()->exportAnimationTo(request));
    QImageReader reader(request.path);
    CHECK(reader.imageCount() == 10);
    CHECK(window.simulation()->now() == 40000); // the window's own run stays where it was
}

TEST_CASE("animation: an MP4 of lesson 7 is H.264 at the asked size and length", "[ui][export]")
{
    test::application();
    QTemporaryDir dir;
    AnimationRequest request;
    request.path = dir.filePath(QStringLiteral("lesson7.mp4"));
    request.size = QSize(640, 360);
    request.fps = 10;
    request.duration = 3000;
    REQUIRE(exportAnimation(teach::findLesson("consumer-crash")->scenario, request).ok());
    CHECK_FALSE(QFile::exists(request.path + QStringLiteral(".part")));
    // Read back with libavformat: one H.264 stream, 640x360, 30 frames, 3 s within a frame.
    AVFormatContext* format = nullptr;
    REQUIRE(avformat_open_input(&format, request.path.toLocal8Bit().constData(), nullptr, nullptr) == 0);
    REQUIRE(avformat_find_stream_info(format, nullptr) >= 0);
    REQUIRE(format->nb_streams == 1);
    const AVStream* stream = format->streams[0];
    CHECK(stream->codecpar->codec_id == AV_CODEC_ID_H264);
    CHECK(stream->codecpar->width == 640);
    CHECK(stream->codecpar->height == 360);
    CHECK(stream->nb_frames == 30);
    const double seconds = double(stream->duration) * av_q2d(stream->time_base);
    CHECK(std::abs(seconds - 3.0) <= 0.1);
    avformat_close_input(&format);

    // An odd size is refused before anything is written.
    request.size = QSize(641, 360);
    CHECK(exportAnimation(teach::findLesson("consumer-crash")->scenario, request).message()
        == "an MP4's width and height must be even, got 641x360");
}

namespace {
// The open export dialog, filled in and accepted by `fill` once exportWithDialog shows it (it is modal).
void whenExportDialogOpens(const std::function<void(ExportDialog&)>& fill)
{
    QTimer::singleShot(0, [fill] {
        for (QWidget* top : QApplication::topLevelWidgets())
            if (auto* dialog = qobject_cast<ExportDialog*>(top); dialog && dialog->isVisible()) {
                fill(*dialog);
                return;
            }
    });
}
} // namespace

TEST_CASE(
    "export: one dialog writes every format in one pass - with a preview - and remembers the choice", "[ui][export]")
{
    test::application();
    ui::MainWindow window;
    window.resize(1440, 900);
    window.show();
    REQUIRE(window.lessons()->openLesson(QStringLiteral("7")));
    window.driver()->pause();
    window.driver()->advanceBy(40000);
    QTemporaryDir dir;
    const std::vector<std::pair<QString, QByteArray>> formats { { QStringLiteral("png"), QByteArray("\x89PNG") },
        { QStringLiteral("svg"), QByteArray("<?xml") }, { QStringLiteral("pdf"), QByteArray("%PDF") },
        { QStringLiteral("gif"), QByteArray("GIF89a") }, { QStringLiteral("mp4"), QByteArray() } };
    for (const auto& [suffix, magic] : formats) {
        INFO(suffix.toStdString());
        const QString path = dir.filePath(QStringLiteral("lesson.") + suffix);
        bool previewed = false;
        whenExportDialogOpens([&](ExportDialog& dialog) {
            dialog.setFormat(suffix);
            CHECK(dialog.path()->text().endsWith(QStringLiteral(".") + suffix));
            CHECK(dialog.fps()->isEnabled() == (suffix == QStringLiteral("gif") || suffix == QStringLiteral("mp4")));
            // An animation says it replays the script, not what was done by hand; a still says nothing of it.
            CHECK(dialog.findChild<QLabel*>(QStringLiteral("replayNote"))->isVisibleTo(&dialog)
                == (suffix == QStringLiteral("gif") || suffix == QStringLiteral("mp4")));
            dialog.size()->setCurrentIndex(3); // custom
            dialog.customSize()->setText(QStringLiteral("480x270"));
            dialog.fps()->setValue(4);
            dialog.seconds()->setValue(1);
            dialog.path()->setText(path);
            previewed = !dialog.preview()->pixmap().isNull();
            dialog.accept();
        });
        window.exports()->exportWithDialog(QStringLiteral("png"));
        CHECK(previewed);
        QFile written(path);
        REQUIRE(written.open(QIODevice::ReadOnly));
        const QByteArray head = written.read(8);
        if (!magic.isEmpty())
            CHECK(head.startsWith(magic));
        else
            CHECK(head.mid(4, 4) == QByteArray("ftyp")); // an MP4's first box
    }
    CHECK(QImageReader(dir.filePath(QStringLiteral("lesson.png"))).size() == QSize(480, 270));
    CHECK(QImageReader(dir.filePath(QStringLiteral("lesson.gif"))).imageCount() == 4);
    // A size that is not W x H is refused in the dialog, saying why; nothing is written.
    whenExportDialogOpens([&](ExportDialog& dialog) {
        dialog.setFormat(QStringLiteral("png"));
        dialog.size()->setCurrentIndex(3);
        dialog.customSize()->setText(QStringLiteral("big"));
        dialog.path()->setText(dir.filePath(QStringLiteral("refused.png")));
        dialog.accept();
        CHECK(dialog.isVisible());
        CHECK(dialog.error()->text().startsWith(QStringLiteral("Size: \"big\"")));
        dialog.reject();
    });
    window.exports()->exportWithDialog(QStringLiteral("png"));
    CHECK_FALSE(QFile::exists(dir.filePath(QStringLiteral("refused.png"))));
    // The next dialog (Ctrl+E's) opens on the last choice: MP4 at 480x270 in that folder.
    whenExportDialogOpens([&](ExportDialog& dialog) {
        CHECK(dialog.format()->currentIndex() == 4);
        CHECK(dialog.customSize()->text() == QStringLiteral("480x270"));
        CHECK(QFileInfo(dialog.path()->text()).absolutePath() == QFileInfo(dir.path()).absoluteFilePath());
        dialog.reject();
    });
    QAction* exportAction = nullptr; // File > Export (Ctrl+E)
    for (QAction* action : window.findChildren<QAction*>())
        if (action->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_E))
            exportAction = action;
    REQUIRE(exportAction != nullptr);
    exportAction->trigger();
    // Export slide: the view at 1920x1080, next to the last export, no dialog.
    const QString slide = window.exports()->exportSlide();
    REQUIRE_FALSE(slide.isEmpty());
    CHECK(QFileInfo(slide).absolutePath() == QFileInfo(dir.path()).absoluteFilePath());
    CHECK(QImageReader(slide).size() == QSize(1920, 1080));
}

TEST_CASE("export: an animation as played shows the crash a speaker made - the script's does not - the dialog says "
          "which, as played by default",
    "[ui][export]")
{
    test::application();
    ui::MainWindow window;
    window.resize(1440, 900);
    window.show();
    REQUIRE(window.lessons()->openLesson(QStringLiteral("life-of-a-message")));
    window.driver()->pause();
    QTemporaryDir dir;
    // Nothing done by hand yet: the script is all there is to replay, and the choice says so.
    whenExportDialogOpens([&](ExportDialog& dialog) {
        dialog.setFormat(QStringLiteral("gif"));
        CHECK_FALSE(dialog.played()->isEnabled());
        CHECK(dialog.played()->currentIndex() == 1);
        dialog.reject();
    });
    window.exports()->exportWithDialog(QStringLiteral("gif"));

    window.driver()->advanceBy(3000);
    test::widget<ui::ConsumerTiles>(window, "consumerTiles")->toggle(0); // a crash by hand at 3 s
    REQUIRE(window.simulation()->journal().size() == 1);
    window.driver()->advanceBy(20000);
    const auto exportAs = [&](int played, const QString& name) {
        whenExportDialogOpens([&](ExportDialog& dialog) {
            dialog.setFormat(QStringLiteral("gif"));
            CHECK(dialog.played()->isEnabled());
            CHECK(dialog.played()->currentIndex() == 0); // as played, by default
            dialog.played()->setCurrentIndex(played);
            CHECK(dialog.findChild<QLabel*>(QStringLiteral("replayNote"))
                      ->text()
                      .startsWith(played == 0
                              ? QStringLiteral("The animation plays the run again as you played it")
                              : QStringLiteral("The animation replays the scenario from its start, as written")));
            CHECK(dialog.choice()->asPlayed == (played == 0));
            dialog.size()->setCurrentIndex(3);
            dialog.customSize()->setText(QStringLiteral("480x270"));
            dialog.fps()->setValue(4);
            dialog.seconds()->setValue(2);
            dialog.path()->setText(dir.filePath(name));
            dialog.accept();
        });
        window.exports()->exportWithDialog(QStringLiteral("gif"));
        QImageReader reader(dir.filePath(name));
        QImage last;
        for (int i = 0; i < reader.imageCount(); ++i)
            last = reader.read();
        return last;
    };
    const QImage asPlayed = exportAs(0, QStringLiteral("played.gif"));
    const QImage asWritten = exportAs(1, QStringLiteral("written.gif"));
    REQUIRE_FALSE(asPlayed.isNull());
    REQUIRE_FALSE(asWritten.isNull());
    // The crash's red is on the consumer's row of the run as played, more than the now line's in the script's (the
    // same red).
    const QColor crash = TimelineStyle::light().crash;
    const auto count = [&crash](const QImage& image) {
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                n += image.pixelColor(x, y) == crash ? 1 : 0;
        return n;
    };
    INFO(count(asPlayed) << " against " << count(asWritten));
    CHECK(count(asPlayed) > count(asWritten) + 30);
}
