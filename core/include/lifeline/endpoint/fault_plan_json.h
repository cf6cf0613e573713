// A fault plan (lifeline/engine/faults.h) as JSON: a scenario's "faults", `lifeline serve --faults FILE`, the control
// API's POST /_lifeline/faults and what its GET answers.
//
//   {"seed": 7, "faults": [{"kind": "duplicate", "rate": 0.3, "queue": "orders", "limit": 5},
//                          {"kind": "throttling", "at": ["10s", "12s"], "action": "SendMessage"}]}
//
// The list alone is a plan of seed 1 (a scenario's "faults", which takes the scenario's seed). A plan that is not one
// fails naming the field ("faults[1].rate: a number from 0 to 1"), a list's fields under `where` ("faults").
#pragma once

#include "lifeline/engine/faults.h"
#include "lifeline/support/outcome.h"

#include <nlohmann/json.hpp>
#include <string>

namespace lifeline::endpoint {

Outcome<FaultPlan> parseFaultPlan(const nlohmann::json& value, const std::string& where = {});
nlohmann::json faultPlanJson(const FaultPlan& plan);
// {"kind": count, ...} for every kind: how many struck.
nlohmann::json faultCountsJson(const FaultDice& dice);

} // namespace lifeline::endpoint
