#include "render/nvidia_text.hpp"

#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "occcalc/nvidia/explain.hpp"
#include "occcalc/nvidia/summary.hpp"
#include "occcalc/request/parse.hpp"
#include "render/cluster.hpp"
#include "render/terminal.hpp"
#include "render/text_layout.hpp"
#include "render/text_table.hpp"

namespace occcalc::cli {

namespace {

using occcalc::infeasibility;
using occcalc::resource;

std::string carveout_text(const occcalc::launch_config& launch) {
  return launch.carveout_percent ? fmt::format("{}%", *launch.carveout_percent) : std::string("default");
}

std::string shared_memory_config_text(const query& q) {
  const auto& arch = *q.request.arch;
  const auto& launch = q.request.launch;
  switch (arch.shared_memory_config_model) {
    case occcalc::shared_memory_config::fixed: return "fixed";
    case occcalc::shared_memory_config::cache_config:
      return fmt::format("cache preference {}", occcalc::to_string(launch.cache));
    case occcalc::shared_memory_config::carveout:
      if (!launch.carveout_percent && launch.cache != occcalc::cache_preference::none) {
        return fmt::format("cache preference {} (as a carveout)", occcalc::to_string(launch.cache));
      }
      return fmt::format("carveout {}", carveout_text(launch));
  }
  return {};
}

/// How the limit of `r` came about, or why it is absent or 0.
std::string limit_note(const query& q, resource r) {
  const auto& arch = *q.request.arch;
  const auto& launch = q.request.launch;
  const auto& result = q.result;
  const auto& limit = result.limit(r);
  if (limit.reason != infeasibility::none) return occcalc::explain(limit.reason, arch, launch, result);
  switch (r) {
    case resource::warps:
      return fmt::format("{} warps per SM / {} per block", arch.max_warps_per_sm, result.warps_per_block);
    case resource::registers:
      if (!limit.blocks) return "no registers used";
      if (arch.register_scope == occcalc::register_allocation_scope::block) {
        return fmt::format("{} per SM / {} per block", arch.registers_per_sm, result.registers.per_block);
      }
      return fmt::format("{} partitions x {} warps of {} registers each / {} warps per block",
                         arch.register_file_partitions, result.registers.warps_per_partition, result.registers.per_warp,
                         result.warps_per_block);
    case resource::shared_memory:
      if (!limit.blocks) return "no shared memory used";
      return fmt::format("{} B per SM / {} B per block", result.shared_memory.per_sm_bytes.value_or(0),
                         result.shared_memory.per_block_bytes);
    case resource::blocks: return fmt::format("at most {} blocks per SM on {}", arch.max_blocks_per_sm, arch.id);
    case resource::barriers:
      if (!arch.block_barriers_per_sm) return fmt::format("not a limit on {}", arch.id);
      if (!limit.blocks) return "no barriers used";
      return fmt::format("{} barriers per SM / {} per block", *arch.block_barriers_per_sm, launch.barriers);
  }
  return {};
}

std::string registers_allocation_note(const query& q) {
  const auto& arch = *q.request.arch;
  const auto& launch = q.request.launch;
  const auto& result = q.result;
  const auto& registers = result.registers;
  if (arch.register_scope == occcalc::register_allocation_scope::block) {
    return fmt::format("{} x {} threads x {} warps (a multiple of {}), rounded up to a multiple of {}",
                       launch.registers_per_thread, arch.warp_size_threads, registers.warps_allocated,
                       arch.register_warp_allocation_multiple, registers.allocation_unit);
  }
  return fmt::format("{} per warp ({} x {} threads, rounded up to a multiple of {}) x {} warps", registers.per_warp,
                     launch.registers_per_thread, arch.warp_size_threads, registers.allocation_unit,
                     registers.warps_allocated);
}

std::string shared_memory_allocation_note(const query& q) {
  const auto& arch = *q.request.arch;
  const auto& launch = q.request.launch;
  std::string note = fmt::format("{} requested", launch.requested_shared_memory_bytes());
  if (arch.shared_memory_reserved_per_block_bytes > 0) {
    note += fmt::format(" + {} reserved by the driver", arch.shared_memory_reserved_per_block_bytes);
  }
  return note + fmt::format(", rounded up to a multiple of {}", arch.shared_memory_allocation_unit_bytes);
}

/// Waves per SM in hundredths rounded half up from the exact quotient, as
/// Nsight Compute shows them (138 / 400 is 0.35, not the binary double's
/// 0.34); `-` when no block runs.
std::string waves_text(std::int64_t grid, const occcalc::waves& w) {
  if (w.blocks_per_wave <= 0) return "-";
  const std::int64_t hundredths = (grid * 200 + w.blocks_per_wave) / (2 * w.blocks_per_wave);
  return fmt::format("{}.{:02}", hundredths / 100, hundredths % 100);
}

}  // namespace

void render_text(std::ostream& out, const query& q, const terminal& term) {
  const auto& arch = *q.request.arch;
  const auto& launch = q.request.launch;
  const auto& result = q.result;
  std::string text;
  std::string title = fmt::format("{} ({}, compute capability {})", arch.id, arch.family, arch.compute_capability());
  if (q.request.named_gpu) {
    title = fmt::format("{}, {} SMs: {}", q.request.named_gpu->name, q.request.named_gpu->sm_count, title);
  } else if (!q.request.family.empty()) {
    title = q.request.sm_count && !q.request.sm_count_given
                ? fmt::format("{}, {} SMs: {}", q.request.family_name, *q.request.sm_count, title)
                : fmt::format("{}: {}", q.request.family_name, title);
  }
  text += heading(title, term);
  if (!q.request.family.empty()) {
    std::vector<std::string> products;
    for (const occcalc::gpu* g : q.request.family) products.push_back(fmt::format("{} ({} SMs)", g->name, g->sm_count));
    text += wrap(fmt::format("{} GPUs answer to {}: {}; per SM, the answer below is each one's.",
                             q.request.family.size(), q.request.family_name, fmt::join(products, ", ")),
                 0, term.columns);
  }
  text += "\n";

  text += paint("Launch", style::bold, term.colour) + "\n";
  text += row("threads per block", std::to_string(launch.threads_per_block),
              counted(result.warps_per_block, "warp", "warps"), term.columns);
  text += row("registers per thread", std::to_string(launch.registers_per_thread), {}, term.columns);
  text +=
      row("shared memory per block", fmt::format("{} B", launch.requested_shared_memory_bytes()),
          fmt::format("{} static + {} dynamic", launch.static_shared_memory_bytes, launch.dynamic_shared_memory_bytes),
          term.columns);
  text += row("block barriers", std::to_string(launch.barriers), {}, term.columns);
  text += row("shared memory config", shared_memory_config_text(q), {}, term.columns);

  text += "\n" + paint("Allocated per block", style::bold, term.colour) + "\n";
  text += row("warps", std::to_string(result.warps_per_block), {}, term.columns);
  text += row("registers", std::to_string(result.registers.per_block), registers_allocation_note(q), term.columns);
  text += row("shared memory", fmt::format("{} B", result.shared_memory.per_block_bytes),
              shared_memory_allocation_note(q), term.columns);
  if (result.shared_memory.per_sm_bytes) {
    text += row("shared memory per SM", bytes_text(*result.shared_memory.per_sm_bytes), "configuration in use",
                term.columns);
  }

  text += "\n" + paint("Block limit per SM", style::bold, term.colour) + "\n";
  for (const auto r : occcalc::nvidia_resources) {
    const auto& limit = result.limit(r);
    const std::string name(occcalc::info(r).label);
    const std::string value = fmt::format("{:<6}", limit.blocks ? std::to_string(*limit.blocks) : "-");
    const bool limiter = result.limiters.contains(r);
    const std::string marker =
        paint(fmt::format("{:<7}", limiter ? "limiter" : ""), style::limiter, term.colour && limiter);
    text += row(name, limiter ? paint(value, style::limiter, term.colour) + marker : value + marker, limit_note(q, r),
                term.columns);
  }

  text += "\n" + paint("Active per SM", style::bold, term.colour) + "\n";
  text += row("blocks", std::to_string(result.blocks_per_sm), {}, term.columns);
  text += row("warps", fmt::format("{} of {}", result.active_warps_per_sm, result.max_warps_per_sm), {}, term.columns);
  text += row("threads", fmt::format("{} of {}", result.active_threads_per_sm, arch.max_threads_per_sm()), {},
              term.columns);

  const std::string limiters = occcalc::summarize(result).limiter_list(", ", true);
  const double percent = result.occupancy() * 100.0;
  const style level = occupancy_style(result.blocks_per_sm > 0, percent);
  text += "\n" + occupancy_line(percent, level, limiters, term);
  if (!q.family_waves.empty()) {
    // A family whose products differ in SMs: the waves of each.
    text += "\n" + heading(fmt::format("Waves of {} on each {}", counted(*q.request.grid_blocks, "block", "blocks"),
                                       q.request.family_name),
                           term);
    std::vector<std::vector<table_cell>> rows;
    for (const auto& [g, w] : q.family_waves) {
      rows.push_back({{g->name},
                      {std::to_string(g->sm_count)},
                      {std::to_string(w.blocks_per_wave)},
                      {waves_text(*q.request.grid_blocks, w)},
                      {std::to_string(w.full_waves)},
                      {w.blocks_per_wave > 0 ? fmt::format("{:.1f}%", w.tail_utilization * 100.0) : "-"}});
    }
    text += format_table({{"gpu"},
                          {"SMs", true},
                          {"blocks/wave", true, 2},
                          {"waves/SM", true},
                          {"full waves", true, 1},
                          {"last wave", true}},
                         rows, term, {});
  }
  if (q.waves) {
    const auto& w = *q.waves;
    const auto sms = *q.request.sm_count;
    const std::string device = device_text(sms, "SMs", q.request.device_name(), q.request.sm_count_given);
    text += "\n" +
            heading(fmt::format("Waves of {} on {}", counted(*q.request.grid_blocks, "block", "blocks"), device), term);
    const std::string per_wave =
        runs_in_clusters(q)
            ? fmt::format("{} x {}: the clusters that run at once (below)",
                          counted(q.clusters.front().clusters.most, "cluster", "clusters"),
                          counted(q.request.cluster->blocks(), "block", "blocks"))
            : fmt::format("{} x {}", counted(sms, "SM", "SMs"), counted(result.blocks_per_sm, "block", "blocks"));
    text += row("blocks per wave", std::to_string(w.blocks_per_wave), per_wave, term.columns);
    if (w.blocks_per_wave > 0) {
      text += row("waves per SM", waves_text(*q.request.grid_blocks, w), "grid / blocks per wave (Nsight Compute)",
                  term.columns);
      text += row("full waves", std::to_string(w.full_waves), {}, term.columns);
      const style tail = w.tail_utilization >= 0.5 ? style::good : style::warn;
      text += row("last wave", paint(fmt::format("{:.1f}% full", w.tail_utilization * 100.0), tail, term.colour),
                  "the tail effect", term.columns);
      text += row("whole-wave grids",
                  w.whole_waves_below > 0 && w.whole_waves_below != w.whole_waves_above
                      ? fmt::format("{} or {}", w.whole_waves_below, w.whole_waves_above)
                      : std::to_string(w.whole_waves_above),
                  "the nearest grid sizes that fill every wave", term.columns);
    }
  }
  text += cluster_text(q, term);
  out << text;
}

void render_arch_list(std::ostream& out, const occcalc::table& tables, const terminal& term) {
  // Narrow terminals leave out the configuration, opt-in, block size and
  // family first.
  const std::vector<table_column> columns = {{"id"},
                                             {"cc"},
                                             {"family", false, 6},
                                             {"warps", true, 4},
                                             {"blocks", true, 5},
                                             {"thr/blk", true, 7},
                                             {"regs", true, 2},
                                             {"smem/SM", true, 3},
                                             {"optin", true, 8},
                                             {"config", false, 9}};
  std::vector<std::vector<table_cell>> rows;
  const auto kib = [](std::int64_t bytes) {
    return bytes % occcalc::bytes_per_kib == 0 ? fmt::format("{}K", bytes / occcalc::bytes_per_kib)
                                               : std::to_string(bytes);
  };
  for (const auto& arch : tables.architectures) {
    const std::string optin =
        arch.shared_memory_per_block_optin_bytes ? kib(*arch.shared_memory_per_block_optin_bytes) : "-";
    const char* config = arch.shared_memory_config_model == occcalc::shared_memory_config::carveout ? "carveout"
                         : arch.shared_memory_config_model == occcalc::shared_memory_config::cache_config
                             ? "cache config"
                             : "fixed";
    rows.push_back({{arch.id},
                    {arch.compute_capability()},
                    {arch.family},
                    {std::to_string(arch.max_warps_per_sm)},
                    {std::to_string(arch.max_blocks_per_sm)},
                    {std::to_string(arch.max_threads_per_block)},
                    {kib(arch.registers_per_sm)},
                    {kib(arch.shared_memory_per_sm_bytes)},
                    {optin},
                    {config}});
  }
  out << format_table(columns, rows, term, {0, 1});
  out << wrap("(K = KiB; regs: registers per SM; optin: the opt-in shared memory per block)", 0, term.columns);
}

void render_gpu_list(std::ostream& out, const occcalc::table& tables, const terminal& term) {
  std::vector<std::vector<table_cell>> rows;
  for (const auto& g : tables.gpus) {
    rows.push_back({{g.name}, {g.arch_id}, {std::to_string(g.sm_count)}, {g.id}});
  }
  out << format_table({{"name"}, {"arch"}, {"SMs", true}, {"id", false, 1}}, rows, term, {0, 2});
}

}  // namespace occcalc::cli
