#include "lifeline/teach/glossary.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

namespace lifeline::teach {

namespace {
std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

// Letters, digits and the joiners of names ("orders-dlq", "in-flight", "q.fifo") make one word: a form is found only
// whole, so "DLQ" is not found in "orders-dlq".
bool wordCharacter(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
}

bool wholeAt(const std::string& text, size_t at, size_t size)
{
    const size_t end = at + size;
    // A full stop after a word ends the sentence, not the word.
    return (at == 0 || !wordCharacter(text[at - 1]))
        && (end == text.size() || !wordCharacter(text[end])
            || (text[end] == '.' && (end + 1 == text.size() || !wordCharacter(text[end + 1]))));
}

// Another term's longer form starts here ("redrive policy" where "redrive" was found): not a use of this term.
bool longerTermAt(const std::string& text, size_t at, size_t size, const GlossaryTerm& term)
{
    for (const GlossaryTerm& other : glossary())
        for (const std::string& form : other.forms)
            if (&other != &term && form.size() > size && text.compare(at, form.size(), lower(form)) == 0
                && wholeAt(text, at, form.size()))
                return true;
    return false;
}

// The first use of one of the term's forms in `text` (lower-cased), whole, or npos.
size_t firstUse(const std::string& text, const GlossaryTerm& term)
{
    size_t first = std::string::npos;
    for (const std::string& form : term.forms) {
        const std::string wanted = lower(form);
        for (size_t at = text.find(wanted); at != std::string::npos; at = text.find(wanted, at + 1))
            if (wholeAt(text, at, wanted.size()) && !longerTermAt(text, at, wanted.size(), term)) {
                first = std::min(first, at);
                break;
            }
    }
    return first;
}
} // namespace

const std::vector<GlossaryTerm>& glossary()
{
    static const std::vector<GlossaryTerm> terms = [] {
        std::vector<GlossaryTerm> out;
        const auto json = nlohmann::json::parse(glossarySource(), nullptr, false);
        if (!json.is_object() || !json.contains("terms") || !json["terms"].is_array())
            return out; // a build defect the tests catch
        for (const auto& term : json["terms"]) {
            if (!term.is_object())
                continue;
            out.push_back(GlossaryTerm { term.value("id", ""), term.value("term", ""),
                term.value("forms", std::vector<std::string> {}), term.value("definition", "") });
        }
        return out;
    }();
    return terms;
}

const GlossaryTerm* findGlossaryTerm(std::string_view words)
{
    const std::string wanted = lower(words);
    for (const GlossaryTerm& term : glossary()) {
        if (term.id == wanted)
            return &term;
        for (const std::string& form : term.forms)
            if (lower(form) == wanted)
                return &term;
    }
    return nullptr;
}

std::vector<TextPiece> textPieces(std::string_view text)
{
    std::vector<TextPiece> pieces;
    size_t at = 0;
    while (at < text.size()) {
        const size_t open = text.find("[[", at);
        const size_t close = open == std::string_view::npos ? open : text.find("]]", open + 2);
        if (close == std::string_view::npos) {
            pieces.push_back(TextPiece { std::string(text.substr(at)), false, nullptr });
            break;
        }
        if (open > at)
            pieces.push_back(TextPiece { std::string(text.substr(at, open - at)), false, nullptr });
        const std::string_view words = text.substr(open + 2, close - open - 2);
        pieces.push_back(TextPiece { std::string(words), true, findGlossaryTerm(words) });
        at = close + 2;
    }
    return pieces;
}

std::string withoutLinks(std::string_view text)
{
    std::string out;
    for (const TextPiece& piece : textPieces(text))
        out += piece.text;
    return out;
}

std::vector<std::string> glossaryLinkProblems(const std::vector<std::string>& texts)
{
    // The texts as one, plain and lower-cased, with where each link's words sit in it.
    std::string plain;
    std::vector<std::pair<size_t, const GlossaryTerm*>> links; // start in `plain`, the term linked
    std::vector<std::string> problems;
    for (const std::string& text : texts) {
        for (const TextPiece& piece : textPieces(text)) {
            if (piece.link) {
                if (!piece.term)
                    problems.push_back("[[" + piece.text + "]] links to no glossary term");
                links.emplace_back(plain.size(), piece.term);
            }
            plain += lower(piece.text);
        }
        plain += '\n';
    }
    for (const GlossaryTerm& term : glossary()) {
        const size_t first = firstUse(plain, term);
        if (first == std::string::npos)
            continue;
        const bool linked = std::any_of(
            links.begin(), links.end(), [&](const auto& link) { return link.first == first && link.second == &term; });
        if (!linked)
            problems.push_back("\"" + term.term + "\" is first used unlinked, at \"" + plain.substr(first, 40)
                + "\": write it as [[...]] there");
    }
    return problems;
}

} // namespace lifeline::teach
