// The Help menu: the window's keys and gestures (F1), the quick reference (the limits no run can show), About. Each
// text in a window of its own beside the main window, raised again when asked again.
#pragma once

#include <QObject>

class QMenu;
class QWidget;

namespace lifeline::ui {

class HelpController : public QObject {
    Q_OBJECT
public:
    explicit HelpController(QWidget* window);

    void fillMenu(QMenu* help);
    void showKeys();
    void showQuickReference();
    void showAbout();

private:
    QWidget* m_window;
};

} // namespace lifeline::ui
