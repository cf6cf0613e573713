// A lesson's story framed on the timeline as it unfolds (picture::storyFrame): the script run once beforehand to know
// where the story goes (teach::lessonStory), the frame growing in steps with the clock and with what the user makes
// happen, the whole story fitted when the script ends, each key moment's stop held until its lanes are drawn. The
// user's zoom or pan takes the view (take()); another scenario's view follows live. A lesson also passes its quiet
// waits faster until the user acts.
#pragma once

#include "lifeline/run/run_view.h"

#include <QObject>
#include <memory>

namespace lifeline::scenario {
struct Scenario;
}
namespace lifeline::teach {
struct LessonStory;
}

namespace lifeline::ui {

class LaneModel;
class LiveDriver;
class MomentStops;
class TimelineView;

class StoryFramer : public QObject {
    Q_OBJECT
public:
    StoryFramer(TimelineView* timeline, LaneModel* model, LiveDriver* driver, MomentStops* stops, QObject* parent);
    ~StoryFramer() override;

    // A new run: a lesson (a scenario with lesson texts) is framed; nullptr or another scenario follows live.
    void frame(const scenario::Scenario* scenario);
    bool framing() const { return m_framing; }
    void take(); // the user moved the view: no framing until the next run
    void userActed(); // a crash, a setting, a message: the frame grows with the story they extend
    void scriptEnded(); // the whole story as it went, with its margin

private:
    void follow(); // the frame for the clock and the story so far

    TimelineView* m_timeline;
    LaneModel* m_model;
    LiveDriver* m_driver;
    MomentStops* m_stops;
    bool m_framing = false;
    std::unique_ptr<teach::LessonStory> m_story; // the lesson's story as its script tells it
};

} // namespace lifeline::ui
