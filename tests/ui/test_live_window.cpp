// Live mode: while real clients drive the run (the local endpoint, the recording proxy) the toolbar says so and the
// Queue panel changes the served queue through SQS calls, showing SQS's answers. The proxy case runs a real HTTP
// client through the proxy to an endpoint in this process; it waits in wall time, briefly, for loopback round trips.
#include "http/endpoint_server.h"
#include "http/proxy_server.h"
#include "http/trace_receiver.h"
#include "lifeline/engine/engine.h"
#include "loopback_client.h"
#include "test_support.h"
#include "timeline/lane_model.h"
#include "window/controllers/lesson_controller.h"
#include "window/controllers/live_source_controller.h"
#include "window/main_window.h"
#include "window/panels/live_queue_panel.h"
#include "window/panels/queue_controls.h"
#include "window/runtime/run_session.h"

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStatusBar>
#include <QTcpSocket>
#include <QTest>

using namespace lifeline;
using lifeline::test::application;
using lifeline::test::post;

TEST_CASE("window: live mode says Live - fixes the speed to the endpoint's - and gives the controls back", "[ui][live]")
{
    application();
    ui::MainWindow window;
    REQUIRE(window.lessons()->openLesson(QStringLiteral("1")));
    // Lesson 1's two minutes at 5×: its story in 24 s of wall time.
    CHECK(test::widget<QComboBox>(window, "speed")->currentText() == QStringLiteral("5×"));
    ui::EndpointOptions options;
    options.port = 0;
    options.speed = 30;
    REQUIRE(window.liveSources()->startEndpoint(options).ok());
    CHECK(test::widget<QAction>(window, "play")->text() == QStringLiteral("● Live"));
    CHECK_FALSE(test::widget<QAction>(window, "play")->isEnabled());
    CHECK(test::widget<QComboBox>(window, "speed")->currentText() == QStringLiteral("30×"));
    CHECK_FALSE(test::widget<QComboBox>(window, "speed")->isEnabled());
    CHECK(test::widget<ui::LiveQueuePanel>(window, "liveQueue")->isVisibleTo(&window));
    CHECK_FALSE(test::widget<ui::QueueControls>(window, "queueControls")->isVisibleTo(&window));
    window.liveSources()->stop();
    // The endpoint's run stays on screen with nothing simulating it: Play waits for the next simulation.
    CHECK_FALSE(test::widget<QAction>(window, "play")->isEnabled());
    CHECK(test::widget<QComboBox>(window, "speed")->currentText()
        == QStringLiteral("5×")); // the simulation's speed is back
    CHECK(test::widget<QComboBox>(window, "speed")->isEnabled());
    CHECK(test::widget<ui::QueueControls>(window, "queueControls")->isVisibleTo(&window));
    CHECK_FALSE(test::widget<ui::LiveQueuePanel>(window, "liveQueue")->isVisibleTo(&window));
}

TEST_CASE(
    "window: the live Queue panel sets the served queue's attributes and sends - with SQS's answers", "[ui][live]")
{
    application();
    ui::MainWindow window;
    ui::EndpointOptions options;
    options.port = 0;
    REQUIRE(window.liveSources()->startEndpoint(options).ok());
    REQUIRE_FALSE(window.session()->endpoint()->operatorCall("CreateQueue", { { "QueueName", "jobs" } }).error);
    ui::LiveQueuePanel* panel = test::widget<ui::LiveQueuePanel>(window, "liveQueue");
    panel->sync();
    REQUIRE(panel->queue() == QStringLiteral("jobs"));
    CHECK(panel->visibility()->value() == 30); // as the service has it
    panel->visibility()->setValue(45);
    panel->applyButton()->click();
    CHECK(panel->answer()->text() == QStringLiteral("SetQueueAttributes VisibilityTimeout=45 on jobs: OK"));
    const RunView& engine = *window.laneModel()->run();
    CHECK(engine.queueAttributes(*engine.queueIndex("jobs"))->visibilityTimeout == 45);

    panel->body()->setText(QStringLiteral("hello"));
    panel->sendButton()->click();
    CHECK(panel->answer()->text() == QStringLiteral("SendMessage to jobs: OK"));
    REQUIRE(engine.messageCount() == 1);
    CHECK(engine.message(0).body == "hello");
    CHECK(engine.log()[engine.log().size() - 1].actor == kOperatorActor);

    panel->body()->setText(QString(QChar(0x01))); // a character SQS refuses in a body
    panel->sendButton()->click();
    CHECK(panel->answer()->text().startsWith(QStringLiteral("SendMessage to jobs: InvalidMessageContents: ")));
    CHECK(engine.messageCount() == 1);
}

TEST_CASE("window: a test's reset of the endpoint shows a new run - the same server - a new id group", "[ui][live]")
{
    application();
    ui::MainWindow window;
    ui::EndpointOptions options;
    options.port = 0;
    options.manualClock = true;
    options.seed = 7;
    REQUIRE(window.liveSources()->startEndpoint(options).ok());
    ui::EndpointServer* server = window.session()->endpoint();
    QTcpSocket socket;
    test::connectTo(socket, server->port());
    CHECK(post(socket, "Action=CreateQueue&QueueName=jobs").contains("<QueueUrl>"));
    const QByteArray url = QByteArray::fromStdString(server->queueUrl("jobs"));
    const QByteArray sent = post(socket, "Action=SendMessage&QueueUrl=" + url + "&MessageBody=first");
    const QByteArray firstId = sent.mid(sent.indexOf("<MessageId>") + 11, 36);
    test::exchange(socket,
        "POST /_lifeline/clock/advance HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 13\r\n\r\n{\"by\": \"30s\"}");
    REQUIRE(window.laneModel()->run()->messageCount() == 1);

    const QByteArray reset = test::exchange(socket, "POST /_lifeline/reset HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    CHECK(reset.startsWith("HTTP/1.1 200"));
    CHECK(reset.endsWith(R"({"manual":true,"now_ms":0,"paused":false,"speed":1.0,"waiting":{}})"));
    CHECK(window.session()->endpoint() == server); // still serving, on the same port
    const RunView& fresh = *window.laneModel()->run();
    CHECK(fresh.messageCount() == 0);
    CHECK(fresh.queueCount() == 0);
    CHECK(fresh.now() == 0);
    CHECK(test::widget<QAction>(window, "play")->text().startsWith(QStringLiteral("● Live"))); // and its clock
    CHECK(post(socket, "Action=CreateQueue&QueueName=jobs").contains("<QueueUrl>"));
    const QByteArray again = post(socket, "Action=SendMessage&QueueUrl=" + url + "&MessageBody=second");
    CHECK(again.mid(again.indexOf("<MessageId>") + 11, 36) != firstId); // a new id group, as a restart gives
    window.laneModel()->sync();
    CHECK(window.laneModel()->run()->messageCount() == 1);
    CHECK(window.laneModel()->run()->message(0).body == "second");
}

TEST_CASE("window: the recording proxy draws what a real client does through it - its Queue panel goes upstream",
    "[ui][live][proxy]")
{
    application();
    Engine upstreamEngine;
    ui::EndpointServer upstream(upstreamEngine);
    ui::EndpointOptions upstreamOptions;
    upstreamOptions.port = 0;
    REQUIRE(upstream.start(upstreamOptions).ok());

    ui::MainWindow window;
    ui::ProxyOptions options;
    options.port = 0;
    options.upstream = aws::Upstream { false, "127.0.0.1", upstream.port(), "" };
    options.credentials = { "AKIAUITEST", "ui-secret", "" };
    options.pollAttributesMs = 0;
    options.idleTimeoutMs = 300;
    options.headerTimeoutMs = 300;
    REQUIRE(window.liveSources()->startProxy(options).ok());
    CHECK(test::widget<QAction>(window, "play")->text() == QStringLiteral("● Live"));
    CHECK(test::widget<QComboBox>(window, "speed")->currentText() == QStringLiteral("1×"));

    QTcpSocket socket;
    lifeline::test::connectTo(socket, window.session()->proxy()->port());
    CHECK(post(socket, "Action=CreateQueue&QueueName=orders").contains("<QueueUrl>"));
    const QByteArray url = "http%3A%2F%2F127.0.0.1%2F000000000000%2Forders";
    CHECK(post(socket, "Action=SendMessage&QueueUrl=" + url + "&MessageBody=through").contains("<MessageId>"));
    CHECK(post(socket, "Action=ReceiveMessage&QueueUrl=" + url).contains("<Body>through</Body>"));
    CHECK(QTest::qWaitFor(
        [&] {
            const RunView* seen = window.laneModel()->run();
            return seen->messageCount() == 1 && seen->message(0).state == MessageState::InFlight
                && window.laneModel()->shownActors().size() == 1;
        },
        3000));
    CHECK(window.laneModel()
              ->actorName(window.laneModel()->shownActors().at(0))
              .startsWith(QStringLiteral("test-client/1.0")));

    ui::LiveQueuePanel* panel = test::widget<ui::LiveQueuePanel>(window, "liveQueue");
    panel->sync();
    REQUIRE(panel->queue() == QStringLiteral("orders"));
    panel->visibility()->setValue(7);
    panel->applyButton()->click();
    CHECK(QTest::qWaitFor([&] { return !panel->answer()->text().isEmpty(); }, 3000));
    CHECK(panel->answer()->text() == QStringLiteral("SetQueueAttributes VisibilityTimeout=7 on orders: OK"));
    CHECK(upstreamEngine.queueAttributes(*upstreamEngine.queueIndex("orders"))->visibilityTimeout == 7);
    // A client that connects and says nothing is closed after the idle timeout; the proxy goes on.
    QTcpSocket idle;
    lifeline::test::connectTo(idle, window.session()->proxy()->port());
    CHECK(QTest::qWaitFor([&] { return idle.state() == QAbstractSocket::UnconnectedState; }, 3000));
    // A head that stalls gets SQS's 408, in the endpoint's words: one connection layer serves both.
    QTcpSocket slow;
    lifeline::test::connectTo(slow, window.session()->proxy()->port());
    slow.write("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    QByteArray late;
    CHECK(QTest::qWaitFor(
        [&] {
            late += slow.readAll();
            return slow.state() == QAbstractSocket::UnconnectedState;
        },
        3000));
    late += slow.readAll();
    CHECK(late.startsWith("HTTP/1.1 408 "));
    CHECK(late.contains("<Code>RequestTimeout</Code><Message>The request&apos;s head did not arrive in "
                        "time.</Message>"));
    // The proxy's own RequestIds: its group digit 9, the first group this run's own.
    CHECK(QRegularExpression(QStringLiteral("<RequestId>[0-9a-f]{8}-0000-4000-9000-[0-9a-f]{12}</RequestId>"))
              .match(QString::fromUtf8(late))
              .hasMatch());
    window.liveSources()->stop();
    CHECK(window.session()->proxy() == nullptr);
    CHECK_FALSE(test::widget<QAction>(window, "play")->isEnabled()); // the observed run stays, with nothing to play
}

TEST_CASE("window: traces received live - a POST's spans drawn as a lane, no Queue panel of calls, Send and a refusal "
          "said in the status bar",
    "[ui][live]")
{
    application();
    ui::MainWindow window;
    ui::TraceReceiverOptions options;
    options.port = 0;
    REQUIRE(window.liveSources()->startTraces(options, {}, 0).ok()); // no lag: each call played as it comes
    CHECK(test::widget<QAction>(window, "play")->text() == QStringLiteral("● Live"));
    CHECK_FALSE(test::widget<ui::LiveQueuePanel>(window, "liveQueue")->isVisibleTo(&window));
    CHECK_FALSE(test::widget<ui::QueueControls>(window, "queueControls")->isVisibleTo(&window));
    ui::TraceReceiver* receiver = window.session()->traceReceiver();
    REQUIRE(receiver);
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, receiver->port());
    REQUIRE(socket.waitForConnected(5000));
    const QByteArray sent = QByteArray::number((QDateTime::currentMSecsSinceEpoch() - 1000) * 1000000);
    const QByteArray body = R"({"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":)"
                            R"({"stringValue":"billing"}}]},"scopeSpans":[{"scope":{"name":"test"},"spans":[{)"
                            R"("traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203301","name":)"
                            R"("orders send","kind":4,"startTimeUnixNano":")"
        + sent + R"(","endTimeUnixNano":")" + sent + R"(","attributes":[)"
        + R"({"key":"messaging.system","value":{"stringValue":"aws.sqs"}},)"
        + R"({"key":"messaging.destination","value":{"stringValue":"orders"}},)"
        + R"({"key":"messaging.operation","value":{"stringValue":"send"}},)"
        + R"({"key":"messaging.message_id","value":{"stringValue":"5fea7756-0ea4-451a-a703-a558b933e274"}}]}]}]}]})";
    const auto request = [&](const QByteArray& type, const QByteArray& content) {
        return "POST /v1/traces HTTP/1.1\r\nHost: localhost\r\nContent-Type: " + type
            + "\r\nContent-Length: " + QByteArray::number(content.size()) + "\r\n\r\n" + content;
    };
    CHECK(test::exchange(socket, request("application/json", body)).startsWith("HTTP/1.1 200"));
    CHECK(QTest::qWaitFor([&] { return window.session()->run()->messageCount() == 1; }, 5000));
    CHECK(window.session()->run()->queueInfo(0).name == "orders");
    CHECK(test::exchange(socket, request("application/x-protobuf", "x")).startsWith("HTTP/1.1 415"));
    CHECK(window.statusBar()->currentMessage().startsWith(
        QStringLiteral("Refused POST /v1/traces: Lifeline reads OTLP/HTTP in JSON, not protobuf")));
    CHECK(window.liveSources()->answerSend());
    CHECK(window.statusBar()->currentMessage()
        == QStringLiteral("Traced calls went to a real SQS: nothing is sent from here."));
    window.liveSources()->stop();
    CHECK(window.statusBar()->currentMessage()
        == QStringLiteral("Traces are no longer received; their run stays on screen."));
    CHECK(window.session()->run()->messageCount() == 1);
    CHECK_FALSE(window.liveSources()->answerSend()); // no live source: the window's own dialog answers
}
