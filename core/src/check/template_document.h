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

// A template that cannot be read as one; the message names the path or the line.
struct TemplateError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct TemplateDocument {
    nlohmann::json root;
    // The 1-based line of every map key, by its dotted path ("Resources.Q.Properties.VisibilityTimeout").
    std::map<std::string, int> lines;

    int lineOf(const std::string& path) const
    {
        const auto it = lines.find(path);
        return it == lines.end() ? 0 : it->second;
    }
};

// Throws TemplateError for text that is not YAML or JSON (with the line where it breaks) or a document refused above.
TemplateDocument readTemplateDocument(const std::string& text);

} // namespace lifeline::check
