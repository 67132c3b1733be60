#include "render/suggest_report.hpp"
#include "render/cluster.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "occcalc/amd/summary.hpp"
#include "occcalc/common/percent.hpp"
#include "occcalc/nvidia/summary.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/version.hpp"
#include "render/amd_text.hpp"
#include "render/json_writer.hpp"
#include "render/table_entry_json.hpp"
#include "render/terminal.hpp"
#include "render/text_layout.hpp"

namespace occcalc::cli {

namespace {

using occcalc::resource;

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

/// Where no step gets there alone: the cheapest changes that do, one or two
/// together, or that none within the limits does.
std::string together_text(const nvidia_suggestion& s, const terminal& term) {
  std::vector<together_row> rows;
  for (const auto& found : s.together) {
    rows.push_back({&found.changes, fmt::format("{}, {:.1f}%", counted(found.result.blocks_per_sm, "block", "blocks"),
                                                found.result.occupancy() * percent_per_unit)});
  }
  return together_text(
      rows, "the registers, the shared memory or the block size", goal_words(s.target),
      [](std::size_t id) {
        // "shared_memory" in JSON, "shared memory" in text.
        std::string name(occcalc::to_string(static_cast<occcalc::launch_knob>(id)));
        std::replace(name.begin(), name.end(), '_', ' ');
        return name;
      },
      term);
}

}  // namespace

std::string goal_words(std::optional<double> target) {
  return target ? fmt::format("reach {:.0f}%", *target * percent_per_unit) : std::string("raise the occupancy");
}

std::string together_text(const std::vector<together_row>& rows, const std::string& knobs, const std::string& goal,
                          const std::function<std::string(std::size_t)>& name_of, const terminal& term) {
  if (rows.empty()) {
    return "\n" + wrap(fmt::format("No change of {}, alone or two together, can {}.", knobs, goal), 0, term.columns);
  }
  std::string text = "\n" + heading(fmt::format("Changes that {} (the least change first)", goal), term);
  for (const auto& r : rows) {
    std::vector<std::string> names;
    std::vector<std::string> values;
    for (const auto& c : r.changes->changes) {
      names.push_back(name_of(c.id));
      values.push_back(fmt::format("{} -> {}", c.from, c.to));
    }
    text += row(occcalc::detail::join(names, " + "), occcalc::detail::join(values, ", "), r.note, term.columns);
  }
  return text;
}

void write_changes(json_writer& w, const occcalc::knob_changes& changes,
                   const std::function<std::string_view(std::size_t)>& name_of) {
  w.begin_array();
  for (const auto& c : changes.changes) {
    w.begin_object();
    w.member("knob", name_of(c.id));
    w.member("from", c.from);
    w.member("to", c.to);
    w.end_object();
  }
  w.end_array();
}

std::string suggest_json(const nvidia_suggestion& s) {
  const auto& resolved = *s.resolved;
  const auto& arch = *resolved.arch;
  const auto& launch = resolved.launch;
  const occcalc::gpu* gpu = resolved.named_gpu;
  return pretty_document([&](json_writer& w) {
    w.begin_object();
    w.member("schema_version", occcalc::suggest_schema_version);
    w.member("arch", arch.id);
    w.member("gpu", gpu ? std::optional<std::string_view>(gpu->name) : std::nullopt);
    w.key("device");
    write_entry_or_null(w, gpu);
    // A family whose products differ in SMs (H100): each one's min grid size.
    w.key("family");
    if (!resolved.family.empty() && !resolved.sm_count) {
      w.begin_object();
      w.member("name", resolved.family_name);
      w.key("gpus");
      w.begin_array();
      for (const occcalc::gpu* g : resolved.family) {
        w.begin_object();
        w.member("name", g->name);
        w.member("sm_count", g->sm_count);
        w.member("min_grid_size", s.choice.blocks_per_sm * g->sm_count);
        w.end_object();
      }
      w.end_array();
      w.end_object();
    } else {
      w.null();
    }
    w.member("block_size", s.choice.block_size);
    w.key("tied_block_sizes");
    w.begin_array();
    for (const auto size : s.ties) w.value(size);
    w.end_array();
    w.member("recommended_block_size", s.recommended);
    w.member("blocks_per_sm", s.choice.blocks_per_sm);
    w.member("occupancy", s.choice.result.occupancy());
    w.member("dynamic_smem_bytes", s.choice.launch.dynamic_shared_memory_bytes);
    w.member("min_grid_size", resolved.sm_count
                                  ? std::optional<std::int64_t>(s.choice.blocks_per_sm * *resolved.sm_count)
                                  : std::nullopt);
    if (s.threads_given) {
      w.key("next_steps");
      w.begin_array();
      for (std::size_t i = 0; i < s.steps.size(); ++i) {
        const auto& step = s.steps[i];
        w.begin_object();
        w.member("resource", occcalc::to_string(step.limiter));
        w.member("current", step.current);
        w.member("needed", step.reachable ? std::optional<std::int64_t>(step.needed) : std::nullopt);
        w.member("blocks_per_sm", step.result.blocks_per_sm);
        w.member("occupancy", step.result.occupancy());
        if (step.limiter == resource::registers && step.reachable) {
          w.member("maxrregcount", step.needed);
          w.key("launch_bounds");
          w.begin_array();
          w.value(launch.threads_per_block);
          w.value(step.result.blocks_per_sm);
          w.end_array();
          w.member("launch_bounds_register_cap", s.register_caps[i]);
        }
        w.end_object();
      }
      w.end_array();
      w.key("together");
      w.begin_array();
      for (const auto& found : s.together) {
        w.begin_object();
        w.key("changes");
        write_changes(w, found.changes,
                      [](std::size_t id) { return occcalc::to_string(static_cast<occcalc::launch_knob>(id)); });
        w.member("relative_change", found.changes.cost);
        w.member("blocks_per_sm", found.result.blocks_per_sm);
        w.member("occupancy", found.result.occupancy());
        w.end_object();
      }
      w.end_array();
    } else {
      w.key("next_steps");
      w.null();
      w.key("together");
      w.null();
    }
    if (s.target) w.member("target_met", s.target_met);
    const auto& dynamic = s.dynamic;
    w.member("max_dynamic_smem_per_block", dynamic ? dynamic->cuda_bytes : std::nullopt);
    w.member("max_dynamic_smem_per_block_resident", dynamic ? dynamic->resident_bytes : std::nullopt);
    w.key("cluster");
    if (s.cluster_points.empty())
      w.null();
    else
      write_cluster_advice(w, s);
    w.end_object();
  });
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
                            choice.result.max_warps_per_sm, choice.result.occupancy() * percent_per_unit,
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
    text += "\n" +
            heading(fmt::format("Next steps from {} threads ({}, {:.1f}%, limited by {})", launch.threads_per_block,
                                counted(s.now.blocks_per_sm, "block", "blocks"), s.now.occupancy() * percent_per_unit,
                                occcalc::summarize(s.now).limiter_list(", ", true)),
                    term);
    if (s.target_met) text += fmt::format("  already at or above the {:.0f}% target\n", *s.target * percent_per_unit);
    // At 100% a step could only trade warps for blocks.
    if (!s.target && s.steps.empty()) text += "  nothing to gain: every warp the SM holds is resident (100%)\n";
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
      const auto& step = s.steps[i];
      const std::string name(occcalc::info(step.limiter).label);
      if (!step.reachable) {
        text += row(name, "-",
                    s.target ? fmt::format("cannot reach {:.0f}% alone", *s.target * percent_per_unit)
                             : std::string("cannot gain a block alone"),
                    term.columns);
        continue;
      }
      std::string note = fmt::format("{} {}: {}, {:.1f}%", step.needed, unit_of(step.limiter),
                                     counted(step.result.blocks_per_sm, "block", "blocks"),
                                     step.result.occupancy() * percent_per_unit);
      if (step.limiter == resource::registers) {
        note += fmt::format("; -maxrregcount={} or __launch_bounds__({}, {}) (ptxas caps at {})", step.needed,
                            launch.threads_per_block, step.result.blocks_per_sm, s.register_caps[i]);
      }
      text += row(name, fmt::format("{} -> {}", step.current, step.needed), note, term.columns);
    }
    if (!s.steps.empty() && !s.steps.front().reachable) text += together_text(s, term);
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
  if (!s.cluster_points.empty()) text += cluster_advice_text(s, term);
  return text;
}

}  // namespace occcalc::cli
