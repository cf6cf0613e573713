#include "serve.h"

#include "command_line.h"
#include "export/image_export.h"
#include "http/run_seed.h"
#include "lifeline/endpoint/fault_plan_json.h"
#include "lifeline/engine/engine.h"
#include "lifeline/support/duration.h"
#include "lifeline/support/json_depth.h"
#include "quiet_start.h"

#include <QDateTime>
#include <QGuiApplication>
#include <charconv>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <sys/resource.h>

namespace lifeline::app {

const char* serveHelp()
{
    return "Usage: lifeline serve [--port 9324] [--bind 127.0.0.1] [--headless [--history 0]] [--speed 1 | --clock "
           "manual]\n"
           "                      [--seed N] [--quotas] [--faults FILE]\n"
           "A local SQS endpoint for real clients (aws, boto3, the SDKs), query and JSON protocols. In the window,\n"
           "every message they send is a lane; --headless runs it with no window and no display.\n"
           "\n"
           "  --port N        the TCP port, 0 for any free one (default 9324)\n"
           "  --bind ADDRESS  the address to listen on (default 127.0.0.1; anything else is reachable by others)\n"
           "  --headless      no window\n"
           "  --history D     headless: remember ended messages and events for D (90s, 10m, 2h; default 0: memory\n"
           "                  returns to its baseline once messages end). The window: View > History kept.\n"
           "  --speed X       virtual time runs X times the wall clock, above 0 and at most 10000 (default 1)\n"
           "  --clock manual  virtual time stands until a test moves it: POST /_lifeline/clock/advance {\"by\": "
           "\"30s\"}\n"
           "                  fires every timer due, in order (GET /_lifeline/clock reads it; docs/testing.md)\n"
           "  --seed N        MessageIds and receipt handles the same run to run (a test's fixtures); by default\n"
           "                  each run has its own, so a handle kept from before a restart names no new message\n"
           "  --quotas        SQS's quotas: 120,000 messages in flight (a standard queue's short poll answers\n"
           "                  OverLimit), a FIFO queue's 300 calls a second per action (70,000 in high-throughput\n"
           "                  mode) before ThrottlingException. Off by default: nothing is limited\n"
           "  --faults FILE   inject SQS's own faults from a plan (JSON): duplicate deliveries, short polls that\n"
           "                  sample, throttling, 500 and 503, OverLimit, KMS errors; seeded, so the same calls meet\n"
           "                  the same faults (docs/faults.md; GET, POST, DELETE /_lifeline/faults). Off by default\n"
           "  --allow-origin ORIGIN  let a web page from ORIGIN (https://app.example) call it (repeatable)\n"
           "  --allow-host NAME      accept Host: NAME besides localhost and IP addresses (repeatable)\n"
           "  --allow-get-actions    accept state-changing actions over GET (AWS does; browsers abuse it)\n"
           "  --print-env     print the shell lines that point the SDKs' and the aws CLI's SQS here (eval "
           "\"$(...)\"),\n"
           "                  and stop (AWS_ENDPOINT_URL_SQS: other AWS services keep their own endpoints)\n"
           "  --every-service with --print-env, also AWS_ENDPOINT_URL (for an SDK too old for service endpoints:\n"
           "                  every AWS call then comes here)\n"
           "  --help          this text\n"
           "\n"
           "Any SigV4 signature is accepted: it is a local tool, not an access-control point. What only a web page\n"
           "would send is refused with 403: an Origin header, a change over GET, a Host that is not an address.\n"
           "Exit status: 0 when stopped, 2 bad arguments or the port cannot be opened.\n"
           "\n"
           "Example:\n"
           "  lifeline serve --headless --port 9324 &\n"
           "  aws --endpoint-url http://127.0.0.1:9324 sqs create-queue --queue-name demo\n";
}

namespace {
// How each option that takes a value is stored; a refused value returns why (without the command's name).

std::optional<std::string> setHistory(ServeOptions& options, const std::string& v)
{
    const auto history = lifeline::parseDuration(v);
    if (!history || *history < 0)
        return "--history must be a duration such as 0, 90s, 10m or 2h (at most a year), got '" + v + "'";
    options.historyMs = *history;
    options.historyGiven = true;
    return std::nullopt;
}

std::optional<std::string> setClock(ServeOptions& options, const std::string& v)
{
    if (v != "manual" && v != "wall")
        return "--clock must be manual (virtual time moves only when a test advances it) or wall (the default: "
               "wall time x --speed), got '"
            + v + "'";
    options.endpoint.manualClock = v == "manual";
    return std::nullopt;
}

std::optional<std::string> setPort(ServeOptions& options, const std::string& v)
{
    unsigned port = 0;
    const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), port);
    if (ec != std::errc() || ptr != v.data() + v.size() || port > 65535)
        return "--port must be 0..65535 (0: any free port), got '" + v + "'";
    options.endpoint.port = quint16(port);
    return std::nullopt;
}

std::optional<std::string> setBind(ServeOptions& options, const std::string& v)
{
    QHostAddress address;
    if (v == "localhost")
        address = QHostAddress::LocalHost;
    else if (v == "::")
        address = QHostAddress::Any; // Qt's dual-stack any-address: IPv4 and IPv6 where the system allows
    else if (!address.setAddress(QString::fromStdString(v)))
        return "--bind needs an IP address (127.0.0.1, 0.0.0.0, ::1), got '" + v + "'";
    options.endpoint.bind = address;
    return std::nullopt;
}

std::optional<std::string> setSpeed(ServeOptions& options, const std::string& v)
{
    const auto speed = lifeline::parseNumber(v); // locale-independent: "0.5" under any LC_NUMERIC
    if (!speed || *speed <= 0 || *speed > 10000)
        return "--speed must be a number above 0 and at most 10000, got '" + v + "'";
    options.endpoint.speed = *speed;
    return std::nullopt;
}

std::optional<std::string> setSeed(ServeOptions& options, const std::string& v)
{
    uint64_t seed = 0;
    const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), seed);
    if (ec != std::errc() || ptr != v.data() + v.size())
        return "--seed must be a whole number from 0 to 18446744073709551615, got '" + v + "'";
    options.endpoint.seed = seed;
    return std::nullopt;
}

std::optional<std::string> setFaults(ServeOptions& options, const std::string& v)
{
    std::ifstream file(v, std::ios::binary);
    std::string text(1 << 20, '\0'); // a plan is small: a megabyte read at most, never a huge file
    file.read(text.data(), std::streamsize(text.size()));
    if (!file && !file.eof())
        return "--faults: cannot read " + v;
    text.resize(size_t(file.gcount()));
    if (!file.eof() || file.peek() != std::char_traits<char>::eof())
        return "--faults " + v + ": larger than a megabyte; a plan is a few lines of JSON";
    const auto json = lifeline::jsonNestsDeeperThan(text, 16) ? nlohmann::json(nlohmann::json::value_t::discarded)
                                                              : nlohmann::json::parse(text, nullptr, false, true);
    if (json.is_discarded())
        return "--faults " + v
            + ": not JSON; a plan is {\"seed\": 7, \"faults\": [{\"kind\": \"duplicate\", \"rate\": 0.2}]}";
    auto plan = endpoint::parseFaultPlan(json);
    if (!plan)
        return "--faults " + v + ": " + plan.error().message;
    options.endpoint.faults = std::move(plan).value();
    return std::nullopt;
}

std::optional<std::string> allowOrigin(ServeOptions& options, const std::string& v)
{
    options.endpoint.guard.allowedOrigins.push_back(v);
    return std::nullopt;
}

std::optional<std::string> allowHost(ServeOptions& options, const std::string& v)
{
    options.endpoint.guard.allowedHosts.push_back(v);
    return std::nullopt;
}

const OptionTable<ServeOptions>& serveOptionTable()
{
    static const OptionTable<ServeOptions> table {
        "serve",
        { { "--allow-origin", allowOrigin }, { "--allow-host", allowHost }, { "--clock", setClock },
            { "--history", setHistory }, { "--port", setPort }, { "--bind", setBind }, { "--speed", setSpeed },
            { "--seed", setSeed }, { "--faults", setFaults } },
        { { "--help", [](ServeOptions& o) { o.help = true; } }, { "-h", [](ServeOptions& o) { o.help = true; } },
            { "--print-env", [](ServeOptions& o) { o.printEnv = true; } },
            { "--every-service", [](ServeOptions& o) { o.everyService = true; } },
            { "--headless", [](ServeOptions& o) { o.headless = true; } },
            { "--allow-get-actions", [](ServeOptions& o) { o.endpoint.guard.allowGetActions = true; } },
            { "--quotas", [](ServeOptions& o) { o.endpoint.quotas = true; } } },
        {},
    };
    return table;
}

} // namespace

Outcome<ServeOptions> parseServeOptions(const std::vector<std::string>& args)
{
    const auto failure = [](const std::string& why) { return Failure { "lifeline serve: " + why }; };
    auto parsed = parseOptions(serveOptionTable(), args, 0);
    if (!parsed)
        return Failure { parsed.message() };
    ServeOptions options = std::move(parsed).value();
    if (options.everyService && !options.printEnv)
        return failure("--every-service is for --print-env (it adds AWS_ENDPOINT_URL to the lines printed)");
    if (options.printEnv && options.endpoint.port == 0)
        return failure("--print-env needs the port the server will use (--port 0 is known only once it listens)");
    if (options.historyGiven && !options.headless && !options.help)
        return failure("--history is for --headless (the window keeps what its View > History kept says)");
    return options;
}

std::string servePrintEnv(const ServeOptions& options)
{
    // An IPv6 address is bracketed in a URL; the credentials are any (the endpoint accepts every signature), but the
    // SDKs refuse to sign without some.
    const QHostAddress& bind = options.endpoint.bind;
    const bool any = bind == QHostAddress::Any || bind == QHostAddress::AnyIPv4 || bind == QHostAddress::AnyIPv6;
    QString host = any ? QStringLiteral("127.0.0.1") : bind.toString();
    if (host.contains(QLatin1Char(':')))
        host = QStringLiteral("[%1]").arg(host);
    std::ostringstream out;
    const std::string url = "http://" + host.toStdString() + ':' + std::to_string(options.endpoint.port);
    if (options.everyService)
        out << "export AWS_ENDPOINT_URL=" << url << '\n';
    out << "export AWS_ENDPOINT_URL_SQS=" << url << '\n'
        << "export AWS_REGION=us-east-1\n"
        << "export AWS_DEFAULT_REGION=us-east-1\n"
        << "export AWS_ACCESS_KEY_ID=test\n"
        << "export AWS_SECRET_ACCESS_KEY=test\n";
    return out.str();
}

std::string serveBanner(const ui::EndpointServer& server, double speed, bool manualClock)
{
    std::ostringstream out;
    out << "Lifeline SQS endpoint on " << server.address().toStdString();
    if (manualClock)
        out << " (virtual time stands until POST /_lifeline/clock/advance; query and JSON protocols)\n";
    else
        out << " (virtual time x" << speed << "; query and JSON protocols)\n";
    out << "Any SigV4 signature is accepted: this is a local tool, not an access-control point.\n";
    out << "Try: aws --endpoint-url " << server.address().toStdString() << " sqs create-queue --queue-name demo\n";
    return out.str();
}

std::string serveWarning(const ui::EndpointServer& server)
{
    if (!server.exposed())
        return {};
    return "lifeline serve: warning: bound to " + server.address().toStdString()
        + ", not loopback: anyone who can reach this machine can use it.\n";
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
    // Never shown, but it draws (GET /_lifeline/runs/current?format=png): offscreen, no display needed.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    const app::QuietlyStarted<QGuiApplication> application(argc, argv); // a script reads the server's first lines
    auto engine = std::make_unique<Engine>(EngineOptions { .epochMs = QDateTime::currentMSecsSinceEpoch(),
        .seed = options.endpoint.seed.value_or(ui::freshRunSeed()),
        .keepEndedBodies = false,
        .historyMs = options.historyMs,
        .quotas = options.endpoint.quotas,
        .faults = options.endpoint.faults });
    ui::EndpointServer server(*engine);
    server.allowReset([&engine](const EngineOptions& fresh) -> Engine& {
        engine = std::make_unique<Engine>(fresh);
        return *engine;
    });
    server.setRunImageWriter(ui::drawEndpointRun);
    if (const auto started = server.start(options.endpoint); !started) {
        std::cerr << "lifeline serve: " << started.message() << '\n';
        return 2;
    }
    std::cout << serveBanner(server, options.endpoint.speed, options.endpoint.manualClock) << std::flush;
    std::cerr << serveWarning(server) << std::flush;
    return application.exec();
}

} // namespace lifeline::app
