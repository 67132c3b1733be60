/// \file tables/gpu_names.hpp
/// How a typed GPU name is compared with the table's names: case, spaces,
/// punctuation and the brand words people leave out are ignored; every other
/// word counts, so "RTX 4060" never reaches the "RTX 4060 Ti".
#pragma once

#include <array>
#include <cctype>
#include <string>
#include <string_view>

namespace occcalc {

/// Words that name a vendor or a product line rather than a product: users
/// drop them ("RTX 4090" for "GeForce RTX 4090", "MI300X" for "Instinct
/// MI300X"). A word that tells products apart (Ti, SUPER, Ada, XT, a memory
/// size, Quadro) is never in this list.
inline constexpr std::array<std::string_view, 6> optional_brand_words = {"nvidia", "geforce", "tesla",
                                                                         "amd",    "radeon",  "instinct"};

/// The key a GPU name is compared by: its lower-case letters and digits, with
/// the brand words dropped ("NVIDIA GeForce RTX 4060 Ti" -> "rtx4060ti").
inline std::string gpu_name_key(std::string_view name) {
  std::string key;
  std::string word;
  const auto end_word = [&] {
    bool brand = false;
    for (const auto b : optional_brand_words) brand = brand || word == b;
    if (!brand) key += word;
    word.clear();
  };
  for (const char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      end_word();
    }
  }
  end_word();
  return key;
}

}  // namespace occcalc
