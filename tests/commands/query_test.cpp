// The query: exit codes, error lines, the gate, waves, --table.
#include "catch.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using occcalc::cli::exit_status;
using occcalc::test::run;
using occcalc::test::matchers::Contains;

TEST_CASE("cli: the main job answers 75% with exit 0", "[cli]") {
  const auto r = run({"--cc", "7.0", "--threads", "128", "--regs", "37"});
  CHECK(r.status == exit_status::ok);
  CHECK_THAT(r.out, Contains("Theoretical occupancy") && Contains("75.0%") && Contains("limited by registers"));
  CHECK(r.err.empty());
}

TEST_CASE("cli: bad input is one line naming the field, value and range, exit 2", "[cli][errors]") {
  using row = std::tuple<std::vector<std::string>, std::string>;
  const auto [args, message] = GENERATE(table<std::vector<std::string>, std::string>({
      row{{"--cc", "7.0", "--threads", "0", "--regs", "37"},
          "occcalc: error: --threads 0 is outside [1, 2147483647]\n"},
      row{{"--cc", "7.0", "--threads", "-5", "--regs", "37"},
          "occcalc: error: --threads -5 is outside [1, 2147483647]\n"},
      row{{"--cc", "7.0", "--threads", "abc", "--regs", "37"},
          "occcalc: error: --threads 'abc' is not an integer; expected an integer in [1, 2147483647]\n"},
      row{{"--cc", "7.0", "--threads", "128", "--regs", "70000"},
          "occcalc: error: --regs 70000 is outside [0, 65535]\n"},
      row{{"--cc", "7.7", "--threads", "128", "--regs", "37"},
          "occcalc: error: --cc '7.7' is not a supported compute capability; supported: 1.0, 1.1, 1.2, 1.3, 2.0, "
          "2.1, 3.0, 3.2, 3.5, 3.7, 5.0, 5.2, 5.3, 6.0, 6.1, 6.2, 7.0, 7.2, 7.5, 8.0, 8.6, 8.7, 8.9, 9.0, 10.0, 10.1, "
          "10.3, 11.0, 12.0, 12.1\n"},
      row{{"--cc", "8.8", "--threads", "128", "--regs", "37"},
          "occcalc: error: --cc '8.8': compute capability 8.8 is not in the architecture table: ptxas 13 builds for "
          "sm_88 and cuda_occupancy.h 13.0 treats 8.8 as an 8.x part (16 blocks per SM, one block barrier per "
          "resident block, carveouts up to 100 KB), but NVIDIA publishes no warps, threads, registers or shared "
          "memory per SM for it: the CUDA Programming Guide's tables have no 8.8 column\n"},
      row{{"--cc", "7.0", "--threads", "128"},
          "occcalc: error: --regs is required: registers per thread, as ptxas -v reports them\n"},
      row{{"--threads", "128", "--regs", "1"},
          "occcalc: error: --cc is required (or --gpu); e.g. 7.0, sm_70 or a GPU name\n"},
      row{{"--cc", "7.0", "--threads", "128", "--regs", "37", "--smem", "1G"},
          "occcalc: error: --smem '1G' is not a size; expected bytes, or KiB with a K or KiB suffix, in [0, "
          "2147483647]\n"},
      row{{"--cc", "7.0", "--threads", "128", "--regs", "37", "--min-occupancy", "120"},
          "occcalc: error: --min-occupancy 120 is outside [0, 100]\n"},
      row{{"--cc", "6.1", "--threads", "128", "--regs", "37", "--carveout", "max-shared"},
          "occcalc: error: --carveout 100 does not apply to sm_61: its shared memory has no carveout (carveouts start "
          "with 7.0)\n"},
      row{{"--cc", "7.0", "--threads", "128", "--regs", "37", "--table", "/nonexistent.json"},
          "occcalc: error: /nonexistent.json: cannot read the table file\n"},
  }));
  CAPTURE(args);
  const auto r = run(args);
  CHECK(r.status == exit_status::bad_input);
  CHECK(r.err == message);
  CHECK(r.out.empty());
}

TEST_CASE("cli: a launch that cannot run is a result, not an error", "[cli]") {
  const auto r = run({"--cc", "8.6", "--threads", "2048", "--regs", "32", "--json"});
  CHECK(r.status == exit_status::ok);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["blocks_per_sm"] == 0);
  CHECK(j["occupancy"] == 0.0);
  CHECK(j["limiters"] == nlohmann::json::array({"warps"}));
  CHECK(j["reasons"]["warps"] == "a block of 2048 threads exceeds the 1024-thread maximum of sm_86");
}

TEST_CASE("cli: --min-occupancy gates: exit 1 below, 0 at or above", "[cli][gate]") {
  const std::vector<std::string> query = {"--cc", "7.0", "--threads", "128", "--regs", "37"};
  auto below = query;
  below.insert(below.end(), {"--min-occupancy", "80"});
  const auto failed = run(below);
  CHECK(failed.status == exit_status::gate_failed);
  CHECK(failed.err == "occcalc: gate failed: occupancy 75.00% is below --min-occupancy 80\n");
  auto at = query;
  at.insert(at.end(), {"--min-occupancy", "75"});
  CHECK(run(at).status == exit_status::ok);
}

TEST_CASE("cli: --cc 10, 11 and 12 are refused as ambiguous, naming both readings", "[cli][errors]") {
  const auto r = run({"--cc", "10", "--threads", "128", "--regs", "37"});
  CHECK(r.status == exit_status::bad_input);
  CHECK(r.err ==
        "occcalc: error: --cc '10' is ambiguous: compute capability 1.0 or 10.0; write 1.0 or 10.0 "
        "(or sm_10 for 1.0)\n");
  CHECK(run({"--cc", "12.0", "--threads", "128", "--regs", "37"}).status == exit_status::ok);
  CHECK(run({"--cc", "sm_12", "--threads", "128", "--regs", "37"}).status == exit_status::ok);
  const auto batch = run({"batch"}, R"({"cc": 11, "threads": 128, "regs": 37})"
                                    "\n");
  CHECK(batch.status == exit_status::bad_input);
  CHECK_THAT(batch.out, Contains("1.1 or 11.0"));
}

TEST_CASE("cli: --sm-count gives waves for any GPU and overrides a named one", "[cli][waves]") {
  const auto plain =
      run({"--cc", "7.0", "--threads", "256", "--regs", "48", "--grid", "138", "--sm-count", "80", "--json"});
  REQUIRE(plain.status == exit_status::ok);
  const auto j = nlohmann::json::parse(plain.out);
  // The same figures as the V100 from the table (Nsight Compute: 0.35 waves).
  CHECK(j["blocks_per_wave"] == 400);
  CHECK(j["input"]["sm_count"] == 80);
  const auto named = nlohmann::json::parse(
      run({"--gpu", "Tesla V100-SXM2-16GB", "--threads", "256", "--regs", "48", "--grid", "138", "--json"}).out);
  CHECK(named["waves_per_sm"] == j["waves_per_sm"]);
  CHECK(named["input"]["sm_count"] == 80);
  const auto slice =
      run({"--gpu", "A100-SXM4-80GB", "--threads", "256", "--regs", "32", "--grid", "1000", "--sm-count", "42"});
  CHECK_THAT(slice.out, Contains("Waves of 1000 blocks on 42 SMs of A100-SXM4-80GB (--sm-count)"));
  CHECK_THAT(slice.out, Contains("42 SMs x 8 blocks"));
  const auto amd =
      run({"--gfx", "gfx90a", "--threads", "256", "--vgprs", "128", "--grid", "1000", "--sm-count", "104"});
  CHECK_THAT(amd.out, Contains("Waves of 1000 work-groups on 104 CUs"));
  const auto bad = run({"--cc", "7.0", "--threads", "256", "--regs", "48", "--sm-count", "0"});
  CHECK(bad.status == exit_status::bad_input);
  CHECK(bad.err == "occcalc: error: --sm-count 0 is outside [1, 2147483647]\n");
  const auto batch = run({"batch"}, R"({"cc": "9.0", "threads": 128, "regs": 32, "grid": 4224, "sm_count": 132})"
                                    "\n");
  CHECK(nlohmann::json::parse(batch.out)["full_waves"] == 2);  // 132 SMs x 16 blocks, twice
}

TEST_CASE("cli amd: a work-group that cannot launch gives reasons, as NVIDIA results do", "[cli][amd]") {
  const auto r = run({"--gfx", "gfx90a", "--threads", "1024", "--vgprs", "256", "--json"});
  REQUIRE(r.status == exit_status::ok);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["blocks_per_sm"] == 0);
  CHECK(j["waves_per_simd"] == 0.0);
  CHECK(j["limits_waves_per_simd"]["vgprs"] == 2);  // what the compiler's ; Occupancy: prints
  REQUIRE(j["reasons"].size() == 1);
  CHECK(j["reasons"]["vgprs"] ==
        "512 per SIMD / 256 rounded up to 8 = 2 waves per SIMD, x 4 SIMDs / 16 waves per "
        "work-group: not one work-group of 16 waves fits");
  const auto fits = nlohmann::json::parse(run({"--gfx", "gfx90a", "--threads", "256", "--vgprs", "128", "--json"}).out);
  CHECK(fits["reasons"].empty());
}

TEST_CASE("cli: --table adds a hypothetical GPU", "[cli][table]") {
  const std::string path = "occcalc_cli_test_table.json";
  {
    std::ofstream file(path);
    file
        << R"({"schema_version": 1, "gpus": [{"id": "lab-gpu", "name": "Lab GPU", "arch": "sm_80", "sm_count": 3, "sources": ["PG13"]}]})";
  }
  const auto r = run({"--table", path, "--gpu", "lab gpu", "--threads", "128", "--regs", "37", "--json"});
  std::remove(path.c_str());
  CHECK(r.status == exit_status::ok);
  CHECK(nlohmann::json::parse(r.out)["device"]["sm_count"] == 3);
}

TEST_CASE("cli amd: the issue's three commands", "[cli][amd]") {
  const auto a =
      run({"--gfx", "gfx90a", "--threads", "256", "--vgprs", "128", "--sgprs", "32", "--lds", "16K", "--json"});
  REQUIRE(a.status == exit_status::ok);
  const auto ja = nlohmann::json::parse(a.out);
  CHECK(ja["model"] == "llvm");
  CHECK(ja["unit"] == "cu");
  CHECK(ja["blocks_per_sm"] == 4);
  CHECK(ja["waves_per_simd"] == 4.0);
  CHECK(ja["limiters"] == nlohmann::json::array({"vgprs", "lds"}));
  const auto b = run({"--gpu", "Instinct MI300X", "--threads", "1024", "--vgprs", "64", "--agprs", "64", "--json"});
  REQUIRE(b.status == exit_status::ok);
  const auto jb = nlohmann::json::parse(b.out);
  CHECK(jb["input"]["gfx"] == "gfx942");
  CHECK(jb["device"]["compute_units"] == 304);
  CHECK(jb["waves_per_simd"] == 4.0);  // 512 / (64 + 64) = 4
  const auto c =
      run({"--gfx", "gfx1100", "--wave32", "--wgp-mode", "--threads", "256", "--vgprs", "96", "--lds", "32K"});
  REQUIRE(c.status == exit_status::ok);
  CHECK_THAT(c.out, Contains("Work-group limit per WGP") && Contains("50.0%") && Contains("limited by LDS"));
}

TEST_CASE("cli amd: models, modes and the gate", "[cli][amd]") {
  const auto hip = run({"--gfx", "gfx906", "--model", "hip", "--threads", "64", "--vgprs", "24", "--json"});
  CHECK(nlohmann::json::parse(hip.out)["blocks_per_sm"] == 32);
  const auto cu =
      run({"--gfx", "gfx1030", "--cu-mode", "--threads", "256", "--vgprs", "16", "--lds", "40000", "--json"});
  const auto jcu = nlohmann::json::parse(cu.out);
  CHECK(jcu["unit"] == "cu");
  CHECK(jcu["waves_per_simd"] == 4.0);  // 1 group x 8 waves over 2 SIMDs (clang-19 agrees)
  const auto vliw = run({"--gpu", "Radeon HD 5870", "--threads", "64", "--vgprs", "8", "--json"});
  CHECK(nlohmann::json::parse(vliw.out)["model"] == "rcp");
  CHECK(nlohmann::json::parse(vliw.out)["occupancy"] == 0.25);
  // 1024 work-items in wave32 are 32 waves; 256 VGPRs allow 5 per SIMD, 20
  // per WGP: the work-group does not fit, a result of 0 naming the VGPRs.
  const auto none =
      nlohmann::json::parse(run({"--gfx", "gfx1100", "--threads", "1024", "--vgprs", "256", "--json"}).out);
  CHECK(none["blocks_per_sm"] == 0);
  CHECK(none["occupancy"] == 0.0);
  CHECK(none["limiters"] == nlohmann::json::array({"vgprs"}));
  const auto gate = run({"--gfx", "gfx90a", "--threads", "256", "--vgprs", "128", "--min-occupancy", "60"});
  CHECK(gate.status == exit_status::gate_failed);
  CHECK_THAT(gate.err, Contains("gate failed: occupancy 50.00%"));
}

TEST_CASE("cli amd: bad input is one line naming the field, exit 2", "[cli][amd][errors]") {
  using row = std::tuple<std::vector<std::string>, std::string>;
  const auto [args, message] = GENERATE(table<std::vector<std::string>, std::string>({
      row{{"--gfx", "gfx9999", "--threads", "64", "--vgprs", "8"},
          "occcalc: error: --gfx 'gfx9999' is not a known AMD target; did you mean gfx909? "
          "(occcalc list amd shows them all)\n"},
      row{{"--gfx", "gfx90a", "--wave32", "--threads", "64", "--vgprs", "8"},
          "occcalc: error: --wave32 does not apply to gfx90a: it runs waves of 64 work-items only\n"},
      row{{"--gfx", "gfx90a", "--cu-mode", "--threads", "64", "--vgprs", "8"},
          "occcalc: error: --cu-mode does not apply to gfx90a (CDNA2): it has no WGP mode, its work-groups run on one "
          "CU (the RDNA targets have CU and WGP modes)\n"},
      row{{"--gfx", "gfx1100", "--agprs", "4", "--threads", "64", "--vgprs", "8"},
          "occcalc: error: --agprs does not apply to gfx1100 (RDNA3): AGPRs exist on CDNA only\n"},
      row{{"--gfx", "cypress", "--sgprs", "4", "--threads", "64", "--vgprs", "8"},
          "occcalc: error: --sgprs does not apply to cypress (VLIW5): it has no scalar registers\n"},
      row{{"--gfx", "gfx90a", "--model", "rcp", "--threads", "64", "--vgprs", "8"},
          "occcalc: error: --model rcp does not apply to gfx90a (CDNA2); models for it: llvm, hip\n"},
      row{{"--gfx", "cypress", "--model", "llvm", "--threads", "64", "--vgprs", "8"},
          "occcalc: error: --model llvm does not apply to cypress (VLIW5); models for it: rcp\n"},
      row{{"--gfx", "gfx90a", "--model", "cuda", "--threads", "64", "--vgprs", "8"},
          "occcalc: error: --model 'cuda' is not a model; expected llvm, hip or rcp\n"},
      row{{"--gfx", "gfx90a", "--threads", "64", "--regs", "8"},
          "occcalc: error: --regs does not apply to AMD targets; give --vgprs (and --sgprs)\n"},
      row{{"--cc", "7.0", "--threads", "64", "--vgprs", "8"},
          "occcalc: error: --vgprs does not apply to NVIDIA architectures; give --regs\n"},
      row{{"--gfx", "gfx90a", "--threads", "2048", "--vgprs", "8"},
          "occcalc: error: --threads 2048 is outside [1, 1024] on gfx90a\n"},
      row{{"--gfx", "cypress", "--threads", "512", "--vgprs", "8"},
          "occcalc: error: --threads 512 is outside [1, 256] on cypress\n"},
      row{{"--gfx", "gfx90a", "--threads", "64", "--vgprs", "300"},
          "occcalc: error: --vgprs 300 is outside [0, 256] on gfx90a; give the AGPRs apart with --agprs (a code "
          "object's .vgpr_count, inspect's regs, counts both)\n"},
      row{{"--gfx", "gfx1100", "--threads", "64", "--vgprs", "8", "--lds", "65K"},
          "occcalc: error: --lds 65K is outside [0, 65536] bytes on gfx1100\n"},
      row{{"--gfx", "gfx1100", "--wave32", "--wave64", "--threads", "64", "--vgprs", "8"},
          "occcalc: error: --wave64 cannot be given together with --wave32\n"},
      row{{"--gfx", "gfx1100", "--threads", "64"},
          "occcalc: error: --vgprs is required: VGPRs per work-item, as the compiler reports them\n"},
      row{{"--vgprs", "8", "--threads", "64"},
          "occcalc: error: --gfx is required (or an AMD --gpu); e.g. gfx90a, gfx1100 or a GPU name\n"},
      row{{"--gpu", "Instinct MI300X", "--threads", "64", "--vgprs", "8", "--grid", "0"},
          "occcalc: error: --grid 0 is outside [1, 2147483647]\n"},
  }));
  CAPTURE(args);
  const auto r = run(args);
  CHECK(r.status == exit_status::bad_input);
  CHECK(r.err == message);
  CHECK(r.out.empty());
}

TEST_CASE("cli: a query read without CLI11 answers as CLI11's parse does", "[cli]") {
  // A query of request flags and --json alone is read directly (cli/app.cpp,
  // plain_query); --color never, which it does not read, sends the same
  // query through CLI11 (the runner's output is no terminal: no colour
  // either way). Both must print the same bytes and exit the same way.
  const auto [args] = GENERATE(table<std::vector<std::string>>({
      {{"--cc", "7.0", "--threads", "128", "--regs", "37"}},
      {{"--cc=7.0", "--threads=128", "--regs=37"}},
      {{"--json", "--cc", "8.6", "--threads", "1024", "--regs", "255", "--smem", "100K"}},
      {{"--gpu", "RTX 4090", "--threads", "256", "--regs", "64", "--smem", "16K", "--grid", "1024"}},
      {{"--gfx", "gfx1100", "--wave32", "--wgp-mode", "--threads", "256", "--vgprs", "96", "--lds", "32K"}},
      {{"--cc", "7.0", "--threads", "128"}},
      {{"--cc", "7.7", "--threads", "128", "--regs", "37"}},
      {{"--gfx", "gfx90a", "--threads", "256", "--vgprs", "128", "--cc", "7.0"}},
      {{"--json"}},
  }));
  std::vector<std::string> through_cli11 = args;
  through_cli11.insert(through_cli11.end(), {"--color", "never"});
  const auto direct = run(args);
  const auto parsed = run(through_cli11);
  INFO(args.front());
  CHECK(direct.status == parsed.status);
  CHECK(direct.out == parsed.out);
  CHECK(direct.err == parsed.err);
  CHECK(!(direct.out + direct.err).empty());
}

TEST_CASE("cli: what the direct read leaves to CLI11 keeps CLI11's messages", "[cli][errors]") {
  // A repeated flag, a missing value, a value that looks like a flag, an
  // unknown flag: each goes to CLI11, whose message names the flag.
  CHECK_THAT(run({"--cc", "7.0", "--threads", "128", "--regs", "37", "--regs", "40"}).err, Contains("--regs"));
  CHECK(run({"--cc", "7.0", "--threads", "128", "--regs"}).status == exit_status::bad_input);
  CHECK_THAT(run({"--cc", "7.0", "--thread", "128", "--regs", "37"}).err,
             Contains("did you mean --threads (threads per block"));
  CHECK_THAT(run({"--cc", "7.0", "--threads", "", "--regs", "37"}).err, Contains("--threads is empty"));
}

TEST_CASE("cli: a family name answers per SM, and per product where the SM count decides", "[cli][family]") {
  // Every A100 has 108 SMs: one answer, waves included, naming the three.
  const auto a100 = run({"--gpu", "A100", "--threads", "256", "--regs", "64", "--grid", "1000", "--json"});
  REQUIRE(a100.status == exit_status::ok);
  const auto j = nlohmann::json::parse(a100.out);
  CHECK(j["gpu"].is_null());
  CHECK(j["input"]["gpu"] == "A100");
  CHECK(j["family"]["name"] == "A100");
  CHECK(j["family"]["gpus"].size() == 3);
  // One SM count: the result's waves are theirs, none per product.
  CHECK(j["family"]["gpus"][2] == nlohmann::json({{"name", "A100-SXM4-80GB"}, {"sm_count", 108}, {"waves", nullptr}}));
  CHECK(j["blocks_per_wave"] == 432);  // 108 SMs x 4 blocks
  CHECK(j["occupancy"] == 0.5);

  // H100s have 132 or 114 SMs: the text and JSON give each one's waves.
  const std::vector<std::string> h100 = {"--gpu", "H100", "--threads", "256", "--regs", "64", "--grid", "1000"};
  const auto text = run(h100);
  CHECK(text.status == exit_status::ok);
  CHECK_THAT(text.out, Contains("H100: sm_90 (Hopper, compute capability 9.0)\n") &&
                           Contains("3 GPUs answer to H100: H100 SXM5 80GB (132 SMs), H100 PCIe (114 SMs)") &&
                           Contains("  H100 PCIe      114         456     2.19          2     19.3%\n") &&
                           Contains("  H100 NVL       132         528     1.89          1     89.4%\n"));
  auto json = h100;
  json.push_back("--json");
  const auto each = run(json);
  REQUIRE(each.status == exit_status::ok);
  const auto products = nlohmann::json::parse(each.out);
  CHECK(products["waves_per_sm"].is_null());
  CHECK(products["family"]["gpus"][1]["name"] == "H100 PCIe");
  CHECK(products["family"]["gpus"][1]["waves"] == nlohmann::json({{"waves_per_sm", 1000.0 / 456},
                                                                  {"full_waves", 2},
                                                                  {"tail_utilization", 88.0 / 456},
                                                                  {"blocks_per_wave", 456},
                                                                  {"whole_wave_grids", {912, 1368}}}));
  CHECK(products["family"]["gpus"][2]["waves"]["blocks_per_wave"] == 528);
  // Per SM alone, JSON answers too.
  const auto per_sm = run({"--gpu", "H100", "--threads", "256", "--regs", "64", "--json"});
  CHECK(per_sm.status == exit_status::ok);
  CHECK(nlohmann::json::parse(per_sm.out)["family"]["gpus"].size() == 3);

  // suggest's first help example; its min grid size per product.
  const auto suggest = run({"suggest", "--gpu", "A100", "--regs", "40"});
  CHECK(suggest.status == exit_status::ok);
  CHECK_THAT(suggest.out, Contains("A100, sm_80") && Contains("216  108 SMs x 2 blocks fill each A100"));
  const auto suggest_h100 = run({"suggest", "--gpu", "H100", "--regs", "40"});
  CHECK_THAT(suggest_h100.out, Contains("228  114 SMs x 2 blocks fill H100 PCIe"));
  // --json answers it too: each product's SMs and min grid size.
  const auto h100_json = run({"suggest", "--gpu", "H100", "--regs", "40", "--json"});
  REQUIRE(h100_json.status == exit_status::ok);
  const auto family = nlohmann::json::parse(h100_json.out)["family"];
  CHECK(family["name"] == "H100");
  CHECK(family["gpus"][1] == nlohmann::json({{"name", "H100 PCIe"}, {"sm_count", 114}, {"min_grid_size", 228}}));
  CHECK(nlohmann::json::parse(h100_json.out)["min_grid_size"].is_null());
  // A family whose products share their SM count answers one min grid size.
  CHECK(nlohmann::json::parse(run({"suggest", "--gpu", "A100", "--regs", "40", "--json"}).out)["min_grid_size"] == 216);
}

TEST_CASE("cli: --brief is the query's: a command without a one-line answer refuses it", "[cli][brief]") {
  const auto suggest = run({"suggest", "--cc", "8.0", "--regs", "32", "--brief"});
  CHECK(suggest.status == exit_status::bad_input);
  CHECK(suggest.err ==
        "occcalc: error: --brief applies to the query alone (occcalc --cc 8.0 --threads 256 --regs 32 --brief); "
        "suggest has no one-line answer\n");
  CHECK(run({"list", "--brief"}).status == exit_status::bad_input);
  CHECK(run({"sweep", "--vary", "regs", "--cc", "8.0", "--threads", "256", "--regs", "32", "--brief"}).status ==
        exit_status::bad_input);
}

TEST_CASE("cli: --brief answers in one line, for either vendor, and gates as the full answer", "[cli][brief]") {
  CHECK(run({"--cc", "7.0", "--threads", "128", "--regs", "37", "--brief"}).out ==
        "sm_70: 75.0%, 12 blocks and 48 of 64 warps per SM, limited by registers\n");
  CHECK(run({"--gpu", "RTX 4090", "--threads", "256", "--regs", "64", "--brief"}).out ==
        "GeForce RTX 4090 (sm_89): 66.7%, 4 blocks and 32 of 48 warps per SM, limited by registers\n");
  CHECK(run({"--gpu", "H100", "--threads", "256", "--regs", "64", "--brief"}).out ==
        "H100 (sm_90): 50.0%, 4 blocks and 32 of 64 warps per SM, limited by registers\n");
  CHECK(
      run({"--gfx", "gfx90a", "--threads", "256", "--vgprs", "128", "--sgprs", "32", "--lds", "16K", "--brief"}).out ==
      "gfx90a: 50.0%, 4 work-groups and 16 of 32 waves per CU, limited by VGPRs, LDS; 4 of 8 waves per SIMD\n");
  // In clusters: what a cluster launch keeps, and the clusters at once with what they rest on.
  CHECK(run({"--gpu", "H200", "--threads", "64", "--regs", "32", "--cluster", "16", "--brief"}).out ==
        "H200 (sm_90): 100.0%, 32 blocks and 64 of 64 warps per SM, limited by warps, registers, blocks; in "
        "clusters of 16: 8 blocks per SM (25.0%), 58 at once (measured)\n");
  CHECK(run({"--gpu", "H100", "--threads", "256", "--regs", "64", "--cluster", "8", "--brief"}).out ==
        "H100 (sm_90): 50.0%, 4 blocks and 32 of 64 warps per SM, limited by registers; in clusters of 8: 4 blocks "
        "per SM (50.0%), 62 at once on H100 SXM5 80GB (measured), 42 to 57 at once on H100 PCIe (gpc_counts), 54 "
        "to 66 at once on H100 NVL (gpc_counts)\n");
  const auto gate = run({"--cc", "7.0", "--threads", "128", "--regs", "37", "--brief", "--min-occupancy", "80"});
  CHECK(gate.status == exit_status::gate_failed);
  CHECK(gate.err == "occcalc: gate failed: occupancy 75.00% is below --min-occupancy 80\n");
  const auto both = run({"--cc", "7.0", "--threads", "128", "--regs", "37", "--brief", "--json"});
  CHECK(both.status == exit_status::bad_input);
  CHECK(both.err == "occcalc: error: --brief cannot be given together with --json\n");
}
