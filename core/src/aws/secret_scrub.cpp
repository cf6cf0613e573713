#include "lifeline/aws/secret_scrub.h"

#include <array>
#include <cctype>

namespace lifeline::aws {

namespace {
// A scanner, not std::regex: libstdc++'s regex recurses once a character, and an upstream text may be megabytes.
constexpr std::array<std::string_view, 8> kNames { "x-amz-security-token", "x-amz-signature", "aws_secret_access_key",
    "secret_access_key", "secretaccesskey", "session_token", "sessiontoken", "signature" };
constexpr std::array<std::string_view, 4> kKeyKinds { "AKIA", "ASIA", "AIDA", "AROA" };

bool word(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
}

bool startsWithIgnoringCase(std::string_view text, size_t at, std::string_view name)
{
    if (text.size() - at < name.size())
        return false;
    for (size_t i = 0; i < name.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[at + i])) != name[i])
            return false;
    return true;
}

// After a secret's name: `"? *[:=] *"?`; where its value starts, or 0 when no value follows.
size_t valueStart(std::string_view text, size_t at)
{
    if (at < text.size() && text[at] == '"')
        ++at;
    while (at < text.size() && text[at] == ' ')
        ++at;
    if (at >= text.size() || (text[at] != ':' && text[at] != '='))
        return 0;
    ++at;
    while (at < text.size() && text[at] == ' ')
        ++at;
    if (at < text.size() && text[at] == '"')
        ++at;
    return at;
}

size_t valueEnd(std::string_view text, size_t at)
{
    while (at < text.size() && !std::isspace(static_cast<unsigned char>(text[at])) && text[at] != '"'
        && text[at] != '\'' && text[at] != ',' && text[at] != '&' && text[at] != '<')
        ++at;
    return at;
}
} // namespace

std::string scrubSecrets(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    size_t i = 0;
    while (i < text.size()) {
        const bool boundary = i == 0 || !word(text[i - 1]);
        bool replaced = false;
        for (const std::string_view name : kNames) {
            if (!boundary && name != "signature") // "X-Amz-Signature" and "Signature" alike
                continue;
            if (!startsWithIgnoringCase(text, i, name))
                continue;
            const size_t start = valueStart(text, i + name.size());
            const size_t end = start ? valueEnd(text, start) : 0;
            if (start == 0 || end == start)
                continue;
            out.append(text.substr(i, start - i)).append("[hidden]");
            i = end;
            replaced = true;
            break;
        }
        if (replaced)
            continue;
        for (const std::string_view kind : kKeyKinds) {
            if (!boundary || text.compare(i, kind.size(), kind) != 0)
                continue;
            size_t end = i + kind.size();
            while (end < text.size()
                && (std::isupper(static_cast<unsigned char>(text[end]))
                    || std::isdigit(static_cast<unsigned char>(text[end]))))
                ++end;
            if (end - i - kind.size() < 12 || (end < text.size() && word(text[end])))
                continue;
            out.append(kind).append("[hidden]");
            i = end;
            replaced = true;
            break;
        }
        if (!replaced)
            out += text[i++];
    }
    return out;
}

std::string scrubSecrets(std::string_view text, const std::vector<std::string>& known)
{
    std::string out(text);
    for (const std::string& secret : known) {
        if (secret.size() < 8) // nothing that short is a credential; replacing it would mangle ordinary text
            continue;
        std::string encoded; // as a query string or a canonical request carries it
        for (const unsigned char c : secret) {
            if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
                encoded += char(c);
            } else {
                static constexpr char kHex[] = "0123456789ABCDEF";
                encoded += '%';
                encoded += kHex[c >> 4];
                encoded += kHex[c & 15];
            }
        }
        for (const std::string& form : { secret, encoded })
            for (size_t at = out.find(form); at != std::string::npos; at = out.find(form, at + 8))
                out.replace(at, form.size(), "[hidden]");
    }
    return scrubSecrets(out);
}

} // namespace lifeline::aws
