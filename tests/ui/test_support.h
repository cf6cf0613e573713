// The UI tests' QApplication (offscreen: CTest sets QT_QPA_PLATFORM), a lesson loader and a scenario reader.
#pragma once

#include "lifeline/scenario/scenario.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/lessons.h"

#include <QApplication>
#include <catch2/catch.hpp>
#include <memory>

namespace lifeline::test {

// The QApplication that ui_tests_main.cpp created.
inline QApplication& application()
{
    return *qApp;
}

// A part of the window found by its object name, as a user finds it on screen; the test fails when it is not there.
template <typename Part> Part* widget(const QObject& window, const char* objectName)
{
    auto* found = window.findChild<Part*>(QString::fromLatin1(objectName));
    INFO("the window has no " << objectName);
    REQUIRE(found != nullptr);
    return found;
}

inline std::unique_ptr<sim::Simulation> lessonSimulation(const char* id)
{
    const auto* lesson = teach::findLesson(id);
    REQUIRE(lesson != nullptr);
    return std::make_unique<sim::Simulation>(lesson->scenario);
}

// A scenario from its JSON; the test fails, saying why, when it does not parse.
inline scenario::Scenario scenarioFrom(const std::string& json)
{
    auto parsed = scenario::parseScenario(json);
    if (auto* error = std::get_if<scenario::ScenarioError>(&parsed))
        FAIL(error->text());
    return std::get<scenario::Scenario>(std::move(parsed));
}

} // namespace lifeline::test
