// The window's keys and mouse gestures, one table: Help > Keys and mouse (F1) shows it, and the README's table is held
// to it by a test (tests/ui/test_shortcut_table.cpp prints the README's rows when they differ).
#pragma once

#include <QString>
#include <vector>

namespace lifeline::ui {

struct ShortcutRow {
    const char* what; // what the user wants to do
    const char* keys; // the keys or gestures that do it
};

const std::vector<ShortcutRow>& shortcutTable();
QString shortcutTableHtml(); // for the F1 dialog
QString shortcutTableMarkdown(); // the README's table, header included

} // namespace lifeline::ui
