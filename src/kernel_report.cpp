#include "kernel_report.hpp"

#include <fmt/format.h>

#include "inspect/compiler_log.hpp"
#include "occcalc/error.hpp"
#include "occcalc/lookup.hpp"
#include "occcalc/parse.hpp"
#include "render_amd.hpp"
#include "text_layout.hpp"
#include "occcalc/amd/summary.hpp"
#include "occcalc/nvidia/summary.hpp"

namespace occcalc::cli {

namespace {

const occcalc::nvidia_arch* arch_of(const occcalc::table& tables, int sm) {
  return occcalc::find_arch_by_id(tables, "sm_" + std::to_string(sm));
}

/// The AMD model's occupancy of `r`'s kernel at its block size (chosen as
/// for NVIDIA kernels). The metadata's VGPR count already holds the AGPRs
/// of a unified file, so they are taken out again for the request, which
/// adds them.
void report_amd_kernel(const occcalc::table& tables, const occcalc::amd_target& target,
                       const launch_overrides& overrides, kernel_report& r) {
  const auto& k = r.kernel.resources;
  if (!r.block_size) {
    r.unavailable = "no work-group size known: give --threads";
    return;
  }
  if (k.max_threads && *r.block_size > inspect::volume(*k.max_threads)) {
    r.unavailable = fmt::format("work-group size {} (from {}) exceeds the kernel's maximum of {} work-items",
                                *r.block_size, r.block_size_from, inspect::volume(*k.max_threads));
    return;
  }
  if (!k.registers || !k.static_shared_memory_bytes) {
    r.unavailable = "the code object does not record the VGPR count and LDS size";
    return;
  }
  occcalc::request req;
  req.gfx = target.id;
  req.threads = std::to_string(*r.block_size);
  const std::int64_t agprs = k.agprs.value_or(0);
  req.vgprs = std::to_string(target.unified_vgpr_file ? std::max<std::int64_t>(*k.registers - agprs, 0)
                                                      : *k.registers);
  if (target.max_agprs_per_wave > 0) req.agprs = std::to_string(agprs);
  if (target.max_sgprs_per_wave > 0 && k.sgprs) req.sgprs = std::to_string(*k.sgprs);
  std::int64_t lds = *k.static_shared_memory_bytes;
  if (overrides.dyn_smem) {
    lds += occcalc::parse_bytes("dyn_smem", *overrides.dyn_smem, {0, occcalc::max_request_value});
  }
  req.lds = std::to_string(lds);
  const std::string set(occcalc::flag_set_text);
  if (k.wave_size == 32) req.wave32 = set;
  if (k.wave_size == 64) req.wave64 = set;
  if (target.has_wgp_mode && k.wgp_mode) (*k.wgp_mode ? req.wgp_mode : req.cu_mode) = set;
  req.carveout = overrides.carveout;
  req.model = overrides.model;
  try {
    r.amd_occupancy = evaluate_amd(tables, req);
  } catch (const occcalc::input_error& e) {
    r.unavailable = fmt::format("{}: {}", e.field(), e.what());
  }
}

}  // namespace

inspect::shared_reserve_fn shared_reserve(const occcalc::table& tables) {
  return [&tables](int sm) -> std::optional<inspect::shared_reserve> {
    const auto* arch = arch_of(tables, sm);
    if (arch == nullptr) return std::nullopt;
    return inspect::shared_reserve{arch->shared_memory_reserved_per_block_bytes,
                                   arch->binary_shared_section_includes_reserved};
  };
}

std::optional<occcalc::occupancy_summary> kernel_report::summary() const noexcept {
  if (occupancy) return occcalc::summarize(occupancy->result);
  if (amd_occupancy) return occcalc::summarize(amd_occupancy->result);
  return std::nullopt;
}

void validate_overrides(const launch_overrides& overrides) {
  if (overrides.threads) occcalc::parse_count("threads", *overrides.threads, {1, occcalc::max_request_value});
  if (overrides.dyn_smem) occcalc::parse_bytes("dyn_smem", *overrides.dyn_smem, {0, occcalc::max_request_value});
  if (overrides.carveout) occcalc::parse_carveout("carveout", *overrides.carveout);
  if (overrides.model) occcalc::detail::parse_amd_model("model", *overrides.model);
}

kernel_report report_kernel(const occcalc::table& tables, std::string file, inspect::inspected_kernel kernel,
                            const launch_overrides& overrides, const std::string& threads_from) {
  kernel_report r{std::move(file), std::move(kernel), std::nullopt, {}, std::nullopt, std::nullopt, {}};
  const auto& k = r.kernel.resources;
  // A required block size (.reqntid) is the only one the kernel launches
  // with, so it wins over --threads and the policy.
  if (k.required_threads) {
    r.block_size = inspect::volume(*k.required_threads);
    r.block_size_from = "required";
  } else if (overrides.threads) {
    r.block_size = occcalc::parse_count("threads", *overrides.threads, {1, occcalc::max_request_value});
    r.block_size_from = threads_from;
  } else if (k.max_threads) {
    r.block_size = inspect::volume(*k.max_threads);
    r.block_size_from = "launch bounds";
  }

  if (const auto* target = occcalc::find_amd_target(tables, k.arch)) {
    report_amd_kernel(tables, *target, overrides, r);
    return r;
  }
  const int sm = inspect::sm_number(k.arch);
  const occcalc::nvidia_arch* arch = sm == 0 ? nullptr : arch_of(tables, sm);
  if (arch == nullptr) {
    r.unavailable = k.arch.empty() ? "the log does not name the architecture"
                                   : fmt::format("{} is not in the architecture table", k.arch);
  } else if (!r.block_size) {
    r.unavailable = "no block size known: give --threads (the kernel declares no launch bounds)";
  } else if (k.max_threads && *r.block_size > inspect::volume(*k.max_threads)) {
    r.unavailable = fmt::format("block size {} (from {}) exceeds the kernel's launch bounds of {} threads per block",
                                *r.block_size, r.block_size_from, inspect::volume(*k.max_threads));
  } else if (!k.registers) {
    r.unavailable = "the input does not record the register count";
  } else if (!k.static_shared_memory_bytes) {
    r.unavailable = "the input does not record the static shared memory";
  }
  if (!r.unavailable.empty()) return r;

  occcalc::request req;
  req.cc = arch->id;
  req.threads = std::to_string(*r.block_size);
  req.regs = std::to_string(*k.registers);
  req.smem = std::to_string(*k.static_shared_memory_bytes);
  req.dyn_smem = overrides.dyn_smem;
  req.carveout = overrides.carveout;
  req.barriers = std::to_string(k.barriers.value_or(1));
  try {
    r.occupancy = evaluate(tables, req);
  } catch (const occcalc::input_error& e) {
    r.unavailable = fmt::format("{}: {}", e.field(), e.what());
  }
  return r;
}

}  // namespace occcalc::cli
