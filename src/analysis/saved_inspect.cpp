#include "analysis/saved_inspect.hpp"

#include <algorithm>
#include <cassert>
#include <functional>
#include <iterator>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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

/// The members of a record `kernel_of` reads, sorted: the others (the
/// occupancy, worked out again from these) are read as JSON, refused where
/// malformed, and dropped without being built.
constexpr std::string_view saved_record_fields[] = {"agprs",
                                                    "arch",
                                                    "barriers",
                                                    "block_size",
                                                    "block_size_from",
                                                    "cluster_dims",
                                                    "compiler_waves_per_simd",
                                                    "dyn_smem_bytes",
                                                    "file",
                                                    "kernel",
                                                    "local_memory_bytes",
                                                    "max_threads",
                                                    "min_blocks_per_sm",
                                                    "name",
                                                    "origin",
                                                    "register_cap",
                                                    "registers",
                                                    "required_threads",
                                                    "sgpr_spills",
                                                    "sgprs",
                                                    "spill_load_bytes",
                                                    "spill_store_bytes",
                                                    "stack_frame_bytes",
                                                    "stack_size_bytes",
                                                    "static_smem_bytes",
                                                    "triton_config",
                                                    "vgpr_spills",
                                                    "wave_size",
                                                    "wgp_mode"};

constexpr bool saved_record_fields_sorted() {
  for (std::size_t i = 1; i < std::size(saved_record_fields); ++i) {
    if (!(saved_record_fields[i - 1] < saved_record_fields[i])) return false;
  }
  return true;
}
static_assert(saved_record_fields_sorted(), "saved_record_fields is searched by halves");

bool is_saved_record_field(std::string_view key) {
  return std::binary_search(std::begin(saved_record_fields), std::end(saved_record_fields), key);
}

/// One record of a saved inspect, as a build's kernel: every raw figure it
/// holds. Throws `table_error` naming the record.
build_kernel kernel_of(const std::string& origin, std::size_t index, const json& record) {
  const std::string where = fmt::format("{}: kernels[{}]", origin, index);
  const auto text_field = [&](const char* key, bool required) {
    assert(is_saved_record_field(key));
    const auto it = record.find(key);
    if (it == record.end() || it->is_null()) {
      if (!required) return std::string();
      throw occcalc::table_error(fmt::format("{}: field '{}' is missing", where, key));
    }
    if (!it->is_string()) throw occcalc::table_error(fmt::format("{}: field '{}' is not a string", where, key));
    const auto& text = it->get_ref<const std::string&>();
    if (text.size() > max_saved_text_bytes) {
      throw occcalc::table_error(
          fmt::format("{}: field '{}' holds {} bytes; a saved record's text is at most {} (1 MiB)", where, key,
                      text.size(), max_saved_text_bytes));
    }
    return text;
  };
  const auto count = [&](const char* key) -> std::optional<std::int64_t> {
    assert(is_saved_record_field(key));
    const auto it = record.find(key);
    if (it == record.end() || it->is_null()) return std::nullopt;
    if (!it->is_number_integer() || it->get<std::int64_t>() < 0) {
      throw occcalc::table_error(fmt::format("{}: field '{}' is not a count", where, key));
    }
    return it->get<std::int64_t>();
  };
  const auto dims = [&](const char* key) -> std::optional<inspect::dim3> {
    assert(is_saved_record_field(key));
    const auto it = record.find(key);
    if (it == record.end() || it->is_null()) return std::nullopt;
    inspect::dim3 d{};
    if (!it->is_array() || it->size() != d.size()) {
      throw occcalc::table_error(fmt::format("{}: field '{}' is not three dimensions", where, key));
    }
    for (std::size_t axis = 0; axis < d.size(); ++axis) {
      const auto& n = (*it)[axis];
      if (!n.is_number_integer() || n.get<std::int64_t>() < 1 || n.get<std::int64_t>() > occcalc::max_request_value) {
        throw occcalc::table_error(fmt::format("{}: field '{}' holds {}, not a dimension", where, key, n.dump()));
      }
      d[axis] = n.get<std::int64_t>();
    }
    return d;
  };
  build_kernel b;
  b.file = text_field("file", true);
  auto& k = b.kernel.resources;
  k.name = text_field("kernel", true);
  k.arch = occcalc::parse_gpu_target(text_field("arch", true));
  b.kernel.demangled = text_field("name", true);
  k.origin = text_field("origin", false);
  k.registers = count("registers");
  k.register_cap = count("register_cap");
  k.min_blocks_per_sm = count("min_blocks_per_sm");
  k.static_shared_memory_bytes = count("static_smem_bytes");
  k.stack_frame_bytes = count("stack_frame_bytes");
  k.stack_size_bytes = count("stack_size_bytes");
  k.local_memory_bytes = count("local_memory_bytes");
  k.spill_store_bytes = count("spill_store_bytes");
  k.spill_load_bytes = count("spill_load_bytes");
  k.barriers = count("barriers");
  k.agprs = count("agprs");
  k.sgprs = count("sgprs");
  k.wave_size = count("wave_size");
  k.vgpr_spills = count("vgpr_spills");
  k.sgpr_spills = count("sgpr_spills");
  k.compiler_waves_per_simd = count("compiler_waves_per_simd");
  if (const auto it = record.find("wgp_mode"); it != record.end() && !it->is_null()) {
    if (!it->is_boolean()) throw occcalc::table_error(where + ": field 'wgp_mode' is not true or false");
    k.wgp_mode = it->get<bool>();
  }
  k.max_threads = dims("max_threads");
  k.required_threads = dims("required_threads");
  k.cluster_dims = dims("cluster_dims");
  // A Triton kernel's launch is its metadata's, not the command's.
  if (text_field("block_size_from", false) == triton_block_size) {
    b.own_threads = count("block_size");
    b.own_dyn_smem_bytes = count("dyn_smem_bytes");
    b.triton_config = text_field("triton_config", false);
  }
  return b;
}

/// SAX events of a saved inspect, each record of `kernels` built alone and
/// handed over as it ends: a library's records are never one
/// document. A record holds only the members `kernel_of` reads; the others
/// are skipped, as strictly as they would be built. The rest (the version,
/// the inputs) builds `root`, whose `kernels` stays empty unless it holds
/// what is not a record. Strict as tables are (`strict_json_builder`).
class record_stream {
 public:
  using record_fn = std::function<void(json&&)>;
  record_stream(json& root, record_fn on_record) : root_(root), on_record_(std::move(on_record)) {}

  bool null() { return skipping() ? skipped() : target().null(); }
  bool boolean(bool v) { return skipping() ? skipped() : target().boolean(v); }
  bool number_integer(json::number_integer_t v) { return skipping() ? skipped() : target().number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return skipping() ? skipped() : target().number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) {
    return skipping() ? skipped() : target().number_float(v, s);
  }
  bool string(json::string_t& v) { return skipping() ? skipped() : target().string(v); }
  bool binary(json::binary_t& v) { return skipping() ? skipped() : target().binary(v); }
  bool key(json::string_t& name) {
    if (skip_level_ > 0) return skipped_key(name);
    if (depth_ == 1) in_kernels_key_ = name == "kernels";
    // The record still takes the key, so that a second one is refused.
    if (record_builder_ && depth_ == record_depth) skip_value_ = !is_saved_record_field(name);
    return target().key(name);
  }
  bool start_object(std::size_t n) {
    if (skipping()) return skip_open();
    if (!record_builder_ && depth_ == 2 && in_kernels_) {
      record_ = json();
      record_builder_.emplace(record_);
    }
    ++depth_;
    return target().start_object(n);
  }
  bool end_object() {
    if (skip_level_ > 0) return skip_close();
    const bool ok = target().end_object();
    if (--depth_ == 2 && record_builder_) {
      record_builder_.reset();
      on_record_(std::move(record_));
    }
    return ok;
  }
  bool start_array(std::size_t n) {
    if (skipping()) return skip_open();
    if (++depth_ == 2) in_kernels_ = in_kernels_key_;
    return target().start_array(n);
  }
  bool end_array() {
    if (skip_level_ > 0) return skip_close();
    const bool ok = target().end_array();
    if (--depth_ == 1) in_kernels_ = false;
    return ok;
  }
  bool parse_error(std::size_t at, const std::string& token, const nlohmann::detail::exception& e) {
    return root_.parse_error(at, token, e);
  }

 private:
  /// The depth inside a record: the document, `kernels`, the record.
  static constexpr int record_depth = 3;

  occcalc::detail::strict_json_builder& target() { return record_builder_ ? *record_builder_ : root_; }

  /// Whether the value now read is a skipped member's or inside one.
  bool skipping() const noexcept { return skip_value_ || skip_level_ > 0; }
  /// A scalar of a skipped member: read and dropped.
  bool skipped() noexcept {
    skip_value_ = false;
    return true;
  }
  /// An array or object of a skipped member opens: the depth the record's
  /// builder allows, and a level of keys that refuses a repeated one.
  bool skip_open() {
    if (depth_ - (record_depth - 1) >= occcalc::max_json_depth) {
      throw occcalc::detail::too_deep_json();
    }
    skip_value_ = false;
    ++depth_;
    if (skip_keys_.size() == skip_level_) skip_keys_.emplace_back();
    skip_keys_[skip_level_++].clear();
    return true;
  }
  bool skip_close() noexcept {
    --skip_level_;
    --depth_;
    return true;
  }
  bool skipped_key(const std::string& name) {
    auto& seen = skip_keys_[skip_level_ - 1];
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      throw occcalc::detail::duplicate_json_key(name);
    }
    seen.push_back(name);
    return true;
  }

  occcalc::detail::strict_json_builder root_;
  record_fn on_record_;
  json record_;
  std::optional<occcalc::detail::strict_json_builder> record_builder_;
  int depth_ = 0;
  bool in_kernels_key_ = false;
  bool in_kernels_ = false;
  /// The next value is a record member `kernel_of` does not read.
  bool skip_value_ = false;
  /// The keys of each object open inside a skipped member (empty for an
  /// array), reused from record to record.
  std::vector<std::vector<std::string>> skip_keys_;
  std::size_t skip_level_ = 0;
};

}  // namespace

namespace {

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

kernel_store kernels_from_inspect_json(const std::string& origin, std::string_view text, const kernel_matcher& filter) {
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
  record_stream events(root, [&](json&& record) {
    if (!version_checked && root.is_object() && root.contains("schema_version")) {
      check_version(root["schema_version"]);
      version_checked = true;
    }
    build_kernel b = kernel_of(origin, index++, record);
    if (filter.matches(b.kernel)) out.push_back(b);
  });
  try {
    json::sax_parse(text.begin(), text.end(), &events);
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
