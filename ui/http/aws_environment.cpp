#include "http/aws_environment.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace lifeline::ui {

namespace {

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    if (in)
        text << in.rdbuf();
    return text.str();
}

} // namespace

aws::CredentialSources credentialSourcesOfThisMachine()
{
    aws::CredentialSources sources;
    for (const char* name : { "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
             "AWS_REGION", "AWS_DEFAULT_REGION" })
        if (const char* value = std::getenv(name); value && *value)
            sources.environment[name] = value;
    const char* home = std::getenv("HOME");
    const std::string aws = std::string(home ? home : "") + "/.aws/";
    const char* credentialsFile = std::getenv("AWS_SHARED_CREDENTIALS_FILE");
    const char* configFile = std::getenv("AWS_CONFIG_FILE");
    sources.credentialsFile = readFile(credentialsFile ? credentialsFile : aws + "credentials");
    sources.configFile = readFile(configFile ? configFile : aws + "config");
    return sources;
}

std::string caBundleOfThisMachine(std::string* variable)
{
    for (const char* name : { "AWS_CA_BUNDLE", "SSL_CERT_FILE" })
        if (const char* bundle = std::getenv(name); bundle && *bundle) {
            if (variable)
                *variable = name;
            return bundle;
        }
    return {};
}

} // namespace lifeline::ui
