#include "render/amd_text.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "occcalc/amd/summary.hpp"
#include "occcalc/request/parse.hpp"
#include "render/result_json.hpp"
#include "render/terminal.hpp"
#include "render/text_layout.hpp"
#include "render/text_table.hpp"

namespace occcalc::cli {

namespace {

using occcalc::amd_model;
using occcalc::amd_resource;

std::string_view unit_name(const occcalc::amd_occupancy_result& r) { return r.per_wgp ? "WGP" : "CU"; }

/// The number of a waves-per-SIMD figure: whole, or with two decimals.
std::string waves_text(double waves) {
  if (waves == std::floor(waves)) return fmt::format("{}", static_cast<std::int64_t>(waves));
  return fmt::format("{:.2f}", waves);
}

/// How the limit of `res` came about, or why it is absent.
std::string limit_note(const amd_query& q, amd_resource res) {
  const auto& t = *q.request.target;
  const auto& k = q.request.kernel;
  const auto& r = q.result;
  const auto model = q.request.model;
  const std::string_view unit = unit_name(r);
  const std::string per_group = fmt::format("{} waves per work-group", r.waves_per_work_group);
  const auto spread = [&](std::int64_t waves_per_simd) {
    return fmt::format("{} per SIMD x {} SIMDs / {}", waves_per_simd, r.simds, per_group);
  };
  const bool present = r.limit(res).has_value();
  switch (res) {
    case amd_resource::wave_slots:
      if (model == amd_model::rcp) return fmt::format("{} waves per CU / {}", r.max_waves, per_group);
      if (model == amd_model::llvm && r.waves_per_work_group == 1) {
        return fmt::format("{} slots per {}, one work-group each", r.max_waves, unit);
      }
      return spread(r.max_waves_per_simd);
    case amd_resource::vgprs:
    case amd_resource::agprs: {
      const bool agprs = res == amd_resource::agprs;
      if (!present) {
        if (agprs)
          return t.max_agprs_per_wave == 0 ? "no AGPRs on " + t.id
                 : t.unified_vgpr_file     ? "in the unified VGPR file"
                                           : "no AGPRs used";
        return "below one allocation granule: not a limit";
      }
      const auto& terms = r.terms_of(res);
      const std::string rounded = terms.granule > 1 ? fmt::format(" rounded up to {}", terms.granule) : std::string();
      if (model == amd_model::rcp) {
        if (r.simds == 1) {
          return fmt::format("{} available / {}{} = {} waves per CU, in whole work-groups of {} waves", terms.pool,
                             terms.count, rounded, terms.waves_per_simd, r.waves_per_work_group);
        }
        return fmt::format("{} available / {}{} = {} waves per SIMD, x {} SIMDs / {}", terms.pool, terms.count, rounded,
                           terms.waves_per_simd, r.simds, per_group);
      }
      std::string what = std::to_string(terms.count);
      if (!agprs && terms.count != k.vgprs) {
        what += t.unified_vgpr_file ? fmt::format(" (VGPRs rounded up to 4 + {} AGPRs)", k.agprs)
                                    : fmt::format(" (the larger of {} VGPRs and {} AGPRs)", k.vgprs, k.agprs);
      }
      return fmt::format("{} per SIMD / {} rounded up to {} = {} waves per SIMD, x {} SIMDs / {}", terms.pool, what,
                         terms.granule, terms.waves_per_simd, r.simds, per_group);
    }
    case amd_resource::sgprs: {
      if (!present) {
        if (!t.sgprs_per_simd && model != amd_model::rcp) return "each wave has its own SGPRs on " + t.id;
        return t.max_sgprs_per_wave == 0 ? "no SGPRs on " + t.id : "no SGPRs used";
      }
      const auto& terms = r.terms_of(res);
      if (model == amd_model::rcp) {
        return fmt::format("{} per SIMD / ({} + {} for VCC, rounded up to {}) = {} waves per SIMD, x {} SIMDs / {}",
                           terms.pool, terms.count, terms.added, terms.granule, terms.waves_per_simd, r.simds,
                           per_group);
      }
      if (terms.stepped) {
        return fmt::format("{} SGPRs, in the compiler's step of at most {} = {} waves per SIMD, x {} SIMDs / {}",
                           terms.count, terms.pool, terms.waves_per_simd, r.simds, per_group);
      }
      return fmt::format("{} per SIMD / {} rounded up to {} = {} waves per SIMD, x {} SIMDs / {}", terms.pool,
                         terms.count, terms.granule, terms.waves_per_simd, r.simds, per_group);
    }
    case amd_resource::lds: {
      if (!present) return "no LDS used";
      const auto& terms = r.terms_of(res);
      const std::string whose =
          model == amd_model::hip ? " (HIP divides the LDS one work-group may use)" : fmt::format(" per {}", unit);
      return fmt::format("{}{} / {} B per work-group", bytes_text(terms.pool), whose, terms.count);
    }
    case amd_resource::work_groups:
      if (!present) return fmt::format("no cap in the {} model", occcalc::to_string(model));
      return fmt::format("at most {} work-groups{} per CU", *r.limit(res),
                         r.waves_per_work_group == 1 ? " of one wave" : " of more than one wave");
    case amd_resource::barriers:
      if (!present) {
        if (!occcalc::info(model).counts_barriers) {
          return fmt::format("not counted in the {} model", occcalc::to_string(model));
        }
        return "one-wave work-groups need no barrier";
      }
      return fmt::format("{} per {}, one per multi-wave work-group", *r.limit(res), unit);
  }
  return {};
}

/// Whether the text breakdown shows `res`: the target has it and the model
/// counts it.
bool applies(const amd_query& q, amd_resource res) {
  const auto& t = *q.request.target;
  switch (res) {
    case amd_resource::agprs: return t.max_agprs_per_wave > 0 && !t.unified_vgpr_file;
    case amd_resource::sgprs: return t.max_sgprs_per_wave > 0;
    case amd_resource::work_groups: return occcalc::info(q.request.model).caps_work_groups;
    case amd_resource::barriers: return occcalc::info(q.request.model).counts_barriers;
    case amd_resource::wave_slots:
    case amd_resource::vgprs:
    case amd_resource::lds: break;
  }
  return true;
}

}  // namespace

std::string amd_limit_reason(const amd_query& q, occcalc::amd_resource res) {
  std::string note = limit_note(q, res);
  if (q.result.limit(res) == 0) {
    note += fmt::format(": not one work-group of {} waves fits", q.result.waves_per_work_group);
  }
  return note;
}

void render_amd_text(std::ostream& out, const amd_query& q, const terminal& term) {
  const auto& t = *q.request.target;
  const auto& k = q.request.kernel;
  const auto& r = q.result;
  const std::string_view unit = unit_name(r);
  std::string text;
  std::string title = fmt::format("{} ({})", t.id, t.family);
  if (q.request.named_gpu) {
    title = fmt::format("{}, {} CUs: {}", q.request.named_gpu->name, q.request.named_gpu->compute_units, title);
  }
  text += heading(title, term);
  text += wrap(fmt::format("model {}: {}", occcalc::to_string(r.model), occcalc::info(r.model).title), 0, term.columns);
  if (!t.members.empty()) {
    text += wrap(fmt::format("generic target: its code runs on {}; the compiler sizes it for all of them",
                             occcalc::detail::join(t.members, ", ")),
                 0, term.columns);
  }
  text += "\n";

  text += paint("Launch", style::bold, term.colour) + "\n";
  text += row("work-group size", std::to_string(q.request.work_group_size),
              fmt::format("{} of {}", counted(r.waves_per_work_group, "wave", "waves"), r.wave_size), term.columns);
  if (t.has_wgp_mode)
    text += row("mode", r.per_wgp ? "WGP" : "CU", r.per_wgp ? "two CUs share work-groups" : "", term.columns);
  text += row("VGPRs per work-item", std::to_string(k.vgprs), {}, term.columns);
  if (t.max_agprs_per_wave > 0) {
    text += row("AGPRs per work-item", std::to_string(k.agprs), t.unified_vgpr_file ? "unified with the VGPRs" : "",
                term.columns);
  }
  if (t.max_sgprs_per_wave > 0) text += row("SGPRs per wave", std::to_string(k.sgprs), {}, term.columns);
  text += row("LDS per work-group", bytes_text(k.lds_bytes), {}, term.columns);

  const bool per_simd = occcalc::info(r.model).settles_per_simd;
  const std::string limits_heading = fmt::format("Work-group limit per {}", unit);
  const std::string columns = per_simd ? "groups  waves/SIMD" : "groups";
  const std::size_t heading_width = static_cast<std::size_t>(label_width) + 2 + columns.size();
  text += "\n" + paint(limits_heading, style::bold, term.colour) +
          (heading_width <= term.columns
               ? fmt::format("{:>{}}", columns, static_cast<int>(heading_width - limits_heading.size()))
               : "\n  (" + columns + ")") +
          "\n";
  for (const auto res : occcalc::amd_resources) {
    if (!applies(q, res)) continue;
    const auto& limit = r.limit(res);
    const bool limiter = r.limiters.contains(res);
    std::string value = fmt::format("{:<8}", limit ? std::to_string(*limit) : "-");
    if (per_simd) {
      const auto& waves = r.limits_waves_per_simd[static_cast<std::size_t>(res)];
      value += fmt::format("{:<11}", waves ? std::to_string(*waves) : "-");
    }
    const std::string marker =
        paint(fmt::format("{:<8}", limiter ? "limiter" : ""), style::limiter, term.colour && limiter);
    text += row(occcalc::info(res).label, limiter ? paint(value, style::limiter, term.colour) + marker : value + marker,
                limit_note(q, res), term.columns);
  }

  const bool llvm = r.model == amd_model::llvm;  // the compiler's own words
  text += "\n" + paint(fmt::format("Active per {}", unit), style::bold, term.colour) + "\n";
  text += row("work-groups", std::to_string(r.work_groups), {}, term.columns);
  text += row(
      "waves", fmt::format("{} of {}", r.active_waves, r.max_waves),
      llvm && r.active_waves != r.work_groups * r.waves_per_work_group
          ? fmt::format("the compiler's {} per SIMD x {} SIMDs; {} work-groups hold {}", waves_text(r.waves_per_simd),
                        r.simds, r.work_groups, r.work_groups * r.waves_per_work_group)
          : "",
      term.columns);
  text += row("waves per SIMD", fmt::format("{} of {}", waves_text(r.waves_per_simd), r.max_waves_per_simd),
              r.work_groups == 0
                  ? fmt::format("a work-group of {} waves does not fit: it cannot launch", r.waves_per_work_group)
              : llvm ? "the compiler's ; Occupancy:"
                     : "",
              term.columns);
  text += row("work-items", std::to_string(r.work_groups * q.request.work_group_size), {}, term.columns);

  const double percent = r.occupancy() * 100.0;
  const style level = occupancy_style(r.work_groups > 0, percent);
  text += "\n" + occupancy_line(percent, level, occcalc::summarize(r).limiter_list(", ", true), term);
  if (q.waves) {
    const auto& w = *q.waves;
    const auto cus = *q.request.compute_units;
    const std::string device = device_text(cus, "CUs", q.request.named_gpu ? &q.request.named_gpu->name : nullptr,
                                           q.request.compute_units_given);
    text += "\n" + heading(fmt::format("Waves of {} work-groups on {}", *q.request.grid_work_groups, device), term);
    text += row("work-groups per wave", std::to_string(w.blocks_per_wave),
                fmt::format("{} {}s x {}", q.units(), unit, counted(r.work_groups, "work-group", "work-groups")),
                term.columns);
    if (w.blocks_per_wave > 0) {
      text += row("waves", fmt::format("{:.2f}", w.waves_per_sm), "grid / work-groups per wave", term.columns);
      text += row("full waves", std::to_string(w.full_waves), {}, term.columns);
      text +=
          row("last wave", fmt::format("{:.1f}% full", w.tail_utilization * 100.0), "the tail effect", term.columns);
    }
  }
  out << text;
}

void render_amd_target_list(std::ostream& out, const occcalc::table& tables, const terminal& term) {
  // Narrow terminals leave out the wave sizes, models, SIMDs and family first.
  const std::vector<table_column> columns = {{"id"},
                                             {"family", false, 5},
                                             {"models", false, 7},
                                             {"waves", true},
                                             {"SIMDs", true, 6},
                                             {"VGPRs/gran", true, 3},
                                             {"SGPRs", true, 4},
                                             {"LDS/CU", true, 2},
                                             {"wave sizes", false, 8}};
  std::vector<std::vector<table_cell>> rows;
  for (const auto& t : tables.amd_targets) {
    std::string models, sizes;
    for (const auto m : t.models) models += (models.empty() ? "" : ",") + std::string(occcalc::to_string(m));
    for (const auto& f : t.vgpr_files) sizes += (sizes.empty() ? "" : ",") + std::to_string(f.wave_size);
    if (t.has_wgp_mode) sizes += " CU/WGP";
    const auto& first = t.vgpr_files.front();
    rows.push_back({{t.id},
                    {t.family},
                    {models},
                    {std::to_string(t.max_waves_per_simd)},
                    {std::to_string(t.simds_per_cu)},
                    {fmt::format("{}/{}", first.total, first.granule)},
                    {t.sgprs_per_simd ? std::to_string(*t.sgprs_per_simd) : "-"},
                    {t.lds_per_cu_bytes % occcalc::bytes_per_kib == 0
                         ? fmt::format("{}K", t.lds_per_cu_bytes / occcalc::bytes_per_kib)
                         : std::to_string(t.lds_per_cu_bytes)},
                    {sizes}});
  }
  out << format_table(columns, rows, term, {0, 1});
}

void render_amd_gpu_list(std::ostream& out, const occcalc::table& tables, const terminal& term) {
  std::vector<std::vector<table_cell>> rows;
  for (const auto& g : tables.amd_gpus) {
    rows.push_back({{g.name}, {g.target_id}, {std::to_string(g.compute_units)}, {g.id}});
  }
  out << format_table({{"name"}, {"target"}, {"CUs", true}, {"id", false, 1}}, rows, term, {0, 2});
}

}  // namespace occcalc::cli
