#include "lifeline/export/run_export.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/lessons.h"

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace lifeline;

namespace {
std::unique_ptr<sim::Simulation> finished(const char* lesson)
{
    auto simulation = std::make_unique<sim::Simulation>(teach::findLesson(lesson)->scenario);
    simulation->runToEnd();
    return simulation;
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}
} // namespace

TEST_CASE("CSV: a header and one row per event - quoted as RFC 4180 asks", "[export]")
{
    CHECK(csvField("plain") == "plain");
    CHECK(csvField("a,b") == "\"a,b\"");
    CHECK(csvField("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(csvField("two\nlines") == "\"two\nlines\"");
    // A body a spreadsheet would run (OWASP, CSV injection): an apostrophe first, quoted.
    CHECK(csvField("=HYPERLINK(\"http://x\",\"y\")") == "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
    for (const char* formula : { "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx" })
        CHECK(csvField(formula) == "\"'" + std::string(formula) + "\"");
    CHECK(csvField("a=b") == "a=b"); // only at the start
    CHECK(csvField("") == "");

    auto simulation = finished("changing-the-delay");
    std::ostringstream out;
    writeEventsCsv(simulation->engine().run(), out);
    const auto rows = lines(out.str());
    REQUIRE(rows.size() == simulation->engine().log().size() + 1);
    CHECK(rows[0] == "time_ms,queue,message_id,lane,from,to,cause,actor,note,body,group,dedup\r");
    // The operator's action is logged with its text: "set DelaySeconds=120 on standard".
    bool sawAction = false;
    for (const auto& row : rows)
        sawAction
            = sawAction || row.find("operator-action,operator,set DelaySeconds=120 on standard") != std::string::npos;
    CHECK(sawAction);
}

TEST_CASE("Chrome trace: valid JSON whose X events reproduce every segment of the log", "[export]")
{
    auto simulation = finished("consumer-crash");
    std::ostringstream out;
    writeChromeTrace(simulation->engine().run(), out);
    const auto trace = nlohmann::json::parse(out.str());
    REQUIRE(trace.contains("traceEvents"));
    // The segments the log says, per lane: (start, end, state).
    const Engine& engine = simulation->engine();
    std::map<MessageIndex, std::vector<std::tuple<int64_t, int64_t, std::string>>> expected, actual;
    std::map<MessageIndex, std::pair<TimeMs, MessageState>> open;
    for (size_t i = 0; i < engine.log().size(); ++i) {
        const Event& e = engine.log()[i];
        if (e.message == kNoMessage || e.from == e.to || e.cause == Cause::RequestRefused)
            continue;
        if (auto it = open.find(e.message); it != open.end() && isLive(it->second.second))
            expected[e.message].emplace_back(it->second.first * 1000, e.time * 1000, toString(it->second.second));
        open[e.message] = { e.time, e.to };
    }
    for (const auto& [lane, last] : open)
        if (isLive(last.second))
            expected[lane].emplace_back(last.first * 1000, engine.now() * 1000, toString(last.second));
    int processNames = 0, instants = 0;
    for (const auto& e : trace["traceEvents"]) {
        if (e["ph"] == "X")
            actual[MessageIndex(e["tid"].get<int>() - 1)].emplace_back(
                e["ts"].get<int64_t>(), e["ts"].get<int64_t>() + e["dur"].get<int64_t>(), e["name"].get<std::string>());
        processNames += e["ph"] == "M" && e["name"] == "process_name";
        instants += e["ph"] == "i";
    }
    CHECK(actual == expected);
    // visible for an instant (sent and received at 0 s), in flight (worker-1), visible for an instant at 30 s,
    // in flight (worker-2)
    CHECK(expected.at(0).size() == 4);
    CHECK(processNames == int(engine.queueCount()));
    CHECK(instants > 0);
}

TEST_CASE("Chrome trace: written as it is read - the same text as the whole document dumped at once", "[export]")
{
    // The writer streams one event at a time; what it writes must be exactly the document nlohmann would dump
    // (keys sorted, no spaces), for every lesson's run: parsed and dumped again, it comes back unchanged.
    for (const auto& lesson : teach::builtinLessons()) {
        auto simulation = std::make_unique<sim::Simulation>(lesson.scenario);
        simulation->advanceTo(60000);
        std::ostringstream out;
        writeChromeTrace(simulation->engine().run(), out);
        const std::string text = out.str();
        const auto parsed = nlohmann::json::parse(text, nullptr, false);
        REQUIRE_FALSE(parsed.is_discarded());
        CHECK(parsed.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n" == text);
        CHECK(parsed.at("traceEvents").size() > simulation->engine().messageCount());
    }
}
