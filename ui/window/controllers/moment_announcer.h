// Key moments said as they are reached, for a learner who does not see the timeline: each new moment's caption ("Key
// moment 1 at 5s: worker-1 crashes holding the message: nobody will delete it") becomes the name of a small alert in
// the status bar, shown anew, which a screen reader speaks as it appears (AT-SPI's alert role; Qt 6.4 has no
// announcement event of its own). The status bar's text says it too, for everyone.
#pragma once

#include <QObject>
#include <QString>
#include <functional>

class QStatusBar;
class QWidget;

namespace lifeline::ui {

class LaneModel;

class MomentAnnouncer : public QObject {
    Q_OBJECT
public:
    // `say` shows a text in the status bar (the window's).
    MomentAnnouncer(const LaneModel* model, QStatusBar* bar, std::function<void(const QString&)> say, QObject* parent);

    QWidget* notice() const { return m_notice; } // the alert a screen reader reads
    QString lastSaid() const;

private:
    void momentsFound();

    const LaneModel* m_model;
    QWidget* m_notice;
    std::function<void(const QString&)> m_say;
    size_t m_said = 0; // the moments of this run already said
};

} // namespace lifeline::ui
