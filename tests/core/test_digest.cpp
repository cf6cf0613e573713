#include "lifeline/engine/message_rules.h"
#include "lifeline/support/base64.h"
#include "lifeline/support/digest.h"

#include <catch2/catch.hpp>

using namespace lifeline;

TEST_CASE("MD5 of bodies matches SQS's MD5OfMessageBody", "[digest]")
{
    CHECK(md5Hex("msg") == "6e2baaf3b97dbeef01c0043275f9a0e7"); // AWS-snap test vector
    CHECK(md5Hex("") == "d41d8cd98f00b204e9800998ecf8427e");
    CHECK(md5Hex("The quick brown fox jumps over the lazy dog") == "9e107d9d372bb6826bd81d3542a419d6");
    CHECK(md5Hex(std::string(1000, 'a')) == "cabe45dcc9ae5b66ba86600cca6b8ba8");
}

TEST_CASE("MD5OfMessageAttributes follows the real-AWS test vector", "[digest]")
{
    const std::vector<MessageAttribute> attributes { { "Foo", { "String", "Bar", "" } } };
    CHECK(md5OfMessageAttributes(attributes) == "ae7155c6026991b6d54b11589678bf9c");
    CHECK(md5OfMessageAttributes({}).empty());
}

TEST_CASE("SHA-256 for content-based deduplication", "[digest]")
{
    const auto abc = sha256("abc");
    CHECK(toHex(abc.data(), abc.size()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const auto empty = sha256("");
    CHECK(toHex(empty.data(), empty.size()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("base64 round trip and rejects", "[digest]")
{
    CHECK(base64Encode("") == "");
    CHECK(base64Encode("f") == "Zg==");
    CHECK(base64Encode("fo") == "Zm8=");
    CHECK(base64Encode("foobar") == "Zm9vYmFy");
    CHECK(base64Decode("Zm9vYg==").value() == "foob");
    CHECK_FALSE(base64Decode("Zm9").has_value());
    CHECK_FALSE(base64Decode("Zm=v").has_value());
    CHECK_FALSE(base64Decode("Z!==").has_value());
    CHECK_FALSE(base64Decode("Z===").has_value());
    CHECK_FALSE(base64Decode("Zm-_").has_value()); // URL-safe characters are not standard base64
}

TEST_CASE("base64 URL-safe without padding: the receipt handles' alphabet", "[digest]")
{
    const std::string bytes("\xfb\xff\xbf", 3); // six-bit groups 62 and 63 in every position
    CHECK(base64Encode(bytes) == "+/+/");
    CHECK(base64Encode(bytes, Base64::UrlUnpadded) == "-_-_");
    CHECK(base64Encode("f", Base64::UrlUnpadded) == "Zg");
    CHECK(base64Encode("fo", Base64::UrlUnpadded) == "Zm8");
    CHECK(base64Decode("-_-_", Base64::UrlUnpadded).value() == bytes);
    CHECK(base64Decode("Zm8", Base64::UrlUnpadded).value() == "fo");
    CHECK(base64Decode("Zg", Base64::UrlUnpadded).value() == "f");
    CHECK_FALSE(base64Decode("Zm8=", Base64::UrlUnpadded).has_value()); // no padding in this variant
    CHECK_FALSE(base64Decode("Z", Base64::UrlUnpadded).has_value()); // six bits are not a byte
    CHECK_FALSE(base64Decode("+/+/", Base64::UrlUnpadded).has_value());
    std::string appended = "AQEB";
    base64Append(appended, "foobar", Base64::UrlUnpadded);
    CHECK(appended == "AQEBZm9vYmFy");
}

TEST_CASE("message characters allowed by SQS", "[rules]")
{
    CHECK(hasOnlyAllowedCharacters("hello\t\n\r"));
    CHECK(hasOnlyAllowedCharacters("caf\xc3\xa9 \xf0\x9f\x98\x80")); // é and an emoji
    CHECK_FALSE(hasOnlyAllowedCharacters(std::string("a\x01", 2)));
    CHECK_FALSE(hasOnlyAllowedCharacters(std::string("\0", 1)));
    CHECK_FALSE(hasOnlyAllowedCharacters("\xef\xbf\xbe")); // U+FFFE
    CHECK_FALSE(hasOnlyAllowedCharacters("\xed\xa0\x80")); // a surrogate, U+D800
    CHECK_FALSE(hasOnlyAllowedCharacters("\xc3")); // truncated
    CHECK_FALSE(hasOnlyAllowedCharacters("\xc0\xaf")); // overlong
    // Past eight bytes, the rest is checked too, whether it is one to seven bytes after a word or follows a character
    // of several bytes.
    for (size_t length = 9; length <= 23; ++length) {
        std::string text(length, 'm');
        CHECK(hasOnlyAllowedCharacters(text));
        for (size_t at = 0; at < length; ++at) {
            std::string bad = text;
            bad[at] = '\x01';
            INFO("length " << length << ", a control character at " << at);
            CHECK_FALSE(hasOnlyAllowedCharacters(bad));
        }
    }
    CHECK(hasOnlyAllowedCharacters("message 1234567")); // a simulated message's body: 15 bytes
    CHECK(hasOnlyAllowedCharacters("caf\xc3\xa9 au lait")); // the last eight printable, after an é
    CHECK_FALSE(hasOnlyAllowedCharacters("message 12345\xef\xbf\xbe")); // U+FFFE in the last three
    CHECK_FALSE(hasOnlyAllowedCharacters("12345678\x7f\x01")); // DEL is allowed, 0x01 is not
}

TEST_CASE("ids: group/dedup tokens and batch entry ids", "[rules]")
{
    CHECK(isValidTokenId("group-1!#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"));
    CHECK_FALSE(isValidTokenId(""));
    CHECK_FALSE(isValidTokenId("group 123"));
    CHECK(isValidTokenId(std::string(128, 'a')));
    CHECK_FALSE(isValidTokenId(std::string(129, 'a')));
    CHECK(isValidBatchEntryId("a_b-9"));
    CHECK_FALSE(isValidBatchEntryId("a.b"));
    CHECK_FALSE(isValidBatchEntryId(std::string(81, 'a')));
}
