#include "lifeline/engine/message_rules.h"

#include "lifeline/support/digest.h"

#include <algorithm>
#include <cstring>

namespace lifeline {

namespace {

SqsError invalidToken(const char* parameter, const std::string& value)
{
    return makeError(codes::InvalidParameterValue,
        "Value " + value + " for parameter " + parameter + " is invalid. Reason: " + parameter
            + " can only include alphanumeric and punctuation characters. 1 to 128 in length.");
}

// Decodes the multi-byte UTF-8 sequence at p (whose first byte is >= 0x80) into `code` and steps past it; false for
// a malformed or overlong sequence.
bool nextCodePoint(const unsigned char*& p, const unsigned char* end, uint32_t& code)
{
    const unsigned char c = *p;
    int extra;
    if ((c & 0xE0) == 0xC0) {
        code = c & 0x1F;
        extra = 1;
    } else if ((c & 0xF0) == 0xE0) {
        code = c & 0x0F;
        extra = 2;
    } else if ((c & 0xF8) == 0xF0) {
        code = c & 0x07;
        extra = 3;
    } else {
        return false;
    }
    if (end - p <= extra)
        return false;
    for (int i = 1; i <= extra; ++i) {
        if ((p[i] & 0xC0) != 0x80)
            return false;
        code = (code << 6) | (p[i] & 0x3F);
    }
    static constexpr uint32_t kMinimum[] = { 0, 0x80, 0x800, 0x10000 };
    if (code < kMinimum[extra]) // overlong encoding
        return false;
    p += extra + 1;
    return true;
}

// A non-ASCII letter (or digit) in an attribute name. AWS accepts "attr.1øßä" and refuses "§" (AWS-val
// test_send_message_with_invalid_string_attributes); without Unicode tables in core, Lifeline takes every code point
// from U+00C0 on except the Latin-1 signs × and ÷ and the punctuation and symbol blocks (docs/decisions.md).
bool isNonAsciiNameLetter(uint32_t code)
{
    if (code < 0xC0 || code == 0xD7 || code == 0xF7)
        return false;
    const bool symbols = (code >= 0x2000 && code <= 0x2BFF) || (code >= 0x3000 && code <= 0x303F)
        || (code >= 0xD800 && code <= 0xF8FF) || (code >= 0xFE30 && code <= 0xFE4F)
        || (code >= 0xFF00 && code <= 0xFF20) || code >= 0xFFF0;
    return !symbols;
}

bool isValidAttributeName(std::string_view name)
{
    if (name.empty() || name.size() > 256 || name.front() == '.' || name.back() == '.'
        || name.find("..") != std::string_view::npos)
        return false;
    // Names starting with AWS. or Amazon. are reserved, in any case (AWS-val: "aWs." and "AMAZON." are refused).
    const auto reserved = [&](std::string_view prefix) {
        return name.size() >= prefix.size()
            && std::equal(prefix.begin(), prefix.end(), name.begin(), [](char a, char b) {
                   return a == (b >= 'A' && b <= 'Z' ? char(b - 'A' + 'a') : b); // ASCII only: no locale
               });
    };
    if (reserved("aws.") || reserved("amazon."))
        return false;
    const auto* p = reinterpret_cast<const unsigned char*>(name.data());
    const auto* end = p + name.size();
    while (p < end) {
        const unsigned char c = *p;
        if (c >= 0x80) {
            uint32_t code = 0;
            if (!nextCodePoint(p, end, code) || !isNonAsciiNameLetter(code))
                return false;
            continue;
        }
        const bool alphanumeric = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alphanumeric && c != '-' && c != '_' && c != '.')
            return false;
        ++p;
    }
    return true;
}

} // namespace

bool hasOnlyAllowedCharacters(std::string_view text)
{
    // Eight bytes at once: all printable ASCII (each in 0x20..0x7f)? A false "no" only sends them the slow way.
    const auto printable = [](const unsigned char* at) {
        uint64_t word;
        std::memcpy(&word, at, 8);
        constexpr uint64_t kHigh = 0x8080808080808080ULL;
        constexpr uint64_t kSpaces = 0x2020202020202020ULL;
        return (word & kHigh) == 0 && ((word - kSpaces) & ~word & kHigh) == 0;
    };
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const auto* end = p + text.size();
    while (p < end) {
        if (end - p >= 8 && printable(p)) {
            p += 8;
            continue;
        }
        // Fewer than eight left: the text's last eight, read again in part, when they are all printable.
        if (end - p < 8 && text.size() >= 8 && printable(end - 8))
            return true;
        const unsigned char c = *p;
        if (c < 0x80) { // ASCII fast path
            if (c < 0x20 && c != 0x9 && c != 0xA && c != 0xD)
                return false;
            ++p;
            continue;
        }
        uint32_t code = 0;
        if (!nextCodePoint(p, end, code))
            return false;
        const bool allowed = (code >= 0x20 && code <= 0xD7FF) || (code >= 0xE000 && code <= 0xFFFD)
            || (code >= 0x10000 && code <= 0x10FFFF);
        if (!allowed)
            return false;
    }
    return true;
}

bool isValidTokenId(std::string_view id)
{
    if (id.empty() || id.size() > 128)
        return false;
    return std::all_of(id.begin(), id.end(), [](char c) { return c > 0x20 && c < 0x7f; });
}

bool isValidBatchEntryId(std::string_view id)
{
    if (id.empty() || id.size() > 80)
        return false;
    return std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
}

std::optional<SqsError> validateMessageAttributes(const std::vector<MessageAttribute>& attributes)
{
    if (attributes.size() > 10)
        return makeError(codes::InvalidParameterValue,
            "Number of message attributes [" + std::to_string(attributes.size())
                + "] exceeds the allowed maximum [10].");
    for (size_t i = 0; i < attributes.size(); ++i) {
        const auto& [name, value] = attributes[i];
        if (!isValidAttributeName(name))
            return makeError(codes::InvalidParameterValue, "Message (user) attribute name '" + name + "' is invalid.");
        for (size_t j = 0; j < i; ++j)
            if (attributes[j].name == name)
                return makeError(
                    codes::InvalidParameterValue, "Message (user) attribute name '" + name + "' is already in use.");
        const std::string base = value.dataType.substr(0, value.dataType.find('.'));
        // A custom label may follow the type (Number.float); the whole type is at most 256 characters (AWS-doc).
        if (value.dataType.size() > 256)
            return makeError(codes::InvalidParameterValue,
                "Message (user) attribute '" + name + "' has a data type longer than 256 characters.");
        if (base != "String" && base != "Number" && base != "Binary")
            return makeError(codes::InvalidParameterValue,
                "The message attribute '" + name
                    + "' has an invalid message attribute type, the set of supported "
                      "type prefixes is Binary, Number, and String.");
        if (base == "Binary" ? value.binaryValue.empty() : value.stringValue.empty())
            return makeError(codes::InvalidParameterValue,
                "Message (user) attribute '" + name + "' must contain a non-empty value of type '" + base + "'.");
        if (base != "Binary" && !hasOnlyAllowedCharacters(value.stringValue))
            return makeError(codes::InvalidParameterValue,
                "Message (user) attribute '" + name + "' must contain a valid value of type '" + base + "'.");
    }
    return std::nullopt;
}

size_t messagePayloadSize(std::string_view body, const std::vector<MessageAttribute>& attributes)
{
    size_t size = body.size();
    for (const auto& a : attributes)
        size += a.name.size() + a.value.dataType.size() + a.value.stringValue.size() + a.value.binaryValue.size();
    return size;
}

std::string md5OfMessageAttributes(const std::vector<MessageAttribute>& attributes)
{
    if (attributes.empty())
        return {};
    std::vector<const MessageAttribute*> sorted;
    sorted.reserve(attributes.size());
    for (const auto& a : attributes)
        sorted.push_back(&a);
    std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->name < b->name; });
    Md5 md5;
    const auto putLength = [&](size_t n) {
        const uint8_t bytes[4] = { uint8_t(n >> 24), uint8_t(n >> 16), uint8_t(n >> 8), uint8_t(n) };
        md5.update(bytes, 4);
    };
    for (const auto* a : sorted) {
        putLength(a->name.size());
        md5.update(a->name);
        putLength(a->value.dataType.size());
        md5.update(a->value.dataType);
        const bool binary = a->value.dataType.starts_with("Binary");
        const uint8_t transport = binary ? 2 : 1;
        md5.update(&transport, 1);
        const std::string& v = binary ? a->value.binaryValue : a->value.stringValue;
        putLength(v.size());
        md5.update(v);
    }
    const auto digest = md5.finish();
    return toHex(digest.data(), digest.size());
}

std::optional<SqsError> validateSend(const QueueAttributes& queue, bool fifo, const std::string& body,
    const std::optional<int64_t>& delaySeconds, const std::vector<MessageAttribute>& attributes,
    const std::optional<std::string>& groupId, const std::optional<std::string>& dedupId, bool inBatch)
{
    if (body.empty())
        return makeError(codes::MissingParameter, "The request must contain the parameter MessageBody.");
    if (delaySeconds) {
        const std::string prefix
            = "Value " + std::to_string(*delaySeconds) + " for parameter DelaySeconds is invalid. ";
        if (fifo && *delaySeconds != 0) // AWS-snap: FIFO refuses any per-message timer but 0
            return makeError(codes::InvalidParameterValue,
                prefix + "Reason: The request include parameter that is not valid for this queue type.");
        if (*delaySeconds < 0 || *delaySeconds > 900)
            return makeError(codes::InvalidParameterValue, prefix + "Reason: DelaySeconds must be >= 0 and <= 900.");
    }
    if (auto error = validateMessageAttributes(attributes))
        return error;
    if (!hasOnlyAllowedCharacters(body))
        return makeError(codes::InvalidMessageContents,
            "Invalid characters found. Valid unicode characters are #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to "
            "#xFFFD | #x10000 to #x10FFFF");
    if (messagePayloadSize(body, attributes) > size_t(queue.maximumMessageSize))
        return makeError(codes::InvalidParameterValue, // a batch entry words it differently (AWS-snap)
            std::string(inBatch ? "One or more parameters cannot be validated." : "One or more parameters are invalid.")
                + " Reason: Message must be shorter than " + std::to_string(queue.maximumMessageSize) + " bytes.");
    if (fifo) {
        if (!groupId)
            return makeError(inBatch ? codes::InvalidParameterValue : codes::MissingParameter,
                "The request must contain the parameter MessageGroupId.");
    }
    if (groupId && !isValidTokenId(*groupId))
        return invalidToken("MessageGroupId", *groupId);
    if (dedupId) {
        if (!fifo)
            return makeError(codes::InvalidParameterValue,
                "Value " + *dedupId
                    + " for parameter MessageDeduplicationId is invalid. Reason: The request include parameter that "
                      "is not valid for this queue type.");
        if (!isValidTokenId(*dedupId))
            return invalidToken("MessageDeduplicationId", *dedupId);
    }
    if (fifo && !dedupId && !queue.contentBasedDeduplication)
        return makeError(codes::InvalidParameterValue,
            "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided "
            "explicitly");
    return std::nullopt;
}

} // namespace lifeline
