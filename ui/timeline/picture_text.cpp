#include "timeline/picture_text.h"

#include <QCoreApplication>

namespace lifeline::ui {

std::string translated(const char* english)
{
    return QCoreApplication::translate("lifeline::picture", english).toStdString();
}

SegmentWords segmentWords(const picture::SegmentPhrase& phrase)
{
    const picture::SegmentText text = picture::segmentText(phrase, translated);
    return { QString::fromStdString(text.label), QString::fromStdString(text.shortLabel) };
}

QString stateName(MessageState state)
{
    return QString::fromStdString(translated(picture::stateWords(state)));
}

QString markGlyph(picture::LaneMark mark)
{
    return QString::fromUtf8(picture::markWords(mark).glyph);
}

QString markName(picture::LaneMark mark)
{
    return QString::fromStdString(translated(picture::markWords(mark).name));
}

QString activityName(picture::ActorActivity activity)
{
    return QString::fromStdString(translated(picture::activityWords(activity).name));
}

QString workLabel(const RunView& run, const picture::WorkBar& bar)
{
    return QString::fromStdString(picture::workText(run, bar, translated));
}

} // namespace lifeline::ui
