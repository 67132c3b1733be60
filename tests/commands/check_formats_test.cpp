// check's CI formats: GitHub workflow commands with their escapes and the
// step summary, SARIF 2.1.0 with the structure code scanning reads, and the
// Markdown table.
#include "catch.hpp"

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "files.hpp"

using occcalc::cli::exit_status;
using occcalc::test::log_fixture;
using occcalc::test::run;
using occcalc::test::strict;
using occcalc::test::matchers::Contains;
using occcalc::test::matchers::StartsWith;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("check --format github: one workflow command per violation, escaped as GitHub requires", "[cli][check]") {
  const auto r = run({"check", "--policy", strict, log_fixture, "--kernel", "static_smem|spill", "--format", "github"});
  CHECK(r.status == exit_status::gate_failed);
  const auto lines = lines_of(r.out);
  REQUIRE(lines.size() == 4);
  // ::error file=F,title=T::MESSAGE; in properties ':' and ',' are %3A and
  // %2C, and in every part '%' is %25 (https://docs.github.com/actions,
  // "Workflow commands").
  const std::regex command(R"(^::(error|warning) file=[^,:]*,title=[^,:]*::.+$)");
  for (std::size_t i = 0; i < 3; ++i) CHECK(std::regex_match(lines[i], command));
  // Worst first: the lowest occupancy (static_smem's 50%) leads.
  CHECK(lines[0] ==
        "::error file=" + log_fixture +
            ",title=occcalc check%3A occupancy::demo::static_smem(float const*, float*, int) (sm_90): occupancy "
            "50.00%25 at 32 threads is below 75%25 (limited by blocks) [defaults]");
  CHECK(lines[1] ==
        "::error file=" + log_fixture +
            ",title=occcalc check%3A registers::demo::spilling(float const*, float*, int, int) (sm_90): 32 registers "
            "per thread exceeds 16 [defaults]");
  CHECK(lines[3] ==
        "failed: 2 kernels checked, 3 violations; judged at 1024 threads (policy) for 1, 32 (policy) for 1");
}

TEST_CASE("check --format github appends a Markdown summary where GITHUB_STEP_SUMMARY points", "[cli][check]") {
  const std::string summary = std::string(OCCCALC_TEMP_DIR) + "/step_summary.md";
  std::ofstream(summary) << "earlier step\n";
  ::setenv("GITHUB_STEP_SUMMARY", summary.c_str(), 1);
  const auto r = run({"check", "--policy", strict, log_fixture, "--kernel", "spill", "--format", "github"});
  ::unsetenv("GITHUB_STEP_SUMMARY");
  CHECK(r.status == exit_status::gate_failed);
  std::ifstream in(summary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(text, StartsWith("earlier step\n### occcalc check: failed\n"));
  CHECK_THAT(text, Contains("| **fail** | `" + log_fixture +
                            "` | sm\\_90 | `demo::spilling(float const*, float*, int, int)` | registers | 32 registers "
                            "per thread exceeds 16 | defaults |"));
}

TEST_CASE("check --format sarif: a SARIF 2.1.0 log code scanning accepts", "[cli][check]") {
  const std::string policy = std::string(OCCCALC_TEMP_DIR) + "/sarif-policy.json";
  std::ofstream(policy) << R"({"schema_version": 1, "defaults": {"max_registers": 16, "no_spills": true},
    "allow": [{"kernel": "spilling", "check": "registers", "reason": "unrolled by design"}]})";
  const auto r = run({"check", "--policy", policy, log_fixture, "--format", "sarif"});
  CHECK(r.status == exit_status::gate_failed);
  const auto log = nlohmann::json::parse(r.out);
  // The structure SARIF 2.1.0 requires and GitHub code scanning reads.
  CHECK(log["version"] == "2.1.0");
  CHECK(log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json");
  REQUIRE(log["runs"].size() == 1);
  const auto& run0 = log["runs"][0];
  CHECK(run0["tool"]["driver"]["name"] == "occcalc");
  std::set<std::string> rule_ids;
  for (const auto& rule : run0["tool"]["driver"]["rules"]) {
    CHECK(rule_ids.insert(rule["id"].get<std::string>()).second);
    CHECK_FALSE(rule["shortDescription"]["text"].get<std::string>().empty());
  }
  CHECK(rule_ids == std::set<std::string>{"occupancy", "registers", "stack", "spills", "block_size"});
  REQUIRE(run0["results"].size() == 2);
  for (const auto& result : run0["results"]) {
    const auto& rules = run0["tool"]["driver"]["rules"];
    CHECK(rules[result["ruleIndex"].get<std::size_t>()]["id"] == result["ruleId"]);
    CHECK(std::set<std::string>{"error", "warning", "note", "none"}.count(result["level"].get<std::string>()) == 1);
    CHECK_FALSE(result["message"]["text"].get<std::string>().empty());
    // An absolute path is a file URI.
    CHECK(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "file://" + log_fixture);
    CHECK(result["properties"]["arch"] == "sm_90");
    CHECK_FALSE(result["partialFingerprints"]["occcalcKernel/v1"].get<std::string>().empty());
  }
  // The allowed violation is a suppressed note with its reason.
  const auto& allowed = run0["results"][0];
  CHECK(allowed["ruleId"] == "registers");
  CHECK(allowed["level"] == "note");
  CHECK(allowed["suppressions"][0]["justification"] == "unrolled by design");
  CHECK(run0["results"][1]["ruleId"] == "spills");
  CHECK(run0["results"][1]["level"] == "error");
  CHECK(run0["invocations"][0]["executionSuccessful"] == true);
  // A path outside the URI's unreserved characters is percent-encoded.
  const std::string spaced = std::string(OCCCALC_TEMP_DIR) + "/a dir,1.log";
  std::ofstream(spaced, std::ios::binary) << std::ifstream(log_fixture, std::ios::binary).rdbuf();
  const auto encoded = nlohmann::json::parse(run({"check", "--policy", policy, spaced, "--format", "sarif"}).out);
  CHECK(encoded["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "file://" + std::string(OCCCALC_TEMP_DIR) + "/a%20dir%2C1.log");
}

TEST_CASE("check --format: markdown, and the names it refuses", "[cli][check]") {
  const auto md = run({"check", "--policy", strict, log_fixture, "--kernel", "static_smem", "--format", "markdown"});
  CHECK(md.status == exit_status::gate_failed);
  CHECK_THAT(md.out, StartsWith("### occcalc check: failed\n\nfailed: 1 kernel checked, 1 violation; judged at 32 "
                                "threads (policy) for 1.\n\n"
                                "| check | failed | allowed |\n|---|---|---|\n| occupancy | 1 | 0 |\n\n"
                                "| | file | arch | kernel | check | finding | rule |\n"));
  const auto bad = run({"check", "--policy", strict, log_fixture, "--format", "csv"});
  CHECK(bad.status == exit_status::bad_input);
  CHECK(bad.err == "occcalc: error: --format 'csv' is not one of text, json, github, sarif or markdown\n");
  const auto both = run({"check", "--policy", strict, log_fixture, "--format", "json", "--json"});
  CHECK(both.status == exit_status::bad_input);
}

TEST_CASE("check names policy entries that did nothing, and a misspelt field gets a did-you-mean", "[cli][check]") {
  const std::string policy = std::string(OCCCALC_TEMP_DIR) + "/stale-policy.json";
  std::ofstream(policy) << R"({"schema_version": 1, "defaults": {"max_registers": 255},
    "rules": [{"kernel": "spilling", "max_registers": 64}, {"kernel": "no_such_kernel", "max_registers": 8}],
    "allow": [{"kernel": "spilling", "check": "registers", "reason": "excuses nothing: 32 <= 64"}]})";
  const auto r = run({"check", "--policy", policy, log_fixture, "--json"});
  CHECK(r.status == exit_status::ok);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["unused_policy_entries"] == nlohmann::json::array({"rules[1] (no_such_kernel) matched no kernel",
                                                             "allow[0] (spilling) excused no violation"}));
  const auto text = run({"check", "--policy", policy, log_fixture});
  CHECK_THAT(text.out, Contains("note: rules[1] (no_such_kernel) matched no kernel (a stale policy entry?)\n"));
  // With a filter, entries for the kernels left out are not stale.
  CHECK(nlohmann::json::parse(
            run({"check", "--policy", policy, log_fixture, "--kernel", "spill", "--json"}).out)["unused_policy_entries"]
            .empty());
  const std::string typo = std::string(OCCCALC_TEMP_DIR) + "/typo-policy.json";
  std::ofstream(typo) << R"({"schema_version": 1, "defaults": {"min_ocupancy": 50}})";
  const auto t = run({"check", "--policy", typo, log_fixture});
  CHECK(t.status == exit_status::bad_input);
  CHECK(t.err == "occcalc: error: " + typo +
                     ": defaults: field 'min_ocupancy': is not a known field; did you mean 'min_occupancy'?\n");
  std::ofstream(typo) << R"({"schema_version": 1, "defaults": {"min_occupancy": 50}, "rules": [{"kernal": "x"}]})";
  CHECK(run({"check", "--policy", typo, log_fixture}).err ==
        "occcalc: error: " + typo +
            ": rules[0]: field 'kernel': is missing; 'kernal' looks like a misspelling of it\n");
}

TEST_CASE("check judges a kernel that declares clusters at what a cluster launch keeps, in every format",
          "[cli][check][cluster]") {
  // cluster.sm_90.cubin: nvcc 13's __cluster_dims__(2, 1, 1) __launch_bounds__(128) kernel. 16 blocks per SM
  // without clusters (100%); a cluster launch keeps 8 of them on 9.0 (50%), under a 75% floor.
  const std::string cubin = std::string(OCCCALC_FIXTURE_DIR) + "/cluster.sm_90.cubin";
  const std::string policy = std::string(OCCCALC_TEMP_DIR) + "/cluster_policy.json";
  std::ofstream(policy) << R"({"schema_version": 1, "defaults": {"min_occupancy": 75}})";
  const std::string message =
      "occupancy 50.00% in clusters of 2 blocks at 128 threads is below 75% (limited by the cluster launch, which "
      "keeps 8 of its 16 blocks per SM)";
  for (const char* format : {"text", "json", "sarif", "github", "markdown"}) {
    CAPTURE(format);
    const auto r = run({"check", "--policy", policy, cubin, "--format", format});
    CHECK(r.status == exit_status::gate_failed);
    std::string out = r.out;
    // Each format's own escapes taken out: GitHub's %25, Markdown's backslashes; text wraps its lines.
    for (const auto& [from, to] :
         std::vector<std::pair<std::string, std::string>>{{"%25", "%"}, {"\\", ""}, {"\n          ", " "}}) {
      for (std::size_t at = out.find(from); at != std::string::npos; at = out.find(from, at + to.size())) {
        out.replace(at, from.size(), to);
      }
    }
    CHECK_THAT(out, Contains(message));
  }
  // The query's own gate says the same of the same launch.
  const auto q = run({"--cc", "9.0", "--threads", "128", "--regs", "10", "--cluster", "2", "--min-occupancy", "75"});
  CHECK(q.status == exit_status::gate_failed);
  CHECK_THAT(q.err, Contains("occupancy 50.00% in clusters of 2 blocks is below --min-occupancy 75"));
  // A policy's cluster and dynamic shared memory for a kernel that declares neither.
  std::ofstream(policy) << R"({"schema_version": 1, "defaults": {"min_occupancy": 75},
                              "rules": [{"kernel": "spill", "threads": 128, "cluster": "4x2", "dyn_smem": "100K"}]})";
  const auto p = run({"check", "--policy", policy, log_fixture, "--kernel", "spill", "--format", "json"});
  CHECK(p.status == exit_status::gate_failed);
  CHECK_THAT(p.out, Contains("in clusters of 8 blocks"));
  std::ofstream(policy) << R"({"schema_version": 1, "defaults": {"min_occupancy": 75},
                              "rules": [{"kernel": "spill", "dyn_smem": "100K", "clusters": 2}]})";
  const auto typo = run({"check", "--policy", policy, log_fixture});
  CHECK(typo.status == exit_status::bad_input);
  CHECK_THAT(typo.err, Contains("field 'clusters': is not a known field; did you mean 'cluster'?"));
}

TEST_CASE("check judges AMD remarks at the compiler's own occupancy where the kernel's size is not given",
          "[cli][check][amd]") {
  // remarks22.gfx90a.remarks: clang-22's remarks of a kernel of flat work-group size 512 with 32 KiB of LDS.
  // The remarks do not print the size; clang's Occupancy [waves/SIMD] (4 of 8) follows it, where occcalc's
  // suggested 1024 work-items would give 8 (100%).
  const std::string remarks = std::string(OCCCALC_SOURCE_DIR) + "/tests/fixtures/amd/remarks22.gfx90a.remarks";
  const std::string policy = std::string(OCCCALC_TEMP_DIR) + "/remarks_policy.json";
  std::ofstream(policy) << R"({"schema_version": 1, "defaults": {"min_occupancy": 75}})";
  const auto r = run({"check", "--policy", policy, remarks, "--arch", "gfx90a"});
  CHECK(r.status == exit_status::gate_failed);
  CHECK_THAT(r.out, Contains("occupancy 50.00% (clang's remark: 4 of 8 waves per SIMD) is below 75%"));
  // Given the size, occcalc's own count, which agrees.
  const auto given = run({"check", "--policy", policy, remarks, "--arch", "gfx90a", "--threads", "512"});
  CHECK(given.status == exit_status::gate_failed);
  CHECK_THAT(given.out, Contains("occupancy 50.00% at 512 threads is below 75% (limited by lds)"));
  // inspect says where the two differ, and records the compiler's figure.
  const auto text = run({"inspect", remarks, "--arch", "gfx90a"});
  CHECK_THAT(text.out + text.err, Contains("clang's remark says 4 of 8 waves per SIMD, occcalc 8 at 1024 work-items"));
  const auto json = run({"inspect", remarks, "--arch", "gfx90a", "--json"});
  CHECK_THAT(json.out, Contains(R"("compiler_waves_per_simd":4)"));
}
