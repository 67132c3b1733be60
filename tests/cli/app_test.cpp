// The command line as a whole: unknown flags, failed writes, escaped exceptions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "cli_runner.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using occcalc::cli::exit_status;
using occcalc::test::run;
using occcalc::test::run_to;

namespace {

/// A stream buffer that refuses every byte, as a full disk does.
struct full_disk : std::streambuf {
  int_type overflow(int_type) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

}  // namespace

TEST_CASE("cli: unknown flags and subcommands exit 2, with a suggestion", "[cli][errors]") {
  const auto flag = run({"--cc", "7.0", "--thread", "128"});
  CHECK(flag.status == exit_status::bad_input);
  CHECK_THAT(flag.err, StartsWith("occcalc: error: "));
  const auto sub = run({"lsit"});
  CHECK(sub.status == exit_status::bad_input);
  CHECK_THAT(sub.err, Contains("did you mean 'list'?"));
}

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
