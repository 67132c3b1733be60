// suggest and sweep never crash (issue 31): over random and infeasible
// requests on every architecture, NVIDIA and AMD, every resource at zero and
// at its maximum, each run answers (exit 0) or refuses the input (exit 2).
// Before the fix, two resources that each allowed no block divided by zero
// (SIGFPE, exit 136, no output) on every NVIDIA architecture.
#include "catch.hpp"
#include "sampling.hpp"

#include <random>
#include <string>
#include <vector>

#include "cli_runner.hpp"

using occcalc::cli::exit_status;
using occcalc::test::run;

namespace {

const std::vector<std::string> nvidia = {"sm_10", "sm_13",  "sm_20",  "sm_30",  "sm_35", "sm_50",
                                         "sm_60", "sm_70",  "sm_75",  "sm_80",  "sm_86", "sm_89",
                                         "sm_90", "sm_100", "sm_110", "sm_120", "sm_121"};
const std::vector<std::string> amd = {"cypress", "cayman", "gfx600",  "gfx803",  "gfx906", "gfx908",
                                      "gfx90a",  "gfx942", "gfx1030", "gfx1100", "gfx1201"};

/// A value from `pick`: an edge (0, 1, the largest a flag takes, just past
/// it) half the time, else a random one below `top`.
std::string value(std::mt19937& rng, std::int64_t top) {
  const std::int64_t edges[] = {0, 1, top - 1, top, top + 1};
  std::uniform_int_distribution<int> coin(0, 1);
  if (coin(rng) == 0) return std::to_string(edges[std::uniform_int_distribution<int>(0, 4)(rng)]);
  return std::to_string(std::uniform_int_distribution<std::int64_t>(0, top)(rng));
}

void require_answer_or_refusal(const std::vector<std::string>& args) {
  const auto r = run(args);
  std::string line;
  for (const auto& a : args) line += a + " ";
  INFO(line);
  INFO(r.err);
  REQUIRE((r.status == exit_status::ok || r.status == exit_status::bad_input));
  if (r.status == exit_status::ok) REQUIRE(!r.out.empty());
  if (r.status == exit_status::bad_input) REQUIRE(r.err.rfind("occcalc: error: ", 0) == 0);
}

}  // namespace

TEST_CASE("suggest and sweep answer or refuse every request, however infeasible", "[cli][suggest][sweep][property]") {
  std::mt19937 rng(31);  // fixed: the same requests every run
  const auto pick = [&](const std::vector<std::string>& from) {
    return from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)];
  };
  const std::vector<std::string> vary = {"threads", "regs", "smem", "barriers"};
  for (std::size_t i = 0; i < occcalc::test::sample(400); ++i) {
    // The request itself, with some resources past what any block may have.
    std::vector<std::string> nv = {"--cc",   pick(nvidia),          "--regs",     value(rng, 255),
                                   "--smem", value(rng, 240 << 10), "--dyn-smem", value(rng, 240 << 10)};
    if (i % 2 == 0) nv.insert(nv.end(), {"--barriers", value(rng, 16)});
    auto suggest = nv;
    suggest.insert(suggest.begin(), "suggest");
    require_answer_or_refusal(suggest);
    auto with_threads = suggest;
    with_threads.insert(with_threads.end(), {"--threads", value(rng, 1024)});
    require_answer_or_refusal(with_threads);
    auto target = with_threads;
    target.insert(target.end(), {"--target", value(rng, 100)});
    require_answer_or_refusal(target);
    auto blocks = with_threads;
    blocks.insert(blocks.end(), {"--blocks", value(rng, 32)});
    require_answer_or_refusal(blocks);
    auto sweep = nv;
    sweep.insert(sweep.begin(), {"sweep", "--vary", pick(vary), "--threads", value(rng, 1024)});
    require_answer_or_refusal(sweep);

    std::vector<std::string> a = {"--gfx", pick(amd), "--vgprs", value(rng, 512), "--lds", value(rng, 160 << 10)};
    if (i % 3 == 0) a.insert(a.end(), {"--sgprs", value(rng, 112)});
    auto amd_suggest = a;
    amd_suggest.insert(amd_suggest.begin(), "suggest");
    require_answer_or_refusal(amd_suggest);
    // Next steps and changes together under each model, from any size, to any target.
    auto amd_steps = amd_suggest;
    amd_steps.insert(amd_steps.end(), {"--threads", value(rng, 1024), "--model", pick({"hip", "rcp", "llvm"})});
    require_answer_or_refusal(amd_steps);
    amd_steps.insert(amd_steps.end(), {"--target", value(rng, 100)});
    require_answer_or_refusal(amd_steps);
    auto amd_sweep = a;
    amd_sweep.insert(amd_sweep.begin(),
                     {"sweep", "--vary", pick({"threads", "vgprs", "lds"}), "--threads", value(rng, 1024)});
    require_answer_or_refusal(amd_sweep);
  }
}

TEST_CASE("suggest: every resource at zero, and a target no resource can reach", "[cli][suggest][property]") {
  for (const auto& arch : nvidia) {
    require_answer_or_refusal({"suggest", "--cc", arch, "--regs", "0", "--smem", "0", "--barriers", "0"});
    require_answer_or_refusal(
        {"suggest", "--cc", arch, "--regs", "0", "--threads", "1", "--barriers", "0", "--target", "100"});
  }
  // The example: 255 registers at 1024 threads and 100 KiB of
  // dynamic shared memory, where each of the two allows no block.
  const auto r = run({"suggest", "--gpu", "RTX 4090", "--threads", "1024", "--regs", "255", "--dyn-smem", "100K"});
  CHECK(r.status == exit_status::ok);
  CHECK_THAT(r.out, occcalc::test::matchers::Contains("no block size can run"));
  CHECK_THAT(r.out, occcalc::test::matchers::Contains("cannot gain a block alone"));
}
