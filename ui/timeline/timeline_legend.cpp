#include "timeline/timeline_legend.h"

#include <QFontMetrics>
#include <QObject>

namespace lifeline::ui {

namespace {
// One entry of the legend: a swatch (a state's colour and pattern, or a plain colour) and its name, or a coloured
// text alone (the marks).
struct LegendEntry {
    enum Kind { State, Swatch, Text } kind;
    MessageState state = MessageState::None;
    QColor colour;
    QString name;
};

constexpr int kLegendSwatch = 22;
constexpr int kLegendGap = 16;

QFont legendFont()
{
    QFont font;
    font.setPixelSize(12);
    return font;
}

std::vector<LegendEntry> legendEntries(const TimelineStyle& style, bool functionTimeout)
{
    std::vector<LegendEntry> entries;
    const std::pair<MessageState, QString> states[] = {
        { MessageState::Delayed, QObject::tr("delayed") },
        { MessageState::Visible, QObject::tr("visible") },
        { MessageState::InFlight, QObject::tr("in flight") },
        { MessageState::Deleted, QObject::tr("deleted") },
        { MessageState::DeadLettered, QObject::tr("dead-lettered") },
        { MessageState::Expired, QObject::tr("expired") },
        { MessageState::Purged, QObject::tr("purged") },
        { MessageState::Redriven, QObject::tr("redriven") },
    };
    for (const auto& [state, name] : states)
        entries.push_back({ LegendEntry::State, state, {}, name });
    entries.push_back({ LegendEntry::Text, MessageState::None, style.duplicate, QObject::tr("2× duplicate") });
    entries.push_back({ LegendEntry::Text, MessageState::None, style.duplicate, QObject::tr("✕ crash") });
    entries.push_back({ LegendEntry::Text, MessageState::None, style.duplicate, QObject::tr("◆ extended") });
    entries.push_back({ LegendEntry::Text, MessageState::None, style.duplicate, QObject::tr("⊘ received by nobody") });
    entries.push_back({ LegendEntry::Swatch, MessageState::None, style.working, QObject::tr("working") });
    entries.push_back({ LegendEntry::Swatch, MessageState::None, style.failed, QObject::tr("failed") });
    if (functionTimeout)
        entries.push_back({ LegendEntry::Text, MessageState::None, style.text, QObject::tr("┃ function timeout") });
    return entries;
}

int legendEntryWidth(const LegendEntry& entry, const QFontMetrics& metrics)
{
    return (entry.kind == LegendEntry::Text ? 0 : kLegendSwatch + 4) + metrics.horizontalAdvance(entry.name);
}

// Where each entry goes when the legend flows over lines of `width` pixels: (line, x) per entry.
std::vector<std::pair<int, int>> legendLayout(const std::vector<LegendEntry>& entries, int width)
{
    const QFontMetrics metrics(legendFont());
    std::vector<std::pair<int, int>> placed;
    int line = 0;
    int x = 8;
    for (const LegendEntry& entry : entries) {
        const int w = legendEntryWidth(entry, metrics);
        if (x > 8 && x + w > width - 8) {
            ++line;
            x = 8;
        }
        placed.emplace_back(line, x);
        x += w + kLegendGap;
    }
    return placed;
}
} // namespace

TimelineLegend::TimelineLegend(const TimelineStyle& style)
    : m_style(style)
{
}

void TimelineLegend::setShowsFunctionTimeout(bool shows)
{
    if (shows != m_functionTimeout)
        m_layoutWidth = -1;
    m_functionTimeout = shows;
}

int TimelineLegend::height(int width) const
{
    if (width != m_layoutWidth) {
        const auto placed = legendLayout(legendEntries(m_style, m_functionTimeout), width);
        m_layoutWidth = width;
        m_lines = placed.empty() ? 1 : placed.back().first + 1;
    }
    return m_lines * m_style.legendHeight;
}

void TimelineLegend::paint(QPainter& p, const QRect& area) const
{
    p.fillRect(area, m_style.groupBackground);
    p.setFont(legendFont());
    const auto entries = legendEntries(m_style, m_functionTimeout);
    const auto placed = legendLayout(entries, area.width());
    const int lineHeight = m_style.legendHeight;
    for (size_t i = 0; i < entries.size(); ++i) {
        const LegendEntry& entry = entries[i];
        const int x = area.left() + placed[i].second;
        const int top = area.top() + placed[i].first * lineHeight;
        int textX = x;
        if (entry.kind != LegendEntry::Text) {
            const QRect swatch(x, top + 6, kLegendSwatch, lineHeight - 12);
            if (entry.kind == LegendEntry::State) {
                p.fillRect(swatch, m_style.fill(entry.state));
                if (m_style.statePattern[size_t(entry.state)] != Qt::NoBrush)
                    p.fillRect(swatch, m_style.pattern(entry.state));
            } else {
                p.fillRect(swatch, entry.colour);
            }
            textX += kLegendSwatch + 4;
        }
        p.setPen(entry.kind == LegendEntry::Text ? entry.colour : m_style.text);
        p.drawText(QRect(textX, top, area.right() - textX, lineHeight), Qt::AlignVCenter | Qt::AlignLeft, entry.name);
    }
}

} // namespace lifeline::ui
