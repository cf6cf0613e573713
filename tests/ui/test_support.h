// One QApplication for the UI tests (offscreen: CTest sets QT_QPA_PLATFORM) and a lesson loader.
#pragma once

#include "lifeline/sim/lessons.h"
#include "lifeline/sim/simulation.h"

#include <QApplication>
#include <catch2/catch.hpp>
#include <memory>

namespace lifeline::test {

inline QApplication& application()
{
    static int argc = 1;
    static char name[] = "lifeline-ui-tests";
    static char* argv[] = { name, nullptr };
    static QApplication app(argc, argv);
    return app;
}

inline std::unique_ptr<sim::Simulation> lessonSimulation(const char* id)
{
    const auto* lesson = sim::findLesson(id);
    REQUIRE(lesson != nullptr);
    return std::make_unique<sim::Simulation>(lesson->scenario);
}

} // namespace lifeline::test
