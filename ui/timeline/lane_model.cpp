#include "timeline/lane_model.h"

namespace lifeline::ui {

LaneModel::LaneModel(QObject* parent)
    : QObject(parent)
{
}

void LaneModel::setRun(const RunView* run)
{
    m_picture.setRun(run, m_momentSpecs);
    emit runReset();
    sync();
    emit momentsChanged();
}

void LaneModel::sync()
{
    const picture::RunPicture::Changes changes = m_picture.sync();
    if (changes.lanes)
        emit lanesChanged();
    if (changes.moments)
        emit momentsChanged();
}

QString LaneModel::actorName(uint32_t actor) const
{
    return run() ? QString::fromStdString(run()->actorName(actor)) : tr("client %1").arg(actor);
}

} // namespace lifeline::ui
