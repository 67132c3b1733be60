// The CI gate's contract (issue 31): one unit for every floor, the printed
// figure compared, a ratchet that never passes wrongly, reports that fit a
// pull request, outputs no name can hijack.
#include "catch.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <sys/stat.h>

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

std::string gate_file(const std::string& name, const std::string& text) {
  return occcalc::test::temp_file("gate-" + name, text);
}

const std::vector<std::string> query_75 = {"--cc", "7.0", "--threads", "128", "--regs", "37"};

std::vector<std::string> with(std::vector<std::string> args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more);
  return args;
}

}  // namespace

TEST_CASE("gate units: a floor is percent, 75 or 75%, everywhere a floor is given", "[cli][gate][units]") {
  // 7.0, 128 threads, 37 registers: 75% (48 of 64 warps).
  CHECK(run(with(query_75, {"--min-occupancy", "75"})).status == exit_status::ok);
  CHECK(run(with(query_75, {"--min-occupancy", "75%"})).status == exit_status::ok);
  CHECK(run(with(query_75, {"--min-occupancy", "75.01%"})).status == exit_status::gate_failed);
  CHECK(run(with(query_75, {"--min-occupancy", "0"})).status == exit_status::ok);
  // 0.75 read as percent would pass a 25% kernel: it is refused, both
  // readings named.
  const auto fraction = run(with(query_75, {"--min-occupancy", "0.75"}));
  CHECK(fraction.status == exit_status::bad_input);
  CHECK(fraction.err ==
        "occcalc: error: --min-occupancy 0.75 is ambiguous: 0.75% or, read as a fraction, 75%? Floors are percent: "
        "write 75 or 75% for 75%, or 0.75% for 0.75%\n");
  CHECK(run(with(query_75, {"--min-occupancy", "1"})).status == exit_status::bad_input);
  CHECK(run(with(query_75, {"--min-occupancy", "0.5%"})).status == exit_status::ok);
  CHECK(run(with(query_75, {"--min-occupancy", "101"})).status == exit_status::bad_input);
  CHECK(run(with(query_75, {"--min-occupancy", "75%%"})).status == exit_status::bad_input);
  CHECK(run(with(query_75, {"--min-occupancy", " 75"})).status == exit_status::bad_input);
  CHECK(run(with(query_75, {"--min-occupancy", "inf"})).status == exit_status::bad_input);
  // batch reads the same flag the same way.
  const std::string line = R"({"cc": "7.0", "threads": 128, "regs": 37})"
                           "\n";
  CHECK(run({"batch", "--min-occupancy", "0.5"}, line).status == exit_status::bad_input);
  CHECK(run({"batch", "--min-occupancy", "80%"}, line).status == exit_status::gate_failed);
}

TEST_CASE("gate units: a policy's min_occupancy is percent too, and 0.5 is refused", "[cli][gate][units][check]") {
  const std::string build = fixture_dir + "/kernels.sm_80.cubin";
  const auto fraction =
      gate_file("fraction.json", R"({"schema_version": 1, "defaults": {"threads": 256, "min_occupancy": 0.5}})");
  const auto r = run({"check", "--policy", fraction, build});
  CHECK(r.status == exit_status::bad_input);
  CHECK_THAT(r.err, Contains(fraction + ": defaults: field 'min_occupancy': 0.5 is ambiguous: 0.5% or, read as a "
                                        "fraction, 50%?"));
  const auto sign =
      gate_file("sign.json", R"({"schema_version": 1, "defaults": {"threads": 256, "min_occupancy": "50%"}})");
  const auto number =
      gate_file("number.json", R"({"schema_version": 1, "defaults": {"threads": 256, "min_occupancy": 50}})");
  const auto a = run({"check", "--policy", sign, build, "--json"});
  const auto b = run({"check", "--policy", number, build, "--json"});
  CHECK(a.status == b.status);
  CHECK(nlohmann::json::parse(a.out)["violations"] == nlohmann::json::parse(b.out)["violations"]);
  const auto not_text = gate_file("bool.json", R"({"schema_version": 1, "defaults": {"min_occupancy": true}})");
  CHECK_THAT(run({"check", "--policy", not_text, build}).err,
             Contains("field 'min_occupancy': true is not a percentage (75 or \"75%\")"));
}

TEST_CASE("gate units: the gate compares the figure it prints, two decimals", "[cli][gate][units]") {
  // 8.6 holds 48 warps per SM: one block of 32 warps is 66.666...%, printed
  // 66.67%; a floor of 66.67 passes it.
  const std::vector<std::string> two_thirds = {"--cc", "8.6", "--threads", "1024", "--regs", "32", "--json"};
  REQUIRE(nlohmann::json::parse(run(two_thirds).out)["occupancy_percent"] == 66.67);
  CHECK(run(with(two_thirds, {"--min-occupancy", "66.67"})).status == exit_status::ok);
  const auto above = run(with(two_thirds, {"--min-occupancy", "66.68"}));
  CHECK(above.status == exit_status::gate_failed);
  CHECK(above.err == "occcalc: gate failed: occupancy 66.67% is below --min-occupancy 66.68\n");
}

TEST_CASE("gate: --cache with --carveout is refused, not one silently dropped", "[cli][gate]") {
  const auto r = run({"--cc", "8.0", "--threads", "256", "--regs", "32", "--cache", "l1", "--carveout", "50"});
  CHECK(r.status == exit_status::bad_input);
  CHECK(r.err ==
        "occcalc: error: --cache l1 and --carveout 50 both choose the shared memory configuration; give one\n");
  const auto line = run({"batch"}, R"({"cc": "8.0", "threads": 256, "regs": 32, "cache": "l1", "carveout": 50})"
                                   "\n");
  CHECK(line.status == exit_status::bad_input);
  CHECK_THAT(line.out, Contains("\"field\":\"cache\""));
  // Either alone still answers; `--carveout default` leaves the cache to decide.
  CHECK(run({"--cc", "8.0", "--threads", "256", "--regs", "32", "--cache", "l1"}).status == exit_status::ok);
  CHECK(run({"--cc", "8.0", "--threads", "256", "--regs", "32", "--cache", "l1", "--carveout", "default"}).status ==
        exit_status::ok);
}

namespace {

/// A fresh directory under the test build directory holding `files`
/// (name, source to copy).
std::filesystem::path tree(const std::string& name, const std::vector<std::pair<std::string, std::string>>& files) {
  const auto dir = std::filesystem::path(OCCCALC_TEMP_DIR) / ("gate-" + name);
  std::filesystem::remove_all(dir);
  for (const auto& [file, source] : files) {
    std::filesystem::create_directories((dir / file).parent_path());
    std::filesystem::copy_file(source, dir / file);
  }
  return dir;
}

/// A ptxas -v log of one sm_80 kernel `name` per line of `(registers,
/// static smem bytes)`.
std::string ptxas_log(const std::string& name, const std::vector<std::pair<int, int>>& kernels) {
  std::string log = "ptxas info    : 0 bytes gmem\n";
  for (const auto& [registers, smem] : kernels) {
    log += "ptxas info    : Compiling entry function '" + name + "' for 'sm_80'\n";
    log += "ptxas info    : Function properties for " + name + "\n";
    log += "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";
    log += "ptxas info    : Used " + std::to_string(registers) + " registers, used 1 barriers, " +
           (smem > 0 ? std::to_string(smem) + " bytes smem, " : "") + "368 bytes cmem[0]\n";
  }
  return log;
}

}  // namespace

TEST_CASE("ratchet identity: a regression in a second copy of a kernel is never hidden", "[cli][gate][diff]") {
  // reduce_live is in both libraries of each build; only b's copy grows
  // from 14 to 32 registers. Matched by name alone, a's unchanged copy
  // stood for both.
  const auto before = tree("identity-old", {{"a.cubin", old_build}, {"b.cubin", old_build}});
  const auto after = tree("identity-new", {{"a.cubin", old_build}, {"b.cubin", new_build}});
  const auto r = run({"diff", before.string(), after.string(), "--fail-on-regression"});
  CHECK(r.status == exit_status::gate_failed);
  CHECK_THAT(r.out, Contains("REGRESSED sm_80 reduce_live: registers 14 -> 32\n"));
  CHECK_THAT(r.out, Contains("1 regressed, 1 new, 1 removed, 0 improved, 0 changed otherwise, 4 unchanged"));
  // check --baseline over the same two inputs: b's copy is not excused.
  const auto policy = gate_file("max10.json", R"({"schema_version": 1, "defaults": {"max_registers": 10}})");
  const auto a = (after / "a.cubin").string();
  const auto b = (after / "b.cubin").string();
  const auto saved = gate_file(
      "two-inputs.json", run({"inspect", "--json", (before / "a.cubin").string(), (before / "b.cubin").string()}).out);
  const auto check = run({"check", "--policy", policy, a, b, "--baseline", saved, "--json"});
  CHECK(check.status == exit_status::gate_failed);
  const auto j = nlohmann::json::parse(check.out);
  REQUIRE(j["violations"].size() == 2);
  CHECK(j["violations"][0]["file"] == a);
  CHECK(j["violations"][0]["allowed"] == true);
  CHECK(j["violations"][1]["file"] == b);
  CHECK(j["violations"][1]["allowed"] == false);
  // Unchanged code never fails: the same two inputs against themselves.
  CHECK(run({"diff", before.string(), before.string(), "--fail-on-regression"}).status == exit_status::ok);
}

TEST_CASE("ratchet identity: copies no file tells apart pair by their figures, with a note", "[cli][gate][diff]") {
  // One log holding the same kernel twice (two builds of one source). In the
  // next build another kernel comes first, so every line moves: the lines
  // tell nothing, the figures pair the copies.
  const auto before = gate_file("copies-old.log", ptxas_log("_Z1kPf", {{16, 0}, {40, 0}}));
  const auto moved =
      gate_file("copies-same.log", ptxas_log("_Z5otherv", {{8, 0}}) + ptxas_log("_Z1kPf", {{40, 0}, {16, 0}}));
  const auto grown =
      gate_file("copies-new.log", ptxas_log("_Z5otherv", {{8, 0}}) + ptxas_log("_Z1kPf", {{16, 0}, {64, 0}}));
  const auto unchanged = run({"diff", before, moved, "--fail-on-regression"});
  CHECK(unchanged.status == exit_status::ok);
  CHECK(unchanged.err ==
        "occcalc: note: 1 kernel with copies that no file or entry tells apart, paired in the order of their figures: "
        "k(float*) (sm_80, 2 old and 2 new)\n");
  const auto regressed = run({"diff", before, grown, "--fail-on-regression"});
  CHECK(regressed.status == exit_status::gate_failed);
  CHECK_THAT(regressed.out, Contains("registers 40 -> 64"));
  // Where both sides hold the same entries (a library rebuilt with its
  // layout, here the same log), each copy pairs with its own entry: a swap
  // of figures between the copies is two changes, not none.
  const auto swapped = gate_file("copies-swapped.log", ptxas_log("_Z1kPf", {{40, 0}, {16, 0}}));
  const auto by_entry = run({"diff", before, swapped, "--fail-on-regression"});
  CHECK(by_entry.status == exit_status::gate_failed);
  CHECK(by_entry.err.empty());
  // A saved side that names one entry twice pairs nothing by entry: each old
  // copy pairs once, and the figures decide.
  auto twice = nlohmann::json::parse(run({"inspect", "--json", grown}).out);
  std::string first_copy;
  for (auto& k : twice["kernels"]) {
    if (k["kernel"] != "_Z1kPf") continue;
    if (first_copy.empty()) first_copy = k["origin"];
    k["origin"] = first_copy;
  }
  const auto named_twice = gate_file("copies-twice.json", twice.dump());
  const auto d = run({"diff", grown, named_twice, "--json"});
  CHECK(d.status == exit_status::ok);
  const auto counts = nlohmann::json::parse(d.out)["counts"];
  CHECK(counts["unchanged"] == 3);
  CHECK(counts["new"] == 0);
  CHECK(counts["removed"] == 0);
}

TEST_CASE("ratchet like with like: both sides' occupancy at the same launch", "[cli][gate][diff]") {
  const auto policy =
      gate_file("at32.json", R"({"schema_version": 1, "defaults": {"threads": 32, "min_occupancy": 75}})");
  // Unchanged: 8-register kernels at 32 threads are 50% (32 blocks of one
  // warp). A baseline saved at 1024 threads recorded 100%: compared as
  // recorded, the unchanged build failed.
  const auto at1024 = gate_file("saved-1024.json", run({"inspect", "--json", old_build, "--threads", "1024"}).out);
  const auto same = run({"check", "--policy", policy, old_build, "--baseline", at1024});
  CHECK(same.status == exit_status::ok);
  CHECK_THAT(same.out, Contains("passed: 3 kernels checked, 0 violations, 3 allowed"));
  // A real drop at the policy's block size: 32 registers and no shared
  // memory (100% at 256 threads) to 32 KiB of shared memory (4 blocks of 33
  // KiB in 164 KiB: 50%). The baseline saved at 32 threads recorded 50%;
  // compared as recorded it was excused.
  const auto policy256 =
      gate_file("at256.json", R"({"schema_version": 1, "defaults": {"threads": 256, "min_occupancy": 75}})");
  const auto old_log = gate_file("smem-old.log", ptxas_log("_Z1kPf", {{32, 0}}));
  const auto new_log = gate_file("smem-new.log", ptxas_log("_Z1kPf", {{32, 32768}}));
  const auto at32 = gate_file("saved-32.json", run({"inspect", "--json", old_log, "--threads", "32"}).out);
  const auto drop = run({"check", "--policy", policy256, new_log, "--baseline", at32});
  CHECK(drop.status == exit_status::gate_failed);
  CHECK_THAT(drop.out, Contains("occupancy 50.00% at 256 threads is below 75%"));
  const auto diff = run({"diff", at32, new_log, "--threads", "256", "--fail-on-regression"});
  CHECK(diff.status == exit_status::gate_failed);
  CHECK_THAT(diff.out, Contains("occupancy at 256 threads 100.00% -> 50.00%"));
}

TEST_CASE("ratchet: a figure unknown on either side is never excused", "[cli][gate][diff]") {
  const auto policy = gate_file("max16.json", R"({"schema_version": 1, "defaults": {"max_registers": 16}})");
  const auto log = gate_file("k32.log", ptxas_log("_Z1kPf", {{32, 0}}));
  // The baseline's record has no register count.
  auto saved = nlohmann::json::parse(run({"inspect", "--json", log}).out);
  saved["kernels"][0]["registers"] = nullptr;
  const auto unknown_before = gate_file("unknown-regs.json", saved.dump());
  const auto r = run({"check", "--policy", policy, log, "--baseline", unknown_before});
  CHECK(r.status == exit_status::gate_failed);
  CHECK_THAT(r.out, Contains("32 registers per thread exceeds 16 [defaults]\nfailed"));
  // Known before, unknown now: a regression in diff.
  const auto d = run({"diff", log, unknown_before, "--fail-on-regression"});
  CHECK(d.status == exit_status::gate_failed);
  CHECK_THAT(d.out, Contains("registers 32 -> ? (unknown now)"));
  // Occupancy unknown on the baseline's side (an architecture the tables do
  // not know): an occupancy violation today is not excused.
  auto unknown_arch = nlohmann::json::parse(run({"inspect", "--json", log}).out);
  unknown_arch["kernels"][0]["arch"] = "sm_99";
  const auto odd = gate_file("unknown-arch.json", unknown_arch.dump());
  const auto floor =
      gate_file("floor.json", R"({"schema_version": 1, "defaults": {"threads": 32, "min_occupancy": 75}})");
  CHECK(run({"check", "--policy", floor, log, "--baseline", odd}).status == exit_status::gate_failed);
}

TEST_CASE("ratchet inputs: a baseline or a diff side from standard input or a pipe", "[cli][gate][diff]") {
  const auto saved = run({"inspect", "--json", old_build}).out;
  const auto from_stdin = run({"diff", "-", new_build, "--fail-on-regression"}, saved);
  CHECK(from_stdin.status == exit_status::gate_failed);
  CHECK_THAT(from_stdin.out, Contains("REGRESSED sm_80 reduce_live: registers 14 -> 32\n"));
  const auto policy = gate_file("max10-stdin.json", R"({"schema_version": 1, "defaults": {"max_registers": 10}})");
  const auto check = run({"check", "--policy", policy, old_build, "--baseline", "-"}, saved);
  CHECK(check.status == exit_status::ok);
  // A named pipe, as a process substitution gives: read once.
  const std::string fifo = std::string(OCCCALC_TEMP_DIR) + "/gate-baseline.fifo";
  std::filesystem::remove(fifo);
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << saved; });
  const auto piped = run({"diff", fifo, new_build});
  writer.join();
  CHECK(piped.status == exit_status::ok);
  CHECK_THAT(piped.out, Contains("REGRESSED sm_80 reduce_live: registers 14 -> 32\n"));
  // A build output through a pipe works too.
  std::filesystem::remove(fifo);
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  std::thread binary([&] {
    std::ifstream in(old_build, std::ios::binary);
    std::ofstream(fifo, std::ios::binary) << in.rdbuf();
  });
  const auto piped_binary = run({"diff", fifo, new_build});
  binary.join();
  CHECK_THAT(piped_binary.out, Contains("REGRESSED sm_80 reduce_live: registers 14 -> 32\n"));
}

TEST_CASE("ratchet: a saved side honours --kernel, and a filter matching nothing is its own error",
          "[cli][gate][diff]") {
  const auto saved = gate_file("old-filter.json", run({"inspect", "--json", old_build}).out);
  const auto r = run({"diff", saved, new_build, "--kernel", "reduce"});
  CHECK(r.out == "REGRESSED sm_80 reduce_live: registers 14 -> 32\n" + saved + " -> " + new_build +
                     ": 1 regressed, 0 new, 0 removed, 0 improved, 0 changed otherwise, 0 unchanged\n");
  const auto none = run({"diff", saved, new_build, "--kernel", "nothing"});
  CHECK(none.status == exit_status::bad_input);
  CHECK(none.err == "occcalc: error: --kernel 'nothing' matches no kernel in either build\n");
}

TEST_CASE("ratchet directories: a file named as a GPU binary that is not one is an error", "[cli][gate][inspect]") {
  const auto dir = tree("corrupt", {{"ok.cubin", old_build}, {"notes.txt", fixture_dir + "/README.md"}});
  std::ofstream(dir / "empty.cubin");
  std::ofstream(dir / "text.fatbin") << "not a fat binary";
  const auto r = run({"inspect", dir.string()});
  CHECK(r.status == exit_status::bad_input);
  CHECK_THAT(r.err, Contains((dir / "empty.cubin").string() + ": named as a GPU binary, but empty\n"));
  CHECK_THAT(r.err, Contains((dir / "text.fatbin").string() + ": named as a GPU binary, but it is not one\n"));
  CHECK_THAT(r.err, Contains("1 file skipped, not GPU binaries or compiler logs: notes.txt\n"));
  CHECK(run({"diff", dir.string(), dir.string()}).status == exit_status::bad_input);
}

namespace {

/// A ptxas -v log of `count` sm_80 kernels, `k0` ... , with registers
/// rising from 32 (so occupancy falls kernel by kernel).
std::string many_kernels_log(int count) {
  std::string log;
  for (int i = 0; i < count; ++i) {
    const std::string name = "_Z1k" + std::to_string(i);
    log += "ptxas info    : Compiling entry function '" + name + "' for 'sm_80'\n";
    log += "ptxas info    : Used " + std::to_string(32 + i % 200) + " registers, used 1 barriers\n";
  }
  return log;
}

std::size_t count_lines_starting(const std::string& text, const std::string& prefix) {
  std::size_t n = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    if (text.compare(at, prefix.size(), prefix) == 0) ++n;
    const auto end = text.find('\n', at);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return n;
}

}  // namespace

TEST_CASE("reports fit a pull request: at most GitHub's annotations, worst first; summaries under 64 KB",
          "[cli][gate][check]") {
  const auto log = gate_file("many.log", many_kernels_log(3000));
  const auto policy = gate_file("many.json", R"({"schema_version": 1, "defaults": {"threads": 256,
    "min_occupancy": 90, "max_registers": 100}, "allow": [{"kernel": "k1[0-9]{3}$", "check": "registers",
    "reason": "known"}]})");
  const std::string summary = std::string(OCCCALC_TEMP_DIR) + "/gate-summary.md";
  std::ofstream(summary).close();
  ::setenv("GITHUB_STEP_SUMMARY", summary.c_str(), 1);
  const auto gh = run({"check", "--policy", policy, log, "--format", "github"});
  ::unsetenv("GITHUB_STEP_SUMMARY");
  CHECK(gh.status == exit_status::gate_failed);
  CHECK(count_lines_starting(gh.out, "::error ") == 10);
  CHECK(count_lines_starting(gh.out, "::warning ") == 10);
  // The tenth counts the rest and says where they are.
  CHECK_THAT(gh.out, Contains("::error title=occcalc%3A 4286 more errors::4286 more errors not annotated (GitHub "
                              "shows 10 of a kind per step); this step's log lists them all\n"));
  CHECK_THAT(gh.out, Contains("::warning title=occcalc%3A 646 more warnings::"));
  // Worst first: 129 registers and more leave one block of 8 warps, 12.5%.
  const auto first = gh.out.substr(0, gh.out.find('\n'));
  CHECK_THAT(first, Contains("occupancy 12.50%25 at 256 threads"));
  // The full report is folded in the log, one indented line per violation.
  CHECK(count_lines_starting(gh.out, "  FAIL ") + count_lines_starting(gh.out, "  allowed ") == 4950);
  std::ifstream in(summary);
  const std::string md((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(md.size() < 64 * 1024);
  CHECK_THAT(md, Contains("| occupancy | 2985 | 0 |\n| registers | 1310 | 655 |\n"));
  CHECK_THAT(md, Contains("\nand 4900 more, not shown here (the worst come first)"));
  const auto markdown = run({"check", "--policy", policy, log, "--format", "markdown"});
  CHECK(markdown.out == md);
  // SARIF stays complete.
  const auto sarif = nlohmann::json::parse(run({"check", "--policy", policy, log, "--format", "sarif"}).out);
  CHECK(sarif["runs"][0]["results"].size() == 4950);
  // diff too: the largest regression first, at most 10 of each level.
  const auto grown = gate_file("many-grown.log", [] {
    std::string text = many_kernels_log(3000);
    for (std::size_t at = 0; (at = text.find("Used 3", at)) != std::string::npos; at += 6) text[at + 5] = '9';
    return text;
  }());
  const auto d = run({"diff", log, grown, "--format", "github", "--fail-on-regression"});
  CHECK(d.status == exit_status::gate_failed);
  CHECK(count_lines_starting(d.out, "::error ") == 10);
  CHECK(count_lines_starting(d.out, "::warning ") == 0);
  CHECK(run({"diff", log, grown, "--format", "markdown"}).out.size() < 64 * 1024);
}

TEST_CASE("no output can be hijacked by a name: control characters as \\xNN, CSV formulas neutralised",
          "[cli][gate][escape]") {
  // A directory whose name holds a newline and a workflow command, and a
  // kernel whose name holds a terminal escape and starts a formula.
  const auto dir = std::filesystem::path(OCCCALC_TEMP_DIR) / "gate-x\n::error::pwned";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a.log") << "ptxas info    : Compiling entry function '=k\x1b[31mred|x' for 'sm_80'\n"
                                  "ptxas info    : Used 255 registers, used 1 barriers\n";
  const auto policy = gate_file("escape.json", R"({"schema_version": 1, "defaults": {"min_occupancy": 90}})");
  const auto raw = [](const std::string& text) {
    return text.find('\x1b') != std::string::npos || text.find("\n::error::pwned") != std::string::npos;
  };
  for (const auto& format : {"text", "github", "markdown", "json", "sarif"}) {
    const auto r = run({"check", "--policy", policy, dir.string(), "--format", format});
    INFO(format);
    CHECK(r.status == exit_status::gate_failed);
    CHECK_FALSE(raw(r.out));
    CHECK_FALSE(raw(r.err));
  }
  const auto text = run({"check", "--policy", policy, dir.string()});
  CHECK_THAT(text.out, Contains("=k\\x1b[31mred|x"));
  CHECK_THAT(text.out, Contains("gate-x\\x0a::error::pwned"));
  const auto md = run({"check", "--policy", policy, dir.string(), "--format", "markdown"});
  CHECK_THAT(md.out, Contains("`=k\\x1b[31mred\\|x`"));
  const auto inspect = run({"inspect", dir.string()});
  CHECK_FALSE(raw(inspect.out));
  const auto csv = run({"inspect", dir.string(), "--csv"});
  CHECK_FALSE(raw(csv.out));
  CHECK_THAT(csv.out, Contains(",'=k\\x1b[31mred|x,"));
  // Error lines echo a path on one line.
  const auto missing = run({"inspect", (dir / "nothing.cubin").string()});
  CHECK(missing.err == "occcalc: error: " + std::string(OCCCALC_TEMP_DIR) +
                           "/gate-x\\x0a::error::pwned/nothing.cubin: cannot open: No such file or directory\n");
}

TEST_CASE("a policy's default block size never exceeds a kernel's launch bounds; a rule beyond them is an error",
          "[cli][gate][check]") {
  const std::string bounds = fixture_dir + "/launch_bounds.fatbin";
  const auto policy =
      gate_file("bounds.json", R"({"schema_version": 1, "defaults": {"threads": 256, "min_occupancy": 10}})");
  // k_32_1 declares __launch_bounds__(32, 1): checked at 32 threads, not
  // "256 exceeds the launch bounds" with no occupancy.
  const auto r = run({"check", "--policy", policy, bounds, "--kernel", "^k_32_1\\(", "--arch", "sm_80", "--json"});
  CHECK(r.status == exit_status::ok);
  const auto capped = nlohmann::json::parse(run({"check", "--policy", policy, bounds, "--json"}).out);
  for (const auto& v : capped["violations"]) CHECK_THAT(v["message"].get<std::string>(), !Contains("exceeds"));
  // A rule that names kernels and a size beyond their bounds asks for a
  // launch that cannot happen.
  const auto rule =
      gate_file("bounds-rule.json",
                R"({"schema_version": 1, "rules": [{"kernel": "^k_32_", "threads": 64, "min_occupancy": 10}]})");
  const auto bad = run({"check", "--policy", rule, bounds, "--arch", "sm_80"});
  CHECK(bad.status == exit_status::bad_input);
  CHECK_THAT(bad.err, Contains(rule + ": rules[0] (^k_32_): threads 64 exceeds the launch bounds of 11 kernels it "
                                      "matches: _Z7k_32_16Pf (sm_80, 32 threads), "));
  CHECK_THAT(bad.err, Contains(" and 6 more; give a block size within them, or a pattern that leaves them out\n"));
}

TEST_CASE("batch --min-occupancy: a gate field on each result, and stderr names the lines below",
          "[cli][gate][batch]") {
  const std::string input = R"({"cc": "7.0", "threads": 128, "regs": 37, "id": "a"})"
                            "\n"
                            R"({"cc": "7.0", "threads": 128, "regs": 32})"
                            "\n"
                            R"({"cc": "7.0", "threads": 128, "regs": 64, "id": 7})"
                            "\n";
  const auto r = run({"batch", "--min-occupancy", "80"}, input);
  CHECK(r.status == exit_status::gate_failed);
  std::istringstream lines(r.out);
  std::vector<std::string> gates;
  for (std::string line; std::getline(lines, line);) gates.push_back(nlohmann::json::parse(line)["gate"]);
  CHECK(gates == std::vector<std::string>{"failed", "passed", "failed"});
  CHECK(r.err == "occcalc: gate failed: 2 of 3 lines below --min-occupancy 80: lines 1 (id \"a\"), 3 (id 7)\n");
  // Without a gate there is no gate field.
  const auto plain = run({"batch"}, input).out;
  CHECK_FALSE(nlohmann::json::parse(plain.substr(0, plain.find('\n'))).contains("gate"));
  CHECK_THAT(run({"batch", "--help"}).out, Contains("--min-occupancy PCT"));
}

TEST_CASE("check says what it judged, warns of suggested block sizes, and --require-threads refuses them",
          "[cli][gate][check]") {
  const std::string no_threads = std::string(OCCCALC_TEMP_DIR) + "/no-threads-policy.json";
  std::ofstream(no_threads) << R"({"schema_version": 1, "defaults": {"min_occupancy": 50}})";
  const std::string cubin = std::string(OCCCALC_FIXTURE_DIR) + "/kernels.sm_90.cubin";
  const auto r = run({"check", "--policy", no_threads, cubin});
  CHECK(r.status == exit_status::ok);
  CHECK_THAT(r.out, Contains("judged at 1024 threads (suggested) for 7, 256 (launch bounds) for 2, 1024 (launch "
                             "bounds) for 1"));
  CHECK(r.err ==
        "occcalc: warning: 7 kernels declare no block size and the policy gives them none: judged at the size suggest "
        "picks, not your launch; set defaults.threads (or a rule's threads) to the block size you launch\n");
  const auto required = run({"check", "--policy", no_threads, cubin, "--require-threads"});
  CHECK(required.status == exit_status::bad_input);
  CHECK(required.err ==
        "occcalc: error: --require-threads 7 kernels declare no block size and the policy gives them none; set "
        "defaults.threads (or a rule's threads) to the block size you launch\n");
  const auto j = nlohmann::json::parse(run({"check", "--policy", no_threads, cubin, "--json"}).out);
  CHECK(j["judged_at"][0] == nlohmann::json({{"threads", 1024}, {"from", "suggested"}, {"kernels", 7}}));
}
