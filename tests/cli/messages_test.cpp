// Every error the argument parser can raise, in occcalc's words: one line,
// naming what is wrong and what is wanted, with a hint where one exists.
// The cases come from the issue, and from every command's own --help (each
// option without its value, an unknown flag, what a command cannot run
// without), so a new option is covered when it is declared.
#include "catch.hpp"

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

using occcalc::cli::exit_status;
using occcalc::test::run;

namespace {

const std::vector<std::string> command_names = {"list", "batch", "inspect", "check", "diff", "suggest", "sweep"};

/// What no message may say: the parser's own wording.
void check_in_occcalc_words(const std::vector<std::string>& args, const occcalc::test::outcome& r) {
  std::string line;
  for (const auto& a : args) line += a + " ";
  INFO("occcalc " << line << "-> " << r.err);
  CHECK(r.status == exit_status::bad_input);
  CHECK(r.out.empty());
  REQUIRE(r.err.rfind("occcalc: error: ", 0) == 0);
  CHECK(r.err.find('\n') == r.err.size() - 1);  // one line
  for (const char* parser_words : {"is required", "required but received", " not in {", "Could not convert",
                                   "unexpected argument", "not in range", "required N missing"}) {
    CHECK(r.err.find(parser_words) == std::string::npos);
  }
}

/// The long options a command's help lists with a value placeholder
/// (`--kernel REGEX`), help itself aside.
std::vector<std::string> options_with_values(const std::string& help) {
  std::vector<std::string> out;
  const std::regex option(R"(^  (?:-\w,)?(--[a-z][a-z0-9-]*) [A-Z]+)");
  std::istringstream lines(help);
  for (std::string l; std::getline(lines, l);) {
    std::smatch m;
    if (std::regex_search(l, m, option)) out.push_back(m[1]);
  }
  return out;
}

}  // namespace

TEST_CASE("cli: the issue's parser messages, in occcalc's words", "[cli][errors][messages]") {
  using row = std::tuple<std::vector<std::string>, std::string>;
  const auto [args, message] = GENERATE(table<std::vector<std::string>, std::string>({
      row{{"inspect"},
          "inspect needs INPUT...: the build outputs to read (cubins, fat binaries, libraries, executables, AMD code "
          "objects, Triton caches, compiler logs or directories; - for standard input); e.g. occcalc inspect "
          "build/libkernels.a --arch sm_90"},
      row{{"diff", "a.so"},
          "diff needs OLD and NEW: two builds, each a build output, a directory or a saved inspect --json; e.g. "
          "occcalc diff baseline.json build/app --fail-on-regression"},
      row{{"list", "gpu"}, "list 'gpu' is not one of archs, gpus, amd, all; did you mean gpus?"},
      row{{"--json", "--csv"}, "--csv is not an option of the query; inspect and sweep take it"},
      row{{"--registers", "32"},
          "'--registers' is not an option of the query; did you mean --regs (registers per thread (ptxas -v 'Used N "
          "registers'))?"},
      row{{"--target", "gfx90a"},
          "'--target' is not an option of the query; did you mean --gfx (AMD target: gfx90a, gfx1100, ... (VLIW: "
          "cypress, cayman, ...))?"},
      row{{"--cc", "8.0", "--threads", "128", "--regs", "32", "--smem", "48KB"},
          "--smem '48KB' is not a size; expected bytes, or KiB with a K or KiB suffix, in [0, 2147483647]; write 48K "
          "or 49152 (K is KiB, 1024 bytes)"},
      row{{"--gpu", "RTX", "4090", "--threads", "128", "--regs", "32"},
          "'4090' follows --gpu RTX: a value with spaces needs quotes, e.g. --gpu 'RTX 4090'"},
      row{{"inpsect", "x"},
          "'inpsect' is not a command (did you mean inspect?); the commands are list, batch, inspect, check, diff, "
          "suggest, limits, sweep (occcalc --help)"},
      row{{"--cc", "7.0", "--cc", "8.0", "--threads", "1", "--regs", "1"},
          "--cc is given more than once; give it once"},
      row{{"--color", "sometimes", "--cc", "7.0", "--threads", "1", "--regs", "1"},
          "--color 'sometimes' is not one of auto, always, never"},
      row{{"inspect", "x", "--jobs", "0"}, "--jobs 0 is outside [1, 1024]"},
      row{{"--kernel", "gemm", "--cc", "8.0"},
          "--kernel is not an option of the query; inspect, check and diff take it"},
      row{{"batch", "requests.jsonl"},
          "batch takes no argument 'requests.jsonl'; e.g. echo '{\"id\": \"a\", \"cc\": \"8.0\", \"threads\": 256, "
          "\"regs\": 32}' | occcalc batch"},
  }));
  const auto r = run(args);
  check_in_occcalc_words(args, r);
  CHECK(r.err == "occcalc: error: " + message + "\n");
}

TEST_CASE("cli: every command's parser errors are one line in occcalc's words", "[cli][errors][messages]") {
  for (const auto& command : command_names) {
    const auto help = run({"help", command});
    REQUIRE(help.status == exit_status::ok);
    const auto options = options_with_values(help.out);
    CHECK((command == "list" || !options.empty()));
    for (const auto& option : options) {
      // The option last, without its value.
      const std::vector<std::string> args = {command, option};
      const auto r = run(args);
      check_in_occcalc_words(args, r);
      if (r.err.find("needs a value") == std::string::npos) {
        // A command that cannot run without something else says that first.
        CHECK(r.err.find(command + " needs ") != std::string::npos);
      }
    }
    // An unknown flag, and one that is a typo of a real one.
    check_in_occcalc_words({command, "--no-such-flag"}, run({command, "--no-such-flag"}));
    const auto typo = run({command, "--jsn"});
    check_in_occcalc_words({command, "--jsn"}, typo);
    CHECK(typo.err.find("did you mean --json") != std::string::npos);
  }
  // The query's own options, each without its value.
  const auto help = run({"--help"});
  for (const auto& option : options_with_values(help.out)) {
    const std::vector<std::string> args = {"--cc", "8.0", option};
    const auto r = run(args);
    check_in_occcalc_words(args, r);
    CHECK(r.err.find(option + " needs a value") != std::string::npos);
  }
}
