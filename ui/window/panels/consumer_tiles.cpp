#include "window/panels/consumer_tiles.h"

#include "lifeline/run/lane_name.h"
#include "lifeline/support/duration.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <array>

namespace lifeline::ui {

namespace {
constexpr int kTileWidth = 168;
constexpr int kTileHeight = 58;
constexpr int kGap = 6;
constexpr int kCell = 14; // the compact grid's cells
constexpr int kCellGap = 3;
constexpr int kHeader = 18;

QString stateName(const sim::ConsumerStatus& tile)
{
    if (tile.lambda) { // a Lambda poller: its batch is invoked, or waits for a slot; its "crash" is a failing invoke
        if (tile.state == sim::ConsumerState::Crashed)
            return ConsumerTiles::tr("will fail");
        if (tile.throttled)
            return ConsumerTiles::tr("throttled");
        if (tile.backedOff && tile.notScaledUp)
            return ConsumerTiles::tr("not yet started");
        if (tile.backedOff)
            return ConsumerTiles::tr("backed off");
        if (tile.state == sim::ConsumerState::Working)
            return ConsumerTiles::tr("invoked");
    }
    switch (tile.state) {
    case sim::ConsumerState::Idle:
        return ConsumerTiles::tr("idle");
    case sim::ConsumerState::Polling:
        return ConsumerTiles::tr("polling");
    case sim::ConsumerState::Working:
        return ConsumerTiles::tr("working");
    case sim::ConsumerState::Crashed:
        return ConsumerTiles::tr("crashed");
    }
    return {};
}
} // namespace

ConsumerTiles::ConsumerTiles(QWidget* parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    setAccessibleName(tr("Consumers"));
    setToolTip(tr("Click a consumer to crash it; click again to restart it. Arrows choose, Space toggles."));
}

void ConsumerTiles::setSimulation(sim::Simulation* simulation)
{
    m_simulation = simulation;
    m_focus = 0;
    sync();
}

void ConsumerTiles::setTimelineStyle(const TimelineStyle& style)
{
    m_style = style;
    update();
}

void ConsumerTiles::sync()
{
    const size_t before = shown().size();
    m_tiles = m_simulation ? m_simulation->consumers() : std::vector<sim::ConsumerStatus> {};
    relayout();
    if (shown().size() != before)
        updateGeometry();
    // Painted again when what the tiles say changed: every frame while one counts down, never while all idle.
    QStringList drawn;
    const bool texts = shown().size() <= kCompactAbove;
    for (const auto& tile : m_tiles)
        drawn << QStringLiteral("%1 %2 %3 %4 %5")
                     .arg(int(tile.state))
                     .arg(tile.holding)
                     .arg(tile.waiting)
                     .arg(int(tile.removed) * 8 + int(tile.throttled) * 4 + int(tile.backedOff) * 2
                         + int(tile.notScaledUp))
                     .arg(texts ? holdingText(tile) : QString());
    if (drawn == m_drawn)
        return;
    m_drawn = std::move(drawn);
    update();
}

std::vector<size_t> ConsumerTiles::shown() const
{
    std::vector<size_t> out;
    for (size_t i = 0; i < m_tiles.size(); ++i)
        if (!m_tiles[i].removed)
            out.push_back(i);
    return out;
}

int ConsumerTiles::columns(int width) const
{
    return std::max(1, (width - kGap) / (kTileWidth + kGap));
}

int ConsumerTiles::layout(int width, std::vector<QRect>* rects, std::vector<Header>* headers) const
{
    const auto order = shown();
    if (rects)
        rects->assign(m_tiles.size(), QRect());
    if (order.size() <= kCompactAbove) { // tiles
        const int cols = columns(width);
        const int tileWidth = std::max(kTileWidth, (width - kGap) / cols - kGap);
        for (size_t position = 0; position < order.size() && rects; ++position)
            (*rects)[order[position]] = QRect(kGap + int(position % size_t(cols)) * (tileWidth + kGap),
                kGap + int(position / size_t(cols)) * (kTileHeight + kGap), tileWidth, kTileHeight);
        const int rows = std::max(1, (int(order.size()) + cols - 1) / cols);
        return kGap + rows * (kTileHeight + kGap);
    }
    // The compact grid: per consumer group (in order of first appearance), a line of counts and its cells.
    std::vector<std::string> groups;
    for (const size_t i : order)
        if (const std::string& g = m_tiles[i].group; std::find(groups.begin(), groups.end(), g) == groups.end())
            groups.push_back(g);
    const int cols = std::max(1, (width - kGap) / (kCell + kCellGap));
    int y = kGap;
    for (const std::string& group : groups) {
        std::array<int, 4> counts {}; // idle, polling, working, crashed
        int notStarted = 0, backedOff = 0; // a Lambda mapping's pollers it has not scaled up to, or has taken out
        int n = 0;
        for (const size_t i : order) {
            if (m_tiles[i].group != group)
                continue;
            ++counts[size_t(m_tiles[i].state)];
            notStarted += m_tiles[i].backedOff && m_tiles[i].notScaledUp;
            backedOff += m_tiles[i].backedOff && !m_tiles[i].notScaledUp;
            if (rects)
                (*rects)[i] = QRect(kGap + (n % cols) * (kCell + kCellGap),
                    y + kHeader + (n / cols) * (kCell + kCellGap), kCell, kCell);
            ++n;
        }
        if (headers) {
            QString text = tr("%1 ×%2: %3 working, %4 polling")
                               .arg(QString::fromStdString(group))
                               .arg(n)
                               .arg(counts[size_t(sim::ConsumerState::Working)])
                               .arg(counts[size_t(sim::ConsumerState::Polling)]);
            if (backedOff)
                text += tr(", %1 backed off").arg(backedOff);
            if (notStarted)
                text += tr(", %1 not yet started").arg(notStarted);
            if (const int down = counts[size_t(sim::ConsumerState::Crashed)])
                text += tr(", %1 crashed").arg(down);
            headers->push_back({ QRect(kGap, y, width - 2 * kGap, kHeader), text });
        }
        y += kHeader + ((n + cols - 1) / cols) * (kCell + kCellGap) + kGap;
    }
    return y;
}

void ConsumerTiles::relayout()
{
    m_compact = shown().size() > kCompactAbove;
    m_headers.clear();
    layout(width(), &m_rects, &m_headers);
}

void ConsumerTiles::resizeEvent(QResizeEvent* event)
{
    relayout();
    QWidget::resizeEvent(event);
}

QStringList ConsumerTiles::groupLines() const
{
    QStringList lines;
    for (const Header& header : m_headers)
        lines << header.text;
    return lines;
}

int ConsumerTiles::heightForWidth(int width) const
{
    return layout(width, nullptr, nullptr);
}

QSize ConsumerTiles::sizeHint() const
{
    return QSize(2 * (kTileWidth + kGap) + kGap, heightForWidth(2 * kTileWidth));
}

QRect ConsumerTiles::tileRect(size_t index) const
{
    return index < m_rects.size() ? m_rects[index] : QRect();
}

int ConsumerTiles::tileAt(QPoint point) const
{
    for (size_t index = 0; index < m_rects.size(); ++index)
        if (m_rects[index].contains(point))
            return int(index);
    return -1;
}

void ConsumerTiles::toggle(size_t index)
{
    if (!m_simulation || index >= m_tiles.size() || m_tiles[index].removed)
        return;
    const bool crash = m_tiles[index].state != sim::ConsumerState::Crashed;
    const bool done = sim::operate(*m_simulation,
        [index, crash](sim::Simulation& s) { return crash ? s.crashConsumer(index) : s.restartConsumer(index); });
    sync();
    if (done)
        emit toggled(index, crash);
}

QColor ConsumerTiles::accentOf(const sim::ConsumerStatus& tile) const
{
    switch (tile.state) {
    case sim::ConsumerState::Working:
        return m_style.stateColor[size_t(MessageState::InFlight)];
    case sim::ConsumerState::Crashed:
        return m_style.crash;
    default:
        return m_style.polling;
    }
}

QString ConsumerTiles::holdingText(const sim::ConsumerStatus& tile) const
{
    const TimeMs now = m_simulation ? m_simulation->now() : 0;
    if (tile.state == sim::ConsumerState::Crashed)
        return tile.lambda ? tr("its next invocation fails;\nclick to cancel") : tr("click to restart");
    if (tile.lambda && tile.throttled)
        return tr("%1 received, waiting\nfor a free slot").arg(tile.waiting);
    if (tile.lambda && tile.backedOff && tile.notScaledUp)
        return tr("the mapping has not\nscaled up to it yet");
    if (tile.lambda && tile.backedOff)
        return tr("takes no batch while\nthe function throttles");
    if (tile.holding == kNoMessage)
        return tile.waiting ? tr("%n received, waiting", nullptr, int(tile.waiting)) : tr("holds nothing");
    const std::string id = laneName(m_simulation->engine().run(), tile.holding);
    const TimeMs left = tile.visibleAgainAt - now;
    QString holding = tr("holds %1").arg(QString::fromStdString(id));
    if (tile.lambda && tile.waiting > 0)
        holding += tr(" +%1").arg(tile.waiting);
    if (left > 0) // at the deadline itself the message is visible again: "passed", not "in 0s"
        return holding + QLatin1Char('\n')
            + tr("visible again in %1").arg(QString::fromStdString(lifeline::formatDuration(left)));
    return holding + QLatin1Char('\n') + tr("its timeout has passed");
}

void ConsumerTiles::paintTile(QPainter& p, const sim::ConsumerStatus& tile, const QRect& r, bool focused) const
{
    const QColor accent = accentOf(tile);
    QColor fill = palette().color(QPalette::Base);
    if (tile.state == sim::ConsumerState::Crashed)
        fill = m_style.dark ? QColor(0x4A, 0x20, 0x1C) : QColor(0xFB, 0xE3, 0xE0);
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    p.drawRoundedRect(r, 5, 5);
    p.setBrush(accent);
    p.drawRoundedRect(QRect(r.left(), r.top(), 6, r.height()), 3, 3);
    if (focused) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(r.adjusted(1, 1, -1, -1), 5, 5);
    }
    const QRect text = r.adjusted(14, 5, -6, -5);
    QFont bold = font();
    bold.setBold(true);
    p.setPen(palette().color(QPalette::Text));
    p.setFont(bold);
    // The name gives way to its state, its start elided ("…poller-12"): a long one ran under "throttled".
    const QString state = stateName(tile);
    const int room = text.width() - QFontMetrics(font()).horizontalAdvance(state) - 8;
    p.drawText(text, Qt::AlignLeft | Qt::AlignTop,
        QFontMetrics(bold).elidedText(QString::fromStdString(tile.name), Qt::ElideLeft, std::max(room, 0)));
    p.setFont(font());
    p.setPen(accent);
    p.drawText(text, Qt::AlignRight | Qt::AlignTop, state);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(text.adjusted(0, 17, 0, 0), Qt::AlignLeft | Qt::AlignTop, holdingText(tile));
}

void ConsumerTiles::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().window());
    const auto order = shown();
    if (order.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(kGap, kGap, -kGap, -kGap), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
            m_simulation ? tr("No consumers. Add one with the + button.") : tr("No simulation running."));
        return;
    }
    if (!m_compact) {
        for (size_t position = 0; position < order.size(); ++position)
            paintTile(p, m_tiles[order[position]], tileRect(order[position]), hasFocus() && position == m_focus);
        return;
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(palette().color(QPalette::Text));
    for (const Header& header : m_headers)
        p.drawText(header.rect, Qt::AlignLeft | Qt::AlignVCenter, header.text);
    for (size_t position = 0; position < order.size(); ++position) {
        const auto& tile = m_tiles[order[position]];
        const QRect r = tileRect(order[position]);
        // Idle cells are drawn as outlines so that a busy group reads as a solid block.
        p.setPen(tile.state == sim::ConsumerState::Idle ? QPen(m_style.polling) : Qt::NoPen);
        p.setBrush(tile.state == sim::ConsumerState::Idle ? QBrush(Qt::NoBrush) : QBrush(accentOf(tile)));
        p.drawRect(r.adjusted(0, 0, -1, -1));
        if (hasFocus() && position == m_focus) {
            p.setPen(QPen(palette().color(QPalette::Highlight), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r.adjusted(-2, -2, 1, 1));
        }
    }
}

void ConsumerTiles::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const int index = tileAt(event->position().toPoint());
    if (index < 0)
        return;
    const auto order = shown();
    m_focus = size_t(std::find(order.begin(), order.end(), size_t(index)) - order.begin());
    toggle(size_t(index));
}

void ConsumerTiles::keyPressEvent(QKeyEvent* event)
{
    const auto order = shown();
    if (order.empty())
        return QWidget::keyPressEvent(event);
    switch (event->key()) {
    case Qt::Key_Left:
    case Qt::Key_Up:
        m_focus = m_focus == 0 ? order.size() - 1 : m_focus - 1;
        update();
        return;
    case Qt::Key_Right:
    case Qt::Key_Down:
        m_focus = (m_focus + 1) % order.size();
        update();
        return;
    case Qt::Key_Return: // Space is the window's Play wherever the focus is (FocusKeys): Enter or a click crashes
    case Qt::Key_Enter:
        toggle(order[std::min(m_focus, order.size() - 1)]);
        return;
    default:
        QWidget::keyPressEvent(event);
    }
}

bool ConsumerTiles::event(QEvent* event)
{
    // With a tile focused, arrows act on the tiles, not the window's step shortcut (Space stays the window's Play).
    if (event->type() == QEvent::ShortcutOverride) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Left || key == Qt::Key_Right || key == Qt::Key_Up || key == Qt::Key_Down) {
            event->accept();
            return true;
        }
    }
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int index = tileAt(help->pos());
        if (index >= 0) {
            const auto& tile = m_tiles[size_t(index)];
            const QString details = m_compact
                ? tr("%1: %2, %3\n").arg(QString::fromStdString(tile.name), stateName(tile), holdingText(tile))
                : QString();
            QToolTip::showText(help->globalPos(),
                details
                    + (tile.state == sim::ConsumerState::Crashed
                            ? tr("%1 is down. Click to restart it.").arg(QString::fromStdString(tile.name))
                            : tr("Click to crash %1: what it holds is not deleted and comes back when its visibility "
                                 "timeout ends.")
                                  .arg(QString::fromStdString(tile.name))),
                this);
            return true;
        }
    }
    return QWidget::event(event);
}

} // namespace lifeline::ui
