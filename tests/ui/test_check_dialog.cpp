// File > Check a queue: the pasted attributes and the form make lifeline check's input, wrong input is said with
// its field, the findings come by severity with their text, and Show me opens a finding's scenario in the window.
#include "test_support.h"
#include "window/dialogs/check_dialog.h"
#include "window/main_window.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QFile>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>

using namespace lifeline;
using namespace lifeline::ui;

namespace {

QString ordersAttributes()
{
    QFile file(QStringLiteral(LIFELINE_CHECK_DATA_DIR "/orders-attributes.json"));
    REQUIRE(file.open(QIODevice::ReadOnly));
    return QString::fromUtf8(file.readAll());
}

void fill(CheckDialog& dialog, double p50, double p99)
{
    dialog.findChild<QDoubleSpinBox*>(QStringLiteral("p50"))->setValue(p50);
    dialog.findChild<QDoubleSpinBox*>(QStringLiteral("p99"))->setValue(p99);
    dialog.findChild<QSpinBox*>(QStringLiteral("consumers"))->setValue(4);
    dialog.findChild<QSpinBox*>(QStringLiteral("waitTime"))->setValue(20);
}

} // namespace

TEST_CASE("check dialog: wrong input names its field - findings by severity with the user's numbers", "[ui][check]")
{
    test::application();
    CheckDialog dialog;
    dialog.setAttributesText(QStringLiteral("{\"Attributes\": "));
    CHECK_FALSE(dialog.check());
    CHECK(dialog.errorText() == QStringLiteral("Queue attributes: not valid JSON"));

    dialog.setAttributesText(ordersAttributes());
    fill(dialog, 2, 1);
    CHECK_FALSE(dialog.check());
    CHECK(dialog.errorText() == QStringLiteral("processing.p99: 1s is below the p50 (2s)"));

    fill(dialog, 2, 40);
    CHECK(dialog.consumerSide()
        == nlohmann::json::parse(R"({"processing": {"p50": "2000ms", "p99": "40000ms"}, "consumers": 4,
            "maxMessages": 1, "waitTimeSeconds": 20})"));
    REQUIRE(dialog.check());
    CHECK(dialog.errorText().isEmpty());
    REQUIRE(dialog.findings().size() == 3);
    CHECK(dialog.findings()[0].id == "visibility-shorter-than-processing");
    CHECK(dialog.findings()[1].id == "no-dlq");
    CHECK(dialog.findings()[2].id == "message-size-old-default"); // the recorded queue's 262,144
    CHECK(dialog.detailText().startsWith(
        QStringLiteral("Processing takes 2s at p50 and 40s at p99, but the visibility timeout is 10s")));
    CHECK(dialog.detailText().endsWith(QStringLiteral(
        "Suggestion: Set VisibilityTimeout to 60 (one and a half times the p99), or extend it with a heartbeat while "
        "working.")));
    dialog.selectFinding(1);
    CHECK(dialog.detailText().startsWith(QStringLiteral("The queue has no dead-letter queue")));
}

TEST_CASE("check dialog: File > Check a queue - Show me opens the finding's scenario as a lesson", "[ui][check]")
{
    test::application();
    MainWindow window;
    QAction* action = nullptr;
    for (QAction* a : window.menuBar()->actions().front()->menu()->actions())
        if (a->text() == QStringLiteral("&Check a queue..."))
            action = a;
    REQUIRE(action != nullptr);
    action->trigger();
    auto* dialog = window.findChild<CheckDialog*>();
    REQUIRE(dialog != nullptr);
    CHECK(dialog->isVisible());
    dialog->setAttributesText(ordersAttributes());
    fill(*dialog, 2, 40);
    REQUIRE(dialog->check());
    QSignalSpy spy(dialog, &CheckDialog::showScenario);
    QPushButton* showMe = nullptr;
    for (auto* button : dialog->findChildren<QPushButton*>())
        if (button->text() == QStringLiteral("Show me"))
            showMe = button;
    REQUIRE(showMe != nullptr);
    CHECK(showMe->isEnabled());
    showMe->click();
    REQUIRE(spy.count() == 1);
    const auto scenario = spy.takeFirst().at(0).value<scenario::Scenario>();
    REQUIRE(scenario.lesson.has_value());
    CHECK(scenario.lesson->id == "visibility-shorter-than-processing");
    CHECK(window.windowTitle() == QStringLiteral("Lifeline - Check: visibility-shorter-than-processing"));
}
