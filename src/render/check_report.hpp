// Output of `occcalc check`: one line per violation and a verdict, or JSON
// (schema/check.schema.json).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "builds/policy.hpp"
#include "render/formats.hpp"

namespace occcalc::cli {

/// What a check found: the kernels checked and every violation, allowed or
/// not.
/// The kernels judged at one block size, and where it came from.
struct judged_size {
  /// Empty for kernels without an occupancy (an unknown architecture).
  std::optional<std::int64_t> threads;
  /// `kernel_report::block_size_from`.
  launch_source from = launch_source::none;
  std::size_t kernels = 0;
};

struct check_outcome {
  std::size_t kernels_checked = 0;
  /// The block sizes the kernels were judged at, most kernels first: what
  /// the verdict says it checked.
  std::vector<judged_size> judged_at;
  std::vector<violation> violations;
  /// Inputs that could not be read: the check did not pass, whatever the
  /// kernels it read say.
  std::size_t unreadable_inputs = 0;
  /// Policy entries that did nothing in this run: rules that matched no
  /// kernel, allow entries that excused no violation (a policy that rots).
  /// Reported, not failed: a --kernel filter or a partial build leaves some.
  std::vector<std::string> unused_policy_entries;
  /// What excuses a violation the baseline (`check --baseline`) holds too.
  policy_allowance baseline;
  /// The violations no allowance excuses.
  std::size_t failed() const noexcept;
  /// No violation stands and every input was read.
  bool passed() const noexcept { return failed() == 0 && unreadable_inputs == 0; }
};

/// `passed: 12 kernels checked, 0 violations, 1 allowed; judged at 256
/// threads (policy) for 10, 1024 (suggested) for 2`: the verdict every text
/// format ends with.
std::string verdict_line(const check_outcome& outcome);

std::string check_text(const check_outcome& outcome, const terminal& term);
std::string check_json(const check_outcome& outcome);
/// GitHub Actions workflow commands: `::error` per violation, `::warning`
/// per allowed one (annotations on the pull request), then the verdict.
std::string check_github(const check_outcome& outcome);
/// A SARIF 2.1.0 log for code scanning: one rule per check, one result per
/// violation (allowed ones as suppressed notes), kernel and arch in properties.
std::string check_sarif(const check_outcome& outcome);
/// The verdict and a table of violations, for a step summary or a comment.
std::string check_markdown(const check_outcome& outcome);

/// How `check` prints its outcome in one format.
using check_render = std::string (*)(const check_outcome& outcome, const terminal& term);

/// check's formats: text (a line per violation and the verdict), json
/// (schema/check.schema.json), github, sarif and markdown.
extern const std::array<format_renderer<check_render>, 5> check_renderers;

}  // namespace occcalc::cli
