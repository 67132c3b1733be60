// The CPUs a process may use: a cgroup v2 quota read as a container sets it.
#include "catch.hpp"

#include "cli_runner.hpp"
#include "io/cpus.hpp"

using occcalc::cli::cpus_from_cgroup_max;

TEST_CASE("cpus: a cgroup v2 cpu.max quota in whole CPUs, rounded up", "[io][cpus]") {
  CHECK(cpus_from_cgroup_max("200000 100000\n") == 2u);  // docker --cpus 2
  CHECK(cpus_from_cgroup_max("150000 100000") == 2u);    // --cpus 1.5
  CHECK(cpus_from_cgroup_max("50000 100000") == 1u);     // --cpus 0.5
  CHECK_FALSE(cpus_from_cgroup_max("max 100000\n"));     // no limit
  CHECK_FALSE(cpus_from_cgroup_max(""));
  CHECK_FALSE(cpus_from_cgroup_max("100000"));
  CHECK_FALSE(cpus_from_cgroup_max("100000 0"));
  CHECK(occcalc::cli::usable_cpus() >= 1u);
}

TEST_CASE("cli: --jobs changes the threads, never the output", "[cli][inspect]") {
  const std::string library = std::string(OCCCALC_FIXTURE_DIR) + "/libkernels.a";
  const auto one = occcalc::test::run({"inspect", library, "--jobs", "1", "--json"});
  const auto two = occcalc::test::run({"inspect", library, "--jobs", "2", "--json"});
  CHECK(one.status == occcalc::cli::exit_status::ok);
  CHECK(one.out == two.out);
  CHECK(occcalc::test::run({"inspect", library, "--jobs", "0"}).status == occcalc::cli::exit_status::bad_input);
}
