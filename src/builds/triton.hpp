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
#include <string_view>

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

  /// The register cap (`maxnreg`), where the config sets one.
  std::optional<std::int64_t> maxnreg;
  /// The tensor shapes of the kernel's Triton IR (`<name>.ttir` beside it),
  /// sorted: `1024`, `128x32 128x64 32x64`. They follow the constexprs
  /// (block sizes), which Triton's metadata does not record; empty without
  /// the IR.
  std::string tiles;

  std::int64_t block_size() const noexcept { return num_warps * warp_size; }

  /// What tells the configs of one kernel apart across builds, whatever
  /// directory Triton's hash puts them in: `num_warps 4, num_stages 4,
  /// num_ctas 1, tiles 128x32 128x64 32x64`. Not the shared memory: a
  /// config whose shared memory grows is the same config, changed.
  std::string config() const;
};

/// The tensor shapes Triton IR text uses, each once, sorted (`tensor<128x64xf16>`
/// is `128x64`); at most `max_tiles` of them.
std::string triton_tiles(std::string_view ir);

/// The metadata in `text` (a `<name>.json` of a Triton cache), or empty when
/// it is not Triton's (no `num_warps` and `shared`). Throws
/// `occcalc::table_error` naming `origin` for a Triton file with a bad value.
std::optional<triton_metadata> read_triton_metadata(const std::string& origin, const std::string& text);

}  // namespace occcalc::cli
