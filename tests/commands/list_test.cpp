// occcalc list.
#include "catch.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using occcalc::cli::exit_status;
using occcalc::test::run;
using occcalc::test::matchers::Contains;

TEST_CASE("cli: list shows every architecture and GPU", "[cli][list]") {
  const auto r = run({"list", "--json"});
  CHECK(r.status == exit_status::ok);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["architectures"].size() == 30);
  CHECK(j["gpus"].size() >= 50);
  CHECK_THAT(run({"list", "gpus"}).out, Contains("GeForce RTX 4090"));
}

TEST_CASE("cli: list gpus --ids gives what people type, and --gpu takes each", "[cli][list][family]") {
  const auto r = run({"list", "gpus", "--ids"});
  REQUIRE(r.status == exit_status::ok);
  std::vector<std::string> names;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) names.push_back(line);
  const auto has = [&](const std::string& name) { return std::find(names.begin(), names.end(), name) != names.end(); };
  CHECK(has("geforce-rtx-4090"));  // the id
  CHECK(has("rtx-4090"));          // without the brand word: rtx<TAB> reaches it
  CHECK(has("h100"));              // family names
  CHECK(has("a100-sxm4"));
  CHECK(has("mi300x"));
  CHECK_FALSE(has("rtx-4060-ti-super"));
  CHECK(std::set<std::string>(names.begin(), names.end()).size() == names.size());  // each once
  for (const auto& name : names) {
    INFO(name);
    // Each resolves, as a family or a product, for its vendor's query.
    auto nvidia = run({"--gpu", name, "--threads", "128", "--regs", "32"});
    if (nvidia.err.find("does not apply to AMD targets") != std::string::npos) {
      nvidia = run({"--gpu", name, "--threads", "128", "--vgprs", "32"});
    }
    CHECK(nvidia.status == exit_status::ok);
  }
}
