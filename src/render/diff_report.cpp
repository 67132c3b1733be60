#include "render/diff_report.hpp"

#include <tuple>

#include <fmt/format.h>

#include "occcalc/common/percent.hpp"
#include "occcalc/common/text.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/version.hpp"
#include "render/github_commands.hpp"
#include "render/markdown.hpp"
#include "render/result_json.hpp"
#include "render/sarif.hpp"
#include "render/terminal.hpp"
#include "render/text_layout.hpp"

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

/// Everything that changed in one kernel, regressions first.
std::string changes_text(const kernel_change& c) {
  if (c.kind == change_kind::added) {
    const auto& f = *c.after;
    return fmt::format(
        "{} registers, {}", f.registers ? std::to_string(*f.registers) : "?",
        f.occupancy ? fmt::format("occupancy {:.2f}%", occcalc::percent_hundredths(*f.occupancy)) : "no occupancy");
  }
  std::vector<std::string> all = c.regressions;
  all.insert(all.end(), c.improvements.begin(), c.improvements.end());
  all.insert(all.end(), c.other_changes.begin(), c.other_changes.end());
  return occcalc::detail::join(all, ", ");
}

/// The changes, the largest regression first (the largest occupancy drop,
/// then the most registers gained), then the rest in their order.
std::vector<const kernel_change*> worst_first(const baseline_diff& diff) {
  // Each change's sort key, computed once: regressions first, then the
  // largest occupancy drop and the most registers gained (negated, so that
  // the key sorts ascending); other changes keep their order.
  std::vector<std::pair<std::tuple<bool, double, std::int64_t>, const kernel_change*>> keyed;
  for (const auto& c : diff.changes) {
    const bool regressed = c.kind == change_kind::regressed && c.before && c.after;
    const double drop = regressed ? c.before->occupancy.value_or(0.0) - c.after->occupancy.value_or(0.0) : 0.0;
    const std::int64_t gained = regressed ? c.after->registers.value_or(0) - c.before->registers.value_or(0) : 0;
    keyed.push_back({{c.kind != change_kind::regressed, -drop, -gained}, &c});
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const kernel_change*> order;
  for (const auto& [key, c] : keyed) order.push_back(c);
  return order;
}

std::string summary_line(const diff_report& report) {
  const auto& diff = report.diff;
  return fmt::format("{} -> {}: {} regressed, {} new, {} removed, {} improved, {} changed otherwise, {} unchanged",
                     report.old_input, report.new_input, diff.count(change_kind::regressed),
                     diff.count(change_kind::added), diff.count(change_kind::removed),
                     diff.count(change_kind::improved), diff.count(change_kind::changed), diff.unchanged);
}

void write_figures(json_writer& w, const std::optional<kernel_figures>& f) {
  if (!f) return w.null();
  w.begin_object();
  w.member("file", f->file);
  w.member("registers", f->registers);
  w.member("static_smem_bytes", f->static_smem_bytes);
  w.member("stack_bytes", f->stack_bytes);
  w.member("spills", f->spills);
  w.member("block_size", f->block_size);
  w.member("dyn_smem_bytes", f->dyn_smem_bytes);
  w.member("occupancy", f->occupancy);
  w.key("cluster_dims");
  if (f->cluster_dims) {
    w.begin_array();
    for (const auto d : *f->cluster_dims) w.value(d);
    w.end_array();
  } else {
    w.null();
  }
  w.end_object();
}

}  // namespace

std::string diff_text(const diff_report& report, const terminal& term) {
  std::string text;
  for (const auto& c : report.diff.changes) {
    const auto& row = info(c.kind);
    const auto& f = c.after ? *c.after : *c.before;
    const std::string what = c.kind == change_kind::removed ? std::string() : changes_text(c);
    const style s = c.kind == change_kind::regressed  ? style::bad
                    : c.kind == change_kind::improved ? style::good
                                                      : style::dim;
    constexpr std::size_t indent = 10;  // past the longest label, REGRESSED
    text +=
        labelled(row.label, s,
                 occcalc::detail::printable(fmt::format("{} {}{}", f.arch, f.name, what.empty() ? "" : ": " + what)),
                 indent, indent + 2, term);
  }
  return text + wrap_hanging(occcalc::detail::printable(summary_line(report)), 0, 2, term.columns);
}

std::string diff_github(const diff_report& report) {
  std::vector<annotation> regressions, notices;
  for (const auto* c : worst_first(report.diff)) {
    const auto& f = c->after ? *c->after : *c->before;
    const std::string what = c->kind == change_kind::removed ? "removed" : changes_text(*c);
    annotation a{f.file, fmt::format("occcalc diff: {}", info(c->kind).name),
                 fmt::format("{} ({}): {}", f.name, f.arch, what)};
    if (c->kind == change_kind::regressed) regressions.push_back(std::move(a));
    if (c->kind == change_kind::added || c->kind == change_kind::removed) notices.push_back(std::move(a));
  }
  constexpr std::string_view full = "occcalc diff's text or SARIF report lists them all";
  std::string out = annotations(report.fails_on_regression ? "error" : "warning", regressions, "regressions", full) +
                    annotations("notice", notices, "new or removed kernels", full);
  return out + summary_line(report) + "\n";
}

std::string diff_sarif(const diff_report& report) {
  // One rule per kind of change a result can report.
  static const std::vector<sarif_rule> rules = {
      {"regression",
       "A kernel got worse than in the baseline: more registers, spills or stack, or lower occupancy.",
       {}},
      {"new_kernel", "A kernel that is not in the baseline.", {}},
      {"removed_kernel", "A kernel of the baseline that is gone.", {}},
  };
  return pretty_document([&](json_writer& w) {
    sarif_writer log(w, rules);
    for (const auto& c : report.diff.changes) {
      const std::size_t index = c.kind == change_kind::regressed ? 0 : c.kind == change_kind::added ? 1 : 2;
      if (c.kind != change_kind::regressed && c.kind != change_kind::added && c.kind != change_kind::removed) continue;
      const auto& f = c.after ? *c.after : *c.before;
      log.result(
          {rules[index].id,
           static_cast<std::int64_t>(index),
           c.kind == change_kind::regressed ? "error" : "note",
           fmt::format("{} ({}): {}", f.name, f.arch, c.kind == change_kind::removed ? "removed" : changes_text(c)),
           f.file,
           f.name,
           f.kernel,
           fmt::format("{}:{}:{}", f.kernel, f.arch, rules[index].id),
           {},
           {{{"kernel", f.kernel}, {"name", f.name}, {"arch", f.arch}, {"status", info(c.kind).name}}}});
    }
    log.finish(true, [&](json_writer& invocation) {
      invocation.member("old", report.old_input);
      invocation.member("new", report.new_input);
      invocation.member("regressed", report.diff.regressed());
    });
  });
}

std::string diff_markdown(const diff_report& report) {
  std::string out =
      fmt::format("### occcalc diff: {}\n\n{}.\n", report.diff.regressed() ? "regressed" : "no regression",
                  markdown_cell(summary_line(report)));
  if (report.diff.changes.empty()) return out;
  out += "\n| | arch | kernel | change |\n|---|---|---|---|\n";
  const auto order = worst_first(report.diff);
  append_rows(
      out, order.size(),
      [&](std::size_t i) {
        const auto* c = order[i];
        const auto& f = c->after ? *c->after : *c->before;
        const std::string what = c->kind == change_kind::removed ? std::string() : changes_text(*c);
        return fmt::format("| {} | {} | {} | {} |\n",
                           c->kind == change_kind::regressed ? "**regressed**" : info(c->kind).name,
                           markdown_cell(f.arch), markdown_code(f.name), markdown_cell(what));
      },
      "(regressions first, the largest first); `occcalc diff` or `--format sarif` lists them all");
  return out;
}

std::string diff_json(const diff_report& report) {
  // Written as it goes: a diff of a whole library against a saved baseline
  // holds a change for every kernel, and a document tree of them cost several
  // times the baseline.
  const auto& diff = report.diff;
  return pretty_document([&](json_writer& w) {
    w.begin_object();
    w.member("schema_version", occcalc::diff_schema_version);
    w.member("old", report.old_input);
    w.member("new", report.new_input);
    w.member("regressed", diff.regressed());
    w.key("counts");
    w.begin_object();
    for (const auto& row : change_kinds) w.member(row.name, diff.count(row.kind));
    w.member("unchanged", diff.unchanged);
    w.end_object();
    w.key("kernels");
    w.begin_array();
    for (const auto& c : diff.changes) {
      const auto& f = c.after ? *c.after : *c.before;
      w.begin_object();
      w.member("kernel", f.kernel);
      w.member("name", f.name);
      w.member("arch", f.arch);
      w.member("status", info(c.kind).name);
      w.key("old");
      write_figures(w, c.before);
      w.key("new");
      write_figures(w, c.after);
      w.member("regressions", c.regressions);
      w.member("improvements", c.improvements);
      w.member("other_changes", c.other_changes);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  });
}

const std::array<format_renderer<diff_render>, 5> diff_renderers = {{
    {output_format::text, diff_text},
    {output_format::json, [](const diff_report& report, const terminal&) { return diff_json(report); }},
    {output_format::github, [](const diff_report& report, const terminal&) { return diff_github(report); }},
    {output_format::sarif, [](const diff_report& report, const terminal&) { return diff_sarif(report); }},
    {output_format::markdown, [](const diff_report& report, const terminal&) { return diff_markdown(report); }},
}};

}  // namespace occcalc::cli
