#include "timeline/timeline_legend.h"

#include <QFontMetrics>
#include <QObject>

namespace lifeline::ui {

namespace {
// One entry of the legend: a swatch (a state's colour and pattern, or a plain colour) and its name, or a coloured
// text alone (the marks).
struct LegendEntry {
    enum Kind { State, Swatch, Text, Heading } kind;
    MessageState state = MessageState::None;
    QColor colour;
    QString name;
};

constexpr int kLegendSwatch = 22;
constexpr int kLegendGap = 16;

QFont legendFont(const TimelineStyle& style)
{
    QFont font;
    font.setPixelSize(style.legendPixels);
    return font;
}

int swatchWidth(const TimelineStyle& style)
{
    return std::max(kLegendSwatch, style.legendPixels * 2);
}

// Two groups, each listing only what the run has shown: what happened to messages, and what consumers did.
std::vector<LegendEntry> legendEntries(const TimelineStyle& style, const LegendContent& shown)
{
    std::vector<LegendEntry> entries;
    const auto heading = [&](const QString& name) {
        entries.push_back({ LegendEntry::Heading, {}, style.text, name });
    };
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
    heading(QObject::tr("Messages:"));
    for (const auto& [state, name] : states)
        if (shown.states >> unsigned(state) & 1u)
            entries.push_back({ LegendEntry::State, state, {}, name });
    const auto mark = [&](bool occurred, const QColor& colour, const QString& name) {
        if (occurred)
            entries.push_back({ LegendEntry::Text, MessageState::None, colour, name });
    };
    mark(shown.duplicate, style.duplicate, QObject::tr("2× duplicate"));
    mark(shown.extended, style.mark, QObject::tr("◆ visibility changed"));
    mark(shown.crash, style.crash, QObject::tr("✕ crash"));
    mark(shown.receivedByNobody, style.crash, QObject::tr("⊘ received by nobody"));
    mark(shown.notObserved, style.unobservedInk, QObject::tr("▨ not observed"));
    if (entries.size() == 1) // a heading with nothing under it (no message in view) goes
        entries.clear();
    if (!shown.polling && !shown.working && !shown.failed && !shown.crash)
        return entries;
    heading(QObject::tr("Consumers:"));
    const auto swatch = [&](bool occurred, const QColor& colour, const QString& name) {
        if (occurred)
            entries.push_back({ LegendEntry::Swatch, MessageState::None, colour, name });
    };
    swatch(shown.polling, style.polling, QObject::tr("polling"));
    swatch(shown.working, style.working, QObject::tr("working"));
    swatch(shown.failed, style.failed, QObject::tr("failed"));
    swatch(shown.crash, style.crash, QObject::tr("crashed"));
    mark(shown.functionTimeout, style.text, QObject::tr("┃ function timeout"));
    return entries;
}

int legendEntryWidth(const LegendEntry& entry, const QFontMetrics& metrics, int swatch)
{
    const bool hasSwatch = entry.kind == LegendEntry::State || entry.kind == LegendEntry::Swatch;
    return (hasSwatch ? swatch + 4 : 0) + metrics.horizontalAdvance(entry.name);
}

// Where each entry goes when the legend flows over lines of `width` pixels: (line, x) per entry.
std::vector<std::pair<int, int>> legendLayout(
    const std::vector<LegendEntry>& entries, int width, const TimelineStyle& style)
{
    const QFontMetrics metrics(legendFont(style));
    std::vector<std::pair<int, int>> placed;
    int line = 0;
    int x = 8;
    for (const LegendEntry& entry : entries) {
        const int w = legendEntryWidth(entry, metrics, swatchWidth(style));
        // A group starts on a new line when the first one took more than one line already.
        if (x > 8 && (x + w > width - 8 || (entry.kind == LegendEntry::Heading && line > 0))) {
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

void TimelineLegend::setContent(const LegendContent& content)
{
    if (!(content == m_content))
        m_layoutWidth = -1;
    m_content = content;
}

int TimelineLegend::height(int width) const
{
    if (width != m_layoutWidth) {
        const auto placed = legendLayout(legendEntries(m_style, m_content), width, m_style);
        m_layoutWidth = width;
        m_lines = placed.empty() ? 1 : placed.back().first + 1;
    }
    return m_lines * m_style.legendHeight;
}

QStringList TimelineLegend::names() const
{
    QStringList out;
    for (const LegendEntry& entry : legendEntries(m_style, m_content))
        out << entry.name;
    return out;
}

void TimelineLegend::paint(QPainter& p, const QRect& area) const
{
    p.fillRect(area, m_style.groupBackground);
    p.setFont(legendFont(m_style));
    const auto entries = legendEntries(m_style, m_content);
    const auto placed = legendLayout(entries, area.width(), m_style);
    const int swatchSize = swatchWidth(m_style);
    const int lineHeight = m_style.legendHeight;
    for (size_t i = 0; i < entries.size(); ++i) {
        const LegendEntry& entry = entries[i];
        const int x = area.left() + placed[i].second;
        const int top = area.top() + placed[i].first * lineHeight;
        int textX = x;
        if (entry.kind == LegendEntry::State || entry.kind == LegendEntry::Swatch) {
            const QRect swatch(x, top + lineHeight / 4, swatchSize, lineHeight - lineHeight / 2);
            if (entry.kind == LegendEntry::State) {
                p.fillRect(swatch, m_style.fill(entry.state));
                if (m_style.statePattern[size_t(entry.state)] != Qt::NoBrush)
                    p.fillRect(swatch, m_style.pattern(entry.state));
            } else {
                p.fillRect(swatch, entry.colour);
            }
            textX += swatchSize + 4;
        }
        p.setPen(entry.kind == LegendEntry::Text || entry.kind == LegendEntry::Heading ? entry.colour : m_style.text);
        p.drawText(QRect(textX, top, area.right() - textX, lineHeight), Qt::AlignVCenter | Qt::AlignLeft, entry.name);
    }
}

} // namespace lifeline::ui
