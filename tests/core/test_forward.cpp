// What the recording proxy sends upstream: the client's request with its own signature dropped, addressed to the
// upstream and signed there; and how --upstream is read.
#include "lifeline/aws/forward.h"
#include "lifeline/aws/secret_scrub.h"
#include "lifeline/endpoint/client_identity.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using namespace lifeline::aws;

TEST_CASE("forward: --upstream URLs - and what is refused", "[net][forward]")
{
    std::string why;
    auto aws = parseUpstream("https://sqs.eu-west-1.amazonaws.com/", &why);
    REQUIRE(aws);
    CHECK(aws->tls);
    CHECK(aws->host == "sqs.eu-west-1.amazonaws.com");
    CHECK(aws->port == 443);
    CHECK(aws->hostHeader() == "sqs.eu-west-1.amazonaws.com");
    CHECK(aws->url() == "https://sqs.eu-west-1.amazonaws.com");
    auto local = parseUpstream("http://localhost:4566/prefix/", &why);
    REQUIRE(local);
    CHECK(local->hostHeader() == "localhost:4566");
    CHECK(local->basePath == "/prefix");
    auto v6 = parseUpstream("http://[::1]:9324", &why);
    REQUIRE(v6);
    CHECK(v6->host == "::1");
    CHECK(v6->hostHeader() == "[::1]:9324");
    CHECK(isLoopbackHost("127.0.0.1"));
    CHECK(isLoopbackHost("::1"));
    CHECK_FALSE(isLoopbackHost("sqs.example.com"));
    CHECK(isLoopbackHost("127.12.0.200"));
    CHECK(isLoopbackHost("localhost"));
    // A name that starts like an address is a name: it resolves wherever its owner wants.
    for (const char* name : { "127.anything.example", "127.0.0.1.example", "127.0.0", "127.0.0.256", "127..0.1",
             "128.0.0.1", "127.0.0.1.", "app.localhost", "localhost.example" })
        CHECK_FALSE(isLoopbackHost(name));

    CHECK_FALSE(parseUpstream("ftp://host", &why));
    CHECK(why == "--upstream must start with http:// or https:// (https://sqs.eu-west-1.amazonaws.com)");
    CHECK_FALSE(parseUpstream("https://user:pass@host", &why));
    CHECK(why == "--upstream must not hold a user name or password: credentials come from the AWS profile");
    CHECK_FALSE(parseUpstream("http://host:99999", &why));
    CHECK(why == "--upstream's port must be 1..65535, got '99999'");
    CHECK_FALSE(parseUpstream("http://host/?a=b", &why));
    CHECK(why == "--upstream takes no query or fragment");
    CHECK_FALSE(parseUpstream("https://", &why));
    CHECK(why == "--upstream names no host");
}

TEST_CASE("forward: the client's signature is dropped - the upstream's is the signer's own", "[net][forward]")
{
    endpoint::HttpRequest request;
    request.method = "POST";
    request.target = "/000000000000/orders?x=1";
    request.headers = { { "host", "127.0.0.1:9324" }, { "content-type", "application/x-amz-json-1.0" },
        { "x-amz-target", "AmazonSQS.SendMessage" }, { "user-agent", "Boto3/1.34.90 md/x" },
        { "authorization", "AWS4-HMAC-SHA256 Credential=client/20261201/us-east-1/sqs/aws4_request, Signature=00" },
        { "x-amz-date", "20200101T000000Z" }, { "x-amz-security-token", "client-token" },
        { "x-amzn-trace-id", "Root=1-abc" } };
    request.body = R"({"QueueUrl":"q","MessageBody":"hi"})";
    const Upstream upstream { true, "sqs.eu-west-1.amazonaws.com", 443, "" };
    const AwsCredentials credentials { "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "session-token" };
    const std::string sent = forwardRequest(request, upstream, credentials, "eu-west-1", 1764576000);

    SigningRequest expected;
    expected.host = "sqs.eu-west-1.amazonaws.com";
    expected.path = "/000000000000/orders";
    expected.query = "x=1";
    expected.headers
        = { { "content-type", "application/x-amz-json-1.0" }, { "x-amz-target", "AmazonSQS.SendMessage" } };
    expected.body = request.body;
    const Signature signature = signV4(expected, credentials, "eu-west-1", "sqs", 1764576000);
    CHECK(sent
        == "POST /000000000000/orders?x=1 HTTP/1.1\r\nHost: sqs.eu-west-1.amazonaws.com\r\n"
           "content-type: application/x-amz-json-1.0\r\nx-amz-target: AmazonSQS.SendMessage\r\n"
           "x-amzn-trace-id: Root=1-abc\r\nuser-agent: Boto3/1.34.90 md/x\r\nX-Amz-Date: 20251201T080000Z\r\n"
           "X-Amz-Security-Token: session-token\r\nAuthorization: "
            + signature.authorization + "\r\nContent-Length: 35\r\n\r\n" + request.body);
    CHECK(sent.find("client-token") == std::string::npos);
    CHECK(sent.find("Credential=client/") == std::string::npos);
    CHECK(sent.find(credentials.secretAccessKey) == std::string::npos); // a signature, never the secret
    CHECK(endpoint::clientAccessKeyId(request.header("authorization")) == "client");
}

TEST_CASE("client identity: a row per kind of client - the CLI's calls share one", "[net][forward]")
{
    const char* signedBy = "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20261201/us-east-1/sqs/aws4_request, "
                           "SignedHeaders=host, Signature=0";
    CHECK(endpoint::clientIdentity("Boto3/1.26.27 Python/3.11.2 Linux/6.1 Botocore/1.29.27", signedBy)
        == "Boto3/1.26.27 (AKIAIO…)");
    CHECK(endpoint::clientIdentity("aws-cli/2.9.19 Python/3.11.2 Linux/6.1 source/x86_64.debian.12", signedBy)
        == "CLI calls");
    CHECK(endpoint::clientIdentity("aws-sdk-js/3.700.0 ua/2.1", "") == "aws-sdk-js/3.700.0");
    CHECK(endpoint::clientIdentity("", "") == "client");
}

TEST_CASE("forward: an upstream text loses its secrets - SignatureDoesNotMatch quotes the token it was signed with",
    "[net][forward]")
{
    const std::string token = "IQoJb3JpZ2luX2VjEJr//////////wEaCWV1LXdlc3QtMSJHMEUCIQDx+3kYZ9q/abc==";
    // What SQS answers a request signed with a wrong secret, its canonical request quoted (headers included).
    const std::string text
        = "The request signature we calculated does not match the signature you provided. Check "
          "your AWS Secret Access Key and signing method.\n\nThe Canonical String for this request "
          "should have been\n'POST\n/\n\nhost:sqs.eu-west-1.amazonaws.com\nx-amz-date:20261204T101010Z\n"
          "x-amz-security-token:"
        + token
        + "\n\nhost;x-amz-date;x-amz-security-token\n9e1f'\n\nThe String-to-Sign should have been\n'AWS4-HMAC-SHA256\n"
          "20261204T101010Z\n20261204/eu-west-1/sqs/aws4_request\n5d41402abc4b2a76b9719d911017c592'\n";
    const std::string scrubbed = scrubSecrets(text);
    CHECK(scrubbed.find(token) == std::string::npos);
    CHECK(scrubbed.find("IQoJ") == std::string::npos);
    CHECK(scrubbed.find("x-amz-security-token:[hidden]\n") != std::string::npos);
    // The rest reads as it did: what went wrong, the host, the date, the scope.
    CHECK(scrubbed.starts_with("The request signature we calculated does not match the signature you provided. Check "
                               "your AWS Secret Access Key and signing method."));
    CHECK(scrubbed.find("host:sqs.eu-west-1.amazonaws.com\nx-amz-date:20261204T101010Z\n") != std::string::npos);
    CHECK(scrubbed.find("20261204/eu-west-1/sqs/aws4_request") != std::string::npos);
    // A token in a query string or in JSON, a signature, a key id, a secret.
    CHECK(scrubSecrets("GET /?X-Amz-Security-Token=abc%2Fdef&X-Amz-Signature=0123abcd&Action=ListQueues")
        == "GET /?X-Amz-Security-Token=[hidden]&X-Amz-Signature=[hidden]&Action=ListQueues");
    CHECK(scrubSecrets(R"({"SessionToken": "FwoGZXIvYXdz", "AccessKeyId": "ASIAQWERTYUIOPASDFGH"})")
        == R"({"SessionToken": "[hidden]", "AccessKeyId": "ASIA[hidden]"})");
    CHECK(scrubSecrets("Credential=AKIAIOSFODNN7EXAMPLE/20261204/eu-west-1/sqs/aws4_request, Signature=fe5f80f77d5fa3")
        == "Credential=AKIA[hidden]/20261204/eu-west-1/sqs/aws4_request, Signature=[hidden]");
    CHECK(scrubSecrets("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG") == "aws_secret_access_key = [hidden]");
    CHECK(scrubSecrets("The specified queue does not exist.") == "The specified queue does not exist.");
    // A hostile upstream's megabytes: scanned, not recursed into.
    CHECK(scrubSecrets("x-amz-security-token:" + std::string(4 << 20, 'A')) == "x-amz-security-token:[hidden]");
}

TEST_CASE("secrets: the proxy's own token and secret key scrubbed wherever they stand - as they are and encoded",
    "[forward][secrets]")
{
    const std::string token = "IQoJb3JpZ2luX2VjEHostileTestToken0042/abc+def==";
    const std::vector<std::string> known { token, "hostile-secret", "" };
    CHECK(aws::scrubSecrets("The security token " + token
                  + " (or IQoJb3JpZ2luX2VjEHostileTestToken0042%2Fabc%2Bdef%3D%3D)"
                    " is invalid; key hostile-secret.",
              known)
        == "The security token [hidden] (or [hidden]) is invalid; key [hidden].");
    // Short strings are never treated as secrets (an empty or tiny value would mangle every text).
    CHECK(aws::scrubSecrets("a b c", { "a", "" }) == "a b c");
    // The named forms are still scrubbed as before.
    CHECK(aws::scrubSecrets("x-amz-security-token:abc", {}) == "x-amz-security-token:[hidden]");
}
