// The argument parser's errors in occcalc's words: one line that says what
// the command needs or which argument is wrong, with a hint where one
// exists (the flag meant, the command that takes a flag, quotes around a
// name with spaces, the command's own example). The only other translation
// unit that includes CLI11 besides cli/app.cpp, cli/command_options.cpp and
// cli/help_format.cpp.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
class ParseError;
}  // namespace CLI

namespace occcalc::cli {

/// What a command needs, for its "needs" line: `inspect needs INPUT...: ...`.
struct command_needs {
  const char* command;
  std::string needs;
};

/// `e` as occcalc says it (no `occcalc: error: ` prefix). `app` is the whole
/// parser; `needs` each command's requirement.
std::string parse_error_text(const CLI::ParseError& e, const CLI::App& app, const std::vector<command_needs>& needs);

/// The first argument nothing took, `extra`, as occcalc says it: `args` is
/// the command line it came from.
std::string unexpected_argument_text(const CLI::App& app, const std::vector<const char*>& args,
                                     const std::string& extra);

/// `value` checked against `choices` for `name` (a flag or a command's
/// argument): empty when it is one, else the line saying what is allowed,
/// with the closest choice.
std::string choice_error(const std::string& name, const std::string& value, const std::vector<std::string>& choices);

}  // namespace occcalc::cli
