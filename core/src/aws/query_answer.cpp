#include "lifeline/aws/query_answer.h"

#include "lifeline/endpoint/protocol.h"
#include "lifeline/support/json_depth.h"

#include <expat.h>
#include <memory>
#include <vector>

namespace lifeline::aws {

using nlohmann::json;

namespace {
constexpr size_t kDeepest = 16; // an element below this depth reads as null: SQS's answers nest five deep at most

// The JSON member a repeated query element belongs to.
std::string listMember(std::string_view element)
{
    if (element == "Message")
        return "Messages";
    if (element == "BatchResultErrorEntry")
        return "Failed";
    if (element.ends_with("ResultEntry"))
        return "Successful";
    return {};
}

std::string stringMember(const json& object, const char* name)
{
    const auto it = object.find(name);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// An element being read: its children so far, or its text when it has none.
struct Element {
    std::string name;
    json object = json::object();
    std::string text;
    bool hasChildren = false;
};

// Builds the root element's JSON as expat reports starts, text and ends; the root's end stops the parser.
class AnswerReader {
public:
    void start(const char* name)
    {
        if (!m_open.empty())
            m_open.back().hasChildren = true;
        if (m_skipped > 0 || m_open.size() > kDeepest) {
            if (m_skipped++ == 0)
                m_skippedName = name; // too deep: it reads as null, and nothing inside it is kept
            return;
        }
        m_open.push_back(Element { name, json::object(), {}, false });
    }
    void text(std::string_view characters)
    {
        if (m_skipped == 0 && !m_open.empty())
            m_open.back().text += characters;
    }
    // True when the root element has ended.
    bool end()
    {
        if (m_skipped > 0) {
            if (--m_skipped == 0)
                place(m_skippedName, json());
            return false;
        }
        Element element = std::move(m_open.back());
        m_open.pop_back();
        json value = element.hasChildren ? std::move(element.object) : json(std::move(element.text));
        if (m_open.empty()) {
            m_root = std::move(value);
            m_rootName = std::move(element.name);
            return true;
        }
        place(element.name, std::move(value));
        return false;
    }
    const json& root() const { return m_root; }
    const std::string& rootName() const { return m_rootName; }

private:
    void place(const std::string& name, json value)
    {
        Element& parent = m_open.back();
        if (name == "Attribute" && value.is_object()) {
            json& attributes = parent.object["Attributes"];
            if (!attributes.is_object())
                attributes = json::object();
            attributes[stringMember(value, "Name")] = stringMember(value, "Value");
        } else if (name == "MessageAttribute") {
            // message attributes: nothing on a lane needs them
        } else if (const std::string list = listMember(name);
                   !list.empty() && m_open.size() > 1 && parent.name != "Error") { // an error's Message is its text
            json& member = parent.object[list];
            if (!member.is_array())
                member = json::array();
            member.push_back(std::move(value));
        } else {
            parent.object[name] = std::move(value);
        }
    }

    std::vector<Element> m_open; // the root first
    size_t m_skipped = 0; // elements open inside the outermost one too deep to keep, itself included
    std::string m_skippedName;
    json m_root;
    std::string m_rootName;
};

struct ParserFree {
    void operator()(XML_Parser parser) const { XML_ParserFree(parser); }
};

// The root element read into JSON; null when the bytes are not well-formed XML up to the root's end.
json readRoot(std::string_view xml, std::string& rootName)
{
    const std::unique_ptr<XML_ParserStruct, ParserFree> parser(XML_ParserCreate("UTF-8"));
    if (!parser || xml.size() > size_t(INT32_MAX))
        return json();
    struct State {
        XML_Parser parser;
        AnswerReader reader;
        bool done = false;
    } state { parser.get(), {}, false };
    XML_SetUserData(parser.get(), &state);
    XML_SetElementHandler(
        parser.get(),
        [](void* data, const XML_Char* name, const XML_Char**) { static_cast<State*>(data)->reader.start(name); },
        [](void* data, const XML_Char*) {
            auto* s = static_cast<State*>(data);
            if (s->reader.end()) {
                s->done = true;
                XML_StopParser(s->parser, XML_FALSE); // what follows the root is not read
            }
        });
    XML_SetCharacterDataHandler(parser.get(), [](void* data, const XML_Char* text, int length) {
        static_cast<State*>(data)->reader.text(std::string_view(text, size_t(length)));
    });
    const XML_Status status = XML_Parse(parser.get(), xml.data(), int(xml.size()), XML_TRUE);
    if (!state.done || (status == XML_STATUS_ERROR && XML_GetErrorCode(parser.get()) != XML_ERROR_ABORTED))
        return json();
    rootName = state.reader.rootName();
    return state.reader.root();
}
} // namespace

json queryAnswerAsJson(std::string_view xml)
{
    std::string rootName;
    json root = readRoot(xml, rootName);
    if (!root.is_object())
        return json::object();
    if (rootName == "ErrorResponse") {
        const auto error = root.find("Error");
        const json& e = error != root.end() && error->is_object() ? *error : json::object();
        return json { { "__type", stringMember(e, "Code") }, { "message", stringMember(e, "Message") } };
    }
    // <XResponse><XResult>...</XResult><ResponseMetadata/></XResponse>: the result's members.
    for (auto& [name, value] : root.items())
        if (name.ends_with("Result") && value.is_object())
            return value;
    return json::object();
}

nlohmann::json answerAsJson(const HttpAnswer& answer)
{
    if (answer.header("content-type").find("json") != std::string_view::npos) {
        if (jsonNestsDeeperThan(answer.body, endpoint::kMaxJsonNesting))
            return nlohmann::json::object();
        nlohmann::json parsed = nlohmann::json::parse(answer.body, nullptr, false);
        return parsed.is_discarded() ? nlohmann::json::object() : parsed;
    }
    return queryAnswerAsJson(answer.body);
}

} // namespace lifeline::aws
