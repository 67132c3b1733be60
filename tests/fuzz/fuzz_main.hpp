// The replay main of every fuzz target: without libFuzzer (a plain build),
// a target is a program that runs LLVMFuzzerTestOneInput over each file it
// is given, which CTest does over the target's seed corpus and the saved
// findings.
#pragma once

#ifdef OCCCALC_FUZZ_REPLAY
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::ifstream file(argv[i], std::ios::binary);
    const std::vector<unsigned char> bytes(std::istreambuf_iterator<char>(file), {});
    if (!file && !file.eof()) {
      std::cerr << argv[i] << ": cannot read\n";
      return 2;
    }
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  }
  std::cout << "replayed " << (argc - 1) << " inputs\n";
  return 0;
}
#endif
