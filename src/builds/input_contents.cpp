#include "builds/input_contents.hpp"

#include <algorithm>
#include <ostream>

#include <fmt/format.h>

#include "builds/readers/compiler_log.hpp"
#include "builds/readers/cubin.hpp"
#include "builds/readers/identify.hpp"
#include "builds/readers/mapped_file.hpp"
#include "io/process.hpp"
#include "occcalc/common/text.hpp"
#include "occcalc/error.hpp"

namespace occcalc::cli {

namespace {

/// The most ptxas output read: its report is a few lines per kernel.
constexpr std::size_t max_ptxas_output_bytes = std::size_t{64} << 20;

/// PTX leaves registers, shared memory and stack to ptxas: with ptxas on
/// PATH, its report (`ptxas -v`, read as a compiler log) fills them in;
/// without it, a note says why the kernels have no occupancy.
void add_ptxas_figures(const std::string& path, inspect::inspection& in, std::ostream& err) {
  if (in.ptx_sources.empty()) return;
  const std::string where = path == "-" ? "standard input" : occcalc::detail::printable(path);
  const auto ptxas = find_program("ptxas");
  if (!ptxas) {
    err << fmt::format("occcalc: note: {}: PTX and ptxas is not on PATH: no register counts, so no occupancy\n", where);
    return;
  }
  for (const auto& source : in.ptx_sources) {
    if (source.gpu.empty()) {
      err << fmt::format("occcalc: note: {}: PTX without a target: no register counts, so no occupancy\n", where);
      continue;
    }
    const temporary_file ptx(source.text, ".ptx");
    const temporary_file cubin("", ".cubin");
    const auto reported = inspect::read_compiler_log(
        run_program({*ptxas, "-v", "--gpu-name", source.gpu, ptx.path(), "-o", cubin.path()}, max_ptxas_output_bytes));
    // The log has no register cap; the cubin has the one ptxas derived
    // from .minnctapersm or .maxnreg.
    const inspect::mapped_file assembled(cubin.path());
    const auto caps = inspect::read_cubin(assembled.bytes());
    for (std::size_t i = source.first_kernel; i < source.first_kernel + source.kernel_count; ++i) {
      auto& r = in.kernels[i].resources;
      const auto p = std::find_if(reported.begin(), reported.end(), [&](const auto& k) { return k.name == r.name; });
      if (p == reported.end()) continue;
      r.registers = p->registers;
      r.static_shared_memory_bytes = p->static_shared_memory_bytes;
      r.stack_frame_bytes = p->stack_frame_bytes;
      r.stack_size_bytes = p->stack_size_bytes;
      r.spill_store_bytes = p->spill_store_bytes;
      r.spill_load_bytes = p->spill_load_bytes;
      r.barriers = p->barriers;
      const auto c = std::find_if(caps.begin(), caps.end(), [&](const auto& k) { return k.name == r.name; });
      if (c != caps.end() && c->register_cap) r.register_cap = c->register_cap;
      r.origin += ", registers from ptxas -v";
    }
  }
  if (in.ptx_sources_left_out > 0) {
    err << fmt::format(
        "occcalc: note: {}: {} more PTX sources not assembled (at most {} per input): their kernels have no "
        "occupancy\n",
        where, in.ptx_sources_left_out, inspect::max_ptx_sources);
  }
}

/// Remarks do not name their target: `--arch gfx90a` gives it; without
/// one, a note says why the kernels have no occupancy.
void settle_remarks_target(const std::string& path, inspect::inspection& in, const kernel_matcher& filter,
                           std::ostream& err) {
  if (in.kind != inspect::to_string(inspect::input_kind::amdgpu_remarks) || in.kernels.empty()) return;
  if (!filter.amd_target) {
    err << fmt::format("occcalc: note: {}: compiler remarks do not name their target: give --arch (e.g. gfx90a)\n",
                       path == "-" ? "standard input" : occcalc::detail::printable(path));
    return;
  }
  for (auto& k : in.kernels) {
    if (k.resources.arch.name.empty()) k.resources.arch = *filter.amd_target;
  }
}

}  // namespace

inspect::inspect_options options_for(const kernel_matcher& filter, unsigned jobs) {
  inspect::inspect_options options;
  options.only_sm = filter.arch_sm;
  options.workers = jobs;
  return options;
}

void complete_text_input(const std::string& path, inspect::inspection& in, const kernel_matcher& filter,
                         std::ostream& err) {
  add_ptxas_figures(path, in, err);
  settle_remarks_target(path, in, filter, err);
}

inspect::inspection read_contents(const std::string& path, inspect::byte_view bytes,
                                  const inspect::inspect_options& options, const kernel_matcher& filter,
                                  std::ostream& err) {
  try {
    auto inspected = inspect::inspect_bytes(bytes, options);
    complete_text_input(path, inspected, filter, err);
    return inspected;
  } catch (const inspect::format_error& e) {
    throw occcalc::error(fmt::format("{}: {}", path == "-" ? "standard input" : path, e.what()));
  }
}

}  // namespace occcalc::cli
