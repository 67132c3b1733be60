// Where the tests find their fixtures and write their temporary files: one
// definition for every test file (a unity build compiles several in one
// translation unit).
#pragma once

#include <fstream>
#include <string>

namespace occcalc::test {

/// tests/fixtures: the NVIDIA binaries, logs and tables the tests read.
inline const std::string fixture_dir = OCCCALC_FIXTURE_DIR;

/// The two builds of diff.cu the diff and gate tests compare
/// (make-fixtures.sh).
inline const std::string old_build = fixture_dir + "/diff_old.sm_80.cubin";
inline const std::string new_build = fixture_dir + "/diff_new.sm_80.cubin";

/// The ptxas log of kernels.cu for sm_90 the format tests read, and the
/// strict policy they check it with (tests/golden).
inline const std::string log_fixture = fixture_dir + "/kernels.sm_90.log";
inline const std::string strict = std::string(OCCCALC_SOURCE_DIR) + "/tests/golden/strict-policy.json";

/// Writes `text` to `name` in the tests' temporary directory and returns
/// its path.
inline std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = std::string(OCCCALC_TEMP_DIR) + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace occcalc::test
