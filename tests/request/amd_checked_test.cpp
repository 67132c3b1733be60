// The AMD checked calculator (amd/checked.hpp), held to the command line's
// resolution: the same refusal in the same words for every launch batch
// refuses, and the same answer for every other.
#include "catch.hpp"

#include <random>
#include <string>

#include "occcalc/amd/checked.hpp"
#include "occcalc/request/amd.hpp"
#include "test_tables.hpp"

namespace {

/// The batch request for a launch on `t`: each figure as the integer a
/// batch line holds, the wave size and mode as its switches.
occcalc::request request_of(const occcalc::amd_target& t, occcalc::amd_model model, const occcalc::amd_mode& mode,
                            const occcalc::amd_kernel& k, std::int64_t work_group_size) {
  const auto integer = occcalc::field_value::of_integer;
  occcalc::request req;
  req.gfx = t.id;
  req.model = std::string(occcalc::to_string(model));
  (mode.wave_size == 32 ? req.wave32 : req.wave64) = std::string(occcalc::flag_set_text);
  if (t.has_wgp_mode) (mode.wgp_mode ? req.wgp_mode : req.cu_mode) = std::string(occcalc::flag_set_text);
  req.threads = integer(work_group_size);
  req.vgprs = integer(k.vgprs);
  if (k.agprs > 0) req.agprs = integer(k.agprs);
  if (k.sgprs > 0) req.sgprs = integer(k.sgprs);
  req.lds = integer(k.lds_bytes);
  return req;
}

}  // namespace

TEST_CASE("amd checked: defaults are the target's, refusals name the field", "[checked]") {
  const auto& tables = occcalc::test::default_tables();
  const occcalc::amd_target& rdna3 = *occcalc::find_amd_target(tables, "gfx1100");
  occcalc::amd_kernel k;
  k.vgprs = 64;
  const auto answer = occcalc::compute_amd_occupancy_checked(rdna3, k, 256);
  REQUIRE(answer);
  CHECK(answer.result->wave_size == 32);  // the command line's default on RDNA, not wave64
  CHECK(answer.result->per_wgp);
  const auto zero = occcalc::compute_amd_occupancy_checked(rdna3, k, 0);
  REQUIRE_FALSE(zero);
  CHECK(zero.problem->keyed_text() == "threads 0 is outside [1, 1024] on gfx1100");
  const auto odd = occcalc::compute_amd_occupancy_checked(rdna3, k, {48, false}, occcalc::amd_model::llvm, 256);
  REQUIRE_FALSE(odd);
  CHECK(odd.problem->keyed_text() == "wave_size 48 is not a wave size; expected 32 or 64");
  const auto no_model =
      occcalc::compute_amd_occupancy_checked(rdna3, k, {32, true}, static_cast<occcalc::amd_model>(7), 256);
  REQUIRE_FALSE(no_model);
  CHECK(no_model.problem->keyed_text() == "model '7' is not a model; expected llvm, hip or rcp");
}

TEST_CASE("amd checked: every refusal and answer is the command line's", "[checked]") {
  const auto& tables = occcalc::test::default_tables();
  std::mt19937_64 rng(5301);
  const auto pick = [&](std::initializer_list<std::int64_t> values) {
    return *(values.begin() + std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(rng));
  };
  int refused = 0, answered = 0;
  for (int i = 0; i < 20000; ++i) {
    const auto& t =
        tables.amd_targets[std::uniform_int_distribution<std::size_t>(0, tables.amd_targets.size() - 1)(rng)];
    const auto model = static_cast<occcalc::amd_model>(pick({0, 0, 0, 1, 2}));
    const occcalc::amd_mode mode{pick({32, 64, t.default_wave_size(), t.default_wave_size()}), pick({0, 1}) == 1};
    occcalc::amd_kernel k;
    k.vgprs = pick({0, 24, 64, 128, 256, 512, 513, -1});
    k.agprs = pick({0, 0, 0, 64, 256, 257});
    k.sgprs = pick({0, 0, 32, 96, 104, 106, 112, 200});
    k.lds_bytes = pick({0, 0, 4096, 65536, 65537, 163840, -1});
    const std::int64_t threads = pick({1, 64, 256, 256, 1024, 0, 1025, 2147483648});
    INFO(t.id << " model " << to_string(model) << " wave " << mode.wave_size << " wgp " << mode.wgp_mode << " threads "
              << threads << " vgprs " << k.vgprs << " agprs " << k.agprs << " sgprs " << k.sgprs << " lds "
              << k.lds_bytes);
    const auto checked = occcalc::compute_amd_occupancy_checked(t, k, mode, model, threads);
    try {
      const auto r = occcalc::resolve_amd(tables, request_of(t, model, mode, k, threads));
      REQUIRE(checked);
      const auto expected = occcalc::compute_amd_occupancy(t, r.kernel, r.mode, r.model, r.work_group_size);
      CHECK(checked.result->work_groups == expected.work_groups);
      CHECK(checked.result->waves_per_simd == expected.waves_per_simd);
      CHECK(checked.result->limiters == expected.limiters);
      ++answered;
    } catch (const occcalc::input_error& e) {
      REQUIRE_FALSE(checked);
      CHECK(checked.problem->keyed_text() == e.keyed_text());
      ++refused;
    }
  }
  CHECK(answered > 1000);  // 1,128 with this seed
  CHECK(refused > 10000);
}
