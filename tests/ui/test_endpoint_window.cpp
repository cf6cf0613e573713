// The window serving the local endpoint: a real HTTP client (a QTcpSocket on loopback) creates a queue and sends a
// message, and the message is a lane in the window. Waits in wall time, briefly, for the loopback round trips.
#include "endpoint_server.h"
#include "lane_model.h"
#include "lifeline/engine.h"
#include "main_window.h"
#include "test_support.h"

#include <QTcpSocket>
#include <QTest>

using namespace lifeline;
using lifeline::test::application;

namespace {
QByteArray post(QTcpSocket& socket, const QByteArray& form)
{
    socket.write("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: test-client/1.0\r\nContent-Type: "
                 "application/x-www-form-urlencoded\r\nContent-Length: "
        + QByteArray::number(form.size()) + "\r\n\r\n" + form);
    QByteArray response;
    const bool complete = QTest::qWaitFor(
        [&] {
            response += socket.readAll();
            const int end = response.indexOf("\r\n\r\n");
            if (end < 0)
                return false;
            const int at = response.indexOf("Content-Length: ");
            return response.size() >= end + 4 + response.mid(at + 16, response.indexOf('\r', at) - at - 16).toInt();
        },
        5000);
    CHECK(complete);
    return response;
}
} // namespace

TEST_CASE("window: the local endpoint serves a real client and its message is a lane", "[ui][endpoint]")
{
    application();
    ui::MainWindow window;
    ui::EndpointOptions options;
    options.port = 0; // any free port
    QString error;
    REQUIRE(window.startEndpoint(options, &error));
    REQUIRE(window.endpoint() != nullptr);
    CHECK(window.endpoint()->address().startsWith(QStringLiteral("http://127.0.0.1:")));
    CHECK_FALSE(window.endpoint()->exposed());
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), window.endpoint()->port());
    REQUIRE(socket.waitForConnected(5000));
    const QByteArray created = post(socket, "Action=CreateQueue&QueueName=live");
    CHECK(created.startsWith("HTTP/1.1 200 OK"));
    CHECK(created.contains("<QueueUrl>http://127.0.0.1/000000000000/live</QueueUrl>"));
    const QByteArray sent = post(socket,
        "Action=SendMessage&QueueUrl=http%3A%2F%2F127.0.0.1%2F000000000000%2Flive"
        "&MessageBody=hello");
    CHECK(sent.contains("<MD5OfMessageBody>5d41402abc4b2a76b9719d911017c592</MD5OfMessageBody>"));
    const QByteArray received
        = post(socket, "Action=ReceiveMessage&QueueUrl=http%3A%2F%2F127.0.0.1%2F000000000000%2Flive");
    CHECK(received.contains("<Body>hello</Body>"));
    // A later frame shows it: one lane in the queue's group, the client's lane among the actors. Wait for both: a
    // frame between the send and the receive may already have drawn the message's lane but not yet the receiver.
    CHECK(QTest::qWaitFor(
        [&] {
            return window.laneModel()->rowCount(window.laneModel()->index(0, 0)) == 1
                && window.laneModel()->rowCount(window.laneModel()->actorGroup()) == 1;
        },
        2000));
    REQUIRE(window.laneModel()->rowCount(window.laneModel()->actorGroup()) == 1);
    CHECK(window.laneModel()
              ->data(window.laneModel()->index(0, 0, window.laneModel()->actorGroup()))
              .toString()
              .endsWith(QStringLiteral(" test-client/1.0")));
    window.stopEndpoint();
    CHECK(window.endpoint() == nullptr);
    CHECK(window.laneModel()->rowCount(window.laneModel()->index(0, 0)) == 1); // the run stays on screen
}

TEST_CASE("endpoint: clients gone mid-response and mid-poll - the server goes on and the poll receives for nobody",
    "[ui][endpoint]")
{
    application();
    Engine engine;
    ui::EndpointServer server(engine);
    ui::EndpointOptions options;
    options.port = 0;
    options.speed = 20; // a 1 s visibility timeout passes in 50 ms of wall time
    REQUIRE(server.start(options));
    const auto connect = [&](QTcpSocket& socket) {
        socket.connectToHost(QStringLiteral("127.0.0.1"), server.port());
        REQUIRE(socket.waitForConnected(5000));
    };
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
            nobody = server.actorNames().at(e.actor).ends_with(" waiter/1.0");
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
