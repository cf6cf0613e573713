// A scenario's `lesson` object: what the lesson panel shows (idea, what to watch, the trap, the fix), the patch that
// turns the scenario into its fix, the measure Compare leads with, and the key moments. The simulation never reads
// it: a lesson is teaching content over a scenario.
#include "lifeline/analysis/moments.h"
#include "lifeline/analysis/summary.h"
#include "scenario_reading.h"

namespace lifeline::scenario::reading {

namespace {

void readMeasure(const nlohmann::json& v, const std::string& path, LessonText& l)
{
    checkKeys(v, path, { "figure", "label" });
    l.measure = text(v, path, "figure");
    l.measureLabel = text(v, path, "label");
    if (analysis::isComparedFigure(l.measure))
        return;
    std::string known;
    for (const auto& name : analysis::comparedFigures())
        known += (known.empty() ? "" : ", ") + name;
    report(join(path, "figure"), "must be one of " + known + ", got \"" + l.measure + "\"");
}

} // namespace

LessonText readLessonText(const nlohmann::json& v, const std::string& path)
{
    checkKeys(v, path, { "id", "number", "title", "idea", "watch", "trap", "fix", "fixPatch", "measure", "moments" });
    LessonText l;
    l.id = text(v, path, "id");
    l.number = int(integer(v, path, "number", 1, 1000).value_or(0));
    l.title = text(v, path, "title");
    l.idea = text(v, path, "idea");
    l.watch = text(v, path, "watch");
    l.trap = text(v, path, "trap");
    l.fix = text(v, path, "fix");
    l.fixPatch = v.contains("fixPatch") ? v["fixPatch"] : nlohmann::json::array();
    if (!l.fixPatch.is_array())
        fail(join(path, "fixPatch"), "must be a JSON Patch (a list of operations)");
    if (v.contains("measure"))
        readMeasure(v["measure"], join(path, "measure"), l);
    if (v.contains("moments"))
        l.moments = readMomentSpecs(v["moments"], join(path, "moments"));
    return l;
}

} // namespace lifeline::scenario::reading
