#include "lifeline/endpoint/client_identity.h"

#include <algorithm>

namespace lifeline::endpoint {

std::string clientAccessKeyId(std::string_view authorization)
{
    const size_t at = authorization.find("Credential=");
    if (at == std::string_view::npos)
        return {};
    const std::string_view rest = authorization.substr(at + 11);
    return std::string(rest.substr(0, std::min(rest.find_first_of("/, "), rest.size())));
}

std::string clientIdentity(std::string_view userAgent, std::string_view authorization)
{
    const std::string agent(userAgent.substr(0, userAgent.find(' ')));
    if (agent.starts_with("aws-cli/"))
        return "CLI calls";
    std::string name = agent.empty() ? std::string("client") : agent;
    const std::string key = clientAccessKeyId(authorization).substr(0, 6);
    if (!key.empty())
        name += " (" + key + "…)";
    return name;
}

} // namespace lifeline::endpoint
