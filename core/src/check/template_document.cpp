#include "template_document.h"

#include <algorithm>
#include <cstdint>
#include <yaml-cpp/yaml.h>

namespace lifeline::check {

namespace {

using json = nlohmann::json;

// What a template may hold. CloudFormation takes at most 1 MB of template; its JSON nests far less than 64 deep. An
// alias repeats what it names, so a small file can expand without bound: the values and bytes counted are the
// expanded ones.
constexpr int kDeepest = 64;
constexpr size_t kMostValues = 1000000;
constexpr size_t kMostBytes = 32u << 20;

// A plain YAML scalar as the type it reads as (5, true); a quoted one stays text.
json scalar(const YAML::Node& node)
{
    const std::string& text = node.Scalar();
    if (node.Tag() != "?")
        return text;
    if (text == "true" || text == "false")
        return text == "true";
    if (text == "null" || text == "~")
        return nullptr;
    if (wholeNumber(text))
        return std::stoll(text);
    return text;
}

// Where `text` stops being UTF-8 (a byte outside a well-formed sequence, an overlong or surrogate form), or npos.
size_t firstNonUtf8(const std::string& text)
{
    for (size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        const size_t length = byte < 0x80 ? 1
            : (byte >> 5) == 0x6          ? 2
            : (byte >> 4) == 0xE          ? 3
            : (byte >> 3) == 0x1E         ? 4
                                          : 0;
        if (length == 0 || i + length > text.size())
            return i;
        uint32_t code = length == 1 ? byte : byte & (0x7F >> length);
        for (size_t k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next >> 6) != 0x2)
                return i;
            code = (code << 6) | (next & 0x3F);
        }
        const uint32_t shortest[] = { 0, 0, 0x80, 0x800, 0x10000 };
        if (code < shortest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
            return i;
        i += length;
    }
    return std::string::npos;
}

std::string lineText(const YAML::Mark& mark)
{
    return "line " + std::to_string(mark.line + 1);
}

class Converter {
public:
    explicit Converter(TemplateDocument& into)
        : m_into(into)
    {
    }

    json convert(const YAML::Node& node, const std::string& path, int depth)
    {
        if (depth > kDeepest || ++m_values > kMostValues)
            throw TemplateError("nested deeper than 64 levels or larger than a million values: not a template");
        json out;
        if (node.IsMap())
            out = map(node, path, depth);
        else if (node.IsSequence()) {
            out = json::array();
            size_t i = 0;
            for (const auto& item : node) {
                const std::string at = path + "." + std::to_string(i++);
                m_into.lines.emplace(at, item.Mark().line + 1);
                out.push_back(convert(item, at, depth + 1));
            }
        } else if (node.IsScalar()) {
            m_bytes += node.Scalar().size();
            if (m_bytes > kMostBytes)
                throw TemplateError("more than 32 MB once its aliases are expanded: not a template (CloudFormation "
                                    "takes at most 1 MB)");
            out = scalar(node);
        }
        return longForm(node.Tag(), std::move(out));
    }

private:
    json map(const YAML::Node& node, const std::string& path, int depth)
    {
        json out = json::object();
        for (const auto& entry : node) {
            const std::string key = entry.first.as<std::string>();
            const std::string at = path.empty() ? key : path + "." + key;
            const int line = entry.first.Mark().line + 1;
            if (out.contains(key))
                throw TemplateError(at + ": given twice (" + lineText(entry.first.Mark()) + ", first at line "
                    + std::to_string(m_into.lines[at]) + "); CloudFormation refuses a duplicate key");
            m_into.lines.emplace(at, line);
            out[key] = convert(entry.second, at, depth + 1);
        }
        return out;
    }

    // A tagged node (!Ref X) into its long form ({"Ref": "X"}); !GetAtt's "Q.Arn" into ["Q", "Arn"].
    static json longForm(const std::string& tag, json out)
    {
        if (tag.size() < 2 || tag[0] != '!' || tag[1] == '!')
            return out; // untagged ("?" or "!") or a standard YAML tag
        const std::string function = tag.substr(1);
        if (function == "GetAtt" && out.is_string()) {
            const std::string text = out;
            const auto dot = text.find('.');
            out = json::array({ text.substr(0, dot), dot == std::string::npos ? "" : text.substr(dot + 1) });
        }
        const std::string key = function == "Ref" || function == "Condition" ? function : "Fn::" + function;
        return json { { key, std::move(out) } };
    }

    TemplateDocument& m_into;
    size_t m_values = 0;
    size_t m_bytes = 0;
};

} // namespace

bool wholeNumber(const std::string& text)
{
    return !text.empty() && text.size() < 18 && text.find_first_not_of("0123456789") == std::string::npos;
}

TemplateDocument readTemplateDocument(const std::string& text)
{
    // YAML and JSON are Unicode text: a byte that is not UTF-8 is refused with its line, before a report would print
    // it.
    if (const size_t at = firstNonUtf8(text); at != std::string::npos)
        throw TemplateError("not UTF-8 text: byte " + std::to_string(at) + " (line "
            + std::to_string(1 + std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n')) + ")");
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        throw TemplateError("not YAML or JSON: " + e.msg + " (" + lineText(e.mark) + ")");
    }
    TemplateDocument document;
    try {
        document.root = Converter(document).convert(root, "", 0);
    } catch (const YAML::Exception& e) {
        throw TemplateError(e.msg + " (" + lineText(e.mark) + ")");
    }
    return document;
}

} // namespace lifeline::check
