#include "window/controllers/focus_keys.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QTimer>

namespace lifeline::ui {

namespace {
// The spin box a key goes to: the box itself or the line edit inside it.
QAbstractSpinBox* spinBoxOf(QObject* watched)
{
    if (auto* box = qobject_cast<QAbstractSpinBox*>(watched))
        return box;
    if (auto* edit = qobject_cast<QLineEdit*>(watched))
        return qobject_cast<QAbstractSpinBox*>(edit->parent());
    return nullptr;
}
} // namespace

FocusKeys::FocusKeys(QWidget* window, QWidget* home)
    : QObject(window)
    , m_window(window)
    , m_home(home)
{
    qApp->installEventFilter(this);
}

bool FocusKeys::eventFilter(QObject* watched, QEvent* event)
{
    const auto type = event->type();
    if (type != QEvent::ShortcutOverride && type != QEvent::KeyPress)
        return false;
    auto* widget = qobject_cast<QWidget*>(watched);
    QAbstractSpinBox* box = spinBoxOf(watched);
    if (!widget || !box || widget->window() != m_window)
        return false;
    const auto* key = static_cast<QKeyEvent*>(event);
    if (key->modifiers() != Qt::NoModifier && key->modifiers() != Qt::KeypadModifier)
        return false;
    if (key->key() == Qt::Key_Space && type == QEvent::ShortcutOverride) {
        // Not accepted: the window's shortcut (Play, or the presenter's Space) takes the key.
        box->interpretText();
        m_home->setFocus(Qt::ShortcutFocusReason);
        return true;
    }
    if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && type == QEvent::KeyPress)
        // The box commits the key first (its editingFinished); then the focus goes back.
        QTimer::singleShot(0, m_home, [home = m_home] { home->setFocus(Qt::ShortcutFocusReason); });
    return false;
}

} // namespace lifeline::ui
