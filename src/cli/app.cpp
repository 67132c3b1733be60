#include "cli/app.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/amd_query.hpp"
#include "cli/embedded_tables.hpp"
#include "analysis/query.hpp"
#include "commands/inspect.hpp"
#include "commands/suggest.hpp"
#include "commands/sweep.hpp"
#include "occcalc/arch_table.hpp"
#include "occcalc/common/percent.hpp"
#include "occcalc/error.hpp"
#include "occcalc/json_input.hpp"
#include "occcalc/lookup.hpp"
#include "occcalc/request.hpp"
#include "occcalc/version.hpp"
#include "analysis/nvidia_query.hpp"
#include "render/amd_text.hpp"
#include "render/result_json.hpp"
#include "render/nvidia_text.hpp"
#include "render/terminal.hpp"
#include "io/text_file.hpp"

namespace occcalc::cli {

namespace {

/// What the command line asked for, filled by CLI11.
struct options {
  occcalc::request request;
  std::vector<std::string> table_files;
  std::string min_occupancy;
  std::string colour = "auto";
  bool json = false;
  std::string list_what = "all";
  inspect_command inspect;
  bool csv = false;
  suggest_options suggest;
  sweep_options sweep;
};

/// The subcommands, with one line each for `--help` and "did you mean".
struct subcommand_info {
  const char* name;
  const char* description;
};
constexpr subcommand_info subcommands[] = {
    {"list", "List the supported architectures, AMD targets and named GPUs"},
    {"batch", "Read requests as JSON Lines from stdin, write one JSON result per line"},
    {"inspect", "Read kernels' resource usage from cubins, fat binaries, AMD code objects, offload bundles, ELF files or "
                "ptxas/nvlink logs"},
    {"check", "CI gate: check the kernels of build outputs against a policy file"},
    {"suggest", "The block size with the most resident threads, next steps per limiter, dynamic shared memory for N "
                "blocks (AMD: HIP's block size search)"},
    {"sweep", "Occupancy as threads, registers, shared memory or barriers (AMD: VGPRs, SGPRs, LDS) vary: chart, "
              "cliffs, CSV, JSON, SVG"},
};

/// The request fields `inspect` and `check` take from the command line; the
/// others come from the input.
constexpr std::string_view inspect_fields[] = {"threads", "dyn_smem", "carveout", "model"};

/// The flag spelling of a request key (`dyn_smem` -> `--dyn-smem`).
std::string flag_name(std::string_view key) {
  std::string flag = "--" + std::string(key);
  for (char& c : flag) c = c == '_' ? '-' : c;
  return flag;
}

/// The one line main prints for an error.
std::string error_line(const occcalc::input_error& e, bool as_flag) {
  return fmt::format("{} {}", as_flag ? flag_name(e.field()) : e.field(), e.what());
}

/// The gate threshold in percent, if --min-occupancy was given.
std::optional<double> parse_min_occupancy(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(value)) {
    throw occcalc::input_error("min_occupancy", occcalc::detail::quoted(text) + " is not a number; expected a percentage in [0, 100]");
  }
  if (value < 0.0 || value > 100.0) throw occcalc::input_error("min_occupancy", text + " is outside [0, 100]");
  return value;
}

/// Whether an occupancy in [0, 1] fails the gate (the exact value, not the
/// rounded one the message shows).
bool below(double occupancy, const std::optional<double>& min_percent) {
  return min_percent && occupancy * 100.0 < *min_percent;
}

/// Which tables a command needs: each vendor's cost milliseconds to parse,
/// so a query loads only its own.
enum class table_scope { nvidia, amd, all };

bool is_amd_table(const occcalc::table_text& text) {
  return text.origin.rfind("embedded:amd-", 0) == 0;
}

occcalc::table load(const options& opts, table_scope scope) {
  std::vector<occcalc::table_text> texts;
  for (const auto& text : embedded_tables()) {
    if (scope == table_scope::all || (scope == table_scope::amd) == is_amd_table(text)) texts.push_back(text);
  }
  std::vector<std::string> contents;
  contents.reserve(opts.table_files.size());
  for (const auto& path : opts.table_files) contents.push_back(read_text_file(path, "table file"));
  for (std::size_t i = 0; i < contents.size(); ++i) texts.push_back({opts.table_files[i], contents[i]});
  return occcalc::load_tables(texts);
}

/// Whether `req` gives a field only AMD requests have.
bool names_amd_field(const occcalc::request& req) {
  for (const auto& field : occcalc::request_fields) {
    if (field.vendor == occcalc::field_vendor::amd && req.*(field.member)) return true;
  }
  return false;
}

/// Whether a request without AMD fields may still be about an AMD GPU,
/// judged on the NVIDIA tables: it names a GPU their list does not hold (an
/// AMD GPU, or an unknown name, whose error the full tables give).
bool may_need_amd_tables(const occcalc::table& nvidia, const occcalc::request& req) {
  if (req.cc || !req.gpu) return false;
  return occcalc::find_named_gpu(nvidia, *req.gpu).nvidia == nullptr;
}

exit_status run_query(const options& opts, const occcalc::table& tables, std::ostream& out, std::ostream& err) {
  const auto min_percent = parse_min_occupancy(opts.min_occupancy);
  const bool colour = use_colour(colour_mode_from(opts.colour), stdout);
  const evaluated e = evaluate_any(tables, opts.request);
  std::visit(
      [&](const auto& q) {
        if (opts.json) out << result_text(q, json_writer::style::pretty) << "\n";
        else render_text(out, q, colour);
      },
      e);
  const double occupancy = occupancy_of(e);
  if (below(occupancy, min_percent)) {
    out.flush();  // the report before the verdict, where both reach one terminal or log
    err << fmt::format("occcalc: gate failed: occupancy {:.2f}% is below --min-occupancy {}\n",
                       occcalc::percent_hundredths(occupancy), opts.min_occupancy);
    return exit_status::gate_failed;
  }
  return exit_status::ok;
}

/// The batch key that tags a line for the caller; echoed, never computed with.
constexpr std::string_view batch_id_key = "id";

/// The `id` of a line that is an object with a valid one, else empty: an
/// error on the line still carries it where it can.
std::string batch_id(const nlohmann::json& line) {
  if (!line.is_object()) return {};
  const auto it = line.find(batch_id_key);
  if (it == line.end() || !(it->is_string() || it->is_number_integer())) return {};
  return json_text(*it);
}

/// Builds a request from one JSON Lines object; throws input_error. The `id`
/// is only checked here: `batch_id` gives it, for errors too.
occcalc::request request_from_json(const nlohmann::json& line) {
  if (!line.is_object()) throw occcalc::input_error("", "a request must be a JSON object");
  occcalc::request req;
  for (const auto& item : line.items()) {
    const auto& value = item.value();
    if (item.key() == batch_id_key) {
      if (!value.is_string() && !value.is_number_integer()) {
        throw occcalc::input_error(item.key(), shown_value(value) + " is not a string or an integer");
      }
      continue;
    }
    const auto field = std::find_if(std::begin(occcalc::request_fields), std::end(occcalc::request_fields),
                                    [&](const auto& f) { return f.key == item.key(); });
    if (field == std::end(occcalc::request_fields)) {
      std::string known;
      for (const auto& f : occcalc::request_fields) known += (known.empty() ? "" : ", ") + std::string(f.key);
      throw occcalc::input_error(item.key(), "is not a known field; known fields: " + known + ", " +
                                                 std::string(batch_id_key));
    }
    if (field->kind == occcalc::field_kind::flag) {
      if (!value.is_boolean()) throw occcalc::input_error(item.key(), shown_value(value) + " is not true or false");
      req.*(field->member) =
          std::string(value.get<bool>() ? occcalc::flag_set_text : occcalc::flag_unset_text);
      continue;
    }
    if (value.is_string()) {
      if (occcalc::detail::trim(value.get_ref<const std::string&>()).empty()) {
        throw occcalc::input_error(item.key(), "is empty; give a value, or leave the key out");
      }
      req.*(field->member) = value.get<std::string>();
    } else if (value.is_number_integer()) {
      req.*(field->member) = value.dump();
    } else {
      throw occcalc::input_error(item.key(), shown_value(value) + " is not an integer or a string");
    }
  }
  return req;
}

/// The longest batch line read: a real request is under a few hundred bytes.
constexpr std::size_t max_batch_line_bytes = std::size_t{1} << 20;

/// Reads one line (without its newline) into `line`, keeping at most
/// `max_batch_line_bytes` and skipping the rest; false at the end of input.
/// `too_long` tells whether anything was skipped.
bool read_bounded_line(std::istream& in, std::string& line, bool& too_long) {
  line.clear();
  too_long = false;
  std::streambuf* buffer = in.rdbuf();
  bool any = false;
  for (int c = buffer->sbumpc(); c != std::char_traits<char>::eof(); c = buffer->sbumpc()) {
    any = true;
    if (c == '\n') return true;
    if (line.size() < max_batch_line_bytes) {
      line += static_cast<char>(c);
    } else {
      too_long = true;
    }
  }
  in.setstate(std::ios::eofbit);
  return any;
}

exit_status run_batch(const options& opts, const occcalc::table& tables, std::istream& in, std::ostream& out) {
  const auto min_percent = parse_min_occupancy(opts.min_occupancy);
  bool any_bad = false;
  bool any_below = false;
  std::string line;
  std::string output;
  result_writer writer;
  std::int64_t line_number = 0;
  // Line N of the output answers line N of the input, blank lines included.
  bool too_long = false;
  // Before waiting for more input, hand over what is answered: a client
  // that writes one request and waits for its line (a coprocess) gets it.
  const auto flush_if_drained = [&] {
    if (in.rdbuf()->in_avail() > 0) return;
    out << output;
    output.clear();
    out.flush();
  };
  while ((flush_if_drained(), read_bounded_line(in, line, too_long))) {
    ++line_number;
    std::string id_json;
    try {
      if (too_long) {
        throw occcalc::input_error("", fmt::format("line {} is longer than {} MiB; a request is a short JSON object",
                                                   line_number, max_batch_line_bytes >> 20));
      }
      if (line.find_first_not_of(" \t\r") == std::string::npos) {
        throw occcalc::input_error("", fmt::format("line {} is empty; every line must hold a request object",
                                                   line_number));
      }
      nlohmann::json parsed;
      try {
        parsed = occcalc::parse_json_strictly(line);
      } catch (const occcalc::error& e) {
        throw occcalc::input_error("", fmt::format("line {} is not valid JSON: {}", line_number, e.what()));
      }
      id_json = batch_id(parsed);
      const evaluated e = evaluate_any(tables, request_from_json(parsed));
      any_below = any_below || below(occupancy_of(e), min_percent);
      std::visit([&](const auto& q) { writer.append(output, q, id_json); }, e);
    } catch (const occcalc::input_error& e) {
      any_bad = true;
      output += json_text(error_json(e.field(), e.field().empty() ? e.what() : error_line(e, false), id_json));
    } catch (const std::exception& e) {
      // Whatever else a line provokes is its own error: the other lines keep
      // their answers.
      any_bad = true;
      output += json_text(error_json("", fmt::format("line {}: {}", line_number, e.what()), id_json));
    }
    output += '\n';
    // Flush in chunks: one write per line is the cost of a large batch.
    constexpr std::size_t flush_bytes = 1 << 16;
    if (output.size() >= flush_bytes) {
      out << output;
      output.clear();
    }
  }
  out << output;
  if (any_bad) return exit_status::bad_input;
  return any_below ? exit_status::gate_failed : exit_status::ok;
}

exit_status run_list(const options& opts, const occcalc::table& tables, std::ostream& out) {
  const bool all = opts.list_what == "all";
  const bool archs = all || opts.list_what == "archs";
  const bool gpus = all || opts.list_what == "gpus";
  const bool amd = all || opts.list_what == "amd";
  if (opts.json) {
    nlohmann::ordered_json j;
    j["schema_version"] = occcalc::list_schema_version;
    if (archs) {
      j["architectures"] = nlohmann::ordered_json::array();
      for (const auto& arch : tables.architectures) j["architectures"].push_back(arch_json(arch));
    }
    if (gpus) {
      j["gpus"] = nlohmann::ordered_json::array();
      for (const auto& g : tables.gpus) j["gpus"].push_back(gpu_json(g));
    }
    if (amd) {
      j["amd_targets"] = nlohmann::ordered_json::array();
      for (const auto& t : tables.amd_targets) j["amd_targets"].push_back(amd_target_json(t));
    }
    if (gpus || amd) {
      j["amd_gpus"] = nlohmann::ordered_json::array();
      for (const auto& g : tables.amd_gpus) j["amd_gpus"].push_back(amd_gpu_json(g));
    }
    out << json_text(j, 2) << "\n";
    return exit_status::ok;
  }
  const bool colour = use_colour(colour_mode_from(opts.colour), stdout);
  bool first = true;
  const auto section = [&](bool wanted, auto render) {
    if (!wanted) return;
    if (!first) out << "\n";
    first = false;
    render(out, tables, colour);
  };
  section(archs, render_arch_list);
  section(gpus, render_gpu_list);
  section(amd, render_amd_target_list);
  section(gpus || amd, render_amd_gpu_list);
  return exit_status::ok;
}

exit_status run_inspect_or_check(options& opts, bool is_check, const std::vector<CLI::Option*>& request_options,
                                 const occcalc::table& tables, std::istream& in, std::ostream& out,
                                 std::ostream& err) {
  const std::string_view name = is_check ? "check" : "inspect";
  for (std::size_t i = 0; i < std::size(occcalc::request_fields); ++i) {
    const auto key = occcalc::request_fields[i].key;
    if (request_options[i]->count() == 0 ||
        std::find(std::begin(inspect_fields), std::end(inspect_fields), key) != std::end(inspect_fields)) {
      continue;
    }
    throw occcalc::input_error(std::string(key), fmt::format("does not apply to {}: it comes from each kernel of "
                                                             "the input",
                                                             name));
  }
  if (!opts.min_occupancy.empty()) {
    throw occcalc::input_error("min_occupancy", fmt::format("does not apply to {}; put a min_occupancy in a policy "
                                                            "file for occcalc check",
                                                            name));
  }
  if (opts.json && opts.csv) throw occcalc::input_error("csv", "cannot be given together with --json");
  auto& command = opts.inspect;
  command.format = opts.json ? inspect_format::json : opts.csv ? inspect_format::csv : inspect_format::text;
  command.overrides = parse_overrides(opts.request);
  const bool colour = use_colour(colour_mode_from(opts.colour), stdout);
  return is_check ? run_check(tables, command, in, out, colour)
                  : run_inspect(tables, command, in, out, err, colour);
}

/// "did you mean" for a mistyped subcommand or long flag.
std::string did_you_mean(const CLI::App& app, const std::vector<std::string>& extras) {
  if (extras.empty()) return {};
  std::vector<std::string> names;
  if (extras.front().rfind("--", 0) == 0) {
    for (const CLI::Option* option : app.get_options()) {
      for (const auto& name : option->get_lnames()) names.push_back("--" + name);
    }
  } else {
    for (const auto& s : subcommands) names.emplace_back(s.name);
  }
  const auto close = occcalc::closest_names(extras.front(), names, 1);
  return close.empty() ? std::string() : fmt::format("; did you mean '{}'?", close.front());
}

}  // namespace

namespace {

exit_status run_command(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err) {
  options opts;
  CLI::App app{"occcalc: theoretical occupancy of GPU kernels (NVIDIA compute capability 1.0 to 12.1; AMD VLIW, GCN, "
               "CDNA and RDNA)",
               "occcalc"};
  app.set_version_flag("--version", occcalc::version_string);
  app.require_subcommand(0, 1);
  app.fallthrough();
  app.allow_extras();  // reported below, with "did you mean" for subcommands

  std::vector<std::string> values(std::size(occcalc::request_fields));
  std::vector<CLI::Option*> request_options;
  for (std::size_t i = 0; i < std::size(occcalc::request_fields); ++i) {
    const auto& field = occcalc::request_fields[i];
    const bool amd = field.vendor == occcalc::field_vendor::amd;
    if (field.kind == occcalc::field_kind::flag) {
      request_options.push_back(app.add_flag(flag_name(field.key))
                                    ->description(std::string(field.description))
                                    ->group(amd ? "AMD kernel" : "Kernel"));
    } else {
      request_options.push_back(app.add_option(flag_name(field.key), values[i], std::string(field.description))
                                    ->group(amd ? "AMD kernel" : "Kernel"));
    }
  }
  app.add_flag("--json", opts.json, "Print JSON (schema/result.schema.json) instead of text");
  app.add_option("--min-occupancy", opts.min_occupancy,
                 "Gate: exit 1 when the occupancy (percent) is below this");
  app.add_option("--table", opts.table_files, "Load more architectures and GPUs from this JSON table file");
  app.add_option("--color", opts.colour, "Colour the text output: auto (default), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));

  CLI::App* list = app.add_subcommand(subcommands[0].name, subcommands[0].description);
  list->add_option("what", opts.list_what,
                   "archs (NVIDIA), gpus (NVIDIA and AMD), amd (AMD targets and GPUs) or all (default)")
      ->check(CLI::IsMember({"archs", "gpus", "amd", "all"}));
  CLI::App* batch = app.add_subcommand(subcommands[1].name, subcommands[1].description);
  CLI::App* inspect = app.add_subcommand(subcommands[2].name, subcommands[2].description);
  CLI::App* check = app.add_subcommand(subcommands[3].name, subcommands[3].description);
  check->add_option("--policy", opts.inspect.policy_file, "The policy file (JSON; see examples/)")->required();
  for (CLI::App* sub : {inspect, check}) {
    sub->add_option("inputs", opts.inspect.inputs,
                    "Cubins, fat binaries, AMD code objects, offload bundles, objects, executables, shared "
                    "libraries, or ptxas/nvlink logs (- for stdin)")
        ->required();
    sub->add_option("--kernel", opts.inspect.kernel_pattern,
                    "Only kernels whose demangled or mangled name matches this regular expression");
    sub->add_option("--arch", opts.inspect.arch, "Only kernels for this architecture (sm_90, 9.0, gfx90a)");
  }
  inspect->add_flag("--csv", opts.csv, "Print CSV instead of a table");
  CLI::App* suggest = app.add_subcommand(subcommands[4].name, subcommands[4].description);
  suggest->add_option("--max-threads", opts.suggest.max_threads, "Largest block size to consider");
  suggest->add_option("--dyn-smem-per-thread", opts.suggest.dynamic_per_thread,
                      "Dynamic shared memory per thread in bytes, for the block size search");
  suggest->add_option("--target", opts.suggest.target,
                      "Next steps reach this occupancy (percent) instead of one more block; needs --threads");
  suggest->add_option("--blocks", opts.suggest.blocks,
                      "The most dynamic shared memory per block that keeps this many blocks resident; needs --threads");
  CLI::App* sweep = app.add_subcommand(subcommands[5].name, subcommands[5].description);
  sweep->add_option("--vary", opts.sweep.vary,
                    "The figure to vary: threads, regs, smem or barriers (AMD: threads, vgprs, sgprs or lds)")
      ->required();
  sweep->add_option("--from", opts.sweep.from, "First value (default: the figure's smallest)");
  sweep->add_option("--to", opts.sweep.to, "Last value (default: the architecture's maximum)");
  sweep->add_option("--step", opts.sweep.step, "Step (default: a warp, one register, an allocation unit)");
  sweep->add_flag("--csv", opts.sweep.csv, "Print every point as CSV");
  sweep->add_flag("--ascii", opts.sweep.ascii, "Draw the chart with ASCII characters only");
  sweep->add_option("--svg", opts.sweep.svg_file,
                    "Also write the three charts (block size, registers, shared memory) to this SVG file");
  sweep->footer("Also the kernel flags (--cc or --gpu, --threads, --regs, --smem, --dyn-smem, --carveout, --cache, "
                "--barriers; AMD: --gfx or --gpu, --threads, --vgprs, --agprs, --sgprs, --lds, --wave32/--wave64, "
                "--cu-mode/--wgp-mode, --model) and --json.");
  suggest->footer("For AMD (--gfx or an AMD --gpu, --vgprs, --sgprs, --lds, ...) it answers with HIP's "
                  "hipOccupancyMaxPotentialBlockSize.\n"
                  "Also the kernel flags: --cc or --gpu (min grid size), --regs, --threads (next steps), --smem, "
                  "--dyn-smem, --carveout, --cache, --barriers, --json.");
  inspect->footer(
      "Also --threads N (block size for every kernel's occupancy; default: its declared one), --dyn-smem BYTES,\n"
      "--carveout C, --model " + occcalc::amd_model_choices("|", "|") +
      " (AMD kernels) and --json (schema/inspect.schema.json).");
  check->footer("Also --json. Exit 0: every kernel passes; 1: a violation; 2: a bad policy or input.");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return static_cast<exit_status>(app.exit(e, out, err));
  } catch (const CLI::CallForAllHelp& e) {
    return static_cast<exit_status>(app.exit(e, out, err));
  } catch (const CLI::CallForVersion& e) {
    return static_cast<exit_status>(app.exit(e, out, err));
  } catch (const CLI::ParseError& e) {
    err << "occcalc: error: " << e.what() << "\n";
    return exit_status::bad_input;
  }
  // An empty value is never "not given": `--min-occupancy "$UNSET"` must not
  // switch a gate off, and `--kernel ''` must not select every kernel.
  for (const CLI::App* command : std::vector<const CLI::App*>{&app, list, batch, inspect, check, suggest, sweep}) {
    for (const CLI::Option* option : command->get_options()) {
      if (option->get_expected_min() == 0 || option->count() == 0) continue;
      for (const auto& value : option->results()) {
        if (occcalc::detail::trim(value).empty()) {
          const std::string name = option->get_lnames().empty() ? option->get_name() : "--" + option->get_lnames().front();
          err << "occcalc: error: " << name << " is empty; give a value, or leave " << name << " out\n";
          return exit_status::bad_input;
        }
      }
    }
  }
  if (const auto extras = app.remaining(); !extras.empty()) {
    err << "occcalc: error: unexpected argument '" << extras.front() << "'" << did_you_mean(app, extras) << "\n";
    return exit_status::bad_input;
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (request_options[i]->count() == 0) continue;
    const bool flag = occcalc::request_fields[i].kind == occcalc::field_kind::flag;
    opts.request.*(occcalc::request_fields[i].member) = flag ? std::string(occcalc::flag_set_text) : values[i];
  }

  try {
    const bool every_table = *list || *batch || *inspect || *check || !opts.table_files.empty() ||
                             (names_amd_field(opts.request) && opts.request.cc);
    const table_scope scope = every_table                      ? table_scope::all
                              : names_amd_field(opts.request) ? table_scope::amd
                                                              : table_scope::nvidia;
    occcalc::table tables = load(opts, scope);
    if (scope == table_scope::nvidia && may_need_amd_tables(tables, opts.request)) {
      tables = load(opts, table_scope::all);
    }
    if (*list) return run_list(opts, tables, out);
    if (*batch) return run_batch(opts, tables, in, out);
    if (*inspect || *check) return run_inspect_or_check(opts, check->parsed(), request_options, tables, in, out, err);
    if (*sweep) {
      if (!opts.min_occupancy.empty()) throw occcalc::input_error("min_occupancy", "does not apply to sweep");
      if (opts.request.grid) throw occcalc::input_error("grid", "does not apply to sweep");
      if (opts.request.sm_count) throw occcalc::input_error("sm_count", "does not apply to sweep");
      const char* lang = std::getenv("LC_ALL");
      if (lang == nullptr || *lang == '\0') lang = std::getenv("LC_CTYPE");
      if (lang == nullptr || *lang == '\0') lang = std::getenv("LANG");
      const std::string locale = lang ? lang : "";
      if (locale.find("UTF-8") == std::string::npos && locale.find("utf8") == std::string::npos &&
          locale.find("UTF8") == std::string::npos && locale.find("utf-8") == std::string::npos) {
        opts.sweep.ascii = true;  // the terminal may not show block elements
      }
      return run_sweep(tables, opts.request, opts.sweep, opts.json, out,
                       use_colour(colour_mode_from(opts.colour), stdout));
    }
    if (*suggest) {
      if (!opts.min_occupancy.empty()) {
        throw occcalc::input_error("min_occupancy", "does not apply to suggest");
      }
      if (opts.request.grid) throw occcalc::input_error("grid", "does not apply to suggest; min grid size needs --gpu or --sm-count");
      return run_suggest(tables, opts.request, opts.suggest, opts.json, out,
                         use_colour(colour_mode_from(opts.colour), stdout));
    }
    return run_query(opts, tables, out, err);
  } catch (const occcalc::input_error& e) {
    err << "occcalc: error: " << error_line(e, true) << "\n";
  } catch (const occcalc::error& e) {
    err << "occcalc: error: " << e.what() << "\n";
  }
  return exit_status::bad_input;
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
    err << "occcalc: error: " << e.what() << "\n";
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
