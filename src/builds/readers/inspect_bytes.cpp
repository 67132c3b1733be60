#include "builds/readers/inspect_bytes.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "builds/readers/amdgpu_assembly.hpp"
#include "builds/readers/amdgpu_code_object.hpp"
#include "builds/readers/amdgpu_remarks.hpp"
#include "builds/readers/ar_archive.hpp"
#include "builds/readers/budgets.hpp"
#include "builds/readers/compiler_log.hpp"
#include "builds/readers/elf.hpp"
#include "builds/readers/fatbin.hpp"
#include "builds/readers/fatbin_entries.hpp"
#include "builds/readers/identify.hpp"
#include "builds/readers/offload_bundle.hpp"
#include "builds/readers/page_advice.hpp"
#include "builds/readers/parallel.hpp"
#include "builds/readers/ptx.hpp"

namespace occcalc::inspect {

namespace {

/// Host ELF sections that hold fat binaries (fatbinary_section.h):
/// `.nv_fatbin` in objects, executables and libraries; `__nv_relfatbin` in
/// `-rdc` objects. An executable linked from `-rdc` objects keeps their
/// relocatable fat binaries too, beside the linked ones in `.nv_fatbin`:
/// those are the kernels that run, so `__nv_relfatbin` is read only where
/// there is no `.nv_fatbin`.
constexpr std::string_view linked_fatbin_section = ".nv_fatbin";
/// Where HIP host objects and executables keep their offload bundles.
constexpr std::string_view hip_fatbin_section = ".hip_fatbin";
constexpr std::string_view relocatable_fatbin_section = "__nv_relfatbin";

/// Hands finished payloads to `done_with` in file order, in runs of at least
/// `min_release_bytes`: dropping pages one entry at a time would cost a TLB
/// shootdown across the workers per entry.
class release_tracker {
 public:
  release_tracker(const std::vector<work_item>& items, const std::function<void(byte_view)>& done_with)
      : items_(items), done_with_(done_with), finished_(items.size()) {}

  void finished(std::size_t index) {
    if (!done_with_) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    finished_[index] = true;
    while (next_ < items_.size() && finished_[next_]) ++next_;
    const std::size_t first = first_;
    const auto* begin = items_[first].entry.payload.data();
    const auto& last = items_[next_ - (next_ > first ? 1 : 0)].entry.payload;
    const auto* end = last.data() + last.size();
    if (next_ == first || end < begin || static_cast<std::size_t>(end - begin) < min_release_bytes) return;
    done_with_(byte_view(begin, static_cast<std::size_t>(end - begin)));
    first_ = next_ < items_.size() ? next_ : first;
  }

 private:
  static constexpr std::size_t min_release_bytes = std::size_t{8} << 20;
  const std::vector<work_item>& items_;
  const std::function<void(byte_view)>& done_with_;
  std::mutex mutex_;
  std::vector<bool> finished_;
  std::size_t next_ = 0;   // the first entry not finished
  std::size_t first_ = 0;  // the first finished entry not released
};

/// Hands the fat binaries whose entries were planned to `done_with`.
/// Planning reads each entry's header, and finding repeats its payload's
/// first and last bytes; the kernel maps each fault's neighbours too, so
/// that maps most of the fat binaries, which would
/// stay mapped until their entries were read. Dropped, a page is mapped
/// again from the page cache when a worker reads it.
void done_with_planned(const std::vector<byte_view>& planned, const inspect_options& options) {
  if (!options.done_with) return;
  for (const auto& region : planned) options.done_with(region);
}

/// `parallel_for` with a scratch buffer per thread.
template <typename Task>
void run_parallel(std::size_t count, unsigned workers, Task&& task) {
  parallel_for<scratch_buffer>(count, workers, std::forward<Task>(task));
}

/// Reads one cubin entry.
std::vector<inspected_kernel> read_item(const work_item& item, scratch_buffer& buffer) {
  try {
    auto kernels = read_cubin(entry_contents(item.entry, buffer));
    for (auto& k : kernels) {
      // The entry names the suffix (a family cubin's is otherwise only in
      // ptxas' options), and the GPU that would load it where that is another.
      if (item.target.sm != k.arch.sm || item.entry.feature != target_features::none) k.arch = item.target;
    }
    return with_names(std::move(kernels), item.origin);
  } catch (const format_error& e) {
    throw format_error(item.origin + ": " + e.what());
  }
}

/// Finds entries whose stored bytes repeat an earlier entry's: libraries
/// link the same device code into many fat binaries (libcublasLt's 5,449
/// cubins hold 892 distinct ones). A repeat is neither decompressed nor
/// listed again. Candidates are found by size and a hash of the first and
/// last bytes (hashing whole payloads would cost more than it saves), and
/// each is confirmed byte for byte, so different cubins are never merged.
class duplicate_finder {
 public:
  /// Marks in `repeat_of` the earlier entry each of `items` may repeat
  /// (including entries of earlier calls).
  std::vector<std::optional<std::size_t>> candidates(const std::vector<work_item>& items) {
    std::vector<std::optional<std::size_t>> repeat_of(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      const auto& e = items[i].entry;
      const auto [it, inserted] =
          first_.try_emplace(key{sample_hash(e.payload), e.payload.size(), e.compressed}, seen_.size());
      if (!inserted) repeat_of[i] = it->second;
      seen_.push_back(e.payload);
    }
    return repeat_of;
  }

  /// Whether entry `item` (numbered after all earlier calls' entries) is
  /// byte for byte the candidate `earlier`.
  bool same(const work_item& item, std::size_t earlier) const {
    const byte_view a = item.entry.payload;
    const byte_view b = seen_[earlier];
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0;
  }

 private:
  static std::size_t sample_hash(byte_view payload) {
    constexpr std::size_t sample_bytes = 256;
    const std::string_view text = payload.as_text();
    const std::size_t n = std::min(sample_bytes, text.size());
    const std::hash<std::string_view> hash;
    return hash(text.substr(0, n)) * 31 + hash(text.substr(text.size() - n));
  }

  struct key {
    std::size_t hash;
    std::size_t size;
    compression compressed;
    bool operator==(const key& o) const noexcept {
      return hash == o.hash && size == o.size && compressed == o.compressed;
    }
  };
  struct key_hash {
    std::size_t operator()(const key& k) const noexcept { return k.hash ^ (k.size * 0x9e3779b97f4a7c15ull); }
  };
  std::unordered_map<key, std::size_t, key_hash> first_;
  std::vector<byte_view> seen_;
};

/// A stretch of a data section to search for embedded fat binaries.
struct scan_task {
  const elf_section* section;
  byte_view data;  // the whole section
  std::uint64_t from;
  std::uint64_t to;
};

/// Data sections are searched in pieces of this size, in parallel with the
/// reading of the linked fat binaries.
constexpr std::uint64_t scan_piece_bytes = std::uint64_t{16} << 20;

/// The kernels of the AMDGPU code objects in the offload bundles in
/// `region`, appended to `out`; other entries (the host's, non-AMDGPU ones)
/// are counted as skipped unless empty.
void add_bundled_kernels(byte_view region, const std::string& where, inspection& out) {
  scratch_buffer buffer;
  for_each_bundle_entry(region, buffer, [&](const bundle_entry& entry, std::uint64_t bundle_offset) {
    if (entry.contents.empty()) return;  // the host's placeholder
    if (!is_elf(entry.contents)) {
      ++out.skipped_entries;
      return;
    }
    const elf_file code_object(entry.contents);
    if (code_object.machine() != elf::machine_amdgpu) {
      ++out.skipped_entries;
      return;
    }
    auto kernels = with_names(read_amdgpu_code_object(code_object),
                              fmt::format("{}bundle at {:#x}, {}", where, bundle_offset, entry.triple));
    std::move(kernels.begin(), kernels.end(), std::back_inserter(out.kernels));
  });
}

/// Reads `items` (each repeat of an earlier entry only counted) and runs
/// `scans` on the same workers, so the search of data sections overlaps the
/// decompression; appends the kernels to `out` in item order and returns
/// what each scan found. `planned`, the fat binaries the items come from,
/// goes to `done_with` once the repeats' candidates are found.
std::vector<std::vector<embedded_fatbin>> read_in_parallel(const std::vector<work_item>& items,
                                                           const std::vector<byte_view>& planned,
                                                           const std::vector<scan_task>& scans,
                                                           duplicate_finder& duplicates, const inspect_options& options,
                                                           inspection& out) {
  const auto repeat_of = duplicates.candidates(items);
  done_with_planned(planned, options);
  std::vector<std::vector<inspected_kernel>> results(items.size());
  std::vector<std::vector<embedded_fatbin>> found(scans.size());
  std::vector<char> repeated(items.size());
  release_tracker released(items, options.done_with);
  run_parallel(scans.size() + items.size(), options.workers, [&](std::size_t i, scratch_buffer& buffer) {
    if (i < scans.size()) {
      const auto& scan = scans[i];
      found[i] = find_embedded_fatbins(scan.data, scan.from, scan.to);
      if (options.done_with) options.done_with(scan.data.sub(scan.from, scan.to - scan.from, "a data section"));
      return;
    }
    const std::size_t item = i - scans.size();
    repeated[item] = repeat_of[item] && duplicates.same(items[item], *repeat_of[item]);
    if (!repeated[item]) results[item] = read_item(items[item], buffer);
    released.finished(item);
  });
  out.duplicate_entries += static_cast<std::size_t>(std::count(repeated.begin(), repeated.end(), 1));
  // Into memory hinted before anything is written to it, the kernels read
  // before these included.
  std::size_t count = out.kernels.size();
  for (const auto& r : results) count += r.size();
  std::vector<inspected_kernel> kernels;
  kernels.reserve(count);
  prefer_huge_pages(kernels.data(), count * sizeof(inspected_kernel));
  std::move(out.kernels.begin(), out.kernels.end(), std::back_inserter(kernels));
  for (auto& r : results) std::move(r.begin(), r.end(), std::back_inserter(kernels));
  out.kernels = std::move(kernels);
  return found;
}

/// A host ELF file's fat binaries: HIP's offload bundles (read at once),
/// the linked (or else relocatable) fat binary section's entries into
/// `items` (the section into `planned`), and the data sections to search
/// for embedded ones into `scans`.
void plan_host_elf(const elf_file& host, const inspect_options& options, std::vector<work_item>& items,
                   std::vector<work_item>& ptx_items, std::vector<scan_task>& scans, std::vector<byte_view>& planned,
                   inspection& out) {
  if (const elf_section* hip = host.find_section(hip_fatbin_section)) {
    add_bundled_kernels(host.contents(*hip), std::string(hip_fatbin_section) + " ", out);
  }
  const std::string_view wanted =
      host.find_section(linked_fatbin_section) != nullptr ? linked_fatbin_section : relocatable_fatbin_section;
  for (const auto& section : host.sections()) {
    if (section.name == wanted) {
      plan_entries(host.contents(section), std::string(wanted) + " ", options.only_sm, items, ptx_items, out);
      planned.push_back(host.contents(section));
    } else if (holds_embedded_fatbins(section)) {
      const byte_view data = host.contents(section);
      for (std::uint64_t from = 0; from < data.size(); from += scan_piece_bytes) {
        scans.push_back({&section, data, from, std::min<std::uint64_t>(from + scan_piece_bytes, data.size())});
      }
    }
  }
}

/// Reads every member of a static library as its own input, its kernels'
/// origins naming the member. Members that hold no GPU code (host objects
/// without a fat binary, text) are counted in `skipped_members`.
void read_archive(byte_view bytes, const inspect_options& options, inspection& out);

}  // namespace

bool holds_embedded_fatbins(const elf_section& s) {
  constexpr std::uint32_t progbits = 1;
  constexpr std::uint64_t alloc = 0x2;
  constexpr std::uint64_t executable = 0x4;
  return s.type == progbits && (s.flags & alloc) != 0 && (s.flags & executable) == 0 &&
         s.name != relocatable_fatbin_section;
}

inspection inspect_bytes(byte_view bytes, const inspect_options& options) {
  inspection out;
  const input_kind kind = identify(bytes);
  out.kind = std::string(to_string(kind));
  std::vector<work_item> items;
  std::vector<work_item> ptx_items;
  std::vector<scan_task> scans;
  std::vector<byte_view> planned;  // the fat binaries whose entries are in `items` and `ptx_items`
  std::optional<elf_file> host;
  switch (kind) {
    case input_kind::cubin: out.kernels = with_names(read_cubin(bytes), ""); return out;
    case input_kind::amdgpu_code_object:
      out.kernels = with_names(read_amdgpu_code_object(elf_file(bytes)), "");
      return out;
    case input_kind::offload_bundle: add_bundled_kernels(bytes, "", out); return out;
    case input_kind::compiler_log: out.kernels = read_compiler_log_kernels(bytes.as_text()); return out;
    case input_kind::amdgpu_assembly: out.kernels = with_names(read_amdgpu_assembly(bytes.as_text()), ""); return out;
    case input_kind::ptx: add_ptx_kernels(bytes.as_text(), ptx_target(bytes.as_text()), "", out); return out;
    case input_kind::amdgpu_remarks:
      out.kernels = with_names(read_amdgpu_remarks(bytes.as_text(), &out.unread), "");
      return out;
    case input_kind::ar_archive: read_archive(bytes, options, out); return out;
    case input_kind::unknown:
      throw format_error(
          "not a cubin, fat binary, static library, AMD code object, offload bundle, ELF file, ptxas / nvlink output, "
          "or AMD assembly");
    case input_kind::host_elf:
      host.emplace(bytes);
      plan_host_elf(*host, options, items, ptx_items, scans, planned, out);
      break;
    case input_kind::fatbin:
      plan_entries(bytes, "", options.only_sm, items, ptx_items, out);
      planned.push_back(bytes);
      break;
  }

  // First the fat binaries' entries and the search of the data sections,
  // together; then the entries of the fat binaries found.
  std::uint64_t decompressed_bytes = 0;
  check_decompression_budget(items, bytes.size(), decompressed_bytes);
  check_decompression_budget(ptx_items, bytes.size(), decompressed_bytes);
  duplicate_finder duplicates;
  const auto found = read_in_parallel(items, planned, scans, duplicates, options, out);
  read_ptx_entries(ptx_items, options.only_sm, out);
  std::vector<work_item> embedded_items;
  std::vector<work_item> embedded_ptx_items;
  std::vector<byte_view> embedded_planned;
  std::uint64_t covered_to = 0;  // a fat binary found in one piece may run into the next
  const elf_section* section = nullptr;
  for (std::size_t i = 0; i < scans.size(); ++i) {
    if (scans[i].section != section) covered_to = 0;
    section = scans[i].section;
    for (const auto& f : found[i]) {
      if (f.offset < covered_to) continue;
      const byte_view embedded = scans[i].data.sub(f.offset, f.size, "an embedded fat binary");
      plan_entries(embedded, fmt::format("{}+{:#x} ", section->name, f.offset), options.only_sm, embedded_items,
                   embedded_ptx_items, out);
      embedded_planned.push_back(embedded);
      // Dropped as soon as planned, not with the others after the repeats'
      // candidates are found: planning maps most of each fat binary (the
      // kernel maps each fault's neighbours), and a library embeds hundreds
      // of them, which would otherwise all be held at once.
      if (options.done_with) options.done_with(embedded);
      covered_to = f.offset + f.size;
    }
  }
  check_decompression_budget(embedded_items, bytes.size(), decompressed_bytes);
  check_decompression_budget(embedded_ptx_items, bytes.size(), decompressed_bytes);
  read_in_parallel(embedded_items, embedded_planned, {}, duplicates, options, out);
  read_ptx_entries(embedded_ptx_items, options.only_sm, out);
  return out;
}

namespace {

void read_archive(byte_view bytes, const inspect_options& options, inspection& out) {
  for (const auto& member : ar_members(bytes)) {
    const input_kind kind = identify(member.contents);
    if (kind == input_kind::unknown || kind == input_kind::ar_archive || kind == input_kind::compiler_log ||
        kind == input_kind::amdgpu_assembly || kind == input_kind::ptx || kind == input_kind::amdgpu_remarks) {
      ++out.skipped_members;
      continue;
    }
    inspection inner;
    try {
      inner = inspect_bytes(member.contents, options);
    } catch (const format_error& e) {
      throw format_error(fmt::format("member {}: {}", member.name, e.what()));
    }
    if (inner.kernels.empty()) ++out.skipped_members;
    out.skipped_entries += inner.skipped_entries;
    out.lto_entries += inner.lto_entries;
    out.duplicate_entries += inner.duplicate_entries;
    out.ptx_sources_left_out += inner.ptx_sources_left_out;
    for (auto& source : inner.ptx_sources) {
      if (!out.room_for_ptx_source()) continue;
      source.first_kernel += out.kernels.size();
      out.ptx_sources.push_back(std::move(source));
    }
    for (auto& k : inner.kernels) {
      auto& origin = k.resources.origin;
      origin = origin.empty() ? member.name : member.name + ", " + origin;
      out.kernels.push_back(std::move(k));
    }
  }
}

}  // namespace

}  // namespace occcalc::inspect
