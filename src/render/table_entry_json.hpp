// The table entries a pretty result holds (`architecture`, `device`),
// suggest's `device` and `occcalc list --json` lists, and the Python
// module's listings: every figure the calculator uses, named as in
// data/*.json (schema/list.schema.json).
#pragma once

#include <string>

#include "occcalc/amd/target.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "render/json_writer.hpp"

namespace occcalc::cli {

/// An architecture with every limit the calculator uses.
void write_entry(json_writer& w, const occcalc::nvidia_arch& arch);
/// A named NVIDIA GPU.
void write_entry(json_writer& w, const occcalc::gpu& g);
/// An AMD target.
void write_entry(json_writer& w, const occcalc::amd_target& t);
/// A named AMD GPU.
void write_entry(json_writer& w, const occcalc::amd_gpu& g);

/// `write_entry(w, *entry)`, or null without one.
template <typename Entry>
void write_entry_or_null(json_writer& w, const Entry* entry) {
  if (entry)
    write_entry(w, *entry);
  else
    w.null();
}

/// One entry as compact JSON text.
template <typename Entry>
std::string entry_text(const Entry& entry) {
  std::string text;
  json_writer w(text);
  write_entry(w, entry);
  return text;
}

}  // namespace occcalc::cli
