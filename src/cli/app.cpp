#include "cli/app.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command_options.hpp"
#include "cli/help_format.hpp"
#include "cli/parse_errors.hpp"
#include "cli/run_commands.hpp"
#include "cli/tables.hpp"
#include "commands/batch.hpp"
#include "commands/diff.hpp"
#include "commands/inspect.hpp"
#include "commands/limits.hpp"
#include "commands/list.hpp"
#include "commands/query.hpp"
#include "commands/suggest.hpp"
#include "commands/sweep.hpp"
#include "occcalc/error.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/request/request.hpp"
#include "occcalc/version.hpp"
#include "render/check_report.hpp"
#include "render/diff_report.hpp"
#include "render/formats.hpp"
#include "render/inspect_report.hpp"
#include "render/terminal.hpp"

namespace occcalc::cli {

using occcalc::detail::printable;

namespace {

/// One row per subcommand (ninja's tool table): its name and line for
/// `--help` and "did you mean", whether it reads every vendor's tables, its
/// options, the formats it prints, and what runs it. Adding a command is one
/// row and its functions.
struct command_info {
  const char* name;
  const char* description;
  /// What it cannot run without, for the message when that is missing.
  std::string (*needs)();
  bool all_tables;
  void (*bind)(CLI::App&, options&);
  /// Its `--format` choices, the default first: its renderer table's where
  /// it has one.
  format_choices (*formats)();
  exit_status (*run)(context&);
};

/// The formats of a command that prints text or JSON.
constexpr format_choices text_or_json() { return {output_format::text, output_format::json}; }
/// The query's.
constexpr format_choices (*query_formats)() = text_or_json;

constexpr command_info commands[] = {
    {"list", "List the supported architectures, AMD targets and named GPUs", nullptr, true, bind_list, text_or_json,
     run_list_command},
    {"batch", "Read requests as JSON Lines from stdin, write one JSON result per line", nullptr, true, bind_batch,
     [] { return format_choices{output_format::json}; }, run_batch_command},
    {"inspect",
     "Read kernels' resource usage from cubins, fat binaries, AMD code objects, offload bundles, ELF files or "
     "ptxas/nvlink logs",
     [] {
       return std::string(
           "INPUT...: the build outputs to read (cubins, fat binaries, libraries, executables, AMD code objects, "
           "Triton caches, compiler logs or directories; - for standard input)");
     },
     true, bind_inspect, [] { return format_choices(inspect_renderers); }, run_inspect_command},
    {"check", "CI gate: check the kernels of build outputs against a policy file",
     [] {
       return std::string("--policy FILE and INPUT...: a policy (JSON; see examples/) and the build outputs to check");
     },
     true, bind_check, [] { return format_choices(check_renderers); }, run_check_command},
    {"diff", "Compare two builds kernel by kernel: registers, spills, stack, shared memory, occupancy",
     [] { return std::string("OLD and NEW: two builds, each a build output, a directory or a saved inspect --json"); },
     true, bind_diff, [] { return format_choices(diff_renderers); }, run_diff_command},
    {"suggest",
     "The block size with the most resident threads, next steps per limiter (or changes together), dynamic "
     "shared memory for N blocks (AMD: HIP's block size search and each model's next steps)",
     nullptr, false, bind_suggest, text_or_json, run_suggest_command},
    {"limits",
     "The most registers per thread and shared memory per block each occupancy level allows (AMD: VGPRs, SGPRs, "
     "LDS)",
     [] { return std::string("--threads N: the block (work-group) size the limits are for"); }, false, bind_limits,
     text_or_json, run_limits_command},
    {"sweep",
     "Occupancy as threads, registers, shared memory or barriers (AMD: VGPRs, SGPRs, LDS) vary, or clusters as "
     "their size does: chart, cliffs, CSV, JSON, SVG",
     [] { return "--vary FIGURE: " + vary_choices(); }, false, bind_sweep,
     [] {
       return format_choices{output_format::text, output_format::json, output_format::csv};
     },
     run_sweep_command},
};

/// `--format`, from the formats a command prints, and `--csv` where CSV is
/// one of them (`--json` is every command's: the main parser's).
/// Returns the `--format` option.
CLI::Option* bind_format(CLI::App& app, options& opts, const format_choices& formats) {
  CLI::Option* format =
      app.add_option("--format", opts.format, "Output format: " + formats.names(true))->type_name("FORMAT");
  if (formats.contains(output_format::csv)) app.add_flag("--csv", opts.csv, "Print CSV: --format csv");
  return format;
}

/// Whether `text` is a subcommand's name.
bool names_command(std::string_view text) {
  return std::any_of(std::begin(commands), std::end(commands), [&](const command_info& c) { return text == c.name; });
}

/// The first empty value among the options of `apps`, as a flag name: an
/// empty value is never "not given" (`--min-occupancy "$UNSET"` must not
/// switch a gate off, and `--kernel ''` must not select every kernel).
std::string empty_option(const std::vector<const CLI::App*>& apps) {
  for (const CLI::App* command : apps) {
    for (const CLI::Option* option : command->get_options()) {
      if (option->get_expected_min() == 0 || option->count() == 0) continue;
      for (const auto& value : option->results()) {
        if (occcalc::detail::trim(value).empty()) {
          return option->get_lnames().empty() ? option->get_name() : "--" + option->get_lnames().front();
        }
      }
    }
  }
  return {};
}

/// Runs `chosen` (the query when null) on what was parsed: the tables it
/// reads, then the command. Errors in the request become one line, exit 2.
exit_status run_parsed(options& opts, const std::vector<bool>& request_given, const command_info* chosen, terminal term,
                       std::istream& in, std::ostream& out, std::ostream& err) {
  try {
    if (const std::string wrong = choice_error("--color", opts.colour, {"auto", "always", "never"}); !wrong.empty()) {
      throw occcalc::error(wrong);
    }
    const occcalc::table tables = chosen && chosen->all_tables ? load_tables(opts.table_files, table_scope::all)
                                                               : load_tables_for(opts.table_files, opts.request);
    term.colour = colour_under(colour_mode_from(opts.colour), term.colour);
    context c{opts, request_given, tables, in, out, err, term};
    // --brief is the query's one line: a command that has none refuses it
    // rather than ignoring it.
    if (chosen && opts.brief) {
      throw occcalc::input_error("brief", fmt::format("applies to the query alone (occcalc --cc 8.0 --threads 256 "
                                                      "--regs 32 --brief); {} has no one-line answer",
                                                      chosen->name));
    }
    opts.output =
        chosen_format(opts, chosen ? chosen->name : "the query", (chosen ? chosen->formats : query_formats)());
    return chosen ? chosen->run(c) : run_query_command(c);
  } catch (const occcalc::input_error& e) {
    err << "occcalc: error: " << printable(occcalc::flagged_text(e)) << "\n";
  } catch (const occcalc::error& e) {
    err << "occcalc: error: " << printable(e.what()) << "\n";
  }
  return exit_status::bad_input;
}

/// A query whose arguments are only request flags, `--json` and `--brief`, read without
/// CLI11: each flag at most once, as `--flag VALUE` or `--flag=VALUE` with a
/// value that is not empty, does not start with '-' and names no command, or
/// `--flag` alone for a switch. That is how scripts call occcalc in loops,
/// and building CLI11's parser is a large part of such a short process's
/// work. Anything else gives nothing, and CLI11 parses it, with its
/// help and its messages; the values read here are the strings CLI11 would
/// have bound, and go through the same checks after.
std::optional<options> plain_query(const std::vector<const char*>& args, std::vector<bool>& given) {
  options opts;
  given.assign(std::size(occcalc::request_fields), false);
  bool json = false;
  bool brief = false;
  for (std::size_t a = 1; a < args.size(); ++a) {
    const std::string_view arg(args[a]);
    if (arg == "--json" && !json) {
      json = opts.json = true;
      continue;
    }
    if (arg == "--brief" && !brief) {
      brief = opts.brief = true;
      continue;
    }
    const auto equals = arg.find('=');
    const std::string_view name = arg.substr(0, equals);
    const auto* field = std::find_if(std::begin(occcalc::request_fields), std::end(occcalc::request_fields),
                                     [&](const auto& f) { return flag_name(f.key) == name; });
    if (field == std::end(occcalc::request_fields)) return std::nullopt;
    const auto index = static_cast<std::size_t>(field - std::begin(occcalc::request_fields));
    if (given[index]) return std::nullopt;
    given[index] = true;
    if (field->kind == occcalc::field_kind::flag) {
      if (equals != std::string_view::npos) return std::nullopt;
      opts.request.*(field->member) = std::string(occcalc::flag_set_text);
      continue;
    }
    std::string_view value;
    if (equals != std::string_view::npos) {
      value = arg.substr(equals + 1);
    } else if (++a < args.size()) {
      value = args[a];
    } else {
      return std::nullopt;
    }
    if (occcalc::detail::trim(value).empty() || value.front() == '-' || names_command(value)) return std::nullopt;
    opts.request.*(field->member) = std::string(value);
  }
  return opts;
}

/// Parses `args` with CLI11 and runs what they ask for.
exit_status parse_and_run(const std::vector<const char*>& args, const terminal& detected, std::istream& in,
                          std::ostream& out, std::ostream& err) {
  options opts;
  CLI::App app{
      "occcalc: theoretical occupancy of GPU kernels (NVIDIA compute capability 1.0 to 12.1; AMD VLIW, GCN, "
      "CDNA and RDNA)",
      "occcalc"};
  terminal term = detected;
  use_help_formatter(app, term.columns);
  app.set_version_flag("--version", version_text());
  app.require_subcommand(0, 1);
  app.fallthrough();
  app.allow_extras();  // reported below, with "did you mean" for subcommands

  std::vector<std::string> values(std::size(occcalc::request_fields));
  std::vector<CLI::Option*> request_options;  // one per field
  for (std::size_t i = 0; i < std::size(occcalc::request_fields); ++i) {
    const auto& field = occcalc::request_fields[i];
    const char* group = field.vendor == occcalc::field_vendor::amd ? "AMD kernel" : "Kernel";
    if (field.kind == occcalc::field_kind::flag) {
      request_options.push_back(app.add_flag(flag_name(field.key))->description(std::string(field.description)));
    } else {
      request_options.push_back(app.add_option(flag_name(field.key), values[i], std::string(field.description))
                                    ->type_name(std::string(placeholder_of(field.key))));
    }
    request_options.back()->group(group);
  }
  // The options every command shares.
  app.add_flag("--json", opts.json, "Print JSON (schema/result.schema.json) instead of text: --format json");
  // --format is the main parser's and each command's: given before the
  // command and after it, it is given twice.
  std::vector<const CLI::Option*> format_options{bind_format(app, opts, query_formats())};
  app.add_flag("--brief", opts.brief,
               "One line: the architecture, the occupancy, blocks and warps per SM, the limiter (the query)");
  app.add_option("--min-occupancy", opts.min_occupancy, "Gate: exit 1 when the occupancy (percent) is below this")
      ->type_name("PCT");
  app.add_option("--table", opts.table_files, "Load more architectures and GPUs from this JSON table file")
      ->type_name("FILE");
  app.add_option("--color", opts.colour, "Colour the text output: auto (default), always, never")->type_name("WHEN");
  app.footer(
      "Examples:\n"
      "  occcalc --cc 7.0 --threads 128 --regs 37\n"
      "  occcalc --gpu \"RTX 4090\" --threads 256 --regs 64 --smem 16K --grid 1024\n"
      "  occcalc --gfx gfx90a --threads 256 --vgprs 128 --sgprs 32 --lds 16K\n"
      "occcalc help COMMAND shows a command's options. Exit codes: 0 ok, 1 a gate failed, 2 bad input.");

  std::vector<const CLI::App*> parsers{&app};
  std::vector<CLI::App*> subcommands;  // one per command
  for (const auto& command : commands) {
    CLI::App* sub = app.add_subcommand(command.name, command.description);
    command.bind(*sub, opts);
    format_options.push_back(bind_format(*sub, opts, command.formats()));
    parsers.push_back(sub);
    subcommands.push_back(sub);
  }

  try {
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::CallForVersion& e) {
    return static_cast<exit_status>(app.exit(e, out, err));
  } catch (const CLI::Success& e) {  // --help
    return static_cast<exit_status>(app.exit(e, out, err));
  } catch (const CLI::ParseError& e) {
    // An argument nothing took is the first thing wrong, whatever else is
    // missing after it.
    if (const auto extras = app.remaining(); !extras.empty()) {
      err << "occcalc: error: " << printable(unexpected_argument_text(app, args, extras.front())) << "\n";
      return exit_status::bad_input;
    }
    std::vector<command_needs> needs;
    for (const auto& command : commands) {
      if (command.needs != nullptr) needs.push_back({command.name, command.needs()});
    }
    err << "occcalc: error: " << printable(parse_error_text(e, app, needs)) << "\n";
    return exit_status::bad_input;
  }
  if (const std::string name = empty_option(parsers); !name.empty()) {
    err << "occcalc: error: " << name << " is empty; give a value, or leave " << name << " out\n";
    return exit_status::bad_input;
  }
  if (const auto extras = app.remaining(); !extras.empty()) {
    err << "occcalc: error: " << printable(unexpected_argument_text(app, args, extras.front())) << "\n";
    return exit_status::bad_input;
  }
  if (std::count_if(format_options.begin(), format_options.end(), [](const CLI::Option* o) { return o->count() > 0; }) >
      1) {
    err << "occcalc: error: --format is given more than once; give it once\n";
    return exit_status::bad_input;
  }
  const auto given = [&](std::size_t i) { return request_options[i]->count() > 0; };
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!given(i)) continue;
    const bool flag = occcalc::request_fields[i].kind == occcalc::field_kind::flag;
    opts.request.*(occcalc::request_fields[i].member) = flag ? std::string(occcalc::flag_set_text) : values[i];
  }

  const command_info* chosen = nullptr;
  for (std::size_t i = 0; i < subcommands.size(); ++i) {
    if (subcommands[i]->parsed()) chosen = &commands[i];
  }
  std::vector<bool> request_given;
  for (std::size_t i = 0; i < request_options.size(); ++i) request_given.push_back(given(i));
  return run_parsed(opts, request_given, chosen, term, in, out, err);
}

exit_status run_command(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err) {
  // First contact: the usage, not an error about a missing flag.
  if (argc <= 1) {
    err << first_contact_usage();
    return exit_status::bad_input;
  }
  // `occcalc help [COMMAND]` is `occcalc [COMMAND] --help`.
  std::vector<const char*> args(argv, argv + argc);
  if (std::string_view(argv[1]) == "help") {
    if (argc > 3) {
      err << "occcalc: error: help takes at most one command, e.g. occcalc help inspect\n";
      return exit_status::bad_input;
    }
    if (argc == 3 && !names_command(argv[2])) {
      std::vector<std::string> names;
      for (const auto& command : commands) names.emplace_back(command.name);
      const auto close = occcalc::closest_names(argv[2], names, 1);
      err << fmt::format("occcalc: error: help: '{}' is not a command{}; the commands are {}\n", argv[2],
                         close.empty() ? std::string() : fmt::format(" (did you mean '{}'?)", close.front()),
                         fmt::join(names, ", "));
      return exit_status::bad_input;
    }
    args = {argv[0]};
    if (argc == 3) args.push_back(argv[2]);
    args.push_back("--help");
  }
  // The terminal once: its width lays out the help; --color, parsed later,
  // may still overrule the colour.
  const terminal detected = detect_terminal(colour_mode::automatic, stdout);
  std::vector<bool> request_given;
  if (auto opts = plain_query(args, request_given)) {
    return run_parsed(*opts, request_given, nullptr, detected, in, out, err);
  }
  return parse_and_run(args, detected, in, out, err);
}

}  // namespace

exit_status run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err) {
  exit_status status = exit_status::bad_input;
  try {
    status = run_command(argc, argv, in, out, err);
  } catch (const std::bad_alloc&) {
    err << "occcalc: error: out of memory\n";
    return exit_status::bad_input;
  } catch (const std::exception& e) {
    err << "occcalc: error: " << printable(e.what()) << "\n";
    return exit_status::bad_input;
  } catch (...) {
    err << "occcalc: error: an unexpected failure\n";
    return exit_status::bad_input;
  }
  // A full disk or a closed descriptor must not pass for success with a
  // truncated output. (A broken pipe ends the process with SIGPIPE first.)
  errno = 0;
  if (!out.flush()) {
    const int cause = errno;
    err << "occcalc: error: cannot write the output" << (cause != 0 ? std::string(": ") + std::strerror(cause) : "")
        << "\n";
    return exit_status::bad_input;
  }
  return status;
}

}  // namespace occcalc::cli
