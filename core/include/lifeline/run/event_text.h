// One vocabulary for events: the CSV, the Chrome trace, the event log and a message's history all describe an event
// with these functions, so their wording cannot drift apart.
#pragma once

#include "lifeline/run/run_view.h"

#include <string>
#include <vector>

namespace lifeline {

// The short detail of an event, as the CSV's note and the event log's detail column show it: "receive #2",
// "VisibilityTimeout=25", "DelaySeconds 10 -> 0", "empty receive", "poison message", "to jobs-dlq", SQS's error text.
// Empty where the cause says it all.
std::string eventDetail(const RunView& run, const Event& event);

// A sentence for a message's history: "receive #2 by worker-1", "visibility timeout ended: visible again".
std::string eventSentence(const RunView& run, const Event& event, const std::string& actor);

// What SQS answered to a request that changed nothing (NoEffect).
std::string noEffectText(NoEffectKind kind);

} // namespace lifeline
