// The live import's OTLP/HTTP receiver (`lifeline import --listen`, the window's File > Receive traces): HTTP/1.1
// (http_server.h) on the OTLP/HTTP port, each request answered by core's otlpHttpReply (live_import.h), and the
// import's clock moved along with the wall clock, so the calls are played as their lag passes even when no request
// comes. Nothing here reads a span: the bytes go to core.
#pragma once

#include "http/http_server.h"
#include "lifeline/import/live_import.h"

#include <QObject>
#include <QTimer>

namespace lifeline::ui {

struct TraceReceiverOptions : HttpServerOptions {
    TraceReceiverOptions()
    {
        port = 4318; // OTLP/HTTP's own: exporters send there unless told otherwise
        limits.maxBodyBytes = size_t(32) * 1024 * 1024; // a Collector's batch of a few thousand spans, in JSON
        limits.acceptChunked = true; // OpenTelemetry's Node exporter streams its requests
    }
};

class TraceReceiver : public QObject {
    Q_OBJECT
public:
    explicit TraceReceiver(import::LiveImport& live, QObject* parent = nullptr);
    ~TraceReceiver() override;

    Outcome<> start(const TraceReceiverOptions& options);
    void stop();
    bool listening() const { return m_http.listening(); }
    quint16 port() const { return m_http.port(); }
    QString address() const { return m_http.address(); } // http://127.0.0.1:4318
    bool exposed() const { return m_http.exposed(); }
    // Plays what the lag has let through by now (the window's frame asks before it draws).
    void catchUp();
    size_t requestsRefused() const { return m_refused; }

signals:
    void received(); // a request's spans were added
    void refused(const QString& why); // a request answered 4xx: the terminal or the status bar says why

private:
    import::LiveImport& m_live;
    HttpServer m_http;
    QTimer m_tick;
    size_t m_refused = 0;
};

} // namespace lifeline::ui
