// The legend under the lanes: every state's swatch, the marks' glyphs, the actors' colours; it wraps onto more
// lines rather than run off the right edge.
#pragma once

#include "lifeline/picture/picture_words.h"
#include "timeline/timeline_style.h"

#include <QPainter>
#include <QRect>
#include <QStringList>

namespace lifeline::ui {

// What the run has shown: the legend lists only these.
struct LegendContent {
    uint32_t states = 0; // bit per MessageState some lane entered
    uint32_t marks = 0; // bit per picture::LaneMark some lane shows
    bool crash = false; // a consumer crashed (the consumers' "crashed")
    bool notObserved = false; // the recording proxy first saw a message it had not seen sent
    bool inferred = false; // `lifeline import` drew a segment from a queue's settings
    bool polling = false, working = false, failed = false, functionTimeout = false;
    bool operator==(const LegendContent&) const = default;
    void mark(picture::LaneMark m) { marks |= 1u << unsigned(m); }
    bool shows(picture::LaneMark m) const { return (marks >> unsigned(m)) & 1u; }
};

class TimelineLegend {
public:
    explicit TimelineLegend(const TimelineStyle& style);

    void setContent(const LegendContent& content);
    const LegendContent& content() const { return m_content; }
    int height(int width) const;
    // The entries' words in order, headings included ("Messages:", "visible", ...).
    QStringList names() const;
    void paint(QPainter& p, const QRect& area) const;

private:
    const TimelineStyle& m_style;
    LegendContent m_content;
    mutable int m_layoutWidth = -1; // height()'s last layout: asked for every row placed, laid out once per width
    mutable int m_lines = 1;
};

} // namespace lifeline::ui
