// AMD next steps and changes together under HIP's and RCP's models
// (suggest --model hip|rcp): every answer run through the model again.
#include "catch.hpp"
#include "sampling.hpp"

#include <cmath>
#include <random>
#include <vector>

#include "occcalc/amd/occupancy.hpp"
#include "occcalc/amd/steps.hpp"
#include "test_tables.hpp"

namespace {

/// `k` and its work-group size with one knob set, as the test sets it (not
/// through the search's own setter).
occcalc::amd_launch with_knob(occcalc::amd_launch l, occcalc::amd_knob knob, std::int64_t value) {
  switch (knob) {
    case occcalc::amd_knob::vgprs: l.kernel.vgprs = value; break;
    case occcalc::amd_knob::agprs: l.kernel.agprs = value; break;
    case occcalc::amd_knob::sgprs: l.kernel.sgprs = value; break;
    case occcalc::amd_knob::lds: l.kernel.lds_bytes = value; break;
    case occcalc::amd_knob::work_group_size:
      l.work_group_size = l.kernel.min_work_group_size = l.kernel.max_work_group_size = value;
      break;
  }
  return l;
}

}  // namespace

TEST_CASE("amd next steps (hip, rcp): each reaches what it claims, one less change does not", "[amd][suggest]") {
  // 10,000 random kernels over every target with HIP's or RCP's model, with a
  // random target occupancy or none: a step's value, run through the model,
  // gets there, and a register or LDS step one nearer the value now does not
  // (the nearest); each change together gets there, a pair changes both and
  // neither alone gets there; the list is cheapest first.
  std::mt19937 rng(4444);
  const auto pick = [&](std::int64_t low, std::int64_t high) {
    return std::uniform_int_distribution<std::int64_t>(low, high)(rng);
  };
  std::vector<std::pair<const occcalc::amd_target*, occcalc::amd_model>> cases;
  for (const auto& t : occcalc::test::default_tables().amd_targets) {
    for (const auto model : {occcalc::amd_model::hip, occcalc::amd_model::rcp}) {
      if (t.supports(model)) cases.emplace_back(&t, model);
    }
  }
  std::size_t kernels = 0, steps = 0, changes = 0, pairs = 0, rcp = 0;
  while (kernels < occcalc::test::sample(10000)) {
    const auto& picked = cases[static_cast<std::size_t>(pick(0, static_cast<std::int64_t>(cases.size()) - 1))];
    const auto& t = *picked.first;
    const occcalc::amd_model model = picked.second;
    const auto& file =
        t.vgpr_files[static_cast<std::size_t>(pick(0, static_cast<std::int64_t>(t.vgpr_files.size()) - 1))];
    const occcalc::amd_mode mode{file.wave_size, t.has_wgp_mode && pick(0, 1) == 1};
    occcalc::amd_launch l;
    l.kernel.vgprs = pick(1, t.max_vgprs_per_wave);
    l.kernel.agprs = t.max_agprs_per_wave > 0 && pick(0, 1) == 1 ? pick(0, t.max_agprs_per_wave) : 0;
    l.kernel.sgprs = t.max_sgprs_per_wave > 0 ? pick(0, t.max_sgprs_per_wave) : 0;
    l.kernel.lds_bytes = pick(0, 2) == 0 ? 0 : pick(1, t.max_lds_per_work_group_bytes);
    l = with_knob(l, occcalc::amd_knob::work_group_size, pick(1, t.max_work_group_size));
    const auto run = [&](const occcalc::amd_launch& at) {
      return occcalc::compute_amd_occupancy(t, at.kernel, mode, model, at.work_group_size);
    };
    const auto now = run(l);
    if (now.work_groups == 0) continue;
    ++kernels;
    if (model == occcalc::amd_model::rcp) ++rcp;
    std::optional<double> goal;
    if (pick(0, 3) != 0) goal = static_cast<double>(pick(1, 100)) / 100.0;
    const auto reaches = [&](const occcalc::amd_occupancy_result& r) {
      return goal ? r.occupancy() >= *goal - 1e-9 : r.occupancy() > now.occupancy() + 1e-12;
    };
    INFO(t.id << " " << occcalc::to_string(model) << " wave" << mode.wave_size << " vgprs " << l.kernel.vgprs
              << " agprs " << l.kernel.agprs << " sgprs " << l.kernel.sgprs << " lds " << l.kernel.lds_bytes << " size "
              << l.work_group_size << " goal " << (goal ? *goal : -1.0));
    const occcalc::amd_step_question q{&t, mode, model, l, goal, std::nullopt};
    const auto found_steps = occcalc::amd_next_steps(q);
    if (goal ? reaches(now) : now.occupancy() >= 1.0) CHECK(found_steps.empty());
    for (const auto& step : found_steps) {
      CHECK(now.limiters.contains(step.limiter));
      if (!step.reachable) continue;
      ++steps;
      CHECK(reaches(run(with_knob(l, step.knob, step.needed))));
      if (step.knob != occcalc::amd_knob::work_group_size && step.needed + 1 < step.current) {
        CHECK_FALSE(reaches(run(with_knob(l, step.knob, step.needed + 1))));
      }
    }
    double previous = 0.0;
    for (const auto& found : occcalc::amd_changes_together(q)) {
      ++changes;
      occcalc::amd_launch changed = l;
      for (const auto& c : found.changes.changes) {
        CHECK(c.to != c.from);
        changed = with_knob(changed, static_cast<occcalc::amd_knob>(c.id), c.to);
      }
      CHECK(reaches(run(changed)));
      CHECK(run(changed).active_waves == found.result.active_waves);
      CHECK(found.changes.cost >= previous);
      previous = found.changes.cost;
      if (found.changes.changes.size() == 2) {
        ++pairs;
        for (const auto& c : found.changes.changes) {
          CHECK_FALSE(reaches(run(with_knob(l, static_cast<occcalc::amd_knob>(c.id), c.to))));
        }
      }
    }
  }
  CHECK(steps > occcalc::test::sample(3000));
  CHECK(changes > occcalc::test::sample(300));
  CHECK(pairs > occcalc::test::sample(100));
  CHECK(rcp > occcalc::test::sample(1000));
}
