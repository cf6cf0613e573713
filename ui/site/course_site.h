// `lifeline site OUTDIR`: the course as static pages anyone can open without installing Lifeline: the index of the
// curriculum's blocks (a still of each lesson's run), a page per lesson (lesson_pages.h) and per exercise
// (practice_pages.h), each one self-contained file, and the glossary the pages' terms link to. The site's own pages
// fill resources/web/site-page.html; every page shares resources/web/palette.css.
#pragma once

#include "lifeline/support/outcome.h"

#include <filesystem>

namespace lifeline::ui {

struct SiteReport {
    size_t lessons = 0;
    size_t exercises = 0;
};

// Writes the whole site into `dir` (made if missing). Needs a QGuiApplication (the stills are drawn offscreen).
Outcome<SiteReport> writeCourseSite(const std::filesystem::path& dir);

} // namespace lifeline::ui
