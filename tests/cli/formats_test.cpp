// One --format on every command: its choices are the command's (its
// renderer table's, where it has one), --json and --csv are its aliases, and
// a format a command does not print is refused naming the ones it does.
#include "catch.hpp"

#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "files.hpp"

using occcalc::cli::exit_status;
using occcalc::test::log_fixture;
using occcalc::test::run;
using occcalc::test::strict;
using occcalc::test::matchers::Contains;

namespace {

struct command_line {
  std::vector<std::string> args;
  /// What `--format` takes, as the help lists them.
  std::string formats;
  std::string input;
};

const std::vector<command_line>& command_lines() {
  static const std::vector<command_line> lines = {
      {{"--cc", "8.0", "--threads", "128", "--regs", "40"}, "text (default) or json", {}},
      {{"list", "archs"}, "text (default) or json", {}},
      {{"batch"}, "json", "{\"cc\": \"8.0\", \"threads\": 128, \"regs\": 40}\n"},
      {{"inspect", log_fixture}, "text (default), json or csv", {}},
      {{"check", "--policy", strict, log_fixture}, "text (default), json, github, sarif or markdown", {}},
      {{"diff", log_fixture, log_fixture}, "text (default), json, github, sarif or markdown", {}},
      {{"suggest", "--cc", "8.0", "--regs", "40"}, "text (default) or json", {}},
      {{"limits", "--cc", "9.0", "--threads", "256"}, "text (default) or json", {}},
      {{"sweep", "--vary", "regs", "--cc", "8.0", "--threads", "256", "--regs", "40"},
       "text (default), json or csv",
       {}},
  };
  return lines;
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

}  // namespace

TEST_CASE("cli: --format on every command; --json and --csv are its aliases", "[cli][formats]") {
  for (const auto& line : command_lines()) {
    INFO(line.args.front());
    const auto plain = run(line.args, line.input);
    REQUIRE(plain.err.empty());
    const bool has_text = line.formats != "json";
    if (has_text) CHECK(run(with(line.args, {"--format", "text"}), line.input).out == plain.out);
    const auto json = run(with(line.args, {"--format", "json"}), line.input);
    CHECK(json.status == plain.status);
    CHECK(json.err.empty());
    CHECK(json.out == run(with(line.args, {"--json"}), line.input).out);
    CHECK(json.out != (has_text ? plain.out : std::string()));
    CHECK(json.out.front() == '{');
    if (line.formats.find("csv") != std::string::npos) {
      const auto csv = run(with(line.args, {"--format", "csv"}), line.input);
      CHECK(csv.err.empty());
      CHECK(csv.out == run(with(line.args, {"--csv"}), line.input).out);
      CHECK(csv.out.find(',') < csv.out.find('\n'));
    }
  }
}

TEST_CASE("cli: each command's help lists its formats, from its one list", "[cli][formats]") {
  CHECK_THAT(run({"--help"}).out, Contains("Output format: text (default) or json"));
  for (const auto& line : command_lines()) {
    if (line.args.front().rfind("--", 0) == 0) continue;
    INFO(line.args.front());
    const auto help = run({"help", line.args.front()}).out;
    // The help wraps its lines: compare its words.
    std::string words;
    for (const char c : help) {
      if (c == '\n' || c == ' ') {
        if (!words.empty() && words.back() != ' ') words += ' ';
      } else {
        words += c;
      }
    }
    CHECK_THAT(words, Contains("Output format: " + line.formats));
    CHECK((words.find(" --csv ") != std::string::npos) == (line.formats.find("csv") != std::string::npos));
  }
}

TEST_CASE("cli: a format a command does not print, or two asked at once, is refused", "[cli][formats]") {
  const std::string query_error = "occcalc: error: --format 'csv' is not one of text or json\n";
  CHECK(run({"--cc", "8.0", "--threads", "128", "--regs", "40", "--format", "csv"}).err == query_error);
  CHECK(run({"suggest", "--cc", "8.0", "--regs", "40", "--format", "csv"}).err == query_error);
  CHECK(run({"suggest", "--cc", "8.0", "--regs", "40", "--csv"}).err ==
        "occcalc: error: --csv is not an option of suggest; inspect and sweep take it\n");
  CHECK(run({"batch", "--format", "text"}).err ==
        "occcalc: error: --format 'text' is not json, the one format batch prints\n");
  CHECK(run({"inspect", log_fixture, "--format", "sarif"}).err ==
        "occcalc: error: --format 'sarif' is not one of text, json or csv\n");
  CHECK(run({"limits", "--cc", "9.0", "--threads", "256", "--format", "xml"}).err ==
        "occcalc: error: --format 'xml' is not one of text or json\n");
  CHECK(run({"inspect", log_fixture, "--json", "--csv"}).err ==
        "occcalc: error: --csv cannot be given together with --json\n");
  CHECK(run({"sweep", "--vary", "regs", "--cc", "8.0", "--threads", "256", "--csv", "--format", "csv"}).err ==
        "occcalc: error: --csv cannot be given together with --format; --csv is --format csv\n");
  // Before the command and after it, as twice after it.
  CHECK(run({"--format", "json", "inspect", log_fixture, "--format", "csv"}).err ==
        "occcalc: error: --format is given more than once; give it once\n");
  CHECK(run({"inspect", log_fixture, "--format", "json", "--format", "csv"}).err ==
        "occcalc: error: --format is given more than once; give it once\n");
  CHECK(run({"--format", "csv", "inspect", log_fixture}).out == run({"inspect", log_fixture, "--csv"}).out);
  const auto both = run({"check", "--policy", strict, log_fixture, "--json", "--format", "json"});
  CHECK(both.status == exit_status::bad_input);
  CHECK(both.err == "occcalc: error: --json cannot be given together with --format; --json is --format json\n");
}
