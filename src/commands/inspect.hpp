// `occcalc inspect` and `occcalc check`: kernels read from build outputs,
// printed or judged against a policy.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "analysis/kernel_report.hpp"
#include "commands/exit_status.hpp"
#include "inspect/bytes.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "render/formats.hpp"

#include "render/inspect_report.hpp"
#include "render/terminal.hpp"

namespace occcalc::cli {

/// Output formats of `inspect`.
/// What `inspect` and `check` were asked.
struct inspect_command {
  /// Files to read; `-` is standard input (a compiler log).
  std::vector<std::string> inputs;
  /// Keep kernels whose demangled or mangled name matches (ECMAScript).
  std::string kernel_pattern;
  /// Keep kernels for this architecture (`sm_90`, `9.0`).
  std::string arch;
  output_format format = output_format::text;
  launch_overrides overrides;
  /// `check`: the policy file.
  std::string policy_file;
  /// -v: list the files a directory held that were skipped.
  bool verbose = false;
  /// check --baseline: a build output or saved inspect --json whose kernels
  /// the policy is not applied to unless they got worse.
  std::string baseline;
  /// check --require-threads: a kernel that would be judged at the block
  /// size suggest picks (it declares none, the policy gives it none) is an
  /// error, not a warning.
  bool require_threads = false;
  /// Threads to read inputs and compute occupancies with (--jobs); 0: as
  /// many as the CPUs this process may use.
  unsigned jobs = 0;
  /// The text table's columns (--wide, --columns).
  inspect_table_options table;
  /// The one input's contents, held in memory (libocccalc): read as a file
  /// named `inputs[0]` holding them would be, without opening any file
  /// (none beside it either, such as Triton's metadata).
  std::optional<inspect::byte_view> contents;
};

/// Prints every kernel of every input. Throws `occcalc::error` for an
/// unreadable input or a bad option.
exit_status run_inspect(const occcalc::table& tables, const inspect_command& command, std::istream& in,
                        std::ostream& out, std::ostream& err, const terminal& term);

/// The document `occcalc inspect --json NAME` prints for a file named `name`
/// holding `bytes` (libocccalc's occcalc_inspect_json); where inspect would
/// refuse the input, `{"schema_version": N, "error": {"field": null,
/// "message": ...}}` with its message. Throws only when memory runs out.
std::string inspect_json_of(const occcalc::table& tables, const std::string& name, inspect::byte_view bytes);

/// Checks every kernel of every input against the policy: ok when all pass,
/// gate_failed on any violation not allowed, bad_input when an input could
/// not be read or held no kernels (each named on `err`; the others are
/// still checked and reported). Throws `occcalc::error` for a bad policy.
exit_status run_check(const occcalc::table& tables, const inspect_command& command, std::istream& in, std::ostream& out,
                      std::ostream& err, const terminal& term);

}  // namespace occcalc::cli
