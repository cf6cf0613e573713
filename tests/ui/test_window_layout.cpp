// The learning layout: a lesson opens on the timeline, its caption, the lesson panel and the controls it names; the
// engineering docks and controls come back with F9 (View > Engineering layout), and Ctrl+F brings the lane filter.
#include "test_support.h"
#include "window/controllers/lesson_controller.h"
#include "window/main_window.h"
#include "window/runtime/live_driver.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QTest>

using namespace lifeline;
using lifeline::test::application;

namespace {
bool dockShown(ui::MainWindow& window, const char* name)
{
    auto* dock = window.findChild<QDockWidget*>(QLatin1String(name));
    REQUIRE(dock != nullptr);
    return dock->isVisible();
}

// The queue controls' rows by the widget a row holds, as a learner sees them.
bool rowShown(ui::MainWindow& window, QWidget* field)
{
    return field->isVisibleTo(&window);
}
} // namespace

TEST_CASE("layout: a lesson opens in the learning layout - F9 brings every panel back and takes them away again",
    "[ui][layout]")
{
    application();
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    REQUIRE(window.lessons()->openLesson(QStringLiteral("8")));
    window.driver()->pause();
    QApplication::processEvents();
    auto* engineering = window.findChild<QAction*>(QStringLiteral("engineeringLayout"));
    REQUIRE(engineering != nullptr);
    CHECK_FALSE(engineering->isChecked());
    CHECK(dockShown(window, "lessonDock"));
    CHECK(dockShown(window, "queueDock"));
    CHECK(dockShown(window, "consumersDock"));
    CHECK_FALSE(dockShown(window, "messageDock"));
    CHECK_FALSE(dockShown(window, "chartsDock"));
    CHECK_FALSE(dockShown(window, "eventLogDock"));
    auto* filter = window.findChild<QLineEdit*>(QStringLiteral("laneFilter"));
    REQUIRE(filter != nullptr);
    CHECK_FALSE(filter->isVisibleTo(&window));
    // Lesson 8 is about the visibility timeout: its sliders stay, the queue selector and the producer rate go.
    auto* queue = test::widget<QComboBox>(window, "queueSelector");
    CHECK_FALSE(rowShown(window, queue));

    QTest::keyClick(&window, Qt::Key_F9);
    QApplication::processEvents();
    CHECK(engineering->isChecked());
    for (const char* dock : { "lessonDock", "queueDock", "consumersDock", "messageDock", "chartsDock", "eventLogDock" })
        CHECK(dockShown(window, dock));
    CHECK(filter->isVisibleTo(&window));
    CHECK(rowShown(window, queue));

    QTest::keyClick(&window, Qt::Key_F9);
    QApplication::processEvents();
    CHECK_FALSE(engineering->isChecked());
    CHECK_FALSE(dockShown(window, "eventLogDock"));
    CHECK_FALSE(filter->isVisibleTo(&window));
    // Ctrl+F brings the lane filter back, focused, without the rest.
    QTest::keyClick(&window, Qt::Key_F, Qt::ControlModifier);
    QApplication::processEvents();
    CHECK(filter->isVisibleTo(&window));
    CHECK_FALSE(dockShown(window, "eventLogDock"));
}

TEST_CASE("layout: a lesson whose fix changes the wait time or the queue's type keeps that control", "[ui][layout]")
{
    application();
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    const auto opened = [&](const char* id) {
        REQUIRE(window.lessons()->openLesson(QLatin1String(id)));
        window.driver()->pause();
        QApplication::processEvents();
    };
    auto* wait = window.findChild<QWidget*>(QStringLiteral("waitTimeSlider"));
    auto* type = window.findChild<QWidget*>(QStringLiteral("queueType"));
    auto* visibility = window.findChild<QWidget*>(QStringLiteral("visibilitySlider"));
    REQUIRE(wait);
    REQUIRE(type);
    REQUIRE(visibility);
    opened("8"); // its fix: the VisibilityTimeout
    CHECK(rowShown(window, visibility));
    CHECK_FALSE(rowShown(window, wait));
    CHECK_FALSE(rowShown(window, type));
    opened("11"); // its fix: the consumers' WaitTimeSeconds
    CHECK(rowShown(window, wait));
    CHECK_FALSE(rowShown(window, type));
    opened("17"); // its fix: a FIFO queue
    CHECK(rowShown(window, type));
    CHECK_FALSE(rowShown(window, wait));
}
