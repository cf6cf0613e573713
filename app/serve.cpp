#include "serve.h"

#include "lifeline/engine.h"

#include <QCoreApplication>
#include <QDateTime>
#include <charconv>
#include <cmath>
#include <iostream>
#include <sstream>
#include <sys/resource.h>

namespace lifeline::app {

std::optional<ServeOptions> parseServeOptions(const std::vector<std::string>& args, std::ostream& err)
{
    ServeOptions options;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const auto value = [&]() -> std::optional<std::string> {
            if (i + 1 >= args.size()) {
                err << "lifeline serve: " << a << " needs a value\n";
                return std::nullopt;
            }
            return args[++i];
        };
        if (a == "--headless") {
            options.headless = true;
        } else if (a == "--port") {
            const auto v = value();
            if (!v)
                return std::nullopt;
            unsigned port = 0;
            const auto [ptr, ec] = std::from_chars(v->data(), v->data() + v->size(), port);
            if (ec != std::errc() || ptr != v->data() + v->size() || port > 65535) {
                err << "lifeline serve: --port must be 0..65535 (0: any free port), got '" << *v << "'\n";
                return std::nullopt;
            }
            options.endpoint.port = quint16(port);
        } else if (a == "--bind") {
            const auto v = value();
            if (!v)
                return std::nullopt;
            QHostAddress address;
            if (*v == "localhost")
                address = QHostAddress::LocalHost;
            else if (!address.setAddress(QString::fromStdString(*v))) {
                err << "lifeline serve: --bind needs an IP address (127.0.0.1, 0.0.0.0, ::1), got '" << *v << "'\n";
                return std::nullopt;
            }
            options.endpoint.bind = address;
        } else if (a == "--speed") {
            const auto v = value();
            if (!v)
                return std::nullopt;
            double speed = 0;
            std::istringstream in(*v);
            in >> speed;
            if (!in || !in.eof() || !std::isfinite(speed) || speed <= 0 || speed > 10000) {
                err << "lifeline serve: --speed must be a number above 0 and at most 10000, got '" << *v << "'\n";
                return std::nullopt;
            }
            options.endpoint.speed = speed;
        } else {
            err << "lifeline serve: unknown option '" << a << "'\n";
            return std::nullopt;
        }
    }
    return options;
}

std::string serveBanner(const ui::EndpointServer& server, double speed)
{
    std::ostringstream out;
    out << "Lifeline SQS endpoint on " << server.address().toStdString() << " (virtual time x" << speed
        << "; query and JSON protocols)\n";
    out << "Any SigV4 signature is accepted: this is a local tool, not an access-control point.\n";
    if (server.exposed())
        out << "warning: bound to " << server.address().toStdString()
            << ", not loopback: anyone who can reach this machine can use it.\n";
    out << "Try: aws --endpoint-url " << server.address().toStdString() << " sqs create-queue --queue-name demo\n";
    return out.str();
}

void raiseOpenFileLimit()
{
    // Every client connection is a descriptor; a thousand long-pollers need more than the usual soft limit of 1,024.
    rlimit limit {};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = std::min<rlim_t>(limit.rlim_max, 65536);
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

int serveHeadless(const ServeOptions& options, int argc, char** argv)
{
    raiseOpenFileLimit();
    QCoreApplication application(argc, argv);
    Engine engine(EngineOptions { .epochMs = QDateTime::currentMSecsSinceEpoch(), .keepEndedBodies = false });
    ui::EndpointServer server(engine);
    QString error;
    if (!server.start(options.endpoint, &error)) {
        std::cerr << "lifeline serve: " << error.toStdString() << '\n';
        return 2;
    }
    std::cout << serveBanner(server, options.endpoint.speed) << std::flush;
    return application.exec();
}

} // namespace lifeline::app
