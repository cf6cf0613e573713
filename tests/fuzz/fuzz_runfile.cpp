// libFuzzer: run files (.lifeline, CBOR). A damaged or crafted file must give "'…' is not a Lifeline run file (or it
// is damaged): <what>", never a loop or an out-of-bounds read; one that opens must be safe to view: every lane's
// chain of origins ends and every event can be described and exported.
#include "lifeline/export/run_export.h"
#include "lifeline/io/run_file.h"
#include "lifeline/run/event_text.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::vector<uint8_t> bytes(data, data + size);
    auto opened = lifeline::readRun(bytes, "fuzz.lifeline");
    if (!opened)
        return 0;
    const lifeline::RecordedRun* run = &opened.value();
    const lifeline::RunView& engine = *run->run;
    for (lifeline::MessageIndex lane = 0; lane < engine.messageCount(); ++lane)
        (void)engine.firstLaneOf(lane);
    std::ostringstream csv, trace;
    lifeline::writeEventsCsv(engine, csv);
    lifeline::writeChromeTrace(engine, trace);
    for (size_t i = 0; i < engine.log().size(); ++i)
        (void)lifeline::eventSentence(engine, engine.log()[i], engine.actorName(engine.log()[i].actor));
    return 0;
}
