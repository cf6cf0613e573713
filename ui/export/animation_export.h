// The run moving, outside the app: a scenario simulated again frame by frame (with the operator's calls at their
// instants when it is exported as played) and painted by the same
// TimelinePainter as the screen and the stills, from the window's start to its end mapped onto the video's duration:
// the now line moves, lanes appear and change as they do live, moments' callouts appear when reached. GIF through
// giflib (gif_writer.h), MP4 as H.264 through FFmpeg (mp4_writer.h). Nothing is left half-written: the file is
// written whole, or not at all.
#pragma once

#include "lifeline/analysis/moments.h"
#include "lifeline/scenario/scenario.h"
#include "lifeline/sim/operator_journal.h"
#include "lifeline/support/outcome.h"

#include <QSize>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace lifeline::ui {

struct AnimationRequest {
    QString path; // .gif or .mp4
    QSize size { 1280, 720 };
    int fps = 15; // 1 to 60
    TimeMs duration = 8000; // of the video: 1 s to 10 min
    TimeMs from = 0;
    TimeMs to = -1; // -1: the end of the action (the last state change or moment, and a margin)
    QString title;
    bool dark = false;
    bool highContrast = false; // white on black, over `dark`
    std::optional<uint64_t> seed;
    // The run as played: the calls the window's controls made, each at its instant (none: the scenario as written).
    std::shared_ptr<const sim::OperatorJournal> asPlayed;
    // Called after each frame with (frames written, frames in all); false cancels (nothing is written).
    std::function<bool(int, int)> progress;
};

// The bounds the request is checked against (the command line names its flags with them).
inline constexpr int kMinFps = 1, kMaxFps = 60;
inline constexpr TimeMs kMinVideo = 1000, kMaxVideo = 600000;

// How an export that did not fail ended: the video written (its captions beside it), or cancelled by its progress
// callback with nothing written.
enum class AnimationEnd { Written, Cancelled };
Outcome<AnimationEnd> exportAnimation(const scenario::Scenario& scenario, const AnimationRequest& request);

// The frame count a request makes: fps x duration, rounded.
int animationFrames(const AnimationRequest& request);

// Beside every animation, its captions as WebVTT (run.gif -> run.vtt, written after the video): the title from the
// start, then each key moment from the first frame that shows it, with its run time and caption ("At 5s: worker-1
// crashes ..."), for a player's captions track and a reader who does not see the video.
QString captionsPath(const QString& videoPath);
// Which run time each frame shows: frame i of `frames` shows from + (to - from) x i / (frames - 1), at i / fps s.
struct VideoClock {
    TimeMs from = 0;
    TimeMs to = 0;
    int frames = 1;
    int fps = 15;
};
QString videoCaptions(const QString& title, const std::vector<analysis::Moment>& moments, const VideoClock& clock);

} // namespace lifeline::ui
