#include "timeline/actor_painter.h"

#include "timeline/lane_painter.h"
#include "timeline/picture_text.h"

#include <QFontMetrics>
#include <QObject>
#include <cmath>
#include <limits>
#include <vector>

namespace lifeline::ui {

using picture::ActorSpan;
using picture::readActorSpans;
using picture::WorkBar;

namespace {
// What a wide bar says: a piece of work's words (made only when the bar is wide enough to show them), or a text.
struct Words {
    const WorkBar* work = nullptr;
    const QString* label = nullptr;
};

// Draws a row's bars, merging runs of sub-3-pixel bars per layer (millisecond jobs at a zoom of minutes would be
// thousands of boxes) into one box drawn when a gap or another colour comes.
class ActorRowPainter {
public:
    ActorRowPainter(QPainter& p, const QRect& row, const TimelineFrame& frame, const LaneModel& model,
        const TimelineStyle& style, uint32_t actor)
        : m_p(p)
        , m_row(row)
        , m_frame(frame)
        , m_model(model)
        , m_style(style)
        , m_actor(actor)
        , m_left(frame.axis.left)
        , m_right(row.right())
        , m_pixelsPerMs(1.0 / frame.axis.msPerPixel) // one multiplication a step, not a division
        , m_timeout(model.lanes().functionTimeout(actor))
    {
    }

    void paint();

private:
    enum Layer { Polling, Work, Crash, LayerCount };
    struct Run {
        double x0 = 0, x1 = -1;
        QColor color;
    };
    // Work and a crash fill the row (a crash is a state of the consumer, its word read on it); polls are thinner.
    static int insetOf(int layer) { return layer == Polling ? 6 : layer == Work ? 2 : 3; }
    double xOf(TimeMs t) const { return m_left + double(t - m_frame.axis.start) * m_pixelsPerMs; }
    // Hundreds of thousands of bars a frame at a far zoom: the narrow ones only extend the pending run (inline);
    // a wide one is drawn by wideBar.
    void bar(TimeMs from, TimeMs to, const QColor& color, int layer, const Words& words = {})
    {
        const double fromX = xOf(from), toX = xOf(to);
        if (toX < m_left || fromX > m_right)
            return; // wholly outside the view
        const double x0 = std::max(m_left, fromX);
        const double x1 = std::min(m_right, std::max(toX, x0 + 1.0));
        if (x1 <= x0)
            return;
        if (x1 - x0 >= kMinSegmentPixels)
            return wideBar(x0, x1, color, layer, words);
        Run& run = m_runs[layer];
        if (run.x1 > run.x0 && run.color == color && x0 <= run.x1 + 0.5) {
            run.x1 = std::max(run.x1, x1);
            return;
        }
        flush(layer);
        run = Run { x0, x1, color };
    }
    void wideBar(double x0, double x1, const QColor& color, int layer, const Words& words);
    void flush(int layer);
    void work(const WorkBar& w);
    void pollTick(TimeMs time);
    void paintTimeouts();
    void paintScriptCalls();
    struct Timeout {
        double end, deadline;
        bool timedOut;
    };

    QPainter& m_p;
    const QRect& m_row;
    const TimelineFrame& m_frame;
    const LaneModel& m_model;
    const TimelineStyle& m_style;
    const uint32_t m_actor;
    const double m_left, m_right, m_pixelsPerMs;
    const TimeMs m_timeout;
    Run m_runs[LayerCount];
    double m_lastTick = -1;
    std::vector<Timeout> m_timeouts;
};

void ActorRowPainter::flush(int layer)
{
    Run& run = m_runs[layer];
    const int inset = insetOf(layer);
    if (run.x1 > run.x0)
        m_p.fillRect(QRectF(run.x0, m_row.top() + inset, run.x1 - run.x0, m_row.height() - 2 * inset), run.color);
    run = Run {};
}

void ActorRowPainter::wideBar(double x0, double x1, const QColor& color, int layer, const Words& words)
{
    flush(layer);
    // Wide enough to read: its own box, a hairline where it starts, and its label when it fits.
    const int inset = insetOf(layer);
    const QRectF box(x0, m_row.top() + inset, x1 - x0, m_row.height() - 2 * inset);
    m_p.fillRect(box, color);
    m_p.fillRect(QRectF(x0, box.top(), 1, box.height()), m_style.background);
    if (x1 - x0 <= 60 || (!words.work && !words.label) || QFontMetrics(m_p.font()).height() > box.height() + 2)
        return; // too narrow or too short for its words
    // "batch of 10 · 2 failed" where it fits, "batch of 10" where it does not.
    QString text = words.work ? workLabel(*m_model.run(), *words.work) : *words.label;
    if (QFontMetrics(m_p.font()).horizontalAdvance(text) > box.width() - 6)
        text = text.section(QStringLiteral(" · "), 0, 0);
    m_p.setPen(inkOn(color));
    m_p.drawText(box.adjusted(3, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
}

void ActorRowPainter::work(const WorkBar& w)
{
    const bool allFailed = w.failed > 0 && w.failed == w.messages;
    bar(w.from, w.to, allFailed ? m_style.failed : m_style.working, Work, Words { &w, nullptr });
    if (m_timeout <= 0 || xOf(w.to) - xOf(w.from) < kMinSegmentPixels)
        return;
    // The function timeout: drawn over the polls that follow (after all bars), see paintTimeouts.
    const double deadline = xOf(w.from + m_timeout);
    if (deadline >= m_left && deadline <= m_right + 2)
        m_timeouts.push_back({ std::max(m_left, xOf(w.to)), deadline, w.timedOut });
}

void ActorRowPainter::paintTimeouts()
{
    // A thin line along the row's top from the bar's end to where the invocation would be stopped, and a tick
    // there; an invocation that ran into it ends on the tick, in the crash colour.
    QColor headroom = m_style.text;
    headroom.setAlpha(110);
    for (const Timeout& t : m_timeouts) {
        if (t.deadline > t.end + 1)
            m_p.fillRect(QRectF(t.end, m_row.top() + 1, t.deadline - t.end, 1), headroom);
        m_p.fillRect(
            QRectF(t.deadline - 1, m_row.top() + 1, 2, m_row.height() - 2), t.timedOut ? m_style.crash : m_style.text);
    }
}

void ActorRowPainter::pollTick(TimeMs time)
{
    // A receive answered at once: a tick at the row's top, clear of the work boxes and their gaps; one per pixel
    // column however many land there.
    const double x = std::floor(xOf(time));
    if (x >= m_left && x <= m_right && x != m_lastTick) {
        m_p.fillRect(QRectF(x, m_row.top() + 1, 1, 4), m_style.polling);
        m_lastTick = x;
    }
}

void ActorRowPainter::paint()
{
    const QString crashedLabel = activityName(picture::ActorActivity::Crashed);
    readActorSpans(m_model.lanes(), m_actor, m_frame.axis.toTime(m_left), m_frame.axis.toTime(m_right), m_frame.now,
        [&](const ActorSpan& span) {
            switch (span.kind) {
            case ActorSpan::Tick:
                pollTick(span.from);
                break;
            case ActorSpan::Poll:
                bar(span.from, span.to, m_style.polling, Polling);
                break;
            case ActorSpan::Work:
                if (span.work.interrupted) // cut short by a crash: failed, no words
                    bar(span.from, span.to, m_style.failed, Work);
                else
                    work(span.work);
                break;
            case ActorSpan::Crash: // the word on the crash still going on
                bar(span.from, span.to, m_style.crash, Crash, span.open ? Words { nullptr, &crashedLabel } : Words {});
                break;
            }
            return true;
        });
    for (int layer = 0; layer < LayerCount; ++layer)
        flush(layer);
    paintTimeouts();
    paintScriptCalls();
}

void ActorRowPainter::paintScriptCalls()
{
    // A scripted call: a dot on the client's row, in the crash colour when SQS refused it (its hover says the answer).
    const RunView& run = *m_model.run();
    const int r = std::clamp(m_row.height() / 5, 3, std::max(3, m_style.markPixels / 3));
    m_p.save();
    m_p.setRenderHint(QPainter::Antialiasing, true);
    m_p.setPen(Qt::NoPen);
    for (const uint32_t index : m_model.lanes().scriptCalls(m_actor)) {
        const Event& e = run.log()[index];
        const double x = xOf(e.time);
        if (x < m_left - r || x > m_right + r)
            continue;
        m_p.setBrush(scriptCallOk(run.log().text(e.textIndex())) ? m_style.text : m_style.crash);
        m_p.drawEllipse(QPointF(x, m_row.center().y() + 0.5), r, r);
    }
    m_p.restore();
}
} // namespace

bool scriptCallOk(const std::string& answer)
{
    return answer.find(": OK") != std::string::npos || answer.find(" OK:") != std::string::npos
        || answer.ends_with(": done");
}

std::optional<WorkBar> workAt(const LaneModel& model, uint32_t actor, TimeMs time, TimeMs now)
{
    if (actor >= model.lanes().actorCount())
        return std::nullopt;
    std::optional<WorkBar> found;
    readActorSpans(model.lanes(), actor, time, std::numeric_limits<TimeMs>::max(), now, [&](const ActorSpan& span) {
        if (span.from > time)
            return false; // past it: nothing was going on then
        if (span.kind == ActorSpan::Work && (time < span.to || span.open))
            found = span.work;
        return !found;
    });
    return found;
}

void paintActorRow(QPainter& p, const QRect& row, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, uint32_t actor)
{
    ActorRowPainter(p, row, frame, model, style, actor).paint();
}

} // namespace lifeline::ui
