#include "cli/help_format.hpp"

#include <memory>
#include <string_view>

#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include "occcalc/request/request.hpp"
#include "occcalc/version.hpp"
#include "render/text_layout.hpp"

namespace occcalc::cli {

namespace {

/// Where descriptions start, as in CLI11's own layout.
constexpr std::size_t name_column = 30;

class help_formatter : public CLI::Formatter {
 public:
  explicit help_formatter(std::size_t columns) : columns_(columns) { column_width(name_column); }

  std::string make_option(const CLI::Option* opt, bool is_positional) const override {
    return lay_out(make_option_name(opt, is_positional) + make_option_opts(opt), make_option_desc(opt));
  }

  std::string make_subcommand(const CLI::App* sub) const override {
    return lay_out(sub->get_display_name(), sub->get_description());
  }

  std::string make_description(const CLI::App* app) const override {
    const std::string description = app->get_description();
    return description.empty() ? std::string() : paragraphs(description) + "\n";
  }

  std::string make_footer(const CLI::App* app) const override {
    const std::string footer = app->get_footer();
    return footer.empty() ? std::string() : paragraphs(footer);
  }

 private:
  /// `  name  description`, the description wrapped under itself; a name
  /// too long for its column puts the description on the next line.
  std::string lay_out(const std::string& name, const std::string& description) const {
    const std::string first = "  " + name;
    if (description.empty()) return first + "\n";
    std::string text = wrap_hanging(description, name_column, name_column, columns_);
    if (first.size() + 1 < name_column) return first + text.substr(first.size());
    return first + "\n" + text;
  }

  /// Each line of `text` wrapped on its own. A line with two columns
  /// (`  key  what it is`, two spaces between) keeps its layout, the second
  /// column wrapped under itself; other lines wrap under their first word.
  std::string paragraphs(std::string_view text) const {
    std::string out;
    while (!text.empty()) {
      const auto end = text.find('\n');
      const std::string_view line = text.substr(0, end);
      text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
      const std::size_t lead = line.find_first_not_of(' ');
      if (lead == std::string_view::npos) {
        out += "\n";
        continue;
      }
      const std::size_t gap = line.find("  ", lead);
      const std::size_t second = gap == std::string_view::npos ? gap : line.find_first_not_of(' ', gap);
      if (second == std::string_view::npos) {
        out += wrap_hanging(line.substr(lead), lead, lead, columns_);
        continue;
      }
      const std::string wrapped = wrap_hanging(line.substr(second), second, second, columns_);
      out += std::string(line.substr(0, second)) + wrapped.substr(second);
    }
    return out;
  }

  std::size_t columns_;
};

}  // namespace

void use_help_formatter(CLI::App& app, std::size_t columns) {
  app.formatter(std::make_shared<help_formatter>(columns));
}

/// The placeholder each request flag shows in --help: what to type.
std::string_view placeholder_of(std::string_view key) {
  static constexpr std::pair<std::string_view, std::string_view> placeholders[] = {
      {"cc", "CC"},          {"gpu", "NAME"},     {"threads", "N"},  {"regs", "N"},     {"smem", "BYTES"},
      {"dyn_smem", "BYTES"}, {"carveout", "PCT"}, {"cache", "PREF"}, {"barriers", "N"}, {"grid", "BLOCKS"},
      {"sm_count", "N"},     {"gfx", "TARGET"},   {"vgprs", "N"},    {"agprs", "N"},    {"sgprs", "N"},
      {"lds", "BYTES"},      {"model", "MODEL"},
  };
  for (const auto& [k, placeholder] : placeholders) {
    if (k == key) return placeholder;
  }
  return "VALUE";
}

/// `batch --help`: every key a request line may hold.
std::string batch_keys() {
  std::string text =
      "Each line is a JSON object with the query's flags as keys (with _ for -; switches take true or false) and "
      "an optional \"id\" echoed in its result:\n";
  for (const auto& field : occcalc::request_fields) {
    text += fmt::format("  {:<10}  {}\n", field.key, field.description);
  }
  return text +
         "Example:\n"
         "  echo '{\"id\": \"a\", \"cc\": \"8.0\", \"threads\": 256, \"regs\": 32}' | occcalc batch\n"
         "A bad line gets one error object on its line; the exit code is then 2.";
}

/// `occcalc 0.1.0 (commit 1a2b3c4d5e6f)`; the commit is the build's, when
/// it was built from a git checkout.
std::string version_text() {
  const std::string_view commit = OCCCALC_COMMIT;
  return fmt::format("occcalc {}{}", occcalc::version_string,
                     commit.empty() ? std::string() : fmt::format(" (commit {})", commit));
}

std::string first_contact_usage() {
  return "usage: occcalc --cc CC --threads N --regs N [OPTIONS]   one launch's occupancy\n"
         "       occcalc COMMAND [OPTIONS]       list, batch, inspect, check, diff,\n"
         "                                       suggest or sweep\n"
         "\n"
         "examples:\n"
         "  occcalc --cc 7.0 --threads 128 --regs 37\n"
         "  occcalc --gpu \"RTX 4090\" --threads 256 --regs 64 --smem 16K\n"
         "  occcalc --gfx gfx90a --threads 256 --vgprs 128\n"
         "  occcalc inspect build/app --arch sm_90\n"
         "  occcalc suggest --cc 8.0 --regs 40\n"
         "\n"
         "occcalc help lists every option; occcalc help COMMAND, a command's.\n";
}

}  // namespace occcalc::cli
