#include "render/inspect_records.hpp"

#include <ostream>
#include <variant>

#include <fmt/format.h>

#include "builds/readers/parallel.hpp"
#include "occcalc/common/text.hpp"
#include "occcalc/version.hpp"
#include "render/cluster.hpp"
#include "render/json_writer.hpp"
#include "render/result_json.hpp"

namespace occcalc::cli {

namespace {

using inspect::dim3;

std::string limiters_text(const std::optional<occcalc::occupancy_summary>& summary) {
  return summary ? summary->limiter_list("+") : std::string("-");
}

/// A CSV cell (RFC 4180): control characters as `\xNN`; a cell a spreadsheet
/// would run as a formula (`=`, `+`, `-`, `@` first) led by `'`, as OWASP
/// advises; quoted where it holds a comma or a quote.
std::string csv_field(std::string_view raw) {
  std::string text = occcalc::detail::printable(raw);
  if (!text.empty() && std::string_view("=+-@").find(text.front()) != std::string_view::npos) text.insert(0, "'");
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

std::string csv_optional(const std::optional<std::int64_t>& value) {
  return value ? std::to_string(*value) : std::string();
}

std::string csv_dim3(const std::optional<dim3>& d) { return d ? inspect::dim3_text(*d) : std::string(); }

/// A printer for programs: `header` before the first record, then each
/// run's records, made on every worker in slices of 256 (each thread with
/// its own `State`) into texts kept from run to run (fresh, they would
/// fault in every page of the output again), and written in order.
template <typename State>
class record_printer : public inspect_printer {
 public:
  void input(const input_report&, std::size_t) override {}

 protected:
  record_printer(std::ostream& out, unsigned workers, std::string header)
      : out_(out), workers_(workers), header_(std::move(header)) {}

  /// Appends each record of `run` with `write(text, state, report, index)`,
  /// `index` counting the records printed before it.
  template <typename Write>
  void print(const std::vector<kernel_report>& run, const Write& write) {
    begin();
    constexpr std::size_t slice_records = 256;
    const std::size_t slices = inspect::slice_count(run.size(), slice_records);
    if (texts_.size() < slices) texts_.resize(slices);
    inspect::parallel_for_slices<State>(run.size(), slice_records, workers_,
                                        [&](std::size_t s, std::size_t first, std::size_t end, State& state) {
                                          texts_[s].clear();
                                          for (std::size_t i = first; i < end; ++i) {
                                            write(texts_[s], state, run[i], written_ + i);
                                          }
                                        });
    for (std::size_t s = 0; s < slices; ++s) out_ << texts_[s];
    written_ += run.size();
  }

  /// The header, once.
  void begin() {
    if (begun_) return;
    out_ << header_;
    begun_ = true;
  }

  std::size_t written() const noexcept { return written_; }

  std::ostream& out_;

 private:
  unsigned workers_;
  std::string header_;
  std::vector<std::string> texts_;
  bool begun_ = false;
  std::size_t written_ = 0;  // records
};

/// One compact record per line, each run's made on every worker and written
/// as it comes, so a library's 40,000 kernels stream out.
class json_printer final : public record_printer<std::monostate> {
 public:
  json_printer(std::ostream& out, unsigned workers, const std::vector<std::string>& inputs)
      : record_printer(out, workers, heading(inputs)) {}

  void kernels(std::vector<kernel_report>& run) override {
    print(run, [](std::string& text, std::monostate&, const kernel_report& r, std::size_t index) {
      text += index == 0 ? "\n" : ",\n";  // a comma before every record but the first
      write(text, r);
    });
  }

  void finish() override {
    begin();
    out_ << (written() == 0 ? "]}\n" : "\n]}\n");
  }

 private:
  /// The schema version and the inputs as given, before the records.
  static std::string heading(const std::vector<std::string>& inputs) {
    std::string text;
    {
      json_writer w(text);  // whole when it goes
      w.begin_object();
      w.member("schema_version", std::int64_t{occcalc::inspect_schema_version});
      w.key("inputs");
      w.begin_array();
      for (const auto& input : inputs) w.value(input);
      w.end_array();
      w.key("kernels");
    }
    return text + "[";
  }

  /// The kernel's identity, the figures its input records (a figure it does
  /// not record is absent), the launch it was evaluated at, and its
  /// occupancy or why there is none.
  static void write(std::string& text, const kernel_report& r) {
    const auto& k = r.kernel.resources;
    json_writer w(text);
    w.begin_object();
    w.member("file", r.file);
    w.member("origin", k.origin);
    w.member("kernel", k.name);
    w.member("name", r.kernel.demangled);
    w.member("arch", k.arch.name);
    for (const auto& [name, value] :
         {std::pair<std::string_view, const std::optional<std::int64_t>&>{"registers", k.registers},
          {"register_cap", k.register_cap},
          {"min_blocks_per_sm", k.min_blocks_per_sm},
          {"static_smem_bytes", k.static_shared_memory_bytes},
          {"stack_frame_bytes", k.stack_frame_bytes},
          {"stack_size_bytes", k.stack_size_bytes},
          {"local_memory_bytes", k.local_memory_bytes},
          {"spill_store_bytes", k.spill_store_bytes},
          {"spill_load_bytes", k.spill_load_bytes},
          {"barriers", k.barriers},
          {"agprs", k.agprs},
          {"sgprs", k.sgprs},
          {"wave_size", k.wave_size},
          {"vgpr_spills", k.vgpr_spills},
          {"sgpr_spills", k.sgpr_spills},
          {"compiler_waves_per_simd", k.compiler_waves_per_simd}}) {
      if (value) w.member(name, *value);
    }
    if (k.wgp_mode) w.member("wgp_mode", *k.wgp_mode);
    for (const auto& [name, value] :
         {std::pair<std::string_view, const std::optional<dim3>&>{"max_threads", k.max_threads},
          {"required_threads", k.required_threads},
          {"cluster_dims", k.cluster_dims}}) {
      if (!value) continue;
      w.key(name);
      w.begin_array();
      for (const auto extent : *value) w.value(extent);
      w.end_array();
    }
    if (r.block_size) {
      w.member("block_size", *r.block_size);
      w.member("block_size_from", spelling(r.block_size_from));
    }
    if (r.dynamic_shared_memory_bytes) w.member("dyn_smem_bytes", *r.dynamic_shared_memory_bytes);
    if (!r.triton_config.empty()) w.member("triton_config", r.triton_config);
    if (r.evaluation)
      std::visit(
          [&](const auto& q) {
            w.key("occupancy");
            write_occupancy(w, q);
            if constexpr (std::is_same_v<std::decay_t<decltype(q)>, query>) {
              if (q.request.cluster) write_cluster_launch(w, q);
            }
          },
          *r.evaluation);
    else
      w.member("occupancy_unavailable", r.unavailable);
    w.end_object();
  }
};

/// A header row, then a row per kernel (RFC 4180 quoting), each run's made
/// on every worker and written as it comes.
class csv_printer final : public record_printer<std::monostate> {
 public:
  csv_printer(std::ostream& out, unsigned workers)
      : record_printer(
            out, workers,
            "file,origin,arch,kernel,name,registers,register_cap,static_smem_bytes,stack_frame_bytes,stack_size_bytes,"
            "local_memory_bytes,spill_store_bytes,spill_load_bytes,barriers,max_threads,required_threads,cluster_dims,"
            "block_size,block_size_from,blocks_per_sm,active_warps_per_sm,occupancy,limiters,occupancy_unavailable,"
            "agprs,sgprs,wave_size,vgpr_spills,sgpr_spills,wgp_mode,min_blocks_per_sm\n") {}

  void kernels(std::vector<kernel_report>& run) override {
    print(run, [](std::string& text, std::monostate&, const kernel_report& r, std::size_t) { write(text, r); });
  }

  void finish() override { begin(); }

 private:
  static void write(std::string& text, const kernel_report& r) {
    const auto& k = r.kernel.resources;
    const auto summary = r.summary();
    const bool result = summary.has_value();
    text += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
        csv_field(r.file), csv_field(k.origin), csv_field(k.arch.name), csv_field(k.name),
        csv_field(r.kernel.demangled), csv_optional(k.registers), csv_optional(k.register_cap),
        csv_optional(k.static_shared_memory_bytes), csv_optional(k.stack_frame_bytes), csv_optional(k.stack_size_bytes),
        csv_optional(k.local_memory_bytes), csv_optional(k.spill_store_bytes), csv_optional(k.spill_load_bytes),
        csv_optional(k.barriers), csv_dim3(k.max_threads), csv_dim3(k.required_threads), csv_dim3(k.cluster_dims),
        csv_optional(r.block_size), r.block_size ? csv_field(spelling(r.block_size_from)) : "",
        result ? std::to_string(summary->groups_per_unit) : "", result ? std::to_string(summary->active_warps) : "",
        result ? fmt::format("{}", summary->occupancy()) : "", csv_field(result ? limiters_text(summary) : ""),
        csv_field(r.unavailable), csv_optional(k.agprs), csv_optional(k.sgprs), csv_optional(k.wave_size),
        csv_optional(k.vgpr_spills), csv_optional(k.sgpr_spills), k.wgp_mode ? (*k.wgp_mode ? "true" : "false") : "",
        csv_optional(k.min_blocks_per_sm));
  }
};

}  // namespace

std::unique_ptr<inspect_printer> inspect_json_printer(std::ostream& out, unsigned workers,
                                                      const std::vector<std::string>& inputs) {
  return std::make_unique<json_printer>(out, workers, inputs);
}

std::unique_ptr<inspect_printer> inspect_csv_printer(std::ostream& out, unsigned workers) {
  return std::make_unique<csv_printer>(out, workers);
}

}  // namespace occcalc::cli
