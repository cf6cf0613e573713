// A label's longest form that fits its width, and the shortest cut to it when none does: a lane header reads
// "height: 1,200" or "1,200" in a narrow window rather than "height: 1,200 messa…".
#pragma once

#include <QFontMetrics>
#include <QString>
#include <initializer_list>

namespace lifeline::ui {

inline QString fittingText(const QFontMetrics& metrics, int width, std::initializer_list<QString> longestFirst)
{
    QString shortest;
    for (const QString& form : longestFirst) {
        if (metrics.horizontalAdvance(form) <= width)
            return form;
        shortest = form;
    }
    return metrics.elidedText(shortest, Qt::ElideRight, width);
}

} // namespace lifeline::ui
