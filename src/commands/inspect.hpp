// `occcalc inspect`: the kernels of build outputs, printed as they are read.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "builds/kernel_report.hpp"
#include "builds/read_build.hpp"
#include "builds/readers/bytes.hpp"
#include "commands/exit_status.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "render/formats.hpp"

#include "render/inspect_report.hpp"
#include "render/terminal.hpp"

namespace occcalc::cli {

/// What `inspect` and `check` were asked: the build to read
/// (`build_request`), and how to judge and print its kernels.
struct inspect_command : build_request {
  output_format format = output_format::text;
  launch_overrides overrides;
  /// `check`: the policy file.
  std::string policy_file;
  /// check --baseline: a build output or saved inspect --json whose kernels
  /// the policy is not applied to unless they got worse.
  std::string baseline;
  /// check --require-threads: a kernel that would be judged at the block
  /// size suggest picks (it declares none, the policy gives it none) is an
  /// error, not a warning.
  bool require_threads = false;
  /// The text table's columns (--wide, --columns).
  inspect_table_options table;
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

}  // namespace occcalc::cli
