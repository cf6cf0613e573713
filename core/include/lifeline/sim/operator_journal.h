// What the operator did to a live run, each call at its virtual instant, kept so that the run can be played again as
// it went: an animation "as played" shows a speaker's crashes and slider changes, not only the lesson's script. The
// same scenario and seed with the same calls at the same instants give the same run, event for event: each call is kept
// with how many events the run had logged before it, so that two calls at one instant are made with or without the
// clock's work between them (a consumer added at 61 s polls at once) as they were live.
#pragma once

#include "lifeline/run/event_log.h"

#include <functional>
#include <vector>

namespace lifeline::sim {

class Simulation;

class OperatorJournal {
public:
    using Call = std::function<void(Simulation&)>;

    void record(TimeMs at, size_t eventsBefore, Call call) { m_calls.push_back({ at, eventsBefore, std::move(call) }); }
    bool empty() const { return m_calls.empty(); }
    size_t size() const { return m_calls.size(); }
    TimeMs lastAt() const { return m_calls.empty() ? 0 : m_calls.back().at; }

    // Runs `run` to `time`, making each recorded call from `next` on at its instant on the way; `next` moves past
    // the calls made.
    void replayUpTo(Simulation& run, TimeMs time, size_t& next) const;

private:
    struct Entry {
        TimeMs at;
        size_t eventsBefore; // the run's log size when the call was made
        Call call;
    };
    std::vector<Entry> m_calls;
};

} // namespace lifeline::sim
