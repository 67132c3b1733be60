// The LLVM model against its authority: clang-19's own `; Occupancy:` line.
//
// Generates OpenCL kernels with varied register pressure, LDS and
// reqd_work_group_size, compiles them with clang-19 for every AMD target in
// data/amd-targets.json that clang-19 knows, in every wave size and (gfx10
// and later) in WGP and CU mode, feeds occcalc the compiler's NumVgprs,
// NumAgprs, NumSgprs and LDSByteSize, and compares waves per SIMD with the
// compiler's Occupancy. Prints every mismatch; exits 1 if there is any, 77
// (skipped) without clang-19. The fast tests compile a seeded sample of the
// kernels for every target and mode; OCCCALC_FULL_AUTHORITIES=1 all of them.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/embedded_tables.hpp"
#include "occcalc/amd/occupancy.hpp"
#include "occcalc/tables/load.hpp"

namespace {

constexpr int skipped = 77;
/// OpenCL kernels without reqd_work_group_size: clang's default flat
/// work-group size range.
constexpr std::int64_t opencl_default_max_work_group = 256;
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
  for (const auto& k : kernels) {
    if (k.lds_floats * 4 > max_lds_bytes) continue;
    s << "__kernel void ";
    if (k.work_group) s << "__attribute__((reqd_work_group_size(" << k.work_group << ",1,1))) ";
    s << k.name << "(__global float* restrict out, __global const float* restrict in) {\n";
    if (k.lds_floats) {
      s << "  __local float tile[" << k.lds_floats << "];\n  tile[get_local_id(0) % " << k.lds_floats
        << "] = in[get_global_id(0)];\n  barrier(CLK_LOCAL_MEM_FENCE);\n";
    }
    s << "  float s = 0.0f;\n";
    if (k.accumulators) {
      const auto n = std::to_string(k.accumulators);
      s << "  float a[" << n << "];\n  for (int j = 0; j < " << n << "; ++j) a[j] = in[get_global_id(0) * " << n
        << " + j];\n  for (int it = 0; it < 4; ++it) for (int j = 0; j < " << n
        << "; ++j) a[j] = a[j] * a[(j + it + 1) % " << n << "] + 1.0f;\n  for (int j = 0; j < " << n
        << "; ++j) s += a[j];\n";
    }
    if (k.lds_floats) s << "  s += tile[(get_local_id(0) * 7) % " << k.lds_floats << "];\n";
    s << "  out[get_global_id(0)] = s;\n}\n";
  }
  return s.str();
}

struct compiled {
  std::int64_t vgprs = 0, agprs = 0, sgprs = 0, lds = 0, occupancy = -1;
};

/// Runs clang-19; empty when it does not know the target.
std::optional<std::map<std::string, compiled>> compile(const std::string& clang, const std::filesystem::path& dir,
                                                       const std::string& target, bool small_lds,
                                                       std::int64_t wave_size, bool wgp, bool rdna) {
  const std::string tag = target + "_w" + std::to_string(wave_size) + (wgp ? "_wgp" : "_cu");
  const auto input = dir / (small_lds ? "small.cl" : "kernels.cl");
  const auto output = dir / (tag + ".s");
  std::string command = clang + " -x cl " + (small_lds ? "-cl-std=CL1.2" : "-cl-std=CL2.0") +
                        " --target=amdgcn-amd-amdhsa -mcpu=" + target + " -nogpulib -O2 -S " + input.string() + " -o " +
                        output.string();
  if (rdna && wave_size == 64) command += " -mwavefrontsize64";
  if (rdna && !wgp) command += " -mcumode";
  command += " 2>" + (dir / (tag + ".err")).string();
  if (std::system(command.c_str()) != 0) return std::nullopt;
  std::ifstream file(output);
  std::map<std::string, compiled> out;
  std::string line, current;
  const std::regex kernel(R"(^\s*\.amdhsa_kernel (\S+))");
  const std::regex figure(R"(^; (NumVgprs|NumAgprs|NumSgprs|Occupancy): (\d+))");
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
      if (m[1] == "NumSgprs") c.sgprs = v;
      if (m[1] == "Occupancy") c.occupancy = v;
    } else if (!current.empty() && std::regex_search(line, m, lds)) {
      out[current].lds = std::stoll(m[1]);
    }
  }
  return out;
}

}  // namespace

/// Kernels of the seeded sample the fast tests compile for every target and
/// mode; `OCCCALC_FULL_AUTHORITIES=1` (the authorities workflow preset)
/// compiles all of them.
constexpr std::size_t sample_kernels = 24;

/// Every kernel spec, or the fixed sample of them.
std::vector<kernel_spec> chosen_specs() {
  std::vector<kernel_spec> all = specs();
  const char* full = std::getenv("OCCCALC_FULL_AUTHORITIES");
  if (full != nullptr && std::string(full) == "1") return all;
  std::mt19937 rng(19);  // fixed: the same sample every run
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(sample_kernels);
  return all;
}

int main() {
#ifndef OCCCALC_CLANG19
  std::puts("clang-19 not found at configure time: skipped");
  return skipped;
#else
  const std::string clang = OCCCALC_CLANG19;
  const occcalc::table tables = occcalc::load_tables(occcalc::cli::embedded_tables());
  const auto dir = std::filesystem::temp_directory_path() / "occcalc-amd-llvm-test";
  std::filesystem::create_directories(dir);
  const auto kernels = chosen_specs();
  std::ofstream(dir / "kernels.cl") << source(kernels, INT64_MAX);
  std::ofstream(dir / "small.cl") << source(kernels, small_lds_limit_bytes);

  struct job {
    const occcalc::amd_target* target;
    std::int64_t wave_size;
    bool wgp;
  };
  std::vector<job> jobs;
  for (const auto& t : tables.amd_targets) {
    if (!t.supports(occcalc::amd_model::llvm)) continue;  // VLIW: no compiler occupancy
    for (const auto& file : t.vgpr_files) {
      for (const bool wgp : {true, false}) {
        if (!wgp && !t.has_wgp_mode) continue;
        jobs.push_back({&t, file.wave_size, wgp});
      }
    }
  }
  long long checked = 0, checked_results = 0, mismatches = 0;
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
      running.push_back(std::async(std::launch::async, compile, clang, dir, j.target->id, small, j.wave_size, j.wgp,
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
        k.max_work_group_size = spec.work_group ? spec.work_group : opencl_default_max_work_group;
        const auto o = occcalc::amd_llvm_occupancy(*j.target, k, {j.wave_size, j.wgp});
        ++checked;
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
  std::string names;
  for (const auto& u : unknown) names += " " + u;
  std::printf("not known to clang-19:%s\n", names.c_str());
  std::printf(
      "total: %lld kernels x targets x modes (%lld of them also through the calculator's result), %lld "
      "mismatches against clang-19's Occupancy\n",
      checked, checked_results, mismatches);
  std::filesystem::remove_all(dir);
  return mismatches == 0 ? 0 : 1;
#endif
}
