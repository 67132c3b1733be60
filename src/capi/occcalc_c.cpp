// occcalc's C ABI (include/occcalc.h): the command line's answers behind
// extern "C" calls that never throw.
#include "occcalc.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/amd_query.hpp"
#include "cli/compiled_tables.hpp"
#include "commands/batch_line.hpp"
#include "commands/inspect.hpp"
#include "occcalc/nvidia/checked.hpp"
#include "occcalc/request/resolve.hpp"
#include "occcalc/version.hpp"

/// A device of the tables built in: what the typed calls answer for.
struct occcalc_nvidia_device {
  const occcalc::nvidia_arch* arch = nullptr;
  /// The named GPU; null for an architecture or a family.
  const occcalc::gpu* gpu = nullptr;
};

struct occcalc_amd_device {
  const occcalc::amd_target* target = nullptr;
  const occcalc::amd_gpu* gpu = nullptr;
};

namespace {

/// The tables compiled in, made once (a function-local static: thread-safe).
const occcalc::table& tables() { return occcalc::cli::resident_tables(); }

/// Every device a typed call may name: each architecture and target, then
/// each GPU; made once, never moved.
struct device_list {
  std::vector<occcalc_nvidia_device> nvidia;
  std::vector<occcalc_amd_device> amd;
};

const device_list& devices() {
  static const device_list all = [] {
    device_list d;
    const occcalc::table& t = tables();
    for (const auto& arch : t.architectures) d.nvidia.push_back({&arch, nullptr});
    for (const auto& g : t.gpus) d.nvidia.push_back({occcalc::find_arch_by_id(t, g.arch_id), &g});
    for (const auto& target : t.amd_targets) d.amd.push_back({&target, nullptr});
    for (const auto& g : t.amd_gpus) d.amd.push_back({occcalc::find_amd_target(t, g.target_id), &g});
    return d;
  }();
  return all;
}

/// The device of `gpu`, or of `arch` alone where `gpu` is null.
const occcalc_nvidia_device* nvidia_device(const occcalc::nvidia_arch* arch, const occcalc::gpu* gpu = nullptr) {
  for (const auto& d : devices().nvidia) {
    if (gpu != nullptr ? d.gpu == gpu : d.gpu == nullptr && d.arch == arch) return &d;
  }
  return nullptr;
}

const occcalc_amd_device* amd_device(const occcalc::amd_target* target, const occcalc::amd_gpu* gpu = nullptr) {
  for (const auto& d : devices().amd) {
    if (gpu != nullptr ? d.gpu == gpu : d.gpu == nullptr && d.target == target) return &d;
  }
  return nullptr;
}

/// `text` in memory the caller frees with occcalc_free; nullptr without memory.
char* give(const std::string& text) noexcept {
  auto* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out == nullptr) return nullptr;
  std::memcpy(out, text.data(), text.size());
  out[text.size()] = '\0';
  return out;
}

/// `text` into the caller's `message` of `size` bytes, NUL-terminated, cut
/// at a character boundary where it does not fit.
void tell(char* message, std::size_t size, const std::string& text) noexcept {
  if (message == nullptr || size == 0) return;
  std::size_t n = std::min(text.size(), size - 1);
  if (n < text.size()) {
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0U) == 0x80U) --n;  // not inside a UTF-8 sequence
  }
  std::memcpy(message, text.data(), n);
  message[n] = '\0';
}

/// Runs `answer`; a refusal becomes a status and its message, as batch
/// words it.
template <typename Answer>
occcalc_status guarded(char* message, std::size_t size, Answer&& answer) noexcept {
  try {
    answer();
    if (message != nullptr && size > 0) message[0] = '\0';
    return OCCCALC_OK;
  } catch (const occcalc::input_error& e) {
    try {
      tell(message, size, e.keyed_text());
    } catch (...) {
      tell(message, size, e.what());
    }
    return OCCCALC_BAD_INPUT;
  } catch (const std::bad_alloc&) {
    tell(message, size, "memory ran out");
    return OCCCALC_NO_MEMORY;
  } catch (const std::exception& e) {
    tell(message, size, e.what());
    return OCCCALC_BAD_INPUT;
  }
}

/// Refuses a null pointer argument.
void require(const void* pointer, const char* argument) {
  if (pointer == nullptr) throw occcalc::input_error(argument, "is NULL");
}

/// A device lookup's name and the request key it stands for
/// (`target_key_of`: cc, gfx or gpu), the caller's pointer cleared first.
template <typename Device>
std::pair<std::string, std::string> device_name(const char* name, const Device** device) {
  require(device, "device");
  *device = nullptr;
  require(name, "name");
  std::string key = occcalc::target_key_of(tables(), name);
  return {name, std::move(key)};
}

occcalc::field_value integer(std::int64_t value) { return occcalc::field_value::of_integer(value); }

/// A typed launch as the core takes it: every figure as given, for
/// `launch_problem` to judge.
occcalc::launch_config launch_of(const occcalc_nvidia_launch& typed) {
  occcalc::launch_config launch;
  launch.threads_per_block = typed.threads_per_block;
  launch.registers_per_thread = typed.registers_per_thread;
  launch.static_shared_memory_bytes = typed.static_shared_memory_bytes;
  launch.dynamic_shared_memory_bytes = typed.dynamic_shared_memory_bytes;
  launch.barriers = typed.barriers;
  if (typed.carveout_percent != OCCCALC_CARVEOUT_DEFAULT) launch.carveout_percent = typed.carveout_percent;
  launch.cache = static_cast<occcalc::cache_preference>(typed.cache);  // any int: launch_problem refuses the rest
  return launch;
}

/// A limit as the C result holds it.
std::int64_t limit_of(const std::optional<std::int64_t>& blocks) { return blocks.value_or(OCCCALC_NO_LIMIT); }

void fill(occcalc_nvidia_result& out, const occcalc_nvidia_device& device, const occcalc::occupancy_result& r) {
  out.limiters = 0;
  out.blocks_per_sm = r.blocks_per_sm;
  out.warps_per_block = r.warps_per_block;
  out.active_warps_per_sm = r.active_warps_per_sm;
  out.active_threads_per_sm = r.active_threads_per_sm;
  out.max_warps_per_sm = r.max_warps_per_sm;
  out.occupancy = r.occupancy();
  for (const auto resource : occcalc::nvidia_resources) {
    const auto i = static_cast<std::size_t>(resource);
    const occcalc::optional_integer& blocks = r.limit(resource).blocks;
    out.limits[i] = blocks ? *blocks : OCCCALC_NO_LIMIT;
    if (r.limiters.contains(resource)) out.limiters |= 1U << i;
  }
  out.registers_per_block = r.registers.per_block;
  out.shared_memory_per_block_bytes = r.shared_memory.per_block_bytes;
  out.shared_memory_per_sm_bytes = r.shared_memory.per_sm_bytes ? *r.shared_memory.per_sm_bytes : -1;
  out.sm_count = device.gpu != nullptr ? device.gpu->sm_count : 0;
}

/// The request `occcalc batch` reads for a typed AMD launch: a count of 0
/// for AGPRs or SGPRs is left out, as a code object's figures are (a target
/// without AGPRs refuses any count of them).
occcalc::request amd_request(const occcalc_amd_device& device, const occcalc_amd_launch& launch) {
  occcalc::request req;
  if (device.gpu != nullptr)
    req.gpu = device.gpu->name;
  else
    req.gfx = device.target->id;
  req.threads = integer(launch.work_group_size);
  req.vgprs = integer(launch.vgprs);
  if (launch.agprs != 0) req.agprs = integer(launch.agprs);
  if (launch.sgprs != 0) req.sgprs = integer(launch.sgprs);
  req.lds = integer(launch.lds_bytes);
  switch (launch.wave_size) {
    case 0: break;
    case 32: req.wave32 = std::string(occcalc::flag_set_text); break;
    case 64: req.wave64 = std::string(occcalc::flag_set_text); break;
    default:
      throw occcalc::input_error(
          "wave_size", std::to_string(launch.wave_size) + " is not a wave size; expected 0 (the target's), 32 or 64");
  }
  switch (launch.mode) {
    case OCCCALC_AMD_MODE_DEFAULT: break;
    case OCCCALC_AMD_MODE_CU: req.cu_mode = std::string(occcalc::flag_set_text); break;
    case OCCCALC_AMD_MODE_WGP: req.wgp_mode = std::string(occcalc::flag_set_text); break;
    default:
      throw occcalc::input_error(
          "mode", std::to_string(launch.mode) + " is not a mode; expected OCCCALC_AMD_MODE_DEFAULT, _CU or _WGP");
  }
  if (launch.model != OCCCALC_AMD_MODEL_DEFAULT) {
    if (launch.model < OCCCALC_AMD_MODEL_LLVM || launch.model > OCCCALC_AMD_MODEL_RCP) {
      throw occcalc::input_error(
          "model",
          std::to_string(launch.model) + " is not a model; expected OCCCALC_AMD_MODEL_DEFAULT, _LLVM, _HIP or _RCP");
    }
    req.model = std::string(occcalc::amd_models[static_cast<std::size_t>(launch.model - 1)].name);
  }
  return req;
}

void fill(occcalc_amd_result& out, const occcalc::cli::amd_query& q) {
  const occcalc::amd_occupancy_result& r = q.result;
  out = occcalc_amd_result{};
  out.model = static_cast<std::int32_t>(r.model) + 1;
  out.wave_size = static_cast<std::int32_t>(r.wave_size);
  out.per_wgp = r.per_wgp ? 1 : 0;
  out.work_groups = r.work_groups;
  out.waves_per_work_group = r.waves_per_work_group;
  out.active_waves = r.active_waves;
  out.max_waves = r.max_waves;
  out.waves_per_simd = r.waves_per_simd;
  out.max_waves_per_simd = r.max_waves_per_simd;
  out.occupancy = r.occupancy();
  for (const auto resource : occcalc::amd_resources) {
    const auto i = static_cast<std::size_t>(resource);
    out.limits[i] = limit_of(r.limit(resource));
    if (r.limiters.contains(resource)) out.limiters |= 1U << i;
  }
  out.compute_units = q.request.named_gpu != nullptr ? q.request.named_gpu->compute_units : 0;
}

}  // namespace

static_assert(static_cast<std::size_t>(OCCCALC_NVIDIA_RESOURCE_COUNT) == occcalc::resource_count,
              "occcalc.h lists every NVIDIA resource");
static_assert(static_cast<std::size_t>(OCCCALC_AMD_RESOURCE_COUNT) == occcalc::amd_resource_count,
              "occcalc.h lists every AMD resource");
static_assert(static_cast<std::size_t>(OCCCALC_AMD_MODEL_RCP) == occcalc::amd_models.size(),
              "occcalc.h lists every AMD model");
static_assert(static_cast<int>(occcalc::amd_model::llvm) + 1 == OCCCALC_AMD_MODEL_LLVM &&
                  static_cast<int>(occcalc::amd_model::hip) + 1 == OCCCALC_AMD_MODEL_HIP &&
                  static_cast<int>(occcalc::amd_model::rcp) + 1 == OCCCALC_AMD_MODEL_RCP,
              "occcalc.h's models follow amd_models");
static_assert(static_cast<int>(occcalc::cache_preference::equal) == OCCCALC_CACHE_EQUAL &&
                  static_cast<int>(occcalc::cache_preference::l1) == OCCCALC_CACHE_L1,
              "occcalc.h's cache preferences follow cache_preference");

extern "C" {

const char* occcalc_version(void) { return occcalc::version_string; }

char* occcalc_json(const char* request) {
  try {
    thread_local occcalc::cli::request_answerer answerer;
    thread_local std::string out;  // its capacity kept from call to call: an answer is written without growing it
    out.clear();
    occcalc::cli::append_request_answer(tables(), request == nullptr ? "" : request, "the request", std::nullopt,
                                        answerer, out);
    return give(out);
  } catch (...) {
    return nullptr;  // memory ran out: append_request_answer answers every other failure
  }
}

char* occcalc_inspect_json(const unsigned char* bytes, size_t size, const char* name) {
  try {
    static const unsigned char none = 0;
    return give(occcalc::cli::inspect_json_of(tables(), name == nullptr ? "input" : name,
                                              {bytes == nullptr ? &none : bytes, bytes == nullptr ? 0 : size}));
  } catch (...) {
    return nullptr;  // memory ran out: inspect_json_of answers every other failure
  }
}

void occcalc_free(char* text) { std::free(text); }

occcalc_status occcalc_nvidia_device_find(const char* name, const occcalc_nvidia_device** device, char* message,
                                          size_t message_size) {
  return guarded(message, message_size, [&] {
    const auto [text, key] = device_name(name, device);
    const occcalc::table& t = tables();
    if (key == "gfx") {
      throw occcalc::input_error("gfx",
                                 occcalc::detail::quoted(text) + " is an AMD target; occcalc_amd_device_find takes it");
    }
    if (key == "cc") {
      *device = nvidia_device(&occcalc::require_arch(t, "cc", text));
      return;
    }
    if (occcalc::find_named_gpu(t, text).is_amd()) {
      throw occcalc::input_error("gpu", occcalc::detail::quoted(occcalc::detail::trim(text)) +
                                            " is an AMD GPU; occcalc_amd_device_find takes it");
    }
    const occcalc::named_gpu_match match = occcalc::require_nvidia_gpu(t, "gpu", text);
    const occcalc::gpu* g = match.nvidia;
    const occcalc::nvidia_arch* arch = occcalc::find_arch_by_id(t, (g ? g : match.nvidia_family.front())->arch_id);
    *device = nvidia_device(arch, g);
  });
}

occcalc_status occcalc_nvidia_occupancy(const occcalc_nvidia_device* device, const occcalc_nvidia_launch* launch,
                                        occcalc_nvidia_result* result, char* message, size_t message_size) {
  return guarded(message, message_size, [&] {
    require(device, "device");
    require(launch, "launch");
    require(result, "result");
    const occcalc::nvidia_arch& arch = *device->arch;
    const occcalc::launch_config l = launch_of(*launch);
    // The command line's checks, in its order and words (held to batch by tests/capi_typed.py).
    if (auto problem = occcalc::launch_problem(arch, l)) throw occcalc::input_error(problem->field, problem->message);
    fill(*result, *device, occcalc::compute_occupancy(arch, l));
  });
}

occcalc_status occcalc_amd_device_find(const char* name, const occcalc_amd_device** device, char* message,
                                       size_t message_size) {
  return guarded(message, message_size, [&] {
    const auto [text, key] = device_name(name, device);
    const occcalc::table& t = tables();
    if (key == "cc") {
      throw occcalc::input_error("cc", occcalc::detail::quoted(text) +
                                           " is an NVIDIA compute capability; occcalc_nvidia_device_find takes it");
    }
    if (key == "gpu") {
      const occcalc::named_gpu_match match = occcalc::require_named_gpu(t, "gpu", text);
      if (!match.is_amd()) {
        throw occcalc::input_error("gpu", occcalc::detail::quoted(occcalc::detail::trim(text)) +
                                              " is an NVIDIA GPU; occcalc_nvidia_device_find takes it");
      }
      if (match.amd == nullptr) {
        // No AMD product line is a family; resolve_amd names a user table's.
        occcalc::request req;
        req.gpu = text;
        occcalc::resolve_amd(t, req);
      }
      *device = amd_device(occcalc::find_amd_target(t, match.amd->target_id), match.amd);
      return;
    }
    *device = amd_device(&occcalc::require_amd_target(t, "gfx", text));
  });
}

occcalc_status occcalc_amd_occupancy(const occcalc_amd_device* device, const occcalc_amd_launch* launch,
                                     occcalc_amd_result* result, char* message, size_t message_size) {
  return guarded(message, message_size, [&] {
    require(device, "device");
    require(launch, "launch");
    require(result, "result");
    fill(*result, occcalc::cli::evaluate_amd(tables(), amd_request(*device, *launch)));
  });
}

}  // extern "C"
