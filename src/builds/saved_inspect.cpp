#include "builds/saved_inspect.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <optional>

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "builds/saved_record_fields.hpp"
#include "builds/saved_record_stream.hpp"
#include "occcalc/error.hpp"
#include "occcalc/request/request.hpp"
#include "occcalc/tables/json_input.hpp"
#include "occcalc/version.hpp"

namespace occcalc::cli {

namespace {

/// The oldest inspect schema whose records carry the raw figures.
constexpr std::int64_t oldest_inspect_schema = 2;

/// The most a saved inspect may hold (docs/reference.md): a million kernels
/// save to about 600 MiB.
constexpr std::size_t max_saved_inspect_bytes = std::size_t{4} << 30;
/// The longest name, path, origin or config a record may hold: a mangled
/// name runs to kilobytes, and a log's line is read up to 1 MiB.
constexpr std::size_t max_saved_text_bytes = std::size_t{1} << 20;

using nlohmann::json;

/// One record of a saved inspect, as a build's kernel: every raw figure it
/// holds (its texts moved out of `record`). Throws `table_error` naming the
/// record.
build_kernel kernel_of(const std::string& origin, std::size_t index, record_fields& record) {
  const auto where = [&] { return fmt::format("{}: kernels[{}]", origin, index); };
  const auto text_field = [&](auto slot, bool required) {
    static_assert(slot < std::size(saved_record_fields), "a member kernel_of reads");
    const std::string_view key = saved_record_fields[slot];
    json& value = record[slot];
    if (value.is_null()) {
      if (!required) return std::string();
      throw occcalc::table_error(fmt::format("{}: field '{}' is missing", where(), key));
    }
    if (!value.is_string()) throw occcalc::table_error(fmt::format("{}: field '{}' is not a string", where(), key));
    auto& text = value.get_ref<std::string&>();
    if (text.size() > max_saved_text_bytes) {
      throw occcalc::table_error(
          fmt::format("{}: field '{}' holds {} bytes; a saved record's text is at most {} (1 MiB)", where(), key,
                      text.size(), max_saved_text_bytes));
    }
    return std::move(text);
  };
  const auto count = [&](auto slot) -> std::optional<std::int64_t> {
    static_assert(slot < std::size(saved_record_fields), "a member kernel_of reads");
    const std::string_view key = saved_record_fields[slot];
    const json& value = record[slot];
    if (value.is_null()) return std::nullopt;
    if (!value.is_number_integer() || value.get<std::int64_t>() < 0) {
      throw occcalc::table_error(fmt::format("{}: field '{}' is not a count", where(), key));
    }
    return value.get<std::int64_t>();
  };
  const auto dims = [&](auto slot) -> std::optional<inspect::dim3> {
    static_assert(slot < std::size(saved_record_fields), "a member kernel_of reads");
    const std::string_view key = saved_record_fields[slot];
    const json& value = record[slot];
    if (value.is_null()) return std::nullopt;
    inspect::dim3 d{};
    if (!value.is_array() || value.size() != d.size()) {
      throw occcalc::table_error(fmt::format("{}: field '{}' is not three dimensions", where(), key));
    }
    for (std::size_t axis = 0; axis < d.size(); ++axis) {
      const auto& n = value[axis];
      if (!n.is_number_integer() || n.get<std::int64_t>() < 1 || n.get<std::int64_t>() > occcalc::max_request_value) {
        throw occcalc::table_error(fmt::format("{}: field '{}' holds {}, not a dimension", where(), key, n.dump()));
      }
      d[axis] = n.get<std::int64_t>();
    }
    return d;
  };
  build_kernel b;
  b.file = text_field(at<slot_of("file")>, true);
  auto& k = b.kernel.resources;
  k.name = text_field(at<slot_of("kernel")>, true);
  k.arch = occcalc::parse_gpu_target(text_field(at<slot_of("arch")>, true));
  b.kernel.demangled = text_field(at<slot_of("name")>, true);
  k.origin = text_field(at<slot_of("origin")>, false);
  k.registers = count(at<slot_of("registers")>);
  k.register_cap = count(at<slot_of("register_cap")>);
  k.min_blocks_per_sm = count(at<slot_of("min_blocks_per_sm")>);
  k.static_shared_memory_bytes = count(at<slot_of("static_smem_bytes")>);
  k.stack_frame_bytes = count(at<slot_of("stack_frame_bytes")>);
  k.stack_size_bytes = count(at<slot_of("stack_size_bytes")>);
  k.local_memory_bytes = count(at<slot_of("local_memory_bytes")>);
  k.spill_store_bytes = count(at<slot_of("spill_store_bytes")>);
  k.spill_load_bytes = count(at<slot_of("spill_load_bytes")>);
  k.barriers = count(at<slot_of("barriers")>);
  k.agprs = count(at<slot_of("agprs")>);
  k.sgprs = count(at<slot_of("sgprs")>);
  k.wave_size = count(at<slot_of("wave_size")>);
  k.vgpr_spills = count(at<slot_of("vgpr_spills")>);
  k.sgpr_spills = count(at<slot_of("sgpr_spills")>);
  k.compiler_waves_per_simd = count(at<slot_of("compiler_waves_per_simd")>);
  if (const json& wgp = record[at<slot_of("wgp_mode")>]; !wgp.is_null()) {
    if (!wgp.is_boolean()) throw occcalc::table_error(where() + ": field 'wgp_mode' is not true or false");
    k.wgp_mode = wgp.get<bool>();
  }
  k.max_threads = dims(at<slot_of("max_threads")>);
  k.required_threads = dims(at<slot_of("required_threads")>);
  k.cluster_dims = dims(at<slot_of("cluster_dims")>);
  // A Triton kernel's launch is its metadata's, not the command's.
  if (text_field(at<slot_of("block_size_from")>, false) == spelling(launch_source::triton)) {
    b.block_size = count(at<slot_of("block_size")>);
    b.block_size_from = launch_source::triton;
    b.dynamic_shared_memory_bytes = count(at<slot_of("dyn_smem_bytes")>);
    b.triton_config = text_field(at<slot_of("triton_config")>, false);
  }
  return b;
}

/// How much of the text read `kernels_from_inspect_json` hands back at a time.
constexpr std::size_t passed_window_bytes = std::size_t{16} << 20;

/// The text for RapidJSON's reader, read where it lies, each string it
/// decodes written to a buffer of this stream's: the reader's "in situ"
/// interface, with the output beside the text rather than over it. The
/// reader's own string stack is never used: RapidJSON 1.1.0 grows it from a
/// null pointer, which UBSan refuses (fixed upstream after 1.1.0).
class decoding_stream {
 public:
  using Ch = char;
  explicit decoding_stream(std::string_view text) noexcept
      : begin_(text.data()), at_(text.data()), end_(text.data() + text.size()) {}
  Ch Peek() const noexcept { return at_ == end_ ? '\0' : *at_; }
  Ch Take() noexcept { return at_ == end_ ? '\0' : *at_++; }
  std::size_t Tell() const noexcept { return static_cast<std::size_t>(at_ - begin_); }
  /// A string starts at the read position: room for all of it before a byte
  /// is written (it decodes to no more bytes than it spans, and a NUL).
  Ch* PutBegin() {
    const std::size_t room = string_span() + 1;
    if (decoded_.size() < room) decoded_.resize(room);
    put_ = decoded_.data();
    return put_;
  }
  void Put(Ch c) noexcept { *put_++ = c; }
  std::size_t PutEnd(const Ch* begin) const noexcept { return static_cast<std::size_t>(put_ - begin); }

 private:
  /// The bytes from the read position to the string's closing quote (one
  /// no odd run of backslashes escapes), or to the end of the text.
  std::size_t string_span() const noexcept {
    for (const char* from = at_; from != end_;) {
      const auto* quote = static_cast<const char*>(std::memchr(from, '"', static_cast<std::size_t>(end_ - from)));
      if (quote == nullptr) break;
      std::size_t backslashes = 0;
      while (quote - backslashes > at_ && quote[-1 - static_cast<std::ptrdiff_t>(backslashes)] == '\\') ++backslashes;
      if (backslashes % 2 == 0) return static_cast<std::size_t>(quote - at_);
      from = quote + 1;
    }
    return static_cast<std::size_t>(end_ - at_);
  }

  const char* begin_;
  const char* at_;
  const char* end_;
  std::vector<char> decoded_;
  char* put_ = nullptr;
};

/// RapidJSON's refusal of `text`, where it stopped: its line and column.
std::string parse_error_text(std::string_view text, const rapidjson::ParseResult& result) {
  const std::string_view before = text.substr(0, std::min(result.Offset(), text.size()));
  const auto line_start = before.rfind('\n');
  const auto column = line_start == std::string_view::npos ? before.size() + 1 : before.size() - line_start;
  std::string message = rapidjson::GetParseError_En(result.Code());
  if (!message.empty() && message.back() == '.') message.pop_back();
  if (!message.empty()) message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
  return fmt::format("parse error at line {}, column {}: {}", std::count(before.begin(), before.end(), '\n') + 1,
                     column, message);
}

/// `text` without the UTF-8 byte order mark an editor may save before JSON
/// (RFC 8259 lets a parser ignore it).
std::string_view without_byte_order_mark(std::string_view text) {
  constexpr std::string_view mark = "\xef\xbb\xbf";
  return text.substr(0, mark.size()) == mark ? text.substr(mark.size()) : text;
}

}  // namespace

bool looks_like_json(std::string_view text) {
  text = without_byte_order_mark(text);
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{';
}

kernel_store kernels_from_inspect_json(const std::string& origin, std::string_view text, const kernel_matcher& filter,
                                       const std::function<void(std::string_view)>& passed) {
  text = without_byte_order_mark(text);
  const auto fail = [&](const std::string& problem) { throw occcalc::table_error(origin + ": " + problem); };
  // The version is checked as soon as it is read (occcalc writes it first),
  // so a file of another version is refused as such, not by a field.
  const auto check_version = [&](const json& version) {
    if (!version.is_number_integer() || version.get<std::int64_t>() < oldest_inspect_schema ||
        version.get<std::int64_t>() > occcalc::inspect_schema_version) {
      fail(fmt::format("inspect schema_version {} is not one this occcalc reads ({} to {})", version.dump(),
                       oldest_inspect_schema, occcalc::inspect_schema_version));
    }
  };
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    fail(fmt::format("a NUL byte at offset {}; JSON text has none", nul));
  }
  if (text.size() > max_saved_inspect_bytes) {
    fail(fmt::format("{} bytes; a saved inspect --json is read up to {} bytes (4 GiB)", text.size(),
                     max_saved_inspect_bytes));
  }
  json root;
  kernel_store out;
  std::size_t index = 0;
  bool version_checked = false;
  decoding_stream stream(text);
  // The text the parser has gone past goes to `passed` a window at a time,
  // as each record ends.
  std::size_t window_start = 0;
  record_stream events(root, [&](record_fields& record) {
    if (!version_checked && root.is_object() && root.contains("schema_version")) {
      check_version(root["schema_version"]);
      version_checked = true;
    }
    build_kernel b = kernel_of(origin, index++, record);
    if (filter.matches(b.kernel)) out.push_back(b);
    if (passed && stream.Tell() - window_start >= passed_window_bytes) {
      passed(text.substr(window_start, stream.Tell() - window_start));
      window_start = stream.Tell();
    }
  });
  try {
    // UTF-8 is checked as nlohmann checks it for the tables; nesting stops
    // at `max_json_depth` in the handler, so the recursion stays shallow.
    // "In situ": each string goes to the stream's buffer (decoding_stream).
    rapidjson::Reader reader;
    if (const auto result =
            reader.Parse<rapidjson::kParseInsituFlag | rapidjson::kParseValidateEncodingFlag>(stream, events);
        result.IsError()) {
      fail(parse_error_text(text, result));
    }
  } catch (const occcalc::table_error&) {
    throw;
  } catch (const occcalc::error& e) {
    fail(e.what());
  }
  if (!root.is_object() || !root.contains("kernels") || !root.contains("schema_version")) {
    fail("not a saved 'occcalc inspect --json' (no schema_version and kernels)");
  }
  check_version(root["schema_version"]);
  if (!root["kernels"].is_array()) fail("kernels is not an array");
  if (!root["kernels"].empty()) fail("kernels holds " + root["kernels"][0].dump(-1).substr(0, 40) + ", not a record");
  // The inputs it was given (schema 5): what makes its files' paths
  // comparable with another build's. Older files compare by the path as
  // recorded, then by name and architecture.
  std::vector<std::string> inputs;
  if (const auto it = root.find("inputs"); it != root.end()) {
    if (!it->is_array()) fail("inputs is not an array");
    for (const auto& input : *it) {
      if (!input.is_string()) fail("inputs holds " + input.dump() + ", not a path");
      inputs.push_back(input.get<std::string>());
    }
  }
  out.set_inputs(std::move(inputs));
  return out;
}

}  // namespace occcalc::cli
