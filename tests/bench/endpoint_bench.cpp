// The local endpoint under load: `lifeline serve --headless` in its own process and 16 keep-alive clients on
// loopback, each sending, receiving and deleting (query protocol, as Debian's aws CLI and boto3 send it) for a few
// seconds. Reports requests per second; with `moto_server` on the PATH, the same workload against it too.
#include "bench_util.h"

#include <algorithm>
#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace lifeline::bench {

namespace {

constexpr int kClients = 16;
constexpr double kSeconds = 5.0;

struct Server {
    pid_t pid = -1;
    int port = 0;
};

// Starts a server process whose stdout names its port (lifeline) or that listens on the port given (moto).
Server startProcess(const std::vector<std::string>& argv, int fixedPort)
{
    int out[2];
    if (pipe(out) != 0)
        return {};
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], 1);
        dup2(out[1], 2);
        close(out[0]);
        std::vector<char*> args;
        for (const auto& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        _exit(127);
    }
    close(out[1]);
    Server server { pid, fixedPort };
    if (fixedPort == 0) {
        std::string text;
        char buffer[256];
        while (server.port == 0) {
            const ssize_t n = read(out[0], buffer, sizeof buffer);
            if (n <= 0)
                break;
            text.append(buffer, size_t(n));
            if (const auto at = text.find("127.0.0.1:"); at != std::string::npos && text.find(' ', at) != text.npos)
                server.port = std::atoi(text.c_str() + at + 10);
        }
    }
    // Drain its output in the background so it never blocks on a full pipe.
    std::thread([fd = out[0]] {
        char sink[4096];
        while (read(fd, sink, sizeof sink) > 0) { }
        close(fd);
    }).detach();
    return server;
}

int connectTo(int port)
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(uint16_t(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        close(fd);
        return -1;
    }
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

std::string urlEncode(const std::string& text)
{
    std::string out;
    for (const unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
            out += char(c);
        else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            out += hex;
        }
    }
    return out;
}

// One client's connection: keep-alive while the server keeps it (moto's werkzeug closes after each answer, so the
// client connects again, as an SDK would).
struct Client {
    int port;
    int fd = -1;

    ~Client()
    {
        if (fd >= 0)
            close(fd);
    }

    // One query-protocol request, signed the way moto needs to route it to SQS (lifeline accepts any signature);
    // the response body, or empty on failure.
    std::string request(const std::string& form, const std::string& path = "/",
        const std::string& type = "application/x-www-form-urlencoded; charset=utf-8")
    {
        if (fd < 0 && (fd = connectTo(port)) < 0)
            return {};
        const std::string message = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port)
            + "\r\nAuthorization: AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/sqs/aws4_request, "
              "SignedHeaders=host, Signature=0\r\nContent-Type: "
            + type + "\r\nContent-Length: " + std::to_string(form.size()) + "\r\n\r\n" + form;
        if (send(fd, message.data(), message.size(), MSG_NOSIGNAL) != ssize_t(message.size()))
            return {};
        std::string response;
        char buffer[16384];
        size_t bodyAt = std::string::npos, length = 0;
        bool closes = false;
        for (;;) {
            const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
            if (n <= 0)
                return {};
            response.append(buffer, size_t(n));
            if (bodyAt == std::string::npos) {
                const size_t end = response.find("\r\n\r\n");
                if (end == std::string::npos)
                    continue;
                bodyAt = end + 4;
                const size_t cl = response.find("ontent-Length: ");
                length = cl < end ? size_t(std::atol(response.c_str() + cl + 15)) : 0;
                const size_t connection = response.find("onnection: close");
                closes = connection < end;
            }
            if (response.size() >= bodyAt + length)
                break;
        }
        if (closes) {
            close(fd);
            fd = -1;
        }
        return response.substr(bodyAt, length);
    }
};

std::string between(const std::string& text, const std::string& open, const std::string& close)
{
    const size_t a = text.find(open);
    if (a == std::string::npos)
        return {};
    const size_t b = text.find(close, a + open.size());
    return b == std::string::npos ? std::string() : text.substr(a + open.size(), b - a - open.size());
}

// 16 clients, send + receive + delete each, for kSeconds. Requests per second, or 0 when the server failed.
double workload(int port)
{
    std::atomic<long> requests { 0 }, failures { 0 };
    std::atomic<bool> stop { false };
    std::vector<std::thread> clients;
    for (int c = 0; c < kClients; ++c) {
        clients.emplace_back([&, c] {
            Client client { port };
            const std::string created
                = client.request("Action=CreateQueue&Version=2012-11-05&QueueName=bench-" + std::to_string(c));
            const std::string url = urlEncode(between(created, "<QueueUrl>", "</QueueUrl>"));
            if (url.empty()) {
                ++failures;
                return;
            }
            long mine = 0;
            while (!stop.load(std::memory_order_relaxed)) {
                if (client.request("Action=SendMessage&Version=2012-11-05&QueueUrl=" + url + "&MessageBody=job")
                        .empty()) {
                    ++failures;
                    break;
                }
                const std::string received = client.request(
                    "Action=ReceiveMessage&Version=2012-11-05&QueueUrl=" + url + "&MaxNumberOfMessages=1");
                const std::string handle = between(received, "<ReceiptHandle>", "</ReceiptHandle>");
                if (handle.empty()
                    || client
                           .request("Action=DeleteMessage&Version=2012-11-05&QueueUrl=" + url
                               + "&ReceiptHandle=" + urlEncode(handle))
                           .empty()) {
                    ++failures;
                    break;
                }
                mine += 3;
            }
            requests += mine;
        });
    }
    const auto start = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(kSeconds));
    stop = true;
    for (auto& t : clients)
        t.join();
    const double seconds = secondsSince(start);
    if (failures > 0)
        std::fprintf(stderr, "lifeline-bench endpoint: %ld client(s) failed\n", long(failures));
    return failures > 0 ? 0.0 : double(requests) / seconds;
}

// `cycles` send/receive/delete cycles spread over kClients clients (each on its own queue); false on a failure.
bool runCycles(int port, long cycles, int round)
{
    std::atomic<long> failures { 0 };
    std::vector<std::thread> clients;
    for (int c = 0; c < kClients; ++c) {
        clients.emplace_back([&, c] {
            Client client { port };
            const std::string created = client.request("Action=CreateQueue&Version=2012-11-05&QueueName=memory-"
                + std::to_string(round) + "-" + std::to_string(c));
            const std::string url = urlEncode(between(created, "<QueueUrl>", "</QueueUrl>"));
            for (long i = 0; i < cycles / kClients && !url.empty(); ++i) {
                client.request("Action=SendMessage&Version=2012-11-05&QueueUrl=" + url + "&MessageBody=job");
                const std::string handle = between(client.request("Action=ReceiveMessage&Version=2012-11-05&QueueUrl="
                                                       + url + "&MaxNumberOfMessages=1"),
                    "<ReceiptHandle>", "</ReceiptHandle>");
                if (handle.empty()
                    || client
                           .request("Action=DeleteMessage&Version=2012-11-05&QueueUrl=" + url
                               + "&ReceiptHandle=" + urlEncode(handle))
                           .empty()) {
                    ++failures;
                    return;
                }
            }
            if (url.empty())
                ++failures;
        });
    }
    for (auto& t : clients)
        t.join();
    return failures == 0;
}

// Resident memory of a process, in bytes (VmRSS of /proc/PID/status), or -1.
void stopProcess(const Server& server)
{
    if (server.pid > 0) {
        kill(server.pid, SIGTERM);
        waitpid(server.pid, nullptr, 0);
    }
}

// One client's SendMessage round trips, one after another: the median in milliseconds.
double medianRoundTripMs(int port, int requests)
{
    Client client { port };
    const std::string created = client.request("Action=CreateQueue&Version=2012-11-05&QueueName=latency");
    const std::string url = urlEncode(between(created, "<QueueUrl>", "</QueueUrl>"));
    if (url.empty())
        return -1;
    std::vector<double> ms;
    for (int i = 0; i < requests; ++i) {
        const auto start = std::chrono::steady_clock::now();
        if (client.request("Action=SendMessage&Version=2012-11-05&QueueUrl=" + url + "&MessageBody=job").empty())
            return -1;
        ms.push_back(secondsSince(start) * 1000);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

} // namespace

// The recording proxy: the same 16 keep-alive clients through `lifeline proxy` to a `lifeline serve` upstream on
// loopback, and what one client's round trip gains by going through it (p50). Three processes share the machine.
void runProxyBenchmark()
{
    setenv("AWS_ACCESS_KEY_ID", "AKIABENCHMARK", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "bench-secret", 1);
    const Server upstream = startProcess({ LIFELINE_BINARY, "serve", "--headless", "--port", "0" }, 0);
    if (upstream.port == 0) {
        std::fprintf(stderr, "lifeline-bench proxy: lifeline serve did not start\n");
        stopProcess(upstream);
        return;
    }
    const std::string upstreamUrl = "http://127.0.0.1:" + std::to_string(upstream.port);
    const Server proxy = startProcess(
        { LIFELINE_BINARY, "proxy", "--upstream", upstreamUrl, "--port", "0", "--headless", "--poll-attributes", "0" },
        0);
    if (proxy.port == 0) {
        std::fprintf(stderr, "lifeline-bench proxy: lifeline proxy did not start\n");
        stopProcess(proxy);
        stopProcess(upstream);
        return;
    }
    const double direct = medianRoundTripMs(upstream.port, 3000);
    const double through = medianRoundTripMs(proxy.port, 3000);
    report("proxy.requests_per_s", workload(proxy.port), "req/s");
    report("proxy.added_latency_ms_p50", through - direct, "ms");
    report("proxy.round_trip_ms_p50_direct", direct, "ms");
    report("proxy.proxy_bytes_resident", residentBytes(proxy.pid), "bytes");
    stopProcess(proxy);
    stopProcess(upstream);
}

// A test suite's clock (`serve --clock manual`): 100,000 messages in flight with a 12-hour visibility timeout, then
// one advance of a day through the control API, which fires every one of their timers. Goal: 1 s or less.
static void advanceDayBenchmark()
{
    const Server server
        = startProcess({ LIFELINE_BINARY, "serve", "--headless", "--port", "0", "--clock", "manual" }, 0);
    if (server.port == 0) {
        std::fprintf(stderr, "lifeline-bench endpoint: lifeline serve --clock manual did not start\n");
        stopProcess(server);
        return;
    }
    Client client { server.port };
    const std::string queue = between(
        client.request("Action=CreateQueue&Version=2012-11-05&QueueName=held&Attribute.1.Name=VisibilityTimeout"
                       "&Attribute.1.Value=43200"),
        "<QueueUrl>", "</QueueUrl>");
    constexpr int kMessages = 100000;
    for (int batch = 0; batch < kMessages / 10; ++batch) {
        std::string form = "Action=SendMessageBatch&Version=2012-11-05&QueueUrl=" + queue;
        for (int i = 1; i <= 10; ++i)
            form += "&SendMessageBatchRequestEntry." + std::to_string(i) + ".Id=m" + std::to_string(i)
                + "&SendMessageBatchRequestEntry." + std::to_string(i) + ".MessageBody=job";
        client.request(form);
    }
    size_t inFlight = 0;
    for (int receive = 0; receive < kMessages / 10; ++receive) {
        const std::string answer
            = client.request("Action=ReceiveMessage&Version=2012-11-05&MaxNumberOfMessages=10&QueueUrl=" + queue);
        for (size_t at = answer.find("<Message>"); at != std::string::npos; at = answer.find("<Message>", at + 1))
            ++inFlight;
    }
    const auto start = std::chrono::steady_clock::now();
    const std::string clock = client.request(R"({"by": "1d"})", "/_lifeline/clock/advance", "application/json");
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const std::string visible = between(client.request("Action=GetQueueAttributes&Version=2012-11-05&QueueUrl=" + queue
                                            + "&AttributeName.1=ApproximateNumberOfMessages"),
        "<Value>", "</Value>");
    stopProcess(server);
    if (inFlight != size_t(kMessages) || clock.find("\"now_ms\":86400000") == std::string::npos
        || visible != std::to_string(kMessages)) {
        std::fprintf(stderr, "lifeline-bench endpoint: advance: %zu in flight, clock %s, %s visible after\n", inFlight,
            clock.c_str(), visible.c_str());
        return;
    }
    report("serve.advance_day_ms", ms, "ms");
    report("serve.advance_day_messages", double(kMessages), "messages in flight, all visible again after it");
}

void runEndpointBenchmark()
{
    advanceDayBenchmark();
    const Server lifeline = startProcess({ LIFELINE_BINARY, "serve", "--headless", "--port", "0" }, 0);
    if (lifeline.port == 0) {
        std::fprintf(stderr, "lifeline-bench endpoint: lifeline serve did not start\n");
        stopProcess(lifeline);
        return;
    }
    const double ours = workload(lifeline.port);
    stopProcess(lifeline);
    report("endpoint.requests_per_s", ours, "req/s");

    // Memory a headless server keeps per message it no longer holds (goal: at most 16 bytes a cycle; every message
    // ends deleted). Measured in stretches on the same 16 queues, so that what fills up once (the allocator's arenas,
    // the history's first chunks, the queues themselves) is told from what keeps growing: 10,000 cycles create the
    // queues, the next 50,000 fill them (how much: the warm-up figure), the 200,000 after them give the growth a cycle.
    const Server fresh = startProcess({ LIFELINE_BINARY, "serve", "--headless", "--port", "0" }, 0);
    if (fresh.port != 0 && runCycles(fresh.port, 10000, 1)) {
        const double start = residentBytes(fresh.pid);
        if (runCycles(fresh.port, 50000, 1)) {
            const double warm = residentBytes(fresh.pid);
            report("endpoint.headless_warmup_mb", (warm - start) / 1e6, "MB");
            if (runCycles(fresh.port, 200000, 1))
                report("endpoint.bytes_per_cycle_headless", (residentBytes(fresh.pid) - warm) / 200000.0, "bytes");
        }
    }
    stopProcess(fresh);
    report("endpoint.clients", kClients, "keep-alive connections");
    // moto_server, where the machine has it: the same workload as the side-by-side anchor.
    if (std::system("command -v moto_server > /dev/null 2>&1") != 0) {
        std::printf("# moto_server is not on the PATH: no endpoint.vs_moto_ratio\n");
        return;
    }
    const int motoPort = 19324 + int(getpid() % 1000);
    const Server moto = startProcess({ "moto_server", "-p", std::to_string(motoPort) }, motoPort);
    int probe = -1;
    for (int i = 0; i < 100 && probe < 0; ++i) { // moto takes a moment to start
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        probe = connectTo(motoPort);
    }
    if (probe < 0) {
        std::printf("# moto_server did not start: no endpoint.vs_moto_ratio\n");
        stopProcess(moto);
        return;
    }
    close(probe);
    const double theirs = workload(motoPort);
    stopProcess(moto);
    report("endpoint.moto_requests_per_s", theirs, "req/s");
    if (theirs > 0)
        report("endpoint.vs_moto_ratio", ours / theirs, "x");
}

} // namespace lifeline::bench
