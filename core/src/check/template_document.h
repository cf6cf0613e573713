// A template's text read into one JSON shape for the template reader: YAML or JSON (yaml-cpp reads both), the short
// forms of CloudFormation's functions (!Ref X, !GetAtt Q.Arn) turned into their long forms ({"Ref": "X"}), and the
// line of every key kept, so a finding or an error can name where it is. What a parser would accept but
// CloudFormation refuses or a reader must not follow is refused here, with its line: a key given twice in one map,
// nesting deeper than CloudFormation's, aliases that expand past what any template holds.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace lifeline::check {

// Digits that fit a whole number (a longer run of digits stays text).
bool wholeNumber(const std::string& text);

// A template that cannot be read as one; the message names the path or the line.
struct TemplateError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct TemplateDocument {
    nlohmann::json root;
    // The 1-based line of every map key and list item, by its dotted path ("Resources.Q.Properties.VisibilityTimeout",
    // "functions.send.events.0").
    std::map<std::string, int> lines;

    // Where a path of a template made from another file (serverless_document.cpp) is in that file:
    // "Resources.SendEmailEventSourceMappingSQS0.Properties.BatchSize" -> "functions.sendEmail.events.0.sqs.batchSize".
    std::map<std::string, std::string> origins;

    int lineOf(const std::string& path) const
    {
        const auto it = lines.find(path);
        return it == lines.end() ? 0 : it->second;
    }
    // A path as the user's file writes it: its origin, or the origin of its longest prefix with the rest kept.
    std::string inFile(const std::string& path) const
    {
        for (std::string prefix = path;; prefix.resize(prefix.rfind('.'))) {
            if (const auto it = origins.find(prefix); it != origins.end())
                return it->second + path.substr(prefix.size());
            if (prefix.find('.') == std::string::npos)
                return path;
        }
    }
};

// Throws TemplateError for text that is not YAML or JSON (with the line where it breaks) or a document refused above.
TemplateDocument readTemplateDocument(const std::string& text);

} // namespace lifeline::check
