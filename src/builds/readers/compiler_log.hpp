// Kernels' resource usage read from the text the CUDA compiler prints:
// `nvcc -Xptxas -v` / `--resource-usage` (ptxas) and the device linker's
// `nvlink --verbose` (`-rdc=true --resource-usage`).
#pragma once

#include <string_view>
#include <vector>

#include "builds/readers/cubin.hpp"
#include "builds/readers/kernel_resources.hpp"

namespace occcalc::inspect {

/// Whether `text` looks like ptxas or nvlink output (a line starting with
/// `ptxas info` or `nvlink info`).
bool is_compiler_log(std::string_view text) noexcept;

/// Reads every kernel the log reports, in order. ptxas names kernels with
/// "Compiling entry function"; its device functions are left out. nvlink
/// reports every function it keeps, and its `smem` figure is the shared
/// memory section: those kernels are marked `linker_report`, for analysis to
/// take the reserve out where the architecture counts it there.
/// Lines that are neither are ignored; a figure that does not fit in 64
/// bits throws `format_error` naming the line.
/// Lines are numbered from `first_line` (the web page numbers a line it
/// adds before a pasted one 0).
std::vector<kernel_resources> read_compiler_log(std::string_view text, std::size_t first_line = 1);

/// `read_compiler_log`'s kernels with their demangled names, held once: a
/// log of 600,000 kernels is 300 MB of them.
std::vector<inspected_kernel> read_compiler_log_kernels(std::string_view text);

}  // namespace occcalc::inspect
