// A build's kernels as a comparison holds them: packed, so a baseline of a
// million kernels costs a few dozen bytes a kernel beyond its names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "builds/kernel_record.hpp"
#include "builds/readers/inspect_bytes.hpp"

namespace occcalc::cli {

/// One kernel of one build as a comparison reads it: its record, whose
/// launch is set only where the input states its own (a Triton kernel's
/// block size and dynamic shared memory, its metadata's: `block_size_from`
/// is then `triton`, and that launch wins over the command's), and its
/// file's path within its input.
struct build_kernel : kernel_record {
  /// `file` relative to the input given on the command line that held it
  /// (`lib/a.cubin` under `build`); empty for a file given itself. What
  /// identifies the file across two builds in two directories.
  std::string relative_path;
};

/// `file` relative to the input among `inputs` that holds it (the longest
/// that is `file` itself or a directory above it): a view into `file`, all
/// of it when no input holds it, empty when it is an input itself.
std::string_view relative_to_inputs(std::string_view file, const std::vector<std::string>& inputs);

/// The kernels of one build, each packed into one run of bytes (its names,
/// then only the figures it has, as variable-length integers): a
/// `build_kernel` is 632 bytes before its names, a packed minimal one about
/// 20. Kernels are read back by value; their names as views, valid while the
/// store lives.
class kernel_store {
 public:
  /// A store whose kernels' relative paths are taken against `inputs`.
  explicit kernel_store(std::vector<std::string> inputs = {});

  /// Sets the inputs the relative paths are taken against (a saved inspect
  /// may state them after its kernels).
  void set_inputs(std::vector<std::string> inputs) { inputs_ = std::move(inputs); }
  /// Adds a copy of `k`'s raw figures (a `build_kernel`'s `relative_path`
  /// is the store's to work out). Its launch is kept only where its input
  /// states it (`own_launch`), and a Triton config only with a Triton launch:
  /// a comparison gives the command's launch again.
  void push_back(const kernel_record& k);
  std::size_t size() const noexcept { return kernels_.size(); }
  bool empty() const noexcept { return kernels_.empty(); }
  /// The `i`th kernel, unpacked.
  build_kernel operator[](std::size_t i) const;

  /// What pairs a kernel with another build's: views into the store.
  struct identity {
    std::string_view file, relative_path, name, demangled, arch, origin, triton_config;
  };
  identity identity_of(std::size_t i) const;

 private:
  /// Bytes for one more kernel, from the current block or a new one: the
  /// blocks never move, so the views handed out stay valid.
  unsigned char* allocate(std::size_t bytes);

  std::vector<std::string> inputs_;
  /// Each kernel's packed bytes.
  std::vector<const unsigned char*> kernels_;
  std::vector<std::unique_ptr<unsigned char[]>> blocks_;
  unsigned char* free_ = nullptr;
  std::size_t free_bytes_ = 0;
  /// The distinct architectures, each kernel holding an index.
  std::vector<occcalc::gpu_target> archs_;
};

}  // namespace occcalc::cli
