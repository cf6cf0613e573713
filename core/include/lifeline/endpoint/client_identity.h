// Which row of the timeline a client's calls go on, for the local endpoint and the recording proxy alike: one row
// per kind of client, not per connection. A client is its user agent's first product ("Boto3/1.34.90") and the first
// characters of the access key it signed with (enough to tell two identities apart, never the whole key); the aws CLI
// opens a connection per command, so its calls share one row, "CLI calls".
#pragma once

#include <string>
#include <string_view>

namespace lifeline::endpoint {

std::string clientIdentity(std::string_view userAgent, std::string_view authorization);

// The access key id a request was signed with ("Credential=AKID/20261201/..." in its Authorization), or empty.
std::string clientAccessKeyId(std::string_view authorization);

} // namespace lifeline::endpoint
