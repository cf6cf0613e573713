// Where the AWS CLI looks for credentials on this machine, read for `lifeline proxy` and `lifeline check
// --queue-url`: the environment's AWS_* variables, ~/.aws/credentials and ~/.aws/config (or the files
// AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE name). Resolving them is core's (aws::resolveCredentials).
#pragma once

#include "lifeline/aws/aws_credentials.h"

#include <string>

namespace lifeline::ui {

aws::CredentialSources credentialSourcesOfThisMachine();

// A company's CA, as the AWS CLI finds it: AWS_CA_BUNDLE, else OpenSSL's SSL_CERT_FILE; empty: the system's store.
// `variable` gets the name of the one used.
std::string caBundleOfThisMachine(std::string* variable = nullptr);

} // namespace lifeline::ui
