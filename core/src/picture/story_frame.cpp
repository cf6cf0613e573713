#include "lifeline/picture/story_frame.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace lifeline::picture {

TimeSpan storySpan(const RunView& run)
{
    return extendStory({}, run.log(), run.log().firstRetained());
}

TimeSpan extendStory(TimeSpan story, const EventLog& log, size_t first)
{
    TimeMs from = story.empty() ? INT64_MAX : story.from;
    TimeMs to = story.empty() ? INT64_MIN : story.to;
    for (size_t i = std::max(first, log.firstRetained()); i < log.size(); ++i) {
        const Event& e = log[i];
        // A refused send is part of the story too (a lesson can be about SQS refusing it: no lane at all).
        const bool sent = e.cause == Cause::Send || e.cause == Cause::RequestRefused;
        if (sent)
            from = std::min(from, e.time);
        // An alarm's change is the story's end too (lesson 32: it fires after the last message has moved).
        const bool alarm = e.cause == Cause::AlarmFired || e.cause == Cause::AlarmOk;
        if (e.from != e.to || sent || (alarm && from != INT64_MAX))
            to = std::max(to, e.time);
    }
    if (from == INT64_MAX || to == INT64_MIN)
        return story;
    return { from, to };
}

TimeMs storyMargin(TimeMs length)
{
    return std::max<TimeMs>(1000, length / 20);
}

TimeSpan storyFrame(const StoryProgress& story)
{
    // A step ends when the story so far fills four fifths of it; the next is 1.6 times as long, so the story so far
    // fills half of it again. The first is at least two seconds and puts the first key moment at 70 %.
    constexpr double kFilled = 0.8;
    constexpr double kGrowth = 1.6;
    constexpr double kFirstMomentAt = 0.7;
    const TimeMs from = story.script.empty() ? 0 : story.script.from;
    const TimeMs told = std::max<TimeMs>(0, std::max(story.now, story.lastChange) - from);
    TimeMs length
        = std::max<TimeMs>(2000, TimeMs(double(std::max<TimeMs>(0, story.firstMoment - from)) / kFirstMomentAt));
    while (double(told) > double(length) * kFilled)
        length = TimeMs(double(length) * kGrowth);
    const bool extended = story.lastChange > story.script.to;
    if (!story.script.empty() && !extended && from + length >= story.script.to) {
        const TimeMs margin = storyMargin(story.script.to - from);
        const TimeSpan whole { std::max<TimeMs>(0, from - margin), story.script.to + margin };
        if (story.now <= whole.to)
            return whole;
    }
    return { std::max<TimeMs>(0, from - length / 20), from + length + length / 20 };
}

TimeMs storyStopAt(TimeSpan script, TimeMs firstMoment, TimeMs at)
{
    constexpr double kLegible = 0.4;
    const TimeSpan frame = storyFrame({ script, firstMoment, std::min(at, script.to), at });
    const TimeMs start = std::max(frame.from, script.from);
    const TimeMs needed = TimeMs(std::ceil(kLegible * double(frame.to - frame.from)));
    return std::max(at, start + needed);
}

} // namespace lifeline::picture
