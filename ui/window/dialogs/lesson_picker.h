// Every built-in lesson on the course's path, block by block with the learner's progress, and its texts beside, to
// pick one from (Lessons > All lessons..., Ctrl+L).
#pragma once

#include <QDialog>

class QListWidget;
class QTextBrowser;

namespace lifeline::ui {

class LessonPicker : public QDialog {
    Q_OBJECT
public:
    explicit LessonPicker(const QString& current = {}, QWidget* parent = nullptr);
    QString chosenId() const; // the lesson's id, empty when none
    QListWidget* list() const { return m_list; }

private:
    QListWidget* m_list;
    QTextBrowser* m_preview;
};

// A lesson's texts as the side panel shows them (HTML); the recap (what the lesson before taught, what this one asks)
// under the title.
QString lessonHtml(const QString& title, const QString& idea, const QString& watch, const QString& trap,
    const QString& fix, const QString& recap = {});
// The quick reference cards (teach::referenceCards): limits a run cannot show, under every lesson.
QString referenceCardsHtml();

} // namespace lifeline::ui
