// The CI gate's contract (issue 31): one unit for every floor, the printed
// figure compared, a ratchet that never passes wrongly, reports that fit a
// pull request, outputs no name can hijack.
#include "catch.hpp"

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using occcalc::cli::exit_status;
using occcalc::test::run;
using occcalc::test::matchers::Contains;

namespace {

const std::string fixtures = OCCCALC_FIXTURE_DIR;

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = std::string(OCCCALC_TEMP_DIR) + "/gate-" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
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
  const std::string build = fixtures + "/kernels.sm_80.cubin";
  const auto fraction =
      temp_file("fraction.json", R"({"schema_version": 1, "defaults": {"threads": 256, "min_occupancy": 0.5}})");
  const auto r = run({"check", "--policy", fraction, build});
  CHECK(r.status == exit_status::bad_input);
  CHECK_THAT(r.err, Contains(fraction + ": defaults: field 'min_occupancy': 0.5 is ambiguous: 0.5% or, read as a "
                                        "fraction, 50%?"));
  const auto sign =
      temp_file("sign.json", R"({"schema_version": 1, "defaults": {"threads": 256, "min_occupancy": "50%"}})");
  const auto number =
      temp_file("number.json", R"({"schema_version": 1, "defaults": {"threads": 256, "min_occupancy": 50}})");
  const auto a = run({"check", "--policy", sign, build, "--json"});
  const auto b = run({"check", "--policy", number, build, "--json"});
  CHECK(a.status == b.status);
  CHECK(nlohmann::json::parse(a.out)["violations"] == nlohmann::json::parse(b.out)["violations"]);
  const auto not_text = temp_file("bool.json", R"({"schema_version": 1, "defaults": {"min_occupancy": true}})");
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
