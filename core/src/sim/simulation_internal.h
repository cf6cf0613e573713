// The runtime state of the simulation's actors.
#pragma once

#include "lifeline/sim/simulation.h"

namespace lifeline::sim {

struct Simulation::Producer {
    const ProducerSpec* spec = nullptr;
    uint32_t actor = 0;
    int64_t sent = 0; // numbers the messages: {n}
};

struct Simulation::Consumer {
    const ConsumerSpec* spec = nullptr;
    uint32_t actor = 0;
    ConsumerState state = ConsumerState::Idle;
    uint64_t generation = 0; // bumped by a crash or restart: what was planned before is dropped
    PollId poll = 0; // the long poll it waits on
    std::deque<ReceivedMessage> batch; // received, not started
    std::optional<ReceivedMessage> current;
    ConsumerSummary stats;
};

struct Simulation::Poller {
    size_t lambda = 0;
    uint32_t actor = 0;
    PollId poll = 0;
    std::vector<ReceivedMessage> batch;
    bool failed = false;
    bool timedOut = false;
};

} // namespace lifeline::sim
