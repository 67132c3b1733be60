#include "builds/kernel_report.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "occcalc/amd/hip.hpp"
#include "occcalc/amd/summary.hpp"
#include "occcalc/error.hpp"
#include "occcalc/nvidia/suggest.hpp"
#include "occcalc/nvidia/summary.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/request/parse.hpp"

namespace occcalc::cli {

namespace {

const occcalc::nvidia_arch* arch_of(const occcalc::table& tables, int sm) {
  return occcalc::find_arch_by_id(tables, "sm_" + std::to_string(sm));
}

/// The AMD model's occupancy of `r`'s kernel at its block size (chosen as
/// for NVIDIA kernels). The metadata's VGPR count already holds the AGPRs
/// of a unified file, so they are taken out again for the request, which
/// adds them.
void report_amd_kernel(const occcalc::amd_target& target, const launch_overrides& overrides, kernel_report& r) {
  const auto& k = r.kernel.resources;
  if (r.block_size && k.max_threads && *r.block_size > inspect::volume(*k.max_threads)) {
    r.unavailable = fmt::format("work-group size {} (from {}) exceeds the kernel's maximum of {} work-items",
                                *r.block_size, spelling(r.block_size_from), inspect::volume(*k.max_threads));
    return;
  }
  const bool vgprs_stated = k.registers || k.arch_vgprs;
  if (!vgprs_stated || !k.static_shared_memory_bytes) {
    // A remark's figure given as an expression (inspect names the line) or metadata without it.
    r.unavailable =
        fmt::format("its {} not stated", !vgprs_stated && !k.static_shared_memory_bytes ? "VGPR count and LDS size are"
                                         : !vgprs_stated                                ? "VGPR count is"
                                                                                        : "LDS size is");
    return;
  }
  if (overrides.carveout_given) {
    r.unavailable = "carveout: does not apply to AMD targets";
    return;
  }
  try {
    // The kernel's figures go in as numbers (no text round trip).
    occcalc::amd_kernel kernel;
    const std::int64_t agprs = k.agprs.value_or(0);
    // Remarks give the VGPRs without the AGPRs; code objects the total the
    // target charges, which holds the AGPRs of a unified file.
    kernel.vgprs = k.arch_vgprs               ? *k.arch_vgprs
                   : target.unified_vgpr_file ? std::max<std::int64_t>(*k.registers - agprs, 0)
                                              : *k.registers;
    if (target.max_agprs_per_wave > 0) kernel.agprs = agprs;
    if (target.max_sgprs_per_wave > 0 && k.sgprs) kernel.sgprs = *k.sgprs;
    kernel.lds_bytes = *k.static_shared_memory_bytes + overrides.dyn_smem_bytes.value_or(0);
    const occcalc::amd_mode mode{k.wave_size.value_or(target.default_wave_size()), k.wgp_mode.value_or(true)};
    const occcalc::amd_model model = overrides.model.value_or(target.models.front());
    if (!r.block_size && !target.hip) {
      // HIP's search needs HIP's figures, which a target HIP does not run on
      // (gfx1250: the compiler's model alone) has none of.
      r.unavailable = fmt::format(
          "the kernel declares no work-group size, and HIP's block size search has no "
          "figures for {}: give --threads",
          target.id);
      return;
    }
    if (!r.block_size) {
      // No size declared or given: the one AMD's tools pick, HIP's search
      // (what `occcalc suggest` answers).
      const std::int64_t suggested = occcalc::amd_hip_max_potential_block_size(target, kernel, mode, 0).block_size;
      if (suggested <= 0) {
        r.unavailable = "no work-group size can run with these resources";
        return;
      }
      r.block_size = suggested;
      r.block_size_from = launch_source::suggested;
    }
    r.evaluation = evaluate_amd(occcalc::resolve_amd_kernel(target, model, mode, kernel, *r.block_size));
    // What the target charges, as a code object would record it.
    if (!k.registers) r.kernel.resources.registers = occcalc::amd_total_vgprs(target, kernel);
  } catch (const occcalc::input_error& e) {
    r.unavailable = fmt::format("{}: {}", e.field(), e.what());
  }
}

}  // namespace

std::string settle_static_shared_memory(const occcalc::table& tables, inspect::kernel_resources& k) {
  using inspect::shared_memory_figure;
  const shared_memory_figure read_as = k.shared_memory_read_as;
  k.shared_memory_read_as = shared_memory_figure::own;
  if (read_as == shared_memory_figure::own || !k.static_shared_memory_bytes) return {};
  const occcalc::nvidia_arch* arch = k.arch.sm == 0 ? nullptr : arch_of(tables, k.arch.sm);
  if (arch == nullptr) {
    k.static_shared_memory_bytes.reset();
    return {};
  }
  const std::int64_t section = *k.static_shared_memory_bytes;
  const std::int64_t reserved = arch->shared_memory_reserved_per_block_bytes;
  if (read_as == shared_memory_figure::linker_report) {
    // A kernel without static shared memory may report less than the
    // reserve (no section at all): its figure stands.
    if (arch->binary_shared_section_includes_reserved && section >= reserved) {
      k.static_shared_memory_bytes = section - reserved;
    }
    return {};
  }
  if (section < reserved) {
    k.static_shared_memory_bytes.reset();
    return fmt::format("its shared memory section holds {} bytes, fewer than the {} reserved bytes {} cubins include",
                       section, reserved, k.arch.name);
  }
  k.static_shared_memory_bytes = section - reserved;
  return {};
}

std::optional<occcalc::occupancy_summary> kernel_report::summary() const noexcept {
  if (!evaluation) return std::nullopt;
  return std::visit([](const auto& q) { return occcalc::summarize(q.result); }, *evaluation);
}

std::optional<double> kernel_report::launch_occupancy() const noexcept {
  if (!evaluation) return std::nullopt;
  if (const auto compiler = compiler_occupancy()) return compiler;
  return occupancy_of(*evaluation);
}

namespace {

/// The compiler's waves per SIMD and the model's, where a remark gives the former and the compiler's model
/// answered.
std::optional<std::pair<std::int64_t, const amd_query*>> compiler_waves(const kernel_report& r) noexcept {
  const amd_query* q = r.amd();
  const auto& waves = r.kernel.resources.compiler_waves_per_simd;
  if (!q || !waves || q->request.model != occcalc::amd_model::llvm) return std::nullopt;
  return std::pair{*waves, q};
}

}  // namespace

std::optional<double> kernel_report::compiler_occupancy() const noexcept {
  const auto compiler = compiler_waves(*this);
  if (!compiler || block_size_from != launch_source::suggested || compiler->second->result.max_waves_per_simd <= 0) {
    return std::nullopt;
  }
  return std::min(
      1.0, static_cast<double>(compiler->first) / static_cast<double>(compiler->second->result.max_waves_per_simd));
}

std::string kernel_report::compiler_difference() const {
  const auto compiler = compiler_waves(*this);
  if (!compiler) return {};
  const auto& r = compiler->second->result;
  const auto ours = static_cast<std::int64_t>(r.waves_per_simd);
  if (ours == compiler->first) return {};
  return fmt::format("clang's remark says {} of {} waves per SIMD, occcalc {} at {} work-items ({}){}", compiler->first,
                     r.max_waves_per_simd, ours, block_size.value_or(0), spelling(block_size_from),
                     block_size_from == launch_source::suggested
                         ? ": the remarks do not record the flat work-group size the compiler's figure follows, so "
                           "the gate takes the compiler's; give --threads for occcalc's"
                         : "");
}

launch_overrides parse_overrides(const occcalc::request& typed) {
  launch_overrides o;
  if (typed.threads) o.threads = occcalc::parse_count("threads", *typed.threads, {1, occcalc::max_request_value});
  if (typed.dyn_smem) {
    o.dyn_smem_bytes = occcalc::parse_bytes("dyn_smem", *typed.dyn_smem, {0, occcalc::max_request_value});
  }
  if (typed.carveout) {
    o.carveout_given = true;
    o.carveout_percent = occcalc::parse_carveout("carveout", *typed.carveout);
  }
  if (typed.model) o.model = occcalc::detail::parse_amd_model("model", typed.model->text());
  return o;
}

namespace {

/// A report of `kernel` at the launch it declares or is given, its static
/// shared memory settled, nothing computed; `shared_problem` is why that
/// figure cannot be right, or empty.
kernel_report launch_of(const occcalc::table& tables, std::string file, inspect::inspected_kernel kernel,
                        const launch_overrides& overrides, launch_source threads_from, std::string& shared_problem) {
  kernel_report r;
  r.file = std::move(file);
  r.kernel = std::move(kernel);
  r.dynamic_shared_memory_bytes = overrides.dyn_smem_bytes;
  shared_problem = settle_static_shared_memory(tables, r.kernel.resources);
  const auto& k = r.kernel.resources;
  // A required block size (.reqntid) is the only one the kernel launches
  // with, so it wins over --threads and the policy.
  if (k.required_threads) {
    r.block_size = inspect::volume(*k.required_threads);
    r.block_size_from = launch_source::required;
  } else if (overrides.threads) {
    r.block_size = *overrides.threads;
    r.block_size_from = threads_from;
  } else if (k.max_threads) {
    r.block_size = inspect::volume(*k.max_threads);
    r.block_size_from = launch_source::launch_bounds;
  }
  return r;
}

}  // namespace

kernel_report report_launch(const occcalc::table& tables, std::string file, inspect::inspected_kernel kernel,
                            const launch_overrides& overrides, launch_source threads_from) {
  std::string shared_problem;
  return launch_of(tables, std::move(file), std::move(kernel), overrides, threads_from, shared_problem);
}

kernel_report report_kernel(const occcalc::table& tables, std::string file, inspect::inspected_kernel kernel,
                            const launch_overrides& overrides, launch_source threads_from) {
  std::string shared_problem;
  kernel_report r = launch_of(tables, std::move(file), std::move(kernel), overrides, threads_from, shared_problem);
  const auto& k = r.kernel.resources;

  const occcalc::amd_target* target =
      k.arch.vendor == occcalc::gpu_vendor::amd ? occcalc::find_amd_target(tables, k.arch.processor()) : nullptr;
  if (target != nullptr) {
    r.amd_target = true;
    report_amd_kernel(*target, overrides, r);
    return r;
  }
  const occcalc::nvidia_arch* arch =
      k.arch.vendor == occcalc::gpu_vendor::nvidia ? arch_of(tables, k.arch.sm) : nullptr;
  if (arch == nullptr) {
    r.unavailable = k.arch.name.empty() ? "the log does not name the architecture"
                                        : fmt::format("{} is not in the architecture table", k.arch.name);
    constexpr int minors_per_major = 10;  // sm_88 is 8.8, sm_121 12.1
    if (k.arch.vendor == occcalc::gpu_vendor::nvidia) {
      const occcalc::compute_capability cc{k.arch.sm / minors_per_major, k.arch.sm % minors_per_major};
      if (occcalc::find_unlisted_arch(tables, cc) != nullptr) {
        r.unavailable = fmt::format("{}: {}", k.arch.name, occcalc::missing_arch_message(tables, cc));
      }
    } else if (const auto* u = occcalc::find_unlisted_amd_target(tables, k.arch.processor())) {
      r.unavailable = fmt::format("{} is not in the AMD target table: {}", k.arch.processor(), u->reason);
    } else if (k.arch.vendor == occcalc::gpu_vendor::amd) {
      r.unavailable = fmt::format("{} is not in the AMD target table", k.arch.processor());
    }
  } else if (r.block_size && k.max_threads && *r.block_size > inspect::volume(*k.max_threads)) {
    r.unavailable = fmt::format("block size {} (from {}) exceeds the kernel's launch bounds of {} threads per block",
                                *r.block_size, spelling(r.block_size_from), inspect::volume(*k.max_threads));
  } else if (!k.registers) {
    r.unavailable = "the input does not record the register count";
  } else if (!shared_problem.empty()) {
    r.unavailable = shared_problem;
  } else if (!k.static_shared_memory_bytes) {
    r.unavailable = "the input does not record the static shared memory";
  }
  if (!r.unavailable.empty()) return r;

  // The kernel's figures go in as numbers (no text round trip); the
  // user's overrides were parsed once, before any kernel was read.
  try {
    occcalc::launch_config launch;
    launch.threads_per_block = r.block_size.value_or(arch->warp_size_threads);
    launch.registers_per_thread = *k.registers;
    launch.static_shared_memory_bytes = *k.static_shared_memory_bytes;
    launch.dynamic_shared_memory_bytes = overrides.dyn_smem_bytes.value_or(0);
    launch.carveout_percent = overrides.carveout_percent;
    launch.barriers = k.barriers.value_or(1);
    if (!r.block_size) {
      // No size declared or given: the one cudaOccMaxPotentialOccupancyBlockSize
      // picks (what `occcalc suggest` answers), with the same dynamic
      // shared memory.
      const occcalc::dynamic_shared_memory_rule rule{launch.dynamic_shared_memory_bytes, 0};
      const std::int64_t suggested = occcalc::max_potential_block_size(*arch, launch, rule, 0).block_size;
      if (suggested <= 0) {
        r.unavailable = "no block size can run with these resources";
        return r;
      }
      r.block_size = launch.threads_per_block = suggested;
      r.block_size_from = launch_source::suggested;
    }
    occcalc::resolved_request resolved = occcalc::resolve_launch(*arch, launch);
    // A declared cluster (__cluster_dims__, .reqnctapercluster, Triton's num_ctas), or the policy's for a
    // kernel that declares none: the kernel runs in clusters, judged at what a cluster launch keeps per SM;
    // one CUDA cannot launch has no occupancy.
    if (k.cluster_dims && overrides.cluster && *overrides.cluster != *k.cluster_dims) {
      r.unavailable = fmt::format("it declares clusters of {}, and CUDA refuses its launch in clusters of {}",
                                  inspect::dim3_text(*k.cluster_dims), inspect::dim3_text(*overrides.cluster));
      return r;
    }
    if (const auto& cluster = k.cluster_dims ? k.cluster_dims : overrides.cluster) {
      const auto& d = *cluster;
      const std::int64_t most = arch->max_cluster_size();
      if (most == 0 || std::min({d[0], d[1], d[2]}) < 1 || inspect::volume(d) > most) {
        r.unavailable =
            fmt::format("{} clusters of {} blocks, which CUDA cannot launch on {}: {}",
                        k.cluster_dims ? "it declares" : "the policy launches it in", inspect::dim3_text(d), arch->id,
                        most == 0 ? std::string("clusters need compute capability 9.0 or later")
                                  : fmt::format("a cluster holds 1 to {} blocks", most));
        return r;
      }
      resolved.cluster = occcalc::cluster_shape{d[0], d[1], d[2]};
    }
    r.evaluation = evaluate(std::move(resolved));
  } catch (const occcalc::input_error& e) {
    r.unavailable = fmt::format("{}: {}", e.field(), e.what());
  }
  return r;
}

}  // namespace occcalc::cli
