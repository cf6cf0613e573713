// libFuzzer: a query-protocol (XML) answer from an upstream the recording proxy does not control, read into the JSON
// shape and then, as the answer to an action the input's first byte picks, into the Observer's lanes.
#include "lifeline/aws/query_answer.h"
#include "lifeline/observe/observer.h"

#include <nlohmann/json.hpp>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const char* const kActions[] = { "SendMessage", "SendMessageBatch", "ReceiveMessage", "DeleteMessage",
        "DeleteMessageBatch", "ChangeMessageVisibility", "ChangeMessageVisibilityBatch", "CreateQueue",
        "SetQueueAttributes", "GetQueueAttributes", "PurgeQueue" };
    if (size < 1)
        return 0;
    const std::string action = kActions[data[0] % (sizeof kActions / sizeof *kActions)];
    const nlohmann::json answer
        = lifeline::aws::queryAnswerAsJson(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
    const nlohmann::json params { { "QueueUrl", "http://h/0/q" }, { "MessageBody", "b" }, { "ReceiptHandle", "h" },
        { "Entries",
            nlohmann::json::array({ { { "Id", "a" }, { "ReceiptHandle", "h" }, { "MessageBody", "x" } },
                { { "Id", "b" }, { "ReceiptHandle", "i" }, { "MessageBody", "y" } } }) },
        { "Attributes", { { "VisibilityTimeout", "5" } } } };
    lifeline::observe::Observer observer(0);
    const int status = answer.contains("__type") ? 400 : 200;
    observer.observe(lifeline::observe::readCall("CreateQueue", params, 200, nlohmann::json::object()), 2);
    observer.observe(lifeline::observe::readCall(action, params, status, answer), 2);
    observer.advanceTo(700000); // past visibility timeouts, delays and some retention
    return 0;
}
