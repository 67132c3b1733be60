#include "inspect/inspect.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "inspect/compiler_log.hpp"
#include "inspect/demangle.hpp"
#include "inspect/elf.hpp"
#include "inspect/fatbin.hpp"

namespace occcalc::inspect {

namespace {

/// Host ELF sections that hold fat binaries (fatbinary_section.h):
/// `.nv_fatbin` in objects, executables and libraries; `__nv_relfatbin` in
/// `-rdc` objects. An executable linked from `-rdc` objects keeps their
/// relocatable fat binaries too, beside the linked ones in `.nv_fatbin`:
/// those are the kernels that run, so `__nv_relfatbin` is read only where
/// there is no `.nv_fatbin`.
constexpr std::string_view linked_fatbin_section = ".nv_fatbin";
constexpr std::string_view relocatable_fatbin_section = "__nv_relfatbin";

constexpr std::string_view archive_magic = "!<arch>\n";

/// Sections searched for fat binaries a library embeds as data and loads
/// itself: loaded, non-executable program data (`.rodata`, `.ldata`, ...).
bool holds_embedded_fatbins(const elf_section& s) {
  constexpr std::uint32_t progbits = 1;
  constexpr std::uint64_t alloc = 0x2;
  constexpr std::uint64_t executable = 0x4;
  return s.type == progbits && (s.flags & alloc) != 0 && (s.flags & executable) == 0 &&
         s.name != relocatable_fatbin_section;
}

std::vector<inspected_kernel> with_names(std::vector<kernel_resources> kernels, const std::string& origin) {
  std::vector<inspected_kernel> out;
  out.reserve(kernels.size());
  for (auto& k : kernels) {
    if (!origin.empty()) k.origin = k.origin.empty() ? origin : origin + ", " + k.origin;
    std::string demangled = demangle(k.name);
    out.push_back({std::move(k), std::move(demangled)});
  }
  return out;
}

/// A fat binary entry to read, and where it came from.
struct work_item {
  fatbin_entry entry;
  std::string origin;
};

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

/// Reads the cubin entries, `options.workers` at a time, keeping their order.
void read_entries(const std::vector<work_item>& items, const inspect_options& options, inspection& out) {
  std::vector<std::vector<inspected_kernel>> results(items.size());
  std::vector<std::exception_ptr> errors(items.size());
  std::atomic<std::size_t> next{0};
  release_tracker released(items, options.done_with);
  const auto work = [&] {
    scratch_buffer buffer;
    for (std::size_t i = next++; i < items.size(); i = next++) {
      try {
        const auto& item = items[i];
        const byte_view cubin = entry_contents(item.entry, buffer);
        results[i] = with_names(read_cubin(cubin, options.reserve), item.origin);
      } catch (...) {
        errors[i] = std::current_exception();
      }
      released.finished(i);
    }
  };
  const unsigned workers = std::max(1u, std::min<unsigned>(options.workers, static_cast<unsigned>(items.size())));
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < workers; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (errors[i]) {
      try {
        std::rethrow_exception(errors[i]);
      } catch (const format_error& e) {
        throw format_error(items[i].origin + ": " + e.what());
      }
    }
  }
  for (auto& r : results) std::move(r.begin(), r.end(), std::back_inserter(out.kernels));
}

void add_entries(byte_view region, const std::string& where, std::vector<work_item>& items, inspection& out) {
  std::size_t index = 0;
  for (const auto& entry : fatbin_entries(region)) {
    ++index;
    if (entry.kind != fatbin_kind_elf) {
      ++out.skipped_entries;
      continue;
    }
    std::string origin = fmt::format("{}entry {} (sm_{}", where, index, entry.arch);
    if (entry.compressed != compression::none) origin += fmt::format(", {}", to_string(entry.compressed));
    items.push_back({entry, origin + ")"});
  }
}

}  // namespace

inspection inspect_bytes(byte_view bytes, const inspect_options& options) {
  inspection out;
  std::vector<work_item> items;
  if (is_elf(bytes)) {
    const elf_file file(bytes);
    if (file.machine() == elf::machine_cuda) {
      out.kind = "cubin";
      out.kernels = with_names(read_cubin(bytes, options.reserve), "");
      return out;
    }
    out.kind = "host ELF";
    const std::string_view wanted =
        file.find_section(linked_fatbin_section) != nullptr ? linked_fatbin_section : relocatable_fatbin_section;
    for (const auto& section : file.sections()) {
      if (section.name == wanted) {
        add_entries(file.contents(section), std::string(wanted) + " ", items, out);
      } else if (holds_embedded_fatbins(section)) {
        const byte_view data = file.contents(section);
        for (const auto& found : find_embedded_fatbins(data)) {
          add_entries(data.sub(found.offset, found.size, "an embedded fat binary"),
                      fmt::format("{}+{:#x} ", section.name, found.offset), items, out);
        }
        if (options.done_with) options.done_with(data);  // scanned; entries are read again later
      }
    }
  } else if (is_fatbin(bytes)) {
    out.kind = "fatbin";
    add_entries(bytes, "", items, out);
  } else if (bytes.as_text().substr(0, archive_magic.size()) == archive_magic) {
    throw format_error("a static library (ar archive); extract its objects with 'ar x' and inspect those");
  } else if (is_compiler_log(bytes.as_text())) {
    out.kind = "compiler log";
    out.kernels = with_names(read_compiler_log(bytes.as_text(), options.reserve), "");
    return out;
  } else {
    throw format_error("not a cubin, fat binary, ELF file, or ptxas / nvlink output");
  }
  read_entries(items, options, out);
  return out;
}

}  // namespace occcalc::inspect
