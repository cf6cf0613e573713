// AWS Signature Version 4, as botocore's SigV4Auth signs an SQS request (the recording proxy re-signs each client
// request for the upstream's host with the user's credentials). Hashing and HMAC through OpenSSL's libcrypto.
// Pure functions of their inputs: the time is a parameter, nothing reads a clock.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lifeline::aws {

struct AwsCredentials {
    std::string accessKeyId;
    std::string secretAccessKey;
    std::string sessionToken; // empty without one
};

struct SigningRequest {
    std::string method = "POST";
    std::string host; // as in the Host header: "sqs.us-east-1.amazonaws.com", "127.0.0.1:9324"
    std::string path = "/"; // as sent (already percent-encoded)
    std::string query; // the query string as sent, without '?'
    std::vector<std::pair<std::string, std::string>> headers; // the request's own (Content-Type, X-Amz-Target, ...)
    std::string body;
};

struct Signature {
    std::string amzDate; // X-Amz-Date: 20261201T073000Z
    std::string authorization; // the Authorization header's value
    std::string canonicalRequest; // for tests and diagnostics (holds no secret)
    std::string stringToSign;
};

// Signs `request` for `region` and `service` at `epochSeconds`. The signed headers are host, x-amz-date,
// x-amz-security-token (with a session token) and the request's own, as botocore signs them (User-Agent, Expect and
// X-Amzn-Trace-Id are left out, as botocore leaves them out).
Signature signV4(const SigningRequest& request, const AwsCredentials& credentials, const std::string& region,
    const std::string& service, int64_t epochSeconds);

std::string sha256Hex(const std::string& data);

} // namespace lifeline::aws
