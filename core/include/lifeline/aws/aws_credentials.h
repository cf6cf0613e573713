// The user's AWS credentials and region, found the way the AWS CLI finds them: an explicit profile; else
// AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN; else the profile AWS_PROFILE names (or "default") in
// ~/.aws/credentials, then ~/.aws/config ("[profile NAME]"). The region: the option, AWS_REGION, AWS_DEFAULT_REGION,
// then the profile's in ~/.aws/config. Pure: the caller reads the environment and the files. Messages never hold a
// secret.
#pragma once

#include "lifeline/aws/sigv4.h"
#include "lifeline/support/outcome.h"

#include <map>
#include <string>

namespace lifeline::aws {

struct CredentialSources {
    std::map<std::string, std::string> environment; // the variables above, when set
    std::string credentialsFile; // the text of ~/.aws/credentials (or AWS_SHARED_CREDENTIALS_FILE), empty if none
    std::string configFile; // the text of ~/.aws/config (or AWS_CONFIG_FILE), empty if none
};

struct ResolvedCredentials {
    AwsCredentials credentials;
    std::string region; // empty when nothing names one
    std::string source; // where they came from, for the user: "environment", "profile default (~/.aws/credentials)"
};

Outcome<ResolvedCredentials> resolveCredentials(
    const CredentialSources& sources, const std::string& profileOption, const std::string& regionOption);

// The sections of an INI file (the AWS CLI's format): name -> key -> value; `#` and `;` start comments.
std::map<std::string, std::map<std::string, std::string>> parseIni(const std::string& text);

} // namespace lifeline::aws
