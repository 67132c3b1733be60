// Which entries of a fat binary inspect reads, as the driver would pick
// them: its cubins; its PTX where no cubin stands in for it. Also the
// naming of kernels and the decompression budget every entry counts against.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "inspect/fatbin.hpp"
#include "inspect/inspect.hpp"

namespace occcalc::inspect {

/// A fat binary entry to read, and where it came from.
struct work_item {
  fatbin_entry entry;
  std::string origin;
};

/// `kernels` with their demangled names, each origin prefixed by `origin`
/// (when not empty).
std::vector<inspected_kernel> with_names(std::vector<kernel_resources> kernels, const std::string& origin);

/// Plans the reading of the fat binaries in `region`: the cubins into
/// `items` (only those for `only_sm` when given); the PTX into `ptx_items`
/// when no cubin of the region is read (a PTX-only build, or `only_sm`
/// naming a GPU it has PTX but no cubin for), as the driver then compiles
/// the PTX: with `only_sm`, the newest PTX at or below it, else all of it.
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
