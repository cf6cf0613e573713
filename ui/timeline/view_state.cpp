#include "timeline/view_state.h"

#include <QAction>

namespace lifeline::ui {

ViewState::ViewState(QObject* parent)
    : QObject(parent)
    , m_followLive(new QAction(tr("Follow live"), this))
    , m_zoomIn(new QAction(tr("Zoom in"), this))
    , m_zoomOut(new QAction(tr("Zoom out"), this))
    , m_fit(new QAction(tr("Fit (F)"), this))
    , m_zoomBack(new QAction(tr("Back to the previous zoom"), this))
    , m_aliveOnly(new QAction(tr("Alive in view"), this))
{
    m_aliveOnly->setCheckable(true);
    m_aliveOnly->setToolTip(tr("List only the messages alive in the visible time window, so following live shows "
                               "the ones that are live; on by itself above a few hundred messages"));
    m_followLive->setCheckable(true);
    m_followLive->setChecked(true);
    m_followLive->setShortcut(QKeySequence(Qt::Key_L));
    m_followLive->setToolTip(tr("Keep \"now\" in view; any manual pan stops following (L)"));
    m_zoomIn->setShortcut(QKeySequence::ZoomIn);
    m_zoomIn->setToolTip(tr("Zoom in around the middle (W, Ctrl+wheel)"));
    m_zoomOut->setShortcut(QKeySequence::ZoomOut);
    m_zoomOut->setToolTip(tr("Zoom out around the middle (S, Ctrl+wheel)"));
    m_fit->setToolTip(tr("Centre the selected message; again, or with nothing selected, the whole run (F)"));
    m_zoomBack->setShortcut(QKeySequence::Back);
    m_zoomBack->setToolTip(tr("Undo the last zoom or fit (Backspace in the timeline, Alt+Left)"));
    m_zoomBack->setEnabled(false);
    connect(m_followLive, &QAction::toggled, this, &ViewState::followLiveToggled);
    connect(m_zoomIn, &QAction::triggered, this, &ViewState::zoomInRequested);
    connect(m_zoomOut, &QAction::triggered, this, &ViewState::zoomOutRequested);
    connect(m_fit, &QAction::triggered, this, &ViewState::fitRequested);
    connect(m_zoomBack, &QAction::triggered, this, &ViewState::zoomBackRequested);
    connect(m_aliveOnly, &QAction::triggered, this, &ViewState::aliveOnlyToggled);
}

bool ViewState::followingLive() const
{
    return m_followLive->isChecked();
}

void ViewState::setFollowingLive(bool follow)
{
    m_followLive->setChecked(follow); // followLiveToggled when it changes, as for the user's toggle
}

void ViewState::beginZoom(Window current)
{
    if (m_inGesture)
        return;
    m_inGesture = true;
    m_history.push_back(current);
    if (m_history.size() > kMaxHistory)
        m_history.erase(m_history.begin());
    updateBack();
}

std::optional<ViewState::Window> ViewState::back()
{
    m_inGesture = false;
    if (m_history.empty())
        return std::nullopt;
    const Window window = m_history.back();
    m_history.pop_back();
    updateBack();
    return window;
}

void ViewState::clearHistory()
{
    m_history.clear();
    m_inGesture = false;
    updateBack();
}

void ViewState::updateBack()
{
    m_zoomBack->setEnabled(!m_history.empty());
}

} // namespace lifeline::ui
