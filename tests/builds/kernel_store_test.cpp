// A build's kernels packed (builds/kernel_store.hpp): every figure comes
// back as it went in, absent stays absent, and names are views that last.
#include "catch.hpp"

#include <limits>

#include "builds/kernel_store.hpp"

using occcalc::cli::build_kernel;
using occcalc::cli::kernel_store;
using occcalc::inspect::shared_memory_figure;

namespace {

/// A kernel with every figure set, each to its own value.
build_kernel every_figure() {
  build_kernel k;
  k.file = "build/lib/a.cubin";
  k.triton_config = "num_warps=4";
  k.block_size = 128;
  k.block_size_from = occcalc::cli::launch_source::triton;
  k.dynamic_shared_memory_bytes = 49152;
  k.kernel.demangled = "void demo::scale<float>(float*)";
  auto& r = k.kernel.resources;
  r.name = "_ZN4demo5scaleIfEEvPT_";
  r.arch = occcalc::parse_gpu_target("sm_90a");
  r.origin = ".nv_fatbin entry 39";
  r.registers = 255;
  r.static_shared_memory_bytes = 5120;
  r.shared_memory_read_as = shared_memory_figure::linker_report;
  r.stack_frame_bytes = 16;
  r.stack_size_bytes = 24;
  r.local_memory_bytes = 32;
  r.spill_store_bytes = 40;
  r.spill_load_bytes = 48;
  r.barriers = 2;
  r.max_threads = occcalc::inspect::dim3{256, 2, 1};
  r.required_threads = occcalc::inspect::dim3{128, 1, 1};
  r.register_cap = 64;
  r.min_blocks_per_sm = 3;
  r.cluster_dims = occcalc::inspect::dim3{2, 1, 1};
  r.agprs = 7;
  r.arch_vgprs = 9;
  r.sgprs = 11;
  r.wave_size = 64;
  r.vgpr_spills = 13;
  r.sgpr_spills = std::numeric_limits<std::int64_t>::max();
  r.wgp_mode = false;
  return k;
}

}  // namespace

TEST_CASE("kernel_store gives back every figure, and no figure it was not given", "[analysis][diff]") {
  kernel_store store({"build"});
  const build_kernel full = every_figure();
  build_kernel bare;
  bare.kernel.resources.name = "k";
  bare.kernel.resources.arch = occcalc::parse_gpu_target("gfx90a");
  store.push_back(full);
  store.push_back(bare);
  REQUIRE(store.size() == 2);

  const build_kernel k = store[0];
  const auto& r = k.kernel.resources;
  const auto& want = full.kernel.resources;
  CHECK(k.file == full.file);
  CHECK(k.relative_path == "lib/a.cubin");
  CHECK(k.triton_config == full.triton_config);
  CHECK(k.block_size == 128);
  CHECK(k.block_size_from == occcalc::cli::launch_source::triton);
  CHECK(k.dynamic_shared_memory_bytes == 49152);
  CHECK(k.kernel.demangled == full.kernel.demangled);
  CHECK(r.name == want.name);
  CHECK(r.arch.name == "sm_90a");
  CHECK(r.arch.sm == 90);
  CHECK(r.arch.vendor == occcalc::gpu_vendor::nvidia);
  CHECK(r.origin == want.origin);
  CHECK(r.registers == want.registers);
  CHECK(r.static_shared_memory_bytes == want.static_shared_memory_bytes);
  CHECK(r.shared_memory_read_as == shared_memory_figure::linker_report);
  CHECK(r.stack_frame_bytes == want.stack_frame_bytes);
  CHECK(r.stack_size_bytes == want.stack_size_bytes);
  CHECK(r.local_memory_bytes == want.local_memory_bytes);
  CHECK(r.spill_store_bytes == want.spill_store_bytes);
  CHECK(r.spill_load_bytes == want.spill_load_bytes);
  CHECK(r.barriers == want.barriers);
  CHECK(r.max_threads == want.max_threads);
  CHECK(r.required_threads == want.required_threads);
  CHECK(r.register_cap == want.register_cap);
  CHECK(r.min_blocks_per_sm == want.min_blocks_per_sm);
  CHECK(r.cluster_dims == want.cluster_dims);
  CHECK(r.agprs == want.agprs);
  CHECK(r.arch_vgprs == want.arch_vgprs);
  CHECK(r.sgprs == want.sgprs);
  CHECK(r.wave_size == want.wave_size);
  CHECK(r.vgpr_spills == want.vgpr_spills);
  CHECK(r.sgpr_spills == want.sgpr_spills);
  CHECK(r.wgp_mode == false);

  const build_kernel b = store[1];
  const auto& br = b.kernel.resources;
  CHECK(br.name == "k");
  CHECK(br.arch.name == "gfx90a");
  CHECK(br.arch.vendor == occcalc::gpu_vendor::amd);
  CHECK(b.file.empty());
  CHECK_FALSE(b.block_size);
  CHECK_FALSE(b.dynamic_shared_memory_bytes);
  CHECK_FALSE(br.registers);
  CHECK_FALSE(br.static_shared_memory_bytes);
  CHECK_FALSE(br.max_threads);
  CHECK_FALSE(br.required_threads);
  CHECK_FALSE(br.cluster_dims);
  CHECK_FALSE(br.sgpr_spills);
  CHECK_FALSE(br.wgp_mode);
  CHECK(br.shared_memory_read_as == shared_memory_figure::own);
}

TEST_CASE("kernel_store's names are views that outlive later kernels", "[analysis][diff]") {
  kernel_store store;
  build_kernel k = every_figure();
  store.push_back(k);
  const auto first = store.identity_of(0);
  // More than a block's worth of kernels after it, and one larger than a block.
  for (int i = 0; i < 20000; ++i) {
    k.kernel.resources.name = "_Z" + std::to_string(i) + std::string(60, 'x');
    store.push_back(k);
  }
  k.kernel.resources.name.assign(std::size_t{3} << 20, 'y');
  store.push_back(k);
  CHECK(first.name == "_ZN4demo5scaleIfEEvPT_");
  CHECK(first.arch == "sm_90a");
  CHECK(first.origin == ".nv_fatbin entry 39");
  CHECK(first.triton_config == "num_warps=4");
  CHECK(store.identity_of(20001).name.size() == std::size_t{3} << 20);
  CHECK(store[20000].kernel.resources.name == "_Z19999" + std::string(60, 'x'));
}

TEST_CASE("relative_to_inputs: the path under the longest input that holds it", "[analysis][diff]") {
  using occcalc::cli::relative_to_inputs;
  CHECK(relative_to_inputs("build/lib/a.cubin", {"build"}) == "lib/a.cubin");
  CHECK(relative_to_inputs("build/lib/a.cubin", {"build/", "build/lib"}) == "a.cubin");
  CHECK(relative_to_inputs("build/lib/a.cubin", {"build/lib/a.cubin"}).empty());
  CHECK(relative_to_inputs("builder/a.cubin", {"build"}) == "builder/a.cubin");
  CHECK(relative_to_inputs("/abs/a.cubin", {"/"}) == "abs/a.cubin");
  CHECK(relative_to_inputs("a.cubin", {}) == "a.cubin");
}

TEST_CASE("kernel_store keeps a kernel's launch only where its input states it", "[analysis][diff]") {
  // The command's launch (--threads, the policy) is the command's: a
  // comparison gives it again. A Triton kernel's is its metadata's, and
  // with it its config.
  kernel_store store(std::vector<std::string>{});
  build_kernel given = every_figure();
  given.block_size_from = occcalc::cli::launch_source::threads_option;
  store.push_back(given);
  store.push_back(every_figure());
  CHECK_FALSE(store[0].block_size);
  CHECK_FALSE(store[0].dynamic_shared_memory_bytes);
  CHECK_FALSE(store[0].own_launch());
  CHECK(store.identity_of(0).triton_config.empty());
  CHECK(store[1].own_launch());
  CHECK(store[1].block_size == 128);
  CHECK(store.identity_of(1).triton_config == "num_warps=4");
}
