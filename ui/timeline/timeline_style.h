// Colours, patterns and sizes of the timeline, in one place: the screen and the exports share them. The palette is
// Okabe-Ito (readable with the common colour-vision deficiencies) and every state also has its own pattern.
#pragma once

#include "lifeline/run/event_log.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QPen>
#include <array>

namespace lifeline::ui {

// The window's themes (View menu): light, dark, and high contrast (white on black, marks and boundaries far apart).
enum class Theme { Light, Dark, HighContrast };
// High contrast over the light or dark choice, as the window and the exports' requests keep them.
inline Theme themeOf(bool dark, bool highContrast)
{
    return highContrast ? Theme::HighContrast : dark ? Theme::Dark : Theme::Light;
}

struct TimelineStyle {
    bool dark = false;
    // The background's width between two segments of a lane: neighbouring states apart by more than their colours
    // (WCAG 1.4.11 asks 3:1 of a boundary, which two fills side by side need not have); high contrast's is wider.
    int segmentGap = 1;
    bool darkSegmentText = false; // every segment's words in near-black (high contrast's fills are all bright)
    int rowHeight = 18; // the least a row is; rows grow to fill the height when they are few (fillingRowHeight)
    int maxRowHeight = 64; // the tallest: a few lanes read from across a room without becoming slabs
    int groupHeight = 22;
    int labelWidth = 150;
    int rulerHeight = 26;
    int legendHeight = 24;
    QColor background, text, grid, groupBackground, selection, now;
    std::array<QColor, size_t(MessageState::Count)> stateColor;
    std::array<Qt::BrushStyle, size_t(MessageState::Count)> statePattern;
    QColor patternInk; // the lines drawn over a state's colour
    QColor polling, working, failed, crash, mark, duplicate;
    QColor unobserved, unobservedInk; // the recording proxy's "not observed": grey, cross-hatched
    QColor fastForward; // the ruler under a wait that played faster
    // Sizes that grow for slides (image_export's slide style); the screen keeps these.
    int textPixels = 0; // labels, ruler and legend type; 0: the painter's font (the screen's)
    int rowTextPixels = 0; // the rows' type when larger than that (the screen's grown rows); 0: the same
    int legendPixels = 12;
    int markPixels = 13; // a mark's glyph (✕ 2× ➜ ◆ ⊘), on a plate a little wider
    int pinRadius = 8; // a moment's numbered pin
    int calloutPixels = 12;
    int calloutWidth = 300;

    static TimelineStyle light();
    static TimelineStyle darkTheme();
    // White on black: text at 21:1, every state, mark and line at 3:1 or more on the background, and a gap of
    // background between neighbouring segments (two states' colours need not differ by 3:1 from each other).
    static TimelineStyle highContrast();
    static TimelineStyle of(Theme theme);
    // Every size times `k` (presenter mode: 1.6), the type from `basePixels` (the widget's font).
    TimelineStyle scaledBy(double k, int basePixels) const;
    QBrush fill(MessageState state) const { return QBrush(stateColor[size_t(state)]); }
    QBrush pattern(MessageState state) const { return QBrush(patternInk, statePattern[size_t(state)]); }
};

// White or near-black, whichever reads better on `fill` (a consumer's bar: the dark and high-contrast themes' working
// slate is light); the window and the page alike.
QColor inkOn(const QColor& fill);

} // namespace lifeline::ui
