// `lifeline run … --export F.html`: one self-contained page that plays a run (no framework, no network request, no
// external font), so "what my system did" can be attached to a bug report or opened from a USB stick. The page holds
// the run in a compact form (each lane's segments with the app's words, the moments with their captions, the events
// as the CSV export writes them) and a small script written for it (resources/web/player.html) draws it with the
// app's palette and patterns: play, pause, scrub, speed, the now line, hover, keyboard, light and dark by the reader's
// system setting, and a table of the events for a screen reader.
#pragma once

#include "lifeline/analysis/moments.h"
#include "lifeline/run/run_view.h"
#include "lifeline/support/outcome.h"

#include <QString>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lifeline::ui {

struct WebPageRequest {
    QString path;
    QString title;
    QString claim; // the headline: the run's figures, or a lesson's compare
    std::vector<analysis::MomentSpec> moments; // a lesson's key moments; none for other runs
    nlohmann::json lesson; // {"idea", "watch", "trap", "fix"} in words; null: not a lesson
    nlohmann::json nav; // [[text, relative link], ...] above the title (the site's); null: none
    // An exercise: {"question", "hint", "answers": [{"label", "run", "passed", "why"}]}, "run" indexing the page's
    // runs; the page shows the situation (the first run) until an answer is chosen. Null: not an exercise.
    nlohmann::json practice;
    // Where the site's glossary page is ("glossary.html"): a term's definition on the page links to it. Empty: the
    // page stands alone, its definitions in it.
    std::string glossaryPage;
};

// One run as the page draws it: its lanes and segments in the app's words, its consumers' rows, the moments found
// in it, its events; `label` names it where a page stacks runs ("As written", "With the fix").
nlohmann::json webRunData(
    const RunView& run, const std::vector<analysis::MomentSpec>& moments, const QString& label = {});

// A page of one or more runs (webRunData's) on one time axis.
Outcome<> writeWebPage(const std::vector<nlohmann::json>& runs, const WebPageRequest& request);

// A page of one run.
Outcome<> exportWebPage(const RunView& run, const WebPageRequest& request);

} // namespace lifeline::ui
