// The UI tests' main: one QApplication for the whole run, created before and destroyed after every test (a
// function-static one would be torn down after Qt's own statics and crash at exit).
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

int main(int argc, char** argv)
{
    // Offscreen unless told otherwise, so that listing the tests at build time (catch_discover_tests) works
    // with no display too.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);
    // Settings of this process's own, never the user's: ctest runs test cases as parallel processes, and two of them
    // writing one settings file (a practice test clearing progress while another counts it) fail at random.
    const QTemporaryDir settings;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
    return Catch::Session().run(argc, argv);
}
