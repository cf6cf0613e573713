// The UI tests' main: one QApplication for the whole run, created before and destroyed after every test (a
// function-static one would be torn down after Qt's own statics and crash at exit).
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <catch2/catch.hpp>

int main(int argc, char** argv)
{
    // Offscreen unless told otherwise, so that listing the tests at build time (catch_discover_tests) works
    // with no display too.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);
    return Catch::Session().run(argc, argv);
}
