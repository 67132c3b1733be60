// The compiled tables (src/tablegen) equal what the table loader makes of
// data/*.json, member by member: C++20's defaulted equality compares every
// field, so a field the generator does not write fails here.
//
// The header-only core's built-in architectures
// (occcalc/nvidia/builtin_architectures.hpp) are held to the same loader.
//
// Usage: occcalc_compiled_tables_test --nvidia FILE... --amd FILE...
// Built as its own C++20 program (the library is C++17), with the generated
// source compiled into it.
#include <cstddef>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "cli/compiled_tables.hpp"
#include "occcalc/nvidia/builtin_architectures.hpp"
#include "occcalc/tables/load.hpp"

namespace {

int failures = 0;

/// Compares one list entry by entry, naming the first entry that differs.
template <typename Entry>
void expect_equal(std::string_view what, std::string_view list, const std::vector<Entry>& compiled,
                  const std::vector<Entry>& loaded) {
  if (compiled.size() != loaded.size()) {
    std::cout << what << ": " << list << ": " << compiled.size() << " compiled entries, " << loaded.size()
              << " loaded\n";
    ++failures;
    return;
  }
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    if (!(compiled[i] == loaded[i])) {
      std::cout << what << ": " << list << "[" << i << "] (" << loaded[i].id << ") differs from the loader's\n";
      ++failures;
    }
  }
}

void expect_equal(std::string_view what, const occcalc::table& compiled, const occcalc::table& loaded) {
  expect_equal(what, "sources", compiled.sources, loaded.sources);
  expect_equal(what, "architectures", compiled.architectures, loaded.architectures);
  expect_equal(what, "gpus", compiled.gpus, loaded.gpus);
  expect_equal(what, "cluster_layouts", compiled.cluster_layouts, loaded.cluster_layouts);
  expect_equal(what, "amd_targets", compiled.amd_targets, loaded.amd_targets);
  expect_equal(what, "amd_gpus", compiled.amd_gpus, loaded.amd_gpus);
  if (!(compiled == loaded)) {
    std::cout << what << ": the tables differ\n";
    ++failures;
  }
}

/// Guards the comparison itself: one changed field must make entries differ.
void expect_a_change_is_seen(const occcalc::table& compiled) {
  occcalc::table changed = compiled;
  changed.architectures.back().shared_memory_per_sm_by_cache_bytes[3] += 1;
  if (changed == compiled) {
    std::cout << "a changed field is not seen by the comparison\n";
    ++failures;
  }
}

/// Each loaded architecture's figures equal the built-in constant of its
/// compute capability, and the built-ins answer nothing else.
void expect_builtin_equal(const occcalc::table& loaded) {
  std::size_t found = 0;
  for (int major = 0; major <= 99; ++major) {
    for (int minor = 0; minor <= 9; ++minor) found += occcalc::builtin::find_architecture(major, minor) != nullptr;
  }
  if (found != loaded.architectures.size()) {
    std::cout << "builtin_architectures.hpp: " << found << " architectures, the table " << loaded.architectures.size()
              << "\n";
    ++failures;
  }
  for (const auto& arch : loaded.architectures) {
    const occcalc::nvidia_arch_figures* builtin = occcalc::builtin::find_architecture(arch.cc_major, arch.cc_minor);
    if (builtin == nullptr || !(*builtin == static_cast<const occcalc::nvidia_arch_figures&>(arch))) {
      std::cout << "builtin_architectures.hpp: " << arch.id << " differs from the loader's\n";
      ++failures;
    }
  }
}

std::vector<occcalc::table_text> read(const std::vector<std::string>& paths, std::vector<std::string>& contents) {
  std::vector<occcalc::table_text> texts;
  for (const auto& path : paths) {
    std::ifstream in(path, std::ios::binary);
    contents.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    texts.push_back({path, contents.back()});
  }
  return texts;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> nvidia, amd;
  std::vector<std::string>* into = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--nvidia") {
      into = &nvidia;
    } else if (arg == "--amd") {
      into = &amd;
    } else if (into) {
      into->emplace_back(arg);
    }
  }
  if (nvidia.empty() || amd.empty()) {
    std::cout << "usage: occcalc_compiled_tables_test --nvidia FILE... --amd FILE...\n";
    return 2;
  }
  std::vector<std::string> contents;
  contents.reserve(nvidia.size() + amd.size());
  const auto nvidia_texts = read(nvidia, contents);
  const auto amd_texts = read(amd, contents);
  std::vector<occcalc::table_text> all = nvidia_texts;
  all.insert(all.end(), amd_texts.begin(), amd_texts.end());

  using occcalc::cli::table_vendor;
  const occcalc::table compiled_nvidia = occcalc::cli::compiled_tables(table_vendor::nvidia);
  expect_equal("NVIDIA", compiled_nvidia, occcalc::load_tables(nvidia_texts));
  expect_equal("AMD", occcalc::cli::compiled_tables(table_vendor::amd), occcalc::load_tables(amd_texts));
  expect_equal("both vendors", occcalc::cli::compiled_tables(), occcalc::load_tables(all));
  // The architectures alone: the same entries, without sources and named GPUs.
  occcalc::table architectures_only = occcalc::load_tables(all);
  architectures_only.sources.clear();
  architectures_only.gpus.clear();
  architectures_only.cluster_layouts.clear();
  architectures_only.amd_gpus.clear();
  expect_equal("both vendors' architectures", occcalc::cli::compiled_tables(occcalc::cli::table_extent::architectures),
               architectures_only);
  expect_a_change_is_seen(compiled_nvidia);
  expect_builtin_equal(occcalc::load_tables(nvidia_texts));
  // The range the README promises, so an empty pair of tables cannot pass.
  const auto& archs = compiled_nvidia.architectures;
  if (archs.empty() || archs.front().id != "sm_10" || archs.back().id != "sm_121") {
    std::cout << "the compiled NVIDIA tables do not run from sm_10 to sm_121\n";
    ++failures;
  }
  std::cout << (failures == 0 ? "the compiled tables equal the loader's\n" : "") << failures << " differences\n";
  return failures == 0 ? 0 : 1;
}
