#include "commands/check.hpp"

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <ostream>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "builds/baseline.hpp"
#include "builds/policy.hpp"
#include "builds/read_build.hpp"
#include "builds/read_store.hpp"
#include "builds/readers/parallel.hpp"
#include "io/text_file.hpp"
#include "occcalc/error.hpp"
#include "render/check_report.hpp"

namespace occcalc::cli {

namespace {

/// The policy's rules that matched no kernel (`rule_used`, by rule) and
/// allow entries that excused no violation, by label.
std::vector<std::string> unused_entries(const policy& p, const std::vector<char>& rule_used,
                                        const std::vector<violation>& violations) {
  std::vector<std::string> unused;
  for (std::size_t i = 0; i < p.rules.size(); ++i) {
    if (!rule_used[i]) unused.push_back(p.rules[i].label + " matched no kernel");
  }
  for (const auto& allowance : p.allow) {
    const bool used = std::any_of(violations.begin(), violations.end(),
                                  [&](const violation& v) { return v.allowed_by == &allowance; });
    if (!used) unused.push_back(allowance.label + " excused no violation");
  }
  return unused;
}

/// The launch a kernel is checked at: the policy's `dyn_smem` and `cluster`
/// where it sets them, and its block size: the policy's `threads`, where it
/// sets one, but never beyond the kernel's launch bounds when it comes from
/// the defaults (the kernel cannot launch so; a rule that names a kernel and
/// a larger size is refused by `refuse_rules_beyond_bounds`).
std::pair<launch_overrides, launch_source> policy_launch(const applied_limits& applied,
                                                         const inspect::inspected_kernel& k,
                                                         const launch_overrides& given) {
  launch_overrides o = given;
  if (applied.limits.dyn_smem_bytes) o.dyn_smem_bytes = applied.limits.dyn_smem_bytes;
  if (applied.limits.cluster) o.cluster = applied.limits.cluster;
  if (!applied.limits.threads) return {o, launch_source::threads_option};
  o.threads = applied.limits.threads;
  const auto& bounds = k.resources.max_threads;
  if (applied.threads_rule == defaults_label && bounds && *o.threads > inspect::volume(*bounds)) {
    o.threads = inspect::volume(*bounds);
    return {o, launch_source::launch_bounds};
  }
  return {o, launch_source::policy};
}

/// The most kernels one message names before it counts the rest.
constexpr std::size_t max_named_kernels = 5;

/// Judges each kernel as its report comes, so that a build is never held
/// as reports: it keeps only the reports that break a rule (the violations
/// point at them) and, for --baseline, each kernel packed into a store.
class judging_sink final : public report_sink {
 public:
  judging_sink(const policy& p, const inspect_command& command)
      : rule_used(p.rules.size()),
        store(command.inputs),
        policy_(p),
        filters_(filters_kernels(command)),
        keep_store_(!command.baseline.empty()) {}

  void input(const input_report& heading, std::size_t kernel_count) override {
    // Nothing checked is never a pass: said once all is read.
    if (kernel_count == 0 && !filters_) without_kernels.push_back(heading.file);
  }

  void kernels(std::vector<kernel_report>& run) override {
    for (auto& k : run) judge(k);
  }

  /// The kernels read, in order.
  std::size_t kernels_read = 0;
  check_outcome outcome;
  /// The kernels with violations, and their places in the order read.
  std::deque<judged_kernel> kept;
  std::vector<std::pair<std::size_t, const judged_kernel*>> kept_at;
  std::vector<char> rule_used;
  /// With --baseline: every kernel read, packed.
  kernel_store store;
  std::vector<std::string> without_kernels;

  /// A rule that gives a block size beyond the launch bounds of a kernel it
  /// matches asks for a launch that cannot happen: a policy error naming
  /// both (the first such rule, its first kernels).
  void refuse_rules_beyond_bounds(const std::string& origin) const {
    if (beyond_count_ == 0) return;
    std::string names;
    for (const auto& k : beyond_kernels_) names += (names.empty() ? "" : ", ") + k;
    if (beyond_count_ > beyond_kernels_.size()) {
      names += fmt::format(" and {} more", beyond_count_ - beyond_kernels_.size());
    }
    throw occcalc::table_error(fmt::format(
        "{}: {}: threads {} exceeds the launch bounds of {} kernel{} it matches: {}; give a block size within "
        "them, or a pattern that leaves them out",
        origin, beyond_rule_, beyond_threads_, beyond_count_, beyond_count_ == 1 ? "" : "s", names));
  }

 private:
  void judge(kernel_report& k) {
    const applied_limits applied = limits_for(policy_, k.kernel);
    note_beyond_bounds(k, applied);
    for (std::size_t i = 0; i < rule_used.size(); ++i) {
      if (!rule_used[i] && policy_.rules[i].match.matches(k.kernel)) rule_used[i] = 1;
    }
    found_.clear();
    check_kernel(policy_, applied, k, found_);
    ++outcome.kernels_checked;
    const auto same = [&](const judged_size& j) { return j.threads == k.block_size && j.from == k.block_size_from; };
    if (auto it = std::find_if(outcome.judged_at.begin(), outcome.judged_at.end(), same);
        it != outcome.judged_at.end()) {
      ++it->kernels;
    } else {
      outcome.judged_at.push_back({k.block_size, k.block_size_from, 1});
    }
    if (keep_store_) store.push_back(k);
    if (!found_.empty()) {
      kept.emplace_back(std::move(k));
      for (auto& v : found_) {
        v.kernel = &kept.back();
        outcome.violations.push_back(std::move(v));
      }
      kept_at.emplace_back(kernels_read, &kept.back());
    }
    ++kernels_read;
  }

  void note_beyond_bounds(const kernel_report& k, const applied_limits& applied) {
    const auto& res = k.kernel.resources;
    const auto bounds = res.required_threads ? res.required_threads : res.max_threads;
    if (!bounds || !applied.limits.threads || applied.threads_rule == defaults_label ||
        *applied.limits.threads <= inspect::volume(*bounds)) {
      return;
    }
    if (beyond_count_ == 0) {
      beyond_rule_ = applied.threads_rule;
      beyond_threads_ = *applied.limits.threads;
    }
    if (applied.threads_rule != beyond_rule_) return;
    if (++beyond_count_ <= max_named_kernels) {
      beyond_kernels_.push_back(fmt::format("{} ({}, {} threads)", res.name, res.arch.name, inspect::volume(*bounds)));
    }
  }

  const policy& policy_;
  std::vector<violation> found_;
  bool filters_;
  bool keep_store_;
  std::string beyond_rule_;
  std::int64_t beyond_threads_ = 0;
  std::vector<std::string> beyond_kernels_;
  std::size_t beyond_count_ = 0;
};

/// With a baseline, the policy applies to what is new or regressed against
/// it: a violation of a kernel no worse than its baseline copy, at the same
/// launch, is excused with the baseline as the reason. Nothing unknown on
/// either side is excused.
void excuse_by_baseline(const occcalc::table& tables, const inspect_command& command, const kernel_store& before,
                        std::ostream& err, judging_sink& judged) {
  check_outcome& outcome = judged.outcome;
  outcome.baseline = {{}, {}, "no worse than in the baseline " + command.baseline, "baseline"};
  const kernel_pairing pairing = pair_kernels(before, judged.store);
  if (!pairing.ambiguities.empty()) {
    err << "occcalc: note: baseline: " << occcalc::detail::printable(ambiguity_note(pairing.ambiguities)) << "\n";
  }
  // The old copy of each kernel kept (one with violations).
  std::map<const judged_kernel*, std::size_t> old_of;
  for (const auto& [old_index, new_index] : pairing.pairs) {
    const auto kept = std::lower_bound(
        judged.kept_at.begin(), judged.kept_at.end(), new_index,
        [](const std::pair<std::size_t, const judged_kernel*>& k, std::size_t i) { return k.first < i; });
    if (kept != judged.kept_at.end() && kept->first == new_index) old_of.emplace(kept->second, old_index);
  }
  // Each kept kernel's violations (a run of them) and its old copy, judged
  // on every worker: each run is its own.
  struct excusable {
    std::vector<violation>::iterator first, last;
    std::size_t old_index;
  };
  std::vector<excusable> runs;
  for (auto v = outcome.violations.begin(); v != outcome.violations.end();) {
    const judged_kernel* kernel = v->kernel;
    const auto end = std::find_if(v, outcome.violations.end(), [&](const violation& x) { return x.kernel != kernel; });
    if (const auto old = old_of.find(kernel); old != old_of.end()) runs.push_back({v, end, old->second});
    v = end;
  }
  constexpr std::size_t runs_per_slice = 4096;
  inspect::parallel_for_slices<std::monostate>(runs.size(), runs_per_slice, reading_workers(command),
                                               [&](std::size_t, std::size_t first, std::size_t end, std::monostate&) {
                                                 for (std::size_t i = first; i < end; ++i) {
                                                   const judged_kernel& kernel = *runs[i].first->kernel;
                                                   const kernel_figures was = figures_like(
                                                       tables, before[runs[i].old_index], kernel.block_size,
                                                       kernel.dynamic_shared_memory_bytes, command.overrides);
                                                   const kernel_figures now = figures_of(kernel);
                                                   if (!regressions_of(was, now, {}).empty()) continue;
                                                   for (auto x = runs[i].first; x != runs[i].last; ++x) {
                                                     if (x->allowed_by == nullptr && comparable(was, now, x->check))
                                                       x->allowed_by = &outcome.baseline;
                                                   }
                                                 }
                                               });
}

}  // namespace

exit_status run_check(const occcalc::table& tables, const inspect_command& command, std::istream& in, std::ostream& out,
                      std::ostream& err, const terminal& term) {
  const policy p = parse_policy(command.policy_file, read_text_file(command.policy_file, "policy file"));
  const check_render render = find_renderer(check_renderers, command.format);
  if (render == nullptr) {
    throw occcalc::input_error("format", std::string(info(command.format).name) + " is not a format of check; give " +
                                             format_names(check_renderers));
  }
  // The baseline is read beside the build, unless one of them is standard
  // input; what it says comes where it would, read after the build.
  std::optional<background_store> baseline;
  const bool stdin_read =
      command.baseline == "-" || std::find(command.inputs.begin(), command.inputs.end(), "-") != command.inputs.end();
  if (!command.baseline.empty() && !stdin_read) {
    baseline.emplace(tables, command.baseline, command, command.overrides, in);
  }
  judging_sink judged(p, command);
  std::size_t failed = read_build(
      tables, command, in, err,
      [&](const inspect::inspected_kernel& k) { return policy_launch(limits_for(p, k), k, command.overrides); },
      judged);
  if (judged.kernels_read == 0 && failed == 0) require_matches(command);
  judged.refuse_rules_beyond_bounds(command.policy_file);
  for (const auto& file : judged.without_kernels) {
    err << fmt::format("occcalc: error: {}: no GPU kernels to check\n", occcalc::detail::printable(file));
    ++failed;
  }
  check_outcome& outcome = judged.outcome;
  std::stable_sort(outcome.judged_at.begin(), outcome.judged_at.end(),
                   [](const judged_size& a, const judged_size& b) { return a.kernels > b.kernels; });
  const std::size_t suggested = std::accumulate(
      outcome.judged_at.begin(), outcome.judged_at.end(), std::size_t{0},
      [](std::size_t n, const judged_size& j) { return n + (j.from == launch_source::suggested ? j.kernels : 0); });
  if (suggested > 0) {
    const std::string unset = fmt::format("{} kernel{} declare no block size and the policy gives {} none", suggested,
                                          suggested == 1 ? "" : "s", suggested == 1 ? "it" : "them");
    const std::string fix = "set defaults.threads (or a rule's threads) to the block size you launch";
    if (command.require_threads) throw occcalc::input_error("require_threads", unset + "; " + fix);
    err << "occcalc: warning: " << unset << ": judged at the size suggest picks, not your launch; " << fix << "\n";
  }
  if (!command.baseline.empty()) {
    const kernel_store before = baseline
                                    ? baseline->get(err)
                                    : read_kernel_store(tables, command.baseline, command, command.overrides, in, err);
    excuse_by_baseline(tables, command, before, err, judged);
  }
  outcome.unreadable_inputs = failed;
  // With --kernel or --arch, entries for the kernels left out are not stale.
  if (!filters_kernels(command))
    outcome.unused_policy_entries = unused_entries(p, judged.rule_used, outcome.violations);
  out << render(outcome, terminal_for(term, command.format));
  if (command.format == output_format::github) {
    // The step summary: a table on the run's page.
    const char* summary = std::getenv("GITHUB_STEP_SUMMARY");
    if (summary != nullptr && *summary != '\0') {
      std::ofstream file(summary, std::ios::app | std::ios::binary);
      if (!(file << check_markdown(outcome)) || !file.flush()) {
        err << fmt::format("occcalc: error: GITHUB_STEP_SUMMARY {}: cannot append the summary\n",
                           occcalc::detail::printable(summary));
        return exit_status::bad_input;
      }
    }
  }
  if (failed > 0) return exit_status::bad_input;  // never a pass over what could not be read
  return outcome.failed() == 0 ? exit_status::ok : exit_status::gate_failed;
}

}  // namespace occcalc::cli
