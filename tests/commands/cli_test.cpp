// The command line in-process: exit codes, error lines, batch and the gate.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/app.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using occcalc::cli::exit_status;

namespace {

struct outcome {
  exit_status status;
  std::string out;
  std::string err;
};

/// Runs occcalc with `args`, writing its output to `out`; `out` of the
/// outcome is left empty.
outcome run_to(std::ostream& out, std::vector<std::string> args, const std::string& input = {}) {
  args.insert(args.begin(), "occcalc");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::istringstream in(input);
  std::ostringstream err;
  const exit_status status = occcalc::cli::run(static_cast<int>(argv.size()), argv.data(), in, out, err);
  return {status, {}, err.str()};
}

outcome run(std::vector<std::string> args, const std::string& input = {}) {
  std::ostringstream out;
  outcome r = run_to(out, std::move(args), input);
  r.out = out.str();
  return r;
}

}  // namespace

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
          "2.1, 3.0, 3.2, 3.5, 3.7, 5.0, 5.2, 5.3, 6.0, 6.1, 6.2, 7.0, 7.2, 7.5, 8.0, 8.6, 8.7, 8.9, 9.0, 10.0, "
          "10.3, 11.0, 12.0, 12.1\n"},
      row{{"--cc", "7.0", "--threads", "128"},
          "occcalc: error: --regs is required: registers per thread, as ptxas -v reports them\n"},
      row{{"--threads", "128", "--regs", "1"},
          "occcalc: error: --cc is required (or gpu); e.g. 7.0, sm_70 or a GPU name\n"},
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

TEST_CASE("cli: unknown flags and subcommands exit 2, with a suggestion", "[cli][errors]") {
  const auto flag = run({"--cc", "7.0", "--thread", "128"});
  CHECK(flag.status == exit_status::bad_input);
  CHECK_THAT(flag.err, StartsWith("occcalc: error: "));
  const auto sub = run({"lsit"});
  CHECK(sub.status == exit_status::bad_input);
  CHECK_THAT(sub.err, Contains("did you mean 'list'?"));
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

TEST_CASE("cli: batch answers each line in order, errors inline, exit 2 if any line was bad", "[cli][batch]") {
  const std::string input = R"({"cc": "7.0", "threads": 128, "regs": 37})"
                            "\n"
                            R"({"cc": 70, "threads": "320", "regs": 37, "smem": "4K"})"
                            "\n"
                            "\n"
                            R"({"cc": "7.0", "threads": 0, "regs": 37})"
                            "\n"
                            "not json\n"
                            R"({"gpu": "RTX 4090", "threads": 256, "regs": 64, "wat": 1})"
                            "\n"
                            R"({"gpu": "RTX 4090", "threads": 256, "regs": 64.5})"
                            "\n"
                            R"({"gpu": "RTX 4090", "threads": 256, "regs": 64})"
                            "\n";
  const auto r = run({"batch"}, input);
  CHECK(r.status == exit_status::bad_input);
  std::istringstream lines(r.out);
  std::vector<nlohmann::json> results;
  for (std::string line; std::getline(lines, line);) results.push_back(nlohmann::json::parse(line));
  REQUIRE(results.size() == 8);  // line N answers line N, the blank line too
  CHECK(results[0]["occupancy"] == 0.75);
  CHECK(results[1]["blocks_per_sm"] == 4);
  CHECK(results[1]["input"]["smem"] == 4096);
  CHECK(results[2]["error"]["field"] == nullptr);
  CHECK(results[2]["error"]["message"] == "line 3 is empty; every line must hold a request object");
  CHECK(results[3]["error"]["field"] == "threads");
  CHECK(results[3]["error"]["message"] == "threads 0 is outside [1, 2147483647]");
  CHECK(results[4]["error"]["field"] == nullptr);
  CHECK(results[4]["error"]["message"] ==
        "line 5 is not valid JSON: parse error at line 1, column 2: syntax error "
        "while parsing value - invalid literal; last read: 'no'");
  CHECK(results[5]["error"]["field"] == "wat");
  CHECK(results[6]["error"]["field"] == "regs");
  CHECK(results[7]["device"]["sm_count"] == 128);
  CHECK(results[7]["occupancy_percent"] == 66.67);
  for (const auto& result : results) CHECK(result["schema_version"] == 2);
}

TEST_CASE("cli: batch echoes an id on results and errors; a bad id is a field error", "[cli][batch]") {
  const std::string input = R"({"id": "first", "cc": "7.0", "threads": 128, "regs": 37})"
                            "\n"
                            R"({"cc": "7.0", "threads": 0, "regs": 37, "id": 42})"
                            "\n"
                            R"({"id": [1], "cc": "7.0", "threads": 128, "regs": 37})"
                            "\n"
                            R"({"id": "amd", "gfx": "gfx90a", "threads": 256, "vgprs": 128})"
                            "\n";
  const auto r = run({"batch"}, input);
  CHECK(r.status == exit_status::bad_input);
  std::istringstream lines(r.out);
  std::vector<nlohmann::ordered_json> results;
  for (std::string line; std::getline(lines, line);) results.push_back(nlohmann::ordered_json::parse(line));
  REQUIRE(results.size() == 4);
  CHECK(results[0]["id"] == "first");
  CHECK(results[0].begin().key() == "schema_version");
  CHECK(std::next(results[0].begin()).key() == "id");
  CHECK(results[0]["occupancy"] == 0.75);
  CHECK(results[1]["id"] == 42);
  CHECK(results[1]["error"]["field"] == "threads");
  CHECK_FALSE(results[2].contains("id"));
  CHECK(results[2]["error"]["field"] == "id");
  CHECK(results[2]["error"]["message"] == "id [1] is not a string or an integer");
  CHECK(results[3]["id"] == "amd");
  CHECK(results[3]["model"] == "llvm");
}

TEST_CASE("cli: batch switches are booleans: false asks for the other setting", "[cli][batch][amd]") {
  const auto one = [](const std::string& line) {
    const auto r = run({"batch"}, line + "\n");
    return std::make_pair(r.status, nlohmann::json::parse(r.out));
  };
  const std::string rdna = R"("gfx": "gfx1100", "threads": 256, "vgprs": 32)";
  CHECK(one("{" + rdna + "}").second["input"]["wave_size"] == 32);
  CHECK(one("{" + rdna + R"(, "wave32": true})").second["input"]["wave_size"] == 32);
  CHECK(one("{" + rdna + R"(, "wave32": false})").second["input"]["wave_size"] == 64);
  CHECK(one("{" + rdna + R"(, "wave64": false})").second["input"]["wave_size"] == 32);
  CHECK(one("{" + rdna + R"(, "wave64": true, "wave32": false})").second["input"]["wave_size"] == 64);
  CHECK(one("{" + rdna + "}").second["input"]["mode"] == "wgp");
  CHECK(one("{" + rdna + R"(, "cu_mode": true})").second["input"]["mode"] == "cu");
  CHECK(one("{" + rdna + R"(, "wgp_mode": false})").second["input"]["mode"] == "cu");
  CHECK(one("{" + rdna + R"(, "cu_mode": false})").second["input"]["mode"] == "wgp");
  const auto both_off = one("{" + rdna + R"(, "wave32": false, "wave64": false})");
  CHECK(both_off.first == exit_status::bad_input);
  CHECK(both_off.second["error"]["field"] == "wave64");
  const auto not_bool = one("{" + rdna + R"(, "wave32": "false"})");
  CHECK(not_bool.second["error"]["message"] == "wave32 \"false\" is not true or false");
  const auto gcn = one(R"({"gfx": "gfx90a", "threads": 256, "vgprs": 32, "wave64": false})");
  CHECK(gcn.second["error"]["message"] ==
        "wave64 false (waves of 32) does not apply to gfx90a: it runs waves of 64 work-items only");
  CHECK(one(R"({"gfx": "gfx90a", "threads": 256, "vgprs": 32, "wave32": false})").second["input"]["wave_size"] == 64);
}

namespace {

/// A stream buffer that refuses every byte, as a full disk does.
struct full_disk : std::streambuf {
  int_type overflow(int_type) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

}  // namespace

TEST_CASE("cli: a failed write is a failure, never a silent success", "[cli][errors]") {
  const std::vector<std::string> query = {"--cc", "7.0", "--threads", "128", "--regs", "37"};
  for (const auto& extra : std::vector<std::vector<std::string>>{{}, {"--json"}, {"--min-occupancy", "80"}}) {
    auto args = query;
    args.insert(args.end(), extra.begin(), extra.end());
    full_disk disk;
    std::ostream out(&disk);
    const auto r = run_to(out, args);
    CHECK(r.status == exit_status::bad_input);
    CHECK_THAT(r.err, Contains("occcalc: error: cannot write the output"));
  }
  full_disk disk;
  std::ostream out(&disk);
  CHECK(run_to(out, {"batch"},
               R"({"cc": "7.0", "threads": 128, "regs": 37})"
               "\n")
            .status == exit_status::bad_input);
  std::ostream inspect_out(&disk);
  CHECK(run_to(inspect_out, {"inspect", OCCCALC_FIXTURE_DIR "/kernels.sm_90.cubin", "--json"}).status ==
        exit_status::bad_input);
}

TEST_CASE("cli: an exception that escapes a command is one line and exit 2, not an abort", "[cli][errors]") {
  full_disk disk;
  std::ostream out(&disk);
  out.exceptions(std::ios::badbit);  // the first write throws std::ios_base::failure
  const auto r = run_to(out, {"--cc", "7.0", "--threads", "128", "--regs", "37"});
  CHECK(r.status == exit_status::bad_input);
  CHECK_THAT(r.err, StartsWith("occcalc: error: "));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
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

TEST_CASE("cli: batch with a gate exits 1 when a line is below it and none is bad", "[cli][batch][gate]") {
  const std::string input = R"({"cc": "7.0", "threads": 128, "regs": 37})"
                            "\n"
                            R"({"cc": "7.0", "threads": 128, "regs": 32})"
                            "\n";
  CHECK(run({"--min-occupancy", "80", "batch"}, input).status == exit_status::gate_failed);
  CHECK(run({"--min-occupancy", "75", "batch"}, input).status == exit_status::ok);
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

TEST_CASE("cli: list shows every architecture and GPU", "[cli][list]") {
  const auto r = run({"list", "--json"});
  CHECK(r.status == exit_status::ok);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["architectures"].size() == 29);
  CHECK(j["gpus"].size() >= 50);
  CHECK_THAT(run({"list", "gpus"}).out, Contains("GeForce RTX 4090"));
}

namespace {

const std::string fixture_dir = OCCCALC_FIXTURE_DIR;
const std::string cubin = fixture_dir + "/kernels.sm_80.cubin";

/// Writes `text` to a temporary file and returns its path.
std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = std::string(OCCCALC_TEMP_DIR) + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace

TEST_CASE("cli: inspect errors name the input or the flag and exit 2", "[cli][inspect]") {
  struct error_case {
    std::vector<std::string> args;
    std::string message;
  };
  const auto c = GENERATE(values<error_case>({
      {{"inspect", "no/such/file.cubin"}, "occcalc: error: no/such/file.cubin: cannot open: No such file"},
      {{"inspect", "."}, "occcalc: error: .: is a directory"},
      {{"inspect", "/dev/zero"}, "occcalc: error: /dev/zero: more than 268435456 bytes from a pipe or device"},
      {{"inspect", cubin, "--regs", "32"}, "occcalc: error: --regs does not apply to inspect"},
      {{"inspect", cubin, "--cc", "8.0"}, "occcalc: error: --cc does not apply to inspect"},
      {{"inspect", cubin, "--json", "--csv"}, "occcalc: error: --csv cannot be given together with --json"},
      {{"inspect", cubin, "--kernel", "("},
       "occcalc: error: --kernel '(' is not a valid RE2 regular expression: missing )"},
      {{"inspect", cubin, "--arch", "sm_9x"}, "occcalc: error: --arch 'sm_9x' is not a compute capability"},
      {{"inspect", cubin, "--threads", "0"}, "occcalc: error: --threads 0 is outside [1, 2147483647]"},
      {{"inspect", cubin, "--min-occupancy", "50"}, "occcalc: error: --min-occupancy does not apply to inspect"},
      {{"inspect"}, "occcalc: error: inputs is required"},
      {{"check", cubin}, "occcalc: error: --policy is required"},
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
  SECTION("a filter that leaves nothing is an error too") {
    const auto r = run({"check", "--policy", policy, fixture_dir + "/app", "--kernel", "nothing-matches"});
    CHECK(r.status == exit_status::bad_input);
    CHECK_THAT(r.err, Contains("no GPU kernels left to check"));
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
  CHECK(j["schema_version"] == 2);
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

namespace {

/// A minimal XML reader for the SVG test: checks that tags nest and close,
/// attribute values are quoted, and collects each element's name and
/// attributes in document order.
struct xml_element {
  std::string name;
  std::map<std::string, std::string> attributes;
  int depth = 0;
};

std::vector<xml_element> parse_xml(const std::string& text) {
  std::vector<xml_element> elements;
  std::vector<std::string> open;
  std::size_t at = 0;
  while ((at = text.find('<', at)) != std::string::npos) {
    const auto end = text.find('>', at);
    REQUIRE(end != std::string::npos);
    std::string tag = text.substr(at + 1, end - at - 1);
    at = end + 1;
    if (tag.rfind("?", 0) == 0 || tag.rfind("!", 0) == 0) continue;
    if (tag.rfind("/", 0) == 0) {
      REQUIRE_FALSE(open.empty());
      CHECK(open.back() == tag.substr(1));
      open.pop_back();
      continue;
    }
    const bool self_closing = !tag.empty() && tag.back() == '/';
    if (self_closing) tag.pop_back();
    xml_element e;
    e.depth = static_cast<int>(open.size());
    std::size_t i = tag.find_first_of(" \n");
    e.name = tag.substr(0, i);
    while (i != std::string::npos && i < tag.size()) {
      i = tag.find_first_not_of(" \n", i);
      if (i == std::string::npos) break;
      const auto eq = tag.find('=', i);
      REQUIRE(eq != std::string::npos);
      REQUIRE(tag[eq + 1] == '"');
      const auto close = tag.find('"', eq + 2);
      REQUIRE(close != std::string::npos);
      e.attributes[tag.substr(i, eq - i)] = tag.substr(eq + 2, close - eq - 2);
      i = close + 1;
    }
    if (!self_closing) open.push_back(e.name);
    elements.push_back(std::move(e));
  }
  CHECK(open.empty());
  return elements;
}

}  // namespace

TEST_CASE("cli: sweep --svg writes the three charts, each with its series and the current configuration",
          "[cli][sweep]") {
  const std::string path = std::string(OCCCALC_TEMP_DIR) + "/sweep.svg";
  std::remove(path.c_str());
  const auto r = run({"sweep", "--vary", "regs", "--cc", "8.0", "--threads", "256", "--regs", "40", "--smem", "4K",
                      "--svg", path, "--ascii"});
  REQUIRE(r.status == exit_status::ok);
  std::ifstream file(path);
  const std::string svg((std::istreambuf_iterator<char>(file)), {});
  const auto elements = parse_xml(svg);
  REQUIRE_FALSE(elements.empty());
  CHECK(elements.front().name == "svg");
  CHECK(elements.front().attributes.at("xmlns") == "http://www.w3.org/2000/svg");
  std::vector<std::string> charts;
  int series = 0, markers = 0, axes = 0;
  for (const auto& e : elements) {
    const auto cls = e.attributes.count("class") ? e.attributes.at("class") : "";
    if (e.name == "g" && cls == "chart") charts.push_back(e.attributes.at("id"));
    if (e.name == "polyline" && cls == "series") {
      ++series;
      CHECK(std::count(e.attributes.at("points").begin(), e.attributes.at("points").end(), ',') > 10);
    }
    if (e.name == "circle" && cls == "current") ++markers;
    if (e.name == "line" && cls == "axis") ++axes;
  }
  CHECK(charts == std::vector<std::string>{"vary-threads", "vary-regs", "vary-smem"});
  CHECK(series == 3);
  CHECK(markers == 3);
  CHECK(axes == 6);
  CHECK_THAT(svg, Contains("<title>sm_80 (compute capability 8.0): 256 threads, 40 registers, 4096 B shared memory "
                           "per block</title>"));
  CHECK_THAT(svg, Contains(">registers per thread</text>"));
  CHECK_THAT(svg, Contains(">shared memory per block (bytes)</text>"));
  CHECK_THAT(svg, Contains("now: 40 (75.0%)"));  // 40 registers on 8.0: 48 of 64 warps
}

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
      {{"sweep", "--cc", "8.0", "--threads", "128", "--regs", "32"}, "occcalc: error: --vary is required"},
      {{"suggest", "--cc", "8.0", "--regs", "32", "--target", "75"},
       "occcalc: error: --target needs --threads: the block size to start from"},
      {{"suggest", "--cc", "8.0", "--regs", "32", "--threads", "128", "--blocks", "33"},
       "occcalc: error: --blocks 33 is outside [1, 32]"},
      {{"suggest", "--cc", "8.0", "--regs", "32", "--max-threads", "2048"},
       "occcalc: error: --max-threads 2048 is outside [1, 1024]"},
      {{"--cc", "8.0", "--threads", "128", "--regs", "32", "--grid", "100"},
       "occcalc: error: --grid needs a named GPU (gpu) or sm_count: waves need the SM count"},
  }));
  const auto r = run(c.args);
  INFO(r.err);
  CHECK(r.status == exit_status::bad_input);
  CHECK_THAT(r.err, StartsWith(c.message));
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

TEST_CASE("cli amd: batch takes the same keys", "[cli][amd]") {
  const auto r = run({"batch"}, R"({"gfx": "gfx1100", "wave64": true, "threads": 256, "vgprs": 96}
{"gpu": "RX 7900 XTX", "threads": 256, "vgprs": 96, "model": "hip", "grid": 960}
{"gfx": "gfx90a", "wave32": true, "threads": 64, "vgprs": 8}
{"gfx": "gfx90a", "wave64": 1, "threads": 64, "vgprs": 8}
)");
  CHECK(r.status == exit_status::bad_input);
  std::istringstream lines(r.out);
  std::string line;
  std::vector<nlohmann::json> out;
  while (std::getline(lines, line)) out.push_back(nlohmann::json::parse(line));
  REQUIRE(out.size() == 4);
  CHECK(out[0]["input"]["wave_size"] == 64);
  CHECK(out[0]["waves_per_simd"] == 8.0);  // 768 / 96 = 8
  CHECK(out[1]["model"] == "hip");
  CHECK(out[1]["unit"] == "wgp");
  CHECK(out[1]["blocks_per_wave"] == 48 * 8);  // 48 WGPs x 8 work-groups
  CHECK(out[2]["error"]["field"] == "wave32");
  CHECK(out[3]["error"]["message"] == "wave64 1 is not true or false");
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
          "occcalc: error: --cu-mode does not apply to gfx90a (CDNA2): CU and WGP modes exist from gfx10 (RDNA) on\n"},
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
          "occcalc: error: --regs does not apply to AMD targets; give vgprs (and sgprs)\n"},
      row{{"--cc", "7.0", "--threads", "64", "--vgprs", "8"},
          "occcalc: error: --vgprs does not apply to NVIDIA architectures; give regs\n"},
      row{{"--gfx", "gfx90a", "--threads", "2048", "--vgprs", "8"},
          "occcalc: error: --threads 2048 is outside [1, 1024] on gfx90a\n"},
      row{{"--gfx", "cypress", "--threads", "512", "--vgprs", "8"},
          "occcalc: error: --threads 512 is outside [1, 256] on cypress\n"},
      row{{"--gfx", "gfx90a", "--threads", "64", "--vgprs", "300"},
          "occcalc: error: --vgprs 300 is outside [0, 256] on gfx90a\n"},
      row{{"--gfx", "gfx1100", "--threads", "64", "--vgprs", "8", "--lds", "65K"},
          "occcalc: error: --lds 65K is outside [0, 65536] bytes on gfx1100\n"},
      row{{"--gfx", "gfx1100", "--wave32", "--wave64", "--threads", "64", "--vgprs", "8"},
          "occcalc: error: --wave64 cannot be given together with wave32\n"},
      row{{"--gfx", "gfx1100", "--threads", "64"},
          "occcalc: error: --vgprs is required: VGPRs per work-item, as the compiler reports them\n"},
      row{{"--vgprs", "8", "--threads", "64"},
          "occcalc: error: --gfx is required (or an AMD gpu); e.g. gfx90a, gfx1100 or a GPU name\n"},
      row{{"--gpu", "Instinct MI300X", "--threads", "64", "--vgprs", "8", "--grid", "0"},
          "occcalc: error: --grid 0 is outside [1, 2147483647]\n"},
  }));
  CAPTURE(args);
  const auto r = run(args);
  CHECK(r.status == exit_status::bad_input);
  CHECK(r.err == message);
  CHECK(r.out.empty());
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

TEST_CASE("cli amd: sweep varies threads, VGPRs, SGPRs or LDS under the chosen model", "[cli][amd][sweep]") {
  const auto r = run(
      {"sweep", "--vary", "lds", "--gfx", "gfx1100", "--threads", "256", "--vgprs", "96", "--model", "hip", "--json"});
  REQUIRE(r.status == exit_status::ok);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["arch"] == "gfx1100");
  CHECK(j["model"] == "hip");
  CHECK(j["unit"] == "wgp");
  CHECK(j["points"].size() == 257);  // 0 to 64 KiB in 256-byte steps
  // HIP divides the 64 KiB a work-group may use: 8 groups (VGPR- and
  // slot-limited) up to 8 KiB, then 65536 / LDS.
  CHECK(j["points"][32]["value"] == 8192);
  CHECK(j["points"][32]["blocks_per_sm"] == 8);
  CHECK(j["points"][33]["blocks_per_sm"] == 7);
  CHECK(j["points"][256]["blocks_per_sm"] == 1);
  CHECK(j["cliffs"].front()["before"] == 8192);

  const std::string path = std::string(OCCCALC_TEMP_DIR) + "/amd-sweep.svg";
  std::remove(path.c_str());
  REQUIRE(run({"sweep", "--vary", "vgprs", "--gpu", "Instinct MI210", "--threads", "256", "--vgprs", "128", "--svg",
               path, "--ascii"})
              .status == exit_status::ok);
  std::ifstream file(path);
  const std::string svg((std::istreambuf_iterator<char>(file)), {});
  std::vector<std::string> charts;
  for (const auto& e : parse_xml(svg)) {
    if (e.name == "g" && e.attributes.count("class") && e.attributes.at("class") == "chart") {
      charts.push_back(e.attributes.at("id"));
    }
  }
  CHECK(charts == std::vector<std::string>{"vary-threads", "vary-vgprs", "vary-lds"});
  CHECK_THAT(svg, Contains("Instinct MI210, gfx90a (CDNA2, model llvm): 256 work-items, 128 VGPRs, 0 B LDS"));
  CHECK_THAT(svg, Contains("now: 128 (50.0%)"));

  const auto bad = [](std::vector<std::string> args) { return run(std::move(args)).err; };
  CHECK(bad({"sweep", "--vary", "regs", "--gfx", "gfx90a", "--threads", "64", "--vgprs", "8"}) ==
        "occcalc: error: --vary 'regs' is not one of threads, vgprs, sgprs, lds (AMD)\n");
  CHECK(bad({"sweep", "--vary", "vgprs", "--gfx", "gfx90a", "--threads", "64", "--vgprs", "8", "--to", "300"}) ==
        "occcalc: error: --to 300 is outside [0, 256] on gfx90a\n");
  CHECK(bad({"sweep", "--vary", "sgprs", "--gfx", "cypress", "--threads", "64", "--vgprs", "8"}) ==
        "occcalc: error: --vary sgprs does not apply to cypress (VLIW5): it has no scalar registers\n");
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
