#include "commands/suggest.hpp"

#include <ostream>

#include <fmt/format.h>

#include "occcalc/amd/hip.hpp"
#include "occcalc/amd/steps.hpp"
#include "occcalc/amd/summary.hpp"
#include "occcalc/common/percent.hpp"
#include "occcalc/nvidia/suggest.hpp"
#include "occcalc/request/amd.hpp"
#include "occcalc/request/parse.hpp"
#include "occcalc/request/resolve.hpp"
#include "render/suggest_report.hpp"

namespace occcalc::cli {

namespace {

/// --target: a whole percent.
std::optional<std::int64_t> parse_target_percent(const suggest_options& options) {
  if (options.target.empty()) return std::nullopt;
  return occcalc::parse_count("target", options.target, {1, 100});
}

/// --target as a fraction.
std::optional<double> parse_target(const suggest_options& options) {
  const auto hundredths = parse_target_percent(options);
  return hundredths ? std::optional<double>(static_cast<double>(*hundredths) / percent_per_unit) : std::nullopt;
}

/// `suggest --model llvm` for AMD: the compiler's occupancy of the kernel at
/// its work-group size and the changes that reach the next level (or
/// --target), every resource above that level's limit brought to it.
exit_status run_llvm_suggest(occcalc::resolved_amd_request r, bool threads_given, const suggest_options& options,
                             bool json, std::ostream& out, const terminal& term) {
  for (const auto& [flag, value] :
       {std::pair<const char*, const std::string*>{"dyn_smem_per_thread", &options.dynamic_per_thread},
        {"blocks", &options.blocks},
        {"max_threads", &options.max_threads}}) {
    if (!value->empty()) {
      throw occcalc::input_error(flag,
                                 "applies to the block size searches (NVIDIA's, HIP's), not to the "
                                 "compiler's next steps; give " +
                                     occcalc::field_ref("model") + " hip for HIP's");
    }
  }
  if (!threads_given) {
    throw occcalc::input_error("threads", "is needed: the compiler's next steps start from the work-group size");
  }
  r.model = occcalc::amd_model::llvm;
  occcalc::detail::throw_if(occcalc::detail::amd_model_problem(*r.target, r.model));
  const auto& t = *r.target;
  amd_llvm_suggestion s;
  s.resolved = r;
  s.now = occcalc::amd_llvm_result(t, r.kernel, r.mode, r.work_group_size);
  const auto waves = static_cast<std::int64_t>(s.now.waves_per_simd);
  std::int64_t goal = waves + 1;
  if (const auto hundredths = parse_target_percent(options)) {
    s.target = static_cast<double>(*hundredths) / percent_per_unit;
    // The fewest waves per SIMD that reach the target.
    goal = (*hundredths * t.max_waves_per_simd + static_cast<std::int64_t>(percent_per_unit) - 1) /
           static_cast<std::int64_t>(percent_per_unit);
    s.target_met = waves >= goal;
  }
  if (!s.target_met && waves < t.max_waves_per_simd) s.plan = occcalc::amd_llvm_plan_for(t, r.kernel, r.mode, goal);
  out << (json ? suggest_json(s) : suggest_text(s, term));
  return exit_status::ok;
}

/// `suggest` for AMD: the HIP runtime's hipOccupancyMaxPotentialBlockSize,
/// the one block size search AMD's tools have, and with --threads the next
/// steps under the model asked for (HIP's, RCP's); the compiler's own next
/// steps under `--model llvm`, the default with --threads where the query's
/// default is the compiler's.
exit_status run_suggest_for(occcalc::resolved_amd_request r, const std::optional<std::string>& model_asked,
                            bool threads_given, const suggest_options& options, bool json, std::ostream& out,
                            const terminal& term) {
  // resolve_any has refused any name but llvm, hip and rcp. Without
  // --model, next steps are the query's default model's (the compiler's on
  // GCN, CDNA and RDNA), so suggest and the query answer alike; the block
  // size search, which only HIP has, is HIP's.
  const std::string model_name = model_asked     ? occcalc::detail::lower(occcalc::detail::trim(*model_asked))
                                 : threads_given ? std::string(occcalc::to_string(r.model))
                                                 : std::string("hip");
  if (model_name == "llvm") return run_llvm_suggest(std::move(r), threads_given, options, json, out, term);
  for (const auto& [flag, value] :
       {std::pair<const char*, const std::string*>{"dyn_smem_per_thread", &options.dynamic_per_thread},
        {"blocks", &options.blocks}}) {
    if (!value->empty()) {
      throw occcalc::input_error(flag,
                                 "applies to NVIDIA only: for AMD, suggest answers with the HIP runtime's "
                                 "block size search and the model's next steps");
    }
  }
  r.model = model_name == "rcp" ? occcalc::amd_model::rcp : occcalc::amd_model::hip;
  occcalc::detail::throw_if(occcalc::detail::amd_model_problem(*r.target, r.model));
  const auto& t = *r.target;
  amd_suggestion s;
  s.target = parse_target(options);
  if (r.model == occcalc::amd_model::rcp) {
    if (!threads_given) {
      throw occcalc::input_error("threads",
                                 "is needed: RCP's model has no block size search, and its next steps "
                                 "start from the work-group size");
    }
    if (!options.max_threads.empty()) {
      throw occcalc::input_error("max_threads", "applies to the HIP runtime's block size search, not to RCP's model");
    }
  } else {
    std::int64_t limit = 0;
    if (!options.max_threads.empty()) {
      limit = occcalc::parse_count("max_threads", options.max_threads, {1, t.max_work_group_size});
    }
    s.searched = true;
    s.choice = occcalc::amd_hip_max_potential_block_size(t, r.kernel, r.mode, limit);
    s.size_limit = limit > 0 ? limit : t.max_work_group_size;
    s.alu_limiters =
        occcalc::summarize(occcalc::amd_hip_result(t, r.kernel, r.mode, r.mode.wave_size)).limiter_list(", ", true);
    // HIP counts WGPs as its multiprocessors in WGP mode.
    s.units = r.compute_units ? *r.compute_units / (s.choice.result.per_wgp ? occcalc::cus_per_wgp : 1) : 0;
    s.min_grid = s.units * s.choice.blocks_per_unit;
  }
  if (s.target && !threads_given) {
    throw occcalc::input_error("target",
                               "needs " + occcalc::field_ref("threads") + ": the work-group size to start from");
  }
  s.resolved = r;
  s.threads_given = threads_given;
  if (threads_given) {
    std::optional<std::int64_t> device_waves;
    if (r.named_gpu) device_waves = r.named_gpu->max_waves_per_simd;
    const occcalc::amd_step_question q{&t, r.mode, r.model, {r.kernel, r.work_group_size}, s.target, device_waves};
    s.now = q.result(q.launch);
    s.target_met = s.target && !q.open(s.now);
    s.steps = occcalc::amd_next_steps(q);
    if (!s.steps.empty() && !s.steps.front().reachable) s.together = occcalc::amd_changes_together(q);
  }
  out << (json ? suggest_json(s) : suggest_text(s, term));
  return exit_status::ok;
}

/// `suggest` for NVIDIA: cudaOccMaxPotentialOccupancyBlockSize's search, next
/// steps and dynamic shared memory for N blocks.
exit_status run_suggest_for(const occcalc::resolved_request& resolved, const std::optional<std::string>& model_asked,
                            bool threads_given, const suggest_options& options, bool json, std::ostream& out,
                            const terminal& term) {
  (void)model_asked;  // resolve() refuses a model for NVIDIA
  const auto& arch = *resolved.arch;
  const auto& launch = resolved.launch;

  nvidia_suggestion s;
  s.resolved = &resolved;
  s.threads_given = threads_given;
  s.rule = {launch.dynamic_shared_memory_bytes, 0};
  if (!options.dynamic_per_thread.empty()) {
    s.rule.bytes_per_thread =
        occcalc::parse_bytes("dyn_smem_per_thread", options.dynamic_per_thread, {0, occcalc::max_request_value});
  }
  if (!options.max_threads.empty()) {
    s.max_threads = occcalc::parse_count("max_threads", options.max_threads, {1, arch.max_threads_per_block});
  }
  s.target = parse_target(options);
  if (!options.blocks.empty()) s.blocks = occcalc::parse_count("blocks", options.blocks, {1, arch.max_blocks_per_sm});
  if ((s.target || s.blocks) && !threads_given) {
    throw occcalc::input_error(s.target ? "target" : "blocks",
                               "needs " + occcalc::field_ref("threads") + ": the block size to start from");
  }
  if (s.rule.bytes_per_thread > 0 && (threads_given || s.blocks || s.target)) {
    throw occcalc::input_error("dyn_smem_per_thread", "applies only to the block size search; give " +
                                                          occcalc::field_ref("dyn_smem") + " with " +
                                                          occcalc::field_ref("threads"));
  }

  s.choice = occcalc::max_potential_block_size(arch, launch, s.rule, s.max_threads);
  s.ties = occcalc::tied_block_sizes(arch, launch, s.rule, s.max_threads, s.choice);
  s.recommended = occcalc::recommended_block_size(arch, s.ties);
  s.now = occcalc::compute_occupancy(arch, launch);
  s.target_met = s.target && s.now.occupancy() >= *s.target;
  if (threads_given && !s.target_met) s.steps = occcalc::next_steps(arch, launch, s.target);
  if (!s.steps.empty() && !s.steps.front().reachable) s.together = occcalc::changes_together(arch, launch, s.target);
  for (const auto& step : s.steps) {
    s.register_caps.push_back(
        occcalc::launch_bounds_register_cap(arch, launch.threads_per_block, step.result.blocks_per_sm));
  }
  if (s.blocks) {
    s.dynamic = occcalc::available_dynamic_shared_memory(arch, launch, *s.blocks);
    if (s.dynamic->cuda_bytes && s.dynamic->resident_bytes != s.dynamic->cuda_bytes) {
      occcalc::launch_config at = launch;
      at.dynamic_shared_memory_bytes = *s.dynamic->cuda_bytes;
      s.resident_at_cuda_bytes = occcalc::compute_occupancy(arch, at).blocks_per_sm;
    }
  }
  if (resolved.cluster) {
    if (!threads_given) {
      throw occcalc::input_error("cluster",
                                 "needs " + occcalc::field_ref("threads") + ": the launch to size clusters for");
    }
    if (resolved.cluster_devices.size() != 1) {
      throw occcalc::input_error("cluster",
                                 resolved.cluster_devices.empty()
                                     ? "needs " + occcalc::field_ref("gpu") + " or " + occcalc::field_ref("sm_count") +
                                           ": clusters depend on how many SMs each GPC has"
                                     : "needs one GPU: " + resolved.family_name + " names " +
                                           std::to_string(resolved.cluster_devices.size()) + "; give one of them");
    }
    const auto& device = resolved.cluster_devices.front();
    s.cluster_points =
        occcalc::cluster_sweep(arch, device.layout, device.sm_count, s.now.blocks_per_sm, 1, arch.max_cluster_size());
    s.cluster_size = resolved.cluster->blocks();
    s.best_cluster_size = occcalc::best_cluster_size(s.cluster_points);
  }
  out << (json ? suggest_json(s) : suggest_text(s, term));
  return exit_status::ok;
}

}  // namespace

exit_status run_suggest(const occcalc::table& tables, occcalc::request request, const suggest_options& options,
                        bool json, std::ostream& out, const terminal& term) {
  const bool threads_given = request.threads.has_value();
  // Only the search: it sets every block size itself, so any valid size
  // resolves the rest of the launch.
  if (!threads_given) request.threads = occcalc::field_value::of_integer(1);
  // The AMD search is HIP's whatever the target's default model: the model
  // asked for is checked, and HIP's set, after resolution.
  const std::optional<std::string> model_asked =
      request.model ? std::optional<std::string>(request.model->text()) : std::nullopt;
  auto resolved_any = occcalc::resolve_any(tables, request);
  return std::visit(
      [&](auto&& resolved) {
        return run_suggest_for(std::forward<decltype(resolved)>(resolved), model_asked, threads_given, options, json,
                               out, term);
      },
      std::move(resolved_any));
}

}  // namespace occcalc::cli
