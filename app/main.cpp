// lifeline: the window, or a headless command. Headless commands never create a QApplication, so they run
// with no display at all.
#include "cli.h"
#include "demo.h"
#include "lifeline/engine.h"
#include "lifeline/sim/lessons.h"
#include "lifeline/sim/simulation.h"
#include "live_driver.h"
#include "main_window.h"

#include <QApplication>
#include <cstring>
#include <iostream>

namespace {

void printUsage(std::ostream& out)
{
    out << "Usage:\n"
           "  lifeline                 open the window\n"
           "  lifeline lessons         list the built-in lessons\n"
           "  lifeline run SCENARIO.json|--lesson ID [--until 10m] [--seed N] [--summary] [--fix]\n"
           "                           run headless on virtual time (--fix: the lesson's fix)\n"
           "  lifeline demo            run a short demo headless and print its event log\n"
           "  lifeline --version       print the version\n"
           "  lifeline --help          this text\n";
}

} // namespace

int main(int argc, char** argv)
{
    if (argc >= 2) {
        const char* command = argv[1];
        if (!std::strcmp(command, "--help") || !std::strcmp(command, "-h") || !std::strcmp(command, "help")) {
            printUsage(std::cout);
            return 0;
        }
        if (!std::strcmp(command, "--version")) {
            std::cout << "lifeline " << LIFELINE_VERSION << '\n';
            return 0;
        }
        if (lifeline::app::isHeadlessCommand(command))
            return lifeline::app::runCommand(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
        std::cerr << "lifeline: unknown command '" << command << "'\n";
        printUsage(std::cerr);
        return 2;
    }
    QApplication application(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Lifeline"));
    QApplication::setOrganizationName(QStringLiteral("Lifeline"));
    // The window opens on lesson 1, playing.
    const auto* lesson = lifeline::sim::findLesson("1");
    lifeline::sim::Simulation simulation(lesson->scenario);
    lifeline::ui::MainWindow window;
    const auto& text = *lesson->scenario.lesson;
    window.setLesson(QString::fromStdString(text.title),
        QString::fromStdString(text.idea + "\n\nWhat to watch: " + text.watch + "\n\nExam trap: " + text.trap));
    window.showSimulation(&simulation);
    window.show();
    window.driver()->play();
    return application.exec();
}
