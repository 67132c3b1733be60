// PTX, a file or a fat binary's entries: the directives read directly, the
// registers from ptxas when it is on PATH. The fixtures and ptxas's own
// reports of them are made by tests/fixtures/inspect/make-fixtures.sh.
#include "catch.hpp"

#include <cstdlib>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "builds/readers/compiler_log.hpp"
#include "cli_runner.hpp"
#include "files.hpp"

using occcalc::cli::exit_status;
using occcalc::test::fixture_dir;
using occcalc::test::run;
using occcalc::test::matchers::Contains;

namespace {

bool ptxas_on_path() {
  const char* saved = std::getenv("PATH");
  const std::string path = saved ? saved : "";
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t end = std::min(path.find(':', start), path.size());
    if (std::ifstream(path.substr(start, end - start) + "/ptxas").good()) return true;
    start = end + 1;
  }
  return false;
}

/// Runs occcalc with PATH holding no ptxas.
occcalc::test::outcome run_without_ptxas(const std::vector<std::string>& args) {
  const char* saved = std::getenv("PATH");
  const std::string path = saved ? saved : "";
  ::setenv("PATH", "/nonexistent", 1);
  auto r = run(args);
  ::setenv("PATH", path.c_str(), 1);
  return r;
}

nlohmann::json kernels_of(const std::vector<std::string>& args) {
  const auto r = run(args);
  REQUIRE(r.status == exit_status::ok);
  return nlohmann::json::parse(r.out)["kernels"];
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("cli: PTX gives its launch directives, and registers when ptxas is on PATH", "[cli][inspect][ptx]") {
  const std::string ptx = fixture_dir + "/reqntid.ptx";  // .reqntid 128, 2, 1
  const auto bare = run_without_ptxas({"inspect", ptx, "--json"});
  CHECK(bare.status == exit_status::ok);
  CHECK(bare.err == "occcalc: note: " + ptx + ": PTX and ptxas is not on PATH: no register counts, so no occupancy\n");
  const auto k = nlohmann::json::parse(bare.out)["kernels"][0];
  CHECK(k["kernel"] == "fixed_block");
  CHECK(k["arch"] == "sm_80");
  CHECK(k["required_threads"] == nlohmann::json::array({128, 2, 1}));
  CHECK(k["min_blocks_per_sm"] == 4);
  CHECK_FALSE(k.contains("registers"));
  CHECK(k["occupancy_unavailable"] == "the input does not record the register count");
  // With ptxas (the toolkit's, when it is here) the figures are ptxas's own,
  // as in reqntid.sm_80.log: 8 registers.
  if (ptxas_on_path()) {
    const auto full = nlohmann::json::parse(run({"inspect", ptx, "--json"}).out)["kernels"][0];
    CHECK(full["registers"] == 8);
    CHECK(full["register_cap"] == 64);  // ptxas's cubin: 65536 / (4 blocks x 256 threads)
    CHECK(full["occupancy"]["blocks_per_sm"] == 8);
    CHECK_THAT(full["origin"].get<std::string>(), Contains("registers from ptxas -v"));
  }
}

TEST_CASE("cli: a PTX-only fat binary's kernels, as the driver compiles them", "[cli][inspect][ptx]") {
  // compute_75 and compute_90 PTX of kernels.cu, no cubin.
  const std::string fatbin = fixture_dir + "/ptx_only.fatbin";
  const auto bare = run_without_ptxas({"inspect", fatbin, "--json"});
  CHECK(bare.status == exit_status::ok);
  CHECK(bare.err ==
        "occcalc: note: " + fatbin + ": PTX and ptxas is not on PATH: no register counts, so no occupancy\n");
  const auto directives = nlohmann::json::parse(bare.out)["kernels"];
  REQUIRE(directives.size() == 20);
  for (const auto& k : directives) {
    CHECK_FALSE(k.contains("registers"));
    if (k["kernel"] == "_ZN4demo18bounded_min_blocksEPKfPfi") {
      CHECK(k["max_threads"] == nlohmann::json::array({256, 1, 1}));
      CHECK(k["min_blocks_per_sm"] == 4);  // __launch_bounds__(256, 4)
    }
  }
  // --arch sm_70: no PTX at or below it, so nothing the driver could run.
  const auto none = run({"inspect", fatbin, "--arch", "sm_70"});
  CHECK(none.status == exit_status::bad_input);  // a filter that matches nothing is said
  CHECK_THAT(none.out, Contains("0 kernels; 2 PTX or other non-cubin entries not read"));
  CHECK(none.err == "occcalc: error: --arch 'sm_70' matches no kernel in the 1 input\n");
  if (!ptxas_on_path()) return;

  SECTION("each PTX at its own target gives what nvcc's cubin for that target holds") {
    const auto all = kernels_of({"inspect", fatbin, "--json"});
    REQUIRE(all.size() == 20);
    for (const std::string sm : {"75", "90"}) {
      const auto built = kernels_of({"inspect", fixture_dir + "/kernels.sm_" + sm + ".cubin", "--json"});
      std::size_t compared = 0;
      for (const auto& k : all) {
        if (k["arch"] != "sm_" + sm) continue;
        CHECK_THAT(k["origin"].get<std::string>(), Contains("(compute_" + sm + " PTX, zstd)"));
        for (const auto& b : built) {
          if (b["kernel"] != k["kernel"]) continue;
          ++compared;
          INFO(k["kernel"] << " on sm_" << sm);
          for (const char* field : {"registers", "register_cap", "static_smem_bytes", "barriers", "max_threads"}) {
            CHECK(k.value(field, nlohmann::json()) == b.value(field, nlohmann::json()));
          }
        }
      }
      CHECK(compared == 10);
    }
  }
  SECTION("--arch past the newest PTX: the driver compiles that PTX for the GPU named") {
    const auto jit = kernels_of({"inspect", fatbin, "--arch", "sm_100", "--json"});
    const auto log = occcalc::inspect::read_compiler_log(read_file(fixture_dir + "/ptx_only.sm_100.log"));
    REQUIRE(jit.size() == 10);
    REQUIRE(log.size() == 10);
    for (const auto& k : jit) {
      CHECK(k["arch"] == "sm_100");
      CHECK_THAT(k["origin"].get<std::string>(), Contains("(compute_90 PTX, zstd), compiled by the driver for sm_100"));
      for (const auto& l : log) {
        if (l.name != k["kernel"]) continue;
        INFO(l.name);
        CHECK(k["registers"] == *l.registers);
        CHECK(k["spill_store_bytes"] == *l.spill_store_bytes);
      }
    }
    // sm_80: compute_75 is the newest PTX at or below it.
    const auto older = kernels_of({"inspect", fatbin, "--arch", "sm_80", "--json"});
    REQUIRE(older.size() == 10);
    CHECK_THAT(older[0]["origin"].get<std::string>(),
               Contains("(compute_75 PTX, zstd), compiled by the driver for sm_80"));
  }
}
