// Which rows the timeline shows, in which order: each queue's group row and its message lanes (those the filter
// lets through), then the actors' group and one row per actor. Maps a flat row number to what it shows and back.
//
// At scale it shows what is alive and what can be read: with `aliveOnly` only the lanes with a segment in the
// visible time window are listed (in a stable order, so following live shows the messages that are live), and when
// those are more than the rows can show legibly (arrange()'s `legibleRows`) a queue with many of them draws as a
// density band (messages by state over time) and the consumers as one band per consumer group, until zooming in or
// expanding the queue makes its lanes legible again. A band keeps apart, as lanes under it, the messages of a queue's
// small tenants (LaneTenants) when another tenant's flood is what made it a band: the few waiting behind the many are
// what a shared queue's trouble looks like.
#pragma once

#include "timeline/lane_model.h"

#include <QString>
#include <set>
#include <vector>

namespace lifeline::ui {

struct RowRef {
    LaneModel::RowKind kind = LaneModel::QueueGroup;
    int group = 0; // queue group (QueueGroup, MessageRow, QueueBand); consumer group (ActorBand)
    uint32_t id = 0; // lane (MessageRow) or actor (ActorRow)
    int part = 0; // which row of a band (its first is 0)
};

// Which message lanes to show: by text (MessageId prefix, body, FIFO group, or a consumer's name: the messages it
// worked on) and by state.
struct LaneFilter {
    enum class State { All, Live, InFlight, Ended, DeadLettered, Duplicates };
    QString text;
    State state = State::All;
    bool active() const { return !text.isEmpty() || state != State::All; }
};

// The order of a queue's lanes: the ones that find problems first at scale.
enum class LaneOrder {
    Sent, // send time (the default, and the only order in which new lanes never move older ones)
    MostReceived, // receive count, most retried first
    LongestInQueue, // time from send to its end (or now), longest first
    State, // dead-lettered, expired, in flight, visible, delayed, then the ended ones
};

class RowLayout {
public:
    static constexpr int kQueueBandRows = 3; // a queue's density band is this many rows tall
    static constexpr int kActorBandRows = 2; // and a consumer group's
    static constexpr size_t kBandAbove = 12; // in density mode, a queue with more lanes than this is a band
    static constexpr size_t kActorBandsAbove = 24; // ... and this many consumers become bands per group
    static constexpr size_t kTenantLanesAtMost = 48; // a band's small tenants shown as lanes: this many lanes in all

    explicit RowLayout(const LaneModel& model);

    void setFilter(const LaneFilter& filter);
    const LaneFilter& filter() const { return m_filter; }
    void setAliveOnly(bool alive);
    bool aliveOnly() const { return m_aliveOnly; }
    void setOrder(LaneOrder order);
    LaneOrder order() const { return m_order; }
    // Density bands when the lanes outgrow the rows (on unless a view turns it off).
    void setDensityAllowed(bool allowed);
    // A queue shown as lanes even when the others are bands (a click on its band's label), or back to a band.
    void setExpanded(QueueIndex queue, bool expanded);
    bool expanded(QueueIndex queue) const { return m_expanded.contains(queue); }

    // Fits the rows to a view: its time window (for aliveOnly) and how many rows it can show legibly (lanes of
    // 3 px or more). Recomputes only what changed (the window, the log, the options); true when the rows changed.
    bool arrange(TimeMs from, TimeMs to, int legibleRows);
    void refreshFilter(); // re-evaluates the lanes as they are now (new lanes, new states)
    bool dense() const { return m_dense; }
    bool isBand(int group) const; // the queue draws as a density band
    bool actorsAsBands() const;
    size_t shownLanes() const; // listed, bands' lanes included
    size_t lanesOfQueue(int group) const { return lanesOf(group).size(); }
    const LaneModel::Lanes& listedLanes(int group) const { return lanesOf(group); }
    // The lanes a band shows under it: its small tenants' (empty unless the queue is a band shared by tenants).
    const LaneModel::Lanes& tenantLanes(int group) const;

    int totalRows() const;
    int actorsTop() const; // the actors' group row: the rows from it on are the consumers'
    RowRef rowAt(int flatRow) const;
    int rowOfLane(MessageIndex lane) const; // -1 when not shown (filtered out, or in a band)
    int rowOfQueue(QueueIndex queue) const; // its group row; -1 when there is none
    int rowOfActor(uint32_t actor) const; // -1 when not shown (a band stands for it)
    // A row as it was, found again after the rows changed: the same lane, else the one now at its place in its
    // queue's order, else its queue's row; the same band or actor. -1 when there is nothing like it.
    int rowNear(const RowRef& row, int oldFlatRow) const;

private:
    const LaneModel::Lanes& lanesOf(int group) const;
    bool listing() const { return m_filter.active() || m_aliveOnly || m_order != LaneOrder::Sent; }
    int groupRows(int group) const;
    int actorRows() const;
    bool matches(MessageIndex lane, const std::vector<bool>& workedOnByNamedActor) const;
    std::vector<bool> workedOnByNamedActor() const;
    void sortLanes(LaneModel::Lanes& lanes) const;
    bool splitTenants(); // the bands' tenantLanes; whether they changed

    const LaneModel& m_model;
    LaneFilter m_filter;
    bool m_aliveOnly = false;
    LaneOrder m_order = LaneOrder::Sent;
    bool m_densityAllowed = true;
    bool m_dense = false;
    std::set<QueueIndex> m_expanded;
    TimeMs m_from = -1, m_to = -1;
    int m_legibleRows = 0;
    size_t m_eventsRead = SIZE_MAX; // the log as of the last listing
    std::vector<LaneModel::Lanes> m_listed; // per group, while listing
    std::vector<LaneModel::Lanes> m_tenantLanes; // per group: a band's small tenants' lanes
    std::vector<MessageIndex> m_alive; // scratch for the alive lanes
};

} // namespace lifeline::ui
