// Output of `occcalc suggest` for AMD: the HIP runtime's block size search,
// the next steps under HIP's and RCP's models, and the compiler's next
// steps (--model llvm); text and JSON (schema/suggest.schema.json).
#include <fmt/format.h>

#include "occcalc/amd/summary.hpp"
#include "occcalc/common/percent.hpp"
#include "occcalc/version.hpp"
#include "render/amd_text.hpp"
#include "render/json_writer.hpp"
#include "render/suggest_report.hpp"
#include "render/table_entry_json.hpp"
#include "render/terminal.hpp"
#include "render/text_layout.hpp"

namespace occcalc::cli {

namespace {

std::string unit_name(const amd_suggestion& s) {
  return (s.searched ? s.choice.result.per_wgp : s.now.per_wgp) ? "WGP" : "CU";
}

/// What a step's figure counts, and how to make the change.
std::pair<std::string, std::string> amd_step_words(occcalc::amd_resource r, std::int64_t goal) {
  switch (r) {
    case occcalc::amd_resource::vgprs:
    case occcalc::amd_resource::agprs:
    case occcalc::amd_resource::sgprs:
      return {r == occcalc::amd_resource::sgprs ? "per wave" : "per work-item",
              fmt::format("__attribute__((amdgpu_waves_per_eu({}))) on the kernel (the compiler then spills what "
                          "does not fit: check the scratch), or fewer live values",
                          goal)};
    case occcalc::amd_resource::lds: return {"B per work-group", "a smaller tile, or fewer LDS buffers"};
    default: break;
  }
  return {};
}

/// The limiters, in report order.
void write_limiters(json_writer& w, const occcalc::amd_resource_set& limiters) {
  w.key("limiters");
  w.begin_array();
  for (const auto res : occcalc::amd_resources) {
    if (limiters.contains(res)) w.value(occcalc::to_string(res));
  }
  w.end_array();
}

/// `arch`, `gpu` and `device`: the target and the named GPU.
void write_target(json_writer& w, const occcalc::amd_target& target, const occcalc::amd_gpu* gpu) {
  w.member("arch", target.id);
  w.member("gpu", gpu ? std::optional<std::string_view>(gpu->name) : std::nullopt);
  w.key("device");
  write_entry_or_null(w, gpu);
}

/// The words for a knob's change in a text row.
std::string amd_knob_label(occcalc::amd_knob k) {
  switch (k) {
    case occcalc::amd_knob::vgprs: return "VGPRs";
    case occcalc::amd_knob::agprs: return "AGPRs";
    case occcalc::amd_knob::sgprs: return "SGPRs";
    case occcalc::amd_knob::lds: return "LDS";
    case occcalc::amd_knob::work_group_size: return "work-group size";
  }
  return {};
}

/// How to make an AMD change, the occupancy it reaches in waves per SIMD.
std::string amd_how(occcalc::amd_knob k, const occcalc::amd_occupancy_result& result) {
  if (k == occcalc::amd_knob::work_group_size) return "launch so, and amdgpu_flat_work_group_size to match";
  const auto waves = occcalc::detail::divide_round_up(result.active_waves, result.simds);
  return amd_step_words(k == occcalc::amd_knob::lds ? occcalc::amd_resource::lds : occcalc::amd_resource::vgprs, waves)
      .second;
}

/// The next steps under HIP's or RCP's model, and where none gets there
/// alone, the cheapest changes that do.
std::string amd_steps_text(const amd_suggestion& s, const terminal& term) {
  const std::string unit = unit_name(s);
  const auto summary = occcalc::summarize(s.now);
  std::string text =
      "\n" +
      heading(fmt::format(
                  "Next steps from work-groups of {} ({} per {}, {:.1f}%{})", s.resolved.work_group_size,
                  counted(s.now.work_groups, "work-group", "work-groups"), unit, s.now.occupancy() * percent_per_unit,
                  summary.limiter_list(", ", true).empty() ? std::string()
                                                           : ", limited by " + summary.limiter_list(", ", true)),
              term);
  if (s.target_met)
    return text + fmt::format("  already at or above the {:.0f}% target\n", *s.target * percent_per_unit);
  if (s.steps.empty()) return text + "  nothing to gain: every wave slot is filled (100%)\n";
  const std::string goal = goal_words(s.target);
  const auto outcome = [&](const occcalc::amd_occupancy_result& result) {
    return fmt::format("{}, {:.1f}%", counted(result.work_groups, "work-group", "work-groups"),
                       result.occupancy() * percent_per_unit);
  };
  for (const auto& step : s.steps) {
    const std::string name = amd_knob_label(step.knob);
    if (!step.reachable) {
      text += row(name, "-", fmt::format("cannot {} alone", goal), term.columns);
      continue;
    }
    text += row(name, fmt::format("{} -> {}", step.current, step.needed),
                outcome(step.result) + "; " + amd_how(step.knob, step.result), term.columns);
  }
  if (s.steps.front().reachable) return text;
  std::vector<together_row> rows;
  for (const auto& found : s.together) rows.push_back({&found.changes, outcome(found.result)});
  return text + together_text(
                    rows, "the registers, the LDS or the work-group size", goal,
                    [](std::size_t id) { return amd_knob_label(static_cast<occcalc::amd_knob>(id)); }, term);
}

}  // namespace

std::string suggest_json(const amd_suggestion& s) {
  const auto& r = s.resolved;
  const auto& choice = s.choice;
  return pretty_document([&](json_writer& w) {
    // What the block size search found, or null where it did not search.
    const auto found = [&](std::string_view name, auto value) {
      w.key(name);
      if (s.searched)
        w.value(value);
      else
        w.null();
    };
    w.begin_object();
    w.member("schema_version", occcalc::suggest_schema_version);
    write_target(w, *r.target, r.named_gpu);
    w.member("model", occcalc::to_string(r.model));
    w.member("unit", (s.searched ? choice.result.per_wgp : s.now.per_wgp) ? "wgp" : "cu");
    found("block_size", choice.block_size);
    found("blocks_per_sm", choice.blocks_per_unit);
    found("occupancy", choice.result.occupancy());
    w.member("min_grid_size", s.searched && r.compute_units ? std::optional<std::int64_t>(s.min_grid) : std::nullopt);
    if (!s.threads_given) {
      for (const auto name : {"now", "next_steps", "together"}) {
        w.key(name);
        w.null();
      }
      w.end_object();
      return;
    }
    w.key("now");
    w.begin_object();
    w.member("work_group_size", r.work_group_size);
    w.member("work_groups", s.now.work_groups);
    w.member("occupancy", s.now.occupancy());
    write_limiters(w, s.now.limiters);
    w.end_object();
    w.key("next_steps");
    w.begin_array();
    for (const auto& step : s.steps) {
      w.begin_object();
      w.member("resource", occcalc::to_string(step.limiter));
      w.member("knob", occcalc::to_string(step.knob));
      w.member("current", step.current);
      w.member("needed", step.reachable ? std::optional<std::int64_t>(step.needed) : std::nullopt);
      w.member("work_groups", step.result.work_groups);
      w.member("occupancy", step.result.occupancy());
      w.end_object();
    }
    w.end_array();
    w.key("together");
    w.begin_array();
    for (const auto& found_changes : s.together) {
      w.begin_object();
      w.key("changes");
      write_changes(w, found_changes.changes,
                    [](std::size_t id) { return occcalc::to_string(static_cast<occcalc::amd_knob>(id)); });
      w.member("relative_change", found_changes.changes.cost);
      w.member("work_groups", found_changes.result.work_groups);
      w.member("occupancy", found_changes.result.occupancy());
      w.end_object();
    }
    w.end_array();
    if (s.target) {
      w.member("target", *s.target);
      w.member("target_met", s.target_met);
    }
    w.end_object();
  });
}

std::string suggest_json(const amd_llvm_suggestion& s) {
  const auto& r = s.resolved;
  return pretty_document([&](json_writer& w) {
    w.begin_object();
    w.member("schema_version", occcalc::suggest_schema_version);
    write_target(w, *r.target, r.named_gpu);
    w.member("model", occcalc::to_string(occcalc::amd_model::llvm));
    w.member("unit", s.now.per_wgp ? "wgp" : "cu");
    w.member("work_group_size", r.work_group_size);
    w.member("waves_per_simd", s.now.waves_per_simd);
    w.member("occupancy", s.now.occupancy());
    write_limiters(w, s.now.limiters);
    w.member("target", s.target);
    w.member("goal_waves_per_simd", s.plan ? std::optional<std::int64_t>(s.plan->goal_waves) : std::nullopt);
    w.member("reachable", s.plan ? std::optional<bool>(s.plan->reachable) : std::nullopt);
    w.key("steps");
    w.begin_array();
    if (s.plan) {
      for (const auto& step : s.plan->steps) {
        w.begin_object();
        w.member("resource", occcalc::to_string(step.resource));
        w.member("from", step.from);
        w.member("to", step.to);
        w.end_object();
      }
    }
    w.end_array();
    w.end_object();
  });
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
          fmt::format("{:.1f}%, work-groups of {}{}", s.now.waves_per_simd / max * percent_per_unit, r.work_group_size,
                      summary.limiter_list(", ", true).empty() ? std::string()
                                                               : ", limited by " + summary.limiter_list(", ", true)),
          term.columns);
  if (!s.plan) {
    text += "\n" + wrap(s.target_met ? fmt::format("The target, {:.1f}%, is met: nothing to change.",
                                                   *s.target * percent_per_unit)
                                     : fmt::format("Nothing to gain: {} waves per SIMD is the most a SIMD of {} holds.",
                                                   t.max_waves_per_simd, t.id),
                        0, term.columns);
    return text;
  }
  const auto& plan = *s.plan;
  const std::string goal = fmt::format("{} waves per SIMD ({:.1f}%)", plan.goal_waves,
                                       static_cast<double>(plan.goal_waves) / max * percent_per_unit);
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
  std::string text = heading(
      fmt::format("{}{} ({}): {}", r.named_gpu ? r.named_gpu->name + ", " : std::string(), t.id, t.family,
                  s.searched ? "the HIP runtime's hipOccupancyMaxPotentialBlockSize" : "next steps under RCP's model"),
      term);
  if (s.searched) {
    text += row("block size", std::to_string(choice.block_size),
                choice.block_size == choice.alu_threads
                    ? fmt::format("the work-items a {} holds ({}), at most {}", unit, s.alu_limiters, s.size_limit)
                    : fmt::format("the size limit{}; a {} holds {}",
                                  choice.block_size == s.size_limit
                                      ? std::string()
                                      : fmt::format(", {} rounded up to whole waves", s.size_limit),
                                  unit, choice.alu_threads),
                term.columns);
    text += row(fmt::format("work-groups per {}", unit), std::to_string(choice.blocks_per_unit), {}, term.columns);
    text += row("occupancy", fmt::format("{:.1f}%", choice.result.occupancy() * percent_per_unit),
                fmt::format("{} of {} waves per {}", choice.result.active_waves, choice.result.max_waves, unit),
                term.columns);
    if (r.compute_units) {
      text +=
          row("min grid size", std::to_string(s.min_grid),
              fmt::format("{} {}s x {}", s.units, unit, counted(choice.blocks_per_unit, "work-group", "work-groups")),
              term.columns);
    }
  }
  if (s.threads_given) text += amd_steps_text(s, term);
  return text;
}

}  // namespace occcalc::cli
