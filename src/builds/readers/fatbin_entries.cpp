#include "builds/readers/fatbin_entries.hpp"

#include <fmt/format.h>

#include <tuple>

#include "builds/readers/budgets.hpp"
#include "builds/readers/demangle.hpp"
#include "builds/readers/ptx.hpp"

namespace occcalc::inspect {

namespace {

/// How the driver would take an entry of target `arch` and `feature` on GPU
/// `sm` (both compute capabilities times ten), best first; none when it
/// cannot. Cubins run on their major's later GPUs (binary compatibility),
/// an `a` cubin on its own GPU alone; PTX compiles for any later GPU, an `a`
/// PTX for its own, an `f` PTX for its major's.
enum class loads { exact, family, same_major, never };

loads how_loaded(std::uint32_t arch, target_features feature, int sm, bool ptx) {
  const auto gpu = static_cast<std::uint32_t>(sm);
  if (arch == gpu) return loads::exact;
  if (ptx) {
    if (arch > gpu || feature == target_features::arch_specific) return loads::never;
    return feature == target_features::family && arch / 10 != gpu / 10 ? loads::never : loads::same_major;
  }
  if (!can_load(nvidia_target(static_cast<int>(arch), feature), nvidia_target(sm))) return loads::never;
  return feature == target_features::family ? loads::family : loads::same_major;
}

/// The rank of an entry for GPU `sm`: the kind of load, then the newest
/// target, then (for the exact target) `a` before `f` before none.
auto rank_of(const fatbin_entry& e, int sm, bool ptx) {
  const auto feature_rank = e.feature == target_features::arch_specific ? 0
                            : e.feature == target_features::family      ? 1
                                                                        : 2;
  return std::make_tuple(how_loaded(e.arch, e.feature, sm, ptx), ~e.arch, feature_rank);
}

/// Why a cubin of another target runs on GPU `sm`, for its origin.
std::string why_loaded(const fatbin_entry& e, int sm) {
  return how_loaded(e.arch, e.feature, sm, false) == loads::family
             ? fmt::format(", loaded by sm_{}: a family cubin of its major", sm)
             : fmt::format(", loaded by sm_{}: a cubin of an earlier GPU of its major", sm);
}

/// The indexes of `entries` the driver would take on GPU `only_sm`: those
/// of the best rank (one target, more than one entry where a fat binary
/// repeats it); all of them without `only_sm`.
std::vector<std::size_t> chosen_for(const std::vector<fatbin_entry>& entries, const std::optional<int>& only_sm,
                                    bool ptx) {
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!only_sm) {
      chosen.push_back(i);
      continue;
    }
    const auto rank = rank_of(entries[i], *only_sm, ptx);
    if (std::get<0>(rank) == loads::never) continue;
    if (!chosen.empty()) {
      const auto best = rank_of(entries[chosen.front()], *only_sm, ptx);
      if (best < rank) continue;
      if (rank < best) chosen.clear();
    }
    chosen.push_back(i);
  }
  return chosen;
}

}  // namespace

std::vector<inspected_kernel> with_names(std::vector<kernel_resources> kernels, const std::string& origin) {
  std::vector<inspected_kernel> out;
  out.reserve(kernels.size());
  for (auto& k : kernels) {
    if (!origin.empty()) k.origin = k.origin.empty() ? origin : origin + ", " + k.origin;
    std::string demangled = demangle(k.name);
    out.push_back({std::move(k), std::move(demangled)});
  }
  return out;
}

void plan_entries(byte_view region, const std::string& where, const std::optional<int>& only_sm,
                  std::vector<work_item>& items, std::vector<work_item>& ptx_items, inspection& out) {
  std::vector<fatbin_entry> cubins, ptx;
  std::vector<std::size_t> cubin_index, ptx_index;  // 1-based, as origins name them
  std::size_t index = 0;
  for (const auto& entry : fatbin_entries(region)) {
    ++index;
    if (entry.kind == fatbin_kind_ptx) {
      ptx.push_back(entry);
      ptx_index.push_back(index);
    } else if (entry.kind == fatbin_kind_elf) {
      cubins.push_back(entry);
      cubin_index.push_back(index);
    } else {
      ++out.skipped_entries;
      if (entry.kind == fatbin_kind_lto_ir) ++out.lto_entries;
    }
  }
  const auto origin = [&](const fatbin_entry& e, std::size_t i, const char* kind) {
    const std::string compressed = e.compressed == compression::none ? "" : ", " + std::string(to_string(e.compressed));
    return fmt::format("{}entry {} ({}_{}{}{}{})", where, i, kind, e.arch, suffix_of(e.feature),
                       e.kind == fatbin_kind_ptx ? " PTX" : "", compressed);
  };
  const auto cubins_chosen = chosen_for(cubins, only_sm, false);
  for (const std::size_t i : cubins_chosen) {
    const auto& e = cubins[i];
    work_item item{e, origin(e, cubin_index[i], "sm"), nvidia_target(static_cast<int>(e.arch), e.feature)};
    if (only_sm && static_cast<int>(e.arch) != *only_sm) {
      item.origin += why_loaded(e, *only_sm);
      item.target = nvidia_target(*only_sm);
    }
    items.push_back(std::move(item));
  }
  const auto ptx_chosen = cubins_chosen.empty() ? chosen_for(ptx, only_sm, true) : std::vector<std::size_t>{};
  for (const std::size_t i : ptx_chosen) {
    ptx_items.push_back({ptx[i], origin(ptx[i], ptx_index[i], "compute"), {}});
  }
  out.skipped_entries += ptx.size() - ptx_chosen.size();
}

void add_ptx_kernels(std::string_view text, const std::string& gpu, const std::string& origin, inspection& out) {
  auto kernels = read_ptx(text);
  for (auto& k : kernels) k.arch = parse_gpu_target(gpu);
  const std::size_t first = out.kernels.size();
  for (auto& k : with_names(std::move(kernels), origin)) out.kernels.push_back(std::move(k));
  if (out.kernels.size() == first) return;
  if (out.room_for_ptx_source()) out.ptx_sources.push_back({std::string(text), gpu, first, out.kernels.size() - first});
}

void read_ptx_entries(const std::vector<work_item>& ptx_items, const std::optional<int>& only_sm, inspection& out) {
  scratch_buffer buffer;
  for (const auto& item : ptx_items) {
    try {
      std::string_view text = entry_contents(item.entry, buffer).as_text();
      // nvcc stores PTX with its C string's NUL, which ptxas reads as text.
      while (!text.empty() && text.back() == '\0') text.remove_suffix(1);
      if (!is_ptx(text)) throw format_error("not PTX text (no .version and .target)");
      std::string gpu = ptx_target(text);
      std::string origin = item.origin;
      if (only_sm && static_cast<int>(item.entry.arch) != *only_sm) {
        gpu = fmt::format("sm_{}", *only_sm);
        origin += fmt::format(", compiled by the driver for {}", gpu);
      }
      add_ptx_kernels(text, gpu, origin, out);
    } catch (const format_error& e) {
      throw format_error(item.origin + ": " + e.what());
    }
  }
}

void check_decompression_budget(const std::vector<work_item>& items, std::uint64_t input_bytes, std::uint64_t& spent) {
  const std::uint64_t budget = input_decompression_floor_bytes + max_expansion_ratio * input_bytes;
  for (const auto& item : items) {
    if (item.entry.compressed == compression::none) continue;
    spent += item.entry.decompressed_bytes;
    if (spent > budget) {
      throw format_error(
          fmt::format("its entries declare more than {} bytes decompressed in all ({} MiB plus {} "
                      "times the input's {} bytes); no real build comes near",
                      budget, input_decompression_floor_bytes >> 20, max_expansion_ratio, input_bytes));
    }
  }
}

}  // namespace occcalc::inspect
