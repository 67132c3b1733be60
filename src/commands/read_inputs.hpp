// Reading inspect's and check's inputs: files, standard input, static
// libraries and directories, each kernel reported at its block size; an
// input that cannot be read is one error line and the others are still read.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "analysis/kernel_report.hpp"
#include "commands/inspect.hpp"
#include "render/inspect_report.hpp"

namespace occcalc::cli {

/// What reading the inputs gave.
struct read_result {
  /// One per explicit input, and one per file of a directory that holds
  /// kernels.
  std::vector<input_report> reports;
  /// Inputs (or files, or directories) that could not be read; each had
  /// its error line.
  std::size_t failed = 0;
};

/// The launch overrides a kernel is reported with, and where its block size
/// comes from (`--threads`, `policy`).
using block_size_for = std::function<std::pair<launch_overrides, std::string>(const inspect::inspected_kernel&)>;

/// Whether --kernel or --arch leaves some kernels out.
bool filters_kernels(const inspect_command& command);

/// Threads to read, report and print with: --jobs, else the CPUs this
/// process may use (its affinity and cgroup quota), not the machine's.
unsigned inspect_workers(const inspect_command& command);

/// Reads every input and reports the kernels that pass the filter, each at
/// the block size `threads_for` gives, to `sink` as they are made. An input
/// that cannot be read is one error line on `err`, and the others are still
/// read (grep's convention: the exit code says so at the end). A directory
/// is searched: what is a GPU binary or compiler log is read, the rest
/// counted (`verbose` lists it). Returns the inputs that could not be read.
std::size_t read_inputs(const occcalc::table& tables, const inspect_command& command, std::istream& in,
                        std::ostream& err, const block_size_for& threads_for, report_sink& sink);

/// `read_inputs` into memory, every report kept: for the commands that
/// judge or compare the kernels once all are read (`check`, `diff`).
read_result read_inputs(const occcalc::table& tables, const inspect_command& command, std::istream& in,
                        std::ostream& err, const block_size_for& threads_for);

}  // namespace occcalc::cli
