#include "lifeline/observe/proxied_request.h"

#include <algorithm>
#include <charconv>

namespace lifeline::observe {

namespace {
int64_t waitSecondsOf(const nlohmann::json& params)
{
    // A JSON number, or in the query protocol its digits.
    const auto it = params.find("WaitTimeSeconds");
    int64_t seconds = 20; // none given: the queue's ReceiveMessageWaitTimeSeconds may hold it, at most 20
    if (it != params.end() && it->is_number_integer())
        seconds = it->get<int64_t>();
    else if (it != params.end() && it->is_string()) {
        const std::string& text = it->get_ref<const std::string&>();
        int64_t given = 0;
        if (const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), given);
            error == std::errc() && end == text.data() + text.size())
            seconds = given;
    }
    return std::clamp<int64_t>(seconds, 0, 20);
}
} // namespace

ProxyAdmission admitProxied(const endpoint::HttpRequest& request, const endpoint::GuardOptions& guard,
    const std::function<std::string()>& nextRequestId)
{
    ProxiedRequest admitted { endpoint::decodeRequest(request), {}, {}, false, {}, 0 };
    const endpoint::DecodedRequest& decoded = admitted.decoded;
    // The proxy signs with the user's own credentials: what only a web page would send is refused before anything
    // goes upstream (a page could otherwise act on the user's AWS account through it).
    if (auto refused = endpoint::guardRequest(request, decoded.action, guard))
        return endpoint::encodeError(decoded.protocol, *refused, nextRequestId());
    if (decoded.error)
        return admitted;
    if (const auto url = decoded.params.find("QueueUrl"); url != decoded.params.end() && url->is_string()) {
        admitted.queueUrl = url->get<std::string>();
        admitted.queue = queueNameFromUrl(admitted.queueUrl);
    }
    admitted.startsPoll = endpoint::sqsActionNamed(decoded.action) == endpoint::SqsAction::ReceiveMessage;
    if (admitted.startsPoll)
        admitted.waitSeconds = waitSecondsOf(decoded.params);
    admitted.sends = requestedSends(decoded.action, decoded.params);
    return admitted;
}

} // namespace lifeline::observe
