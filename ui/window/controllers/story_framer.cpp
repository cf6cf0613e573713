#include "window/controllers/story_framer.h"

#include "lifeline/picture/story_frame.h"
#include "lifeline/teach/lesson_story.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_view.h"
#include "window/controllers/moment_stops.h"
#include "window/runtime/live_driver.h"

#include <algorithm>

namespace lifeline::ui {

StoryFramer::StoryFramer(
    TimelineView* timeline, LaneModel* model, LiveDriver* driver, MomentStops* stops, QObject* parent)
    : QObject(parent)
    , m_timeline(timeline)
    , m_model(model)
    , m_driver(driver)
    , m_stops(stops)
{
    connect(driver, &LiveDriver::advanced, this, &StoryFramer::follow);
    connect(driver, &LiveDriver::scriptEnd, this, &StoryFramer::scriptEnded);
    connect(timeline, &TimelineView::viewTaken, this, &StoryFramer::take);
    connect(timeline, &TimelineView::followLiveChanged, this, [this](bool following) {
        if (following)
            take(); // the user asked the view to follow: it keeps following
    });
    m_stops->setShownAt(
        [this](TimeMs at) { return m_story ? picture::storyStopAt(m_story->script, m_story->firstMoment(), at) : at; });
}

StoryFramer::~StoryFramer() = default;

void StoryFramer::frame(const scenario::Scenario* scenario)
{
    m_framing = scenario && scenario->lesson.has_value();
    m_story = m_framing ? std::make_unique<teach::LessonStory>(teach::lessonStory(*scenario)) : nullptr;
    m_stops->setLessonShown(m_framing);
    m_driver->setPassQuietWaits(m_framing);
    m_timeline->setFollowLive(!m_framing);
    follow();
}

void StoryFramer::take()
{
    m_framing = false;
}

void StoryFramer::userActed()
{
    m_driver->setPassQuietWaits(false);
    follow();
}

void StoryFramer::follow()
{
    const RunView* run = m_model->run();
    if (!m_framing || !m_story || !run || m_driver->scriptEnded())
        return;
    const picture::TimeSpan frame
        = picture::storyFrame({ m_story->script, m_story->firstMoment(), m_model->picture().story().to, run->now() });
    m_timeline->frameRange(frame.from, frame.to);
}

void StoryFramer::scriptEnded()
{
    const picture::TimeSpan story = m_model->picture().story();
    if (!m_framing || story.empty())
        return;
    const TimeMs margin = picture::storyMargin(story.to - story.from);
    m_timeline->frameRange(std::max<TimeMs>(0, story.from - margin), story.to + margin);
}

} // namespace lifeline::ui
