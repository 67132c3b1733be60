/// \file request/request.hpp
/// A calculator request as the user writes it (every field as text), and its
/// resolution against a table into an architecture and a launch.
///
/// The command line and each line of `occcalc batch` build the same
/// `request`, so both accept the same values and report the same errors.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "occcalc/error.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "occcalc/nvidia/cluster_shape.hpp"
#include "occcalc/nvidia/launch.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/request/parse.hpp"

namespace occcalc {

/// A request as given: each field's value (text as typed, or a batch line's
/// integer), empty when not given. The keys are the long flag names with `_`
/// for `-`.
struct request {
  std::optional<field_value> cc;
  std::optional<field_value> gpu;
  std::optional<field_value> threads;
  std::optional<field_value> regs;
  std::optional<field_value> smem;
  std::optional<field_value> dyn_smem;
  std::optional<field_value> carveout;
  std::optional<field_value> cache;
  std::optional<field_value> barriers;
  std::optional<field_value> grid;
  std::optional<field_value> sm_count;
  std::optional<field_value> cluster;
  // AMD (see amd_request.hpp).
  std::optional<field_value> gfx;
  std::optional<field_value> vgprs;
  std::optional<field_value> agprs;
  std::optional<field_value> sgprs;
  std::optional<field_value> lds;
  std::optional<field_value> wave32;
  std::optional<field_value> wave64;
  std::optional<field_value> cu_mode;
  std::optional<field_value> wgp_mode;
  std::optional<field_value> model;
};

/// Whether a request field takes a value or is a switch (`--wave32`; in
/// batch, `"wave32": true`).
enum class field_kind : std::uint8_t { value, flag };

/// Which vendor's requests a field belongs to.
enum class field_vendor : std::uint8_t { nvidia, amd, both };

/// A request field: its key, where it lives in `request`, and one line
/// describing it (the command line's help).
struct request_field {
  std::string_view key;
  std::optional<field_value> request::*member;
  std::string_view description;
  field_kind kind = field_kind::value;
  field_vendor vendor = field_vendor::nvidia;
};

/// The text a switch holds when on (`--wave32`, `"wave32": true`).
inline constexpr std::string_view flag_set_text = "true";
/// The text a switch holds when explicitly off (`"wave32": false` in batch).
inline constexpr std::string_view flag_unset_text = "false";

/// Every request field, in the order results echo them.
inline const request_field request_fields[] = {
    {"cc", &request::cc, "Compute capability: 7.0, 70, sm_70 or compute_70"},
    {"gpu", &request::gpu, "A named GPU, NVIDIA or AMD (occcalc list gpus); implies its architecture",
     field_kind::value, field_vendor::both},
    {"threads", &request::threads, "Threads per block (AMD: work-items per work-group)", field_kind::value,
     field_vendor::both},
    {"regs", &request::regs, "Registers per thread (ptxas -v 'Used N registers')"},
    {"smem", &request::smem, "Static shared memory per block in bytes (K or KiB suffix for KiB)"},
    {"dyn_smem", &request::dyn_smem, "Dynamic shared memory per block in bytes (K or KiB suffix for KiB)"},
    {"carveout", &request::carveout, "Shared memory carveout: default, 0-100 (percent), max-shared or max-l1"},
    {"cache", &request::cache, "Cache preference (Fermi/Kepler; a carveout on Volta+): none, shared, l1, equal"},
    {"barriers", &request::barriers, "Block barriers the kernel uses (default 1)"},
    {"grid", &request::grid, "Blocks in the grid; with --gpu or --sm-count, adds waves and the tail effect",
     field_kind::value, field_vendor::both},
    {"sm_count", &request::sm_count,
     "SMs on the device (AMD: CUs), for waves on a GPU the table lacks or a part of one (a MIG slice); "
     "overrides --gpu's count",
     field_kind::value, field_vendor::both},
    {"cluster", &request::cluster,
     "Thread block cluster (9.0 and later): its blocks (8) or shape (2x2x1); with --gpu, the clusters that run at "
     "once"},
    {"gfx", &request::gfx, "AMD target: gfx90a, gfx1100, ... (VLIW: cypress, cayman, ...)", field_kind::value,
     field_vendor::amd},
    {"vgprs", &request::vgprs, "AMD: VGPRs per work-item (; NumVgprs; VLIW: GPRs)", field_kind::value,
     field_vendor::amd},
    {"agprs", &request::agprs, "AMD CDNA: AGPRs per work-item (; NumAgprs)", field_kind::value, field_vendor::amd},
    {"sgprs", &request::sgprs, "AMD: SGPRs per wave (; NumSgprs)", field_kind::value, field_vendor::amd},
    {"lds", &request::lds, "AMD: LDS per work-group in bytes (K or KiB suffix for KiB)", field_kind::value,
     field_vendor::amd},
    {"wave32", &request::wave32, "AMD RDNA: waves of 32 work-items (the default there)", field_kind::flag,
     field_vendor::amd},
    {"wave64", &request::wave64, "AMD: waves of 64 work-items", field_kind::flag, field_vendor::amd},
    {"cu_mode", &request::cu_mode, "AMD RDNA: CU mode (work-groups per CU)", field_kind::flag, field_vendor::amd},
    {"wgp_mode", &request::wgp_mode, "AMD RDNA: WGP mode (work-groups per WGP; the default)", field_kind::flag,
     field_vendor::amd},
    {"model", &request::model, "AMD: llvm (compiler), hip (HIP runtime) or rcp (Radeon Compute Profiler)",
     field_kind::value, field_vendor::amd},
};

/// Empties `r` in place, for the next request: every field not given.
/// (Assigning `request{}` builds the 22 fields afresh and moves each over.)
inline void clear(request& r) noexcept {
  for (const auto& field : request_fields) (r.*(field.member)).reset();
}

/// The request field whose key is `key`; nullptr for none.
inline const request_field* find_request_field(std::string_view key) noexcept {
  const auto field = std::find_if(std::begin(request_fields), std::end(request_fields),
                                  [&](const request_field& f) { return f.key == key; });
  return field == std::end(request_fields) ? nullptr : &*field;
}

/// The command-line flag of a request key (`dyn_smem` -> `--dyn-smem`).
inline std::string flag_name(std::string_view key) {
  std::string flag = "--" + std::string(key);
  for (char& c : flag) c = c == '_' ? '-' : c;
  return flag;
}

/// An input error as the command line says it, led by its flag and with
/// every field it names spelled as a flag: `--threads 0 is outside [1,
/// 2147483647]`.
inline std::string flagged_text(const input_error& e) {
  return e.field().empty() ? std::string(e.what()) : flag_name(e.field()) + " " + e.message(flag_name);
}

/// Every field's key, joined by `, `: what an unknown key's error lists.
inline std::string request_field_keys() {
  std::string keys;
  for (const auto& f : request_fields) keys += (keys.empty() ? "" : ", ") + std::string(f.key);
  return keys;
}

/// Every request field is one `std::optional<field_value>` member of `request`.
static_assert(std::size(request_fields) * sizeof(std::optional<field_value>) == sizeof(request),
              "request_fields must list every member of request");

/// A device a cluster answer is for.
struct cluster_device {
  /// The named GPU, or a product of a family; null for `sm_count` alone.
  const occcalc::gpu* gpu = nullptr;
  /// Where its clusters run; null for the SM count alone (also a part of a
  /// GPU, `sm_count` given with it).
  const cluster_layout* layout = nullptr;
  std::int64_t sm_count = 0;
};

/// A request resolved against a table.
struct resolved_request {
  /// The architecture (from `cc`, or the GPU's).
  const nvidia_arch* arch = nullptr;
  /// The named GPU, when the request gave one.
  const occcalc::gpu* named_gpu = nullptr;
  /// The products of a family the request named instead (`H100`): two or
  /// more, one architecture; `family_name` as typed.
  std::vector<const occcalc::gpu*> family;
  std::string family_name;

  /// What the request named: the GPU's name, or the family's as typed;
  /// null for a compute capability alone.
  const std::string* device_name() const noexcept {
    return named_gpu ? &named_gpu->name : family.empty() ? nullptr : &family_name;
  }
  /// The launch, every field parsed and defaulted.
  launch_config launch;
  /// Blocks in the grid, when the request gave them (with an SM count).
  std::optional<std::int64_t> grid_blocks;
  /// SMs on the device: `sm_count` when given, else the named GPU's.
  std::optional<std::int64_t> sm_count;
  /// Whether `sm_count` came from the request rather than the table.
  bool sm_count_given = false;
  /// The thread block cluster, when the request gave one.
  std::optional<cluster_shape> cluster;
  /// With a cluster: each device to answer it for (`cluster_devices_of`).
  std::vector<cluster_device> cluster_devices;
};

/// The devices a cluster answer on `r` is for: `sm_count` SMs where the
/// request gave them (the named GPU's layout kept where they are all of
/// its SMs; a part of it has none), else the named GPU or each product of a
/// family, each with its layout; none without a GPU or an SM count.
inline std::vector<cluster_device> cluster_devices_of(const table& tables, const resolved_request& r) {
  if (r.sm_count_given) {
    const bool whole_gpu = r.named_gpu && r.named_gpu->sm_count == *r.sm_count;
    return {{r.named_gpu, whole_gpu ? find_cluster_layout(tables, *r.named_gpu) : nullptr, *r.sm_count}};
  }
  std::vector<cluster_device> out;
  for (const occcalc::gpu* g : r.named_gpu ? std::vector<const occcalc::gpu*>{r.named_gpu} : r.family) {
    out.push_back({g, find_cluster_layout(tables, *g), g->sm_count});
  }
  return out;
}

/// Checks that `launch` is meaningful on `arch` (`configuration_problem`:
/// a carveout only where the architecture has carveouts, a cache preference
/// only where it has a cache configuration, no more barriers than a block
/// may use). Throws `input_error` naming the field otherwise.
inline void validate_launch(const nvidia_arch& arch, const launch_config& launch) {
  if (auto problem = configuration_problem(arch, launch)) throw input_error(problem->field, problem->message);
}

/// Refuses a launch that gives both a carveout and a cache preference
/// (`configuration_choice_problem`).
inline void require_one_configuration_choice(const launch_config& launch) {
  if (auto problem = configuration_choice_problem(launch)) throw input_error(problem->field, problem->message);
}

/// Refuses `what` (a value of `field`) on an architecture without thread
/// block clusters.
inline void require_clusters(const nvidia_arch& arch, const std::string& field, const std::string& what) {
  if (!arch.max_cluster_size_portable) {
    throw input_error(
        field, what + " does not apply to " + arch.id + ": thread block clusters need compute capability 9.0 or later");
  }
}

/// The cluster a request gives, checked against what `arch` launches.
inline cluster_shape resolve_cluster(const nvidia_arch& arch, const field_value& value) {
  require_clusters(arch, "cluster", value.text());
  const std::int64_t portable = *arch.max_cluster_size_portable;
  const std::string limits = arch.max_cluster_size_nonportable
                                 ? " for " + arch.id + " (" + std::to_string(portable) +
                                       " portable; larger sizes need " +
                                       "cudaFuncAttributeNonPortableClusterSizeAllowed)"
                                 : " for " + arch.id + " (the portable size; no larger size is known for it)";
  return parse_cluster("cluster", value, arch.max_cluster_size(), limits);
}

/// Resolves a launch whose figures are already numbers (a kernel read from a
/// binary, with the user's overrides): what `resolve` checks while parsing
/// (`launch_problem`), without a text round trip. Throws `input_error`.
inline resolved_request resolve_launch(const nvidia_arch& arch, const launch_config& launch) {
  if (auto problem = launch_problem(arch, launch)) throw input_error(problem->field, problem->message);
  resolved_request out;
  out.arch = &arch;
  out.launch = launch;
  return out;
}

/// Resolves a request: exactly one of `cc` and `gpu`, `threads` and `regs`
/// required; `smem`, `dyn_smem` default to 0, `carveout` to default, `cache`
/// to none, `barriers` to 1. A family name (`H100`) resolves to its
/// products' architecture, and to their SM count where they share one; a
/// grid on products that differ in SMs has waves per product (every surface
/// gives them: docs/reference.md). Throws `input_error` naming the first bad
/// field.
inline resolved_request resolve(const table& tables, const request& req,
                                std::optional<named_gpu_match> looked_up_gpu = std::nullopt) {
  resolved_request out;
  if (req.cc && req.gpu)
    throw input_error("gpu", "cannot be given together with " + field_ref("cc") + "; give one of them");
  for (const auto& field : request_fields) {
    if (field.vendor == field_vendor::amd && req.*(field.member)) {
      const std::string key(field.key);
      throw input_error(
          key, "does not apply to NVIDIA architectures" + std::string(key == "vgprs" ? "; give " + field_ref("regs")
                                                                      : key == "lds" ? "; give " + field_ref("smem")
                                                                                     : ""));
    }
  }
  if (req.gpu) {
    named_gpu_match match = looked_up_gpu ? require_nvidia_match(std::move(*looked_up_gpu), "gpu", req.gpu->text())
                                          : require_nvidia_gpu(tables, "gpu", req.gpu->text());
    out.named_gpu = match.nvidia;
    out.family = std::move(match.nvidia_family);
    if (!out.family.empty()) out.family_name = detail::trim(req.gpu->text());
    out.arch = find_arch_by_id(tables, (out.named_gpu ? out.named_gpu : out.family.front())->arch_id);
  } else if (req.cc) {
    out.arch = &require_arch(tables, "cc", req.cc->text());
  } else {
    throw input_error("cc", "is required (or " + field_ref("gpu") + "); e.g. 7.0, sm_70 or a GPU name");
  }
  if (!req.threads) throw input_error("threads", "is required: threads per block");
  if (!req.regs) throw input_error("regs", "is required: registers per thread, as ptxas -v reports them");

  auto& launch = out.launch;
  launch.threads_per_block = parse_count("threads", *req.threads, {1, max_request_value});
  launch.registers_per_thread = parse_count("regs", *req.regs, {0, max_request_registers});
  if (req.smem) launch.static_shared_memory_bytes = parse_bytes("smem", *req.smem, {0, max_request_value});
  if (req.dyn_smem) {
    launch.dynamic_shared_memory_bytes = parse_bytes("dyn_smem", *req.dyn_smem, {0, max_request_value});
  }
  if (auto problem = shared_memory_sum_problem(launch)) throw input_error(problem->field, problem->message);
  if (req.carveout) launch.carveout_percent = parse_carveout("carveout", *req.carveout);
  if (req.cache) launch.cache = parse_cache("cache", req.cache->text());
  require_one_configuration_choice(launch);
  if (req.barriers) launch.barriers = parse_count("barriers", *req.barriers, {0, max_request_value});
  validate_launch(*out.arch, launch);
  if (req.cluster) out.cluster = resolve_cluster(*out.arch, *req.cluster);
  if (req.sm_count) {
    out.sm_count = parse_count("sm_count", *req.sm_count, {1, max_request_value});
    out.sm_count_given = true;
  } else if (out.named_gpu) {
    out.sm_count = out.named_gpu->sm_count;
  } else if (!out.family.empty() && std::all_of(out.family.begin(), out.family.end(), [&](const gpu* g) {
               return g->sm_count == out.family.front()->sm_count;
             })) {
    out.sm_count = out.family.front()->sm_count;
  }
  if (out.cluster) out.cluster_devices = cluster_devices_of(tables, out);
  if (req.grid) {
    out.grid_blocks = parse_count("grid", *req.grid, {1, max_request_value});
    if (out.cluster && *out.grid_blocks % out.cluster->blocks() != 0) {
      throw input_error("grid", std::to_string(*out.grid_blocks) + " is not a multiple of the cluster's " +
                                    std::to_string(out.cluster->blocks()) + " blocks (" + to_string(*out.cluster) +
                                    "): a cluster launch needs each grid dimension a multiple of the cluster's");
    }
    if (!out.sm_count && out.family.empty())
      throw input_error("grid", "needs a named GPU (" + field_ref("gpu") + ") or " + field_ref("sm_count") +
                                    ": waves need the SM count");
  }
  return out;
}

}  // namespace occcalc
