#include "timeline/timeline_style.h"

#include <algorithm>
#include <cmath>

namespace lifeline::ui {

namespace {
void commonStates(TimelineStyle& s)
{
    // Okabe-Ito: orange, sky blue, blue, bluish green, vermillion, reddish purple, yellow, grey.
    s.stateColor[size_t(MessageState::None)] = QColor(0, 0, 0, 0);
    s.stateColor[size_t(MessageState::Delayed)] = QColor(0xE6, 0x9F, 0x00);
    s.stateColor[size_t(MessageState::Visible)] = QColor(0x56, 0xB4, 0xE9);
    s.stateColor[size_t(MessageState::InFlight)] = QColor(0x00, 0x72, 0xB2);
    s.stateColor[size_t(MessageState::Deleted)] = QColor(0x00, 0x9E, 0x73);
    s.stateColor[size_t(MessageState::DeadLettered)] = QColor(0xD5, 0x5E, 0x00);
    s.stateColor[size_t(MessageState::Expired)] = QColor(0xCC, 0x79, 0xA7);
    s.stateColor[size_t(MessageState::Purged)] = QColor(0x99, 0x99, 0x99);
    s.stateColor[size_t(MessageState::Redriven)] = QColor(0xF0, 0xE4, 0x42);
    s.statePattern.fill(Qt::NoBrush);
    s.statePattern[size_t(MessageState::Delayed)] = Qt::BDiagPattern; // waiting: diagonal hatch
    s.statePattern[size_t(MessageState::Visible)] = Qt::HorPattern; // available: horizontal lines
    s.statePattern[size_t(MessageState::InFlight)] = Qt::NoBrush; // held: solid
    // Consumer activity in neutral slate and greys, apart from every message state's hue (working used to share
    // deleted's green, polling purged's grey); failed and crashed keep colours of their own.
    s.working = QColor(0x5B, 0x67, 0x70);
    s.failed = QColor(0x7A, 0x28, 0xA8); // failed work: violet, apart from the DLQ's vermillion and expired's pink
    s.crash = QColor(0xD5, 0x2B, 0x1E);
    s.duplicate = QColor(0xD5, 0x2B, 0x1E);
}
} // namespace

TimelineStyle TimelineStyle::light()
{
    TimelineStyle s;
    commonStates(s);
    s.background = QColor(0xFF, 0xFF, 0xFF);
    s.text = QColor(0x20, 0x20, 0x20);
    s.grid = QColor(0xE4, 0xE4, 0xE4);
    s.groupBackground = QColor(0xF2, 0xF2, 0xF2);
    s.selection = QColor(0x00, 0x00, 0x00);
    s.now = QColor(0xD5, 0x2B, 0x1E);
    s.patternInk = QColor(255, 255, 255, 150);
    s.mark = QColor(0x20, 0x20, 0x20);
    s.polling = QColor(0xC6, 0xCB, 0xD0);
    s.unobserved = QColor(0xE6, 0xE6, 0xE6);
    s.unobservedInk = QColor(0x9A, 0x9A, 0x9A);
    s.fastForward = QColor(0xC8, 0xCE, 0xD6);
    return s;
}

TimelineStyle TimelineStyle::scaledBy(double k, int basePixels) const
{
    TimelineStyle s = *this;
    const auto times = [k](int px) { return int(std::lround(px * k)); };
    s.rowHeight = times(rowHeight);
    s.maxRowHeight = times(maxRowHeight);
    s.groupHeight = times(groupHeight);
    s.labelWidth = times(labelWidth);
    s.rulerHeight = times(rulerHeight);
    s.legendHeight = times(legendHeight);
    s.textPixels = times(textPixels > 0 ? textPixels : basePixels);
    s.legendPixels = times(legendPixels);
    s.markPixels = times(markPixels);
    s.pinRadius = times(pinRadius);
    s.calloutPixels = times(calloutPixels);
    s.calloutWidth = times(calloutWidth);
    s.segmentGap = std::max(1, times(segmentGap));
    return s;
}

TimelineStyle TimelineStyle::darkTheme()
{
    TimelineStyle s;
    commonStates(s);
    s.dark = true;
    s.background = QColor(0x1E, 0x1F, 0x22);
    s.text = QColor(0xE8, 0xE8, 0xE8);
    s.grid = QColor(0x34, 0x36, 0x3A);
    s.groupBackground = QColor(0x2A, 0x2C, 0x30);
    s.selection = QColor(0xFF, 0xFF, 0xFF);
    s.now = QColor(0xFF, 0x6B, 0x5E);
    s.patternInk = QColor(0, 0, 0, 120);
    s.mark = QColor(0xF0, 0xF0, 0xF0);
    // On the dark background the light slate is the one that stands out: working light, polling dim.
    s.working = QColor(0x8C, 0x9B, 0xA8);
    s.polling = QColor(0x6A, 0x6E, 0x73); // 3.2:1 on the background, as a mark must be (WCAG 1.4.11)
    s.failed = QColor(0xB0, 0x5C, 0xE0); // the common violet is 1.8:1 on this background
    s.unobserved = QColor(0x33, 0x35, 0x39);
    s.unobservedInk = QColor(0x6E, 0x72, 0x78);
    s.fastForward = QColor(0x45, 0x4B, 0x54);
    return s;
}

TimelineStyle TimelineStyle::highContrast()
{
    TimelineStyle s = darkTheme();
    s.background = QColor(0x00, 0x00, 0x00);
    s.text = QColor(0xFF, 0xFF, 0xFF);
    s.grid = QColor(0x80, 0x80, 0x80); // 5.3:1: the time grid reads as lines, not as a tint
    s.groupBackground = QColor(0x1A, 0x1A, 0x1A);
    s.selection = QColor(0xFF, 0xFF, 0x00); // the high-contrast convention for focus and selection
    s.now = QColor(0xFF, 0x5A, 0x4F);
    s.patternInk = QColor(0, 0, 0); // the patterns' lines in the background's black, whole
    s.mark = QColor(0xFF, 0xFF, 0xFF);
    s.polling = QColor(0x8A, 0x8A, 0x8A);
    s.working = QColor(0xC8, 0xD2, 0xDC);
    s.failed = QColor(0xC7, 0x7D, 0xFF);
    // The crash keeps the common red: 4.2:1 on black, and its word in white on it at 5.0:1.
    s.stateColor[size_t(MessageState::InFlight)] = QColor(0x1E, 0x90, 0xE6); // Okabe-Ito's blue is 4.0:1 on black
    s.unobserved = QColor(0x30, 0x30, 0x30);
    s.unobservedInk = QColor(0x90, 0x90, 0x90);
    s.fastForward = QColor(0x40, 0x40, 0x40);
    s.segmentGap = 2;
    s.darkSegmentText = true; // black reads at 5.4:1 or more on every state's fill here; white would not on blue
    return s;
}

TimelineStyle TimelineStyle::of(Theme theme)
{
    switch (theme) {
    case Theme::Dark:
        return darkTheme();
    case Theme::HighContrast:
        return highContrast();
    case Theme::Light:
        break;
    }
    return light();
}

QColor inkOn(const QColor& fill)
{
    const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    const double l = 0.2126 * channel(fill.redF()) + 0.7152 * channel(fill.greenF()) + 0.0722 * channel(fill.blueF());
    const double onWhite = 1.05 / (l + 0.05), onBlack = (l + 0.05) / (0.0052 + 0.05);
    return onWhite >= onBlack ? QColor(0xFF, 0xFF, 0xFF) : QColor(0x10, 0x10, 0x10);
}

} // namespace lifeline::ui
