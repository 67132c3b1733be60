/// \file version.hpp
/// The single source of occcalc's version; CMake reads it with a regex.
#pragma once

#define OCCCALC_VERSION_MAJOR 0
#define OCCCALC_VERSION_MINOR 1
#define OCCCALC_VERSION_PATCH 0

namespace occcalc {

/// The version as "MAJOR.MINOR.PATCH".
inline constexpr const char* version_string = "0.1.0";

/// Versions of the JSON outputs, one per schema under `schema/`; each is
/// bumped on any change to its keys or their meaning (README, "JSON output").
/// `--json` and `batch` results (`result.schema.json`); 2: `arch` and `gpu`
/// became strings (the entries moved to `architecture` and `device`),
/// `input.sm_count`, AMD `reasons`, batch `id` and versioned error lines;
/// 3: `architecture` and `device` only in a single query's document (a
/// batch line names `arch` and `gpu`), batch's optional `gate`; 4: `family`,
/// the products a family name (`--gpu H100`) covers; 5: the architecture
/// entry's `max_compiled_registers_per_thread` (the header's 256 registers
/// from 7.0 in `max_registers_per_thread`) and the AMD target entry's
/// `members`; 6: `cluster`; 7: each cluster device's `waves_per_sm`, and
/// the waves of a cluster launch count the blocks in clusters; 8: a
/// family's products each with their grid's `waves`, where they differ in
/// SMs (a family with a grid answers on every surface).
inline constexpr int result_schema_version = 8;
/// `inspect --json` (`inspect.schema.json`); 2: an object holding `kernels`;
/// 3: `block_size_from` may be `suggested`; 4: `min_blocks_per_sm`; 5: `inputs`
/// (the paths given, so a saved baseline compares by path), `dyn_smem_bytes`,
/// and results without the architecture and device entries (result schema 3);
/// 6: a figure the input does not record is absent, not null, and
/// `occupancy` holds the counts and limits only (no input echo, waves or
/// allocation: the record holds the figures); 7: `cluster`; 8:
/// `compiler_waves_per_simd` (AMD remarks) and an AMD occupancy's
/// `waves_per_simd` and `max_waves_per_simd`.
inline constexpr int inspect_schema_version = 8;
/// `check --json` (`check.schema.json`); 2: `unreadable_inputs`,
/// `unused_policy_entries` and the `block_size` check; 3: `judged_at`.
inline constexpr int check_schema_version = 3;
/// `list --json` (`list.schema.json`); 2: the entries of result schema 5.
inline constexpr int list_schema_version = 3;
/// `suggest --json` (`suggest.schema.json`); 2: `gpu` is the name, `device`
/// the entry; 3: NVIDIA's `tied_block_sizes`, `recommended_block_size` and
/// `family`; 4: AMD's next steps under the compiler's model (`--model llvm`).
inline constexpr int suggest_schema_version = 6;
/// `sweep --json` (`sweep.schema.json`).
inline constexpr int sweep_schema_version = 2;

/// `schema_version` of `occcalc limits --json` (schema/limits.schema.json).
inline constexpr int limits_schema_version = 1;
/// `diff --json` (`diff.schema.json`); 2: `dyn_smem_bytes` in each side's
/// figures; 3: `cluster_dims`, and `occupancy` in the declared clusters.
inline constexpr int diff_schema_version = 3;

}  // namespace occcalc
