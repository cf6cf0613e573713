// `lifeline serve [--port 9324] [--bind 127.0.0.1] [--headless] [--speed X]`: the local SQS endpoint, in the window
// (every message real clients send is a lane, live) or headless (no display needed).
#pragma once

#include "http/endpoint_server.h"
#include "lifeline/support/outcome.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace lifeline::app {

struct ServeOptions {
    ui::EndpointOptions endpoint;
    bool headless = false;
    bool help = false; // --help: print serveHelp() and stop
    bool printEnv = false; // --print-env: print servePrintEnv() and stop
    // --every-service: --print-env also sets AWS_ENDPOINT_URL, which sends every AWS service (S3, STS...) here. Off:
    // only SQS comes here, and a CI job that evals the lines still reaches the real S3.
    bool everyService = false;
    // --history: how long a headless endpoint remembers messages that ended and events (EngineOptions::historyMs).
    // None by default: nobody watches a headless endpoint, and its memory returns to its baseline.
    TimeMs historyMs = 0;
    bool historyGiven = false;
};

// `lifeline serve --help`.
const char* serveHelp();
// `lifeline serve --print-env`: the shell lines that point the AWS SDKs and CLI at this endpoint.
std::string servePrintEnv(const ServeOptions& options);

// Reads serve's arguments (after "serve"); on a bad one says why and returns nothing.
// Why an option is refused names it: "lifeline serve: --port must be 0..65535 ...".
Outcome<ServeOptions> parseServeOptions(const std::vector<std::string>& args);
// Runs the endpoint headless until the process is stopped; 2 when it cannot listen.
int serveHeadless(const ServeOptions& options, int argc, char** argv);
// Lifts the soft limit on open files (connections) to the hard limit.
void raiseOpenFileLimit();
// What the endpoint says when it starts (address, clock, the signature note), on standard output.
std::string serveBanner(const ui::EndpointServer& server, double speed, bool manualClock = false);
// The warning for an address other than loopback, for standard error (empty on loopback).
std::string serveWarning(const ui::EndpointServer& server);

} // namespace lifeline::app
