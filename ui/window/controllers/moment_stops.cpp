#include "window/controllers/moment_stops.h"

#include "timeline/lane_model.h"
#include "timeline/timeline_view.h"
#include "window/runtime/live_driver.h"

#include <QAction>
#include <QEvent>
#include <QFontInfo>
#include <QKeyEvent>
#include <QLabel>
#include <QWidget>
#include <algorithm>

namespace lifeline::ui {

MomentStops::MomentStops(TimelineView* timeline, LaneModel* model, LiveDriver* driver, QObject* parent)
    : QObject(parent)
    , m_timeline(timeline)
    , m_model(model)
    , m_driver(driver)
    , m_action(new QAction(tr("&Stop at each key moment"), this))
    , m_caption(new QLabel(timeline))
{
    m_action->setCheckable(true);
    m_action->setToolTip(tr("While a lesson plays, pause on each key moment with its caption; Space or N goes on"));
    m_caption->setObjectName(QStringLiteral("momentStopCaption"));
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText); // a caption is words, never markup
    m_caption->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_caption->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_caption->hide();
    timeline->installEventFilter(this);
    connect(model, &LaneModel::momentsChanged, this, &MomentStops::momentsFound);
    connect(model, &LaneModel::runReset, this, [this] {
        m_seen = 0;
        m_pending.reset();
        hideCaption();
    });
    connect(driver, &LiveDriver::advanced, this, &MomentStops::stopIfDue);
    connect(driver, &LiveDriver::playingChanged, this, [this](bool playing) {
        if (playing)
            hideCaption(); // Play, Space or N: the learner goes on
    });
    connect(m_action, &QAction::toggled, this, [this](bool on) {
        if (!on)
            hideCaption();
        m_seen = m_model->moments().size(); // from now on: not the moments already passed
        m_pending.reset();
    });
}

void MomentStops::setLessonShown(bool shown)
{
    m_lessonShown = shown;
    m_seen = m_model->moments().size();
    m_pending.reset();
    hideCaption();
}

bool MomentStops::stopped() const
{
    return m_caption->isVisible() && !m_driver->playing();
}

void MomentStops::momentsFound()
{
    const auto& moments = m_model->moments();
    if (moments.size() <= m_seen)
        return;
    const size_t first = m_seen;
    m_seen = moments.size();
    if (!m_action->isChecked() || !m_lessonShown || !m_driver->playing())
        return;
    // Moments found before their stop is shown are told together: the run stops once.
    const TimeMs at = m_shownAt ? m_shownAt(moments.back().at) : moments.back().at;
    m_pending = Pending { m_pending ? m_pending->first : first, m_pending ? std::max(m_pending->at, at) : at };
    stopIfDue(m_model->run() ? m_model->run()->now() : at);
}

void MomentStops::stopIfDue(TimeMs now)
{
    if (!m_pending || now < m_pending->at || !m_driver->playing())
        return;
    const size_t first = m_pending->first;
    m_pending.reset();
    const auto& moments = m_model->moments();
    QStringList lines;
    for (size_t i = first; i < moments.size(); ++i)
        lines << QStringLiteral("%1  %2").arg(i + 1).arg(QString::fromStdString(moments[i].caption));
    m_driver->pause();
    m_pinsY = 0;
    for (const PlacedMoment& pin : m_timeline->painter().placedMoments(m_timeline->rect(), m_timeline->frame()))
        if (size_t(pin.number) > first)
            m_pinsY = std::max(m_pinsY, pin.row.bottom() + 0.0);
    m_caption->setText(lines.join(QLatin1Char('\n')) + QStringLiteral("\n") + tr("(Space or N goes on)"));
    placeCaption();
    m_caption->show();
    m_caption->raise();
    m_timeline->setMomentCallouts(false); // the caption says what the callouts would: once, large
}

void MomentStops::hideCaption()
{
    m_caption->hide();
    m_timeline->setMomentCallouts(true);
}

void MomentStops::goOn()
{
    hideCaption();
    m_driver->play();
}

void MomentStops::placeCaption()
{
    // Large, centred low over the timeline, where the moments' small callouts are (it says what they say), so the
    // moment's lane and pin stay in sight; opaque, in the palette's tooltip colours (both themes have them).
    QFont font = m_timeline->font();
    const int base = QFontInfo(m_timeline->font()).pixelSize();
    font.setPixelSize(std::clamp(m_timeline->height() / 18, base, base * 8 / 5)); // smaller on a small timeline
    m_caption->setFont(font);
    const QPalette palette = m_timeline->palette();
    m_caption->setStyleSheet(QStringLiteral("QLabel { background-color: %1; color: %2; border: 1px solid %3; "
                                            "border-radius: 6px; padding: 10px; }")
                                 .arg(palette.color(QPalette::ToolTipBase).name(),
                                     palette.color(QPalette::ToolTipText).name(), palette.color(QPalette::Mid).name()));
    m_caption->setFixedWidth(std::max(200, std::min(m_timeline->width() - 40, 820)));
    m_caption->adjustSize();
    // Low (above the legend), unless the moments' rows are down there: then high, under the ruler.
    const int low = std::max(0, m_timeline->height() - m_caption->height() - m_timeline->height() / 10);
    const int high = m_timeline->timelineStyle().rulerHeight + 8;
    m_caption->move((m_timeline->width() - m_caption->width()) / 2, m_pinsY > low ? high : low);
}

bool MomentStops::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_timeline && event->type() == QEvent::Resize && m_caption->isVisible())
        placeCaption();
    if (watched == m_timeline && event->type() == QEvent::KeyPress && stopped()
        && static_cast<QKeyEvent*>(event)->key() == Qt::Key_N
        && static_cast<QKeyEvent*>(event)->modifiers() == Qt::NoModifier) {
        goOn();
        return true;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace lifeline::ui
