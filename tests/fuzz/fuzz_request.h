// One fuzz input through what a request meets in the endpoint: the HTTP parser (bytes in pieces, as a socket gives
// them), the protocol decoder, and the service on a small engine. Nothing may crash, hang or leak; every failure
// must be an SQS error or an HTTP status.
#pragma once

#include "lifeline/endpoint/http.h"
#include "lifeline/endpoint/protocol.h"
#include "lifeline/endpoint/sqs_service.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace lifeline::fuzz {

inline void runRequest(std::string_view bytes)
{
    static Engine engine;
    static endpoint::SqsService service(engine);
    static bool ready = [] {
        (void)engine.createQueue("q"); // a fresh engine: it cannot be refused
        (void)engine.createQueue("f.fifo", { { "FifoQueue", "true" }, { "ContentBasedDeduplication", "true" } });
        return true;
    }();
    (void)ready;
    endpoint::HttpParser parser(endpoint::HttpLimits { 4096, 65536 });
    // Split where the input says (its first byte), so partial reads are exercised too.
    const size_t cut = bytes.empty() ? 0 : size_t(uint8_t(bytes[0])) % (bytes.size() + 1);
    auto state = parser.feed(bytes.substr(0, cut));
    if (state == endpoint::HttpParser::State::NeedMore)
        state = parser.feed(bytes.substr(cut));
    int requests = 0;
    while (state == endpoint::HttpParser::State::Complete && requests++ < 8) {
        const auto request = parser.takeRequest();
        parser.next();
        state = parser.state();
        const auto decoded = endpoint::decodeRequest(request);
        if (decoded.error) {
            endpoint::encodeError(decoded.protocol, *decoded.error, "r");
            continue;
        }
        auto outcome = service.call(decoded.action, decoded.params, endpoint::CallContext {});
        if (outcome.error)
            endpoint::encodeError(decoded.protocol, *outcome.error, "r");
        else if (!outcome.pendingPoll)
            endpoint::encodeResult(decoded.protocol, decoded.action, outcome.output, "r");
        engine.advanceBy(1000); // long polls end, timers fire
        engine.takeCompletedPolls();
    }
}

} // namespace lifeline::fuzz
