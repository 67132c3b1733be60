// The members of a saved inspect record that occcalc reads back, each a
// slot: found as the program is compiled where a name is written in the
// code, and by a short search for a key read from a file.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <optional>
#include <string_view>
#include <type_traits>

namespace occcalc::cli {

/// The members of a record `kernel_of` reads: the others (the
/// occupancy, worked out again from these) are read as JSON, refused where
/// malformed, and dropped without being built.
inline constexpr std::string_view saved_record_fields[] = {"agprs",
                                                           "arch",
                                                           "barriers",
                                                           "block_size",
                                                           "block_size_from",
                                                           "cluster_dims",
                                                           "compiler_waves_per_simd",
                                                           "dyn_smem_bytes",
                                                           "file",
                                                           "kernel",
                                                           "local_memory_bytes",
                                                           "max_threads",
                                                           "min_blocks_per_sm",
                                                           "name",
                                                           "origin",
                                                           "register_cap",
                                                           "registers",
                                                           "required_threads",
                                                           "sgpr_spills",
                                                           "sgprs",
                                                           "spill_load_bytes",
                                                           "spill_store_bytes",
                                                           "stack_frame_bytes",
                                                           "stack_size_bytes",
                                                           "static_smem_bytes",
                                                           "triton_config",
                                                           "vgpr_spills",
                                                           "wave_size",
                                                           "wgp_mode"};

/// A key's order in `slots_by_length`: its length, then its text, so that
/// a key read is compared in full only with the keys of its length.
constexpr bool shorter(std::string_view a, std::string_view b) noexcept {
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

/// The slots of `saved_record_fields` in the order `shorter` gives their keys.
inline constexpr auto slots_by_length = [] {
  std::array<std::size_t, std::size(saved_record_fields)> order{};
  for (std::size_t i = 0; i < order.size(); ++i) {
    std::size_t at = i;
    for (; at > 0 && shorter(saved_record_fields[i], saved_record_fields[order[at - 1]]); --at) {
      order[at] = order[at - 1];
    }
    order[at] = i;
  }
  return order;
}();

/// Where `key` is in `saved_record_fields`, if it is one: each key of every
/// record is looked up here.
inline std::optional<std::size_t> saved_field_slot(std::string_view key) {
  const auto* it =
      std::lower_bound(slots_by_length.begin(), slots_by_length.end(), key,
                       [](std::size_t slot, std::string_view k) { return shorter(saved_record_fields[slot], k); });
  if (it == slots_by_length.end() || saved_record_fields[*it] != key) return std::nullopt;
  return *it;
}

/// The slot of `key`, a member `kernel_of` reads; in a constant expression
/// (`at<slot_of("registers")>`), found as the program is compiled.
constexpr std::size_t slot_of(std::string_view key) {
  for (std::size_t i = 0; i < std::size(saved_record_fields); ++i) {
    if (saved_record_fields[i] == key) return i;
  }
  return std::size(saved_record_fields);
}
template <std::size_t Slot>
inline constexpr std::integral_constant<std::size_t, Slot> at{};

}  // namespace occcalc::cli
