#include "builds/read_build.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <thread>
#include <variant>

#include <malloc.h>

#include <fmt/format.h>

#include "builds/baseline.hpp"
#include "builds/directory.hpp"
#include "builds/input_contents.hpp"
#include "builds/kernel_matcher.hpp"
#include "builds/readers/identify.hpp"
#include "builds/readers/mapped_file.hpp"
#include "builds/readers/parallel.hpp"
#include "builds/triton.hpp"
#include "io/cpus.hpp"
#include "io/text_file.hpp"
#include "occcalc/error.hpp"

namespace occcalc::cli {

namespace {

/// Fewest kernels worth more threads than one.
constexpr std::size_t min_parallel_kernels = 1024;

/// Reports made at a time, then handed to the sink: a run of them is held,
/// never a whole library's tens of thousands.
constexpr std::size_t report_run_kernels = 2048;

inspect::inspection read_input(const std::string& path, std::istream& in, const kernel_matcher& filter, unsigned jobs,
                               std::ostream& err) {
  inspect::inspect_options options = options_for(filter, jobs);
  if (path == "-") {
    const auto text = inspect::read_stream(in, "standard input");
    return read_contents(path, {text.data(), text.size()}, options, filter, err);
  }
  const inspect::mapped_file file(path);
  options.done_with = [&file](inspect::byte_view used) { file.release(used); };
  return read_contents(path, file.bytes(), options, filter, err);
}

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The extensions that say a file is a GPU binary, whatever it holds.
constexpr std::string_view gpu_binary_extensions[] = {".cubin", ".fatbin", ".hsaco", ".ptx"};

/// Reads a file found in a directory: empty when it holds no GPU code (not
/// a GPU binary or compiler log, or a host file without device code).
/// Throws `occcalc::error` for one that should but cannot be read.
std::optional<inspect::inspection> read_found_file(const std::string& path, const kernel_matcher& filter, unsigned jobs,
                                                   std::ostream& err) {
  const inspect::mapped_file file(path);
  if (inspect::identify(file.bytes()) == inspect::input_kind::unknown) {
    // A file named as a GPU binary that is not one is an error, as it is
    // when named itself: an empty or mangled cubin is never skipped.
    const auto ext = std::find_if(std::begin(gpu_binary_extensions), std::end(gpu_binary_extensions),
                                  [&](std::string_view e) { return ends_with(path, e); });
    if (ext == std::end(gpu_binary_extensions)) return std::nullopt;
    throw occcalc::error(
        fmt::format("{}: named as a GPU binary, but {}", path, file.bytes().empty() ? "empty" : "it is not one"));
  }
  inspect::inspect_options options = options_for(filter, jobs);
  options.done_with = [&file](inspect::byte_view used) { file.release(used); };
  try {
    auto inspected = inspect::inspect_bytes(file.bytes(), options);
    if (inspected.kernels.empty() && inspected.skipped_entries == 0) return std::nullopt;
    complete_text_input(path, inspected, filter, err);
    return inspected;
  } catch (const inspect::format_error& e) {
    throw occcalc::error(fmt::format("{}: {}", path, e.what()));
  }
}

/// A path without its last extension (`cache/ab12/add_kernel`).
std::string stem_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const auto dot = path.find_last_of('.');
  return dot == std::string::npos || (slash != std::string::npos && dot < slash) ? path : path.substr(0, dot);
}

std::string file_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// The Triton metadata in `metadata` (the `<stem>.json` beside a kernel
/// binary), with the tensor shapes of the Triton IR beside it
/// (`<stem>.ttir`) where there is one; none when it is not Triton's. A
/// Triton file with a bad value is an error (`fail`), its kernel then read
/// alone.
template <typename Fail>
std::optional<triton_metadata> read_triton_file(const std::string& metadata, Fail&& fail) {
  try {
    auto meta = read_triton_metadata(metadata, read_text_file(metadata, "Triton metadata"));
    const std::string ir = stem_of(metadata) + ".ttir";
    if (meta && is_regular_file(ir)) meta->tiles = triton_tiles(read_text_file(ir, "Triton IR"));
    return meta;
  } catch (const occcalc::error& e) {
    fail(e.what());
    return std::nullopt;
  }
}

/// The Triton kernels among `files`, by stem: a `<stem>.json` that is
/// Triton's metadata beside a `<stem>.cubin` or `<stem>.hsaco`.
template <typename Fail>
std::map<std::string, triton_metadata> triton_kernels(const std::vector<std::string>& files, Fail&& fail) {
  const std::set<std::string> present(files.begin(), files.end());
  std::map<std::string, triton_metadata> found;
  for (const auto& file : files) {
    if (!ends_with(file, ".json")) continue;
    const std::string stem = stem_of(file);
    if (!present.count(stem + ".cubin") && !present.count(stem + ".hsaco")) continue;
    if (auto meta = read_triton_file(file, fail)) found.emplace(stem, std::move(*meta));
  }
  return found;
}

/// The Triton metadata beside a kernel binary read on its own (`<stem>.json`
/// next to `<stem>.cubin` or `<stem>.hsaco`), as reading its cache directory
/// finds it; none when there is no such file or it is not Triton's.
template <typename Fail>
std::optional<triton_metadata> triton_metadata_beside(const std::string& path, Fail&& fail) {
  if (!ends_with(path, ".cubin") && !ends_with(path, ".hsaco")) return std::nullopt;
  const std::string metadata = stem_of(path) + ".json";
  return is_regular_file(metadata) ? read_triton_file(metadata, fail) : std::nullopt;
}

}  // namespace

bool filters_kernels(const build_request& request) { return !request.kernel_pattern.empty() || !request.arch.empty(); }

unsigned reading_workers(const build_request& request) { return request.jobs > 0 ? request.jobs : usable_cpus(); }

void require_matches(const build_request& request) {
  if (!filters_kernels(request)) return;
  const std::string inputs = fmt::format("{} input{}", request.inputs.size(), request.inputs.size() == 1 ? "" : "s");
  if (!request.kernel_pattern.empty()) {
    throw occcalc::input_error("kernel", fmt::format("'{}' matches no kernel{} in the {}", request.kernel_pattern,
                                                     request.arch.empty() ? "" : " for " + request.arch, inputs));
  }
  throw occcalc::input_error("arch", fmt::format("'{}' matches no kernel in the {}", request.arch, inputs));
}

std::size_t read_build(const occcalc::table& tables, const build_request& request, std::istream& in, std::ostream& err,
                       const block_size_for& threads_for, report_sink& sink) {
  const kernel_matcher filter = make_kernel_matcher(request.kernel_pattern, request.arch);
  const unsigned jobs = reading_workers(request);
  std::size_t failed = 0;
  // Reports an input's kernels to the sink, unless none passes the filter
  // and `unless_none`; returns whether it did. `triton`: the Triton metadata
  // of the file, whose launch (block size and dynamic shared memory) wins
  // over --threads and the policy, as a required size does: it is how the
  // launcher runs the kernel.
  const auto report = [&](const std::string& path, inspect::inspection inspected, bool unless_none,
                          const triton_metadata* triton = nullptr) {
    // A library holds tens of thousands of kernels: filter them and compute
    // their occupancy on every core, each into its own slot to keep the
    // order, a run at a time.
    auto& kernels = inspected.kernels;
    const unsigned threads = kernels.size() >= min_parallel_kernels ? jobs : 1;
    std::vector<char> selected(kernels.size());
    inspect::parallel_for<std::monostate>(kernels.size(), threads, [&](std::size_t i, std::monostate&) {
      selected[i] = static_cast<char>(filter.matches(kernels[i]));
    });
    std::vector<std::size_t> chosen;
    chosen.reserve(static_cast<std::size_t>(std::count(selected.begin(), selected.end(), char{1})));
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      if (selected[i]) chosen.push_back(i);
    }
    if (chosen.empty() && unless_none) return false;
    sink.input({path, inspected.kind, inspected.skipped_entries, inspected.lto_entries, inspected.duplicate_entries,
                inspected.skipped_members, inspected.unread},
               chosen.size());
    std::vector<kernel_report> run;
    for (std::size_t first = 0; first < chosen.size(); first += report_run_kernels) {
      run.clear();
      run.resize(std::min(report_run_kernels, chosen.size() - first));
      inspect::parallel_for<std::monostate>(run.size(), threads, [&](std::size_t j, std::monostate&) {
        const std::size_t i = chosen[first + j];
        auto [overrides, from] = threads_for(kernels[i]);
        if (triton != nullptr) {
          overrides.threads = triton->block_size();
          overrides.dyn_smem_bytes = triton->shared_bytes;
          from = launch_source::triton;
          // num_ctas > 1: Triton's launcher launches clusters of cluster_dims, or of num_ctas along x where
          // the metadata records none (Triton 3.6 records none).
          auto& declared = kernels[i].resources.cluster_dims;
          inspect::dim3 cluster = triton->cluster_dims;
          if (cluster[0] * cluster[1] * cluster[2] == 1) cluster = {triton->num_ctas, 1, 1};
          if (triton->num_ctas > 1 && !declared) declared = cluster;
          auto& origin = kernels[i].resources.origin;
          origin = fmt::format("{}.json: num_warps {}, shared {} B, num_ctas {}, cluster {}x{}x{}{}", stem_of(path),
                               triton->num_warps, triton->shared_bytes, triton->num_ctas, cluster[0], cluster[1],
                               cluster[2], origin.empty() ? "" : "; " + origin);
        }
        run[j] = sink.evaluates() ? report_kernel(tables, path, std::move(kernels[i]), overrides, from)
                                  : report_launch(tables, path, std::move(kernels[i]), overrides, from);
        if (triton != nullptr) {
          run[j].triton_config = triton->config();
          // Triton's PTX requires the block size its metadata launches (.reqntid): the launch is Triton's.
          if (run[j].block_size == triton->block_size()) run[j].block_size_from = launch_source::triton;
        }
      });
      sink.kernels(run);
    }
    return true;
  };
  const auto fail = [&](const std::string& message) {
    err << "occcalc: error: " << occcalc::detail::printable(message) << "\n";
    ++failed;
  };
  for (const auto& path : request.inputs) {
    if (request.contents) {  // held in memory: no file opened, none looked for beside it
      try {
        report(path, read_contents(path, *request.contents, options_for(filter, jobs), filter, err), false);
      } catch (const occcalc::error& e) {
        fail(e.what());
      }
      continue;
    }
    if (path == "-" || !is_directory(path)) {
      try {
        const auto meta = path == "-" ? std::nullopt : triton_metadata_beside(path, fail);
        report(path, read_input(path, in, filter, jobs, err), false, meta ? &*meta : nullptr);
      } catch (const occcalc::error& e) {
        fail(e.what());
      }
      continue;
    }
    std::vector<std::string> unreadable;
    const auto files = files_under(path, unreadable);
    for (const auto& dir : unreadable) fail(dir + ": cannot read this directory");
    std::vector<std::string> skipped;
    std::size_t with_kernels = 0;
    bool had_kernels = false;
    const auto triton = triton_kernels(files, fail);
    for (const auto& file : files) {
      try {
        const auto meta = triton.find(stem_of(file));
        const bool kernel_binary = ends_with(file, ".cubin") || ends_with(file, ".hsaco");
        if (meta != triton.end() && !kernel_binary) continue;  // Triton's other stages of a kernel read
        if (!triton.empty() && file_name(file).rfind("__grp__", 0) == 0) continue;  // Triton's group index
        auto inspected = read_found_file(file, filter, jobs, err);
        if (!inspected) {
          skipped.push_back(file);
          continue;
        }
        had_kernels = had_kernels || !inspected->kernels.empty();
        // None left after --kernel / --arch: not reported.
        const bool reported = report(file, std::move(*inspected), true, meta == triton.end() ? nullptr : &meta->second);
        // What the workers freed goes back before the next file: their
        // arenas otherwise keep one file's decompression buffers beside the
        // next's, and a directory peaks above its largest file.
        ::malloc_trim(0);
        if (!reported) continue;
        ++with_kernels;
      } catch (const occcalc::error& e) {
        fail(e.what());
      }
    }
    if (!skipped.empty()) {
      // Which files were skipped, by name: a few here, all with -v.
      constexpr std::size_t named_skipped = 3;
      std::string names;
      for (std::size_t i = 0; i < skipped.size() && i < named_skipped; ++i) {
        names += (i == 0 ? "" : ", ") + occcalc::detail::printable(relative_to_inputs(skipped[i], {path}));
      }
      if (skipped.size() > named_skipped) names += fmt::format(" and {} more", skipped.size() - named_skipped);
      err << fmt::format(
          "occcalc: note: {}: {} file{} skipped, not GPU binaries or compiler logs{}\n",
          occcalc::detail::printable(path), skipped.size(), skipped.size() == 1 ? "" : "s",
          request.verbose ? ":" : ": " + names + (skipped.size() > named_skipped ? " (-v lists them)" : ""));
      if (request.verbose) {
        for (const auto& file : skipped) err << "  " << occcalc::detail::printable(file) << "\n";
      }
    }
    // A directory whose kernels --kernel or --arch all left out is not
    // unreadable: the command says whether anything matched at all.
    if (with_kernels == 0 && !had_kernels) {
      fail(fmt::format("{}: no GPU kernels in {} file{}", path, files.size(), files.size() == 1 ? "" : "s"));
    }
  }
  return failed;
}

}  // namespace occcalc::cli
