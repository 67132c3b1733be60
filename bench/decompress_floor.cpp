// The floor for inspect of a host library: map the file, find its fat
// binaries (the `.nv_fatbin` section and those embedded in data sections,
// as inspect finds them), and decompress every cubin in them on one core,
// with the reader's own decompressor and buffer. Nothing is parsed beyond
// the fat binary headers, no kernel is read, nothing is printed but the
// totals: what any reader of the library must at least pay. bench/run
// compares `occcalc inspect` with it.
#include <cstdio>
#include <exception>

#include "builds/readers/decompress.hpp"
#include "builds/readers/elf.hpp"
#include "builds/readers/fatbin.hpp"
#include "builds/readers/inspect_bytes.hpp"
#include "builds/readers/mapped_file.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: occcalc_decompress_floor LIBRARY\n");
    return 2;
  }
  try {
    namespace in = occcalc::inspect;
    const in::mapped_file file(argv[1]);
    const in::elf_file elf(file.bytes());
    in::scratch_buffer buffer;
    std::uint64_t cubins = 0;
    std::uint64_t bytes = 0;
    const auto decompress_all = [&](in::byte_view fatbins) {
      for (const auto& entry : in::fatbin_entries(fatbins)) {
        if (entry.kind != in::fatbin_kind_elf) continue;
        bytes += in::entry_contents(entry, buffer).size();
        ++cubins;
      }
    };
    for (const auto& section : elf.sections()) {
      if (section.name == ".nv_fatbin") {
        decompress_all(elf.contents(section));
      } else if (in::holds_embedded_fatbins(section)) {
        const in::byte_view data = elf.contents(section);
        for (const auto& found : in::find_embedded_fatbins(data)) {
          decompress_all(data.sub(found.offset, found.size, "an embedded fat binary"));
        }
      }
    }
    std::printf("%llu cubins, %llu bytes decompressed\n", static_cast<unsigned long long>(cubins),
                static_cast<unsigned long long>(bytes));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[1], e.what());
    return 2;
  }
}
