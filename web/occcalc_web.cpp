// The web page's calculator (web/index.html): the CLI's own functions behind
// three calls that take and give JSON text, compiled by emscripten. A page's
// request is the CLI's (the same keys, defaults, resolution and messages);
// its answer holds what the CLI prints for the query, suggest and sweep,
// and the command lines that print it.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <string_view>
#include <variant>

#include "builds/kernel_report.hpp"
#include "builds/readers/amdgpu_remarks.hpp"
#include "builds/readers/compiler_log.hpp"
#include "builds/readers/demangle.hpp"
#include "cli/compiled_tables.hpp"
#include "commands/batch_line.hpp"
#include "commands/query.hpp"
#include "commands/suggest.hpp"
#include "commands/sweep.hpp"
#include "occcalc/error.hpp"
#include "occcalc/nvidia/compute_capability.hpp"
#include "occcalc/request/request.hpp"
#include "occcalc/request/resolve.hpp"
#include "occcalc/tables/gpu_names.hpp"
#include "web/page_request.hpp"

namespace occcalc::web {

namespace {

using json = nlohmann::ordered_json;

const occcalc::table& tables() { return cli::resident_tables(); }

/// What the page shows a text answer in: the CLI's layout for a pipe at
/// 80 columns, with Unicode characters and no colour.
cli::terminal page_terminal() {
  cli::terminal term;
  term.utf8 = true;
  return term;
}

/// An error as the page shows it beside a field: the CLI's message in the
/// page's words, led by the field's label and naming other fields by theirs
/// (`Grid needs a named GPU ("GPU or architecture") or "SMs"`); and
/// `cli_message`, the CLI's line without its `occcalc: error: ` lead.
json error_json(const std::exception& e, bool amd) {
  if (const auto* input = dynamic_cast<const occcalc::input_error*>(&e)) {
    const auto quoted = [amd](std::string_view key) { return fmt::format("\"{}\"", page_label(key, amd)); };
    return {{"field", input->field()},
            {"message", input->field().empty()
                            ? input->message(quoted)
                            : fmt::format("{} {}", page_label(input->field(), amd), input->message(quoted))},
            {"cli_message", occcalc::flagged_text(*input)}};
  }
  return {{"field", ""}, {"message", e.what()}, {"cli_message", e.what()}};
}

/// Runs `command` into a string; its error as the page shows it.
template <typename Command>
json run_into(bool amd, Command&& command) {
  std::ostringstream out;
  try {
    command(out);
  } catch (const std::exception& e) {
    return {{"error", error_json(e, amd)}};
  }
  return {{"output", out.str()}};
}

/// `fields` as the CLI's request, read as a batch line is (the same checks
/// and messages); throws `input_error`.
occcalc::request request_of(const page_fields& fields) {
  cli::batch_line line;
  cli::read_batch_line(fields_json(fields).dump(), 1, line);
  return std::move(line.request);
}

/// Whether suggest and a cluster sweep take `req`'s cluster: an NVIDIA
/// cluster on one device (a GPU, or an SM count), as the CLI's do; they
/// refuse one on a family or with no device, where the query still answers.
bool cluster_on_one_device(const occcalc::request& req) {
  const occcalc::resolved_any resolved = occcalc::resolve_any(tables(), req);
  const auto* nvidia = std::get_if<occcalc::resolved_request>(&resolved);
  return nvidia != nullptr && nvidia->cluster && nvidia->cluster_devices.size() == 1;
}

/// The answer to a page request (`read_page_request`), a JSON object:
/// - `vendor` (nvidia, amd: which fields apply);
/// - `command`, `suggest_command`, `sweep_command`: the command lines that
///   print the same, whenever the page's fields make a request;
/// - `error` (`field`, `message`: the CLI's message, led by the flag), and
///   nothing more, when the CLI would refuse the query;
/// - else `text` (the CLI's text answer), `result` (its `--json`), `suggest`
///   (`suggest --json`, a family's with each product's min grid size; its
///   text, `suggest_text`, where only the text answers) and `svg`
///   (`sweep --svg -`), or `suggest_error` and
///   `sweep_error` where those refuse (a family's grid: `result`'s
///   `family.gpus[].waves`, as `--json` gives them);
/// - with a cluster on one device, `cluster_sweep` (`sweep --vary cluster
///   --json`) and `cluster_sweep_command`.
/// Each answer is computed from the fields its command shows: suggest takes
/// no grid (and the cluster on one device), the charts neither a grid, a
/// cluster nor an SM count.
json answer(const json& page) {
  json out;
  const page_request r = read_page_request(tables(), page);
  out["vendor"] = r.amd ? "amd" : "nvidia";
  if (!r.error.empty()) {
    out["error"] = r.error;
    return out;
  }
  const page_fields without_grid = without(r.fields, {"grid"});
  const page_fields without_cluster = without(without_grid, {"cluster"});
  const page_fields sweep_fields = without(without_cluster, {"sm_count"});

  // The commands even for an error: the CLI says the same.
  out["command"] = command_line("", r.fields);
  out["sweep_command"] = command_line("sweep", sweep_fields) + " --vary threads --svg chart.svg";
  occcalc::request request, per_sm, for_sweep, without_cluster_request;
  bool with_cluster = false;
  try {
    request = request_of(r.fields);
    per_sm = request_of(without_grid);
    for_sweep = request_of(sweep_fields);
    without_cluster_request = request_of(without_cluster);
    with_cluster = cluster_on_one_device(per_sm);
  } catch (const std::exception& e) {
    out["suggest_command"] = command_line("suggest", without_cluster);
    out["error"] = error_json(e, r.amd);
    return out;
  }
  const occcalc::request& for_suggest = with_cluster ? per_sm : without_cluster_request;
  out["suggest_command"] = command_line("suggest", with_cluster ? without_grid : without_cluster);
  if (with_cluster) out["cluster_sweep_command"] = command_line("sweep", without_cluster) + " --vary cluster";
  const cli::terminal term = page_terminal();
  const auto query = [&](bool as_json) {
    return run_into(r.amd, [&](std::ostream& s) {
      cli::query_options o{request, {}, as_json, false, term};
      std::ostringstream err;
      cli::run_query(tables(), o, s, err);
    });
  };
  const json result = query(true);
  const json text = query(false);
  if (text.contains("error")) {
    out["error"] = text["error"];
    return out;
  }
  out["text"] = text["output"];
  if (!result.contains("output")) {
    out["error"] = result["error"];
    return out;
  }
  out["result"] = json::parse(result["output"].get<std::string>());
  const json suggest =
      run_into(r.amd, [&](std::ostream& s) { cli::run_suggest(tables(), for_suggest, {}, true, s, term); });
  if (suggest.contains("output")) {
    out["suggest"] = json::parse(suggest["output"].get<std::string>());
  } else {
    // Where --json refuses, the text may still answer.
    const json text_suggest =
        run_into(r.amd, [&](std::ostream& s) { cli::run_suggest(tables(), for_suggest, {}, false, s, term); });
    if (text_suggest.contains("output")) {
      out["suggest_text"] = text_suggest["output"];
    } else {
      out["suggest_error"] = suggest["error"];
    }
  }
  cli::sweep_options sweep;
  sweep.vary = "threads";
  sweep.svg_file = "-";
  const json svg =
      run_into(r.amd, [&](std::ostream& s) { cli::run_sweep(tables(), for_sweep, sweep, false, s, term); });
  if (svg.contains("output")) {
    out["svg"] = svg["output"];
  } else {
    out["sweep_error"] = svg["error"];
  }
  if (with_cluster) {
    cli::sweep_options by_size;
    by_size.vary = "cluster";
    const json sizes = run_into(
        r.amd, [&](std::ostream& s) { cli::run_sweep(tables(), without_cluster_request, by_size, true, s, term); });
    if (sizes.contains("output")) {
      out["cluster_sweep"] = json::parse(sizes["output"].get<std::string>());
    } else {
      out["sweep_error"] = sizes["error"];
    }
  }
  return out;
}

/// The kernels of a pasted compiler log, each with the page fields it
/// fills, and a `note` naming the AMD remark lines not read.
json read_log(std::string_view text) {
  json out;
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    // As the CLI refuses a saved document: a log is text.
    out["error"] = {{"field", "log"},
                    {"message", fmt::format("a NUL byte at offset {}; a compiler log has none", nul)}};
    return out;
  }
  std::vector<inspect::kernel_resources> kernels;
  inspect::unread_remarks unread;
  bool amd_remarks = false;
  try {
    if (inspect::is_compiler_log(text)) {
      kernels = inspect::read_compiler_log(text);
      if (kernels.empty()) {
        // A figures line pasted alone: ptxas names its kernel on the line
        // before, which the page reads in as an unnamed kernel.
        kernels = inspect::read_compiler_log(std::string(pasted_entry_line) + "\n" + std::string(text), 0);
      }
    } else if (inspect::is_amdgpu_remarks(text)) {
      amd_remarks = true;
      kernels = inspect::read_amdgpu_remarks(text, &unread);
    } else {
      out["error"] = {{"field", "log"},
                      {"message",
                       "this is not a compiler log: paste what nvcc -Xptxas -v prints (lines starting 'ptxas info'), "
                       "nvlink --verbose, or hipcc -Rpass-analysis=kernel-resource-usage remarks"}};
      return out;
    }
  } catch (const std::exception& e) {
    out["error"] = {{"field", "log"}, {"message", e.what()}};
    return out;
  }
  if (kernels.empty()) {
    out["error"] = {{"field", "log"},
                    {"message", "the log holds no kernel's figures: the 'Used N registers' line is missing"}};
    return out;
  }
  if (unread.lines > 0) {
    // As inspect's heading says it.
    out["note"] =
        fmt::format("{} remark line{} not read ({})", unread.lines, unread.lines == 1 ? "" : "s", unread.first);
  }
  out["kernels"] = json::array();
  for (auto& k : kernels) {
    cli::settle_static_shared_memory(tables(), k);
    out["kernels"].push_back({{"name", inspect::demangle(k.name)}, {"fields", log_fields(k, amd_remarks)}});
  }
  return out;
}

/// What the target box offers: every architecture, GPU, family and AMD
/// target the tables hold, with a label.
json names() {
  json out = json::array();
  for (const auto& a : tables().architectures) {
    out.push_back({a.id, fmt::format("compute capability {}.{}, {}", a.cc_major, a.cc_minor, a.family)});
  }
  for (const auto& g : tables().gpus) out.push_back({g.name, g.arch_id});
  for (const auto& g : tables().amd_gpus) out.push_back({g.name, g.target_id});
  for (const auto& family : family_names(tables())) out.push_back({family, "family"});
  for (const auto& t : tables().amd_targets) out.push_back({t.id, t.family});
  return out;
}

/// The last answer, which the page copies before its next call.
std::string reply;

const char* give(const json& document) {
  reply = document.dump(-1, ' ', false, json::error_handler_t::replace);  // a log's bytes may not be UTF-8
  return reply.c_str();
}

}  // namespace

}  // namespace occcalc::web

extern "C" {

/// The answer to a page request (a JSON object of the page's fields).
const char* occcalc_web_answer(const char* request_json) {
  using occcalc::web::json;
  json page;
  try {
    page = json::parse(request_json);
  } catch (const std::exception& e) {
    return occcalc::web::give({{"error", {{"field", ""}, {"message", e.what()}}}});
  }
  try {
    return occcalc::web::give(occcalc::web::answer(page));
  } catch (const std::exception& e) {  // never an abort: the page says what failed
    return occcalc::web::give({{"error", {{"field", ""}, {"message", e.what()}}}});
  }
}

/// The kernels of a pasted compiler log: `length` bytes at `text`, NUL
/// bytes included.
const char* occcalc_web_read_log(const char* text, std::size_t length) {
  try {
    return occcalc::web::give(occcalc::web::read_log({text, length}));
  } catch (const std::exception& e) {
    return occcalc::web::give({{"error", {{"field", "log"}, {"message", e.what()}}}});
  }
}

/// The names the target box offers.
const char* occcalc_web_names() { return occcalc::web::give(occcalc::web::names()); }
}
