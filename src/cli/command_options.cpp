#include "cli/command_options.hpp"

#include <CLI/CLI.hpp>

#include "cli/help_format.hpp"
#include "commands/sweep.hpp"
#include "occcalc/amd/target.hpp"
#include "render/inspect_report.hpp"

namespace occcalc::cli {

namespace {

/// --jobs, for the commands that read build outputs.
void bind_jobs(CLI::App& app, options& opts) {
  app.add_option("--jobs", opts.jobs,
                 "Threads to read with, 1 to 1024 (default: the CPUs this process may use, affinity and cgroup quota "
                 "counted)")
      ->type_name("N");
}

/// Which kernels to read and with how many threads: inspect, check and diff.
void bind_kernel_selection(CLI::App& app, options& opts) {
  app.add_option("--kernel", opts.inspect.kernel_pattern,
                 "Only kernels whose demangled or mangled name matches this regular expression")
      ->type_name("REGEX");
  app.add_option("--arch", opts.inspect.arch, "Only kernels for this architecture (sm_90, 9.0, gfx90a, gfx90a:xnack+)")
      ->type_name("ARCH");
  bind_jobs(app, opts);
}

/// The options `inspect` and `check` share.
void bind_inputs(CLI::App& app, options& opts) {
  app.add_option("inputs", opts.inspect.inputs,
                 "Cubins, fat binaries, AMD code objects, offload bundles, objects, executables, shared "
                 "and static libraries, ptxas/nvlink logs, or directories to search (- for stdin)")
      ->required()
      ->type_name("INPUT");
  app.add_flag("-v,--verbose", opts.inspect.verbose, "List the files of a directory that were skipped");
  bind_kernel_selection(app, opts);
}

}  // namespace

void bind_list(CLI::App& app, options& opts) {
  app.add_option("what", opts.list_what,
                 "archs (NVIDIA), gpus (NVIDIA and AMD), amd (AMD targets and GPUs) or all (default)")
      ->type_name("WHAT");
  app.add_flag("--ids", opts.list_ids,
               "Only the names, one per line, as a shell completes them: what --cc, --gpu and --gfx take (for a GPU, "
               "its id, its name without brand words and its family names)");
  app.footer("Example:\n  occcalc list gpus\nAlso --json (schema/list.schema.json).");
}

void bind_batch(CLI::App& app, options& opts) {
  app.add_option("--min-occupancy", opts.min_occupancy,
                 "Gate: exit 1 when a result's occupancy is below this (percent: 75 or 75%); each result gets a "
                 "\"gate\" field and stderr names the lines below it")
      ->type_name("PCT");
  app.footer(batch_keys());
}

void bind_inspect(CLI::App& app, options& opts) {
  bind_inputs(app, opts);
  app.add_flag("--wide", opts.inspect.table.wide, "Show every column and whole kernel names, however wide");
  app.add_option("--columns", opts.inspect.table.columns,
                 "The table's columns, in order (comma-separated): " + inspect_column_ids())
      ->delimiter(',')
      ->type_name("LIST");
  app.footer(
      "Examples:\n"
      "  occcalc inspect build/libkernels.a --arch sm_90\n"
      "  occcalc inspect build/ --kernel 'scale|barrier' --threads 256\n"
      "  nvcc -Xptxas -v -c k.cu 2>&1 | occcalc inspect -\n"
      "Also --threads N (block size for every kernel's occupancy; default: its declared one, else the one "
      "suggest picks), --dyn-smem BYTES, --carveout PCT, --model " +
      occcalc::amd_model_choices("|", "|") + " (AMD kernels) and --json (schema/inspect.schema.json).");
}

void bind_check(CLI::App& app, options& opts) {
  app.add_option("--policy", opts.inspect.policy_file, "The policy file (JSON; see examples/)")
      ->required()
      ->type_name("FILE");
  app.add_option("--baseline", opts.inspect.baseline,
                 "A build output or saved inspect --json: apply the policy only to kernels that are new or got worse")
      ->type_name("FILE");
  app.add_flag("--require-threads", opts.inspect.require_threads,
               "Refuse (exit 2) a kernel the policy gives no block size and that declares none, rather than "
               "judge it at the size suggest picks");
  bind_inputs(app, opts);
  app.footer(
      "Example:\n"
      "  occcalc check --policy occupancy-policy.json build/ --format github\n"
      "github: annotations, and a summary when GITHUB_STEP_SUMMARY is set; sarif: code scanning. Exit 0: every "
      "kernel passes; 1: a violation; 2: a bad policy or input.");
}

void bind_diff(CLI::App& app, options& opts) {
  app.add_option("old", opts.diff_old, "The baseline: a build output (as inspect reads) or a saved inspect --json")
      ->required()
      ->type_name("OLD");
  app.add_option("new", opts.diff_new, "The build to compare with it, the same way")->required()->type_name("NEW");
  app.add_flag("--fail-on-regression", opts.fail_on_regression,
               "Exit 1 when a kernel got worse: more registers, spills or stack, or lower occupancy");
  app.add_option("--max-register-increase", opts.max_register_increase,
                 "Registers per thread a kernel may gain before it counts as a regression (default 0)")
      ->type_name("N");
  app.add_option("--max-stack-increase", opts.max_stack_increase,
                 "Stack bytes per thread a kernel may gain before it counts as a regression (default 0)")
      ->type_name("BYTES");
  app.add_option("--max-occupancy-drop", opts.max_occupancy_drop,
                 "Occupancy (percentage points) a kernel may lose before it counts as a regression (default 0)")
      ->type_name("PCT");
  bind_kernel_selection(app, opts);
  app.footer(
      "Example:\n"
      "  occcalc diff baseline.json build/app --fail-on-regression\n"
      "Also --threads, --dyn-smem, --carveout, --model (as for inspect). json: schema/diff.schema.json; github: "
      "annotations for regressed, new and removed kernels.\n"
      "Exit 0, or 1 with --fail-on-regression when a kernel regressed; 2 when a side cannot be read.");
}

void bind_suggest(CLI::App& app, options& opts) {
  app.add_option("--max-threads", opts.suggest.max_threads, "Largest block size to consider")->type_name("N");
  app.add_option("--dyn-smem-per-thread", opts.suggest.dynamic_per_thread,
                 "Dynamic shared memory per thread in bytes, for the block size search")
      ->type_name("BYTES");
  app.add_option("--target", opts.suggest.target,
                 "Next steps reach this occupancy (percent) instead of one more block; needs --threads")
      ->type_name("PCT");
  app.add_option("--blocks", opts.suggest.blocks,
                 "The most dynamic shared memory per block that keeps this many blocks resident; needs --threads")
      ->type_name("N");
  app.footer(
      "Examples:\n"
      "  occcalc suggest --gpu A100 --regs 40\n"
      "  occcalc suggest --cc 8.6 --regs 64 --threads 256 --target 75\n"
      "  occcalc suggest --gfx gfx900 --model rcp --threads 256 --vgprs 60 --lds 16K\n"
      "Where no change alone gets there, the cheapest two together. For AMD (--gfx or an AMD --gpu, --vgprs, "
      "--sgprs, --lds, ...) it answers with HIP's hipOccupancyMaxPotentialBlockSize and, with --threads, next "
      "steps under --model hip or rcp (--model llvm: the compiler's).\n"
      "Also the kernel flags: --cc or --gpu (min grid size), --regs, --threads (next steps), --smem, "
      "--dyn-smem, --carveout, --cache, --barriers, --json.");
}

void bind_limits(CLI::App& app, options& /*opts*/) {
  app.footer(
      "Examples:\n"
      "  occcalc limits --cc 9.0 --threads 256\n"
      "  occcalc limits --gfx gfx90a --threads 256\n"
      "NVIDIA: per count of resident blocks per SM, the most registers per thread (with the launch's shared "
      "memory) and dynamic shared memory per block (with its registers). AMD: per waves per SIMD, the most "
      "VGPRs, SGPRs and LDS per work-group, each on its own, as the LLVM compiler counts.\n"
      "Also the kernel flags (--cc or --gpu, --regs, --smem, --dyn-smem, --carveout, --cache, --barriers; AMD: "
      "--gfx or --gpu, --wave32/--wave64, --cu-mode/--wgp-mode) and --json (schema/limits.schema.json).");
}

void bind_sweep(CLI::App& app, options& opts) {
  app.add_option("--vary", opts.sweep.vary,
                 "The figure to vary: " + vary_choices() +
                     "; cluster is the cluster size, on --gpu or --sm-count, and agprs on CDNA")
      ->required()
      ->type_name("FIGURE");
  app.add_option("--from", opts.sweep.from, "First value (default: the figure's smallest)")->type_name("N");
  app.add_option("--to", opts.sweep.to, "Last value (default: the architecture's maximum)")->type_name("N");
  app.add_option("--step", opts.sweep.step, "Step (default: a warp, one register, an allocation unit)")->type_name("N");
  app.add_flag("--ascii", opts.sweep.ascii, "Draw the chart with ASCII characters only");
  app.add_option("--svg", opts.sweep.svg_file,
                 "Also write the three charts (block size, registers, shared memory) to this SVG file (- for "
                 "standard output, instead of the text)")
      ->type_name("FILE");
  app.footer(
      "Examples:\n"
      "  occcalc sweep --vary regs --cc 8.0 --threads 256 --regs 40\n"
      "  occcalc sweep --vary threads --gpu \"RTX 4090\" --regs 64 --svg occupancy.svg\n"
      "  occcalc sweep --vary cluster --gpu H200 --threads 256 --regs 64\n"
      "Also the kernel flags (--cc or --gpu, --threads, --regs, --smem, --dyn-smem, --carveout, --cache, "
      "--barriers; AMD: --gfx or --gpu, --threads, --vgprs, --agprs, --sgprs, --lds, --wave32/--wave64, "
      "--cu-mode/--wgp-mode, --model) and --json.");
}

}  // namespace occcalc::cli
