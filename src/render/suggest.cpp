#include "render/suggest.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "occcalc/amd/summary.hpp"
#include "occcalc/common/percent.hpp"
#include "occcalc/nvidia/summary.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/version.hpp"
#include "render/amd_text.hpp"
#include "render/result_json.hpp"
#include "render/terminal.hpp"
#include "render/text_layout.hpp"

namespace occcalc::cli {

namespace {

using occcalc::resource;

constexpr double percent = occcalc::percent_per_unit;

/// What a next step's figure counts.
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

std::string unit_name(const amd_suggestion& s) { return s.choice.result.per_wgp ? "WGP" : "CU"; }

/// What a step's figure counts, and how to make the change.
std::pair<std::string, std::string> amd_step_words(occcalc::amd_resource r, std::int64_t goal) {
  switch (r) {
    case occcalc::amd_resource::vgprs:
    case occcalc::amd_resource::agprs:
    case occcalc::amd_resource::sgprs:
      return {r == occcalc::amd_resource::sgprs ? "per wave" : "per work-item",
              fmt::format("__attribute__((amdgpu_waves_per_eu({}))) on the kernel, or fewer live values", goal)};
    case occcalc::amd_resource::lds: return {"B per work-group", "a smaller tile, or fewer LDS buffers"};
    default: break;
  }
  return {};
}

}  // namespace

std::string suggest_json(const amd_suggestion& s) {
  const auto& r = s.resolved;
  const auto& choice = s.choice;
  nlohmann::ordered_json j;
  j["schema_version"] = occcalc::suggest_schema_version;
  j["arch"] = r.target->id;
  j["gpu"] = r.named_gpu ? nlohmann::ordered_json(r.named_gpu->name) : nlohmann::ordered_json();
  j["device"] = r.named_gpu ? amd_gpu_json(*r.named_gpu) : nlohmann::ordered_json();
  j["model"] = occcalc::to_string(occcalc::amd_model::hip);
  j["unit"] = choice.result.per_wgp ? "wgp" : "cu";
  j["block_size"] = choice.block_size;
  j["blocks_per_sm"] = choice.blocks_per_unit;
  j["occupancy"] = choice.result.occupancy();
  j["min_grid_size"] = r.compute_units ? nlohmann::ordered_json(s.min_grid) : nlohmann::ordered_json(nullptr);
  return json_text(j, 2) + "\n";
}

std::string suggest_json(const amd_llvm_suggestion& s) {
  const auto& r = s.resolved;
  nlohmann::ordered_json j;
  j["schema_version"] = occcalc::suggest_schema_version;
  j["arch"] = r.target->id;
  j["gpu"] = r.named_gpu ? nlohmann::ordered_json(r.named_gpu->name) : nlohmann::ordered_json();
  j["device"] = r.named_gpu ? amd_gpu_json(*r.named_gpu) : nlohmann::ordered_json();
  j["model"] = occcalc::to_string(occcalc::amd_model::llvm);
  j["unit"] = s.now.per_wgp ? "wgp" : "cu";
  j["work_group_size"] = r.work_group_size;
  j["waves_per_simd"] = s.now.waves_per_simd;
  j["occupancy"] = s.now.occupancy();
  j["limiters"] = nlohmann::ordered_json::array();
  for (const auto res : occcalc::amd_resources) {
    if (s.now.limiters.contains(res)) j["limiters"].push_back(occcalc::to_string(res));
  }
  j["target"] = s.target ? nlohmann::ordered_json(*s.target) : nlohmann::ordered_json(nullptr);
  j["goal_waves_per_simd"] = s.plan ? nlohmann::ordered_json(s.plan->goal_waves) : nlohmann::ordered_json(nullptr);
  j["reachable"] = s.plan ? nlohmann::ordered_json(s.plan->reachable) : nlohmann::ordered_json(nullptr);
  j["steps"] = nlohmann::ordered_json::array();
  if (s.plan) {
    for (const auto& step : s.plan->steps) {
      j["steps"].push_back({{"resource", occcalc::to_string(step.resource)}, {"from", step.from}, {"to", step.to}});
    }
  }
  return json_text(j, 2) + "\n";
}

std::string suggest_text(const amd_llvm_suggestion& s, const terminal& term) {
  const auto& r = s.resolved;
  const auto& t = *r.target;
  const auto max = static_cast<double>(t.max_waves_per_simd);
  std::string text = heading(fmt::format("{}{} ({}): next steps as the LLVM AMDGPU compiler counts",
                                         r.named_gpu ? r.named_gpu->name + ", " : std::string(), t.id, t.family),
                             term);
  const auto summary = occcalc::summarize(s.now);
  text +=
      row("now", fmt::format("{:g} waves per SIMD", s.now.waves_per_simd),
          fmt::format("{:.1f}%, work-groups of {}{}", s.now.waves_per_simd / max * percent, r.work_group_size,
                      summary.limiter_list(", ", true).empty() ? std::string()
                                                               : ", limited by " + summary.limiter_list(", ", true)),
          term.columns);
  if (!s.plan) {
    text +=
        "\n" + wrap(s.target_met ? fmt::format("The target, {:.1f}%, is met: nothing to change.", *s.target * percent)
                                 : fmt::format("Nothing to gain: {} waves per SIMD is the most a SIMD of {} holds.",
                                               t.max_waves_per_simd, t.id),
                    0, term.columns);
    return text;
  }
  const auto& plan = *s.plan;
  const std::string goal =
      fmt::format("{} waves per SIMD ({:.1f}%)", plan.goal_waves, static_cast<double>(plan.goal_waves) / max * percent);
  if (!plan.reachable) {
    text += "\n" + wrap(fmt::format("No change of VGPRs, SGPRs or LDS reaches {}: work-groups of {} allow at most {} "
                                    "waves per SIMD; a smaller work-group (amdgpu_flat_work_group_size) is the way.",
                                    goal, r.work_group_size, plan.most_waves),
                        0, term.columns);
    return text;
  }
  text += "\n" +
          paint(fmt::format("To {}{}", goal, plan.steps.size() > 1 ? ", all of" : ""), style::bold, term.colour) + "\n";
  for (const auto& step : plan.steps) {
    const auto [unit, how] = amd_step_words(step.resource, plan.goal_waves);
    text += row(occcalc::info(step.resource).label, fmt::format("{} -> {} {}", step.from, step.to, unit), how,
                term.columns);
  }
  return text;
}

std::string suggest_text(const amd_suggestion& s, const terminal& term) {
  const auto& r = s.resolved;
  const auto& t = *r.target;
  const auto& choice = s.choice;
  const std::string unit = unit_name(s);
  std::string text = heading(fmt::format("{}{} ({}): the HIP runtime's hipOccupancyMaxPotentialBlockSize",
                                         r.named_gpu ? r.named_gpu->name + ", " : std::string(), t.id, t.family),
                             term);
  text += row(
      "block size", std::to_string(choice.block_size),
      choice.block_size == choice.alu_threads
          ? fmt::format("the work-items a {} holds ({}), at most {}", unit, s.alu_limiters, s.size_limit)
          : fmt::format("the size limit{}; a {} holds {}",
                        choice.block_size == s.size_limit ? std::string()
                                                          : fmt::format(", {} rounded up to whole waves", s.size_limit),
                        unit, choice.alu_threads),
      term.columns);
  text += row(fmt::format("work-groups per {}", unit), std::to_string(choice.blocks_per_unit), {}, term.columns);
  text += row("occupancy", fmt::format("{:.1f}%", choice.result.occupancy() * percent),
              fmt::format("{} of {} waves per {}", choice.result.active_waves, choice.result.max_waves, unit),
              term.columns);
  if (r.compute_units) {
    text += row("min grid size", std::to_string(s.min_grid),
                fmt::format("{} {}s x {}", s.units, unit, counted(choice.blocks_per_unit, "work-group", "work-groups")),
                term.columns);
  }
  return text;
}

std::string suggest_json(const nvidia_suggestion& s) {
  const auto& resolved = *s.resolved;
  const auto& arch = *resolved.arch;
  const auto& launch = resolved.launch;
  const occcalc::gpu* gpu = resolved.named_gpu;
  nlohmann::ordered_json j;
  j["schema_version"] = occcalc::suggest_schema_version;
  j["arch"] = arch.id;
  j["gpu"] = gpu ? nlohmann::ordered_json(gpu->name) : nlohmann::ordered_json();
  j["device"] = gpu ? gpu_json(*gpu) : nlohmann::ordered_json();
  // A family whose products differ in SMs (H100): each one's min grid size.
  j["family"] = nullptr;
  if (!resolved.family.empty() && !resolved.sm_count) {
    nlohmann::ordered_json gpus = nlohmann::ordered_json::array();
    for (const occcalc::gpu* g : resolved.family) {
      gpus.push_back(
          {{"name", g->name}, {"sm_count", g->sm_count}, {"min_grid_size", s.choice.blocks_per_sm * g->sm_count}});
    }
    j["family"] = {{"name", resolved.family_name}, {"gpus", std::move(gpus)}};
  }
  j["block_size"] = s.choice.block_size;
  j["tied_block_sizes"] = s.ties;
  j["recommended_block_size"] = s.recommended;
  j["blocks_per_sm"] = s.choice.blocks_per_sm;
  j["occupancy"] = s.choice.result.occupancy();
  j["dynamic_smem_bytes"] = s.choice.launch.dynamic_shared_memory_bytes;
  j["min_grid_size"] = nullptr;
  if (resolved.sm_count) j["min_grid_size"] = s.choice.blocks_per_sm * *resolved.sm_count;
  if (s.threads_given) {
    j["next_steps"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
      const auto& step = s.steps[i];
      nlohmann::ordered_json item;
      item["resource"] = occcalc::to_string(step.limiter);
      item["current"] = step.current;
      item["needed"] = step.reachable ? nlohmann::ordered_json(step.needed) : nlohmann::ordered_json();
      item["blocks_per_sm"] = step.result.blocks_per_sm;
      item["occupancy"] = step.result.occupancy();
      if (step.limiter == resource::registers && step.reachable) {
        item["maxrregcount"] = step.needed;
        item["launch_bounds"] = {launch.threads_per_block, step.result.blocks_per_sm};
        item["launch_bounds_register_cap"] = s.register_caps[i];
      }
      j["next_steps"].push_back(std::move(item));
    }
  } else {
    j["next_steps"] = nullptr;
  }
  if (s.target) j["target_met"] = s.target_met;
  const auto& dynamic = s.dynamic;
  j["max_dynamic_smem_per_block"] =
      dynamic && dynamic->cuda_bytes ? nlohmann::ordered_json(*dynamic->cuda_bytes) : nlohmann::ordered_json();
  j["max_dynamic_smem_per_block_resident"] =
      dynamic && dynamic->resident_bytes ? nlohmann::ordered_json(*dynamic->resident_bytes) : nlohmann::ordered_json();
  return json_text(j, 2) + "\n";
}

std::string suggest_text(const nvidia_suggestion& s, const terminal& term) {
  const auto& resolved = *s.resolved;
  const auto& arch = *resolved.arch;
  const auto& launch = resolved.launch;
  const occcalc::gpu* gpu = resolved.named_gpu;
  const auto& choice = s.choice;
  const std::string* named = resolved.device_name();
  const std::string device = named ? *named + ", " : std::string();
  std::string text = heading(fmt::format("{}{} ({}, compute capability {}): {} registers per thread, {} B static "
                                         "shared memory",
                                         device, arch.id, arch.family, arch.compute_capability(),
                                         launch.registers_per_thread, launch.static_shared_memory_bytes),
                             term) +
                     "\n";
  text += heading("Best block size (most resident threads, as cudaOccMaxPotentialOccupancyBlockSize)", term);
  if (choice.block_size == 0) {
    text += "  no block size can run\n";
  } else {
    text += row("block size", std::to_string(choice.block_size),
                s.max_threads > 0 ? fmt::format("at most {}", s.max_threads) : std::string(), term.columns);
    text += row("blocks per SM", std::to_string(choice.blocks_per_sm),
                fmt::format("{} of {} warps, {:.1f}%, limited by {}", choice.result.active_warps_per_sm,
                            choice.result.max_warps_per_sm, choice.result.occupancy() * percent,
                            occcalc::summarize(choice.result).limiter_list(", ", true)),
                term.columns);
    if (s.ties.size() > 1) {
      std::vector<std::string> sizes;
      for (const auto size : s.ties) sizes.push_back(std::to_string(size));
      text += row("ties", occcalc::detail::join(sizes, ", "), "as many resident threads; CUDA takes the largest",
                  term.columns);
      text += row("recommended", std::to_string(s.recommended),
                  fmt::format("the smallest tie with a warp for each of the SM's {} schedulers: the most blocks "
                              "for a grid's last wave",
                              arch.register_file_partitions),
                  term.columns);
    }
    if (s.rule.bytes_per_thread > 0 || s.rule.bytes > 0) {
      text += row("dynamic shared memory", fmt::format("{} B", choice.launch.dynamic_shared_memory_bytes), {},
                  term.columns);
    }
    if (!resolved.sm_count) {
      // A family whose products differ in SMs: each one's.
      for (const occcalc::gpu* g : resolved.family) {
        text += row(
            "min grid size", std::to_string(choice.blocks_per_sm * g->sm_count),
            fmt::format("{} SMs x {} fill {}", g->sm_count, counted(choice.blocks_per_sm, "block", "blocks"), g->name),
            term.columns);
      }
    } else {
      const auto sms = *resolved.sm_count;
      text += row("min grid size", std::to_string(choice.blocks_per_sm * sms),
                  (gpu || !resolved.family.empty()) && !resolved.sm_count_given
                      ? fmt::format("{} SMs x {} fill {}", sms, counted(choice.blocks_per_sm, "block", "blocks"),
                                    gpu ? gpu->name : "each " + resolved.family_name)
                      : fmt::format("{} SMs x {}", sms, counted(choice.blocks_per_sm, "block", "blocks")),
                  term.columns);
    }
  }
  if (s.threads_given) {
    text += "\n" + heading(fmt::format("Next steps from {} threads ({}, {:.1f}%, limited by {})",
                                       launch.threads_per_block, counted(s.now.blocks_per_sm, "block", "blocks"),
                                       s.now.occupancy() * percent, occcalc::summarize(s.now).limiter_list(", ", true)),
                           term);
    if (s.target_met) text += fmt::format("  already at or above the {:.0f}% target\n", *s.target * percent);
    // At 100% a step could only trade warps for blocks.
    if (!s.target && s.steps.empty()) text += "  nothing to gain: every warp the SM holds is resident (100%)\n";
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
      const auto& step = s.steps[i];
      const std::string name(occcalc::info(step.limiter).label);
      if (!step.reachable) {
        text += row(name, "-",
                    s.target ? fmt::format("cannot reach {:.0f}% alone", *s.target * percent)
                             : std::string("cannot gain a block alone"),
                    term.columns);
        continue;
      }
      std::string note =
          fmt::format("{} {}: {}, {:.1f}%", step.needed, unit_of(step.limiter),
                      counted(step.result.blocks_per_sm, "block", "blocks"), step.result.occupancy() * percent);
      if (step.limiter == resource::registers) {
        note += fmt::format("; -maxrregcount={} or __launch_bounds__({}, {}) (ptxas caps at {})", step.needed,
                            launch.threads_per_block, step.result.blocks_per_sm, s.register_caps[i]);
      }
      text += row(name, fmt::format("{} -> {}", step.current, step.needed), note, term.columns);
    }
  }
  if (s.blocks) {
    const auto& dynamic = *s.dynamic;
    text += "\n" + heading(fmt::format("Dynamic shared memory for {} blocks of {} threads", *s.blocks,
                                       launch.threads_per_block),
                           term);
    if (!dynamic.cuda_bytes) {
      text += wrap(fmt::format("none: {} blocks are not resident even without dynamic shared memory ({} are)",
                               *s.blocks, s.now.blocks_per_sm),
                   2, term.columns - 2);
    } else {
      text += row(fmt::format("most for {} blocks", *s.blocks),
                  dynamic.resident_bytes ? fmt::format("{} B", *dynamic.resident_bytes) : "none",
                  fmt::format("the most that keeps {} blocks resident", *s.blocks), term.columns);
      std::string note = "cudaOccAvailableDynamicSMemPerBlock";
      std::string value = fmt::format("{} B", *dynamic.cuda_bytes);
      if (s.resident_at_cuda_bytes) {
        const auto resident = *s.resident_at_cuda_bytes;
        note += fmt::format(": leaves {} block{} resident, as it does not count the {} B reserved per block", resident,
                            resident == 1 ? "" : "s", arch.shared_memory_reserved_per_block_bytes);
        value = paint(value, style::warn, term.colour);
      }
      text += row("CUDA's figure", value, note, term.columns);
    }
  }
  return text;
}

}  // namespace occcalc::cli
