// Paints an actor's row: a consumer's or a Lambda poller's polls, work and crashes. A Lambda invocation is one bar
// for its whole batch ("batch of 10"), with a tick where its function timeout would stop it.
#pragma once

#include "lifeline/picture/actor_spans.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_frame.h"
#include "timeline/timeline_style.h"

#include <QPainter>
#include <QRect>

namespace lifeline::ui {

void paintActorRow(QPainter& p, const QRect& row, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, uint32_t actor);

// Whether a scripted call's answer is SQS's OK (else its error, drawn in the crash colour).
bool scriptCallOk(const std::string& answer);
// The work of `actor` going on at `time`, if any (for the tooltip).
std::optional<picture::WorkBar> workAt(const LaneModel& model, uint32_t actor, TimeMs time, TimeMs now);

} // namespace lifeline::ui
