#include "timeline/timeline_legend.h"

#include "timeline/lane_painter.h"
#include "timeline/picture_text.h"

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
    heading(QObject::tr("Messages:"));
    for (unsigned state = unsigned(MessageState::Delayed); state < unsigned(MessageState::Count); ++state)
        if (shown.states >> state & 1u)
            entries.push_back({ LegendEntry::State, MessageState(state), {}, stateName(MessageState(state)) });
    const auto mark = [&](bool occurred, const QColor& colour, const QString& name) {
        if (occurred)
            entries.push_back({ LegendEntry::Text, MessageState::None, colour, name });
    };
    for (const picture::LaneMark m : picture::kLaneMarks)
        mark(shown.shows(m), laneMarkColor(m, style), markGlyph(m) + QLatin1Char(' ') + markName(m));
    mark(shown.notObserved, style.unobservedInk, QObject::tr("▨ not observed"));
    mark(shown.inferred, style.text,
        QStringLiteral("▩ ") + QString::fromStdString(translated(picture::inferredWords())));
    if (entries.size() == 1) // a heading with nothing under it (no message in view) goes
        entries.clear();
    if (!shown.polling && !shown.working && !shown.failed && !shown.crash)
        return entries;
    heading(QObject::tr("Consumers:"));
    const auto swatch = [&](bool occurred, const QColor& colour, const QString& name) {
        if (occurred)
            entries.push_back({ LegendEntry::Swatch, MessageState::None, colour, name });
    };
    using picture::ActorActivity;
    swatch(shown.polling, style.polling, activityName(ActorActivity::Polling));
    swatch(shown.working, style.working, activityName(ActorActivity::Working));
    swatch(shown.failed, style.failed, activityName(ActorActivity::Failed));
    swatch(shown.crash, style.crash, activityName(ActorActivity::Crashed));
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
