// The glossary's links in lesson and exercise texts: [[in flight]] becomes an anchor to "glossary:in-flight", and the
// anchor's definition shows as a tooltip where the learner points at it or activates it.
#pragma once

#include <QString>
#include <string>

class QLabel;
class QTextBrowser;

namespace lifeline::ui {

// Long CamelCase names (SQS's attribute and metric names) made breakable at their words, for narrow panels.
QString breakableNames(QString text);

QString htmlWithGlossaryLinks(const std::string& text); // escaped HTML, each link an anchor
QString withoutGlossaryLinks(const std::string& text); // the words alone, for plain text (tooltips, lists)
QString glossaryDefinitionHtml(const QString& link); // "<b>in flight</b>: ..."; empty for any other link

// Shows a link's definition as a tooltip when it is hovered or activated.
void showGlossaryOnLinks(QLabel* label);
void showGlossaryOnLinks(QTextBrowser* browser);

} // namespace lifeline::ui
