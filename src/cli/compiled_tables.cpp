#include "cli/compiled_tables.hpp"

#include <iterator>

#include "occcalc/request/lookup.hpp"

namespace occcalc::cli {

occcalc::table compiled_tables(table_extent extent) {
  // The vendors' files share no entry kind but sources, which come in file
  // order, so loading them together is appending AMD's lists to NVIDIA's
  // (the generator loaded them together too, to refuse a name both use).
  occcalc::table out = compiled_tables(table_vendor::nvidia, extent);
  occcalc::table amd = compiled_tables(table_vendor::amd, extent);
  const auto move_into = [](auto& into, auto& from) {
    into.insert(into.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
  };
  move_into(out.sources, amd.sources);
  move_into(out.architectures, amd.architectures);
  move_into(out.gpus, amd.gpus);
  move_into(out.amd_targets, amd.amd_targets);
  move_into(out.unlisted_amd_targets, amd.unlisted_amd_targets);
  move_into(out.amd_gpus, amd.amd_gpus);
  return out;
}

const occcalc::table& resident_tables() {
  struct indexed {
    occcalc::table table = compiled_tables();
    occcalc::gpu_name_index names{table};
    indexed() { table.gpu_names = &names; }
  };
  static const indexed all;  // made once, on first use (thread-safe)
  return all.table;
}

}  // namespace occcalc::cli
