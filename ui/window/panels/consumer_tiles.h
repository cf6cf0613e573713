// One tile per consumer of the running simulation: its name, its state (polling, working, crashed), the message it
// holds and how long until that message's visibility ends. A click on a tile (or Space on the focused tile) crashes
// the consumer, a second click restarts it. Painted in one widget, as they change every frame. Above kCompactAbove
// consumers the tiles become a compact grid: a small cell per consumer coloured by its state, grouped by consumer
// group (NAME-1..NAME-N) under a line of counts; the hover says what a tile said, and a click still crashes.
#pragma once

#include "lifeline/sim/simulation.h"
#include "timeline/timeline_style.h"

#include <QStringList>
#include <QWidget>

namespace lifeline::ui {

class ConsumerTiles : public QWidget {
    Q_OBJECT
public:
    static constexpr size_t kCompactAbove = 36;
    explicit ConsumerTiles(QWidget* parent = nullptr);

    void setSimulation(sim::Simulation* simulation);
    void setTimelineStyle(const TimelineStyle& style);
    // Re-reads the consumers (each frame).
    void sync();
    const std::vector<sim::ConsumerStatus>& tiles() const { return m_tiles; }
    // The tile's rectangle for consumer `index` (an index into Simulation::consumers()); empty when not shown.
    QRect tileRect(size_t index) const;
    bool compact() const { return m_compact; }
    // The compact grid's group lines ("orders-worker ×30: 18 working, 12 polling"), in order.
    QStringList groupLines() const;
    // Crashes a working or polling consumer, restarts a crashed one; says which in the status text.
    void toggle(size_t index);

    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

signals:
    void toggled(size_t index, bool crashed);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Header {
        QRect rect;
        QString text;
    };
    std::vector<size_t> shown() const; // indices of the consumers not removed
    int columns(int width) const;
    int tileAt(QPoint point) const; // index into Simulation::consumers(), or -1
    // Places the tiles (or cells and group lines) at `width`; returns the height they take.
    int layout(int width, std::vector<QRect>* rects, std::vector<Header>* headers) const;
    void relayout();
    QColor accentOf(const sim::ConsumerStatus& tile) const;
    QString holdingText(const sim::ConsumerStatus& tile) const;
    void paintTile(QPainter& p, const sim::ConsumerStatus& tile, const QRect& r, bool focused) const;

    sim::Simulation* m_simulation = nullptr;
    std::vector<sim::ConsumerStatus> m_tiles;
    QStringList m_drawn; // what each tile said when last painted
    TimelineStyle m_style = TimelineStyle::light();
    size_t m_focus = 0; // position among the shown tiles
    bool m_compact = false;
    std::vector<QRect> m_rects; // per consumer (empty: removed)
    std::vector<Header> m_headers;
};

} // namespace lifeline::ui
