// Reads every kernel's resource usage from one input, whatever its kind:
// cubin, fat binary, host ELF (object, executable, shared library) or
// compiler log.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "builds/readers/amdgpu_remarks.hpp"
#include "builds/readers/bytes.hpp"
#include "builds/readers/cubin.hpp"
#include "builds/readers/elf.hpp"
#include "builds/readers/kernel_resources.hpp"

namespace occcalc::inspect {

/// PTX whose kernels only ptxas can give registers, shared memory and
/// stack: a PTX file, or a fat binary's PTX entry read because no cubin in
/// it stands in for the PTX (a PTX-only build, or `--arch` naming a GPU the
/// driver would compile the PTX for).
struct ptx_source {
  std::string text;
  /// The GPU to assemble for (`sm_80`): the PTX's target, or the GPU
  /// `--arch` names when the driver would compile the PTX for it.
  std::string gpu;
  /// Its kernels: `inspection::kernels[first_kernel, first_kernel + kernel_count)`.
  std::size_t first_kernel = 0;
  std::size_t kernel_count = 0;
};

/// The most PTX sources of one input kept for ptxas: a library's PTX for one
/// GPU is hundreds of entries, each seconds of ptxas, and thousands of texts
/// kept whole would hold hundreds of megabytes.
constexpr std::size_t max_ptx_sources = 32;

/// What one input held.
struct inspection {
  /// What the input is: `cubin`, `fatbin`, `host ELF`, `compiler log`.
  std::string kind;
  std::vector<inspected_kernel> kernels;
  /// The PTX of its kernels that have no figures yet, for ptxas: the first
  /// `max_ptx_sources`.
  std::vector<ptx_source> ptx_sources;
  /// PTX sources beyond those: their kernels have no figures.
  std::size_t ptx_sources_left_out = 0;

  /// Whether one more PTX source may be kept; when not, it is counted as
  /// left out. The one place the cap is applied.
  bool room_for_ptx_source() noexcept {
    if (ptx_sources.size() < max_ptx_sources) return true;
    ++ptx_sources_left_out;
    return false;
  }
  /// Fat binary entries not read: LTO IR, other kinds, and PTX where a cubin
  /// stands in for it.
  std::size_t skipped_entries = 0;
  /// Of those, LTO IR entries: their kernels have resources only once
  /// nvlink -dlto links them.
  std::size_t lto_entries = 0;
  /// Cubin entries identical to an earlier one, byte for byte: read and
  /// listed once.
  std::size_t duplicate_entries = 0;
  /// Members of a static library without GPU code (host objects without a
  /// fat binary, anything else).
  std::size_t skipped_members = 0;
  /// AMD remarks lines not read (a newer clang's keys).
  unread_remarks unread;
};

/// How to read an input.
struct inspect_options {
  /// Threads that decompress and read fat binary entries (at least 1).
  unsigned workers = 1;
  /// Read only fat binary entries for this SM version (90): the others are
  /// not even decompressed. Empty reads all.
  std::optional<int> only_sm;
  /// Called with each compressed payload once read, so a mapped file can
  /// drop its pages; may be empty.
  std::function<void(byte_view)> done_with;
};

/// Reads `bytes`. Kernels come in the order the input holds them. Throws
/// `format_error` for an input that is none of the known kinds or is
/// malformed.
inspection inspect_bytes(byte_view bytes, const inspect_options& options);

/// Whether a host ELF section is searched for fat binaries that a library
/// embeds as data and loads itself: loaded, non-executable program data
/// (`.rodata`, `.ldata`, `.cask_resource`, ...).
bool holds_embedded_fatbins(const elf_section& s);

}  // namespace occcalc::inspect
