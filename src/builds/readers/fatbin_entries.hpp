// Which entries of a fat binary inspect reads, as the driver would pick
// them: its cubins; its PTX where no cubin stands in for it. Also the
// naming of kernels and the decompression budget every entry counts against.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "builds/readers/fatbin.hpp"
#include "builds/readers/inspect_bytes.hpp"

namespace occcalc::inspect {

/// A fat binary entry to read, where it came from, and the GPU its kernels
/// are reported for: the entry's own target (`sm_100f`), or the GPU `--arch`
/// names where the driver would load this entry on it.
struct work_item {
  fatbin_entry entry;
  std::string origin;
  gpu_target target;
};

/// `kernels` with their demangled names, each origin prefixed by `origin`
/// (when not empty).
std::vector<inspected_kernel> with_names(std::vector<kernel_resources> kernels, const std::string& origin);

/// Plans the reading of the fat binaries in `region`: the cubins into
/// `items`; the PTX into `ptx_items` when no cubin of the region is read (a
/// PTX-only build, or `only_sm` naming a GPU no cubin runs on), as the
/// driver then compiles the PTX. With `only_sm`, the image the driver loads
/// on that GPU (docs/reference.md, "Which image --arch reads"): an exact
/// cubin (`a`, then `f`, then plain), else the newest family cubin of its
/// major, else the newest plain cubin of its major, never newer than it;
/// else the newest PTX it can compile (an `a` PTX only for its own GPU, an
/// `f` PTX for its major). Without, every cubin, or all the PTX.
/// The rest is counted in `out.skipped_entries` (and LTO IR in
/// `out.lto_entries`). `where` prefixes each origin.
void plan_entries(byte_view region, const std::string& where, const std::optional<int>& only_sm,
                  std::vector<work_item>& items, std::vector<work_item>& ptx_items, inspection& out);

/// Appends the kernels of PTX `text` (a file or an entry) to `out.kernels`,
/// each for `gpu`, their origins prefixed by `origin`, and the text to
/// `out.ptx_sources` for ptxas. Throws `format_error` for a bad directive.
void add_ptx_kernels(std::string_view text, const std::string& gpu, const std::string& origin, inspection& out);

/// Reads the PTX entries `plan_entries` chose: their kernels and directives
/// into `out.kernels`, their text into `out.ptx_sources` for ptxas. A PTX
/// compiled for `only_sm` rather than its own target says so in its origin.
/// Throws `format_error` naming the entry when it is not PTX or is corrupt.
void read_ptx_entries(const std::vector<work_item>& ptx_items, const std::optional<int>& only_sm, inspection& out);

/// Refuses an input whose entries would decompress, together, to more than
/// `input_decompression_floor_bytes` plus `max_expansion_ratio` times the
/// input's size: many small bombs in one file, each within its own limit.
/// `spent` carries the total across calls.
void check_decompression_budget(const std::vector<work_item>& items, std::uint64_t input_bytes, std::uint64_t& spent);

}  // namespace occcalc::inspect
