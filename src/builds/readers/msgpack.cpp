#include "builds/readers/msgpack.hpp"

#include <cstring>

#include "builds/readers/budgets.hpp"

namespace occcalc::inspect::msgpack {

namespace {

/// Deeper nesting than any metadata note needs; a bound against stack
/// exhaustion on hostile input.
constexpr int max_depth = 64;

class reader {
 public:
  explicit reader(byte_view bytes) : bytes_(bytes) {}

  value read(int depth) {
    if (depth > max_depth) throw format_error("MessagePack nested deeper than 64 levels");
    if (++values_ > max_metadata_values) {
      throw format_error(
          fmt::format("MessagePack metadata of more than {} values; a real note holds about 40 per "
                      "kernel",
                      max_metadata_values));
    }
    const std::uint8_t tag = byte();
    value v;
    if (tag <= 0x7f) return integer(tag);
    if (tag >= 0xe0) return integer(static_cast<std::int8_t>(tag));
    if (tag >= 0x80 && tag <= 0x8f) return map(tag & 0x0f, depth);
    if (tag >= 0x90 && tag <= 0x9f) return array(tag & 0x0f, depth);
    if (tag >= 0xa0 && tag <= 0xbf) return bytes(value::kind::string, tag & 0x1f);
    switch (tag) {
      case 0xc0: return v;
      case 0xc2:
      case 0xc3:
        v.type = value::kind::boolean;
        v.boolean = tag == 0xc3;
        return v;
      case 0xc4: return bytes(value::kind::binary, big<std::uint8_t>());
      case 0xc5: return bytes(value::kind::binary, big<std::uint16_t>());
      case 0xc6: return bytes(value::kind::binary, big<std::uint32_t>());
      case 0xc7: return extension(big<std::uint8_t>());
      case 0xc8: return extension(big<std::uint16_t>());
      case 0xc9: return extension(big<std::uint32_t>());
      case 0xca: {
        const std::uint32_t bits = big<std::uint32_t>();
        float f = 0;
        std::memcpy(&f, &bits, sizeof f);
        v.type = value::kind::floating;
        v.floating = f;
        return v;
      }
      case 0xcb: {
        const std::uint64_t bits = big<std::uint64_t>();
        v.type = value::kind::floating;
        std::memcpy(&v.floating, &bits, sizeof v.floating);
        return v;
      }
      case 0xcc: return integer(big<std::uint8_t>());
      case 0xcd: return integer(big<std::uint16_t>());
      case 0xce: return integer(big<std::uint32_t>());
      case 0xcf: {
        const std::uint64_t u = big<std::uint64_t>();
        v = integer(static_cast<std::int64_t>(u & 0x7fffffffffffffffULL));
        v.integer_fits = u <= 0x7fffffffffffffffULL;
        return v;
      }
      case 0xd0: return integer(static_cast<std::int8_t>(big<std::uint8_t>()));
      case 0xd1: return integer(static_cast<std::int16_t>(big<std::uint16_t>()));
      case 0xd2: return integer(static_cast<std::int32_t>(big<std::uint32_t>()));
      case 0xd3: return integer(static_cast<std::int64_t>(big<std::uint64_t>()));
      case 0xd4: return extension(1);
      case 0xd5: return extension(2);
      case 0xd6: return extension(4);
      case 0xd7: return extension(8);
      case 0xd8: return extension(16);
      case 0xd9: return bytes(value::kind::string, big<std::uint8_t>());
      case 0xda: return bytes(value::kind::string, big<std::uint16_t>());
      case 0xdb: return bytes(value::kind::string, big<std::uint32_t>());
      case 0xdc: return array(big<std::uint16_t>(), depth);
      case 0xdd: return array(big<std::uint32_t>(), depth);
      case 0xde: return map(big<std::uint16_t>(), depth);
      case 0xdf: return map(big<std::uint32_t>(), depth);
      default: break;
    }
    throw format_error(fmt::format("MessagePack: byte {:#04x} at offset {:#x} is not a type tag", tag, at_ - 1));
  }

  bool done() const noexcept { return at_ == bytes_.size(); }

 private:
  std::uint8_t byte() { return bytes_.read<std::uint8_t>(at_++, "a MessagePack value"); }

  template <typename T>
  T big() {
    T out = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) out = static_cast<T>((out << 8) | byte());
    return out;
  }

  static value integer(std::int64_t n) {
    value v;
    v.type = value::kind::integer;
    v.integer = n;
    return v;
  }

  value bytes(value::kind type, std::uint64_t length) {
    value v;
    v.type = type;
    v.text = bytes_.sub(at_, length, "a MessagePack string").as_text();
    at_ += length;
    return v;
  }

  value extension(std::uint64_t length) {
    byte();  // the extension type
    value v = bytes(value::kind::binary, length);
    v.type = value::kind::extension;
    return v;
  }

  /// Each element takes at least one byte: a count beyond the bytes left is
  /// corrupt, and checking it first keeps a hostile count from allocating.
  void require_room(std::uint64_t elements, std::string_view what) const {
    if (elements > bytes_.size() - at_) {
      throw format_error(
          fmt::format("truncated or corrupt: a MessagePack {} of {} elements at offset {:#x} cannot fit "
                      "in the {} bytes left",
                      what, elements, at_, bytes_.size() - at_));
    }
  }

  value array(std::uint64_t count, int depth) {
    require_room(count, "array");
    value v;
    v.type = value::kind::array;
    v.items.reserve(count);
    for (std::uint64_t i = 0; i < count; ++i) v.items.push_back(read(depth + 1));
    return v;
  }

  value map(std::uint64_t count, int depth) {
    require_room(count * 2, "map");
    value v;
    v.type = value::kind::map;
    v.entries.reserve(count);
    for (std::uint64_t i = 0; i < count; ++i) {
      value key = read(depth + 1);
      value item = read(depth + 1);
      v.entries.emplace_back(std::move(key), std::move(item));
    }
    return v;
  }

  byte_view bytes_;
  std::uint64_t at_ = 0;
  /// Values read so far, against `max_metadata_values`.
  std::uint64_t values_ = 0;
};

}  // namespace

const value* value::find(std::string_view key) const noexcept {
  for (const auto& [k, v] : entries) {
    if (k.type == kind::string && k.text == key) return &v;
  }
  return nullptr;
}

std::optional<std::int64_t> value::as_integer() const noexcept {
  if (type != kind::integer || !integer_fits) return std::nullopt;
  return integer;
}

std::optional<std::string_view> value::as_string() const noexcept {
  if (type != kind::string) return std::nullopt;
  return text;
}

value parse(byte_view bytes) {
  reader r(bytes);
  value v = r.read(0);
  if (!r.done()) throw format_error("MessagePack: bytes after the value");
  return v;
}

}  // namespace occcalc::inspect::msgpack
