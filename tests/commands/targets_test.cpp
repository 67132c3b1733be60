// CUDA 13's suffixed targets and the image the driver loads for --arch
// (docs/reference.md, "Which image --arch reads"). targets.fatbin
// (make-fixtures.sh, nvcc 13) holds diff.cu's three kernels as sm_100f,
// sm_100a, sm_90a and sm_120 cubins and compute_90 and compute_120 PTX.
#include "catch.hpp"

#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "files.hpp"

using occcalc::cli::exit_status;
using occcalc::test::fixture_dir;
using occcalc::test::run;

namespace {

const std::string fatbin = fixture_dir + "/targets.fatbin";

/// Each record's arch and origin, for one inspect of targets.fatbin.
std::set<std::pair<std::string, std::string>> images(const std::string& arch) {
  std::vector<std::string> args = {"inspect", fatbin, "--json"};
  if (!arch.empty()) args.insert(args.end(), {"--arch", arch});
  const auto r = run(args);
  REQUIRE(r.status == exit_status::ok);
  std::set<std::pair<std::string, std::string>> out;
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["kernels"].size() % 3 == 0);  // every kernel of each image read
  for (const auto& k : doc["kernels"]) out.emplace(k["arch"], k["origin"]);
  return out;
}

using image_set = std::set<std::pair<std::string, std::string>>;

}  // namespace

TEST_CASE("targets: each record keeps its cubin's suffix, from the entry's flags or the cubin's .nv.compat",
          "[cli][inspect][targets]") {
  CHECK(images("") == image_set{{"sm_100f", "entry 1 (sm_100f)"},
                                {"sm_100a", "entry 2 (sm_100a)"},
                                {"sm_90a", "entry 3 (sm_90a)"},
                                {"sm_120", "entry 5 (sm_120)"}});
  // A cubin alone: the suffix is in .nv.compat (a family cubin's is not).
  const auto alone = nlohmann::json::parse(run({"inspect", fixture_dir + "/diff.sm_90a.cubin", "--json"}).out);
  for (const auto& k : alone["kernels"]) CHECK(k["arch"] == "sm_90a");
  CHECK(alone["kernels"].size() == 3);
}

TEST_CASE("targets: every suffixed target nvcc 13 accepts keeps its suffix; a family cubin alone too",
          "[cli][inspect][targets]") {
  const auto r = run({"inspect", fixture_dir + "/suffixes.fatbin", "--json"});
  REQUIRE(r.status == exit_status::ok);
  std::map<std::string, int> kernels_by_arch;
  const auto doc = nlohmann::json::parse(r.out);
  for (const auto& k : doc["kernels"]) ++kernels_by_arch[k["arch"].get<std::string>()];
  const std::map<std::string, int> every = {{"sm_90a", 3},  {"sm_100a", 3}, {"sm_100f", 3}, {"sm_103a", 3},
                                            {"sm_103f", 3}, {"sm_110a", 3}, {"sm_110f", 3}, {"sm_120a", 3},
                                            {"sm_120f", 3}, {"sm_121a", 3}, {"sm_121f", 3}};
  CHECK(kernels_by_arch == every);
  // Alone, an sm_100f cubin is a plain one but for ptxas' options in .note.nv.tkinfo.
  const auto alone = nlohmann::json::parse(run({"inspect", fixture_dir + "/diff.sm_100f.cubin", "--json"}).out);
  REQUIRE(alone["kernels"].size() == 3);
  for (const auto& k : alone["kernels"]) CHECK(k["arch"] == "sm_100f");
  // A plain cubin's options name sm_100: it stays plain.
  const auto plain = nlohmann::json::parse(run({"inspect", fixture_dir + "/kernels.sm_100.cubin", "--json"}).out);
  CHECK(plain["kernels"][0]["arch"] == "sm_100");
}

TEST_CASE("targets: --arch takes an exact cubin first, an arch-specific one before a family one",
          "[cli][inspect][targets]") {
  CHECK(images("sm_100") == image_set{{"sm_100a", "entry 2 (sm_100a)"}});
  // An a cubin is its own GPU's: sm_90a for 9.0.
  CHECK(images("sm_90") == image_set{{"sm_90a", "entry 3 (sm_90a)"}});
  CHECK(images("sm_120") == image_set{{"sm_120", "entry 5 (sm_120)"}});
}

TEST_CASE("targets: --arch takes a family cubin of its major, never another GPU's arch-specific one",
          "[cli][inspect][targets]") {
  // 10.3: sm_100f runs there (family), sm_100a does not.
  CHECK(images("sm_103") == image_set{{"sm_103", "entry 1 (sm_100f), loaded by sm_103: a family cubin of its major"}});
}

TEST_CASE("targets: --arch takes an earlier cubin of its major before any PTX", "[cli][inspect][targets]") {
  // 12.1 runs the sm_120 cubin (binary compatibility); the compute_120 PTX beside it is not compiled.
  CHECK(images("sm_121") ==
        image_set{{"sm_121", "entry 5 (sm_120), loaded by sm_121: a cubin of an earlier GPU of its major"}});
}

TEST_CASE("targets: --arch with no cubin of its major compiles the newest PTX not newer than it",
          "[cli][inspect][targets]") {
  // 11.0: no cubin of major 11; compute_120 is newer; compute_90 is compiled.
  const auto r = run({"inspect", fatbin, "--arch", "sm_110", "--json"});
  REQUIRE(r.status == exit_status::ok);
  const auto doc = nlohmann::json::parse(r.out);
  REQUIRE(doc["kernels"].size() == 3);
  for (const auto& k : doc["kernels"]) {
    CHECK(k["arch"] == "sm_110");
    CHECK(k["origin"].get<std::string>().rfind("entry 4 (compute_90 PTX, zstd), compiled by the driver for sm_110",
                                               0) == 0);
  }
  // 8.9: the sm_90a cubin is 9.0's alone and the PTX is newer: nothing a GPU of 8.9 loads.
  const auto none = run({"inspect", fatbin, "--arch", "sm_89"});
  CHECK(none.status == exit_status::bad_input);
  CHECK(none.err == "occcalc: error: --arch 'sm_89' matches no kernel in the 1 input\n");
}
