// A lesson's moments on the timeline: a numbered pin on the moment's row at its instant, and a callout box with the
// caption. Callouts go where they cover no lane: in the free space below the last row when there is some, stacked
// there in time order with a leader line up to their pin. The focused one is placed first, and beside its pinned row
// when there is no free space; any other that finds no room is left out (its pin stays, its caption shows on hover
// and in the lesson panel's list). Pins at one instant
// on one row stand side by side, their stems meeting at the instant.
#pragma once

#include "lifeline/analysis/moments.h"
#include "timeline/timeline_style.h"

#include <QPainter>
#include <QRect>
#include <vector>

namespace lifeline::ui {

// A moment where it is drawn: its number (from 1), its pin's centre, the pinned row's box.
struct PlacedMoment {
    int number = 0;
    QPointF pin;
    double instantX = 0; // where the stem points (the pin may stand beside it, next to another pin)
    QRect row;
    QString caption;
};

inline constexpr int kMomentPinRadius = 8; // the screen's pin (TimelineStyle::pinRadius): 16 px, read at a glance

// The pin's centre for a row: just above the row's top edge (the bar stays visible), or below the row when the
// row is the first one under the ruler.
QPointF momentPinCentre(const QRect& row, double x, const QRect& lanes, int radius = kMomentPinRadius);

// Pins for every placed moment; callouts for `focused` (a number, or 0) and, with `allCallouts`, every other one
// that finds room. Returns the callout boxes drawn (tests probe them).
// Pins that would overlap on one row stand side by side (each stem still points at its own instant).
void spreadPins(std::vector<PlacedMoment>& moments, int radius = kMomentPinRadius);

// `freeTop`: where the space below the last row starts (lanes.bottom() when the rows fill the area).
std::vector<QRect> paintMoments(QPainter& p, const QRect& lanes, int freeTop, const std::vector<PlacedMoment>& moments,
    int focused, bool allCallouts, const TimelineStyle& style);

} // namespace lifeline::ui
