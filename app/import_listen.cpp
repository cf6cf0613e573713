#include "import_listen.h"

#include "http/trace_receiver.h"
#include "proxy.h"
#include "serve.h"

#include <QCoreApplication>
#include <ostream>

namespace lifeline::app {

std::optional<std::string> parseListenAddress(const std::string& text, TraceListening& listening)
{
    std::string host, port = text;
    if (const auto colon = text.rfind(':'); colon != std::string::npos) {
        host = text.substr(0, colon);
        port = text.substr(colon + 1);
        if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
            host = host.substr(1, host.size() - 2);
    }
    char* end = nullptr;
    const long number = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end != '\0' || number < 0 || number > 65535)
        return "--listen takes [ADDRESS:]PORT (4318, 0.0.0.0:4318; 0 for any free port), got '" + text + "'";
    listening.port = quint16(number);
    if (!host.empty() && !listening.bind.setAddress(QString::fromStdString(host)))
        return "--listen needs an IP address before the port (127.0.0.1, 0.0.0.0, [::1]), got '" + host + "'";
    return std::nullopt;
}

Outcome<import::ImportedRun> receiveTraces(
    const TraceListening& listening, import::QueueSettings settings, std::ostream& out, std::ostream& err)
{
    int argc = 1;
    char name[] = "lifeline";
    char* argv[] = { name, nullptr };
    QCoreApplication application(argc, argv);
    raiseOpenFileLimit();
    import::LiveImport live(std::move(settings), listening.live);
    ui::TraceReceiver receiver(live);
    ui::TraceReceiverOptions options;
    options.bind = listening.bind;
    options.port = listening.port;
    if (auto started = receiver.start(options); !started)
        return Failure { started.message() };
    QObject::connect(&receiver, &ui::TraceReceiver::refused, &application, [&err](const QString& why) {
        err << "lifeline import: refused " << why.toStdString() << '\n' << std::flush;
    });
    out << "Lifeline receives OpenTelemetry spans on " << receiver.address().toStdString()
        << "/v1/traces (OTLP/HTTP, JSON), drawn " << listening.live.lagMs / 1000.0
        << " s behind; Ctrl+C stops and writes the outputs\n"
        << "Try: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=" << receiver.address().toStdString()
        << "/v1/traces OTEL_EXPORTER_OTLP_PROTOCOL=http/json\n";
    if (receiver.exposed())
        out << "warning: bound to " << receiver.address().toStdString()
            << ", not loopback: anyone who can reach this machine can send it spans\n";
    out << std::flush;
    quitOnStopSignals(&application);
    QCoreApplication::exec();
    receiver.stop();
    live.finish();
    out << "received " << live.requests() << (live.requests() == 1 ? " request" : " requests") << '\n';
    return live.take();
}

} // namespace lifeline::app
