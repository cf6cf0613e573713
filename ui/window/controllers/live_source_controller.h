// The window's live sources, where real clients drive the run on the wall clock: the local SQS endpoint (View > Local
// SQS endpoint, `lifeline serve`) and the recording proxy (`lifeline proxy`). The controller starts and stops them on
// the session, owns the endpoint's menu action and the live frame (every 33 ms: the clock caught up with the wall,
// the lanes synced, the timeline following), binds the live Queue panel to the endpoint's service or through the
// proxy upstream, and keeps the proxy's run file (--record). The window shows what it says and draws each frame.
#pragma once

#include "lifeline/import/trace_import.h"
#include "lifeline/run/event_log.h"
#include "lifeline/support/outcome.h"

#include <QObject>
#include <QString>
#include <memory>

class QAction;
class QTimer;
class QWidget;

namespace lifeline::ui {

class LaneModel;
class LiveDriver;
class LiveQueuePanel;
class OverviewStrip;
class RunRecorder;
class RunSession;
class TimelineView;
struct EndpointOptions;
struct ProxyOptions;
struct TraceReceiverOptions;

class HistorySetting;

class LiveSourceController : public QObject {
    Q_OBJECT
public:
    // What a live run is shown in.
    struct Window {
        QWidget* window; // the parent of its message boxes
        RunSession* session;
        LiveDriver* driver; // paused while real clients drive the run
        TimelineView* timeline;
        OverviewStrip* overview;
        LaneModel* model;
        LiveQueuePanel* liveQueue; // its calls go to the endpoint's service, or upstream through the proxy
        const HistorySetting* history; // how much of the endpoint's run the window keeps
    };

    explicit LiveSourceController(Window window);
    ~LiveSourceController() override;

    // A fresh engine that real clients drive over HTTP, shown live (a lane per message, a row per kind of client).
    Outcome<> startEndpoint(const EndpointOptions& options);
    // Real clients' calls forwarded upstream and drawn live; `recordPath`, when given, is written at once (refused
    // when it cannot be), every `recordEveryMs` and when the proxy stops (net/run_recorder.h).
    Outcome<> startProxy(const ProxyOptions& options, const QString& recordPath = {}, int recordEveryMs = 60000);
    // Spans received live at POST /v1/traces (File > Receive traces, `lifeline import --listen` in the window's
    // place): each message a lane as its calls are played, `lagMs` behind the spans' clock (docs/import.md, "Live").
    Outcome<> startTraces(const TraceReceiverOptions& options, import::QueueSettings settings, TimeMs lagMs = 8000);
    // File > Receive traces live: asks for the queues' settings (Cancel: SQS's defaults) and starts on port 4318.
    QAction* tracesAction() const { return m_tracesAction; }
    // Send a message... in a live run: the live Queue panel is where one is sent (to the endpoint's service, or
    // upstream through the proxy), raised and focused; a traced run takes none (its calls went to a real SQS). False
    // when no live source runs (the window's own dialog sends then).
    bool answerSend();
    // Stops serving; the run stays on screen, still. Nothing when no live source runs.
    void stop();
    // Writes the proxy's run file (--record) a last time; a message box says why when it cannot.
    void saveProxyRecord();
    // View > Local SQS endpoint (port 9324), checkable.
    QAction* endpointAction() const { return m_endpointAction; }

signals:
    // A live source started: what the lesson panel shows about it.
    void started(const QString& title, const QString& text);
    void stopped();
    void frameShown(TimeMs now); // the live run moved on: the panels read it
    void runChanged(); // the live Queue panel's call changed the run
    void said(const QString& text, int ms);

private:
    void frame();
    void bindLiveQueue();
    void toggleEndpoint(bool on);

    Window m_window;
    QAction* m_endpointAction;
    QAction* m_tracesAction;
    QTimer* m_frames;
    std::unique_ptr<RunRecorder> m_recorder; // --record, while the proxy runs
};

} // namespace lifeline::ui
