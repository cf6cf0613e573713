// The endpoint's AddressSanitizer tests' main: a QCoreApplication (the server needs Qt Core and Network only).
#define CATCH_CONFIG_RUNNER
#include <QCoreApplication>
#include <catch2/catch.hpp>

int main(int argc, char** argv)
{
    QCoreApplication application(argc, argv);
    return Catch::Session().run(argc, argv);
}
