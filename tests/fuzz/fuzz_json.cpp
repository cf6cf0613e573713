// libFuzzer: JSON-protocol requests: the input is the body of an AmazonSQS.<Op> call whose name it also picks.
#include "fuzz_request.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const char* const kActions[] = { "CreateQueue", "SendMessage", "SendMessageBatch", "ReceiveMessage",
        "DeleteMessage", "DeleteMessageBatch", "ChangeMessageVisibility", "ChangeMessageVisibilityBatch",
        "GetQueueAttributes", "SetQueueAttributes", "ListQueues", "PurgeQueue", "TagQueue", "StartMessageMoveTask" };
    if (size == 0)
        return 0;
    const std::string action = kActions[data[0] % (sizeof kActions / sizeof *kActions)];
    const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::string request = "POST / HTTP/1.1\r\nHost: h\r\nX-Amz-Target: AmazonSQS." + action
        + "\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n";
    request.append(body);
    lifeline::fuzz::runRequest(request);
    return 0;
}
