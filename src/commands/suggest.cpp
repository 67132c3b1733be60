#include "commands/suggest.hpp"

#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "occcalc/amd_hip.hpp"
#include "occcalc/amd_request.hpp"
#include "occcalc/parse.hpp"
#include "occcalc/suggest.hpp"
#include "occcalc/version.hpp"
#include "render/amd_text.hpp"
#include "render/result_json.hpp"
#include "render/terminal.hpp"
#include "render/text_layout.hpp"
#include "occcalc/common/percent.hpp"
#include "occcalc/amd/summary.hpp"
#include "occcalc/nvidia/summary.hpp"
#include "occcalc/resolve.hpp"

namespace occcalc::cli {

namespace {

using occcalc::resource;

constexpr double percent = occcalc::percent_per_unit;

std::string unit_of(resource r) {
  switch (r) {
    case resource::registers: return "registers per thread";
    case resource::shared_memory: return "bytes of shared memory per block";
    case resource::warps:
    case resource::blocks: return "threads per block";
    case resource::barriers: return "barriers";
  }
  return {};
}


/// `suggest` for AMD: the HIP runtime's hipOccupancyMaxPotentialBlockSize,
/// the one block size search AMD's tools have.
exit_status run_suggest_for(occcalc::resolved_amd_request r, const std::optional<std::string>& model_asked,
                            bool threads_given, const suggest_options& options, bool json, std::ostream& out,
                            bool colour) {
  (void)threads_given;  // the search sets the block size itself
  for (const auto& [flag, value] : {std::pair<const char*, const std::string*>{"dyn_smem_per_thread",
                                                                               &options.dynamic_per_thread},
                                    {"target", &options.target},
                                    {"blocks", &options.blocks}}) {
    if (!value->empty()) {
      throw occcalc::input_error(flag, "applies to NVIDIA only: for AMD, suggest answers with the HIP runtime's "
                                       "block size search");
    }
  }
  if (model_asked && occcalc::detail::lower(occcalc::detail::trim(*model_asked)) != "hip") {
    throw occcalc::input_error("model", occcalc::detail::one_line(*model_asked, occcalc::detail::max_quoted_chars) +
                                            " has no block size search; for AMD, suggest answers with the HIP "
                                            "runtime's (--model hip)");
  }
  r.model = occcalc::amd_model::hip;
  occcalc::detail::require_model(*r.target, r.model);
  const auto& t = *r.target;
  std::int64_t limit = 0;
  if (!options.max_threads.empty()) {
    limit = occcalc::parse_count("max_threads", options.max_threads, {1, t.max_work_group_size});
  }
  const auto choice = occcalc::amd_hip_max_potential_block_size(t, r.kernel, r.mode, limit);
  const std::string unit = choice.result.per_wgp ? "WGP" : "CU";
  // HIP counts WGPs as its multiprocessors in WGP mode.
  const std::int64_t units =
      r.compute_units ? *r.compute_units / (choice.result.per_wgp ? occcalc::cus_per_wgp : 1) : 0;
  const std::int64_t min_grid = units * choice.blocks_per_unit;
  if (json) {
    nlohmann::ordered_json j;
    j["schema_version"] = occcalc::suggest_schema_version;
    j["arch"] = t.id;
    j["gpu"] = r.named_gpu ? nlohmann::ordered_json(r.named_gpu->name) : nlohmann::ordered_json();
    j["device"] = r.named_gpu ? amd_gpu_json(*r.named_gpu) : nlohmann::ordered_json();
    j["model"] = "hip";
    j["unit"] = choice.result.per_wgp ? "wgp" : "cu";
    j["block_size"] = choice.block_size;
    j["blocks_per_sm"] = choice.blocks_per_unit;
    j["occupancy"] = choice.result.occupancy();
    j["min_grid_size"] = r.compute_units ? nlohmann::ordered_json(min_grid) : nlohmann::ordered_json(nullptr);
    out << json_text(j, 2) << "\n";
    return exit_status::ok;
  }
  std::string text = paint(fmt::format("{}{} ({}): the HIP runtime's hipOccupancyMaxPotentialBlockSize",
                                       r.named_gpu ? r.named_gpu->name + ", " : std::string(), t.id, t.family),
                           style::bold, colour) +
                     "\n";
  const std::int64_t size_limit = limit > 0 ? limit : t.max_work_group_size;
  text += row("block size", std::to_string(choice.block_size),
              choice.block_size == choice.alu_threads
                  ? fmt::format("the work-items a {} holds ({}), at most {}", unit,
                                occcalc::summarize(occcalc::amd_hip_result(t, r.kernel, r.mode, r.mode.wave_size)).limiter_list(", ",
                                                 true),
                                size_limit)
                  : fmt::format("the size limit{}; a {} holds {}",
                                choice.block_size == size_limit
                                    ? std::string()
                                    : fmt::format(", {} rounded up to whole waves", size_limit),
                                unit, choice.alu_threads));
  text += row(fmt::format("work-groups per {}", unit), std::to_string(choice.blocks_per_unit));
  text += row("occupancy", fmt::format("{:.1f}%", choice.result.occupancy() * percent),
              fmt::format("{} of {} waves per {}", choice.result.active_waves, choice.result.max_waves, unit));
  if (r.compute_units) {
    text += row("min grid size", std::to_string(min_grid),
                fmt::format("{} {}s x {} work-groups", units, unit, choice.blocks_per_unit));
  }
  out << text;
  return exit_status::ok;
}

}  // namespace

/// `suggest` for NVIDIA: cudaOccMaxPotentialOccupancyBlockSize's search, next
/// steps and dynamic shared memory for N blocks.
exit_status run_suggest_for(const occcalc::resolved_request& resolved, const std::optional<std::string>& model_asked,
                            bool threads_given, const suggest_options& options, bool json, std::ostream& out,
                            bool colour) {
  (void)model_asked;  // resolve() refuses a model for NVIDIA
  const auto& arch = *resolved.arch;
  const auto& launch = resolved.launch;

  occcalc::dynamic_shared_memory_rule rule{launch.dynamic_shared_memory_bytes, 0};
  if (!options.dynamic_per_thread.empty()) {
    rule.bytes_per_thread =
        occcalc::parse_bytes("dyn_smem_per_thread", options.dynamic_per_thread, {0, occcalc::max_request_value});
  }
  std::int64_t max_threads = 0;
  if (!options.max_threads.empty()) {
    max_threads = occcalc::parse_count("max_threads", options.max_threads, {1, arch.max_threads_per_block});
  }
  std::optional<double> target;
  if (!options.target.empty()) {
    const auto hundredths = occcalc::parse_count("target", options.target, {1, 100});
    target = static_cast<double>(hundredths) / percent;
  }
  std::optional<std::int64_t> blocks;
  if (!options.blocks.empty()) blocks = occcalc::parse_count("blocks", options.blocks, {1, arch.max_blocks_per_sm});
  if ((target || blocks) && !threads_given) {
    throw occcalc::input_error(target ? "target" : "blocks", "needs --threads: the block size to start from");
  }
  if (rule.bytes_per_thread > 0 && (threads_given || blocks || target)) {
    throw occcalc::input_error("dyn_smem_per_thread", "applies only to the block size search; give --dyn-smem with "
                                                      "--threads");
  }

  const auto choice = occcalc::max_potential_block_size(arch, launch, rule, max_threads);
  const occcalc::gpu* gpu = resolved.named_gpu;
  const occcalc::occupancy_result now = occcalc::compute_occupancy(arch, launch);
  std::vector<occcalc::next_step> steps;
  const bool target_met = target && now.occupancy() >= *target;
  if (threads_given && !target_met) steps = occcalc::next_steps(arch, launch, target);
  std::optional<occcalc::dynamic_shared_memory_answer> dynamic;
  if (blocks) dynamic = occcalc::available_dynamic_shared_memory(arch, launch, *blocks);

  const auto cap_of = [&](const occcalc::next_step& s) {
    return occcalc::launch_bounds_register_cap(arch, launch.threads_per_block, s.result.blocks_per_sm);
  };

  if (json) {
    nlohmann::ordered_json j;
    j["schema_version"] = occcalc::suggest_schema_version;
    j["arch"] = arch.id;
    j["gpu"] = gpu ? nlohmann::ordered_json(gpu->name) : nlohmann::ordered_json();
    j["device"] = gpu ? gpu_json(*gpu) : nlohmann::ordered_json();
    j["block_size"] = choice.block_size;
    j["blocks_per_sm"] = choice.blocks_per_sm;
    j["occupancy"] = choice.result.occupancy();
    j["dynamic_smem_bytes"] = choice.launch.dynamic_shared_memory_bytes;
    j["min_grid_size"] = nullptr;
    if (resolved.sm_count) j["min_grid_size"] = choice.blocks_per_sm * *resolved.sm_count;
    if (threads_given) {
      j["next_steps"] = nlohmann::ordered_json::array();
      for (const auto& s : steps) {
        nlohmann::ordered_json step;
        step["resource"] = occcalc::to_string(s.limiter);
        step["current"] = s.current;
        step["needed"] = s.reachable ? nlohmann::ordered_json(s.needed) : nlohmann::ordered_json();
        step["blocks_per_sm"] = s.result.blocks_per_sm;
        step["occupancy"] = s.result.occupancy();
        if (s.limiter == resource::registers && s.reachable) {
          step["maxrregcount"] = s.needed;
          step["launch_bounds"] = {launch.threads_per_block, s.result.blocks_per_sm};
          step["launch_bounds_register_cap"] = cap_of(s);
        }
        j["next_steps"].push_back(std::move(step));
      }
    } else {
      j["next_steps"] = nullptr;
    }
    if (target) j["target_met"] = target_met;
    j["max_dynamic_smem_per_block"] =
        dynamic && dynamic->cuda_bytes ? nlohmann::ordered_json(*dynamic->cuda_bytes) : nlohmann::ordered_json();
    j["max_dynamic_smem_per_block_resident"] = dynamic && dynamic->resident_bytes
                                                   ? nlohmann::ordered_json(*dynamic->resident_bytes)
                                                   : nlohmann::ordered_json();
    out << json_text(j, 2) << "\n";
    return exit_status::ok;
  }

  std::string text = paint(fmt::format("{}{} ({}, compute capability {}): {} registers per thread, {} B static "
                                       "shared memory",
                                       gpu ? gpu->name + ", " : std::string(), arch.id, arch.family,
                                       arch.compute_capability(), launch.registers_per_thread,
                                       launch.static_shared_memory_bytes),
                           style::bold, colour) +
                     "\n\n";
  text += paint("Block size with the most resident threads (as cudaOccMaxPotentialOccupancyBlockSize)", style::bold,
                colour) +
          "\n";
  if (choice.block_size == 0) {
    text += "  no block size can run\n";
  } else {
    text += row("block size", std::to_string(choice.block_size),
                max_threads > 0 ? fmt::format("at most {}", max_threads) : std::string());
    text += row("blocks per SM", std::to_string(choice.blocks_per_sm),
                fmt::format("{} of {} warps, {:.1f}%, limited by {}", choice.result.active_warps_per_sm,
                            choice.result.max_warps_per_sm, choice.result.occupancy() * percent,
                            occcalc::summarize(choice.result).limiter_list(", ", true)));
    if (rule.bytes_per_thread > 0 || rule.bytes > 0) {
      text += row("dynamic shared memory", fmt::format("{} B", choice.launch.dynamic_shared_memory_bytes));
    }
    if (resolved.sm_count) {
      const auto sms = *resolved.sm_count;
      text += row("min grid size", std::to_string(choice.blocks_per_sm * sms),
                  gpu && !resolved.sm_count_given
                      ? fmt::format("{} SMs x {} blocks fill {}", sms, choice.blocks_per_sm, gpu->name)
                      : fmt::format("{} SMs x {} blocks", sms, choice.blocks_per_sm));
    }
  }
  if (threads_given) {
    text += "\n" +
            paint(fmt::format("Next steps from {} threads ({} blocks, {:.1f}%, limited by {})",
                              launch.threads_per_block, now.blocks_per_sm, now.occupancy() * percent,
                              occcalc::summarize(now).limiter_list(", ", true)),
                  style::bold, colour) +
            "\n";
    if (target_met) text += fmt::format("  already at or above the {:.0f}% target\n", *target * percent);
    for (const auto& s : steps) {
      const std::string name(occcalc::info(s.limiter).label);
      if (!s.reachable) {
        text += row(name, "-", target ? fmt::format("cannot reach {:.0f}% alone", *target * percent)
                                      : std::string("cannot gain a block alone"));
        continue;
      }
      std::string note = fmt::format("{} {}: {} blocks, {:.1f}%", s.needed, unit_of(s.limiter), s.result.blocks_per_sm,
                                     s.result.occupancy() * percent);
      if (s.limiter == resource::registers) {
        note += fmt::format("; -maxrregcount={} or __launch_bounds__({}, {}) (ptxas caps at {})", s.needed,
                            launch.threads_per_block, s.result.blocks_per_sm, cap_of(s));
      }
      text += row(name, fmt::format("{} -> {}", s.current, s.needed), note);
    }
  }
  if (blocks) {
    text += "\n" +
            paint(fmt::format("Dynamic shared memory for {} blocks of {} threads", *blocks, launch.threads_per_block),
                  style::bold, colour) +
            "\n";
    if (!dynamic->cuda_bytes) {
      text += fmt::format("  none: {} blocks are not resident even without dynamic shared memory ({} are)\n", *blocks,
                          now.blocks_per_sm);
    } else {
      std::string note;
      if (dynamic->resident_bytes != dynamic->cuda_bytes) {
        occcalc::launch_config at = launch;
        at.dynamic_shared_memory_bytes = *dynamic->cuda_bytes;
        const auto resident = occcalc::compute_occupancy(arch, at).blocks_per_sm;
        note = fmt::format("leaves {} block{} resident: it does not count the {} B reserved per block", resident,
                           resident == 1 ? "" : "s", arch.shared_memory_reserved_per_block_bytes);
      }
      constexpr int width = 38;
      text += fmt::format("  {:<{}}{} B{}\n", "cudaOccAvailableDynamicSMemPerBlock", width, *dynamic->cuda_bytes,
                          note.empty() ? "" : "  " + paint(note, style::warn, colour));
      text += fmt::format("  {:<{}}{}\n", fmt::format("most that keeps {} blocks resident", *blocks), width,
                          dynamic->resident_bytes ? fmt::format("{} B", *dynamic->resident_bytes) : "none");
    }
  }
  out << text;
  return exit_status::ok;
}

exit_status run_suggest(const occcalc::table& tables, occcalc::request request, const suggest_options& options,
                        bool json, std::ostream& out, bool colour) {
  const bool threads_given = request.threads.has_value();
  if (!threads_given) request.threads = "1";  // only the search; it sets every block size itself
  // The AMD search is HIP's whatever the target's default model: the model
  // asked for is checked, and HIP's set, after resolution.
  const std::optional<std::string> model_asked = request.model;
  return std::visit(
      [&](auto&& resolved) {
        return run_suggest_for(std::forward<decltype(resolved)>(resolved), model_asked, threads_given, options, json,
                               out, colour);
      },
      occcalc::resolve_any(tables, request));
}

}  // namespace occcalc::cli
