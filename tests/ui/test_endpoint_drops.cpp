// The endpoint server when clients go away at the worst moments: mid-response, mid-long-poll, many at once.
// Built with AddressSanitizer (lifeline-endpoint-asan-tests): a connection freed while its response is being
// written, or a poll answered to a freed connection, aborts the test. Waits in wall time, briefly, for loopback.
#include "http/endpoint_server.h"
#include "http/http_server.h"
#include "lifeline/engine/engine.h"
#include "loopback_client.h"

#include <QElapsedTimer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>
#include <arpa/inet.h>
#include <atomic>
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace lifeline;

using lifeline::test::connectTo;
using lifeline::test::post;

namespace {
QByteArray request(const QByteArray& form)
{
    return lifeline::test::formRequest(form);
}

// A server on a free loopback port, with the limits a test sets first.
struct Served {
    Engine engine;
    ui::EndpointServer server { engine };
    explicit Served(ui::EndpointOptions options = {})
    {
        options.port = 0;
        REQUIRE(server.start(options).ok());
    }
    ~Served() { server.stop(); }
};
} // namespace

TEST_CASE("endpoint: clients gone mid-response and mid-poll - the server goes on and the poll receives for nobody",
    "[ui][endpoint]")
{
    ui::EndpointOptions options;
    options.speed = 20; // a 1 s visibility timeout passes in 50 ms of wall time
    Served served(options);
    Engine& engine = served.engine;
    ui::EndpointServer& server = served.server;
    const auto connect = [&](QTcpSocket& socket) { connectTo(socket, server.port()); };
    QTcpSocket owner;
    connect(owner);
    CHECK(post(owner, "Action=CreateQueue&QueueName=q&Attribute.1.Name=VisibilityTimeout&Attribute.1.Value=1")
              .startsWith("HTTP/1.1 200 OK"));
    const QByteArray url = "QueueUrl=http%3A%2F%2F127.0.0.1%2F000000000000%2Fq";

    // Gone mid-response: a request written, the socket dropped before the answer is read. Several times over.
    for (int i = 0; i < 20; ++i) {
        QTcpSocket hasty;
        connect(hasty);
        const QByteArray form = "Action=SendMessage&" + url + "&MessageBody=hasty";
        hasty.write("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    "Content-Length: "
            + QByteArray::number(form.size()) + "\r\n\r\n" + form);
        hasty.waitForBytesWritten(1000);
        hasty.abort();
    }
    CHECK(QTest::qWaitFor([&] { return engine.messageCount() == 20; }, 5000));
    CHECK(post(owner, "Action=PurgeQueue&" + url).startsWith("HTTP/1.1 200 OK"));

    // Gone mid-poll: a client waits 10 s for a message, then closes.
    QTcpSocket waiter;
    connect(waiter);
    const QByteArray poll = "Action=ReceiveMessage&WaitTimeSeconds=10&" + url;
    waiter.write("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: waiter/1.0\r\nContent-Type: "
                 "application/x-www-form-urlencoded\r\nContent-Length: "
        + QByteArray::number(poll.size()) + "\r\n\r\n" + poll);
    REQUIRE(QTest::qWaitFor([&] { return server.waitingPolls() == 1; }, 5000));
    waiter.abort();
    REQUIRE(QTest::qWaitFor([&] { return server.orphanedPolls() == 1; }, 5000));
    // Its poll goes on (docs/decisions.md): the next message is received for nobody.
    CHECK(post(owner, "Action=SendMessage&" + url + "&MessageBody=for-nobody").contains("<MessageId>"));
    REQUIRE(QTest::qWaitFor([&] { return server.orphanedPolls() == 0; }, 5000));
    const MessageIndex lane = MessageIndex(engine.messageCount() - 1);
    CHECK(engine.message(lane).body == "for-nobody");
    bool nobody = false;
    for (size_t i = 0; i < engine.log().size(); ++i) {
        const Event& e = engine.log()[i];
        if (e.cause == Cause::ReceivedByNobody && e.message == lane)
            nobody = engine.run().actorName(e.actor) == "waiter/1.0";
    }
    CHECK(nobody);
    // Back after its 1 s timeout, and the server still serves: the owner receives it, the second time.
    QByteArray again;
    CHECK(QTest::qWaitFor(
        [&] {
            again = post(owner, "Action=ReceiveMessage&AttributeName.1=ApproximateReceiveCount&" + url);
            return again.contains("<Body>for-nobody</Body>");
        },
        5000));
    CHECK(again.contains("<Name>ApproximateReceiveCount</Name><Value>2</Value>"));
    server.stop();
}

TEST_CASE(
    "endpoint: a hundred clients drop while parked, answered and half-written - no use after free", "[endpoint][asan]")
{
    ui::EndpointOptions options;
    options.speed = 50;
    Served served(options);
    ui::EndpointServer& server = served.server;
    QTcpSocket owner;
    owner.connectToHost(QStringLiteral("127.0.0.1"), server.port());
    REQUIRE(owner.waitForConnected(5000));
    CHECK(post(owner, "Action=CreateQueue&QueueName=q").startsWith("HTTP/1.1 200 OK"));
    const QByteArray url = "QueueUrl=http%3A%2F%2F127.0.0.1%2F000000000000%2Fq";
    std::vector<std::unique_ptr<QTcpSocket>> clients;
    for (int i = 0; i < 100; ++i) {
        auto socket = std::make_unique<QTcpSocket>();
        socket->connectToHost(QStringLiteral("127.0.0.1"), server.port());
        REQUIRE(socket->waitForConnected(5000));
        // A parked long poll, then a pipelined send behind it: the answer to the poll and the queued read run
        // after the socket is gone.
        socket->write(request("Action=ReceiveMessage&WaitTimeSeconds=20&" + url)
            + request("Action=SendMessage&MessageBody=behind&" + url));
        socket->waitForBytesWritten(1000);
        clients.push_back(std::move(socket));
    }
    REQUIRE(QTest::qWaitFor([&] { return server.waitingPolls() + server.orphanedPolls() == 100; }, 5000));
    // Every other client goes away while parked; then messages arrive for all the polls at once.
    for (size_t i = 0; i < clients.size(); i += 2)
        clients[i]->abort();
    for (int i = 0; i < 100; ++i)
        owner.write(request("Action=SendMessage&MessageBody=m" + QByteArray::number(i) + "&" + url));
    // The rest go away mid-answer, without reading it.
    QTest::qWait(20);
    for (size_t i = 1; i < clients.size(); i += 2)
        clients[i]->abort();
    CHECK(QTest::qWaitFor([&] { return server.waitingPolls() == 0 && server.openConnections() == 1; }, 5000));
    // The server goes on.
    owner.readAll();
    CHECK(post(owner, "Action=GetQueueAttributes&AttributeName.1=All&" + url).startsWith("HTTP/1.1 200 OK"));
    server.stop();
}

TEST_CASE("endpoint: a client that half-closes after its request still gets the answer", "[endpoint][asan]")
{
    ui::EndpointOptions options;
    Served served(options);
    Engine& engine = served.engine;
    ui::EndpointServer& server = served.server;
    QTcpSocket owner;
    owner.connectToHost(QStringLiteral("127.0.0.1"), server.port());
    REQUIRE(owner.waitForConnected(5000));
    CHECK(post(owner, "Action=CreateQueue&QueueName=q").startsWith("HTTP/1.1 200 OK"));
    int answered = 0;
    for (int i = 0; i < 20; ++i) {
        QTcpSocket client;
        client.connectToHost(QStringLiteral("127.0.0.1"), server.port());
        REQUIRE(client.waitForConnected(5000));
        client.write(request("Action=SendMessage&QueueUrl=http%3A%2F%2F127.0.0.1%2F000000000000%2Fq&MessageBody=m"
            + QByteArray::number(i)));
        REQUIRE(client.waitForBytesWritten(1000));
        ::shutdown(int(client.socketDescriptor()), SHUT_WR); // legal TCP: "I have said all I will say"
        QByteArray response;
        (void)QTest::qWaitFor( // answered or not, it is counted below
            [&] {
                response += client.readAll();
                return response.contains("</SendMessageResponse>");
            },
            3000);
        answered += response.startsWith("HTTP/1.1 200 OK");
    }
    CHECK(answered == 20);
    CHECK(engine.messageCount() == 20);
    server.stop();
}

TEST_CASE("http server: a client that half-closes after its requests gets every answer, however late, then the close",
    "[endpoint][asan]")
{
    // The proxy's case: answers come from upstream long after the client's end of stream. Here they come 150 ms
    // after each request, through the layer both servers share.
    std::unique_ptr<ui::HttpServer> server;
    server = std::make_unique<ui::HttpServer>(
        ui::HttpServer::Identity { "test", '8', nullptr },
        [&](ui::HttpServer::ConnectionId id, endpoint::HttpRequest&& request) {
            QTimer::singleShot(150, server.get(), [&, id, body = request.body] {
                endpoint::HttpResponse response;
                response.body = "answer to " + body;
                server->answer(id, response, true);
            });
        },
        nullptr);
    ui::HttpServerOptions options;
    options.port = 0;
    REQUIRE(server->listen(options).ok());
    QTcpSocket client;
    connectTo(client, server->port());
    // Two requests pipelined, then the client's end of stream.
    client.write(request("first") + request("second"));
    REQUIRE(client.waitForBytesWritten(1000));
    ::shutdown(int(client.socketDescriptor()), SHUT_WR);
    QByteArray response;
    const bool closed = QTest::qWaitFor(
        [&] {
            response += client.readAll();
            return client.state() == QAbstractSocket::UnconnectedState;
        },
        3000);
    response += client.readAll();
    CHECK(closed); // owed nothing more, the connection closes
    CHECK(response.count("HTTP/1.1 200 OK") == 2);
    CHECK(response.indexOf("answer to first") >= 0);
    CHECK(response.indexOf("answer to first") < response.indexOf("answer to second"));
    CHECK(QTest::qWaitFor([&] { return server->openConnections() == 0; }, 1000));
}

TEST_CASE("http server: a client that half-closes mid-request is closed, owed nothing", "[endpoint][asan]")
{
    size_t requests = 0;
    ui::HttpServer server(
        { "test", '8', nullptr }, [&](ui::HttpServer::ConnectionId, endpoint::HttpRequest&&) { ++requests; }, nullptr);
    ui::HttpServerOptions options;
    options.port = 0;
    REQUIRE(server.listen(options).ok());
    QTcpSocket client;
    connectTo(client, server.port());
    client.write(request("whole").left(40));
    REQUIRE(client.waitForBytesWritten(1000));
    ::shutdown(int(client.socketDescriptor()), SHUT_WR);
    CHECK(QTest::qWaitFor([&] { return client.state() == QAbstractSocket::UnconnectedState; }, 3000));
    CHECK(QTest::qWaitFor([&] { return server.openConnections() == 0; }, 1000));
    CHECK(requests == 0);
}

TEST_CASE("endpoint: a body over the limit sent whole, without Expect, gets a 413 in SQS's error shape, not a reset",
    "[endpoint][asan]")
{
    ui::EndpointOptions options;
    options.limits
        = endpoint::HttpLimits { 16384, 1 << 20 }; // 1 MiB bodies: the test sends 32 MiB, more than the sockets buffer
    Served served(options);
    Engine& engine = served.engine;
    ui::EndpointServer& server = served.server;
    // The client sends from its own thread with blocking calls (fast, and it reads nothing before it has sent all,
    // as a simple client does); the server runs in this thread's event loop meanwhile.
    const auto sendOversized = [&](const QByteArray& head) {
        const QByteArray body(32 << 20, 'x');
        const QByteArray all = head + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
        std::atomic<bool> done { false };
        bool resetWhileSending = false;
        QByteArray response;
        std::thread client([&, port = server.port()] {
            const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in address {};
            address.sin_family = AF_INET;
            address.sin_port = htons(port);
            address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
                for (qsizetype sent = 0; sent < all.size();) {
                    const ssize_t n = ::send(fd, all.constData() + sent, size_t(all.size() - sent), MSG_NOSIGNAL);
                    if (n <= 0) {
                        resetWhileSending = true;
                        break;
                    }
                    sent += n;
                }
                timeval patience { 5, 0 };
                ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
                char buffer[65536];
                for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;)
                    response.append(buffer, n);
            }
            ::close(fd);
            done = true;
        });
        (void)QTest::qWaitFor([&] { return done.load(); }, 30000); // the checks below say what happened
        client.join();
        CHECK_FALSE(resetWhileSending);
        return response;
    };
    const QByteArray query
        = sendOversized("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n");
    CHECK(query.startsWith("HTTP/1.1 413 "));
    CHECK(query.contains("<Code>RequestEntityTooLarge</Code><Message>The request body is larger than 1048576 "
                         "bytes.</Message>"));
    const QByteArray json
        = sendOversized("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Amz-Target: AmazonSQS.SendMessage\r\n"
                        "Content-Type: application/x-amz-json-1.0\r\n");
    CHECK(json.startsWith("HTTP/1.1 413 "));
    CHECK(json.contains("\"__type\":\"com.amazonaws.sqs#RequestEntityTooLarge\""));
    CHECK(engine.messageCount() == 0);
    server.stop();
}

namespace {
// Reads until the server closes the connection (or `ms` pass); what came.
QByteArray readUntilClosed(QTcpSocket& socket, int ms)
{
    QByteArray data;
    (void)QTest::qWaitFor( // closed or not, the caller checks
        [&] {
            data += socket.readAll();
            return socket.state() == QAbstractSocket::UnconnectedState;
        },
        ms);
    return data + socket.readAll();
}
} // namespace

TEST_CASE("endpoint: a slow head or body gets 408, an idle connection closes, a parked long poll does not",
    "[endpoint][asan]")
{
    ui::EndpointOptions options;
    options.headerTimeoutMs = 200;
    options.bodyTimeoutMs = 300;
    options.idleTimeoutMs = 400;
    Served served(options);
    ui::EndpointServer& server = served.server;
    const auto connect = [&](QTcpSocket& socket) { connectTo(socket, server.port()); };
    QTcpSocket slowHead;
    connect(slowHead);
    slowHead.write("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"); // and nothing more
    const QByteArray head = readUntilClosed(slowHead, 3000);
    CHECK(head.startsWith("HTTP/1.1 408 "));
    CHECK(head.contains("<Code>RequestTimeout</Code><Message>The request&apos;s head did not arrive in time."));

    QTcpSocket slowBody;
    connect(slowBody);
    slowBody.write("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Amz-Target: AmazonSQS.ListQueues\r\nContent-Length: 100\r\n"
                   "\r\n{\"Queue");
    const QByteArray body = readUntilClosed(slowBody, 3000);
    CHECK(body.startsWith("HTTP/1.1 408 "));
    CHECK(body.contains("\"message\":\"The request's body did not arrive in time.\""));

    QTcpSocket idle;
    connect(idle);
    CHECK(post(idle, "Action=CreateQueue&QueueName=q").startsWith("HTTP/1.1 200 OK"));
    QElapsedTimer waited;
    waited.start();
    readUntilClosed(idle, 3000);
    CHECK(idle.state() == QAbstractSocket::UnconnectedState);
    CHECK(waited.elapsed() >= 300);

    // A long poll of 1 s outlives the 400 ms idle limit: it is waiting on SQS, not idle.
    QTcpSocket poller;
    connect(poller);
    const QByteArray answer
        = post(poller, "Action=ReceiveMessage&WaitTimeSeconds=1&QueueUrl=http%3A%2F%2F127.0.0.1%2F000000000000%2Fq");
    CHECK(answer.startsWith("HTTP/1.1 200 OK"));
    CHECK(answer.contains("<ReceiveMessageResult/>"));
    CHECK(server.timedOut() == 3);
    server.stop();
}

TEST_CASE("endpoint: out of file descriptors it stops accepting for a moment, says so once, and does not spin",
    "[endpoint][asan]")
{
    ui::EndpointOptions options;
    options.acceptPauseMs = 200;
    Served served(options);
    ui::EndpointServer& server = served.server;
    static QStringList warnings;
    warnings.clear();
    // The descriptor limit and the message handler are put back however the test ends (a failed REQUIRE throws).
    struct Restore {
        rlimit limit {};
        QtMessageHandler handler = nullptr;
        ~Restore()
        {
            setrlimit(RLIMIT_NOFILE, &limit);
            qInstallMessageHandler(handler);
        }
    } restore;
    REQUIRE(getrlimit(RLIMIT_NOFILE, &restore.limit) == 0);
    restore.handler
        = qInstallMessageHandler([](QtMsgType, const QMessageLogContext&, const QString& text) { warnings << text; });
    // Room for 45 more descriptors: 40 clients take 40 here (this process is both sides), the server gets 5.
    int open = 0;
    for (int fd = 0; fd < 4096; ++fd)
        open += fcntl(fd, F_GETFD) != -1;
    rlimit low = restore.limit;
    low.rlim_cur = rlim_t(open) + 45;
    REQUIRE(setrlimit(RLIMIT_NOFILE, &low) == 0);
    std::vector<std::unique_ptr<QTcpSocket>> clients;
    for (int i = 0; i < 40; ++i) {
        auto socket = std::make_unique<QTcpSocket>();
        socket->connectToHost(QStringLiteral("127.0.0.1"), server.port());
        if (!socket->waitForConnected(1000))
            break;
        clients.push_back(std::move(socket));
    }
    REQUIRE(clients.size() == 40);
    // Each refused accept pauses accepting for 200 ms: over a waited second (however long it really took) a few
    // refusals, where an accept loop that spins on the readable socket would count thousands.
    QElapsedTimer waited;
    waited.start();
    QTest::qWait(1000);
    CHECK(server.acceptFailures() >= 1);
    CHECK(server.acceptFailures() <= size_t(waited.elapsed() / 200 + 2));
    INFO("open " << open << " clients " << clients.size() << " accepted " << server.openConnections() << " warnings "
                 << warnings.join(QStringLiteral(" | ")).toStdString());
    CHECK(server.openConnections() < clients.size());
    // Slots free: the next client in the backlog is accepted and answered within a second or so.
    const size_t accepted = server.openConnections();
    REQUIRE(accepted > 0);
    REQUIRE(accepted < 30);
    for (size_t i = 0; i < accepted; ++i)
        clients[i]->abort();
    QTcpSocket& waiting = *clients[accepted];
    waiting.write(request("Action=ListQueues"));
    QByteArray response;
    const bool answered = QTest::qWaitFor(
        [&] {
            response += waiting.readAll();
            return response.contains("</ListQueuesResponse>");
        },
        3000);
    CHECK(answered);
    CHECK(warnings.filter(QStringLiteral("out of file descriptors")).size() == 1);
    server.stop();
}
