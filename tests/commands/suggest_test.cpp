// occcalc suggest (and sweep errors).
#include "catch.hpp"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using occcalc::cli::exit_status;
using occcalc::test::run;
using occcalc::test::matchers::StartsWith;

TEST_CASE("cli: suggest and sweep errors name the flag and exit 2", "[cli][sweep][suggest]") {
  struct error_case {
    std::vector<std::string> args;
    std::string message;
  };
  const auto c = GENERATE(values<error_case>({
      {{"sweep", "--vary", "warps", "--cc", "8.0", "--threads", "128", "--regs", "32"},
       "occcalc: error: --vary 'warps' is not one of threads, regs, smem, barriers"},
      {{"sweep", "--vary", "regs", "--cc", "8.0", "--threads", "128", "--regs", "32", "--from", "100", "--to", "10"},
       "occcalc: error: --to 10 is below --from 100"},
      {{"sweep", "--vary", "smem", "--cc", "8.0", "--threads", "128", "--regs", "32", "--step", "0"},
       "occcalc: error: --step 0 is outside [1, 2147483647]"},
      {{"sweep", "--cc", "8.0", "--threads", "128", "--regs", "32"},
       "occcalc: error: sweep needs --vary FIGURE: threads, regs, smem or barriers"},
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
  CHECK(bad({"suggest", "--gfx", "gfx90a", "--vgprs", "8", "--model", "llvm"}) ==
        "occcalc: error: --model llvm has no block size search; for AMD, suggest answers with the HIP runtime's "
        "(--model hip)\n");
  CHECK(bad({"suggest", "--gfx", "gfx90a", "--vgprs", "8", "--threads", "64", "--blocks", "2"}) ==
        "occcalc: error: --blocks applies to NVIDIA only: for AMD, suggest answers with the HIP runtime's block size "
        "search\n");
  CHECK(bad({"suggest", "--gfx", "cypress", "--vgprs", "8"}) ==
        "occcalc: error: --model hip does not apply to cypress (VLIW5); models for it: rcp\n");
}
