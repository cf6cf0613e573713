// The window serving the local endpoint: a real HTTP client (a QTcpSocket on loopback) creates a queue and sends a
// message, and the message is a lane in the window. Waits in wall time, briefly, for the loopback round trips.
#include "http/endpoint_server.h"
#include "lifeline/engine/engine.h"
#include "loopback_client.h"
#include "test_support.h"
#include "timeline/lane_model.h"
#include "window/controllers/lesson_controller.h"
#include "window/controllers/live_source_controller.h"
#include "window/main_window.h"
#include "window/runtime/run_session.h"

#include <QAction>
#include <QTcpSocket>
#include <QTest>

using namespace lifeline;
using lifeline::test::application;
using lifeline::test::post;

TEST_CASE("window: the local endpoint serves a real client and its message is a lane", "[ui][endpoint]")
{
    application();
    ui::MainWindow window;
    ui::EndpointOptions options;
    options.port = 0; // any free port
    REQUIRE(window.liveSources()->startEndpoint(options).ok());
    REQUIRE(window.session()->endpoint() != nullptr);
    CHECK(window.session()->endpoint()->address().startsWith(QStringLiteral("http://127.0.0.1:")));
    CHECK_FALSE(window.session()->endpoint()->exposed());
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), window.session()->endpoint()->port());
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
            return window.laneModel()->lanesOfGroup(0).size() == 1 && window.laneModel()->shownActors().size() == 1;
        },
        2000));
    REQUIRE(window.laneModel()->shownActors().size() == 1);
    CHECK(window.laneModel()->actorName(window.laneModel()->shownActors().at(0))
        == QStringLiteral("test-client/1.0")); // a row per kind of client, not per connection
    window.liveSources()->stop();
    CHECK(window.session()->endpoint() == nullptr);
    CHECK(window.laneModel()->lanesOfGroup(0).size() == 1); // the run stays on screen
    // Nothing simulates it any more: Play, Step and Restart have nothing to move, until a lesson runs again.
    for (const char* name : { "play", "step", "restart" })
        CHECK_FALSE(test::widget<QAction>(window, name)->isEnabled());
    REQUIRE(window.lessons()->openLesson(QStringLiteral("1")));
    for (const char* name : { "play", "step", "restart" })
        CHECK(test::widget<QAction>(window, name)->isEnabled());
}
