// The command line as a whole: unknown flags, failed writes, escaped exceptions.
#include "catch.hpp"
#include "sampling.hpp"

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "occcalc/request/request.hpp"

using occcalc::cli::exit_status;
using occcalc::test::run;
using occcalc::test::run_to;
using occcalc::test::matchers::Contains;
using occcalc::test::matchers::StartsWith;

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
  CHECK_THAT(sub.err, Contains("(did you mean list?)"));
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

TEST_CASE("cli: no arguments prints the usage and exits 2", "[cli][help]") {
  const std::vector<const char*> argv = {"occcalc"};
  std::ostringstream out, err;
  std::istringstream in;
  const auto status = occcalc::cli::run(1, argv.data(), in, out, err);
  CHECK(status == exit_status::bad_input);
  CHECK(out.str().empty());
  CHECK_THAT(err.str(), StartsWith("usage: occcalc --cc CC --threads N --regs N [OPTIONS]"));
  CHECK_THAT(err.str(), Contains("occcalc --cc 7.0 --threads 128 --regs 37"));
}

TEST_CASE("cli: occcalc help [COMMAND] is --help, with placeholders and examples", "[cli][help]") {
  const auto top = run({"help"});
  CHECK(top.status == exit_status::ok);
  CHECK(top.out == run({"--help"}).out);
  CHECK_THAT(top.out, Contains("--threads N"));
  CHECK_THAT(top.out, Contains("--dyn-smem BYTES"));
  CHECK_THAT(top.out, Contains("--cc CC"));
  CHECK_THAT(top.out, Contains("--carveout PCT"));
  for (const char* command : {"list", "batch", "inspect", "check", "diff", "suggest", "sweep"}) {
    INFO(command);
    const auto help = run({"help", command});
    CHECK(help.status == exit_status::ok);
    CHECK(help.out == run({command, "--help"}).out);
    CHECK_THAT(help.out, Contains("Example"));
    CHECK_THAT(help.out, !Contains(" TEXT"));  // every value has a typed placeholder
  }
  CHECK_THAT(run({"help", "batch"}).out, Contains("  dyn_smem    Dynamic shared memory per block"));
  const auto unknown = run({"help", "inpsect"});
  CHECK(unknown.status == exit_status::bad_input);
  CHECK_THAT(unknown.err, StartsWith("occcalc: error: help: 'inpsect' is not a command (did you mean 'inspect'?)"));
  CHECK(run({"help", "inspect", "check"}).status == exit_status::bad_input);
}

TEST_CASE("cli: --version names the version and the commit built", "[cli][help]") {
  const auto v = run({"--version"});
  CHECK(v.status == exit_status::ok);
  CHECK_THAT(v.out,
             occcalc::test::matchers::Matches("occcalc [0-9]+\\.[0-9]+\\.[0-9]+( \\(commit [0-9a-f]{7,40}\\))?\n"));
}

TEST_CASE("cli: messages spell other fields as flags; batch, as keys", "[cli][errors]") {
  const auto cli = run({"--threads", "128", "--regs", "32"});
  CHECK(cli.err == "occcalc: error: --cc is required (or --gpu); e.g. 7.0, sm_70 or a GPU name\n");
  const auto grid = run({"--gfx", "gfx90a", "--threads", "256", "--vgprs", "32", "--grid", "100"});
  CHECK(grid.err == "occcalc: error: --grid needs a named GPU (--gpu) or --sm-count (CUs): waves need the CU count\n");
  const auto batch = run({"batch"}, "{\"threads\": 128, \"regs\": 32}\n");
  CHECK_THAT(batch.out, Contains("\"message\":\"cc is required (or gpu); e.g. 7.0, sm_70 or a GPU name\""));
}

TEST_CASE("cli: the plain query path and CLI11 accept the same command lines and answer alike", "[cli][parse]") {
  // A query of request flags (and --json) alone is read without CLI11; with
  // any other flag (`--color never`, which changes nothing on a pipe) CLI11
  // reads it. Command lines generated from the one table of request flags,
  // valid and not, seeded: both paths give the same exit code, output and
  // message.
  std::mt19937 random(3232);
  const auto pick = [&](const auto& items) -> const auto& {
    return items[std::uniform_int_distribution<std::size_t>(0, std::size(items) - 1)(random)];
  };
  const std::vector<std::string> values = {"7.0", "8.6", "sm_90", "gfx90a",  "RTX 4090", "128", "37",        "4K",
                                           "0",   "1",   "255",   "1024",    "default",  "l1",  "abc",       "1e3",
                                           "-1",  "",    " ",     "inspect", "2048",     "50",  "max-shared"};
  const std::vector<std::string> threads = {"32", "128", "256", "1024", "2048"};
  const std::vector<std::string> regs = {"0", "16", "37", "64", "255", "300"};
  const std::vector<std::pair<std::string, std::string>> optional_flags = {
      {"--smem", "4K"},   {"--dyn-smem", "48K"}, {"--carveout", "50"}, {"--barriers", "2"},
      {"--grid", "1000"}, {"--sm-count", "80"},  {"--cache", "l1"}};
  std::size_t differ = 0, plain_ok = 0;
  const auto via_both = [&](const std::vector<std::string>& args) {
    auto via_cli11 = args;
    via_cli11.insert(via_cli11.begin(), {"--color", "never"});
    const auto plain = run(args);
    const auto full = run(via_cli11);
    std::string line;
    for (const auto& a : args) line += "'" + a + "' ";
    INFO(line);
    CHECK(plain.status == full.status);
    CHECK(plain.out == full.out);
    CHECK(plain.err == full.err);
    differ += plain.status != full.status || plain.out != full.out || plain.err != full.err;
    plain_ok += plain.status == exit_status::ok;
  };
  for (std::size_t i = 0; i < occcalc::test::sample(1500); ++i) {
    std::vector<std::string> args;
    if (std::bernoulli_distribution(0.5)(random)) {
      // A request that may well answer: a base and optional flags with
      // values of their kinds.
      args = {"--cc",    pick(std::vector<std::string>{"7.0", "8.9", "9.0"}), "--threads", pick(threads), "--regs",
              pick(regs)};
      for (const auto& [flag, value] : optional_flags) {
        if (std::bernoulli_distribution(0.3)(random)) args.insert(args.end(), {flag, value});
      }
      if (std::bernoulli_distribution(0.3)(random)) args.push_back("--json");
      if (std::bernoulli_distribution(0.2)(random)) args.push_back("--brief");
      via_both(args);
      continue;
    }
    const int extra = std::uniform_int_distribution<int>(1, 4)(random);
    for (int e = 0; e < extra; ++e) {
      const auto& field = pick(occcalc::request_fields);
      const std::string flag = "--" + std::string(field.key);
      std::string name = flag;
      for (auto& c : name) c = c == '_' ? '-' : c;
      if (field.kind == occcalc::field_kind::flag) {
        args.push_back(name);
      } else if (std::bernoulli_distribution(0.2)(random)) {
        args.push_back(name + "=" + pick(values));
      } else {
        args.insert(args.end(), {name, pick(values)});
      }
    }
    if (std::bernoulli_distribution(0.3)(random)) args.push_back("--json");
    if (std::bernoulli_distribution(0.2)(random)) args.push_back("--brief");
    via_both(args);
  }
  CHECK(differ == 0);
  // Both kinds are generated often: answers and refusals.
  CHECK(plain_ok > occcalc::test::sample(300));
  CHECK(plain_ok < occcalc::test::sample(1200));
}
