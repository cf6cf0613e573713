// The practice exercises on the web, for `lifeline site`: a page per exercise with its situation, its question and
// its answers, each answer's run precomputed (runs are deterministic, so the page needs no engine) with the verdict
// `lifeline practice` gives it.
#pragma once

#include "lifeline/support/outcome.h"
#include "lifeline/teach/practice.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace lifeline::ui {

std::string practicePageName(const teach::Exercise& exercise); // "practice-08-visibility.html"

// The answers a page offers: every choice of a multiple choice; for a setting, its ends, the ends of the right
// range, the reference answer and the typical wrong one (each value once, in order).
std::vector<teach::PracticeAnswer> pageAnswers(const teach::Exercise& exercise);

Outcome<> writePracticePage(
    const teach::Exercise& exercise, const std::filesystem::path& dir, const nlohmann::json& nav);

} // namespace lifeline::ui
