// read_build(): the one way into a build, for inspect (streamed), check,
// diff, libocccalc and Python. Its inputs are files, standard input, static
// libraries, directories and Triton caches; each kernel is reported at its
// block size; an input that cannot be read is one error line and the
// others are still read.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "builds/kernel_report.hpp"
#include "builds/readers/bytes.hpp"

namespace occcalc::cli {

/// What a build is read from, and which of its kernels are kept.
struct build_request {
  /// Files and directories to read; `-` is standard input (a compiler log).
  std::vector<std::string> inputs;
  /// Keep kernels whose demangled or mangled name matches (RE2).
  std::string kernel_pattern;
  /// Keep kernels a GPU of this target runs (`sm_90`, `9.0`, `gfx90a:xnack+`).
  std::string arch;
  /// -v: list the files a directory held that were skipped.
  bool verbose = false;
  /// Threads to read inputs and compute occupancies with (--jobs); 0: as
  /// many as the CPUs this process may use.
  unsigned jobs = 0;
  /// The one input's contents, held in memory (libocccalc): read as a file
  /// named `inputs[0]` holding them would be, without opening any file
  /// (none beside it either, such as Triton's metadata).
  std::optional<inspect::byte_view> contents;
};

/// The launch overrides a kernel is reported with, and where its block size
/// comes from (`--threads`, `policy`).
using block_size_for = std::function<std::pair<launch_overrides, launch_source>(const inspect::inspected_kernel&)>;

/// Whether --kernel or --arch leaves some kernels out.
bool filters_kernels(const build_request& request);

/// For a read that gave no kernel, every input read: throws
/// `occcalc::input_error` (field `kernel` or `arch`) when --kernel or --arch
/// left them all out, its own error, not a pass over nothing nor "an input
/// could not be read".
void require_matches(const build_request& request);

/// Threads to read, report and print with: --jobs, else the CPUs this
/// process may use (its affinity and cgroup quota), not the machine's.
unsigned reading_workers(const build_request& request);

/// Reads every input and reports the kernels that pass the filter, each at
/// the block size `threads_for` gives, to `sink` as they are made. An input
/// that cannot be read is one error line on `err`, and the others are still
/// read (grep's convention: the exit code says so at the end). A directory
/// is searched: what is a GPU binary or compiler log is read, the rest
/// counted (`verbose` lists it). Returns the inputs that could not be read.
std::size_t read_build(const occcalc::table& tables, const build_request& request, std::istream& in, std::ostream& err,
                       const block_size_for& threads_for, report_sink& sink);

}  // namespace occcalc::cli
