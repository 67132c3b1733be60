// occcalc suggest (and sweep errors).
#include "catch.hpp"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using occcalc::cli::exit_status;
using occcalc::test::run;
using occcalc::test::matchers::Contains;
using occcalc::test::matchers::StartsWith;

TEST_CASE("cli: suggest and sweep errors name the flag and exit 2", "[cli][sweep][suggest]") {
  struct error_case {
    std::vector<std::string> args;
    std::string message;
  };
  const auto c = GENERATE(values<error_case>({
      {{"sweep", "--vary", "warps", "--cc", "8.0", "--threads", "128", "--regs", "32"},
       "occcalc: error: --vary 'warps' is not one of threads, regs, smem, barriers, cluster"},
      {{"sweep", "--vary", "regs", "--cc", "8.0", "--threads", "128", "--regs", "32", "--from", "100", "--to", "10"},
       "occcalc: error: --to 10 is below --from 100"},
      {{"sweep", "--vary", "smem", "--cc", "8.0", "--threads", "128", "--regs", "32", "--step", "0"},
       "occcalc: error: --step 0 is outside [1, 2147483647]"},
      {{"sweep", "--cc", "8.0", "--threads", "128", "--regs", "32"},
       "occcalc: error: sweep needs --vary FIGURE: threads, regs, smem, barriers or cluster"},
      {{"suggest", "--cc", "8.0", "--regs", "32", "--target", "75"},
       "occcalc: error: --target needs --threads: the block size to start from"},
      {{"suggest", "--cc", "8.0", "--regs", "32", "--threads", "128", "--blocks", "33"},
       "occcalc: error: --blocks 33 is outside [1, 32]"},
      {{"suggest", "--cc", "8.0", "--regs", "32", "--max-threads", "2048"},
       "occcalc: error: --max-threads 2048 is outside [1, 1024]"},
      {{"--cc", "8.0", "--threads", "128", "--regs", "32", "--grid", "100"},
       "occcalc: error: --grid needs a named GPU (--gpu) or --sm-count: waves need the SM count"},
  }));
  const auto r = run(c.args);
  INFO(r.err);
  CHECK(r.status == exit_status::bad_input);
  CHECK_THAT(r.err, StartsWith(c.message));
}

TEST_CASE("cli amd: suggest --model llvm gives the compiler's next steps", "[cli][amd][suggest]") {
  // gfx90a, 256 work-items, 128 VGPRs, 16 KiB of LDS: 4 waves per SIMD, by
  // VGPRs (512 / 128) and LDS (4 groups of 4 waves over 4 SIMDs). 5 waves
  // need both: 512 / 5 = 102 -> 96 VGPRs (granule 8), 65536 / 5 = 13107 B.
  const auto r = run({"suggest", "--gfx", "gfx90a", "--model", "llvm", "--threads", "256", "--vgprs", "128", "--lds",
                      "16K", "--json"});
  REQUIRE(r.status == exit_status::ok);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["waves_per_simd"] == 4.0);
  CHECK(j["goal_waves_per_simd"] == 5);
  REQUIRE(j["steps"].size() == 2);
  CHECK(j["steps"][0] == nlohmann::json{{"resource", "vgprs"}, {"from", 128}, {"to", 96}});
  CHECK(j["steps"][1] == nlohmann::json{{"resource", "lds"}, {"from", 16384}, {"to", 13107}});
  // At 100% nothing is offered.
  const auto full = nlohmann::json::parse(
      run({"suggest", "--gfx", "gfx1100", "--model", "llvm", "--threads", "256", "--vgprs", "24", "--json"}).out);
  CHECK(full["goal_waves_per_simd"].is_null());
  CHECK(full["steps"].empty());
  CHECK_THAT(run({"suggest", "--gfx", "gfx1100", "--model", "llvm", "--threads", "256", "--vgprs", "24"}).out,
             Contains("Nothing to gain: 16 waves per SIMD is the most a SIMD of gfx1100 holds."));
}

TEST_CASE("cli amd: suggest answers with the HIP runtime's block size search", "[cli][amd][suggest]") {
  const auto r = run({"suggest", "--gpu", "RX 7900 XTX", "--vgprs", "96", "--max-threads", "256", "--json"});
  REQUIRE(r.status == exit_status::ok);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["model"] == "hip");
  CHECK(j["unit"] == "wgp");
  CHECK(j["block_size"] == 256);
  CHECK(j["blocks_per_sm"] == 8);
  CHECK(j["min_grid_size"] == 384);  // 48 WGPs x 8
  const auto bad = [](std::vector<std::string> args) { return run(std::move(args)).err; };
  CHECK(bad({"suggest", "--gfx", "gfx900", "--vgprs", "8", "--model", "rcp"}) ==
        "occcalc: error: --threads is needed: RCP's model has no block size search, and its next steps start from "
        "the work-group size\n");
  CHECK(bad({"suggest", "--gfx", "gfx90a", "--vgprs", "8", "--target", "50"}) ==
        "occcalc: error: --target needs --threads: the work-group size to start from\n");
  CHECK(bad({"suggest", "--gfx", "gfx90a", "--vgprs", "8", "--model", "llvm"}) ==
        "occcalc: error: --threads is needed: the compiler's next steps start from the work-group size\n");
  // With --threads the query's default model, the compiler's, answers.
  for (const char* model : {"llvm", ""}) {
    std::vector<std::string> args{"suggest", "--gfx", "gfx90a", "--vgprs", "8", "--threads", "64", "--blocks", "2"};
    if (*model) args.insert(args.end(), {"--model", model});
    CHECK(bad(args) ==
          "occcalc: error: --blocks applies to the block size searches (NVIDIA's, HIP's), not to the compiler's next "
          "steps; give --model hip for HIP's\n");
  }
  CHECK(bad({"suggest", "--gfx", "gfx90a", "--vgprs", "8", "--threads", "64", "--model", "hip", "--blocks", "2"}) ==
        "occcalc: error: --blocks applies to NVIDIA only: for AMD, suggest answers with the HIP runtime's block size "
        "search and the model's next steps\n");
  CHECK(bad({"suggest", "--gfx", "cypress", "--vgprs", "8"}) ==
        "occcalc: error: --model hip does not apply to cypress (VLIW5); models for it: rcp\n");
}

TEST_CASE("cli: where no change alone gets there, the cheapest two together", "[cli][suggest]") {
  // H100, 256 threads, 96 registers, 48 KiB: 2 blocks (registers), 25%. 75%
  // = 48 warps = 6 blocks: 40 registers (8 warps x 1280 of 65536), and then
  // 6 x (37888 + 1024 reserved) = 228 KiB of shared memory. With 384-thread
  // blocks 4 suffice: 40 registers again (12 warps x 1280 x 4 <= 65536).
  const auto r = run(
      {"suggest", "--gpu", "H100", "--regs", "96", "--smem", "48K", "--threads", "256", "--target", "75", "--json"});
  REQUIRE(r.status == exit_status::ok);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["next_steps"].size() == 1);
  CHECK(j["next_steps"][0]["needed"].is_null());
  REQUIRE(j["together"].size() == 2);
  CHECK(j["together"][0]["changes"] == nlohmann::json::parse(R"([{"knob": "registers", "from": 96, "to": 40},
                                                               {"knob": "shared_memory", "from": 49152, "to": 37888}])"));
  CHECK(j["together"][0]["blocks_per_sm"] == 6);
  CHECK(j["together"][0]["relative_change"] == Approx(56.0 / 96 + 11264.0 / 49152));
  CHECK(j["together"][1]["changes"][1] == nlohmann::json::parse(R"({"knob": "block_size", "from": 256, "to": 384})"));
  CHECK(j["together"][1]["blocks_per_sm"] == 4);
  const auto text =
      run({"suggest", "--gpu", "H100", "--regs", "96", "--smem", "48K", "--threads", "256", "--target", "75"});
  CHECK_THAT(text.out, Contains("Changes that reach 75% (the least change first)"));
  CHECK_THAT(text.out, Contains("registers + shared memory 96 -> 40, 49152 -> 37888  6 blocks, 75.0%"));
  // 100% is 64 warps: 3-warp blocks never make it (21 x 3 = 63), 255
  // registers allow 8 warps, and 120 KiB blocks 1 (each takes 121 of 228 KiB): all
  // three must change.
  CHECK_THAT(
      run({"suggest", "--cc", "9.0", "--regs", "255", "--smem", "120K", "--threads", "96", "--target", "100"}).out,
      Contains("alone or two together, can reach 100%."));
}

TEST_CASE("cli amd: suggest's next steps default to the query's model", "[cli][amd][suggest]") {
  // gfx90a, 256 work-items, 96 VGPRs: the query and suggest both answer
  // with the compiler's 5 waves per SIMD; HIP's search needs no --threads.
  const auto query = nlohmann::json::parse(run({"--gfx", "gfx90a", "--vgprs", "96", "--threads", "256", "--json"}).out);
  const auto steps =
      nlohmann::json::parse(run({"suggest", "--gfx", "gfx90a", "--vgprs", "96", "--threads", "256", "--json"}).out);
  CHECK(query["model"] == "llvm");
  CHECK(steps["model"] == "llvm");
  CHECK(steps["waves_per_simd"] == 5.0);
  CHECK(steps["waves_per_simd"] == query["waves_per_simd"]);
  CHECK(steps["steps"] == nlohmann::json::parse(R"([{"resource": "vgprs", "from": 96, "to": 80}])"));
  CHECK(nlohmann::json::parse(run({"suggest", "--gfx", "gfx90a", "--vgprs", "96", "--json"}).out)["model"] == "hip");
  // VLIW's one model is RCP's, for the query and next steps alike.
  CHECK(nlohmann::json::parse(
            run({"suggest", "--gfx", "cayman", "--vgprs", "8", "--threads", "64", "--json"}).out)["model"] == "rcp");
}

TEST_CASE("cli amd: next steps under HIP's and RCP's models", "[cli][amd][suggest]") {
  // gfx90a, HIP: 512 VGPRs per lane in granules of 8; 96 -> 5 waves per
  // SIMD, 5 work-groups of 4 waves over 4 SIMDs, 62.5%; 80 -> 6, 75%.
  auto j = nlohmann::json::parse(
      run({"suggest", "--gfx", "gfx90a", "--vgprs", "96", "--threads", "256", "--model", "hip", "--json"}).out);
  CHECK(j["model"] == "hip");
  CHECK(j["block_size"] == 1024);  // the search still answers
  CHECK(j["now"]["work_groups"] == 5);
  REQUIRE(j["next_steps"].size() == 1);
  CHECK(j["next_steps"][0]["needed"] == 80);
  CHECK(j["next_steps"][0]["work_groups"] == 6);
  CHECK(j["together"].empty());
  // gfx900, RCP: 256 VGPRs in granules of 4, 64 KiB of LDS per CU. 60 VGPRs
  // -> 4 waves per SIMD, and 16 KiB -> 4 work-groups: both limit. 5
  // work-groups need 48 VGPRs (5 waves) and 65536 / 5 = 13107 B together.
  j = nlohmann::json::parse(run({"suggest", "--gfx", "gfx900", "--vgprs", "60", "--sgprs", "90", "--lds", "16K",
                                 "--threads", "256", "--model", "rcp", "--json"})
                                .out);
  CHECK(j["model"] == "rcp");
  CHECK(j["block_size"].is_null());
  CHECK(j["now"]["limiters"] == nlohmann::json::parse(R"(["vgprs", "lds"])"));
  CHECK(j["next_steps"].size() == 2);
  CHECK(j["together"][0]["changes"] == nlohmann::json::parse(R"([{"knob": "vgprs", "from": 60, "to": 48},
                                                               {"knob": "lds", "from": 16384, "to": 13107}])"));
  CHECK(j["together"][0]["work_groups"] == 5);
  const auto text = run({"suggest", "--gfx", "gfx900", "--vgprs", "60", "--sgprs", "90", "--lds", "16K", "--threads",
                         "256", "--model", "rcp", "--target", "40"});
  CHECK_THAT(text.out, Contains("already at or above the 40% target"));
}
