// A Qt application for a headless command: without XDG_RUNTIME_DIR (CI, containers) Qt warns, while it starts the
// platform, that it picks a runtime directory of its own, and a script that reads the command's output would take
// that line for part of its answer. The warnings Qt prints while the application is constructed are left out; every
// later warning is kept.
#pragma once

#include <QLoggingCategory>

namespace lifeline::app {

// Qt's default warnings off from its construction until end() (or its destruction).
class StartWarningsOff {
public:
    StartWarningsOff() { QLoggingCategory::setFilterRules(QStringLiteral("default.warning=false")); }
    ~StartWarningsOff() { end(); }
    StartWarningsOff(const StartWarningsOff&) = delete;
    StartWarningsOff& operator=(const StartWarningsOff&) = delete;
    static void end() { QLoggingCategory::setFilterRules({}); }
};

// `Application` (QGuiApplication, QApplication) constructed with its start's warnings left out: a base constructed
// before it (bases are constructed in the order they are listed) turns them off, its own constructor on again.
template <class Application> class QuietlyStarted : private StartWarningsOff, public Application {
public:
    QuietlyStarted(int& argc, char** argv)
        : StartWarningsOff()
        , Application(argc, argv)
    {
        StartWarningsOff::end();
    }
};

} // namespace lifeline::app
