#include "inspect/fatbin_entries.hpp"

#include <fmt/format.h>

#include "inspect/demangle.hpp"
#include "inspect/limits.hpp"
#include "inspect/ptx.hpp"

namespace occcalc::inspect {

namespace {

/// The PTX entries the driver would compile: with `only_sm`, the newest one
/// it can compile for that GPU (a PTX target above it cannot); else all.
std::vector<std::size_t> ptx_to_read(const std::vector<work_item>& ptx, const std::optional<int>& only_sm) {
  std::vector<std::size_t> chosen;
  std::uint32_t newest = 0;
  for (std::size_t i = 0; i < ptx.size(); ++i) {
    const std::uint32_t arch = ptx[i].entry.arch;
    if (!only_sm) {
      chosen.push_back(i);
    } else if (arch <= static_cast<std::uint32_t>(*only_sm) && arch >= newest) {
      if (arch > newest) chosen.clear();
      newest = arch;
      chosen.push_back(i);
    }
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
  std::size_t index = 0;
  const std::size_t cubins_before = items.size();
  std::vector<work_item> ptx;
  for (const auto& entry : fatbin_entries(region)) {
    ++index;
    const auto compressed = [&] {
      return entry.compressed == compression::none ? std::string() : fmt::format(", {}", to_string(entry.compressed));
    };
    if (entry.kind == fatbin_kind_ptx) {
      ptx.push_back({entry, fmt::format("{}entry {} (compute_{} PTX{})", where, index, entry.arch, compressed())});
      continue;
    }
    if (entry.kind != fatbin_kind_elf) {
      ++out.skipped_entries;
      if (entry.kind == fatbin_kind_lto_ir) ++out.lto_entries;
      continue;
    }
    if (only_sm && static_cast<int>(entry.arch) != *only_sm) continue;
    items.push_back({entry, fmt::format("{}entry {} (sm_{}{})", where, index, entry.arch, compressed())});
  }
  const auto chosen = items.size() == cubins_before ? ptx_to_read(ptx, only_sm) : std::vector<std::size_t>{};
  for (const std::size_t i : chosen) ptx_items.push_back(std::move(ptx[i]));
  out.skipped_entries += ptx.size() - chosen.size();
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
