#include "builds/saved_inspect.hpp"

#include <algorithm>
#include <array>
#include <bitset>
#include <functional>
#include <iterator>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "builds/passing_chars.hpp"
#include "builds/saved_record_fields.hpp"
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

/// The members of a record `kernel_of` reads, each in its slot of
/// `saved_record_fields`: null where the record has none.
using record_fields = std::array<json, std::size(saved_record_fields)>;

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
    b.own_threads = count(at<slot_of("block_size")>);
    b.own_dyn_smem_bytes = count(at<slot_of("dyn_smem_bytes")>);
    b.triton_config = text_field(at<slot_of("triton_config")>, false);
  }
  return b;
}

/// SAX events of a saved inspect, each record of `kernels` read as it
/// comes: a library's records are never one document, and a record is never
/// a tree. A member `kernel_of` reads goes to its slot (a container, such as
/// a dimension, built there); the others (the occupancy, worked out again)
/// are skipped, as strictly as they would be built. The rest (the version,
/// the inputs) builds `root`, whose `kernels` stays empty unless it holds
/// what is not a record. Strict as tables are (`strict_json_builder`): a
/// repeated key, nesting past `max_json_depth` and what JSON is not are
/// refused, inside a record too.
class record_stream {
 public:
  using record_fn = std::function<void(record_fields&)>;
  record_stream(json& root, record_fn on_record) : root_(root), on_record_(std::move(on_record)) {}

  bool null() {
    return scalar(nullptr, [](auto& to) { return to.null(); });
  }
  bool boolean(bool v) {
    return scalar(v, [&](auto& to) { return to.boolean(v); });
  }
  bool number_integer(json::number_integer_t v) {
    return scalar(v, [&](auto& to) { return to.number_integer(v); });
  }
  bool number_unsigned(json::number_unsigned_t v) {
    return scalar(v, [&](auto& to) { return to.number_unsigned(v); });
  }
  bool number_float(json::number_float_t v, const json::string_t& s) {
    return scalar(v, [&](auto& to) { return to.number_float(v, s); });
  }
  bool string(json::string_t& v) {
    return scalar(std::move(v), [&](auto& to) { return to.string(v); });
  }
  bool binary(json::binary_t& v) {
    return scalar(json::binary(v), [&](auto& to) { return to.binary(v); });
  }
  bool key(json::string_t& name) {
    if (skip_level_ > 0) return skipped_key(name);
    if (value_builder_) return value_builder_->key(name);
    if (in_record_) return record_key(name);
    if (depth_ == 1) in_kernels_key_ = name == "kernels";
    return root_.key(name);
  }
  bool start_object(std::size_t n) {
    if (skipping()) return skip_open();
    if (in_record_ && !value_builder_) value_builder_.emplace(fields_[slot_]);
    if (value_builder_) {
      check_depth();
      ++depth_;
      return value_builder_->start_object(n);
    }
    if (depth_ == 2 && in_kernels_) {
      // A record opens.
      for (auto& f : fields_) f = nullptr;
      present_.reset();
      other_keys_.clear();
      in_record_ = true;
      ++depth_;
      return true;
    }
    ++depth_;
    return root_.start_object(n);
  }
  bool end_object() {
    if (skip_level_ > 0) return skip_close();
    if (value_builder_) return end_value([&] { return value_builder_->end_object(); });
    if (in_record_) {
      in_record_ = false;
      --depth_;
      on_record_(fields_);
      return true;
    }
    const bool ok = root_.end_object();
    --depth_;
    return ok;
  }
  bool start_array(std::size_t n) {
    if (skipping()) return skip_open();
    if (in_record_ && !value_builder_) value_builder_.emplace(fields_[slot_]);
    if (value_builder_) {
      check_depth();
      ++depth_;
      return value_builder_->start_array(n);
    }
    if (++depth_ == 2) in_kernels_ = in_kernels_key_;
    return root_.start_array(n);
  }
  bool end_array() {
    if (skip_level_ > 0) return skip_close();
    if (value_builder_) return end_value([&] { return value_builder_->end_array(); });
    const bool ok = root_.end_array();
    if (--depth_ == 1) in_kernels_ = false;
    return ok;
  }
  bool parse_error(std::size_t at, const std::string& token, const nlohmann::detail::exception& e) {
    return root_.parse_error(at, token, e);
  }

 private:
  /// The depth inside a record: the document, `kernels`, the record.
  static constexpr int record_depth = 3;

  /// A value that is not a container: dropped when skipped, to its slot as
  /// a record's member, else to the builder it belongs to.
  template <typename Value, typename Forward>
  bool scalar(Value&& value, Forward&& forward) {
    if (skipping()) return skipped();
    if (value_builder_) return forward(*value_builder_);
    if (in_record_) {
      fields_[slot_] = json(std::forward<Value>(value));
      return true;
    }
    return forward(root_);
  }
  /// A record's key: a member `kernel_of` reads takes its slot; another is
  /// skipped. Either, given twice, is refused.
  bool record_key(const std::string& name) {
    if (const auto slot = saved_field_slot(name)) {
      if (present_[*slot]) throw occcalc::detail::duplicate_json_key(name);
      present_.set(*slot);
      slot_ = *slot;
      return true;
    }
    if (std::find(other_keys_.begin(), other_keys_.end(), name) != other_keys_.end()) {
      throw occcalc::detail::duplicate_json_key(name);
    }
    other_keys_.push_back(name);
    skip_value_ = true;
    return true;
  }
  /// A member's value that is a container closes a level.
  template <typename Close>
  bool end_value(Close&& close) {
    const bool ok = close();
    if (--depth_ == record_depth) value_builder_.reset();
    return ok;
  }
  /// Nesting within a record counts from the record, as a table's from its
  /// document.
  void check_depth() const {
    if (depth_ - (record_depth - 1) >= occcalc::max_json_depth) throw occcalc::detail::too_deep_json();
  }

  /// Whether the value now read is a skipped member's or inside one.
  bool skipping() const noexcept { return skip_value_ || skip_level_ > 0; }
  /// A scalar of a skipped member: read and dropped.
  bool skipped() noexcept {
    skip_value_ = false;
    return true;
  }
  /// An array or object of a skipped member opens: the depth a record
  /// allows, and a level of keys that refuses a repeated one.
  bool skip_open() {
    check_depth();
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
  /// The open record's members, which of them it has given, and the keys
  /// of the members skipped.
  record_fields fields_;
  std::bitset<std::size(saved_record_fields)> present_;
  std::vector<std::string> other_keys_;
  bool in_record_ = false;
  /// The slot of the member whose value comes next.
  std::size_t slot_ = 0;
  /// Builds a member's value that is a container, in its slot.
  std::optional<occcalc::detail::strict_json_builder> value_builder_;
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
  record_stream events(root, [&](record_fields& record) {
    if (!version_checked && root.is_object() && root.contains("schema_version")) {
      check_version(root["schema_version"]);
      version_checked = true;
    }
    build_kernel b = kernel_of(origin, index++, record);
    if (filter.matches(b.kernel)) out.push_back(b);
  });
  try {
    json::sax_parse(passing_chars(text.data(), &passed), passing_chars(text.data() + text.size(), nullptr), &events);
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
