#include "builds/read_store.hpp"

#include <optional>
#include <ostream>
#include <sstream>

#include "builds/directory.hpp"
#include "builds/kernel_matcher.hpp"
#include "builds/readers/mapped_file.hpp"
#include "builds/saved_inspect.hpp"
#include "occcalc/error.hpp"

namespace occcalc::cli {

namespace {

/// The first bytes that tell a saved inspect --json from a build output.
constexpr std::size_t sniff_bytes = 64;

/// Reads `path`'s kernels as inspect reads them, from `in` for standard
/// input; each report then names `path`.
kernel_store store_of_build(const occcalc::table& tables, const std::string& path, const build_request& request,
                            const launch_overrides& overrides, std::istream& in, std::ostream& err) {
  build_request one = request;
  one.inputs = {path != "-" && (is_directory(path) || is_regular_file(path)) ? path : "-"};
  /// Each kernel packed into the store as its report comes: the comparison
  /// makes the reports again, so none is kept (a build's reports took four
  /// times a 600,000-kernel baseline's size).
  class store_sink final : public report_sink {
   public:
    store_sink(kernel_store& store, const std::string& path) : store_(store), path_(path) {}
    void input(const input_report&, std::size_t) override {}
    void kernels(std::vector<kernel_report>& run) override {
      for (auto& r : run) {
        if (r.file == "-") r.file = path_;
        store_.push_back(r);
      }
    }
    bool evaluates() const override { return false; }

   private:
    kernel_store& store_;
    const std::string& path_;
  };
  kernel_store out({path});
  store_sink sink(out, path);
  const std::size_t failed = read_build(
      tables, one, in, err,
      [&](const inspect::inspected_kernel&) {
        return std::pair{overrides, launch_source::threads_option};
      },
      sink);
  if (failed > 0) throw occcalc::error(path + ": could not be read (see above)");
  return out;
}

}  // namespace

kernel_store read_kernel_store(const occcalc::table& tables, const std::string& path, const build_request& request,
                               const launch_overrides& overrides, std::istream& in, std::ostream& err) {
  if (path != "-" && is_directory(path)) return store_of_build(tables, path, request, overrides, in, err);
  const kernel_matcher filter = make_kernel_matcher(request.kernel_pattern, request.arch);
  // Read once: a pipe, a process substitution or standard input cannot be
  // read again after its first bytes tell JSON from a build output.
  std::optional<inspect::mapped_file> file;
  std::vector<unsigned char> streamed;
  inspect::byte_view bytes;
  if (path == "-") {
    streamed = inspect::read_stream(in, "standard input");
    bytes = {streamed.data(), streamed.size()};
  } else {
    bytes = file.emplace(path).bytes();
  }
  const std::string_view text = bytes.as_text();
  if (looks_like_json(text.substr(0, sniff_bytes))) {
    // The pages the parser has gone past go back: a 600,000-kernel baseline
    // (359 MB) is read through a window, not held whole beside the build.
    const auto give_back = [&](std::string_view passed) {
      if (file) file->release({reinterpret_cast<const unsigned char*>(passed.data()), passed.size()});
    };
    return kernels_from_inspect_json(path, text, filter, give_back);
  }
  if (path != "-" && is_regular_file(path)) return store_of_build(tables, path, request, overrides, in, err);
  std::istringstream again{std::string(text)};
  return store_of_build(tables, path, request, overrides, again, err);
}

background_store::background_store(const occcalc::table& tables, std::string path, const build_request& request,
                                   const launch_overrides& overrides, std::istream& in)
    : store_(std::async(std::launch::async | std::launch::deferred,
                        [&tables, path = std::move(path), request, overrides, &in, this] {
                          return read_kernel_store(tables, path, request, overrides, in, said_);
                        })) {}

background_store::~background_store() {
  if (store_.valid()) store_.wait();  // a read still running uses this object
}

kernel_store background_store::get(std::ostream& err) {
  try {
    kernel_store store = store_.get();
    err << said_.str();
    return store;
  } catch (...) {
    err << said_.str();
    throw;
  }
}

}  // namespace occcalc::cli
