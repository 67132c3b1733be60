#include "analysis/baseline.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "occcalc/common/percent.hpp"
#include "occcalc/error.hpp"
#include "occcalc/tables/load.hpp"

namespace occcalc::cli {

namespace {

/// The inspect schema versions whose records carry these figures.
constexpr std::int64_t oldest_inspect_schema = 2;
constexpr std::int64_t newest_inspect_schema = 4;

std::string text_of(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "?"; }

/// Where a comparison files each figure that changed.
struct change_lists {
  std::vector<std::string>* regressions;
  std::vector<std::string>* improvements;
  std::vector<std::string>* others;
};

void file(std::vector<std::string>* list, std::string line) {
  if (list != nullptr) list->push_back(std::move(line));
}

/// Records one figure's change: a regression when it got worse by more than
/// `slack`, an improvement when it got better, another change otherwise.
/// `higher_is_worse` for registers, stack and spills; a figure with no
/// better or worse (shared memory, block size) has `directed` false.
template <typename T, typename Text>
void compare_figure(const char* what, const std::optional<T>& before, const std::optional<T>& after, bool directed,
                    bool higher_is_worse, T slack, Text&& text, const change_lists& lists) {
  if (!before || !after || *before == *after) return;
  std::string line = fmt::format("{} {} -> {}", what, text(before), text(after));
  if (!directed) return file(lists.others, std::move(line));
  const T worse_by = higher_is_worse ? *after - *before : *before - *after;
  if (worse_by > slack) return file(lists.regressions, std::move(line));
  if (worse_by < T{}) return file(lists.improvements, std::move(line));
  file(lists.others, std::move(line));
}

void compare_all(const kernel_figures& b, const kernel_figures& a, const regression_thresholds& t,
                 const change_lists& lists) {
  const auto count = [](const std::optional<std::int64_t>& v) { return text_of(v); };
  compare_figure("registers", b.registers, a.registers, true, true, t.registers, count, lists);
  compare_figure("spills", b.spills, a.spills, true, true, std::int64_t{0}, count, lists);
  compare_figure("stack bytes", b.stack_bytes, a.stack_bytes, true, true, t.stack_bytes, count, lists);
  // Occupancy in percentage points, compared at the precision it is shown.
  const auto points = [](const std::optional<double>& v) -> std::optional<double> {
    if (!v) return std::nullopt;
    return std::round(*v * occcalc::percent_per_unit * 10.0) / 10.0;
  };
  compare_figure(
      "occupancy", points(b.occupancy), points(a.occupancy), true, false, t.occupancy_points,
      [](const std::optional<double>& v) { return v ? fmt::format("{:.1f}%", *v) : std::string("?"); }, lists);
  compare_figure("static smem bytes", b.static_smem_bytes, a.static_smem_bytes, false, true, std::int64_t{0}, count,
                 lists);
  compare_figure("block size", b.block_size, a.block_size, false, true, std::int64_t{0}, count, lists);
}

}  // namespace

kernel_figures figures_of(const kernel_report& r) {
  const auto& k = r.kernel.resources;
  kernel_figures f;
  f.kernel = k.name;
  f.arch = k.arch;
  f.name = r.kernel.demangled;
  f.file = r.file;
  f.registers = k.registers;
  f.static_smem_bytes = k.static_shared_memory_bytes;
  f.stack_bytes = inspect::stack_bytes(k.stack_size_bytes, k.stack_frame_bytes);
  f.spills = inspect::spill_total(k.vgpr_spills, k.sgpr_spills, k.spill_store_bytes, k.spill_load_bytes);
  f.block_size = r.block_size;
  if (const auto summary = r.summary()) f.occupancy = summary->occupancy();
  return f;
}

std::vector<kernel_figures> figures_of(const std::vector<input_report>& reports) {
  std::vector<kernel_figures> out;
  for (const auto& input : reports) {
    for (const auto& r : input.kernels) out.push_back(figures_of(r));
  }
  return out;
}

bool looks_like_json(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string::npos && text[first] == '{';
}

std::vector<kernel_figures> figures_from_inspect_json(const std::string& origin, const std::string& text) {
  const nlohmann::json parsed = occcalc::detail::parse_strict({origin, text});
  if (!parsed.is_object() || !parsed.contains("kernels") || !parsed.contains("schema_version")) {
    throw occcalc::table_error(origin + ": not a saved 'occcalc inspect --json' (no schema_version and kernels)");
  }
  const auto& version = parsed["schema_version"];
  if (!version.is_number_integer() || version.get<std::int64_t>() < oldest_inspect_schema ||
      version.get<std::int64_t>() > newest_inspect_schema) {
    throw occcalc::table_error(fmt::format("{}: inspect schema_version {} is not one this occcalc reads ({} to {})",
                                           origin, version.dump(), oldest_inspect_schema, newest_inspect_schema));
  }
  const auto& kernels = parsed["kernels"];
  if (!kernels.is_array()) throw occcalc::table_error(origin + ": kernels is not an array");
  std::vector<kernel_figures> out;
  out.reserve(kernels.size());
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto& record = kernels[i];
    const std::string where = fmt::format("{}: kernels[{}]", origin, i);
    if (!record.is_object()) throw occcalc::table_error(where + ": not an object");
    const auto text_field = [&](const char* key) {
      const auto it = record.find(key);
      if (it == record.end() || !it->is_string()) {
        throw occcalc::table_error(fmt::format("{}: field '{}' is missing or not a string", where, key));
      }
      return it->get<std::string>();
    };
    const auto count = [&](const char* key) -> std::optional<std::int64_t> {
      const auto it = record.find(key);
      if (it == record.end() || it->is_null()) return std::nullopt;
      if (!it->is_number_integer() || it->get<std::int64_t>() < 0) {
        throw occcalc::table_error(fmt::format("{}: field '{}' is not a count", where, key));
      }
      return it->get<std::int64_t>();
    };
    kernel_figures f;
    f.kernel = text_field("kernel");
    f.arch = text_field("arch");
    f.name = text_field("name");
    f.file = text_field("file");
    f.registers = count("registers");
    f.static_smem_bytes = count("static_smem_bytes");
    f.stack_bytes = inspect::stack_bytes(count("stack_size_bytes"), count("stack_frame_bytes"));
    f.spills = inspect::spill_total(count("vgpr_spills"), count("sgpr_spills"), count("spill_store_bytes"),
                                    count("spill_load_bytes"));
    f.block_size = count("block_size");
    const auto occupancy = record.find("occupancy");
    if (occupancy != record.end() && occupancy->is_object()) {
      const auto value = occupancy->find("occupancy");
      if (value == occupancy->end() || !value->is_number() || value->get<double>() < 0.0 ||
          value->get<double>() > 1.0) {
        throw occcalc::table_error(where + ": occupancy.occupancy is not a fraction in [0, 1]");
      }
      f.occupancy = value->get<double>();
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::size_t baseline_diff::count(change_kind kind) const noexcept {
  return static_cast<std::size_t>(
      std::count_if(changes.begin(), changes.end(), [&](const kernel_change& c) { return c.kind == kind; }));
}

std::vector<std::string> regressions_of(const kernel_figures& before, const kernel_figures& after,
                                        const regression_thresholds& thresholds) {
  std::vector<std::string> regressions;
  compare_all(before, after, thresholds, {&regressions, nullptr, nullptr});
  return regressions;
}

baseline_diff compare_builds(const std::vector<kernel_figures>& before, const std::vector<kernel_figures>& after,
                             const regression_thresholds& thresholds) {
  using key = std::pair<std::string, std::string>;
  std::map<key, const kernel_figures*> old_by_key;
  for (const auto& f : before) old_by_key.emplace(key{f.kernel, f.arch}, &f);
  std::map<key, bool> seen;
  baseline_diff diff;
  for (const auto& f : after) {
    const key k{f.kernel, f.arch};
    if (!seen.emplace(k, true).second) continue;  // the first of several
    const auto old = old_by_key.find(k);
    if (old == old_by_key.end()) {
      diff.changes.push_back({change_kind::added, std::nullopt, f, {}, {}, {}});
      continue;
    }
    kernel_change change{change_kind::changed, *old->second, f, {}, {}, {}};
    compare_all(*old->second, f, thresholds, {&change.regressions, &change.improvements, &change.other_changes});
    if (change.regressions.empty() && change.improvements.empty() && change.other_changes.empty()) {
      ++diff.unchanged;
      continue;
    }
    change.kind = !change.regressions.empty()    ? change_kind::regressed
                  : !change.improvements.empty() ? change_kind::improved
                                                 : change_kind::changed;
    diff.changes.push_back(std::move(change));
  }
  std::map<key, bool> removed_seen;
  for (const auto& f : before) {
    const key k{f.kernel, f.arch};
    if (seen.count(k) || !removed_seen.emplace(k, true).second) continue;
    diff.changes.push_back({change_kind::removed, f, std::nullopt, {}, {}, {}});
  }
  // What needs attention first; within a kind, the new build's order.
  const auto rank = [](change_kind kind) {
    constexpr change_kind order[] = {change_kind::regressed, change_kind::added, change_kind::removed,
                                     change_kind::improved, change_kind::changed};
    return std::find(std::begin(order), std::end(order), kind) - std::begin(order);
  };
  std::stable_sort(diff.changes.begin(), diff.changes.end(),
                   [&](const kernel_change& a, const kernel_change& b) { return rank(a.kind) < rank(b.kind); });
  return diff;
}

}  // namespace occcalc::cli
