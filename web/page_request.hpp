// A web page request: the page's fields, as typed, made into the CLI's
// request and command line. The page has one target box for what the CLI
// takes as --cc, --gpu or --gfx, and keeps both vendors' fields; the target
// decides which flag it is and which fields apply.
#pragma once

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "builds/readers/kernel_resources.hpp"
#include "occcalc/tables/load.hpp"

namespace occcalc::web {

/// A field's value as the page gives it: text as typed, or a switch.
using field_value = std::variant<std::string, bool>;

/// Request fields in `request_fields` order, each with its value.
using page_fields = std::vector<std::pair<std::string, field_value>>;

/// The page's key for its target box.
inline constexpr std::string_view target_field = "target";

/// A page request read against the tables.
struct page_request {
  /// Which request key the target is: cc, gpu or gfx.
  std::string target_key;
  /// Whether the target is AMD's: then the AMD fields apply, else NVIDIA's.
  bool amd = false;
  /// The fields that apply, the target's among them; empty values and
  /// switches that are off left out (the CLI's defaults).
  page_fields fields;
  /// Why there is no request (`field`, `message`); empty when there is.
  nlohmann::ordered_json error;
};

/// Reads the page's JSON object: `target` and request keys (text, or true
/// and false for switches). Keys of the other vendor are dropped; an
/// unknown key or a value of the wrong type is an error naming it.
page_request read_page_request(const occcalc::table& tables, const nlohmann::ordered_json& page);

/// `fields` as a batch line's JSON object.
nlohmann::ordered_json fields_json(const page_fields& fields);

/// `fields` without the keys in `keys`.
page_fields without(page_fields fields, std::initializer_list<std::string_view> keys);

/// The command line that asks the CLI what `fields` ask: `occcalc`, the
/// subcommand if any, then each field's flag and value quoted for a POSIX
/// shell where needed (`--gpu 'RTX 4090'`).
std::string command_line(std::string_view subcommand, const page_fields& fields);

/// The page's label for request key `key` (`sm_count`: `SMs`, or `CUs` on
/// an AMD target): what its messages name a field by, where the CLI names
/// its flag.
std::string_view page_label(std::string_view key, bool amd);

/// `text` quoted for a POSIX shell where it needs to be.
std::string shell_quoted(std::string_view text);

/// The page fields a kernel read from a compiler log fills: its
/// architecture as `target` where the log names one, and its figures (AMD
/// remarks': VGPRs, AGPRs, SGPRs and LDS, those stated).
nlohmann::ordered_json log_fields(const inspect::kernel_resources& k, bool amd_remarks);

/// The line ptxas prints before a kernel's figures, for a figures line
/// pasted alone.
inline constexpr std::string_view pasted_entry_line = "ptxas info    : Compiling entry function 'pasted' for ''";

/// The family names (`H100`, `A100`) the tables answer for two or more
/// GPUs, as their names spell them, in table order.
std::vector<std::string> family_names(const occcalc::table& tables);

}  // namespace occcalc::web
