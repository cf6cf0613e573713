#include "lifeline/endpoint/sqs_service.h"

#include "lifeline/engine/message_rules.h"
#include "sqs_params.h"

namespace lifeline::endpoint {

using namespace params;

SqsService::SqsService(Engine& engine)
    : m_engine(engine)
{
}

std::string SqsService::queueUrl(const std::string& host, const std::string& name) const
{
    return "http://" + host + "/" + m_engine.options().accountId + "/" + name;
}

json SqsService::renderMessages(const std::vector<ReceivedMessage>& messages, const ReceiveView& view) const
{
    if (messages.empty())
        return json::object();
    json list = json::array();
    for (const auto& m : messages) {
        json out { { "MessageId", m.messageId }, { "ReceiptHandle", m.receiptHandle },
            { "MD5OfBody", m.md5OfBody.hex() }, { "Body", m.body } };
        const AttributeMap system = m.systemAttributes(view.attributeNames);
        if (!system.empty())
            out["Attributes"] = json(system);
        std::vector<MessageAttribute> shown;
        for (const auto& a : m.attributes)
            if (wantsAttribute(view.messageAttributeNames, a.name))
                shown.push_back(a);
        if (!shown.empty()) {
            // The digest covers the attributes returned, so an SDK that checks it agrees.
            out["MD5OfMessageAttributes"] = md5OfMessageAttributes(shown);
            json attributes = json::object();
            for (const auto& a : shown)
                attributes[a.name] = attributeValueJson(a.value);
            out["MessageAttributes"] = std::move(attributes);
        }
        list.push_back(std::move(out));
    }
    return json { { "Messages", std::move(list) } };
}

} // namespace lifeline::endpoint
