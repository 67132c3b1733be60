// A build's kernels packed into a store, for the commands that compare two
// builds (diff, check --baseline): from a saved inspect --json or from a
// build output through read_build().
#pragma once

#include <future>
#include <iosfwd>
#include <sstream>
#include <string>

#include "builds/kernel_store.hpp"
#include "builds/read_build.hpp"

namespace occcalc::cli {

/// One build's kernels that pass the selection, packed into a store (what
/// `diff` compares and `check --baseline` excuses against): a saved
/// `inspect --json`, or a build output read as `read_build` reads it, each
/// kernel at `overrides`; `path` is a file, a directory, a pipe or `-`
/// (standard input, `in`). Throws `occcalc::error` naming it.
kernel_store read_kernel_store(const occcalc::table& tables, const std::string& path, const build_request& request,
                               const launch_overrides& overrides, std::istream& in, std::ostream& err);

/// `read_kernel_store` on a thread of its own, started at once, so that it
/// overlaps other reading (a saved baseline's JSON is read on one thread):
/// what it says is held until `get`. Where no thread can be started, `get`
/// reads it.
class background_store {
 public:
  background_store(const occcalc::table& tables, std::string path, const build_request& request,
                   const launch_overrides& overrides, std::istream& in);
  background_store(const background_store&) = delete;
  background_store& operator=(const background_store&) = delete;
  ~background_store();

  /// Writes what the reading said to `err`, then returns the store or
  /// rethrows its error. Once only.
  kernel_store get(std::ostream& err);

 private:
  std::ostringstream said_;
  std::future<kernel_store> store_;
};

}  // namespace occcalc::cli
