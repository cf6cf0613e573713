// libFuzzer: what the recording proxy reads from an upstream it does not control: the answer's bytes through the
// response parser (fed in pieces the input chooses), then, read as a JSON answer to an action the input picks, into
// the Observer's lanes, with the clock moved on after each. The answer's Content-Type decides JSON or XML, as in the
// proxy (aws::answerAsJson), so both readers are fed.
#include "lifeline/aws/http_response_parser.h"
#include "lifeline/aws/query_answer.h"
#include "lifeline/observe/observer.h"

#include <nlohmann/json.hpp>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const char* const kActions[] = { "SendMessage", "SendMessageBatch", "ReceiveMessage", "DeleteMessage",
        "DeleteMessageBatch", "ChangeMessageVisibility", "ChangeMessageVisibilityBatch", "CreateQueue",
        "SetQueueAttributes", "GetQueueAttributes", "PurgeQueue", "DeleteQueue" };
    if (size < 2)
        return 0;
    const std::string action = kActions[data[0] % (sizeof kActions / sizeof *kActions)];
    const size_t piece = 1 + data[1] % 64;
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 2, size - 2);
    lifeline::aws::HttpResponseParser parser(1 << 16);
    lifeline::observe::Observer observer(0);
    // The request the answer belongs to: a fixed one per action, naming entries the answer may refer to.
    const nlohmann::json params { { "QueueUrl", "http://h/0/q" }, { "MessageBody", "b" }, { "ReceiptHandle", "h" },
        { "Entries", nlohmann::json::array({ { { "Id", "a" }, { "ReceiptHandle", "h" }, { "MessageBody", "x" } } }) },
        { "Attributes", { { "VisibilityTimeout", "5" } } } };
    lifeline::TimeMs now = 0;
    for (size_t at = 0; at < bytes.size(); at += piece) {
        auto state = parser.feed(bytes.substr(at, piece));
        while (state == lifeline::aws::HttpResponseParser::State::Complete) {
            const auto answer = parser.takeAnswer();
            const auto json = lifeline::aws::answerAsJson(answer); // JSON or XML, as the headers say
            observer.observe(lifeline::observe::readCall(action, params, answer.status, json), 2);
            observer.advanceTo(now += 700000); // past visibility timeouts, delays and some retention
            parser.next();
            state = parser.state();
        }
        if (state == lifeline::aws::HttpResponseParser::State::Error)
            break;
    }
    (void)parser.finish();
    return 0;
}
