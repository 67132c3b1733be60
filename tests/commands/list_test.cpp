// occcalc list.
#include "catch.hpp"

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using occcalc::cli::exit_status;
using occcalc::test::run;
using occcalc::test::matchers::Contains;

TEST_CASE("cli: list shows every architecture and GPU", "[cli][list]") {
  const auto r = run({"list", "--json"});
  CHECK(r.status == exit_status::ok);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["architectures"].size() == 29);
  CHECK(j["gpus"].size() >= 50);
  CHECK_THAT(run({"list", "gpus"}).out, Contains("GeForce RTX 4090"));
}
