// occcalc diff and check --baseline: two builds of diff.cu (make-fixtures.sh),
// the new one keeping more values live: reduce_live goes from 14 to 32
// registers (ptxas -v says so for each build), only_old is removed, only_new
// added, unchanged unchanged.
#include "catch.hpp"

#include <algorithm>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "files.hpp"

using occcalc::cli::exit_status;
using occcalc::test::fixture_dir;
using occcalc::test::new_build;
using occcalc::test::old_build;
using occcalc::test::run;
using occcalc::test::matchers::Contains;

namespace {

/// What diff says of `text` saved as `name` and diffed with the old build:
/// a refusal (exit 2), its message without the lead naming the file.
std::string refusal_of(const std::string& name, const std::string& text) {
  const std::string path = occcalc::test::temp_file(name, text);
  const auto r = run({"diff", path, old_build});
  CHECK(r.status == exit_status::bad_input);
  const std::string lead = "occcalc: error: " + path + ": ";
  REQUIRE(r.err.rfind(lead, 0) == 0);
  return r.err.substr(lead.size());
}

}  // namespace

TEST_CASE("diff: each kernel's change, new and removed kernels, and the gate", "[cli][diff]") {
  const auto r = run({"diff", old_build, new_build});
  CHECK(r.status == exit_status::ok);
  CHECK(r.out ==
        "REGRESSED sm_80 reduce_live: registers 14 -> 32\n"
        "new       sm_80 only_new: 8 registers, occupancy 100.00%\n"
        "removed   sm_80 only_old\n" +
            old_build + " -> " + new_build +
            ": 1 regressed, 1 new, 1 removed, 0 improved, 0 changed otherwise, 1 unchanged\n");
  CHECK(run({"diff", old_build, new_build, "--fail-on-regression"}).status == exit_status::gate_failed);
  // A threshold lets some growth through; the other way round it improved.
  CHECK(run({"diff", old_build, new_build, "--fail-on-regression", "--max-register-increase", "18"}).status ==
        exit_status::ok);
  const auto back = run({"diff", new_build, old_build, "--fail-on-regression"});
  CHECK(back.status == exit_status::ok);
  CHECK_THAT(back.out, Contains("improved  sm_80 reduce_live: registers 32 -> 14\n"));
}

TEST_CASE("diff: a side may be a saved inspect --json, and JSON output has the schema's shape", "[cli][diff]") {
  const std::string saved = std::string(OCCCALC_TEMP_DIR) + "/old-build.json";
  std::ofstream(saved) << run({"inspect", old_build, "--json"}).out;
  const auto r = run({"diff", saved, new_build, "--json"});
  CHECK(r.status == exit_status::ok);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["schema_version"] == 3);
  CHECK(j["regressed"] == true);
  CHECK(j["counts"] ==
        nlohmann::json(
            {{"regressed", 1}, {"new", 1}, {"removed", 1}, {"improved", 0}, {"changed", 0}, {"unchanged", 1}}));
  const auto& first = j["kernels"][0];
  CHECK(first["kernel"] == "reduce_live");
  CHECK(first["status"] == "regressed");
  CHECK(first["old"]["registers"] == 14);
  CHECK(first["new"]["registers"] == 32);
  CHECK(first["regressions"] == nlohmann::json::array({"registers 14 -> 32"}));
  // A JSON file that is not a saved inspect is refused, naming it.
  const std::string other = std::string(OCCCALC_TEMP_DIR) + "/not-inspect.json";
  std::ofstream(other) << R"({"schema_version": 2, "passed": true})";
  const auto bad = run({"diff", other, new_build});
  CHECK(bad.status == exit_status::bad_input);
  CHECK_THAT(bad.err, Contains(other + ": not a saved 'occcalc inspect --json'"));
}

TEST_CASE("diff: a saved record's text is read up to 1 MiB a field, and past it refused naming the field",
          "[cli][diff]") {
  const auto saved_with_name = [](std::size_t bytes) {
    const std::string path = std::string(OCCCALC_TEMP_DIR) + "/long-name-" + std::to_string(bytes) + ".json";
    nlohmann::json j = nlohmann::json::parse(run({"inspect", old_build, "--json"}).out);
    j["kernels"][0]["kernel"] = "_Z" + std::string(bytes - 2, 'a');
    std::ofstream(path) << j.dump();
    return path;
  };
  const auto at_cap = run({"diff", saved_with_name(std::size_t{1} << 20), old_build});
  CHECK(at_cap.status == exit_status::ok);
  CHECK_THAT(at_cap.out, Contains("1 new, 1 removed"));
  const std::string past = saved_with_name((std::size_t{1} << 20) + 1);
  const auto r = run({"diff", past, old_build});
  CHECK(r.status == exit_status::bad_input);
  CHECK(r.err == "occcalc: error: " + past +
                     ": kernels[0]: field 'kernel' holds 1048577 bytes; a saved record's text is at most 1048576 "
                     "(1 MiB)\n");
}

TEST_CASE("diff: the members of a saved record that are not read are still held to JSON's and occcalc's rules",
          "[cli][diff]") {
  // A record's occupancy is worked out again, so it is skipped, never
  // built: as strictly as it would be built.
  const std::string saved = run({"inspect", old_build, "--json"}).out;
  const auto with = [&](const std::string& name, const std::string& from, const std::string& to) {
    std::string text = saved;
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    return occcalc::test::temp_file(name, text);
  };
  const std::string dup = with("dup-in-occupancy.json", "\"model\":", "\"unit\": 1, \"model\":");
  const auto r = run({"diff", dup, old_build});
  CHECK(r.status == exit_status::bad_input);
  CHECK(r.err == "occcalc: error: " + dup + ": duplicate key 'unit' in an object\n");
  std::string deep = "0";
  for (int i = 0; i < 70; ++i) deep = "[" + deep + "]";
  const std::string nested = with("deep-in-record.json", "\"occupancy\":", "\"extra\": " + deep + ", \"occupancy\":");
  const auto d = run({"diff", nested, old_build});
  CHECK(d.status == exit_status::bad_input);
  CHECK(d.err == "occcalc: error: " + nested + ": nested more than 64 arrays and objects deep\n");
  // A member occcalc does not know is read past, as before.
  const std::string extra =
      with("extra-member.json", "\"occupancy\":", "\"extra\": {\"a\": [1, {\"b\": null}]}, \"occupancy\":");
  const auto e = run({"diff", extra, old_build});
  CHECK(e.status == exit_status::ok);
  CHECK_THAT(e.out, Contains("0 regressed, 0 new, 0 removed, 0 improved, 0 changed otherwise, 3 unchanged"));
}

TEST_CASE("diff: a saved inspect that is not JSON is refused where it stops, by line and column", "[cli][diff]") {
  const std::string saved = run({"inspect", old_build, "--json"}).out;
  // Cut inside a record's second line: the string it stops in. The column
  // counts bytes: the byte that is not UTF-8, the number too big.
  const auto second_line = saved.find('\n') + 1;
  CHECK(refusal_of("cut.json", saved.substr(0, second_line + 20)) ==
        "parse error at line 2, column 21: missing a closing quotation mark in string\n");
  CHECK(refusal_of("latin1.json", "{\"schema_version\": 8, \"kernels\": [{\"file\": \"caf\xe9\"}]}") ==
        "parse error at line 1, column 48: invalid encoding in string\n");
  CHECK(refusal_of("two-roots.json", saved + "{}") ==
        fmt::format("parse error at line {}, column 1: the document root must not be followed by other values\n",
                    std::count(saved.begin(), saved.end(), '\n') + 1));
  CHECK(refusal_of("overflow.json", "{\"schema_version\": 8, \"kernels\": [1e400]}") ==
        "parse error at line 1, column 35: number too big to be stored in double\n");
}

TEST_CASE("diff: a saved record's escaped text reads as the text it stands for", "[cli][diff]") {
  auto j = nlohmann::json::parse(run({"inspect", old_build, "--json"}).out);
  j["kernels"][0]["name"] = "a\\\"b\xc3\xa9\xf0\x9f\x98\x80 \\\\";
  j["kernels"][0]["kernel"] = "_Z1k\\\"";
  // The same records, one as UTF-8, one with every character past ASCII
  // escaped (a surrogate pair for the emoji): the same kernels.
  const std::string plain = occcalc::test::temp_file("utf8.json", j.dump());
  const std::string escaped = occcalc::test::temp_file("escaped.json", j.dump(-1, ' ', true));
  REQUIRE(escaped != plain);
  const auto r = run({"diff", plain, escaped});
  CHECK(r.status == exit_status::ok);
  CHECK_THAT(r.out, Contains("0 regressed, 0 new, 0 removed, 0 improved, 0 changed otherwise, 3 unchanged"));
  const auto against_build = run({"diff", escaped, old_build});
  // Renamed, the kernel is new and removed: its name is the text decoded.
  CHECK_THAT(against_build.out, Contains("removed   sm_80 a\\\"b\xc3\xa9\xf0\x9f\x98\x80 \\\\\n"));
}

TEST_CASE("diff: the members of a saved record that are read are held to their kinds, each once", "[cli][diff]") {
  // Each member is read into its slot as it comes, never into a tree: the
  // same refusals as a tree's, named in the order the record is read.
  const std::string saved = run({"inspect", old_build, "--json"}).out;
  const auto refused = [&](const std::string& name, const std::string& from, const std::string& to) {
    std::string text = saved;
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    return refusal_of(name, text);
  };
  CHECK(refused("read-twice.json", "\"registers\":", "\"registers\": 3, \"registers\":") ==
        "duplicate key 'registers' in an object\n");
  CHECK(refused("skipped-twice.json", "\"occupancy\":", "\"occupancy\": 1, \"occupancy\":") ==
        "duplicate key 'occupancy' in an object\n");
  CHECK(refused("negative.json", "\"registers\":", "\"registers\": -1, \"x\":") ==
        "kernels[0]: field 'registers' is not a count\n");
  CHECK(refused("text-count.json", "\"barriers\":", "\"barriers\": \"1\", \"x\":") ==
        "kernels[0]: field 'barriers' is not a count\n");
  CHECK(refused("two-dims.json", "\"registers\":", "\"max_threads\": [1, 2], \"registers\":") ==
        "kernels[0]: field 'max_threads' is not three dimensions\n");
  CHECK(refused("zero-dim.json", "\"registers\":", "\"cluster_dims\": [1, {\"a\": 0}, 1], \"registers\":") ==
        "kernels[0]: field 'cluster_dims' holds {\"a\":0}, not a dimension\n");
  CHECK(refused("wgp.json", "\"registers\":", "\"wgp_mode\": 1, \"registers\":") ==
        "kernels[0]: field 'wgp_mode' is not true or false\n");
  CHECK(refused("name-object.json", "\"name\":", "\"name\": {\"a\": 1}, \"x\":") ==
        "kernels[0]: field 'name' is not a string\n");
  // Checked as kernel_of reads them: the file before a count, whatever the
  // record's order.
  CHECK(refused("missing-file.json", "\"file\":", "\"sgprs\": -1, \"x\":") == "kernels[0]: field 'file' is missing\n");
  std::string deep = "0";
  for (int i = 0; i < 70; ++i) deep = "[" + deep + "]";
  CHECK(refused("deep-read.json", "\"registers\":", "\"max_threads\": " + deep + ", \"registers\":") ==
        "nested more than 64 arrays and objects deep\n");
}

TEST_CASE("check --baseline applies the policy only to what is new or got worse", "[cli][check][diff]") {
  const std::string policy = std::string(OCCCALC_TEMP_DIR) + "/max10.json";
  std::ofstream(policy) << R"({"schema_version": 1, "defaults": {"max_registers": 10}})";
  // reduce_live has 14 registers in the old build: a violation, but the
  // baseline holds it already.
  const auto same = run({"check", "--policy", policy, old_build, "--baseline", old_build});
  CHECK(same.status == exit_status::ok);
  CHECK_THAT(same.out, Contains("; allowed by baseline: no worse than in the baseline " + old_build + "\n"));
  // In the new build it has 32: a regression, so the policy applies.
  const auto worse = run({"check", "--policy", policy, new_build, "--baseline", old_build, "--json"});
  CHECK(worse.status == exit_status::gate_failed);
  const auto j = nlohmann::json::parse(worse.out);
  REQUIRE(j["violations"].size() == 1);
  CHECK(j["violations"][0]["kernel"] == "reduce_live");
  CHECK(j["violations"][0]["allowed"] == false);
}

TEST_CASE("diff --format github and markdown", "[cli][diff]") {
  const auto gh = run({"diff", old_build, new_build, "--format", "github"});
  CHECK(gh.status == exit_status::ok);
  // Without --fail-on-regression the run passes: a warning, not an error.
  CHECK(gh.out == "::warning file=" + new_build +
                      ",title=occcalc diff%3A regressed::reduce_live (sm_80): registers 14 -> 32\n"
                      "::notice file=" +
                      new_build +
                      ",title=occcalc diff%3A new::only_new (sm_80): 8 registers, occupancy 100.00%25\n"
                      "::notice file=" +
                      old_build + ",title=occcalc diff%3A removed::only_old (sm_80): removed\n" + old_build + " -> " +
                      new_build + ": 1 regressed, 1 new, 1 removed, 0 improved, 0 changed otherwise, 1 unchanged\n");
  const auto md = run({"diff", old_build, new_build, "--format", "markdown"});
  CHECK_THAT(md.out, Contains("| **regressed** | sm\\_80 | `reduce_live` | registers 14 \\-\\> 32 |\n"));
  const auto bad = run({"diff", old_build, new_build, "--format", "csv"});
  CHECK(bad.status == exit_status::bad_input);
  CHECK(bad.err == "occcalc: error: --format 'csv' is not one of text, json, github, sarif or markdown\n");
  // SARIF: an error for the regression, notes for the new and removed kernels.
  const auto sarif = nlohmann::json::parse(run({"diff", old_build, new_build, "--format", "sarif"}).out);
  CHECK(sarif["version"] == "2.1.0");
  const auto& results = sarif["runs"][0]["results"];
  REQUIRE(results.size() == 3);
  CHECK(results[0]["ruleId"] == "regression");
  CHECK(results[0]["level"] == "error");
  CHECK(results[0]["message"]["text"] == "reduce_live (sm_80): registers 14 -> 32");
  CHECK(results[1]["ruleId"] == "new_kernel");
  CHECK(results[2]["ruleId"] == "removed_kernel");
  for (const auto& r : results) {
    CHECK(sarif["runs"][0]["tool"]["driver"]["rules"][r["ruleIndex"].get<std::size_t>()]["id"] == r["ruleId"]);
  }
}

TEST_CASE("diff: a kernel that starts declaring clusters regresses where its cluster launch keeps fewer blocks",
          "[cli][diff][cluster]") {
  // make-fixtures.sh: nvcc 13 builds the same __launch_bounds__(128) kernel, then with __cluster_dims__(4, 1, 1).
  // 16 blocks per SM without clusters (100%); a cluster launch keeps 8 of them on 9.0 (50%).
  const std::string before = fixture_dir + "/diff_cluster_old.sm_90.cubin";
  const std::string after = fixture_dir + "/diff_cluster_new.sm_90.cubin";
  const auto r = run({"diff", before, after, "--fail-on-regression"});
  CHECK(r.status == exit_status::gate_failed);
  CHECK_THAT(r.out, Contains("REGRESSED sm_90 gemm(float*): occupancy at 128 threads 100.00% -> 50.00%"));
  CHECK_THAT(r.out, Contains("declared clusters none -> 4x1x1"));
  const auto j = nlohmann::json::parse(run({"diff", before, after, "--json"}).out);
  REQUIRE(j["kernels"].size() == 1);
  CHECK(j["kernels"][0]["status"] == "regressed");
  CHECK(j["kernels"][0]["old"]["cluster_dims"].is_null());
  CHECK(j["kernels"][0]["new"]["cluster_dims"] == nlohmann::json::array({4, 1, 1}));
  CHECK(j["kernels"][0]["new"]["occupancy"] == 0.5);
  // The other way it is an improvement; a saved baseline keeps the clusters too.
  CHECK(run({"diff", after, before, "--fail-on-regression"}).status == exit_status::ok);
  const std::string saved = std::string(OCCCALC_TEMP_DIR) + "/cluster_baseline.json";
  std::ofstream(saved) << run({"inspect", after, "--json"}).out;
  CHECK(run({"diff", saved, after}).out.find("0 regressed") != std::string::npos);
  CHECK(run({"diff", before, saved, "--fail-on-regression"}).status == exit_status::gate_failed);
}

TEST_CASE("diff: an AMD kernel's target ID features tell its variants apart", "[cli][diff][amd]") {
  // The same HIP source built for both XNACK variants of gfx90a, then for
  // XNACK off alone (make-fixtures.sh): the variant that went is named.
  const std::string amd = OCCCALC_AMD_FIXTURE_DIR;
  const auto r = run({"diff", amd + "/app.xnack.o", amd + "/app.xnack-off.o"});
  CHECK(r.status == exit_status::ok);
  CHECK(r.out ==
        "removed   gfx90a:xnack+ scale\n"
        "removed   gfx90a:xnack+ void tmpl<3>(float*)\n" +
            amd + "/app.xnack.o -> " + amd +
            "/app.xnack-off.o: 0 regressed, 0 new, 2 removed, 0 improved, 0 changed otherwise, 2 "
            "unchanged\n");
  CHECK(r.err.empty());  // no copies paired by their figures
  // A baseline saved before occcalc kept the features pairs by processor,
  // each copy by the bundle entry it came from.
  std::string saved = run({"inspect", amd + "/app.xnack.o", "--json"}).out;
  for (const std::string variant : {"gfx90a:xnack+", "gfx90a:xnack-"}) {
    for (auto at = saved.find('"' + variant + '"'); at != std::string::npos; at = saved.find('"' + variant + '"')) {
      saved.replace(at, variant.size() + 2, "\"gfx90a\"");
    }
  }
  const auto old = run({"diff", occcalc::test::temp_file("xnack-unnamed.json", saved), amd + "/app.xnack.o"});
  CHECK(old.status == exit_status::ok);
  CHECK_THAT(old.out, Contains("0 regressed, 0 new, 0 removed, 0 improved, 0 changed otherwise, 4 unchanged"));
  CHECK(old.err.empty());
}
