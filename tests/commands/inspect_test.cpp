// occcalc inspect and check, in-process.
#include "catch.hpp"

#include <filesystem>

#include <fstream>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "files.hpp"
#include "occcalc/version.hpp"

using occcalc::cli::exit_status;
using occcalc::test::fixture_dir;
using occcalc::test::run;
using occcalc::test::temp_file;
using occcalc::test::matchers::Contains;
using occcalc::test::matchers::StartsWith;

namespace {

const std::string cubin = fixture_dir + "/kernels.sm_80.cubin";

}  // namespace

/// An empty directory under the test build directory.
std::string empty_dir() {
  const std::string path = std::string(OCCCALC_TEMP_DIR) + "/empty_dir";
  std::filesystem::create_directories(path);
  return path;
}

TEST_CASE("cli: inspect errors name the input or the flag and exit 2", "[cli][inspect]") {
  struct error_case {
    std::vector<std::string> args;
    std::string message;
  };
  const auto c = GENERATE(values<error_case>({
      {{"inspect", "no/such/file.cubin"}, "occcalc: error: no/such/file.cubin: cannot open: No such file"},
      {{"inspect", empty_dir()}, "occcalc: error: " + empty_dir() + ": no GPU kernels in 0 files"},
      {{"inspect", "/dev/zero"}, "occcalc: error: /dev/zero: more than 268435456 bytes from a pipe or device"},
      {{"inspect", cubin, "--regs", "32"}, "occcalc: error: --regs does not apply to inspect"},
      {{"inspect", cubin, "--cc", "8.0"}, "occcalc: error: --cc does not apply to inspect"},
      {{"inspect", cubin, "--json", "--csv"}, "occcalc: error: --csv cannot be given together with --json"},
      {{"inspect", cubin, "--kernel", "("},
       "occcalc: error: --kernel '(' is not a valid RE2 regular expression: missing )"},
      {{"inspect", cubin, "--arch", "sm_9x"}, "occcalc: error: --arch 'sm_9x' is not a compute capability"},
      {{"inspect", cubin, "--threads", "0"}, "occcalc: error: --threads 0 is outside [1, 2147483647]"},
      {{"inspect", cubin, "--min-occupancy", "50"}, "occcalc: error: --min-occupancy does not apply to inspect"},
      {{"inspect"}, "occcalc: error: inspect needs INPUT...: the build outputs to read"},
      {{"check", cubin}, "occcalc: error: check needs --policy FILE and INPUT..."},
      {{"check", "--policy", "no/such/policy.json", cubin}, "occcalc: error: no/such/policy.json: cannot read"},
  }));
  const auto r = run(c.args);
  INFO(r.err);
  CHECK(r.status == exit_status::bad_input);
  CHECK_THAT(r.err, StartsWith(c.message));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.out.empty());
}

TEST_CASE("cli: check never passes silently", "[cli][inspect]") {
  const auto policy =
      temp_file("policy.json", R"({"schema_version": 1, "defaults": {"threads": 256, "min_occupancy": 10}})");
  SECTION("an input without kernels is an error, not a pass") {
    const auto log = temp_file("empty.log", "ptxas info    : 0 bytes gmem\n");
    const auto r = run({"check", "--policy", policy, log});
    CHECK(r.status == exit_status::bad_input);
    CHECK_THAT(r.err, Contains("no GPU kernels to check"));
  }
  SECTION("a filter that leaves nothing is an error too, in its own words") {
    const auto r = run({"check", "--policy", policy, fixture_dir + "/app", "--kernel", "nothing-matches"});
    CHECK(r.status == exit_status::bad_input);
    CHECK(r.err == "occcalc: error: --kernel 'nothing-matches' matches no kernel in the 1 input\n");
    CHECK(r.out.empty());
  }
  SECTION("a kernel whose occupancy cannot be computed fails an occupancy floor") {
    const auto log = temp_file("future.log",
                               "ptxas info    : Compiling entry function '_Z1kv' for 'sm_99'\n"
                               "ptxas info    : Used 10 registers, used 0 barriers\n");
    const auto r = run({"check", "--policy", policy, log});
    CHECK(r.status == exit_status::gate_failed);
    CHECK_THAT(r.out, Contains("occupancy unknown: sm_99 is not in the architecture table"));
  }
  SECTION("unknown policy fields are rejected") {
    const auto bad = temp_file("bad.json", R"({"schema_version": 1, "defaults": {"min_ocupancy": 10}})");
    const auto r = run({"check", "--policy", bad, fixture_dir + "/app"});
    CHECK(r.status == exit_status::bad_input);
    CHECK_THAT(r.err, Contains("field 'min_ocupancy': is not a known field"));
  }
  SECTION("a rule's bad pattern or architecture is rejected") {
    const auto bad =
        temp_file("regex.json", R"({"schema_version": 1, "rules": [{"kernel": "(", "min_occupancy": 1}]})");
    const auto r = run({"check", "--policy", bad, fixture_dir + "/app"});
    CHECK(r.status == exit_status::bad_input);
    CHECK_THAT(r.err, Contains("rules[0]: field 'kernel': '(' is not a valid RE2 regular expression"));
    const auto arch =
        temp_file("arch.json", R"({"schema_version": 1, "allow": [{"kernel": "k", "arch": "hopper", "reason": "r"}]})");
    const auto a = run({"check", "--policy", arch, fixture_dir + "/app"});
    CHECK(a.status == exit_status::bad_input);
    CHECK_THAT(a.err, Contains("allow[0]: field 'arch': 'hopper' is not a compute capability"));
  }
  SECTION("a duplicate key is rejected") {
    const auto bad = temp_file("dup.json", R"({"schema_version": 1, "schema_version": 1})");
    const auto r = run({"check", "--policy", bad, fixture_dir + "/app"});
    CHECK(r.status == exit_status::bad_input);
    CHECK_THAT(r.err, Contains("duplicate key 'schema_version'"));
  }
}

TEST_CASE("cli: inspect reads a log from stdin and notes inputs without kernels", "[cli][inspect]") {
  const auto r = run({"inspect", "-", "--json"}, "ptxas info    : 0 bytes gmem\n");
  CHECK(r.status == exit_status::ok);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["schema_version"] == occcalc::inspect_schema_version);
  CHECK(j["kernels"].empty());
  CHECK_THAT(r.err, Contains("-: no GPU kernels found"));
}

TEST_CASE("cli: inspect computes each kernel's occupancy with the calculator", "[cli][inspect]") {
  // demo::spilling on sm_80: 32 registers, __launch_bounds__(1024, 2) ->
  // 2 blocks of 32 warps = 64 warps = 100%. At --threads 96 (3 warps):
  // 64 / 3 = 21 blocks by warps (registers allow 65536 / 3072 = 21 too),
  // 63 warps.
  const auto r = run({"inspect", fixture_dir + "/kernels.sm_80.cubin", "--kernel", "spilling", "--json"});
  REQUIRE(r.status == exit_status::ok);
  const auto j = nlohmann::json::parse(r.out)["kernels"];
  REQUIRE(j.size() == 1);
  CHECK(j[0]["block_size"] == 1024);
  CHECK(j[0]["block_size_from"] == "launch bounds");
  CHECK(j[0]["occupancy"]["blocks_per_sm"] == 2);
  CHECK(j[0]["occupancy"]["occupancy"] == 1.0);
  const auto at96 = nlohmann::json::parse(
      run({"inspect", fixture_dir + "/kernels.sm_80.cubin", "--kernel", "spilling", "--json", "--threads", "96"})
          .out)["kernels"];
  CHECK(at96[0]["block_size_from"] == "--threads");
  CHECK(at96[0]["occupancy"]["blocks_per_sm"] == 21);
  CHECK(at96[0]["occupancy"]["active_warps_per_sm"] == 63);
}

TEST_CASE("cli amd: check gates AMD code objects", "[cli][amd][inspect]") {
  const std::string amd_fixtures = OCCCALC_AMD_FIXTURE_DIR;
  const auto policy =
      temp_file("amd-policy.json", R"({"schema_version": 1, "defaults": {"min_occupancy": 60, "no_spills": true},
    "rules": [{"kernel": "^wide$", "arch": "gfx90a", "max_registers": 64}]})");
  const auto r = run({"check", "--policy", policy, amd_fixtures + "/kernels.gfx90a.o", "--json"});
  CHECK(r.status == exit_status::gate_failed);
  const auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> failed;
  for (const auto& v : j["violations"])
    failed.push_back(v["kernel"].get<std::string>() + ":" + v["check"].get<std::string>());
  // lds_tile is LDS-limited to 50 %; wide has 67 VGPRs (and 87.5 %); no
  // kernel spills, which the code object records exactly.
  CHECK(failed == std::vector<std::string>{"lds_tile:occupancy", "wide:registers"});
  const auto hip = run({"check", "--policy", policy, amd_fixtures + "/kernels.gfx90a.o", "--model", "hip"});
  CHECK(hip.status == exit_status::gate_failed);
  CHECK_THAT(hip.out, Contains("lds_tile"));
}

TEST_CASE("cli: inputs that cannot be read are named, and the others still read", "[cli][inspect]") {
  // grep's convention: every input is tried, the exit code tells at the end.
  const auto r = run({"inspect", "no/such/file.cubin", cubin, "--csv"});
  CHECK(r.status == exit_status::bad_input);
  CHECK(r.err == "occcalc: error: no/such/file.cubin: cannot open: No such file or directory\n");
  CHECK_THAT(r.out, Contains("kernels.sm_80.cubin"));
  // check never passes when an input was not read, even with no violation.
  const std::string policy =
      temp_file("lenient.json", R"({"schema_version": 1, "defaults": {"threads": 128, "max_registers": 255}})");
  const auto c = run({"check", "--policy", policy, cubin, "no/such/file.cubin", "--json"});
  CHECK(c.status == exit_status::bad_input);
  const auto j = nlohmann::json::parse(c.out);
  CHECK(j["passed"] == false);
  CHECK(j["unreadable_inputs"] == 1);
  CHECK(j["kernels_checked"].get<int>() > 0);
}

TEST_CASE("cli: a directory is searched; what is not GPU code is counted, -v lists it", "[cli][inspect]") {
  namespace fs = std::filesystem;
  const fs::path tree = fs::path(OCCCALC_TEMP_DIR) / "build_tree";
  fs::remove_all(tree);
  fs::create_directories(tree / "lib" / "deep");
  fs::create_directories(tree / "docs");
  fs::copy_file(cubin, tree / "lib" / "kernels.sm_80.cubin");
  fs::copy_file(fixture_dir + "/libkernels.a", tree / "lib" / "deep" / "libkernels.a");
  fs::copy_file(fixture_dir + "/kernels.sm_90.log", tree / "build.log");
  std::ofstream(tree / "docs" / "README.txt") << "not a kernel\n";
  std::ofstream(tree / "CMakeCache.txt") << "CMAKE_BUILD_TYPE:STRING=Release\n";
  const auto r = run({"inspect", tree.string()});
  INFO(r.err);
  CHECK(r.status == exit_status::ok);
  CHECK_THAT(r.out, Contains("build.log (compiler log)"));
  CHECK_THAT(r.out, Contains("kernels.sm_80.cubin (cubin)"));
  CHECK_THAT(r.out, Contains("libkernels.a (static library): 40 kernels; 2 members without GPU code"));
  CHECK(r.err == "occcalc: note: " + tree.string() +
                     ": 2 files skipped, not GPU binaries or compiler logs: CMakeCache.txt, "
                     "docs/README.txt\n");
  const auto verbose = run({"inspect", tree.string(), "-v"});
  CHECK_THAT(verbose.err, Contains((tree / "CMakeCache.txt").string()));
  CHECK_THAT(verbose.err, Contains((tree / "docs" / "README.txt").string()));
  // A corrupt GPU binary among them is an error; the rest are still read.
  std::ofstream(tree / "lib" / "broken.cubin", std::ios::binary) << std::string(
      "\x7f"
      "ELF",
      4);
  const auto broken = run({"inspect", tree.string()});
  CHECK(broken.status == exit_status::bad_input);
  CHECK_THAT(broken.err, Contains("occcalc: error: " + (tree / "lib" / "broken.cubin").string()));
  CHECK_THAT(broken.out, Contains("libkernels.a"));
}

TEST_CASE("cli: a kernel without a declared block size is evaluated at suggest's, and a policy can require one",
          "[cli][inspect]") {
  // demo::static_smem declares no __launch_bounds__: 8 registers and 4 KiB
  // on sm_80, where cudaOccMaxPotentialOccupancyBlockSize picks 1024
  // threads (occcalc suggest --cc 8.0 --regs 8 --smem 4096).
  const auto r = run({"inspect", cubin, "--kernel", "static_smem", "--json"});
  const auto k = nlohmann::json::parse(r.out)["kernels"][0];
  CHECK(k["block_size"] == 1024);
  CHECK(k["block_size_from"] == "suggested");
  CHECK(k["occupancy"]["blocks_per_sm"] == 2);
  CHECK_THAT(run({"inspect", cubin, "--kernel", "static_smem"}).out, Contains("1024 (suggest)"));
  // --threads still wins, and a kernel's launch bounds too.
  CHECK(nlohmann::json::parse(run({"inspect", cubin, "--kernel", "static_smem", "--threads", "128", "--json"})
                                  .out)["kernels"][0]["block_size_from"] == "--threads");
  const std::string policy =
      temp_file("declared.json", R"({"schema_version": 1, "defaults": {"require_declared_block_size": true},
        "allow": [{"kernel": "plain_c", "check": "block_size", "reason": "launched by a harness at 32 threads"}]})");
  const auto c = run({"check", "--policy", policy, cubin, "--json"});
  CHECK(c.status == exit_status::gate_failed);
  const auto j = nlohmann::json::parse(c.out);
  std::vector<std::string> flagged;
  for (const auto& v : j["violations"]) {
    CHECK(v["check"] == "block_size");
    if (!v["allowed"].get<bool>()) flagged.push_back(v["kernel"]);
  }
  // The six kernels of kernels.cu without __launch_bounds__ (plain_c is allowed).
  CHECK(flagged.size() == 6);
  CHECK(std::find(flagged.begin(), flagged.end(), "_ZN4demo11static_smemEPKfPfi") != flagged.end());
  CHECK(std::find(flagged.begin(), flagged.end(), "_ZN4demo7boundedEPKfPfi") == flagged.end());
}

TEST_CASE("cli: a Triton cache is read with each kernel's launch from its metadata", "[cli][inspect][triton]") {
  // tests/fixtures/triton/make-fixtures.sh: add_kernel (num_warps 4, shared
  // 0) and matmul_kernel (num_warps 8, shared 1024), sm_80.
  const std::string cache = std::string(OCCCALC_SOURCE_DIR) + "/tests/fixtures/triton/cache";
  const auto r = run({"inspect", cache, "--json"});
  INFO(r.err);
  CHECK(r.status == exit_status::ok);
  CHECK(r.err.empty());  // the metadata, PTX and group index are Triton's, not skipped junk
  const auto kernels = nlohmann::json::parse(r.out)["kernels"];
  REQUIRE(kernels.size() == 2);
  const auto& matmul = kernels[0];
  CHECK(matmul["kernel"] == "matmul_kernel");
  CHECK(matmul["block_size"] == 256);  // 8 warps of 32
  CHECK(matmul["block_size_from"] == "triton");
  CHECK_THAT(matmul["origin"].get<std::string>(),
             Contains("matmul_kernel.json: num_warps 8, shared 1024 B, num_ctas 1, cluster 1x1x1"));
  // 40 registers x 256 threads: 65536 / 10240 = 6 blocks; the 1 KiB of
  // dynamic shared memory allows more.
  CHECK(matmul["occupancy"]["blocks_per_sm"] == 6);
  CHECK(matmul["dyn_smem_bytes"] == 1024);
  CHECK(kernels[1]["kernel"] == "add_kernel");
  CHECK(kernels[1]["block_size"] == 128);
  // A Triton file with an impossible value is named; the kernel is still read.
  namespace fs = std::filesystem;
  const fs::path copy = fs::path(OCCCALC_TEMP_DIR) / "triton_bad";
  fs::remove_all(copy);
  fs::create_directories(copy);
  fs::copy(cache + "/9f3c2a7d1e", copy);
  std::ofstream(copy / "add_kernel.json") << R"({"num_warps": 3000, "shared": 0, "name": "add_kernel"})";
  const auto bad = run({"inspect", copy.string()});
  CHECK(bad.status == exit_status::bad_input);
  CHECK_THAT(bad.err, Contains("add_kernel.json: Triton metadata field 'num_warps' is 3000"));
}

TEST_CASE("cli: a kernel that declares clusters says what a cluster launch keeps per SM", "[cli][inspect][cluster]") {
  // cluster.cu: __cluster_dims__(2, 1, 1), 128 threads (launch bounds), 10 registers on sm_90: 16 blocks per
  // SM, of which a cluster launch keeps 8 (docs/clusters.md): 32 of 64 warps.
  const std::string clustered = std::string(OCCCALC_FIXTURE_DIR) + "/cluster.sm_90.cubin";
  const auto j = nlohmann::json::parse(run({"inspect", clustered, "--json"}).out);
  const auto& k = j["kernels"][0];
  CHECK(k["cluster_dims"] == nlohmann::json::array({2, 1, 1}));
  CHECK(k["occupancy"]["blocks_per_sm"] == 16);
  CHECK(k["cluster"] == nlohmann::json::parse(
                            R"({"blocks": 2, "blocks_per_sm": {"fewest": 8, "most": 8},
                                "occupancy": {"fewest": 0.5, "most": 0.5}})"));
  const auto text = run({"inspect", clustered});
  CHECK_THAT(text.out, Contains("clustered(float*) keeps 8 of its 16 blocks per SM in clusters of 2, 50.0%"));
  // No declared cluster, no cluster record.
  const auto plain =
      nlohmann::json::parse(run({"inspect", std::string(OCCCALC_FIXTURE_DIR) + "/kernels.sm_90.cubin", "--json"}).out);
  for (const auto& kernel : plain["kernels"]) CHECK_FALSE(kernel.contains("cluster"));

  // Triton's num_ctas 2 launches clusters of its cluster_dims: an sm_90 cubin laid out as Triton's cache.
  namespace fs = std::filesystem;
  const fs::path cache = fs::path(OCCCALC_TEMP_DIR) / "triton_ctas" / "0123abcd";
  fs::remove_all(cache.parent_path());
  fs::create_directories(cache);
  fs::copy(std::string(OCCCALC_FIXTURE_DIR) + "/kernels.sm_90.cubin", cache / "plain_c.cubin");
  std::ofstream(cache / "plain_c.json")
      << R"({"hash": "0123abcd", "target": {"backend": "cuda", "arch": 90, "warp_size": 32}, "num_warps": 2,
             "num_ctas": 2, "num_stages": 3, "cluster_dims": [2, 1, 1], "shared": 0, "name": "plain_c"})";
  const auto triton = nlohmann::json::parse(run({"inspect", cache.parent_path().string(), "--json"}).out);
  const auto found = std::find_if(triton["kernels"].begin(), triton["kernels"].end(),
                                  [](const auto& r) { return r["kernel"] == "plain_c"; });
  REQUIRE(found != triton["kernels"].end());
  // 64 threads, 8 registers: 32 blocks per SM (the blocks limit), 8 in a cluster launch: 16 of 64 warps.
  CHECK((*found)["occupancy"]["blocks_per_sm"] == 32);
  CHECK((*found)["cluster"]["blocks_per_sm"]["most"] == 8);
  CHECK((*found)["cluster"]["occupancy"]["most"] == 0.25);
}

TEST_CASE("cli: AMD compiler remarks take their target from --arch, and say so without it", "[cli][inspect][amd]") {
  const std::string remarks = std::string(OCCCALC_AMD_FIXTURE_DIR) + "/mfma.gfx90a.remarks";
  const auto bare = run({"inspect", remarks});
  CHECK(bare.status == exit_status::ok);
  CHECK(bare.err ==
        "occcalc: note: " + remarks + ": compiler remarks do not name their target: give --arch (e.g. gfx90a)\n");
  const auto j = nlohmann::json::parse(run({"inspect", remarks, "--arch", "gfx90a", "--json"}).out);
  const auto& k = j["kernels"][0];
  CHECK(k["arch"] == "gfx90a");
  CHECK(k["registers"] == 56);  // roundup(22 VGPRs, 4) + 32 AGPRs, as the code object's .vgpr_count
  CHECK(k["block_size_from"] == "suggested");
}

TEST_CASE("cli: --arch takes every AMD target name the readers give, generic ones included", "[cli][inspect][amd]") {
  const std::string object = std::string(OCCCALC_AMD_FIXTURE_DIR) + "/kernels22.gfx11-generic.o";
  const auto all = nlohmann::json::parse(run({"inspect", object, "--json"}).out)["kernels"];
  REQUIRE_FALSE(all.empty());
  CHECK(all[0]["arch"] == "gfx11-generic");
  const auto chosen = run({"inspect", object, "--arch", "gfx11-generic", "--json"});
  CHECK(chosen.status == exit_status::ok);
  CHECK(nlohmann::json::parse(chosen.out)["kernels"].size() == all.size());
  CHECK(nlohmann::json::parse(run({"inspect", object, "--arch", "gfx1100", "--json"}).out)["kernels"].empty());
  const auto bad = run({"inspect", object, "--arch", "gfx11-gen"});
  CHECK(bad.status == exit_status::bad_input);
  CHECK(bad.err ==
        "occcalc: error: --arch 'gfx11-gen' is not an AMD target such as gfx90a, gfx90a:xnack+ or gfx11-generic\n");
}

TEST_CASE("cli: an AMD target ID's features stay in every output and choose with --arch", "[cli][inspect][amd]") {
  // One HIP object, both XNACK variants of gfx90a (make-fixtures.sh): the
  // bundle's target IDs as clang wrote them.
  const std::string object = std::string(OCCCALC_AMD_FIXTURE_DIR) + "/app.xnack.o";
  const auto all = nlohmann::json::parse(run({"inspect", object, "--json"}).out)["kernels"];
  REQUIRE(all.size() == 4);
  CHECK(all[0]["arch"] == "gfx90a:xnack+");
  CHECK(all[2]["arch"] == "gfx90a:xnack-");
  // XNACK on costs SGPRs: the compiler's figures, each variant's own.
  CHECK(all[0]["sgprs"] == 11);
  CHECK(all[2]["sgprs"] == 6);
  const auto chosen = [&](const char* arch) {
    std::vector<std::string> archs;
    const auto j = nlohmann::json::parse(run({"inspect", object, "--arch", arch, "--json"}).out);
    for (const auto& k : j["kernels"]) {
      archs.push_back(k["arch"]);
    }
    return archs;
  };
  // What a GPU of that target loads: any variant on a gfx90a named without features.
  CHECK(chosen("gfx90a").size() == 4);
  CHECK(chosen("gfx90a:xnack+") == std::vector<std::string>{"gfx90a:xnack+", "gfx90a:xnack+"});
  CHECK(chosen("GFX90A:XNACK-") == std::vector<std::string>{"gfx90a:xnack-", "gfx90a:xnack-"});
  CHECK(chosen("gfx90a:sramecc+:xnack-").size() == 2);
  for (const char* bad : {"gfx90a:xnack", "gfx90a:xnack+:xnack-", "gfx90a:cumode+"}) {
    INFO(bad);
    const auto r = run({"inspect", object, "--arch", bad});
    CHECK(r.status == exit_status::bad_input);
    CHECK_THAT(r.err, Contains("is not an AMD target such as gfx90a, gfx90a:xnack+ or gfx11-generic"));
  }
  // The query takes a target ID as rocminfo and clang spell it; the features leave the limits alone.
  CHECK(run({"--gfx", "gfx90a:xnack+", "--threads", "256", "--vgprs", "64", "--json"}).out ==
        run({"--gfx", "gfx90a", "--threads", "256", "--vgprs", "64", "--json"}).out);
}

TEST_CASE("cli: many kernels stream out in order, each format whole", "[cli][inspect]") {
  // More kernels than one run of reports (2,048): the formats written as
  // each run comes hold every kernel in order, and the text table's widths
  // come from every row, the last run's included.
  constexpr int kernels = 5000;
  std::string log;
  for (int i = 0; i < kernels; ++i) {
    const std::string id = "kernel" + std::to_string(i);
    const std::string name = "_Z" + std::to_string(id.size()) + id + "v";
    log += "ptxas info    : Compiling entry function '" + name + "' for 'sm_80'\n";
    log += "ptxas info    : Function properties for " + name + "\n";
    log += "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";
    log += "ptxas info    : Used " + std::to_string(8 + i % 200) + " registers, used 0 barriers, " +
           std::to_string(i == kernels - 1 ? 1048576 : 0) + " bytes smem, 368 bytes cmem[0]\n";
  }
  const auto json = run({"inspect", "-", "--json", "--threads", "128"}, log);
  REQUIRE(json.status == exit_status::ok);
  const auto records = nlohmann::json::parse(json.out)["kernels"];
  REQUIRE(records.size() == kernels);
  for (int i = 0; i < kernels; i += 499) {
    INFO(i);
    CHECK(records[i]["name"] == "kernel" + std::to_string(i) + "()");
    CHECK(records[i]["registers"] == 8 + i % 200);
  }
  CHECK(records[kernels - 1]["static_smem_bytes"] == 1048576);
  const auto csv = run({"inspect", "-", "--csv", "--threads", "128"}, log);
  CHECK(std::count(csv.out.begin(), csv.out.end(), '\n') == kernels + 1);
  const auto text = run({"inspect", "-", "--threads", "128", "--columns", "smem,kernel"}, log);
  CHECK_THAT(text.out, StartsWith("standard input (compiler log): 5000 kernels\n"));
  // The first row's smem cell is as wide as the last row's 1048576.
  CHECK_THAT(text.out, Contains("\n        0 kernel0()\n"));
  CHECK_THAT(text.out, Contains("\n  1048576 kernel4999()\n"));
}

TEST_CASE("inspect: a gfx1250 kernel that declares no size has no occupancy and says why, never a crash",
          "[cli][inspect][amd]") {
  // gfx1250 runs no HIP model, so HIP's block size search has nothing to search with: it read an empty
  // optional and died of a division by zero (SIGFPE).
  const std::string remarks = std::string(OCCCALC_AMD_FIXTURE_DIR) + "/remarks22.gfx1250.remarks";
  const auto r = run({"inspect", remarks, "--arch", "gfx1250"});
  CHECK(r.status == exit_status::ok);
  CHECK_THAT(r.out, Contains("no occupancy for 2 kernels: the kernel declares no work-group size, and HIP's"));
  const auto sized = run({"inspect", remarks, "--arch", "gfx1250", "--threads", "256", "--json"});
  CHECK(sized.status == exit_status::ok);
  CHECK_THAT(sized.out, Contains("\"block_size\":256"));
}
