#include "export/animation_export.h"

#include "export/gif_writer.h"
#include "export/image_export.h"
#include "export/mp4_writer.h"
#include "export/whole_file.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/support/duration.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_painter.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QPainter>
#include <QSaveFile>
#include <cmath>

namespace lifeline::ui {

namespace {

// Every colour the style paints flat: they go into the GIF's palette first, so they stay exact.
std::vector<QColor> styleColours(const TimelineStyle& s)
{
    std::vector<QColor> colours { s.background, s.text, s.grid, s.groupBackground, s.selection, s.now, s.polling,
        s.working, s.failed, s.crash, s.mark, s.duplicate };
    for (const QColor& c : s.stateColor)
        if (c.alpha() == 255)
            colours.push_back(c);
    return colours;
}

Outcome<> checkAnimation(const AnimationRequest& request)
{
    if (request.size.width() < 200 || request.size.height() < 150 || request.size.width() > 3840
        || request.size.height() > 2160)
        return Failure { QObject::tr("the size must be from 200x150 to 3840x2160, got %1x%2")
                             .arg(request.size.width())
                             .arg(request.size.height())
                             .toStdString() };
    if (request.fps < kMinFps || request.fps > kMaxFps)
        return Failure {
            QObject::tr("the frame rate must be from 1 to 60 a second, got %1").arg(request.fps).toStdString()
        };
    if (request.duration < kMinVideo || request.duration > kMaxVideo)
        return Failure { "the video's duration must be from 1 s to 10 min" };
    const QString suffix = QFileInfo(request.path).suffix().toLower();
    if (suffix != QStringLiteral("gif") && suffix != QStringLiteral("mp4"))
        return Failure { QObject::tr("unknown animation type '%1': use .gif or .mp4").arg(suffix).toStdString() };
    if (suffix == QStringLiteral("mp4") && (request.size.width() % 2 != 0 || request.size.height() % 2 != 0))
        return Failure { QObject::tr("an MP4's width and height must be even, got %1x%2")
                             .arg(request.size.width())
                             .arg(request.size.height())
                             .toStdString() };
    return {};
}

// "00:01:02.345", WebVTT's time stamp.
QString cueTime(TimeMs ms)
{
    return QStringLiteral("%1:%2:%3.%4")
        .arg(ms / 3600000, 2, 10, QLatin1Char('0'))
        .arg(ms / 60000 % 60, 2, 10, QLatin1Char('0'))
        .arg(ms / 1000 % 60, 2, 10, QLatin1Char('0'))
        .arg(ms % 1000, 3, 10, QLatin1Char('0'));
}

// Each frame as a still: the animation's size, title, theme and window start.
ImageExportRequest slideRequest(const AnimationRequest& request)
{
    ImageExportRequest still;
    still.size = request.size;
    still.title = request.title;
    still.dark = request.dark;
    still.highContrast = request.highContrast;
    still.from = request.from;
    return still;
}

} // namespace

QString captionsPath(const QString& videoPath)
{
    const QFileInfo video(videoPath);
    return video.dir().filePath(video.completeBaseName() + QStringLiteral(".vtt"));
}

QString videoCaptions(const QString& title, const std::vector<analysis::Moment>& moments, const VideoClock& clock)
{
    // Each cue from the first frame that shows it to the next cue's start (or the video's end); moments that one
    // frame first shows share a cue.
    std::vector<std::pair<TimeMs, QString>> cues;
    if (!title.isEmpty())
        cues.emplace_back(0, title);
    for (const analysis::Moment& moment : moments) {
        if (moment.at < clock.from || moment.at > clock.to)
            continue;
        const int frame = clock.frames == 1 || clock.to == clock.from
            ? 0
            : int(((moment.at - clock.from) * (clock.frames - 1) + (clock.to - clock.from) - 1)
                / (clock.to - clock.from)); // rounded up: the first frame at or after the moment
        const TimeMs shown = std::lround(1000.0 * frame / clock.fps);
        const QString text
            = QObject::tr("At %1: %2")
                  .arg(QString::fromStdString(formatDuration(moment.at)), QString::fromStdString(moment.caption));
        if (!cues.empty() && cues.back().first == shown)
            cues.back().second += QLatin1Char('\n') + text;
        else
            cues.emplace_back(shown, text);
    }
    const TimeMs end = std::lround(1000.0 * clock.frames / clock.fps);
    QString vtt = QStringLiteral("WEBVTT\n");
    for (size_t i = 0; i < cues.size(); ++i) {
        const TimeMs until = i + 1 < cues.size() ? cues[i + 1].first : end;
        // A cue's text is HTML-like: its &, < and > are escaped (which also keeps out a "-->").
        vtt += QStringLiteral("\n%1 --> %2\n%3\n")
                   .arg(cueTime(cues[i].first), cueTime(until),
                       cues[i].second.toHtmlEscaped().replace(QStringLiteral("&quot;"), QStringLiteral("\"")));
    }
    return vtt;
}

int animationFrames(const AnimationRequest& request)
{
    return std::max(1, int(std::lround(double(request.fps) * double(request.duration) / 1000.0)));
}

Outcome<AnimationEnd> exportAnimation(const scenario::Scenario& scenario, const AnimationRequest& request)
{
    if (auto refused = checkAnimation(request); !refused)
        return Failure { refused.message() };
    const std::vector<analysis::MomentSpec> moments
        = scenario.lesson ? scenario.lesson->moments : std::vector<analysis::MomentSpec> {};
    // A first run to its end: the window's end (the action), the rows to lay out for and what the run measured.
    sim::Simulation whole(scenario, request.seed);
    size_t wholeNext = 0, frameNext = 0; // the next of the operator's calls to make
    if (request.asPlayed)
        request.asPlayed->replayUpTo(whole, std::max(whole.duration(), request.asPlayed->lastAt()), wholeNext);
    else
        whole.runToEnd();
    LaneModel wholeModel;
    wholeModel.setMomentSpecs(moments);
    wholeModel.setRun(&whole.engine().run());
    const TimeMs to = request.to < 0 ? actionEnd(wholeModel) : request.to;
    ImageExportRequest still = slideRequest(request);
    const TimelineStyle style
        = slideStyle(TimelineStyle::of(themeOf(request.dark, request.highContrast)), request.size);
    const int rows = TimelinePainter(wholeModel, style).totalRows();

    // The run again, frame by frame, as the window shows it live.
    sim::Simulation run(scenario, request.seed);
    LaneModel model;
    model.setMomentSpecs(moments);
    model.setRun(&run.engine().run());
    // The encoder: a GIF into a QSaveFile (committed when whole), or an MP4 (renamed from FILE.part when whole).
    const bool mp4 = QFileInfo(request.path).suffix().toLower() == QStringLiteral("mp4");
    QSaveFile file(request.path);
    std::unique_ptr<GifWriter> gif;
    std::unique_ptr<Mp4Writer> video;
    if (mp4) {
        auto opened = Mp4Writer::open(request.path, request.size, request.fps);
        if (!opened)
            return Failure { opened.message() };
        video = std::move(opened).value();
    } else {
        if (!file.open(QIODevice::WriteOnly))
            return Failure { QObject::tr("cannot write '%1': %2").arg(request.path, file.errorString()).toStdString() };
        auto opened = GifWriter::open(file, request.size, styleColours(style));
        if (!opened)
            return Failure { opened.message() };
        gif = std::move(opened).value();
    }
    const int frames = animationFrames(request);
    QImage image(request.size, QImage::Format_RGB32);
    for (int i = 0; i < frames; ++i) {
        const TimeMs t = request.from + (frames == 1 ? to - request.from : (to - request.from) * i / (frames - 1));
        if (request.asPlayed)
            request.asPlayed->replayUpTo(run, t, frameNext);
        else
            run.advanceTo(t);
        model.sync();
        // The subtitle says what the lesson measures, as far as this frame's run has got (never the end's figure
        // from the first frame).
        still.claim = QString::fromStdString(scenario.lesson
                ? run.summary().measureClaim(scenario.lesson->measure, scenario.lesson->measureLabel)
                : run.summary().claim());
        QPainter p(&image);
        paintSlide(p, image.rect(), model, style, still, to, rows);
        p.end();
        // Each frame's time in centiseconds, rounded so the whole adds up to the duration.
        const int centiseconds = int(std::lround(100.0 * (i + 1) / request.fps) - std::lround(100.0 * i / request.fps));
        if (auto added = mp4 ? video->add(image) : gif->add(image, centiseconds); !added)
            return Failure { added.message() };
        if (request.progress && !request.progress(i + 1, frames))
            return AnimationEnd::Cancelled; // the file is not committed: nothing is written
    }
    if (auto finished = mp4 ? video->finish() : gif->finish(); !finished)
        return Failure { finished.message() };
    if (!mp4 && !file.commit())
        return Failure { QObject::tr("cannot write '%1': %2").arg(request.path, file.errorString()).toStdString() };
    const QString captions
        = videoCaptions(request.title, wholeModel.moments(), { request.from, to, frames, request.fps });
    if (auto captioned = writeWholeFile(captionsPath(request.path), captions.toStdString()); !captioned)
        return Failure { captioned.message() };
    return AnimationEnd::Written;
}

} // namespace lifeline::ui
