// The lesson panel's list of its moments ("1  0:10  Visible again while worker-1 ..."), kept in step with the run:
// a click asks the timeline to go to that moment; the moment the timeline went to is the current item.
#pragma once

#include "timeline/lane_model.h"

#include <QListWidget>

namespace lifeline::ui {

class MomentList : public QListWidget {
    Q_OBJECT
public:
    explicit MomentList(QWidget* parent = nullptr);

    void setLaneModel(const LaneModel* model);
    void setFocused(int number); // 0: none

signals:
    void momentRequested(int number);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    void fitHeight();

    const LaneModel* m_model = nullptr;
};

} // namespace lifeline::ui
