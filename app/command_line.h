// The one way a command's options are read: a table per command of the options that take a value (each with the
// setter that checks and stores it), the flags, and what a word that is no option means. Every command says a
// missing value, a refused one and an unknown option the same way, naming itself and its --help. The commands
// themselves are listed once, in app/main.cpp's kCommands.
#pragma once

#include "lifeline/support/outcome.h"

#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace lifeline::app {

template <class Options> struct OptionTable {
    // What a refused value is told ("--seed takes a whole number, got 'x'"), or nothing when it was stored.
    using Setter = std::function<std::optional<std::string>(Options&, const std::string&)>;
    std::string command; // "run": the messages say "lifeline run: ..."
    std::map<std::string, Setter, std::less<>> values;
    std::map<std::string, std::function<void(Options&)>, std::less<>> flags;
    // A word that is not an option (a scenario, an output file); none: every such word is refused.
    Setter word;
    // An empty value ("--port ''") counts as missing.
    bool emptyIsMissing = true;
};

// Says why a command's arguments were refused ("lifeline check: --consumer: must be a JSON object") and gives the exit
// status that means bad arguments.
inline int refuseArguments(std::ostream& err, const std::string& command, const std::string& why)
{
    err << "lifeline " << command << ": " << why << '\n';
    return 2;
}

// Reads args[first...] into `options`; a failure says what is wrong, with the command's name.
template <class Options>
Outcome<Options> parseOptions(
    const OptionTable<Options>& table, const std::vector<std::string>& args, size_t first, Options options = {})
{
    const auto failure = [&](const std::string& why) { return Failure { "lifeline " + table.command + ": " + why }; };
    for (size_t i = first; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (const auto setter = table.values.find(a); setter != table.values.end()) {
            if (i + 1 >= args.size() || (table.emptyIsMissing && args[i + 1].empty()))
                return failure(a + " needs a value (see `lifeline " + table.command + " --help`)");
            if (auto refused = setter->second(options, args[++i]))
                return failure(*refused);
        } else if (const auto flag = table.flags.find(a); flag != table.flags.end()) {
            flag->second(options);
        } else if (a.starts_with("-") || !table.word) {
            return failure("unknown option '" + a + "' (see `lifeline " + table.command + " --help`)");
        } else if (auto refused = table.word(options, a)) {
            return failure(*refused);
        }
    }
    return options;
}

} // namespace lifeline::app
