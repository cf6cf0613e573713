// The glossary: the words a learner meets that SQS or Lambda give a meaning of their own (in flight, receipt handle,
// poller, ...), each with a definition (resources/glossary.json, compiled in). Lesson and exercise texts link a term
// where it first appears as [[words]], the words being one of the term's forms ("[[in-flight]] messages"); the window
// shows the definition on the link, and every other reader gets the words without the brackets.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lifeline::teach {

struct GlossaryTerm {
    std::string id; // "receipt-handle"
    std::string term; // "receipt handle"
    std::vector<std::string> forms; // what a text may say: "receipt handle", "receipt handles"
    std::string definition;
};

const std::vector<GlossaryTerm>& glossary();
// By id or by any of its forms, letter case aside; nullptr when none.
const GlossaryTerm* findGlossaryTerm(std::string_view words);

// One piece of a text: plain words, or a link's words and the term they link to (nullptr: no such term).
struct TextPiece {
    std::string text;
    bool link = false;
    const GlossaryTerm* term = nullptr;
};
std::vector<TextPiece> textPieces(std::string_view text);
std::string withoutLinks(std::string_view text); // "[[in-flight]] messages" -> "in-flight messages"

// What is wrong with the links of texts read in this order (a lesson's idea, what to watch, its trap and its fix; an
// exercise's question and hint): a term used before its first link, or a link to words no term has. Empty: none.
std::vector<std::string> glossaryLinkProblems(const std::vector<std::string>& texts);

const char* glossarySource(); // the raw file, compiled in

} // namespace lifeline::teach
