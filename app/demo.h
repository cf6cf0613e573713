// A small headless run on virtual time (the life of one message), printed as the event log.
#pragma once

#include <iosfwd>

namespace lifeline {
class Engine;
}

namespace lifeline::app {

// Fills `engine` with the demo run: send, receive, a crash (no delete), redelivery, delete.
void runDemo(Engine& engine);
void printLog(const Engine& engine, std::ostream& out);

} // namespace lifeline::app
