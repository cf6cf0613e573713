#include "window/dialogs/start_page.h"

#include "lifeline/teach/course.h"
#include "lifeline/teach/lessons.h"

#include <QCommandLinkButton>
#include <QFontInfo>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

namespace lifeline::ui {

const std::vector<const char*>& StartPage::doorLessons()
{
    static const std::vector<const char*> lessons { "delay-queue", "consumer-crash", "poison-pill" };
    return lessons;
}

StartPage::StartPage(QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("startPage"));
    setWindowTitle(tr("Welcome to Lifeline"));
    auto* layout = new QVBoxLayout(this);
    layout->setSpacing(10);
    auto* question = new QLabel(tr("When does a message disappear, and why?"), this);
    QFont big = question->font();
    big.setPixelSize(std::max(22, QFontInfo(big).pixelSize() * 2));
    big.setBold(true);
    question->setFont(big);
    question->setWordWrap(true);
    layout->addWidget(question);
    auto* lead = new QLabel(tr("A delay hides a message before anyone has received it: \"not yet\". The visibility "
                               "timeout hides it after a consumer received it: \"someone is working on this\". "
                               "Pick a door: the lesson plays and stops at each key moment (Space goes on), with "
                               "the fix beside it."),
        this);
    lead->setWordWrap(true);
    layout->addWidget(lead);
    const QString doorWords[] = {
        tr("Delay or visibility timeout? Watch a message wait before anyone has it."),
        tr("A consumer crashes: its message comes back after the timeout."),
        tr("A message that always fails: poison, retries and the dead-letter queue."),
    };
    for (size_t i = 0; i < doorLessons().size(); ++i) {
        const auto* lesson = teach::findLesson(doorLessons()[i]);
        if (!lesson || !lesson->scenario.lesson)
            continue;
        const auto& text = *lesson->scenario.lesson;
        QString where = tr("Lesson %1").arg(text.number);
        if (const auto place = teach::placeInCourse(text.id))
            where = tr("Lesson %1 (%2, %3 of %4)")
                        .arg(text.number)
                        .arg(QString::fromStdString(place->block->title))
                        .arg(place->position)
                        .arg(place->block->steps.size());
        auto* door
            = new QCommandLinkButton(doorWords[i], tr("%1: %2").arg(where, QString::fromStdString(text.title)), this);
        door->setObjectName(QStringLiteral("door%1").arg(i + 1));
        const QString id = QString::fromLatin1(doorLessons()[i]);
        connect(door, &QCommandLinkButton::clicked, this, [this, id] {
            accept();
            emit doorChosen(id);
        });
        layout->addWidget(door);
    }
    auto* all = new QPushButton(
        tr("All %1 lessons, in %2 blocks...").arg(teach::builtinLessons().size()).arg(teach::courseBlocks().size()),
        this);
    all->setObjectName(QStringLiteral("allLessons"));
    connect(all, &QPushButton::clicked, this, [this] {
        accept();
        emit lessonListChosen();
    });
    auto* row = new QHBoxLayout;
    row->addStretch();
    row->addWidget(all);
    layout->addLayout(row);
    resize(640, 460);
}

} // namespace lifeline::ui
