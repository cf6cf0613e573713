// The run on the timeline: core's RunPicture (the lanes grouped by queue, the actors, the lane index, the tenants, the
// density series and the moments found) with Qt's signals, so the view repaints when sync() finds something new. A
// plain QObject: the timeline paints from it directly, no item view shows it.
#pragma once

#include "lifeline/picture/run_picture.h"

#include <QObject>

namespace lifeline::ui {

class LaneModel : public QObject {
    Q_OBJECT
public:
    // The kinds of the timeline's rows: a queue's header, a message lane, the actors' header, an actor's row, and
    // the density bands (a queue's, a consumer group's) shown when lanes are too many to read.
    enum RowKind { QueueGroup, MessageRow, ActorGroup, ActorRow, QueueBand, ActorBand };

    explicit LaneModel(QObject* parent = nullptr);

    // A new run: everything is read again (runReset, then lanesChanged).
    void setRun(const RunView* run);
    const RunView* run() const { return m_picture.run(); }
    const picture::RunPicture& picture() const { return m_picture; }
    // The moments to find in the runs shown from now on (a lesson's; none for other runs). Takes effect at the next
    // setRun.
    void setMomentSpecs(std::vector<analysis::MomentSpec> specs) { m_momentSpecs = std::move(specs); }
    // The moments found so far, in time order (momentsChanged when there are more).
    const std::vector<analysis::Moment>& moments() const { return m_picture.moments(); }
    size_t expectedMoments() const { return m_picture.expectedMoments(); }
    // Reads what the run logged since the last sync; lanesChanged when lanes, actors or states changed.
    void sync();
    const LaneIndex& lanes() const { return m_picture.lanes(); }
    const LaneTenants& tenants() const { return m_picture.tenants(); }
    const DensitySeries& density() const { return m_picture.density(); }

    int queueGroupCount() const { return int(m_picture.queueGroupCount()); }
    using Lanes = picture::RunPicture::Lanes;
    const Lanes& lanesOfGroup(int group) const { return m_picture.lanesOfGroup(size_t(group)); }
    const std::vector<uint32_t>& shownActors() const { return m_picture.shownActors(); }
    QString actorName(uint32_t actor) const; // the run's name for it
    size_t bytesUsed() const { return m_picture.bytesUsed(); }

signals:
    void runReset();
    void lanesChanged();
    void momentsChanged();

private:
    picture::RunPicture m_picture;
    std::vector<analysis::MomentSpec> m_momentSpecs;
};

} // namespace lifeline::ui
