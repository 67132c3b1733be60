// The readers' budgets: what a hostile input may make occcalc decompress,
// count and hold. Each is far above any real build (the largest inputs seen:
// libcublasLt.so.13, 541 MB holding 2.1 GB of cubins and 42,498 kernels; its
// zstd entries expand about 4 times) and keeps memory and time proportional
// to the input rather than to what a header declares. README, "Limits".
#pragma once

#include <cstddef>
#include <cstdint>

namespace occcalc::inspect {

/// The most bytes one payload (a fat binary entry, a compressed offload
/// bundle) may decompress to. Real cubins and code objects are tens of MiB.
inline constexpr std::uint64_t max_decompressed_entry_bytes = std::uint64_t{256} << 20;

/// A payload may always decompress to this many bytes ...
inline constexpr std::uint64_t expansion_floor_bytes = std::uint64_t{16} << 20;
/// ... and beyond that to at most this many times its compressed size. Real
/// entries expand 3 to 10 times; LZ4 cannot exceed 255.
inline constexpr std::uint64_t max_expansion_ratio = 128;

/// All payloads of one input together may decompress to this many bytes
/// plus `max_expansion_ratio` times the input's size.
inline constexpr std::uint64_t input_decompression_floor_bytes = std::uint64_t{256} << 20;

/// The most symbols one ELF symbol table may hold (a real cubin has a few
/// per kernel; 24 bytes each on disk, more in memory).
inline constexpr std::uint64_t max_elf_symbols = 2'000'000;

/// The most kernels one cubin or code object may declare; counted before a
/// record is built.
inline constexpr std::uint64_t max_kernels_per_code_object = 100'000;

/// The most members an archive may hold: libraries with GPU code have
/// hundreds to a few thousand objects.
inline constexpr std::size_t max_archive_members = 1'000'000;

/// The most values one AMDGPU metadata note may hold (about 40 per kernel).
inline constexpr std::uint64_t max_metadata_values = 2'000'000;

/// The longest line of a compiler log (the longest cuDNN kernel name is
/// 6,806 characters): a longer one ends the search for log lines, and in a
/// log it is an error, so no line is searched without bound.
inline constexpr std::size_t max_log_line_bytes = std::size_t{1} << 20;

}  // namespace occcalc::inspect
