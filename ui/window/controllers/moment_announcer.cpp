#include "window/controllers/moment_announcer.h"

#include "lifeline/support/duration.h"
#include "timeline/lane_model.h"

#include <QAccessible>
#include <QAccessibleWidget>
#include <QStatusBar>

namespace lifeline::ui {

namespace {

// The notice: a one-pixel widget whose accessible role is an alert, shown anew for each moment, its name what to say.
const QLatin1String kNoticeName("momentNotice");

QAccessibleInterface* noticeFactory(const QString& className, QObject* object)
{
    if (className == QLatin1String("QWidget") && object && object->objectName() == kNoticeName)
        return new QAccessibleWidget(static_cast<QWidget*>(object), QAccessible::AlertMessage);
    return nullptr;
}

} // namespace

MomentAnnouncer::MomentAnnouncer(
    const LaneModel* model, QStatusBar* bar, std::function<void(const QString&)> say, QObject* parent)
    : QObject(parent)
    , m_model(model)
    , m_say(std::move(say))
{
    static const bool installed = [] {
        QAccessible::installFactory(noticeFactory);
        return true;
    }();
    (void)installed;
    m_notice = new QWidget(bar);
    m_notice->setObjectName(kNoticeName);
    m_notice->setFixedSize(1, 1);
    m_notice->setFocusPolicy(Qt::NoFocus);
    bar->addPermanentWidget(m_notice);
    m_notice->hide();
    connect(model, &LaneModel::runReset, this, [this] {
        m_said = 0;
        m_notice->hide();
    });
    connect(model, &LaneModel::momentsChanged, this, &MomentAnnouncer::momentsFound);
}

QString MomentAnnouncer::lastSaid() const
{
    return m_notice->accessibleName();
}

void MomentAnnouncer::momentsFound()
{
    const auto& moments = m_model->moments();
    if (moments.size() <= m_said)
        return;
    QStringList said;
    for (; m_said < moments.size(); ++m_said) {
        QString sentence = tr("Key moment %1 at %2: %3")
                               .arg(m_said + 1)
                               .arg(QString::fromStdString(formatDuration(moments[m_said].at)),
                                   QString::fromStdString(moments[m_said].caption));
        if (!sentence.endsWith(QLatin1Char('.')) && !sentence.endsWith(QLatin1Char('!'))
            && !sentence.endsWith(QLatin1Char('?')))
            sentence += QLatin1Char('.'); // moments said together read as sentences
        said << sentence;
    }
    const QString text = said.join(QLatin1Char(' '));
    // Hidden, named, shown: a screen reader speaks an alert as it appears.
    m_notice->hide();
    m_notice->setAccessibleName(text);
    m_notice->show();
    m_say(text);
}

} // namespace lifeline::ui
