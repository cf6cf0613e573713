// One table of keys: the F1 dialog shows it and docs/window.md lists it, row for row; every key it names works.
#include "test_support.h"
#include "window/controllers/lesson_controller.h"
#include "window/main_window.h"
#include "window/panels/consumer_tiles.h"
#include "window/shortcut_table.h"

#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QTest>

using namespace lifeline;

TEST_CASE("keys: docs/window.md's table is the window's table, row for row", "[ui][keys]")
{
    QFile readme(QStringLiteral(LIFELINE_KEYS_DOC));
    REQUIRE(readme.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(readme.readAll());
    const QString table = ui::shortcutTableMarkdown();
    INFO("docs/window.md's table should read:\n" << table.toStdString());
    CHECK(text.contains(table));
    // The F1 dialog's names the keys the docs named missing before (adding and removing consumers, the filter).
    const QString html = ui::shortcutTableHtml();
    for (const char* key : { "Ctrl+Shift+A", "Ctrl+Shift+X", "Ctrl+F", "Ctrl+T", "F11", "Ctrl+Shift+C" })
        CHECK(html.contains(QLatin1String(key)));
    CHECK(html.count(QStringLiteral("<tr>")) == int(ui::shortcutTable().size()));
}

TEST_CASE("keys: Ctrl+T goes to the consumer tiles, their dock brought forward", "[ui][keys]")
{
    test::application();
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    REQUIRE(window.lessons()->openLesson(QStringLiteral("7")));
    QApplication::setActiveWindow(&window);
    auto* tiles = test::widget<ui::ConsumerTiles>(window, "consumerTiles");
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("consumersDock"));
    REQUIRE(dock != nullptr);
    QTest::keyClick(&window, Qt::Key_T, Qt::ControlModifier);
    CHECK(dock->isVisible());
    CHECK(tiles->isVisible());
    CHECK(tiles->hasFocus());
}
