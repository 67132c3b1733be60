#include "cli/parse_errors.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "occcalc/request/lookup.hpp"

namespace occcalc::cli {

namespace {

/// What people type for a flag that occcalc spells otherwise, and the flag.
struct synonym {
  std::string_view typed;
  std::string_view flag;
};

constexpr synonym flag_synonyms[] = {
    {"--registers", "--regs"},
    {"--register", "--regs"},
    {"--reg", "--regs"},
    {"--block-size", "--threads"},
    {"--block", "--threads"},
    {"--threads-per-block", "--threads"},
    {"--shared-memory", "--smem"},
    {"--shmem", "--smem"},
    {"--shared", "--smem"},
    {"--static-smem", "--smem"},
    {"--dynamic-smem", "--dyn-smem"},
    {"--dynamic-shared-memory", "--dyn-smem"},
    {"--dsmem", "--dyn-smem"},
    {"--arch", "--cc"},
    {"--sm", "--cc"},
    {"--compute-capability", "--cc"},
    {"--device", "--gpu"},
    {"--grid-size", "--grid"},
    {"--sms", "--sm-count"},
    {"--num-sms", "--sm-count"},
    {"--colour", "--color"},
    {"--lds-bytes", "--lds"},
    {"--target", "--gfx"},
    {"--min-occ", "--min-occupancy"},
};

/// The commands that were parsed, innermost last; the whole parser first.
std::vector<const CLI::App*> parsed_chain(const CLI::App& app) {
  std::vector<const CLI::App*> chain{&app};
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->parsed()) chain.push_back(sub);
  }
  return chain;
}

/// The long flags `command` takes (`--regs`): its own, and those of the
/// commands above it, which it falls through to.
std::vector<std::string> long_flags(const CLI::App& command) {
  std::vector<std::string> flags;
  for (const CLI::App* app = &command; app != nullptr; app = app->get_parent()) {
    for (const CLI::Option* option : app->get_options()) {
      for (const auto& name : option->get_lnames()) flags.push_back("--" + name);
    }
  }
  return flags;
}

/// Whether `command` takes the long flag `flag`.
bool has_flag(const CLI::App& command, std::string_view flag) {
  const auto flags = long_flags(command);
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

/// Whether `command` itself (not a command above it) has `flag`.
bool has_own_flag(const CLI::App& command, std::string_view flag) {
  for (const CLI::Option* option : command.get_options()) {
    for (const auto& name : option->get_lnames()) {
      if ("--" + name == flag) return true;
    }
  }
  return false;
}

/// The option `name` (`--threads`, `inputs`) of the parsed commands.
const CLI::Option* find_option(const CLI::App& app, const std::string& name) {
  const auto chain = parsed_chain(app);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (const CLI::Option* option = (*it)->get_option_no_throw(name)) return option;
  }
  return nullptr;
}

/// `the query` or `inspect`.
std::string command_label(const CLI::App& command) {
  return command.get_parent() == nullptr ? "the query" : command.get_name();
}

/// The first example of a command's footer: the line after `Example:` or
/// `Examples:` (`occcalc inspect build/libkernels.a --arch sm_90`).
std::string first_example(const CLI::App& command) {
  const std::string footer = command.get_footer();
  const auto heading = footer.find("Example");
  if (heading == std::string::npos) return {};
  const auto start = footer.find_first_not_of(' ', footer.find('\n', heading) + 1);
  if (start == std::string::npos) return {};
  const auto end = footer.find('\n', start);
  return footer.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

/// The flag the user meant by `flag` by its meaning (`--registers` is
/// `--regs`), when the command has it.
std::string synonym_of(const CLI::App& command, const std::string& flag) {
  for (const auto& s : flag_synonyms) {
    if (s.typed == flag && has_flag(command, s.flag)) return std::string(s.flag);
  }
  return {};
}

/// The command's long flag spelled closest to `flag`, a long flag too.
std::string closest_flag(const CLI::App& command, const std::string& flag) {
  if (flag.rfind("--", 0) != 0) return {};
  const auto close = occcalc::closest_names(flag, long_flags(command), 1);
  return close.empty() ? std::string() : close.front();
}

}  // namespace

std::string choice_error(const std::string& name, const std::string& value, const std::vector<std::string>& choices) {
  if (std::find(choices.begin(), choices.end(), value) != choices.end()) return {};
  const auto close = occcalc::closest_names(value, choices, 1);
  return fmt::format("{} {} is not one of {}{}", name, occcalc::detail::quoted(value), fmt::join(choices, ", "),
                     close.empty() ? std::string() : fmt::format("; did you mean {}?", close.front()));
}

std::string parse_error_text(const CLI::ParseError& e, const CLI::App& app, const std::vector<command_needs>& needs) {
  const std::string what = e.what();
  const auto chain = parsed_chain(app);
  const CLI::App& command = *chain.back();
  if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr) {
    // "inputs is required", "--policy is required": say what the command needs.
    const auto row = std::find_if(needs.begin(), needs.end(),
                                  [&](const command_needs& n) { return command.get_name() == n.command; });
    const std::string example = first_example(command);
    if (row != needs.end()) {
      return fmt::format("{} needs {}{}", command.get_name(), row->needs,
                         example.empty() ? std::string() : "; e.g. " + example);
    }
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    // "--threads: 1 required N missing", "--cc: At Most 1 required but received 2".
    const std::string name = what.substr(0, what.find(':'));
    const CLI::Option* option = find_option(app, name);
    if (option != nullptr && what.find("missing") != std::string::npos) {
      return fmt::format("{} needs a value ({}): {}", name, option->get_type_name(), option->get_description());
    }
    if (option != nullptr && what.find("At Most") != std::string::npos) {
      return fmt::format("{} is given more than once; give it once", name);
    }
  }
  return what;
}

std::string unexpected_argument_text(const CLI::App& app, const std::vector<const char*>& args,
                                     const std::string& extra) {
  const auto chain = parsed_chain(app);
  const CLI::App& command = *chain.back();
  const std::string where = command_label(command);
  const auto at = std::find_if(args.begin() + 1, args.end(), [&](const char* a) { return extra == a; });
  const auto index = static_cast<std::size_t>(at - args.begin());
  if (extra.rfind("-", 0) == 0) {
    const std::string flag = extra.substr(0, extra.find('='));
    // A flag of another command: say which take it.
    std::vector<std::string> takers;
    if (command.get_parent() != nullptr && has_own_flag(app, flag)) takers.emplace_back("the query");
    for (const CLI::App* sub : app.get_subcommands({})) {
      if (sub != &command && has_own_flag(*sub, flag)) takers.push_back(sub->get_name());
    }
    const auto did_you_mean = [&](const std::string& meant) {
      const CLI::Option* option = nullptr;
      for (const CLI::App* a = &command; a != nullptr && option == nullptr; a = a->get_parent()) {
        option = a->get_option_no_throw(meant);
      }
      std::string description = option != nullptr ? option->get_description() : std::string();
      // Lower the first letter of a sentence ("Registers per thread"), not of a name ("AMD target").
      if (description.size() > 1 && std::isupper(static_cast<unsigned char>(description[1])) == 0) {
        description.front() = static_cast<char>(std::tolower(static_cast<unsigned char>(description.front())));
      }
      return fmt::format("{} is not an option of {}; did you mean {}{}?", occcalc::detail::quoted(flag), where, meant,
                         description.empty() ? std::string() : " (" + description + ")");
    };
    // By meaning first, then a command that takes it, then by spelling.
    if (const std::string meant = synonym_of(command, flag); !meant.empty()) return did_you_mean(meant);
    if (!takers.empty()) {
      const std::string last = takers.back();
      takers.pop_back();
      return fmt::format("{} is not an option of {}; {}{} {} it", flag, where, fmt::join(takers, ", "),
                         takers.empty() ? last : " and " + last, takers.empty() ? "takes" : "take");
    }
    if (const std::string meant = closest_flag(command, flag); !meant.empty() && meant != flag) {
      return did_you_mean(meant);
    }
    return fmt::format("{} is not an option of {} (occcalc {}--help lists them)", occcalc::detail::quoted(flag), where,
                       command.get_parent() == nullptr ? std::string() : command.get_name() + " ");
  }
  // A word after a flag's value: a name with spaces, unquoted.
  if (index >= 3 && index < args.size() && std::string_view(args[index - 2]).rfind("--", 0) == 0 &&
      std::string_view(args[index - 1]).rfind("-", 0) != 0) {
    return fmt::format("{} follows {} {}: a value with spaces needs quotes, e.g. {} '{} {}'",
                       occcalc::detail::quoted(extra), args[index - 2], args[index - 1], args[index - 2],
                       args[index - 1], extra);
  }
  if (command.get_parent() == nullptr) {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    const auto close = occcalc::closest_names(extra, names, 1);
    return fmt::format("{} is not a command{}; the commands are {} (occcalc --help)", occcalc::detail::quoted(extra),
                       close.empty() ? std::string() : fmt::format(" (did you mean {}?)", close.front()),
                       fmt::join(names, ", "));
  }
  const std::string example = first_example(command);
  return fmt::format("{} takes no argument {}{}", command.get_name(), occcalc::detail::quoted(extra),
                     example.empty() ? std::string() : "; e.g. " + example);
}

}  // namespace occcalc::cli
