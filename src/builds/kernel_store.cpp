#include "builds/kernel_store.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace occcalc::cli {

namespace {

using inspect::kernel_resources;

/// Compiles only while kernel_resources has exactly these members: one
/// added fails here until it is packed below (counts, dim_members or its own bits).
[[maybe_unused]] void every_member_is_packed(const kernel_resources& r) {
  [[maybe_unused]] const auto& [name, arch, registers, static_smem, smem_read_as, stack_frame, stack_size, local_memory,
                                spill_stores, spill_loads, barriers, max_threads, required_threads, register_cap,
                                min_blocks, cluster_dims, agprs, arch_vgprs, sgprs, wave_size, vgpr_spills, sgpr_spills,
                                compiler_waves, wgp_mode, origin] = r;
}

/// The counts a kernel may have, each packed only when it has it.
constexpr std::optional<std::int64_t> kernel_resources::*counts[] = {
    &kernel_resources::registers,
    &kernel_resources::static_shared_memory_bytes,
    &kernel_resources::stack_frame_bytes,
    &kernel_resources::stack_size_bytes,
    &kernel_resources::local_memory_bytes,
    &kernel_resources::spill_store_bytes,
    &kernel_resources::spill_load_bytes,
    &kernel_resources::barriers,
    &kernel_resources::register_cap,
    &kernel_resources::min_blocks_per_sm,
    &kernel_resources::agprs,
    &kernel_resources::arch_vgprs,
    &kernel_resources::sgprs,
    &kernel_resources::wave_size,
    &kernel_resources::vgpr_spills,
    &kernel_resources::sgpr_spills,
    &kernel_resources::compiler_waves_per_simd,
};
constexpr std::optional<inspect::dim3> kernel_resources::*dim_members[] = {
    &kernel_resources::max_threads, &kernel_resources::required_threads, &kernel_resources::cluster_dims};
/// The launch a kernel's input states (`build_kernel::own_launch`), kept
/// only where it does.
constexpr std::optional<std::int64_t> kernel_record::*launch[] = {&kernel_record::block_size,
                                                                  &kernel_record::dynamic_shared_memory_bytes};
constexpr std::size_t count_bits = std::size(counts), dim_bits = std::size(dim_members),
                      launch_bits = std::size(launch);
/// After the figures' bits: whether wgp_mode is known, and its value.
constexpr std::uint64_t wgp_known = std::uint64_t{1} << (count_bits + dim_bits + launch_bits);
constexpr std::uint64_t wgp_on = wgp_known << 1;

/// LEB128 of a zigzagged integer: a register count takes one byte.
void put(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}
std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v < 0 ? -1 : 0);
}
void put_text(std::string& out, std::string_view text) {
  put(out, text.size());
  out.append(text);
}

/// Reads back what `put` packed; the bytes are the store's own.
struct unpacker {
  const unsigned char* at;
  std::uint64_t number() {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const unsigned char byte = *at++;
      v |= std::uint64_t{byte & 0x7fu} << shift;
      if (byte < 0x80) return v;
    }
  }
  std::int64_t signed_number() {
    const std::uint64_t v = number();
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
  }
  std::string_view text() {
    const auto size = static_cast<std::size_t>(number());
    const std::string_view out(reinterpret_cast<const char*>(at), size);
    at += size;
    return out;
  }
};

/// A block holds this many bytes of packed kernels, or one larger kernel.
constexpr std::size_t block_bytes = std::size_t{1} << 20;

}  // namespace

std::string_view relative_to_inputs(std::string_view file, const std::vector<std::string>& inputs) {
  std::size_t best = std::string_view::npos;
  std::string_view relative = file;
  for (const auto& input : inputs) {
    std::string_view root = input;
    while (root.size() > 1 && root.back() == '/') root.remove_suffix(1);
    if (best != std::string_view::npos && root.size() <= best) continue;
    if (file == root) {
      best = root.size();
      relative = {};
    } else if (file.size() > root.size() && file.substr(0, root.size()) == root &&
               (file[root.size()] == '/' || root == "/")) {
      best = root.size();
      relative = file.substr(root.size() + (root == "/" ? 0 : 1));
    }
  }
  return relative;
}

kernel_store::kernel_store(std::vector<std::string> inputs) : inputs_(std::move(inputs)) {}

unsigned char* kernel_store::allocate(std::size_t bytes) {
  if (bytes > free_bytes_) {
    const std::size_t size = std::max(bytes, block_bytes);
    blocks_.push_back(std::make_unique<unsigned char[]>(size));
    free_ = blocks_.back().get();
    free_bytes_ = size;
  }
  unsigned char* out = free_;
  free_ += bytes;
  free_bytes_ -= bytes;
  return out;
}

// Packed: the architecture's index, the names, which figures it has, then
// each of them.
void kernel_store::push_back(const kernel_record& k) {
  const auto& r = k.kernel.resources;
  const bool triton = k.block_size_from == launch_source::triton;
  const auto arch = std::find_if(archs_.begin(), archs_.end(), [&](const occcalc::gpu_target& a) {
    return a.name == r.arch.name && a.vendor == r.arch.vendor && a.sm == r.arch.sm;
  });
  std::string packed;
  put(packed, static_cast<std::uint64_t>(arch - archs_.begin()));
  if (arch == archs_.end()) archs_.push_back(r.arch);
  for (const std::string_view text :
       {std::string_view(k.file), std::string_view(r.name), std::string_view(k.kernel.demangled),
        std::string_view(r.origin), triton ? std::string_view(k.triton_config) : std::string_view()}) {
    put_text(packed, text);
  }
  std::uint64_t has = 0, bit = 1;
  for (const auto count : counts) has |= (r.*count ? bit : 0), bit <<= 1;
  for (const auto dim : dim_members) has |= (r.*dim ? bit : 0), bit <<= 1;
  for (const auto figure : launch) has |= (k.own_launch() && k.*figure ? bit : 0), bit <<= 1;
  if (r.wgp_mode) has |= wgp_known | (*r.wgp_mode ? wgp_on : 0);
  put(packed, has);
  put(packed, static_cast<std::uint64_t>(r.shared_memory_read_as));
  for (const auto count : counts) {
    if (r.*count) put(packed, zigzag(*(r.*count)));
  }
  for (const auto dim : dim_members) {
    if (!(r.*dim)) continue;
    for (const auto n : *(r.*dim)) put(packed, zigzag(n));
  }
  for (const auto figure : launch) {
    if (k.own_launch() && k.*figure) put(packed, zigzag(*(k.*figure)));
  }
  unsigned char* to = allocate(packed.size());
  std::memcpy(to, packed.data(), packed.size());
  kernels_.push_back(to);
}

kernel_store::identity kernel_store::identity_of(std::size_t i) const {
  unpacker in{kernels_[i]};
  identity out;
  out.arch = archs_[in.number()].name;
  out.file = in.text();
  out.name = in.text();
  out.demangled = in.text();
  out.origin = in.text();
  out.triton_config = in.text();
  out.relative_path = relative_to_inputs(out.file, inputs_);
  return out;
}

build_kernel kernel_store::operator[](std::size_t i) const {
  unpacker in{kernels_[i]};
  build_kernel k;
  auto& r = k.kernel.resources;
  r.arch = archs_[in.number()];
  k.file = in.text();
  r.name = in.text();
  k.kernel.demangled = in.text();
  r.origin = in.text();
  k.triton_config = in.text();
  k.relative_path = relative_to_inputs(k.file, inputs_);
  const std::uint64_t has = in.number();
  r.shared_memory_read_as = static_cast<inspect::shared_memory_figure>(in.number());
  std::uint64_t bit = 1;
  for (const auto count : counts) {
    if (has & bit) r.*count = in.signed_number();
    bit <<= 1;
  }
  for (const auto dim : dim_members) {
    if (has & bit) {
      inspect::dim3 d{};
      for (auto& n : d) n = in.signed_number();
      r.*dim = d;
    }
    bit <<= 1;
  }
  for (const auto figure : launch) {
    if (has & bit) k.*figure = in.signed_number();
    bit <<= 1;
  }
  if (k.block_size) k.block_size_from = launch_source::triton;
  if (has & wgp_known) r.wgp_mode = (has & wgp_on) != 0;
  return k;
}

}  // namespace occcalc::cli
