// View > Compare with the fix: the lesson as written and with its fix, run to their ends, as two timelines stacked
// on one shared time axis ("As written", "With the fix"), each with its moments, zoom and pan linked, and the
// figures that differ between them on top ("duplicate processings 2 → 0"). A pane of the main window, below the
// lesson's own timeline (which keeps playing, its caption in view): Esc or its Close button closes it.
#pragma once

#include "lifeline/analysis/summary.h"
#include "lifeline/scenario/scenario.h"
#include "lifeline/sim/simulation.h"

#include <QWidget>
#include <memory>

class QLabel;

namespace lifeline::ui {

class LaneModel;
class TimelineView;

class ComparisonPane : public QWidget {
    Q_OBJECT
public:
    // Runs both (the fix must apply: the caller checks with scenario::applyFix first).
    ComparisonPane(
        const scenario::Scenario& asWritten, const scenario::Scenario& fixed, bool dark, QWidget* parent = nullptr);
    ~ComparisonPane() override;

    TimelineView* asWrittenView() const { return m_views[0]; }
    TimelineView* fixedView() const { return m_views[1]; }
    QString claimText() const;
    const std::vector<analysis::FigureChange>& changes() const { return m_changes; }

private:
    void follow(int from); // the other view takes this one's time window

    std::unique_ptr<sim::Simulation> m_runs[2];
    LaneModel* m_models[2];
    TimelineView* m_views[2];
    QLabel* m_claim;
    std::vector<analysis::FigureChange> m_changes;
    bool m_following = false;
};

} // namespace lifeline::ui
