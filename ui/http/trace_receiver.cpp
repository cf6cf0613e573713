#include "http/trace_receiver.h"

#include <QDateTime>

namespace lifeline::ui {

TraceReceiver::TraceReceiver(import::LiveImport& live, QObject* parent)
    : QObject(parent)
    , m_live(live)
    , m_http(
          { "lifeline import --listen", '7', "Lifeline" },
          [this](HttpServer::ConnectionId connection, endpoint::HttpRequest&& request) {
              const endpoint::HttpResponse response
                  = import::otlpHttpReply(request, m_live, QDateTime::currentMSecsSinceEpoch());
              m_http.answer(connection, response, request.keepAlive);
              if (response.status == 200) {
                  emit received();
              } else {
                  ++m_refused;
                  const auto message = nlohmann::json::parse(response.body, nullptr, false);
                  emit refused(QStringLiteral("%1 %2: %3")
                                   .arg(QString::fromStdString(request.method),
                                       QString::fromStdString(std::string(request.path())),
                                       QString::fromStdString(message.value("message", std::string()))));
              }
          },
          [](HttpServer::ConnectionId, bool) {}, this)
{
    m_tick.setInterval(100);
    connect(&m_tick, &QTimer::timeout, this, &TraceReceiver::catchUp);
}

TraceReceiver::~TraceReceiver() = default;

Outcome<> TraceReceiver::start(const TraceReceiverOptions& options)
{
    if (auto listening = m_http.listen(options); !listening)
        return listening;
    m_tick.start();
    return {};
}

void TraceReceiver::stop()
{
    m_tick.stop();
    m_http.close();
}

void TraceReceiver::catchUp()
{
    m_live.advance(QDateTime::currentMSecsSinceEpoch());
}

} // namespace lifeline::ui
