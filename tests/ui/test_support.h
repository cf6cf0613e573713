// The UI tests' QApplication (offscreen: CTest sets QT_QPA_PLATFORM) and a lesson loader.
#pragma once

#include "lifeline/sim/lessons.h"
#include "lifeline/sim/simulation.h"

#include <QApplication>
#include <catch2/catch.hpp>
#include <memory>

namespace lifeline::test {

// The QApplication that ui_tests_main.cpp created.
inline QApplication& application()
{
    return *qApp;
}

inline std::unique_ptr<sim::Simulation> lessonSimulation(const char* id)
{
    const auto* lesson = sim::findLesson(id);
    REQUIRE(lesson != nullptr);
    return std::make_unique<sim::Simulation>(lesson->scenario);
}

} // namespace lifeline::test
