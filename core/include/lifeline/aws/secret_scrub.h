// Secrets taken out of a text that came from upstream before it is shown, logged or recorded: AWS's
// SignatureDoesNotMatch quotes the canonical request it computed, headers and all, so an error text can carry the
// session token the proxy signed with.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lifeline::aws {

// Session tokens (a header, a query parameter or a JSON field), signatures and secret keys become "[hidden]";
// an access key id keeps its four-letter kind ("ASIA[hidden]"). Everything else is left as it was.
std::string scrubSecrets(std::string_view text);

// The same, and besides every occurrence of the secrets given (the session token and secret key the proxy signs
// with), as they are and percent-encoded, wherever they stand: an upstream may quote a token without its name.
std::string scrubSecrets(std::string_view text, const std::vector<std::string>& known);

} // namespace lifeline::aws
