// The proxy's credentials and region, found as the AWS CLI finds them; SigV4 on AWS's own example.
#include "lifeline/aws/aws_credentials.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using namespace lifeline::aws;

namespace {

const std::string kCredentials
    = "# comment\n[default]\naws_access_key_id = AKIADEFAULT\naws_secret_access_key = "
      "secret-default\n\n[work]\naws_access_key_id=AKIAWORK\naws_secret_access_key=secret-work\n"
      "aws_session_token = token-work\n";
const std::string kConfig
    = "[default]\nregion = eu-west-1\n[profile work]\nregion=ap-southeast-2\n"
      "[profile sso-only]\naws_access_key_id = AKIACONFIG\naws_secret_access_key = secret-config\n";

} // namespace

TEST_CASE("credentials: environment - then the profile - the region's order", "[net][credentials]")
{
    CredentialSources sources { {}, kCredentials, kConfig };
    auto found = resolveCredentials(sources, "", "");
    REQUIRE(found);
    CHECK(found->credentials.accessKeyId == "AKIADEFAULT");
    CHECK(found->credentials.secretAccessKey == "secret-default");
    CHECK(found->credentials.sessionToken.empty());
    CHECK(found->region == "eu-west-1");
    CHECK(found->source == "profile default (~/.aws/credentials)");

    sources.environment = { { "AWS_ACCESS_KEY_ID", "AKIAENV" }, { "AWS_SECRET_ACCESS_KEY", "secret-env" },
        { "AWS_SESSION_TOKEN", "token-env" }, { "AWS_DEFAULT_REGION", "us-west-2" } };
    found = resolveCredentials(sources, "", "");
    REQUIRE(found);
    CHECK(found->credentials.accessKeyId == "AKIAENV");
    CHECK(found->credentials.sessionToken == "token-env");
    CHECK(found->region == "us-west-2");
    CHECK(found->source == "environment");
    CHECK(resolveCredentials(sources, "", "sa-east-1")->region == "sa-east-1"); // the option wins

    found = resolveCredentials(sources, "work", ""); // an explicit profile wins over the environment's keys
    REQUIRE(found);
    CHECK(found->credentials.accessKeyId == "AKIAWORK");
    CHECK(found->credentials.sessionToken == "token-work");
    CHECK(found->region == "us-west-2"); // AWS_DEFAULT_REGION before the profile's region

    sources.environment = { { "AWS_PROFILE", "work" } };
    CHECK(resolveCredentials(sources, "", "")->region == "ap-southeast-2");
    found = resolveCredentials(sources, "sso-only", "");
    REQUIRE(found);
    CHECK(found->credentials.accessKeyId == "AKIACONFIG");
    CHECK(found->source == "profile sso-only (~/.aws/config)");
}

TEST_CASE("credentials: what is missing is said - never a secret", "[net][credentials]")
{
    CHECK(resolveCredentials({}, "", "").message()
        == "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give ~/.aws/credentials a "
           "[default] profile (aws configure does)");
    CHECK(resolveCredentials({ {}, kCredentials, kConfig }, "nope", "").message()
        == "the profile 'nope' is in neither ~/.aws/credentials nor ~/.aws/config");
    CHECK(resolveCredentials({ { { "AWS_ACCESS_KEY_ID", "AKIA" } }, {}, {} }, "", "").message()
        == "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not");
    CHECK(resolveCredentials({ {}, "[default]\naws_access_key_id = AKIA\n", {} }, "", "").message()
        == "the profile 'default' has no aws_access_key_id and aws_secret_access_key");
}

TEST_CASE("sigv4: AWS's documented example request signs to AWS's documented signature", "[net][sigv4]")
{
    // The GET ListUsers example of AWS's "Signature Version 4 signing process" guide (IAM, us-east-1, 2015-08-30).
    SigningRequest request;
    request.method = "GET";
    request.host = "iam.amazonaws.com";
    request.path = "/";
    request.query = "Action=ListUsers&Version=2010-05-08";
    request.headers = { { "Content-Type", "application/x-www-form-urlencoded; charset=utf-8" } };
    const auto signature = signV4(
        request, { "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "" }, "us-east-1", "iam", 1440938160);
    CHECK(signature.amzDate == "20150830T123600Z");
    CHECK(signature.authorization
        == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, "
           "SignedHeaders=content-type;host;x-amz-date, "
           "Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7");
    CHECK(sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}
