// One tile per consumer of the running simulation: its name, its state (polling, working, crashed), the message it
// holds and how long until that message's visibility ends. A click on a tile (or Space on the focused tile) crashes
// the consumer, a second click restarts it. Painted in one widget: tiles are few, but they change every frame.
#pragma once

#include "lifeline/sim/simulation.h"
#include "timeline/timeline_style.h"

#include <QWidget>

namespace lifeline::ui {

class ConsumerTiles : public QWidget {
    Q_OBJECT
public:
    explicit ConsumerTiles(QWidget* parent = nullptr);

    void setSimulation(sim::Simulation* simulation);
    void setTimelineStyle(const TimelineStyle& style);
    // Re-reads the consumers (each frame).
    void sync();
    const std::vector<sim::ConsumerStatus>& tiles() const { return m_tiles; }
    // The tile's rectangle for consumer `index` (an index into Simulation::consumers()); empty when not shown.
    QRect tileRect(size_t index) const;
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
    bool event(QEvent* event) override;

private:
    std::vector<size_t> shown() const; // indices of the consumers not removed
    int columns(int width) const;
    int tileAt(QPoint point) const; // index into Simulation::consumers(), or -1

    sim::Simulation* m_simulation = nullptr;
    std::vector<sim::ConsumerStatus> m_tiles;
    TimelineStyle m_style = TimelineStyle::light();
    size_t m_focus = 0; // position among the shown tiles
};

} // namespace lifeline::ui
