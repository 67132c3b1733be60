#include "render/diff.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "occcalc/version.hpp"
#include "render/result_json.hpp"
#include "render/terminal.hpp"

namespace occcalc::cli {

namespace {

struct change_kind_info {
  change_kind kind;
  std::string_view name;
  std::string_view label;
};

/// One row per kind, in the order the text lists them.
constexpr change_kind_info change_kinds[] = {
    {change_kind::regressed, "regressed", "REGRESSED"}, {change_kind::added, "new", "new"},
    {change_kind::removed, "removed", "removed"},       {change_kind::improved, "improved", "improved"},
    {change_kind::changed, "changed", "changed"},
};

const change_kind_info& info(change_kind kind) {
  for (const auto& row : change_kinds) {
    if (row.kind == kind) return row;
  }
  return change_kinds[0];
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

nlohmann::ordered_json figures_json(const std::optional<kernel_figures>& f) {
  if (!f) return nullptr;
  const auto optional = [](const auto& v) { return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(); };
  nlohmann::ordered_json j;
  j["file"] = f->file;
  j["registers"] = optional(f->registers);
  j["static_smem_bytes"] = optional(f->static_smem_bytes);
  j["stack_bytes"] = optional(f->stack_bytes);
  j["spills"] = optional(f->spills);
  j["block_size"] = optional(f->block_size);
  j["occupancy"] = optional(f->occupancy);
  return j;
}

}  // namespace

std::string diff_text(const diff_report& report, bool colour) {
  const auto& diff = report.diff;
  std::string text;
  for (const auto& c : diff.changes) {
    const auto& row = info(c.kind);
    const auto& f = c.after ? *c.after : *c.before;
    std::string what;
    if (c.kind == change_kind::added) {
      what = fmt::format("{} registers, {}", f.registers ? std::to_string(*f.registers) : "?",
                         f.occupancy ? fmt::format("occupancy {:.1f}%", *f.occupancy * 100.0) : "no occupancy");
    } else if (c.kind != change_kind::removed) {
      std::vector<std::string> all = c.regressions;
      all.insert(all.end(), c.improvements.begin(), c.improvements.end());
      all.insert(all.end(), c.other_changes.begin(), c.other_changes.end());
      what = join(all);
    }
    const style s = c.kind == change_kind::regressed  ? style::bad
                    : c.kind == change_kind::improved ? style::good
                                                      : style::dim;
    text += fmt::format("{} {} {}{}\n", paint(fmt::format("{:<9}", row.label), s, colour), f.arch, f.name,
                        what.empty() ? "" : ": " + what);
  }
  text += fmt::format("{} -> {}: {} regressed, {} new, {} removed, {} improved, {} changed otherwise, {} unchanged\n",
                      report.old_input, report.new_input, diff.count(change_kind::regressed),
                      diff.count(change_kind::added), diff.count(change_kind::removed),
                      diff.count(change_kind::improved), diff.count(change_kind::changed), diff.unchanged);
  return text;
}

std::string diff_json(const diff_report& report) {
  const auto& diff = report.diff;
  nlohmann::ordered_json j;
  j["schema_version"] = occcalc::diff_schema_version;
  j["old"] = report.old_input;
  j["new"] = report.new_input;
  j["regressed"] = diff.regressed();
  nlohmann::ordered_json counts;
  for (const auto& row : change_kinds) counts[std::string(row.name)] = diff.count(row.kind);
  counts["unchanged"] = diff.unchanged;
  j["counts"] = std::move(counts);
  j["kernels"] = nlohmann::ordered_json::array();
  for (const auto& c : diff.changes) {
    const auto& f = c.after ? *c.after : *c.before;
    nlohmann::ordered_json k;
    k["kernel"] = f.kernel;
    k["name"] = f.name;
    k["arch"] = f.arch;
    k["status"] = info(c.kind).name;
    k["old"] = figures_json(c.before);
    k["new"] = figures_json(c.after);
    k["regressions"] = c.regressions;
    k["improvements"] = c.improvements;
    k["other_changes"] = c.other_changes;
    j["kernels"].push_back(std::move(k));
  }
  return json_text(j, 2) + "\n";
}

}  // namespace occcalc::cli
