// Triton's kernel cache: beside each compiled kernel (`<name>.cubin`, or
// `<name>.hsaco` for AMD) Triton writes `<name>.json`, the metadata its
// launcher reads: the block size in warps, the dynamic shared memory, the
// target and the cluster shape (triton/compiler/compiler.py dumps the
// backend options, `target` as {backend, arch, warp_size}, and what the
// stages record: `name`, `shared`, `cluster_dims`).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace occcalc::cli {

/// What a kernel's Triton metadata says about its launches.
struct triton_metadata {
  /// The kernel's symbol.
  std::string name;
  std::int64_t num_warps = 0;
  /// Threads per warp (the target's; 32 for CUDA when not recorded).
  std::int64_t warp_size = 0;
  /// Dynamic shared memory per block, in bytes.
  std::int64_t shared_bytes = 0;
  std::int64_t num_ctas = 1;
  std::int64_t num_stages = 0;
  std::array<std::int64_t, 3> cluster_dims{1, 1, 1};
  /// `cuda` or `hip`, and the architecture (`90`, `gfx942`) as recorded.
  std::string backend;
  std::string arch;

  std::int64_t block_size() const noexcept { return num_warps * warp_size; }
};

/// The metadata in `text` (a `<name>.json` of a Triton cache), or empty when
/// it is not Triton's (no `num_warps` and `shared`). Throws
/// `occcalc::table_error` naming `origin` for a Triton file with a bad value.
std::optional<triton_metadata> read_triton_metadata(const std::string& origin, const std::string& text);

}  // namespace occcalc::cli
