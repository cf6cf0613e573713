#include "window/shortcut_table.h"

#include <QCoreApplication>

namespace lifeline::ui {

const std::vector<ShortcutRow>& shortcutTable()
{
    static const std::vector<ShortcutRow> rows {
        { QT_TRANSLATE_NOOP("Keys", "play / pause, step, restart"),
            "Space, Right, Ctrl+R (toolbar and Simulation menu)" },
        { QT_TRANSLATE_NOOP("Keys", "slower / faster"), "[ / ]" },
        { QT_TRANSLATE_NOOP("Keys", "zoom around the cursor"), "Ctrl+wheel, or W / S" },
        { QT_TRANSLATE_NOOP("Keys", "back to the previous zoom"), "Backspace, Alt+Left" },
        { QT_TRANSLATE_NOOP("Keys", "pan"),
            "A / D, drag, or Shift+wheel (stops following live; L or \"Follow live\" resumes)" },
        { QT_TRANSLATE_NOOP("Keys", "scroll lanes"), "wheel" },
        { QT_TRANSLATE_NOOP("Keys", "see a segment's times and cause"), "hover" },
        { QT_TRANSLATE_NOOP("Keys", "a message's whole history"),
            "click its lane, or Up / Down (Esc clears); . and , step through its events (or Left / Right); Enter "
            "tells its story in the status bar; F centres it, F again fits the run" },
        { QT_TRANSLATE_NOOP("Keys", "the message a consumer worked on"),
            "click its work box: arrows from its receives" },
        { QT_TRANSLATE_NOOP("Keys", "crash / restart a consumer"),
            "click its tile or its lane (off a work box); or Ctrl+T to the tiles, arrows, Enter" },
        { QT_TRANSLATE_NOOP("Keys", "every panel (the engineering layout) or the lesson's alone"),
            "F9 (View → Engineering layout)" },
        { QT_TRANSLATE_NOOP("Keys", "the lesson's key moments"),
            "N / Shift+N, or click a pin or the lesson panel's list" },
        { QT_TRANSLATE_NOOP("Keys", "compare the lesson with its fix"), "Ctrl+Shift+B (View menu)" },
        { QT_TRANSLATE_NOOP(
              "Keys", "presenter mode: the timeline alone, 1.6× larger, the moment's caption and a big clock"),
            "F11 (Space play, → / ← moments, C crash, 1-9 crash or restart consumer N, R replay, L back to the live "
            "edge, Esc leave; what a key did is said on the stage; the clock stops where the story ends)" },
        { QT_TRANSLATE_NOOP("Keys", "copy the timeline for a slide (twice the view's size)"), "Ctrl+Shift+C" },
        { QT_TRANSLATE_NOOP("Keys", "measure a time range"), "Shift+drag, or drag on the ruler" },
        { QT_TRANSLATE_NOOP("Keys", "filter lanes"),
            "Ctrl+F: MessageId prefix, body text, FIFO group or a consumer's name, and a state" },
        { QT_TRANSLATE_NOOP("Keys", "send a message, add / remove a consumer"), "Ctrl+M, Ctrl+Shift+A, Ctrl+Shift+X" },
        { QT_TRANSLATE_NOOP("Keys", "lessons, apply the fix"), "Ctrl+L, Ctrl+Shift+F" },
        { QT_TRANSLATE_NOOP("Keys", "practice: fix a broken setup and have it checked"),
            "Ctrl+Shift+P (Lessons → Practice)" },
        { QT_TRANSLATE_NOOP("Keys", "dark theme"), "Ctrl+Shift+D (the timeline, charts and exports follow)" },
        { QT_TRANSLATE_NOOP("Keys", "high contrast: white on black, neighbouring states apart by a gap"),
            "Ctrl+Shift+H (View menu; images and animations follow)" },
        { QT_TRANSLATE_NOOP("Keys", "open / save a scenario, open / save a run"),
            "Ctrl+O, Ctrl+Shift+S, Ctrl+Shift+O, Ctrl+S" },
        { QT_TRANSLATE_NOOP("Keys", "export"),
            "Ctrl+E: one dialog for PNG, SVG, PDF, GIF and MP4 (size, what to draw, a preview; an animation replays "
            "the "
            "run as played, your crashes, settings and messages at their instants, or the lesson's script as written); "
            "Ctrl+Shift+E: the view "
            "as a 1920x1080 slide next to the last export; File → Export trace (opens in ui.perfetto.dev), Export "
            "CSV" },
        { QT_TRANSLATE_NOOP("Keys", "this table"), "F1 (Help → Keys and mouse)" },
    };
    return rows;
}

QString shortcutTableHtml()
{
    QString html = QStringLiteral("<table cellpadding=3>");
    for (const ShortcutRow& row : shortcutTable())
        html += QStringLiteral("<tr><td>%1</td><td><b>%2</b></td></tr>")
                    .arg(QCoreApplication::translate("Keys", row.what).toHtmlEscaped(),
                        QString::fromUtf8(row.keys).toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

QString shortcutTableMarkdown()
{
    QString markdown = QStringLiteral("| to | do |\n|---|---|\n");
    for (const ShortcutRow& row : shortcutTable()) {
        // Keys with a character markdown would read ("[", "]", ".", ",") are code in the README.
        QString keys = QString::fromUtf8(row.keys);
        keys.replace(QStringLiteral("[ / ]"), QStringLiteral("`[` / `]`"));
        keys.replace(QStringLiteral("; . and , step"), QStringLiteral("; `.` and `,` step"));
        markdown += QStringLiteral("| %1 | %2 |\n").arg(QString::fromUtf8(row.what), keys);
    }
    return markdown;
}

} // namespace lifeline::ui
