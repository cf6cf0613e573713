#include "http/live_queue.h"

#include "http/aws_environment.h"
#include "http/upstream_connection.h"
#include "lifeline/aws/forward.h"
#include "lifeline/aws/query_answer.h"
#include "lifeline/endpoint/http.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QEventLoop>
#include <QSslCertificate>
#include <memory>
#include <optional>

namespace lifeline::ui {

namespace {

using json = nlohmann::json;

constexpr int kTimeoutMs = 20000;

struct Bad {
    std::string message;
};

// One endpoint, its credentials and region: a request in, its answer as JSON out, or a Bad saying why not.
class Endpoint {
public:
    Endpoint(aws::Upstream upstream, const QList<QSslCertificate>& trusted, aws::AwsCredentials credentials,
        std::string region)
        : m_upstream(std::move(upstream))
        , m_connection(m_upstream, trusted)
        , m_credentials(std::move(credentials))
        , m_region(std::move(region))
    {
    }

    // An SQS action in the query protocol, which every SQS speaks.
    json sqs(const std::string& action, const std::string& parameters)
    {
        return answer(aws::ownRequest("Action=" + action + "&Version=2012-11-05&" + parameters), "sqs", action);
    }
    // A GET of Lambda's REST API.
    json lambda(const std::string& target, const std::string& what)
    {
        endpoint::HttpRequest request;
        request.method = "GET";
        request.target = target;
        return answer(request, "lambda", what);
    }
    const aws::Upstream& upstream() const { return m_upstream; }

private:
    json answer(const endpoint::HttpRequest& request, const std::string& service, const std::string& what)
    {
        const std::string bytes = aws::forwardRequest(
            request, m_upstream, m_credentials, m_region, QDateTime::currentSecsSinceEpoch(), service);
        std::optional<Outcome<aws::HttpAnswer>> result;
        QEventLoop loop;
        m_connection.send(bytes, kTimeoutMs, [&](Outcome<aws::HttpAnswer> answer) {
            result = std::move(answer);
            loop.quit();
        });
        if (!result)
            loop.exec();
        if (!*result)
            throw Bad { what + ": " + m_upstream.url() + " did not answer: " + result->message() };
        aws::HttpAnswer answer = result->value();
        if (service == "lambda") // Lambda answers JSON whatever its Content-Type says (moto's says text/html)
            answer.headers = { { "content-type", "application/json" } };
        json body = aws::answerAsJson(answer);
        if (answer.status != 200) {
            const std::string type = body.value("__type", body.value("Type", std::string("error")));
            throw Bad { what + ": " + type.substr(type.find('#') + 1) + " (HTTP " + std::to_string(answer.status)
                + "): " + body.value("message", body.value("Message", std::string("no message"))) };
        }
        return body;
    }

    aws::Upstream m_upstream;
    ui::UpstreamConnection m_connection;
    aws::AwsCredentials m_credentials;
    std::string m_region;
};

json attributesAt(Endpoint& sqs, const std::string& url)
{
    const json answer = sqs.sqs("GetQueueAttributes", "QueueUrl=" + endpoint::urlEncode(url) + "&AttributeName.1=All");
    if (!answer.contains("Attributes") || !answer["Attributes"].is_object())
        throw Bad { "GetQueueAttributes: the answer holds no attributes" };
    return answer["Attributes"];
}

// The region in sqs.REGION.amazonaws.com (or the legacy REGION.queue.amazonaws.com); empty for other hosts.
std::string regionOfHost(const std::string& host)
{
    const std::string suffix = ".amazonaws.com";
    if (!host.ends_with(suffix))
        return {};
    const std::string head = host.substr(0, host.size() - suffix.size());
    if (head.starts_with("sqs."))
        return head.substr(4);
    if (head.ends_with(".queue"))
        return head.substr(0, head.size() - 6);
    return {};
}

// The first enabled mapping that reads `arn`, as the check's "lambda" consumer side; what else is worth saying goes
// to `unknown`.
json triggerOf(Endpoint& lambda, const std::string& arn, std::vector<std::string>& unknown)
{
    const json list = lambda.lambda(
        "/2015-03-31/event-source-mappings/?EventSourceArn=" + endpoint::urlEncode(arn), "ListEventSourceMappings");
    const json mappings = list.value("EventSourceMappings", json::array());
    if (!mappings.is_array() || mappings.empty())
        return nullptr;
    json chosen;
    for (const json& m : mappings)
        if (chosen.is_null() && m.is_object() && m.value("State", std::string("Enabled")) != "Disabled")
            chosen = m;
    if (chosen.is_null())
        return nullptr;
    if (mappings.size() > 1)
        unknown.push_back(std::to_string(mappings.size()) + " event source mappings read the queue: the first enabled ("
            + chosen.value("UUID", std::string("?")) + ") is checked");
    const std::string function = chosen.value("FunctionArn", std::string());
    std::string name
        = function.substr(function.find(":function:") == std::string::npos ? 0 : function.find(":function:") + 10);
    name = name.substr(0, name.find(':')); // a version or alias qualifier: the function's own timeout is read
    json l = json::object();
    const json configuration = lambda.lambda(
        "/2015-03-31/functions/" + endpoint::urlEncode(name) + "/configuration", "GetFunctionConfiguration");
    l["timeout"] = std::to_string(configuration.value("Timeout", 3)) + "s";
    if (chosen.value("BatchSize", json()).is_number_integer())
        l["batchSize"] = chosen["BatchSize"];
    if (chosen.value("MaximumBatchingWindowInSeconds", json()).is_number_integer())
        l["batchingWindow"] = std::to_string(chosen["MaximumBatchingWindowInSeconds"].get<int64_t>()) + "s";
    const json scaling = chosen.value("ScalingConfig", json::object());
    if (scaling.is_object() && scaling.value("MaximumConcurrency", json()).is_number_integer())
        l["maxConcurrency"] = scaling["MaximumConcurrency"];
    for (const json& t : chosen.value("FunctionResponseTypes", json::array()))
        if (t == "ReportBatchItemFailures")
            l["reportBatchItemFailures"] = true;
    return l;
}

} // namespace

Outcome<check::TemplateQueue> readLiveQueue(const LiveQueueRequest& request)
{
    const std::string& url = request.queueUrl;
    const size_t scheme = url.find("://");
    const size_t pathStart = scheme == std::string::npos ? std::string::npos : url.find('/', scheme + 3);
    if (pathStart == std::string::npos || url.size() <= pathStart + 1)
        return Failure { "--queue-url: '" + url
            + "' is not a queue URL (https://sqs.REGION.amazonaws.com/ACCOUNT/NAME)" };
    std::string why;
    const auto upstream = aws::parseUpstream(url.substr(0, pathStart), &why);
    if (!upstream)
        return Failure { "--queue-url: " + why };
    if (!upstream->tls && !aws::isLoopbackHost(upstream->host) && !request.insecure)
        return Failure { "--queue-url: refusing plain http to " + upstream->host
            + ", which is not this machine: the signed requests would cross the network unencrypted (use https://, or "
              "--insecure-upstream if you mean it)" };
    const std::string hostRegion = regionOfHost(upstream->host);
    auto credentials = aws::resolveCredentials(
        credentialSourcesOfThisMachine(), request.profile, request.region.empty() ? hostRegion : request.region);
    if (!credentials)
        return Failure { "--queue-url: " + credentials.message() };
    const std::string region = credentials->region.empty() ? "us-east-1" : credentials->region;
    // Sockets (and certificates) need an application object; a headless command has none.
    static int argc = 1;
    static char name[] = "lifeline";
    static char* argv[] = { name, nullptr };
    std::unique_ptr<QCoreApplication> application;
    if (!QCoreApplication::instance())
        application = std::make_unique<QCoreApplication>(argc, argv);

    QList<QSslCertificate> trusted;
    if (const std::string bundle = caBundleOfThisMachine(); !bundle.empty()) {
        trusted = QSslCertificate::fromPath(QString::fromStdString(bundle), QSsl::Pem);
        if (trusted.isEmpty())
            return Failure { "--queue-url: the CA bundle " + bundle + " holds no PEM certificate (or cannot be read)" };
    }
    check::TemplateQueue q;
    std::string queueName = url.substr(url.rfind('/') + 1);
    q.logicalId = queueName;
    try {
        Endpoint sqs(*upstream, trusted, credentials->credentials, region);
        q.attributes = attributesAt(sqs, url);
        const json redrive = json::parse(q.attributes.value("RedrivePolicy", std::string("{}")), nullptr, false);
        if (redrive.is_object() && redrive.value("deadLetterTargetArn", json()).is_string()) {
            const std::string arn = redrive["deadLetterTargetArn"];
            const auto parts = arn.rfind(':');
            const auto accountEnd = arn.rfind(':', parts - 1);
            try {
                const json found = sqs.sqs("GetQueueUrl",
                    "QueueName=" + endpoint::urlEncode(arn.substr(parts + 1)) + "&QueueOwnerAWSAccountId="
                        + endpoint::urlEncode(arn.substr(accountEnd + 1, parts - accountEnd - 1)));
                q.deadLetterAttributes = attributesAt(sqs, found.value("QueueUrl", std::string()));
            } catch (const Bad& bad) {
                q.unknown.push_back(
                    "the dead-letter queue's attributes: " + bad.message + "; findings about it assume SQS's defaults");
            }
        }
        if (request.lambdaMappings) {
            const std::string arn = q.attributes.value("QueueArn", std::string());
            const bool aws = !hostRegion.empty();
            auto lambdaUpstream = *upstream;
            if (aws) {
                lambdaUpstream.host = "lambda." + region + ".amazonaws.com";
                lambdaUpstream.basePath.clear();
            }
            Endpoint lambda(lambdaUpstream, trusted, credentials->credentials, region);
            if (const json trigger = triggerOf(lambda, arn, q.unknown); !trigger.is_null())
                q.consumer["lambda"] = trigger;
        }
    } catch (const Bad& bad) {
        return Failure { "--queue-url: " + bad.message };
    }
    return q;
}

} // namespace lifeline::ui
