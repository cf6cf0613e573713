#include "lifeline/aws/aws_credentials.h"

#include <sstream>

namespace lifeline::aws {

namespace {

std::string trim(const std::string& text)
{
    const size_t first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

std::string variable(const CredentialSources& sources, const std::string& name)
{
    const auto it = sources.environment.find(name);
    return it == sources.environment.end() ? std::string() : it->second;
}

const std::map<std::string, std::string>* section(
    const std::map<std::string, std::map<std::string, std::string>>& ini, const std::string& name)
{
    const auto it = ini.find(name);
    return it == ini.end() ? nullptr : &it->second;
}

std::string value(const std::map<std::string, std::string>* keys, const std::string& key)
{
    if (!keys)
        return {};
    const auto it = keys->find(key);
    return it == keys->end() ? std::string() : it->second;
}

} // namespace

std::map<std::string, std::map<std::string, std::string>> parseIni(const std::string& text)
{
    std::map<std::string, std::map<std::string, std::string>> out;
    std::string current;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        line = trim(line);
        if (line.empty() || line[0] == '#' || line[0] == ';')
            continue;
        if (line.front() == '[' && line.back() == ']') {
            current = trim(line.substr(1, line.size() - 2));
            out[current];
            continue;
        }
        const size_t eq = line.find('=');
        if (eq != std::string::npos && !current.empty())
            out[current][trim(line.substr(0, eq))] = trim(line.substr(eq + 1));
    }
    return out;
}

Outcome<ResolvedCredentials> resolveCredentials(
    const CredentialSources& sources, const std::string& profileOption, const std::string& regionOption)
{
    ResolvedCredentials out;
    const auto credentials = parseIni(sources.credentialsFile);
    const auto config = parseIni(sources.configFile);
    const std::string profile = !profileOption.empty() ? profileOption
        : !variable(sources, "AWS_PROFILE").empty()    ? variable(sources, "AWS_PROFILE")
                                                       : std::string("default");
    const auto* configSection = section(config, profile == "default" ? profile : "profile " + profile);
    const std::string key = variable(sources, "AWS_ACCESS_KEY_ID");
    if (profileOption.empty() && !key.empty()) {
        if (variable(sources, "AWS_SECRET_ACCESS_KEY").empty())
            return Failure { "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not" };
        out.credentials = { key, variable(sources, "AWS_SECRET_ACCESS_KEY"), variable(sources, "AWS_SESSION_TOKEN") };
        out.source = "environment";
    } else {
        const auto* fromCredentials = section(credentials, profile);
        const auto* keys = value(fromCredentials, "aws_access_key_id").empty() ? configSection : fromCredentials;
        if (value(keys, "aws_access_key_id").empty() || value(keys, "aws_secret_access_key").empty()) {
            if (!fromCredentials && !configSection)
                return Failure { profile == "default" && profileOption.empty()
                        ? "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give "
                          "~/.aws/credentials "
                          "a [default] profile (aws configure does)"
                        : "the profile '" + profile + "' is in neither ~/.aws/credentials nor ~/.aws/config" };
            return Failure { "the profile '" + profile + "' has no aws_access_key_id and aws_secret_access_key" };
        }
        out.credentials = { value(keys, "aws_access_key_id"), value(keys, "aws_secret_access_key"),
            value(keys, "aws_session_token") };
        out.source = "profile " + profile + (keys == fromCredentials ? " (~/.aws/credentials)" : " (~/.aws/config)");
    }
    for (const std::string& candidate : { regionOption, variable(sources, "AWS_REGION"),
             variable(sources, "AWS_DEFAULT_REGION"), value(configSection, "region") })
        if (!candidate.empty()) {
            out.region = candidate;
            break;
        }
    return out;
}

} // namespace lifeline::aws
