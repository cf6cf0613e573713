// Signs requests with Lifeline's SigV4 signer, for tests/net/sigv4_vs_botocore.py: reads a JSON list of requests on
// standard input ({method, host, path, query, headers: [[name, value]...], body, accessKeyId, secretAccessKey,
// sessionToken, region, service, epoch}) and prints a JSON list of {amzDate, authorization}.
#include "lifeline/aws/sigv4.h"

#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

int main()
{
    using nlohmann::json;
    const json requests = json::parse(std::string(std::istreambuf_iterator<char>(std::cin), {}));
    json out = json::array();
    for (const json& r : requests) {
        lifeline::aws::SigningRequest request;
        request.method = r.at("method");
        request.host = r.at("host");
        request.path = r.at("path");
        request.query = r.at("query");
        for (const json& header : r.at("headers"))
            request.headers.emplace_back(header.at(0), header.at(1));
        request.body = r.at("body");
        const lifeline::aws::AwsCredentials credentials { r.at("accessKeyId"), r.at("secretAccessKey"),
            r.at("sessionToken") };
        const auto signature
            = lifeline::aws::signV4(request, credentials, r.at("region"), r.at("service"), r.at("epoch"));
        out.push_back({ { "amzDate", signature.amzDate }, { "authorization", signature.authorization } });
    }
    std::cout << out.dump() << '\n';
}
