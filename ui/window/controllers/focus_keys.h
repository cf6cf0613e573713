// One focus rule for the window's keys: Space plays and pauses wherever focus is. A spin box that has the focus
// commits what was typed in it (as Enter or leaving it does) and gives the focus back to the timeline, instead of
// taking the space as text and emptying itself; a slider, a check box or a combo box lets the window's Space through.
// Enter in a spin box commits it and gives the focus back too. A text field the user types words in (the lane filter,
// a dialog's) keeps its spaces.
#pragma once

#include <QObject>

class QWidget;

namespace lifeline::ui {

class FocusKeys : public QObject {
    Q_OBJECT
public:
    // Watches the keys of `window`'s widgets; the focus goes back to `home` (the timeline).
    FocusKeys(QWidget* window, QWidget* home);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* m_window;
    QWidget* m_home;
};

} // namespace lifeline::ui
