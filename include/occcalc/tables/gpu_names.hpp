/// \file tables/gpu_names.hpp
/// How a typed GPU name is compared with the table's names: case, spaces,
/// punctuation and the brand words people leave out are ignored; every other
/// word counts, so "RTX 4060" never reaches the "RTX 4060 Ti".
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "occcalc/common/text.hpp"

namespace occcalc {

/// Words that name a vendor or a product line rather than a product: users
/// drop them ("RTX 4090" for "GeForce RTX 4090", "MI300X" for "Instinct
/// MI300X"). A word that tells products apart (Ti, SUPER, Ada, XT, a memory
/// size, Quadro) is never in this list.
inline constexpr std::array<std::string_view, 6> optional_brand_words = {"nvidia", "geforce", "tesla",
                                                                         "amd",    "radeon",  "instinct"};

/// The words of a GPU name as it is compared: lower case, brand words
/// dropped ("Tesla V100-PCIE-16GB" -> v100, pcie, 16gb).
inline std::vector<std::string> gpu_name_words(std::string_view name) {
  std::vector<std::string> words;
  std::string word;
  const auto end_word = [&] {
    bool brand = word.empty();
    for (const auto b : optional_brand_words) brand = brand || word == b;
    if (!brand) words.push_back(word);
    word.clear();
  };
  for (const char c : name) {
    if (detail::ascii_alnum(c)) {
      word += detail::ascii_lower(c);
    } else {
      end_word();
    }
  }
  end_word();
  return words;
}

/// The key a GPU name is compared by: its lower-case letters and digits, with
/// the brand words dropped ("NVIDIA GeForce RTX 4060 Ti" -> "rtx4060ti"); of
/// its words (`gpu_name_words`) run together.
inline std::string gpu_name_key(const std::vector<std::string>& words) {
  std::string key;
  for (const auto& word : words) key += word;
  return key;
}
inline std::string gpu_name_key(std::string_view name) { return gpu_name_key(gpu_name_words(name)); }

namespace detail {

/// Whether `word`, in any case, is `lowered`.
inline bool same_word(std::string_view word, std::string_view lowered) noexcept {
  return word.size() == lowered.size() &&
         std::equal(word.begin(), word.end(), lowered.begin(), [](char x, char y) { return ascii_lower(x) == y; });
}

/// Calls `visit(word)` for each word of `name` that `gpu_name_words` keeps,
/// as written (any case), read in place; stops where `visit` returns false,
/// and returns whether it went to the end. A lookup compares every GPU's
/// names: this builds no string.
template <typename Visit>
bool for_each_name_word(std::string_view name, Visit&& visit) {
  std::size_t i = 0;
  while (i < name.size()) {
    if (!ascii_alnum(name[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < name.size() && ascii_alnum(name[end])) ++end;
    const std::string_view word = name.substr(i, end - i);
    bool brand = false;
    for (const auto b : optional_brand_words) brand = brand || same_word(word, b);
    if (!brand && !visit(word)) return false;
    i = end;
  }
  return true;
}

}  // namespace detail

/// Whether `name`'s key (`gpu_name_key`) is `key`, compared as the name is
/// read, without building the key: a lookup compares every GPU's names.
inline bool gpu_name_key_is(std::string_view name, std::string_view key) {
  std::size_t at = 0;  // into key
  const bool whole = detail::for_each_name_word(name, [&](std::string_view word) {
    if (key.size() - at < word.size()) return false;
    for (const char c : word) {
      if (detail::ascii_lower(c) != key[at++]) return false;
    }
    return true;
  });
  return whole && at == key.size();
}

/// Words that tell variants of one product apart, not products: the form
/// factor (`PCIe`, `SXM4`, `NVL`). With a memory size (`80GB`), they are
/// what a family name leaves out: "H100" covers "H100 PCIe", "H100 SXM5
/// 80GB" and "H100 NVL"; "RTX 4060" never covers "RTX 4060 Ti".
inline constexpr std::array<std::string_view, 8> form_factor_words = {"pcie", "sxm",  "sxm2", "sxm3",
                                                                      "sxm4", "sxm5", "nvl",  "mxm"};

/// Whether `word` (lower case) names a variant of a product: a form factor
/// or a memory size (`16gb`).
inline bool is_variant_word(std::string_view word) {
  for (const auto f : form_factor_words) {
    if (word == f) return true;
  }
  constexpr std::string_view gigabytes = "gb";
  if (word.size() <= gigabytes.size() || word.substr(word.size() - gigabytes.size()) != gigabytes) return false;
  for (std::size_t i = 0; i + gigabytes.size() < word.size(); ++i) {
    if (word[i] < '0' || word[i] > '9') return false;
  }
  return true;
}

/// Whether the GPU name `name` is a variant of the family whose words are
/// `family` (`gpu_name_words`): the family's words, then variant words
/// only (`is_variant_word`), at least one. Read in place: a family lookup
/// tries every GPU's names, and this builds no string.
inline bool is_family_variant_name(const std::vector<std::string>& family, std::string_view name) {
  if (family.empty()) return false;
  std::size_t index = 0;  // words of `name` read
  const bool whole = detail::for_each_name_word(name, [&](std::string_view word) {
    if (index < family.size()) return detail::same_word(word, family[index++]);
    ++index;
    // A variant word, in any case: a form factor, or digits then GB.
    for (const auto f : form_factor_words) {
      if (detail::same_word(word, f)) return true;
    }
    return word.size() > 2 && detail::same_word(word.substr(word.size() - 2), "gb") &&
           std::all_of(word.begin(), word.end() - 2, [](char c) { return c >= '0' && c <= '9'; });
  });
  return whole && index > family.size();
}

}  // namespace occcalc
