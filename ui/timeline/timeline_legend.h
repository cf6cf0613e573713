// The legend under the lanes: every state's swatch, the marks' glyphs, the actors' colours; it wraps onto more
// lines rather than run off the right edge.
#pragma once

#include "timeline/timeline_style.h"

#include <QPainter>
#include <QRect>

namespace lifeline::ui {

class TimelineLegend {
public:
    explicit TimelineLegend(const TimelineStyle& style);

    // Lambda pollers add the function timeout's tick.
    void setShowsFunctionTimeout(bool shows);
    int height(int width) const;
    void paint(QPainter& p, const QRect& area) const;

private:
    const TimelineStyle& m_style;
    bool m_functionTimeout = false;
    mutable int m_layoutWidth = -1; // height()'s last layout: asked for every row placed, laid out once per width
    mutable int m_lines = 1;
};

} // namespace lifeline::ui
