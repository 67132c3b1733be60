// The events of a saved `occcalc inspect --json` as RapidJSON reads them,
// each record's members to their slots: saved_inspect.cpp's parser, apart.
#pragma once

#include <algorithm>
#include <array>
#include <bitset>
#include <cstdint>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/reader.h>
#include <nlohmann/json.hpp>

#include "builds/saved_record_fields.hpp"
#include "occcalc/tables/json_input.hpp"

namespace occcalc::cli {

/// The members of a record `kernel_of` reads, each in its slot of
/// `saved_record_fields`: null where the record has none.
using record_fields = std::array<nlohmann::json, std::size(saved_record_fields)>;

/// RapidJSON's SAX events of a saved inspect, each record of `kernels` read
/// as it comes: a library's records are never one document, and a record is
/// never a tree. A member `kernel_of` reads goes to its slot (a container,
/// such as a dimension, built there); the others (the occupancy, worked out
/// again) are skipped, as strictly as they would be built. The rest (the
/// version, the inputs) builds `root`, whose `kernels` stays empty unless it
/// holds what is not a record. Strict as tables are (`strict_json_builder`):
/// a repeated key, nesting past `max_json_depth` and what JSON is not are
/// refused, inside a record too.
class record_stream {
 public:
  using json = nlohmann::json;
  using record_fn = std::function<void(record_fields&)>;
  record_stream(json& root, record_fn on_record) : root_(root), on_record_(std::move(on_record)) {}

  bool Null() {
    return scalar(nullptr, [](auto& to) { return to.null(); });
  }
  bool Bool(bool v) {
    return scalar(v, [&](auto& to) { return to.boolean(v); });
  }
  bool Int(int v) { return Int64(v); }
  bool Uint(unsigned v) { return Uint64(v); }
  bool Int64(std::int64_t v) {
    return scalar(v, [&](auto& to) { return to.number_integer(v); });
  }
  bool Uint64(std::uint64_t v) {
    return scalar(v, [&](auto& to) { return to.number_unsigned(v); });
  }
  bool Double(double v) {
    return scalar(v, [&](auto& to) { return to.number_float(v, {}); });
  }
  /// Numbers as text are not asked for (`kParseNumbersAsStringsFlag`).
  bool RawNumber(const char*, rapidjson::SizeType, bool) { return false; }
  bool String(const char* chars, rapidjson::SizeType size, bool) {
    if (skipping()) return skipped();
    std::string v(chars, size);
    return scalar(std::move(v), [&](auto& to) { return to.string(v); });
  }
  bool Key(const char* chars, rapidjson::SizeType size, bool) {
    const std::string_view name(chars, size);
    if (skip_level_ > 0) return skipped_key(name);
    if (in_record_ && !value_builder_) return record_key(name);
    std::string owned(name);
    if (value_builder_) return value_builder_->key(owned);
    if (depth_ == 1) in_kernels_key_ = name == "kernels";
    return root_.key(owned);
  }
  bool StartObject() {
    if (skipping()) return skip_open();
    if (in_record_ && !value_builder_) value_builder_.emplace(fields_[slot_]);
    if (value_builder_) {
      check_depth();
      ++depth_;
      return value_builder_->start_object(0);
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
    return root_.start_object(0);
  }
  bool EndObject(rapidjson::SizeType) {
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
  bool StartArray() {
    if (skipping()) return skip_open();
    if (in_record_ && !value_builder_) value_builder_.emplace(fields_[slot_]);
    if (value_builder_) {
      check_depth();
      ++depth_;
      return value_builder_->start_array(0);
    }
    if (++depth_ == 2) in_kernels_ = in_kernels_key_;
    return root_.start_array(0);
  }
  bool EndArray(rapidjson::SizeType) {
    if (skip_level_ > 0) return skip_close();
    if (value_builder_) return end_value([&] { return value_builder_->end_array(); });
    const bool ok = root_.end_array();
    if (--depth_ == 1) in_kernels_ = false;
    return ok;
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
  bool record_key(std::string_view name) {
    if (const auto slot = saved_field_slot(name)) {
      if (present_[*slot]) throw occcalc::detail::duplicate_json_key(std::string(name));
      present_.set(*slot);
      slot_ = *slot;
      return true;
    }
    if (std::find(other_keys_.begin(), other_keys_.end(), name) != other_keys_.end()) {
      throw occcalc::detail::duplicate_json_key(std::string(name));
    }
    other_keys_.emplace_back(name);
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
  bool skipped_key(std::string_view name) {
    auto& seen = skip_keys_[skip_level_ - 1];
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      throw occcalc::detail::duplicate_json_key(std::string(name));
    }
    seen.emplace_back(name);
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

}  // namespace occcalc::cli
