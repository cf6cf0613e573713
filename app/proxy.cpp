#include "proxy.h"

#include "command_line.h"
#include "http/aws_environment.h"
#include "http/run_recorder.h"
#include "lifeline/aws/aws_credentials.h"
#include "lifeline/io/run_file.h"
#include "lifeline/observe/observer.h"
#include "lifeline/support/duration.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QTimer>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace lifeline::app {

const char* proxyHelp()
{
    return "Usage: lifeline proxy --upstream URL [--port 9324] [--bind 127.0.0.1] [--headless] [--record "
           "FILE.lifeline]\n"
           "                      [--record-every 1m] [--region R] [--profile P] [--poll-attributes 1s]\n"
           "                      [--insecure-upstream]\n"
           "A recording proxy: point your SQS clients at it, and it forwards every call to the upstream (Amazon SQS,\n"
           "LocalStack, ElasticMQ, ...), signed with your AWS credentials, and draws each message's life from what\n"
           "it saw. Answers go back to the clients unchanged, queue URLs included (an error's text without secrets).\n"
           "\n"
           "  --upstream URL       where calls go: https://sqs.eu-west-1.amazonaws.com, http://localhost:4566\n"
           "  --port N             the TCP port for clients, 0 for any free one (default 9324)\n"
           "  --bind ADDRESS       the address to listen on (default 127.0.0.1; anything else lets others use your\n"
           "                       credentials through it)\n"
           "  --headless           no window\n"
           "  --record FILE        write what was seen as a run file: at once (a path that cannot be written is\n"
           "                       refused), every --record-every while the proxy runs, and when it stops (Ctrl+C,\n"
           "                       SIGTERM, SIGHUP, SIGQUIT), each time whole or not at all; the window and\n"
           "                       `lifeline run FILE` (with --summary, --csv or --export) reopen it\n"
           "  --record-every D     how often the run file is written while the proxy runs (default 1m: a crash\n"
           "                       loses a minute at most)\n"
           "  --region R           the upstream's region for signing (default: AWS_REGION, AWS_DEFAULT_REGION, the\n"
           "                       profile's, else us-east-1)\n"
           "  --profile P          the AWS profile whose credentials sign (default: the environment's keys, then\n"
           "                       AWS_PROFILE or default in ~/.aws/credentials and ~/.aws/config)\n"
           "  --poll-attributes D  read every seen queue's attributes and depth this often (default 1s; 0: once)\n"
           "  --insecure-upstream  allow a plain-http upstream that is not this machine (credentials' signatures\n"
           "                       and messages then cross the network unencrypted)\n"
           "  --allow-origin ORIGIN, --allow-host NAME, --allow-get-actions   as for `lifeline serve`\n"
           "  --help               this text\n"
           "\n"
           "A TLS upstream is verified against the system's CA store, or the PEM file AWS_CA_BUNDLE (else\n"
           "SSL_CERT_FILE) names, as the AWS CLI does.\n"
           "Credentials, signatures and session tokens are never printed, logged or recorded. An upstream that cannot\n"
           "be reached answers the client 503 ServiceUnavailable, in SQS's error shape, and the proxy goes on.\n"
           "What the proxy cannot see (a message sent before it started, or by a client that talks to the upstream\n"
           "directly) is drawn hatched as not observed, never guessed.\n"
           "Exit status: 0 when stopped, 1 the run file could not be written, 2 bad arguments, credentials or port.\n"
           "\n"
           "Example:\n"
           "  lifeline proxy --upstream https://sqs.eu-west-1.amazonaws.com --headless --record today.lifeline &\n"
           "  aws --endpoint-url http://127.0.0.1:9324 sqs receive-message --queue-url \"$QUEUE_URL\"\n";
}

namespace {

std::optional<std::string> setPort(ProxyCommand& c, const std::string& v)
{
    char* end = nullptr;
    const long port = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || port < 0 || port > 65535)
        return "--port must be 0..65535 (0: any free port), got '" + v + "'";
    c.proxy.port = quint16(port);
    return std::nullopt;
}

std::optional<std::string> setBind(ProxyCommand& c, const std::string& v)
{
    QHostAddress address;
    if (v == "localhost")
        address = QHostAddress::LocalHost;
    else if (v == "::")
        address = QHostAddress::Any;
    else if (!address.setAddress(QString::fromStdString(v)))
        return "--bind needs an IP address (127.0.0.1, 0.0.0.0, ::1), got '" + v + "'";
    c.proxy.bind = address;
    return std::nullopt;
}

std::optional<std::string> setUpstream(ProxyCommand& c, const std::string& v)
{
    std::string why;
    const auto upstream = aws::parseUpstream(v, &why);
    if (!upstream)
        return why + ", got '" + v + "'";
    c.proxy.upstream = *upstream;
    c.upstreamText = v;
    return std::nullopt;
}

std::optional<std::string> setPoll(ProxyCommand& c, const std::string& v)
{
    const auto every = lifeline::parseDuration(v);
    if (!every || *every < 0 || (*every > 0 && *every < 100) || *every > 3600000)
        return "--poll-attributes must be 0 or a duration from 100ms to 1h (1s, 5s), got '" + v + "'";
    c.proxy.pollAttributesMs = int(*every);
    return std::nullopt;
}

std::optional<std::string> setRecordEvery(ProxyCommand& c, const std::string& v)
{
    const auto every = lifeline::parseDuration(v);
    if (!every || *every < 100 || *every > 3600000)
        return "--record-every must be a duration from 100ms to 1h (30s, 1m), got '" + v + "'";
    c.recordEveryMs = int(*every);
    return std::nullopt;
}

std::optional<std::string> setRecord(ProxyCommand& c, const std::string& v)
{
    if (!v.ends_with(".lifeline"))
        return "--record needs a file name ending in .lifeline, got '" + v + "'";
    c.record = v;
    return std::nullopt;
}

const OptionTable<ProxyCommand>& proxyOptionTable()
{
    static const OptionTable<ProxyCommand> table { "proxy",
        { { "--upstream", setUpstream }, { "--port", setPort }, { "--bind", setBind }, { "--poll-attributes", setPoll },
            { "--record", setRecord }, { "--record-every", setRecordEvery },
            { "--region",
                [](ProxyCommand& c, const std::string& v) -> std::optional<std::string> {
                    c.regionOption = v;
                    return std::nullopt;
                } },
            { "--profile",
                [](ProxyCommand& c, const std::string& v) -> std::optional<std::string> {
                    c.profile = v;
                    return std::nullopt;
                } },
            { "--allow-origin",
                [](ProxyCommand& c, const std::string& v) -> std::optional<std::string> {
                    c.proxy.guard.allowedOrigins.push_back(v);
                    return std::nullopt;
                } },
            { "--allow-host",
                [](ProxyCommand& c, const std::string& v) -> std::optional<std::string> {
                    c.proxy.guard.allowedHosts.push_back(v);
                    return std::nullopt;
                } } },
        { { "--help", [](ProxyCommand& c) { c.help = true; } }, { "-h", [](ProxyCommand& c) { c.help = true; } },
            { "--headless", [](ProxyCommand& c) { c.headless = true; } },
            { "--insecure-upstream", [](ProxyCommand& c) { c.insecureUpstream = true; } },
            { "--allow-get-actions", [](ProxyCommand& c) { c.proxy.guard.allowGetActions = true; } } },
        {} };
    return table;
}

volatile std::sig_atomic_t g_stopRequested = 0;
void requestStop(int)
{
    g_stopRequested = 1;
}
} // namespace

Outcome<ProxyCommand> parseProxyOptions(const std::vector<std::string>& args)
{
    const auto failure = [](const std::string& why) { return Failure { "lifeline proxy: " + why }; };
    auto parsed = parseOptions(proxyOptionTable(), args, 0);
    if (!parsed)
        return Failure { parsed.message() };
    ProxyCommand command = std::move(parsed).value();
    if (command.help)
        return command;
    if (command.upstreamText.empty())
        return failure("--upstream URL is required (https://sqs.eu-west-1.amazonaws.com, http://localhost:4566)");
    if (!command.proxy.upstream.tls && !aws::isLoopbackHost(command.proxy.upstream.host) && !command.insecureUpstream)
        return failure("refusing plain http to " + command.proxy.upstream.host
            + ", which is not this machine: signed requests and messages would cross the network unencrypted "
              "(use https://, or --insecure-upstream if you mean it)");
    return command;
}

Outcome<std::string> resolveProxyCredentials(ProxyCommand& command)
{
    const aws::CredentialSources sources = ui::credentialSourcesOfThisMachine();
    auto resolved = aws::resolveCredentials(sources, command.profile, command.regionOption);
    if (!resolved)
        return Failure { "lifeline proxy: " + resolved.message() };
    command.proxy.credentials = resolved->credentials;
    if (command.proxy.caBundle.empty())
        command.proxy.caBundle = ui::caBundleOfThisMachine(&command.caBundleSource);
    command.proxy.region = resolved->region.empty() ? "us-east-1" : resolved->region;
    return resolved->source;
}

std::string proxyBanner(const ui::ProxyServer& server, const ProxyCommand& command, const std::string& source)
{
    std::ostringstream out;
    out << "Lifeline recording proxy on " << server.address().toStdString() << " -> " << command.proxy.upstream.url()
        << " (region " << command.proxy.region << ", credentials from " << source << ")\n";
    if (!command.proxy.caBundle.empty())
        out << "TLS: the upstream is verified against " << command.proxy.caBundle << " (" << command.caBundleSource
            << ")\n";
    out << "Try: aws --endpoint-url " << server.address().toStdString() << " sqs list-queues\n";
    if (server.exposed())
        out << "warning: bound to " << server.address().toStdString()
            << ", not loopback: anyone who can reach this machine can call SQS with your credentials through it\n";
    return out.str();
}

void quitOnStopSignals(QObject* context)
{
    std::signal(SIGINT, requestStop);
    std::signal(SIGTERM, requestStop);
    std::signal(SIGHUP, requestStop); // the terminal or the SSH session closed: stop as for Ctrl+C, recording
    std::signal(SIGQUIT, requestStop); // Ctrl+\ : a quit asked by hand, not a crash; the recording is kept too
    auto* stopCheck = new QTimer(context);
    QObject::connect(stopCheck, &QTimer::timeout, context, [] {
        if (g_stopRequested)
            QCoreApplication::quit();
    });
    stopCheck->start(50);
}

int proxyHeadless(const ProxyCommand& command, const std::string& credentialSource, int argc, char** argv)
{
    QCoreApplication application(argc, argv);
    observe::Observer observer(QDateTime::currentMSecsSinceEpoch());
    ui::ProxyServer server(observer);
    ui::RunRecorder recorder(command.record, "proxy to " + command.proxy.upstream.url(), [&]() -> const RunView& {
        server.catchUp();
        return observer.run();
    });
    if (!command.record.empty())
        if (const auto written = recorder.start(command.recordEveryMs); !written) {
            std::cerr << "lifeline proxy: --record: " << written.message() << '\n';
            return 2;
        }
    QObject::connect(&recorder, &ui::RunRecorder::failed, &application,
        [](const QString& why) { std::cerr << "lifeline proxy: --record: " << why.toStdString() << '\n'; });
    if (const auto started = server.start(command.proxy); !started) {
        std::cerr << "lifeline proxy: " << started.message() << '\n';
        return 2;
    }
    std::cout << proxyBanner(server, command, credentialSource) << std::flush;
    QObject::connect(&server, &ui::ProxyServer::callFailed, &application,
        [](const QString& why) { std::cerr << "lifeline proxy: " << why.toStdString() << '\n'; });
    quitOnStopSignals(&application);
    application.exec();
    server.catchUp();
    server.stop();
    if (command.record.empty())
        return 0;
    if (const auto saved = recorder.finish(); !saved) {
        std::cerr << "lifeline proxy: " << saved.message() << '\n';
        return 1;
    }
    std::cout << "recorded " << observer.run().messageCount() << " message lanes and " << observer.run().log().size()
              << " events to " << command.record << '\n';
    return 0;
}

} // namespace lifeline::app
