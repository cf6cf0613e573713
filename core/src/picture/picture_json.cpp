#include "lifeline/picture/picture_json.h"

#include "lifeline/picture/actor_spans.h"
#include "lifeline/picture/lane_segments.h"
#include "lifeline/picture/story_frame.h"
#include "lifeline/run/event_text.h"
#include "lifeline/run/lane_name.h"

#include <algorithm>
#include <limits>
#include <map>

namespace lifeline::picture {

namespace {

using json = nlohmann::json;

// Calls visit(event, ended segment or null, the reader) for each held event of the lane, in order, and returns the
// reader, whose current() is the segment going on (or the terminal state the lane ended in).
template <typename Visit> SegmentReader readLane(const RunPicture& picture, MessageIndex lane, Visit visit)
{
    const RunView& run = *picture.run();
    const LaneIndex& index = picture.lanes();
    SegmentReader reader(run, lane, true);
    reader.beginAfterForgotten(index);
    for (uint32_t ev = index.lane(lane).first; ev != kNoEvent; ev = index.nextOfLane(ev)) {
        const Event e = run.log()[ev];
        const std::optional<Segment> ended = reader.read(e);
        visit(e, ended ? &*ended : nullptr, reader);
    }
    return reader;
}

json segmentJson(const Segment& segment, TimeMs end, const SegmentPhrase& phrase)
{
    json out = { toString(segment.state), segment.start.time, end, segment.receives, segmentText(phrase).label };
    if (const auto due = segmentDue(segment, phrase))
        out.push_back(*due);
    if (segment.start.inferred()) { // drawn from the settings by `lifeline import`: the page hatches it
        if (out.size() == 5)
            out.push_back(nullptr); // a due of null when it has none
        out.push_back(1);
    }
    return out;
}

// One lane as the page draws it: [state, start, end, receive, words, due?, inferred?] per segment, end -1 while it goes
// on, due when a timer holds it (the page's countdown); its marks [time, kind]; its end cap's state and time.
json laneJson(const RunPicture& picture, MessageIndex lane)
{
    json segments = json::array();
    json marks = json::array();
    const SegmentReader reader
        = readLane(picture, lane, [&](const Event& e, const Segment* ended, const SegmentReader& read) {
              if (ended)
                  segments.push_back(segmentJson(*ended, e.time, read.phrase(*ended)));
              if (const auto mark = laneMarkAt(e))
                  marks.push_back({ e.time, markWords(*mark).id });
          });
    const RunView& run = *picture.run();
    const Segment& last = reader.current();
    json out = { { "label", laneName(run, lane) }, { "segments", segments } };
    if (!marks.empty())
        out["marks"] = std::move(marks);
    if (isLive(last.state))
        out["segments"].push_back(segmentJson(last, -1, reader.phrase(last)));
    else if (last.state != MessageState::None)
        out["end"] = { toString(last.state), last.start.time };
    out["receives"] = run.message(lane).receiveCount;
    return out;
}

// The band's levels at up to 400 instants: [time, delayed, visible, in flight], each at its bucket's end.
json bandJson(const DensitySeries& density, QueueIndex queue)
{
    constexpr size_t kBandPoints = 400;
    const auto& buckets = density.queue(queue);
    const size_t step = std::max<size_t>(1, (buckets.size() + kBandPoints - 1) / kBandPoints);
    json levels = json::array();
    for (size_t i = step - 1; i < buckets.size() + step - 1; i += step) {
        const size_t at = std::min(i, buckets.size() - 1);
        const QueueDensity& d = buckets[at];
        levels.push_back({ TimeMs(at + 1) * density.bucketMs(), d.delayed, d.visible, d.inFlight });
    }
    return levels;
}

// What an actor did, as its row shows it: ["poll", from, to], ["tick", at] (a receive answered at once), ["work",
// from, to, words, failed], ["crash", from, to]; to -1 while it goes on; failed when every message of the piece failed.
json actorJson(const RunPicture& picture, uint32_t actor)
{
    const RunView& run = *picture.run();
    json spans = json::array();
    readActorSpans(picture.lanes(), actor, std::numeric_limits<TimeMs>::min(), std::numeric_limits<TimeMs>::max(),
        run.now(), [&](const ActorSpan& span) {
            const json to = span.open ? json(-1) : json(span.to);
            switch (span.kind) {
            case ActorSpan::Tick:
                spans.push_back({ "tick", span.from });
                break;
            case ActorSpan::Poll:
                spans.push_back({ "poll", span.from, to });
                break;
            case ActorSpan::Work:
                spans.push_back({ "work", span.from, to, workText(run, span.work),
                    span.work.failed > 0 && span.work.failed == span.work.messages });
                break;
            case ActorSpan::Crash:
                spans.push_back({ "crash", span.from, to });
                break;
            }
            return true;
        });
    return { { "name", run.actorName(actor) }, { "spans", spans } };
}

} // namespace

json wordsJson()
{
    json states = json::object();
    for (size_t s = 1; s < size_t(MessageState::Count); ++s)
        states[toString(MessageState(s))] = stateWords(MessageState(s));
    json marks = json::object();
    for (const LaneMark mark : kLaneMarks)
        marks[markWords(mark).id] = { { "glyph", markWords(mark).glyph }, { "name", markWords(mark).name } };
    json activities = json::object();
    for (size_t a = 0; a < size_t(ActorActivity::Count); ++a)
        activities[activityWords(ActorActivity(a)).id] = activityWords(ActorActivity(a)).name;
    // The countdown at the now line, its %1 a duration ("visible again in 18 s").
    const json countdown = { { "in-flight", phraseTemplate(Phrase::VisibleAgainIn).label },
        { "delayed", phraseTemplate(Phrase::ReceivableIn).label } };
    return { { "states", states }, { "marks", marks }, { "activities", activities }, { "countdown", countdown },
        { "inferred", inferredWords() } };
}

// What happened on a queue's row: its refusals, operator actions, warnings and alarms, [time, kind, words] in time
// order, as the window draws them on the queue's heading.
json queueNotesJson(const RunPicture& picture, QueueIndex queue)
{
    const RunView& run = *picture.run();
    std::vector<uint32_t> events = picture.lanes().refusals(queue);
    const auto& notes = picture.lanes().notes(queue);
    events.insert(events.end(), notes.begin(), notes.end());
    std::sort(events.begin(), events.end());
    json out = json::array();
    for (const uint32_t ev : events) {
        const Event& e = run.log()[ev];
        const char* kind = e.cause == Cause::RequestRefused ? "refused"
            : e.cause == Cause::Warning                     ? "warning"
            : e.cause == Cause::AlarmFired                  ? "alarm"
            : e.cause == Cause::AlarmOk                     ? "alarm-ok"
            : e.cause == Cause::FaultInjected               ? "fault"
                                                            : "operator";
        out.push_back({ e.time, kind, eventDetail(run, e) });
    }
    return out;
}

json pictureJson(const RunPicture& picture, std::string_view label)
{
    const RunView& run = *picture.run();
    json groups = json::array();
    for (size_t g = 0; g < picture.queueGroupCount(); ++g) {
        const auto& lanesOfGroup = picture.lanesOfGroup(g);
        // A queue with no lane is shown when something happened on its row (lesson 4: every send refused).
        const QueueIndex queue = lanesOfGroup.empty() ? QueueIndex(g) : run.message(lanesOfGroup.front()).queue;
        json notes = queue < run.queueCount() ? queueNotesJson(picture, queue) : json::array();
        if (lanesOfGroup.empty() && notes.empty())
            continue;
        json group = { { "name", run.queueInfo(queue).name }, { "count", lanesOfGroup.size() } };
        if (!notes.empty())
            group["notes"] = std::move(notes);
        if (lanesOfGroup.size() > kMostLanes) {
            group["band"] = bandJson(picture.density(), queue);
            group["lanes"] = json::array();
        } else {
            json lanes = json::array();
            for (const MessageIndex lane : lanesOfGroup)
                lanes.push_back(laneJson(picture, lane));
            group["lanes"] = std::move(lanes);
        }
        groups.push_back(std::move(group));
    }
    json actors = json::array();
    for (const uint32_t actor : picture.shownActors())
        actors.push_back(actorJson(picture, actor));
    json moments = json::array();
    int n = 0;
    for (const analysis::Moment& m : picture.moments())
        moments.push_back({ { "n", ++n }, { "t", m.at }, { "caption", m.caption },
            { "lane", m.lane == kNoMessage || m.onActorRow ? json() : json(laneName(run, m.lane)) },
            { "actor", m.onActorRow ? json(run.actorName(m.actor)) : json() } });
    // A page opens on the first key moment, once its lanes are drawn (storyStopAt); without one, on the whole story.
    const TimeSpan story = picture.story();
    const TimeMs opensAt = picture.moments().empty()
        ? (story.empty() ? run.now() : story.to)
        : storyStopAt(story, picture.moments().front().at, picture.moments().front().at);
    // The page's time axis: the story with its margin, as the window fits a lesson at its end (the idle tail left
    // out); the whole run when nothing was sent.
    const TimeSpan framed = story.empty()
        ? TimeSpan { 0, run.now() }
        : TimeSpan { std::max<TimeMs>(0, story.from - storyMargin(story.to - story.from)),
              std::min(run.now(), story.to + storyMargin(story.to - story.from)) };
    return { { "label", std::string(label) }, { "end", run.now() }, { "opensAt", std::min(opensAt, run.now()) },
        { "story", { framed.from, std::max(framed.to, framed.from + 1) } }, { "groups", groups }, { "actors", actors },
        { "moments", moments } };
}

// Each row [time, queue, lane, from, to, cause, actor, note] by index into the tables (-1: none), its time as the
// milliseconds since the row before (mostly 0 or a few digits, which deflate packs a third smaller than whole times),
// so a long run's page stays small.
json eventsJson(const RunView& run)
{
    std::map<std::string, int> index;
    json tables = { { "queue", json::array() }, { "lane", json::array() }, { "word", json::array() },
        { "actor", json::array() } };
    const auto at = [&](const char* table, const std::string& text) {
        const std::string key = std::string(table) + '\n' + text;
        const auto found = index.find(key);
        if (found != index.end())
            return found->second;
        tables[table].push_back(text);
        return index[key] = int(tables[table].size()) - 1;
    };
    json rows = json::array();
    const EventLog& log = run.log();
    TimeMs previous = 0;
    for (size_t i = log.firstRetained(); i < log.size(); ++i) {
        const Event& e = log[i];
        json row = { e.time - previous, e.queue == kNoQueue ? -1 : at("queue", run.queueInfo(e.queue).name),
            e.message == kNoMessage ? -1 : at("lane", laneName(run, e.message)), at("word", toString(e.from)),
            at("word", toString(e.to)), at("word", toString(e.cause)), at("actor", run.actorName(e.actor)) };
        if (std::string note = eventDetail(run, e); !note.empty())
            row.push_back(std::move(note));
        rows.push_back(std::move(row));
        previous = e.time;
    }
    tables["rows"] = std::move(rows);
    return tables;
}

json lanesJson(const RunPicture& picture, std::string_view onlyQueue)
{
    const RunView& run = *picture.run();
    json queues = json::array();
    for (size_t q = 0; q < run.queueCount(); ++q) {
        if (!onlyQueue.empty() && run.queueInfo(QueueIndex(q)).name != onlyQueue)
            continue;
        json entries = json::array();
        for (const MessageIndex lane : q < picture.queueGroupCount() ? picture.lanesOfGroup(q) : RunPicture::Lanes {}) {
            if (run.forgotten(lane))
                continue;
            json segments = json::array(), receives = json::array(), marks = json::array();
            const auto segment = [&](const Segment& s, const json& to, const SegmentPhrase& phrase) {
                segments.push_back({ { "state", toString(s.state) }, { "from_ms", s.start.time }, { "to_ms", to },
                    { "words", segmentText(phrase).label } });
                if (s.start.inferred())
                    segments.back()["inferred"] = true;
            };
            const SegmentReader reader
                = readLane(picture, lane, [&](const Event& e, const Segment* ended, const SegmentReader& read) {
                      if (ended)
                          segment(*ended, e.time, read.phrase(*ended));
                      if (e.cause == Cause::Receive)
                          receives.push_back({ { "at_ms", e.time }, { "receive", e.receiveNumber() },
                              { "client", run.actorName(e.actor) } });
                      if (const auto mark = laneMarkAt(e))
                          marks.push_back({ { "at_ms", e.time }, { "mark", markWords(*mark).id } });
                  });
            if (isLive(reader.current().state))
                segment(reader.current(), nullptr, reader.phrase(reader.current()));
            entries.push_back({ { "message_id", run.messageId(lane) }, { "label", laneName(run, lane) },
                { "body", std::string(run.message(lane).body.view()) }, { "state", toString(run.message(lane).state) },
                { "segments", std::move(segments) }, { "receives", std::move(receives) },
                { "marks", std::move(marks) } });
            // A FIFO message's group (or a fair queue's tenant): what orders it, so a test can read the order by group.
            if (const MessageExtra* extra = run.extra(lane); extra && !extra->groupId.empty())
                entries.back()["group"] = extra->groupId;
        }
        queues.push_back({ { "name", run.queueInfo(QueueIndex(q)).name }, { "lanes", std::move(entries) } });
    }
    const EventLog& log = run.log();
    const TimeMs forgottenUntil = log.firstRetained() == 0 ? 0
        : log.firstRetained() < log.size()                 ? log[log.firstRetained()].time
                                                           : run.now();
    return { { "version", kPictureFormat }, { "now_ms", run.now() }, { "forgotten_until_ms", forgottenUntil },
        { "queues", std::move(queues) } };
}

} // namespace lifeline::picture
