// The picture of a run as JSON, read from a RunPicture through the same readers the window paints with
// (SegmentReader, laneMarkAt, readActorSpans) and named from the one words table (picture_words.h):
//  - pictureJson: what the web page draws (docs/picture-format.md, "format" 1): lanes as compact rows, a queue of
//    more lanes than a page shows as the window's band, the consumers' rows, the moments; golden files in
//    tests/data/picture hold a few lessons' byte for byte;
//  - lanesJson: the control API's GET /_lifeline/runs/current?format=json (docs/testing.md): each lane's segments to
//    the millisecond, its words and marks, its receives.
#pragma once

#include "lifeline/picture/run_picture.h"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace lifeline::picture {

inline constexpr int kPictureFormat = 1;

// A queue with more lanes than this is drawn as a band of how many messages were delayed, visible and in flight.
inline constexpr size_t kMostLanes = 400;

// The words table as the page reads it: {"states": {"in-flight": "in flight", ...}, "marks": {"crash": {"glyph",
// "name"}, ...}, "activities": {"poll": "polling", "work": "working", "failed": "failed", "crash": "crashed"}}.
nlohmann::json wordsJson();

// One run as the page draws it: {label, end, groups, actors, moments}. `picture` is synced to the run's end.
nlohmann::json pictureJson(const RunPicture& picture, std::string_view label = {});

// Every event the run holds, one row each as the CSV export has them, compact: names once in tables.
nlohmann::json eventsJson(const RunView& run);

// The control API's lanes: {version, now_ms, forgotten_until_ms, queues: [{name, lanes: [...]}]}, one queue's only
// when `onlyQueue` names one.
nlohmann::json lanesJson(const RunPicture& picture, std::string_view onlyQueue = {});

} // namespace lifeline::picture
