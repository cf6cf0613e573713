#include "window/controllers/history_setting.h"

#include <QActionGroup>
#include <QMenu>
#include <QSettings>
#include <algorithm>
#include <array>

namespace lifeline::ui {

namespace {
constexpr std::array kChoices { 5, 10, 30, 60, 0 };
const char* const kKey = "view/historyMinutes";
} // namespace

HistorySetting::HistorySetting(QObject* parent)
    : QObject(parent)
{
    const int stored = QSettings().value(kKey, kDefaultMinutes).toInt();
    m_minutes = std::ranges::find(kChoices, stored) != kChoices.end() ? stored : kDefaultMinutes;
}

void HistorySetting::fillMenu(QMenu* menu)
{
    auto* group = new QActionGroup(menu);
    for (const int minutes : kChoices) {
        QAction* action = menu->addAction(minutes == 0 ? tr("&Everything (memory grows with the run)")
                : minutes == 60                        ? tr("The last &hour")
                                                       : tr("The last &%1 minutes").arg(minutes));
        action->setCheckable(true);
        action->setChecked(minutes == m_minutes);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, minutes] { setMinutes(minutes); });
    }
    connect(this, &HistorySetting::changed, menu, [group](int minutes) {
        const auto at = std::ranges::find(kChoices, minutes);
        if (at != kChoices.end())
            group->actions().at(int(at - kChoices.begin()))->setChecked(true);
    });
}

void HistorySetting::setMinutes(int minutes)
{
    if (minutes == m_minutes || std::ranges::find(kChoices, minutes) == kChoices.end())
        return;
    m_minutes = minutes;
    QSettings().setValue(kKey, minutes);
    emit changed(minutes);
}

int64_t HistorySetting::historyMsFor(TimeMs duration) const
{
    if (m_minutes == 0)
        return -1;
    return std::max<int64_t>(int64_t(m_minutes) * 60'000, duration + 60'000);
}

} // namespace lifeline::ui
