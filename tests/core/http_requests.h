// Requests as a client sends them, parsed as the endpoint parses them: the endpoint's and the pipeline's tests.
#pragma once

#include "lifeline/endpoint/http.h"

#include <catch2/catch.hpp>
#include <string>

namespace lifeline::test {

inline endpoint::HttpRequest parse(const std::string& raw)
{
    endpoint::HttpParser parser;
    REQUIRE(parser.feed(raw) == endpoint::HttpParser::State::Complete);
    return parser.takeRequest();
}

inline endpoint::HttpRequest queryRequest(const std::string& form)
{
    return parse("POST / HTTP/1.1\r\nHost: 127.0.0.1:9324\r\nContent-Type: application/x-www-form-urlencoded; "
                 "charset=utf-8\r\nContent-Length: "
        + std::to_string(form.size()) + "\r\n\r\n" + form);
}

// An AWS JSON 1.0 call; `extraHeaders` ("Origin: ...\r\n") go before its target.
inline endpoint::HttpRequest jsonRequest(
    const std::string& action, const std::string& body, const std::string& extraHeaders = {})
{
    return parse("POST / HTTP/1.1\r\nHost: 127.0.0.1:9324\r\n" + extraHeaders + "X-Amz-Target: AmazonSQS." + action
        + "\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n"
        + body);
}

} // namespace lifeline::test
