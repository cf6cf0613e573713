// The picture's words (core's lifeline/picture/picture_words.h) as the window shows them: the one place where they
// pass through Qt's translation, for the painter, the hover, the legend and the images alike.
#pragma once

#include "lifeline/picture/actor_spans.h"
#include "lifeline/picture/picture_words.h"

#include <QString>

namespace lifeline::ui {

// Core's English through QCoreApplication::translate (context "lifeline::picture").
std::string translated(const char* english);

struct SegmentWords {
    QString label; // the whole words
    QString shortLabel; // where they do not fit ("#2", "30 s"); may be empty
};
SegmentWords segmentWords(const picture::SegmentPhrase& phrase);

QString stateName(MessageState state); // "in flight"
QString markGlyph(picture::LaneMark mark); // "✕"
QString markName(picture::LaneMark mark); // "crash"
QString activityName(picture::ActorActivity activity); // "polling"
QString workLabel(const RunView& run, const picture::WorkBar& bar); // "batch of 10 · 3 failed"

} // namespace lifeline::ui
