// `lifeline proxy --upstream URL`: the recording proxy. Clients point at Lifeline, Lifeline forwards every call to
// the real service (signed with the user's credentials) and draws what it saw: in the window live, or headless with
// --record writing a run file when it stops.
#pragma once

#include "http/proxy_server.h"
#include "lifeline/support/outcome.h"

#include <string>
#include <vector>

namespace lifeline::app {

struct ProxyCommand {
    ui::ProxyOptions proxy;
    std::string upstreamText;
    std::string profile; // --profile
    std::string regionOption; // --region
    std::string record; // --record FILE.lifeline
    int recordEveryMs = 60000; // --record-every
    std::string caBundleSource; // the variable that named ProxyOptions::caBundle
    bool headless = false;
    bool insecureUpstream = false;
    bool help = false;
};

const char* proxyHelp();
// Reads proxy's arguments (after "proxy"); a refused one is named in the message.
Outcome<ProxyCommand> parseProxyOptions(const std::vector<std::string>& args);
// Finds the credentials and region (the AWS CLI's order) from this process's environment and ~/.aws files into
// `command`; returns where they came from ("environment", "profile work (~/.aws/credentials)").
Outcome<std::string> resolveProxyCredentials(ProxyCommand& command);
// The banner on standard output: where it listens, where it forwards, whose credentials (their source, never them).
std::string proxyBanner(const ui::ProxyServer& server, const ProxyCommand& command, const std::string& source);
// SIGINT, SIGTERM, SIGHUP and SIGQUIT quit the application's event loop (checked every 50 ms by a timer parented to
// `context`), so what runs after it (writing --record) still runs.
void quitOnStopSignals(QObject* context);
// Runs headless until SIGINT or SIGTERM; writes --record then. 2 on bad arguments or a port that cannot be opened.
int proxyHeadless(const ProxyCommand& command, const std::string& credentialSource, int argc, char** argv);

} // namespace lifeline::app
