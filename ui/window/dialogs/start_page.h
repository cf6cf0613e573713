// The first start: the seed's question ("When does a message disappear, and why?") and three doors, each a lesson
// that answers part of it (delay against visibility, a consumer crash, poison messages and the DLQ). A door opens
// its lesson playing with a stop at each key moment, and Compare with the fix beside it; the lesson list is one
// click away. Lessons > Start page brings it back.
#pragma once

#include <QDialog>
#include <vector>

namespace lifeline::ui {

class StartPage : public QDialog {
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);

    // The doors' lessons, in order.
    static const std::vector<const char*>& doorLessons();

signals:
    void doorChosen(const QString& lessonId);
    void lessonListChosen();
};

} // namespace lifeline::ui
