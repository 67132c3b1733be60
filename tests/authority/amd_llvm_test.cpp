// The LLVM model against its authority: clang's own `; Occupancy:` line.
//
// Generates HIP kernels with varied register pressure, LDS and flat
// work-group sizes, compiles them (device code only, no HIP headers or
// libraries) with the clang given on the command line for every AMD target
// in data/amd-targets.json it knows, in every wave size and (gfx10 and
// later) in WGP and CU mode, feeds occcalc the compiler's VGPR, AGPR and
// SGPR counts and LDS size, and compares waves per SIMD with the compiler's
// Occupancy. Prints every mismatch; exits 1 if there is any, 77 (skipped)
// when no compiler was found at configure time. The fast tests compile a
// seeded sample of the kernels for every target, each wave size and each
// mode once; OCCCALC_FULL_AUTHORITIES=1 all of them in every pairing.
//
// Then the limits table (`occcalc limits`) at its edges: for each level of
// a 256-work-item group, a kernel that uses exactly the most VGPRs, LDS and
// (where waves share an SGPR file) SGPRs the level allows, and one that uses
// one more (an inline asm clobber names the highest register used, so the
// compiler's count is exact). The table's answer for the compiler's counts
// (the highest level whose every limit holds) must equal its Occupancy. The
// fast tests do this for a fixed sample of targets, the full run for all.
//
//   occcalc_amd_llvm_test <clang> <label> [<largest size of an unsized kernel>]
//
// A kernel without a required size runs at 1 to 1024 work-items (HIP's
// default) or, given the third argument, 1 to that many: clang-19 takes 256,
// where LLVM 19 and later agree. For a kernel with LDS LLVM 19 counted only
// the largest size of the range (1 to 1024, 1 KiB of LDS on gfx900: 8
// waves), LLVM 20 and later the smallest and the largest, as occcalc does
// (10).
//
// HIP rather than OpenCL: clang-22 emits each OpenCL kernel as a stub that
// calls its body, and prints the resources of such kernels as symbolic
// expressions; a self-contained HIP kernel's are resolved figures in every
// version.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "builds/readers/amdgpu_assembly.hpp"
#include "builds/readers/amdgpu_remarks.hpp"
#include "cli/compiled_tables.hpp"
#include "occcalc/amd/limits.hpp"
#include "occcalc/amd/occupancy.hpp"
#include "stated_counts.hpp"

namespace {

constexpr int skipped = 77;
/// HIP kernels without a flat work-group size attribute: clang's default
/// range is 1 to this.
constexpr std::int64_t hip_default_max_work_group = 1024;

/// The largest work-group size of kernels without a required one; HIP's
/// default unless the command line names another, which the source then
/// states.
std::int64_t unsized_max_work_group = hip_default_max_work_group;
/// gfx6 and gfx7 address at most 32 KiB of LDS per work-group.
constexpr std::int64_t small_lds_limit_bytes = 32768;

struct kernel_spec {
  std::string name;
  std::int64_t lds_floats;
  std::int64_t work_group;  // 0: none required
  std::int64_t accumulators;
};

std::vector<kernel_spec> specs() {
  std::vector<kernel_spec> out;
  for (std::int64_t lds : {0, 256, 1024, 4096, 8000, 16384}) {
    for (std::int64_t wg : {0, 64, 128, 256, 1024}) {
      for (std::int64_t acc : {0, 16, 48}) {
        out.push_back(
            {"k_l" + std::to_string(lds) + "_w" + std::to_string(wg) + "_a" + std::to_string(acc), lds, wg, acc});
      }
    }
  }
  return out;
}

std::string source(const std::vector<kernel_spec>& kernels, std::int64_t max_lds_bytes) {
  std::ostringstream s;
  s << "#define KERNEL extern \"C\" __attribute__((global))\n";
  for (const auto& k : kernels) {
    if (k.lds_floats * 4 > max_lds_bytes) continue;
    s << "KERNEL ";
    if (k.work_group) {
      s << "__attribute__((amdgpu_flat_work_group_size(" << k.work_group << ", " << k.work_group << "))) ";
    } else if (unsized_max_work_group != hip_default_max_work_group) {
      s << "__attribute__((amdgpu_flat_work_group_size(1, " << unsized_max_work_group << "))) ";
    }
    s << "void " << k.name << "(float* __restrict__ out, const float* __restrict__ in) {\n"
      << "  const unsigned local = __builtin_amdgcn_workitem_id_x();\n"
      << "  const unsigned global = __builtin_amdgcn_workgroup_id_x() * 1024 + local;\n";
    if (k.lds_floats) {
      s << "  __attribute__((shared)) float tile[" << k.lds_floats << "];\n  tile[local % " << k.lds_floats
        << "] = in[global];\n  __builtin_amdgcn_s_barrier();\n";
    }
    s << "  float s = 0.0f;\n";
    if (k.accumulators) {
      const auto n = std::to_string(k.accumulators);
      s << "  float a[" << n << "];\n  for (int j = 0; j < " << n << "; ++j) a[j] = in[global * " << n
        << " + j];\n  for (int it = 0; it < 4; ++it) for (int j = 0; j < " << n
        << "; ++j) a[j] = a[j] * a[(j + it + 1) % " << n << "] + 1.0f;\n  for (int j = 0; j < " << n
        << "; ++j) s += a[j];\n";
    }
    if (k.lds_floats) s << "  s += tile[(local * 7) % " << k.lds_floats << "];\n";
    s << "  out[global] = s;\n}\n";
  }
  return s.str();
}

struct compiled {
  std::int64_t vgprs = 0, agprs = 0, sgprs = 0, lds = 0, occupancy = -1;
  /// Where the compile's resource remarks, read by occcalc, differ from the
  /// code object's figures (its metadata, read from the assembly) or the
  /// compiler's comments: each figure that differs; empty when all agree.
  std::string remarks_differ;
};

/// Each figure the remarks give for kernel `c` against the same compile's
/// code object metadata (`object`) and comments (`c`); "" when all agree.
std::string remark_differences(const occcalc::inspect::kernel_resources* remark,
                               const occcalc::inspect::kernel_resources* object, const compiled& c) {
  if (remark == nullptr) return "no remark";
  if (object == nullptr) return "no metadata";
  std::string out;
  const auto expect = [&](const char* what, const std::optional<std::int64_t>& got, std::int64_t want) {
    if (got != want) {
      out += std::string(" ") + what + " " + (got ? std::to_string(*got) : "?") + " (code object " +
             std::to_string(want) + ")";
    }
  };
  expect("SGPRs", remark->sgprs, object->sgprs.value_or(-1));
  expect("VGPRs", remark->arch_vgprs, c.vgprs);
  expect("AGPRs", std::optional<std::int64_t>(remark->agprs.value_or(0)), object->agprs.value_or(0));
  expect("LDS", remark->static_shared_memory_bytes, object->static_shared_memory_bytes.value_or(-1));
  expect("scratch", remark->stack_size_bytes, object->stack_size_bytes.value_or(-1));
  expect("VGPR spills", remark->vgpr_spills, object->vgpr_spills.value_or(-1));
  expect("SGPR spills", remark->sgpr_spills, object->sgpr_spills.value_or(-1));
  expect("Occupancy", remark->compiler_waves_per_simd, c.occupancy);
  return out;
}

/// Runs clang; empty when it does not know the target.
std::optional<std::map<std::string, compiled>> compile(const std::string& clang, const std::filesystem::path& dir,
                                                       const std::string& target, const std::filesystem::path& input,
                                                       std::int64_t wave_size, bool wgp, bool rdna) {
  const std::string tag =
      input.stem().string() + "_" + target + "_w" + std::to_string(wave_size) + (wgp ? "_wgp" : "_cu");
  const auto output = dir / (tag + ".s");
  std::string command = clang + " -x hip --cuda-device-only -nogpulib -nogpuinc --offload-arch=" + target + " -O2 -S " +
                        input.string() + " -o " + output.string() + " -Rpass-analysis=kernel-resource-usage";
  if (rdna && wave_size == 64) command += " -mwavefrontsize64";
  if (rdna && !wgp) command += " -mcumode";
  command += " 2>" + (dir / (tag + ".err")).string();
  if (std::system(command.c_str()) != 0) return std::nullopt;
  std::ifstream file(output);
  std::map<std::string, compiled> out;
  std::string line, current;
  const std::regex kernel(R"(^\s*\.amdhsa_kernel (\S+))");
  // clang-22 says TotalNumSgprs where clang-19 says NumSgprs.
  const std::regex figure(R"(^; (NumVgprs|NumAgprs|NumSgprs|TotalNumSgprs|Occupancy): (\d+))");
  const std::regex lds(R"(^; LDSByteSize: (\d+) bytes)");
  std::smatch m;
  while (std::getline(file, line)) {
    if (std::regex_search(line, m, kernel)) {
      current = m[1];
      out[current] = {};
    } else if (!current.empty() && std::regex_search(line, m, figure)) {
      const std::int64_t v = std::stoll(m[2]);
      auto& c = out[current];
      if (m[1] == "NumVgprs") c.vgprs = v;
      if (m[1] == "NumAgprs") c.agprs = v;
      if (m[1] == "NumSgprs" || m[1] == "TotalNumSgprs") c.sgprs = v;
      if (m[1] == "Occupancy") c.occupancy = v;
    } else if (!current.empty() && std::regex_search(line, m, lds)) {
      out[current].lds = std::stoll(m[1]);
    }
  }
  // The remarks of the same compile, every line read, against its code object's metadata.
  std::ostringstream remarks_text, assembly_text;
  remarks_text << std::ifstream(dir / (tag + ".err")).rdbuf();
  assembly_text << std::ifstream(output).rdbuf();
  occcalc::inspect::unread_remarks unread;
  std::map<std::string, occcalc::inspect::kernel_resources> remarks, objects;
  try {
    for (auto& k : occcalc::inspect::read_amdgpu_remarks(remarks_text.str(), &unread)) remarks[k.name] = k;
    for (auto& k : occcalc::inspect::read_amdgpu_assembly(assembly_text.str())) objects[k.name] = k;
  } catch (const std::exception& e) {
    unread.first = e.what();
    unread.lines = 1;
  }
  for (auto& [name, c] : out) {
    const auto remark = remarks.find(name);
    const auto object = objects.find(name);
    c.remarks_differ = remark_differences(remark == remarks.end() ? nullptr : &remark->second,
                                          object == objects.end() ? nullptr : &object->second, c);
    if (unread.lines > 0) c.remarks_differ += " " + std::to_string(unread.lines) + " lines not read: " + unread.first;
  }
  return out;
}

}  // namespace

/// The limits table's work-group size at its edges.
constexpr std::int64_t edge_work_group = 256;
/// The highest registers an inline asm clobber can name.
constexpr std::int64_t highest_clobbered_vgpr = 255;
constexpr std::int64_t highest_clobbered_sgpr = 101;
/// The SGPRs the compiler adds at least to the highest one named: VCC.
constexpr std::int64_t vcc_sgprs = 2;

/// Targets whose table edges the fast tests compile: SGPRs that limit
/// (gfx900), a unified VGPR file (gfx90a), WGP and CU modes in both wave
/// sizes (gfx1100), the newest (gfx1250).
const std::vector<std::string> edge_sample = {"gfx900", "gfx90a", "gfx1100", "gfx1250"};

std::string edge_kernel(const std::string& name, const std::string& body) {
  return "KERNEL void " + name + "(float* out) {\n" + body + "  out[__builtin_amdgcn_workitem_id_x()] = 1.0f;\n}\n";
}

/// Kernels at the edges of every level of the limits table for `t` in
/// `mode`: the most of each resource a level allows, and one more.
std::string edge_source(const occcalc::amd_target& t, const occcalc::amd_mode& mode) {
  std::set<std::int64_t> vgprs, lds;
  for (const auto& level : occcalc::amd_limits(t, mode, edge_work_group)) {
    for (const std::int64_t v : {level.max_vgprs, level.max_vgprs + 1}) {
      if (v >= 1 && v <= std::min(t.max_vgprs_per_wave, highest_clobbered_vgpr + 1)) vgprs.insert(v);
    }
    for (const std::int64_t bytes : {level.max_lds_bytes, level.max_lds_bytes + 1}) {
      if (bytes >= 1 && bytes <= t.max_lds_per_work_group_bytes) lds.insert(bytes);
    }
  }
  std::ostringstream s;
  s << "#define KERNEL extern \"C\" __attribute__((global)) __attribute__((amdgpu_flat_work_group_size("
    << edge_work_group << ", " << edge_work_group << ")))\n";
  for (const std::int64_t v : vgprs) {
    s << edge_kernel("e_v" + std::to_string(v), "  asm volatile(\"\" ::: \"v" + std::to_string(v - 1) + "\");\n");
  }
  // The compiler adds VCC and others to the SGPRs a kernel names: every
  // register is named once, which crosses each level's edge.
  if (t.sgprs_per_simd) {
    const std::int64_t highest =
        std::min(highest_clobbered_sgpr, t.max_sgprs_under(occcalc::amd_model::llvm) - vcc_sgprs - 1);
    for (std::int64_t sgpr = 0; sgpr <= highest; ++sgpr) {
      s << edge_kernel("e_s" + std::to_string(sgpr), "  asm volatile(\"\" ::: \"s" + std::to_string(sgpr) + "\");\n");
    }
  }
  for (const std::int64_t bytes : lds) {
    const auto n = std::to_string(bytes);
    s << edge_kernel(
        "e_l" + n, "  __attribute__((shared)) char tile[" + n + "];\n  tile[__builtin_amdgcn_workitem_id_x() % " + n +
                       "] = 1;\n  __builtin_amdgcn_s_barrier();\n  if (tile[(__builtin_amdgcn_workitem_id_x() * 7) % " +
                       n + "] == 0) return;\n");
  }
  return s.str();
}

/// The table's answer for a compiled kernel: the highest level whose every
/// limit holds (0: none).
std::int64_t table_waves(const std::vector<occcalc::amd_limit_level>& levels, const occcalc::amd_target& t,
                         const compiled& c) {
  occcalc::amd_kernel k;
  k.vgprs = c.vgprs;
  k.agprs = c.agprs;
  const std::int64_t vgprs = occcalc::amd_total_vgprs(t, k);  // the AGPRs too on a unified file
  for (const auto& level : levels) {                          // the highest first
    if (vgprs <= level.max_vgprs && (!level.max_sgprs || c.sgprs <= *level.max_sgprs) && c.lds <= level.max_lds_bytes) {
      return level.waves_per_simd;
    }
  }
  return 0;
}

/// Kernels of the seeded sample the fast tests compile for every target and
/// mode; `OCCCALC_FULL_AUTHORITIES=1` (the authorities workflow preset)
/// compiles all of them.
constexpr std::size_t sample_kernels = 16;

/// Whether this is the full run (the authorities workflow preset).
bool full_run() {
  const char* full = std::getenv("OCCCALC_FULL_AUTHORITIES");
  return full != nullptr && std::string(full) == "1";
}

/// Every kernel spec, or the fixed sample of them.
std::vector<kernel_spec> chosen_specs() {
  std::vector<kernel_spec> all = specs();
  if (full_run()) return all;
  std::mt19937 rng(19);  // fixed: the same sample every run
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(sample_kernels);
  return all;
}

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fputs("usage: occcalc_amd_llvm_test <clang> <label> [<largest size of an unsized kernel>]\n", stderr);
    return 2;
  }
  if (argc == 4) unsized_max_work_group = std::stoll(argv[3]);
  const std::string label = argv[2];
  if (std::string(argv[1]).empty() || std::string(argv[1]).find("NOTFOUND") != std::string::npos) {
    std::printf("%s not found at configure time: skipped\n", label.c_str());
    return skipped;
  }
  const std::string clang = argv[1];
  const occcalc::table tables = occcalc::cli::compiled_tables();
  const auto dir = std::filesystem::temp_directory_path() / ("occcalc-amd-llvm-test-" + label);
  std::filesystem::create_directories(dir);
  const auto kernels = chosen_specs();
  std::ofstream(dir / "kernels.hip") << source(kernels, INT64_MAX);
  std::ofstream(dir / "small.hip") << source(kernels, small_lds_limit_bytes);

  struct job {
    const occcalc::amd_target* target;
    std::int64_t wave_size;
    bool wgp;
  };
  // Every target in every wave size and mode; the fast tests take each
  // target's wave sizes and modes once apiece (an RDNA target: wave32 in WGP
  // mode and wave64 in CU mode), the full run every pairing.
  std::vector<job> jobs;
  for (const auto& t : tables.amd_targets) {
    if (!t.supports(occcalc::amd_model::llvm)) continue;  // VLIW: no compiler occupancy
    std::vector<job> pairings;
    for (const auto& file : t.vgpr_files) {
      for (const bool wgp : {true, false}) {
        if (!wgp && !t.has_wgp_mode) continue;
        pairings.push_back({&t, file.wave_size, wgp});
      }
    }
    if (!full_run() && pairings.size() == 4) pairings = {pairings.front(), pairings.back()};
    jobs.insert(jobs.end(), pairings.begin(), pairings.end());
  }
  long long checked = 0, checked_results = 0, mismatches = 0;
  // The remarks of every compile against its code object, kernel for kernel.
  long long remark_kernels = 0, remark_mismatches = 0;
  std::set<std::string> remark_targets;
  const auto check_remarks = [&](const occcalc::amd_target& t, const job& j, const std::string& name,
                                 const compiled& c) {
    ++remark_kernels;
    remark_targets.insert(t.id);
    if (c.remarks_differ.empty()) return;
    ++remark_mismatches;
    std::printf("MISMATCH (remarks) %s wave%lld %s %s:%s\n", t.id.c_str(), static_cast<long long>(j.wave_size),
                j.wgp ? "wgp" : "cu", name.c_str(), c.remarks_differ.c_str());
  };
  std::map<std::string, long long> per_target;  // kernels x modes checked
  std::vector<std::string> unknown;
  std::size_t next = 0;
  while (next < jobs.size()) {
    // Two compilers at a time.
    std::vector<std::future<std::optional<std::map<std::string, compiled>>>> running;
    std::vector<job> batch;
    for (int i = 0; i < 2 && next < jobs.size(); ++i, ++next) {
      const job j = jobs[next];
      const bool small = j.target->family == "GCN1" || j.target->family == "GCN2";
      batch.push_back(j);
      running.push_back(std::async(std::launch::async, compile, clang, dir, j.target->id,
                                   dir / (small ? "small.hip" : "kernels.hip"), j.wave_size, j.wgp,
                                   j.target->has_wgp_mode));
    }
    for (std::size_t b = 0; b < batch.size(); ++b) {
      const auto result = running[b].get();
      const auto& j = batch[b];
      if (!result) {
        if (unknown.empty() || unknown.back() != j.target->id) unknown.push_back(j.target->id);
        continue;
      }
      for (const auto& spec : kernels) {
        const auto found = result->find(spec.name);
        if (found == result->end()) continue;  // too much LDS for this target
        const auto& c = found->second;
        occcalc::amd_kernel k;
        k.vgprs = c.vgprs;
        k.agprs = c.agprs;
        k.sgprs = c.sgprs;
        k.lds_bytes = c.lds;
        k.min_work_group_size = spec.work_group ? spec.work_group : 1;
        k.max_work_group_size = spec.work_group ? spec.work_group : unsized_max_work_group;
        const auto o = occcalc::amd_llvm_occupancy(*j.target, k, {j.wave_size, j.wgp});
        ++checked;
        check_remarks(*j.target, j, spec.name, c);
        ++per_target[j.target->id];
        if (spec.work_group) {
          // A required size is the calculator's case: the result the command
          // line prints must say the same.
          const auto r = occcalc::amd_llvm_result(*j.target, k, {j.wave_size, j.wgp}, spec.work_group);
          ++checked_results;
          if (r.waves_per_simd != static_cast<double>(c.occupancy)) {
            ++mismatches;
            std::printf("MISMATCH (result) %s wave%lld %s %s: clang %lld, occcalc %g\n", j.target->id.c_str(),
                        static_cast<long long>(j.wave_size), j.wgp ? "wgp" : "cu", spec.name.c_str(),
                        static_cast<long long>(c.occupancy), r.waves_per_simd);
          }
        }
        if (o.waves_per_simd != c.occupancy) {
          ++mismatches;
          std::printf(
              "MISMATCH %s wave%lld %s %s: vgprs %lld agprs %lld sgprs %lld lds %lld -> clang %lld, occcalc %lld "
              "(vgpr %lld, sgpr %lld, work-group %lld)\n",
              j.target->id.c_str(), static_cast<long long>(j.wave_size), j.wgp ? "wgp" : "cu", spec.name.c_str(),
              static_cast<long long>(c.vgprs), static_cast<long long>(c.agprs), static_cast<long long>(c.sgprs),
              static_cast<long long>(c.lds), static_cast<long long>(c.occupancy),
              static_cast<long long>(o.waves_per_simd), static_cast<long long>(o.vgpr_waves),
              static_cast<long long>(o.sgpr_waves), static_cast<long long>(o.work_group_waves));
        }
      }
    }
  }
  // The limits table's edges, a compile per target and mode, two at a time.
  long long edges = 0, edge_mismatches = 0;
  std::map<std::string, long long> edges_per_target;
  std::vector<job> edge_jobs;
  for (const auto& j : jobs) {
    const bool known = std::find(unknown.begin(), unknown.end(), j.target->id) == unknown.end();
    const bool sampled =
        full_run() || std::find(edge_sample.begin(), edge_sample.end(), j.target->id) != edge_sample.end();
    if (known && sampled) edge_jobs.push_back(j);
  }
  for (std::size_t first = 0; first < edge_jobs.size(); first += 2) {
    std::vector<std::future<std::optional<std::map<std::string, compiled>>>> running;
    const std::size_t end = std::min(first + 2, edge_jobs.size());
    for (std::size_t i = first; i < end; ++i) {
      const auto& j = edge_jobs[i];
      const auto input = dir / ("edges" + std::to_string(i) + ".hip");
      std::ofstream(input) << edge_source(*j.target, {j.wave_size, j.wgp});
      running.push_back(std::async(std::launch::async, compile, clang, dir, j.target->id, input, j.wave_size, j.wgp,
                                   j.target->has_wgp_mode));
    }
    for (std::size_t i = first; i < end; ++i) {
      const auto& j = edge_jobs[i];
      const auto result = running[i - first].get();
      const char* mode = j.wgp ? "wgp" : "cu";
      if (!result || result->empty()) {
        ++edge_mismatches;
        std::printf("EDGES %s wave%lld %s: %s did not compile the edge kernels\n", j.target->id.c_str(),
                    static_cast<long long>(j.wave_size), mode, label.c_str());
        continue;
      }
      const auto levels = occcalc::amd_limits(*j.target, {j.wave_size, j.wgp}, edge_work_group);
      for (const auto& [name, c] : *result) {
        check_remarks(*j.target, j, name, c);
        ++edges;
        ++edges_per_target[j.target->id];
        const std::int64_t expected = table_waves(levels, *j.target, c);
        if (expected != c.occupancy) {
          ++edge_mismatches;
          std::printf("MISMATCH (limits) %s wave%lld %s %s: vgprs %lld sgprs %lld lds %lld -> clang %lld, table %lld\n",
                      j.target->id.c_str(), static_cast<long long>(j.wave_size), mode, name.c_str(),
                      static_cast<long long>(c.vgprs), static_cast<long long>(c.sgprs), static_cast<long long>(c.lds),
                      static_cast<long long>(c.occupancy), static_cast<long long>(expected));
        }
      }
    }
  }
  mismatches += edge_mismatches + remark_mismatches;

  std::string names;
  for (const auto& u : unknown) names += " " + u;
  std::printf("not known to %s:%s\n", label.c_str(), names.c_str());
  for (const auto& [target, count] : per_target) std::printf("  %s: %lld\n", target.c_str(), count);
  std::printf(
      "total: %lld kernels x targets x modes (%lld of them also through the calculator's result), %lld "
      "mismatches against %s's Occupancy\n",
      checked, checked_results, mismatches - edge_mismatches - remark_mismatches, label.c_str());
  std::printf("limits table at its edges (%lld work-items):", static_cast<long long>(edge_work_group));
  for (const auto& [target, count] : edges_per_target) std::printf(" %s %lld", target.c_str(), count);
  std::printf("\nlimits table: %lld edge kernels, %lld mismatches against %s's Occupancy\n", edges, edge_mismatches,
              label.c_str());
  std::printf("remarks: %lld kernels on %zu targets, every figure against the code object's, %lld mismatches\n",
              remark_kernels, remark_targets.size(), remark_mismatches);
  std::filesystem::remove_all(dir);
  // The full run's counts are docs/amd.md's.
  bool stated = true;
  if (full_run()) {
    using occcalc::test::states;
    using occcalc::test::with_commas;
    const std::string doc = "docs/amd.md";
    stated = states(doc, "**" + with_commas(checked) + " cases, 0 mismatches**") &&
             states(doc, "(" + with_commas(checked_results) + " of them also through the calculator's result") &&
             states(doc, label + ": " + with_commas(edges) + " edge kernels");
  }
  return mismatches == 0 && stated ? 0 : 1;
}
