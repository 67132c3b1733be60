// occcalc batch: lines in order, errors inline, ids, switches, the gate.
#include "catch.hpp"

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "occcalc/version.hpp"

using occcalc::cli::exit_status;
using occcalc::test::run;

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
  CHECK(results[7]["gpu"] == "GeForce RTX 4090");
  CHECK_FALSE(results[7].contains("device"));  // named, not repeated: list --json has the entries
  CHECK(results[7]["occupancy_percent"] == 66.67);
  for (const auto& result : results) CHECK(result["schema_version"] == occcalc::result_schema_version);
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

TEST_CASE("cli: batch with a gate exits 1 when a line is below it and none is bad", "[cli][batch][gate]") {
  const std::string input = R"({"cc": "7.0", "threads": 128, "regs": 37})"
                            "\n"
                            R"({"cc": "7.0", "threads": 128, "regs": 32})"
                            "\n";
  CHECK(run({"--min-occupancy", "80", "batch"}, input).status == exit_status::gate_failed);
  CHECK(run({"--min-occupancy", "75", "batch"}, input).status == exit_status::ok);
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
