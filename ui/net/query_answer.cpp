#include "net/query_answer.h"

#include <QXmlStreamReader>

namespace lifeline::ui {

using nlohmann::json;

namespace {
// The JSON member a repeated query element belongs to.
std::string listMember(const QStringView element)
{
    if (element == u"Message")
        return "Messages";
    if (element == u"BatchResultErrorEntry")
        return "Failed";
    if (element.endsWith(u"ResultEntry"))
        return "Successful";
    return {};
}

// Reads the element the reader stands on (its start) up to its end: text, or an object of its children.
json readElement(QXmlStreamReader& xml, int depth)
{
    json object = json::object();
    QString text;
    bool hasChildren = false;
    while (!xml.atEnd()) {
        const auto token = xml.readNext();
        if (token == QXmlStreamReader::EndElement)
            break;
        if (token == QXmlStreamReader::Characters) {
            text += xml.text();
            continue;
        }
        if (token != QXmlStreamReader::StartElement)
            continue;
        hasChildren = true;
        const QString name = xml.name().toString();
        json child = depth < 16 ? readElement(xml, depth + 1) : json();
        if (depth >= 16)
            xml.skipCurrentElement();
        if (name == u"Attribute" && child.is_object()) {
            object["Attributes"][child.value("Name", "")] = child.value("Value", "");
        } else if (name == u"MessageAttribute") {
            continue; // message attributes: nothing on a lane needs them
        } else if (const std::string list = listMember(name); !list.empty() && depth > 0) {
            object[list].push_back(std::move(child));
        } else {
            object[name.toStdString()] = std::move(child);
        }
    }
    if (!hasChildren)
        return text.toStdString();
    return object;
}
} // namespace

json queryAnswerAsJson(const std::string& body)
{
    QXmlStreamReader xml(QByteArray::fromRawData(body.data(), qsizetype(body.size())));
    while (!xml.atEnd() && xml.readNext() != QXmlStreamReader::StartElement) { }
    if (xml.atEnd() || xml.hasError())
        return json::object();
    const bool error = xml.name() == u"ErrorResponse";
    json root = readElement(xml, 0);
    if (!root.is_object())
        return json::object();
    if (error) {
        const json& e = root.contains("Error") && root["Error"].is_object() ? root["Error"] : json::object();
        return json { { "__type", e.value("Code", "") }, { "message", e.value("Message", "") } };
    }
    // <XResponse><XResult>...</XResult><ResponseMetadata/></XResponse>: the result's members.
    for (auto& [name, value] : root.items())
        if (name.ends_with("Result") && value.is_object())
            return value;
    return json::object();
}

} // namespace lifeline::ui
