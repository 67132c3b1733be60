#include "render/inspect_records.hpp"

#include <ostream>
#include <variant>

#include <fmt/format.h>

#include "inspect/parallel.hpp"
#include "occcalc/version.hpp"
#include "render/json_writer.hpp"
#include "render/result_json.hpp"

namespace occcalc::cli {

namespace {

using inspect::dim3;

std::string limiters_text(const std::optional<occcalc::occupancy_summary>& summary) {
  return summary ? summary->limiter_list("+") : std::string("-");
}

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
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

std::string csv_dim3(const std::optional<dim3>& d) { return d ? dim3_text(*d) : std::string(); }

/// Writes `run`'s records to `out` in order, made on up to `workers`
/// threads: each takes slices of 256 records and appends them to the
/// slice's text in `texts` with `write(text, state, report, index in run)`,
/// where `state` is the thread's own. `texts` keeps its memory from run to
/// run: fresh, it would fault in every page of the output again.
template <typename State, typename Write>
void write_records(std::ostream& out, const std::vector<kernel_report>& run, unsigned workers,
                   std::vector<std::string>& texts, const Write& write) {
  constexpr std::size_t slice_records = 256;
  const std::size_t slices = (run.size() + slice_records - 1) / slice_records;
  if (texts.size() < slices) texts.resize(slices);
  inspect::parallel_for<State>(slices, workers, [&](std::size_t s, State& state) {
    texts[s].clear();
    const std::size_t end = std::min(run.size(), (s + 1) * slice_records);
    for (std::size_t i = s * slice_records; i < end; ++i) write(texts[s], state, run[i], i);
  });
  for (std::size_t s = 0; s < slices; ++s) out << texts[s];
}

/// One compact record per line, each run's made on every worker and written
/// as it comes, so a library's 40,000 kernels stream out.
class json_printer final : public inspect_printer {
 public:
  json_printer(std::ostream& out, unsigned workers) : out_(out), workers_(workers) {}

  void input(const input_report&, std::size_t) override {}

  void kernels(std::vector<kernel_report>& run) override {
    begin();
    write_records<result_writer>(out_, run, workers_, texts_,
                                 [&](std::string& text, result_writer& results, const kernel_report& r, std::size_t i) {
                                   // A comma before every record but the first.
                                   text += written_ + i == 0 ? "\n" : ",\n";
                                   write(text, results, r);
                                 });
    written_ += run.size();
  }

  void finish() override {
    begin();
    out_ << (written_ == 0 ? "]}\n" : "\n]}\n");
  }

 private:
  void begin() {
    if (begun_) return;
    out_ << fmt::format("{{\"schema_version\":{},\"kernels\":[", occcalc::inspect_schema_version);
    begun_ = true;
  }

  static void write(std::string& text, result_writer& results, const kernel_report& r) {
    const auto& k = r.kernel.resources;
    json_writer w(text);
    w.begin_object();
    w.member("file", r.file);
    w.member("origin", k.origin);
    w.member("kernel", k.name);
    w.member("name", r.kernel.demangled);
    w.member("arch", k.arch);
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
          {"sgpr_spills", k.sgpr_spills}}) {
      w.member(name, value);
    }
    w.member("wgp_mode", k.wgp_mode);
    for (const auto& [name, value] :
         {std::pair<std::string_view, const std::optional<dim3>&>{"max_threads", k.max_threads},
          {"required_threads", k.required_threads},
          {"cluster_dims", k.cluster_dims}}) {
      w.key(name);
      if (value) {
        w.begin_array();
        for (const auto extent : *value) w.value(extent);
        w.end_array();
      } else {
        w.null();
      }
    }
    w.member("block_size", r.block_size);
    w.key("block_size_from");
    if (r.block_size)
      w.value(r.block_size_from);
    else
      w.null();
    w.key("occupancy");
    if (r.evaluation)
      std::visit([&](const auto& q) { results.write(w, q); }, *r.evaluation);
    else
      w.null();
    w.key("occupancy_unavailable");
    if (r.has_occupancy())
      w.null();
    else
      w.value(r.unavailable);
    w.end_object();
  }

  std::ostream& out_;
  unsigned workers_;
  std::vector<std::string> texts_;
  bool begun_ = false;
  std::size_t written_ = 0;  // records
};

/// A header row, then a row per kernel (RFC 4180 quoting), each run's made
/// on every worker and written as it comes.
class csv_printer final : public inspect_printer {
 public:
  csv_printer(std::ostream& out, unsigned workers) : out_(out), workers_(workers) {}

  void input(const input_report&, std::size_t) override {}

  void kernels(std::vector<kernel_report>& run) override {
    begin();
    write_records<std::monostate>(
        out_, run, workers_, texts_,
        [](std::string& text, std::monostate&, const kernel_report& r, std::size_t) { write(text, r); });
  }

  void finish() override { begin(); }

 private:
  void begin() {
    if (begun_) return;
    out_ << "file,origin,arch,kernel,name,registers,register_cap,static_smem_bytes,stack_frame_bytes,stack_size_bytes,"
            "local_memory_bytes,spill_store_bytes,spill_load_bytes,barriers,max_threads,required_threads,cluster_dims,"
            "block_size,block_size_from,blocks_per_sm,active_warps_per_sm,occupancy,limiters,occupancy_unavailable,"
            "agprs,sgprs,wave_size,vgpr_spills,sgpr_spills,wgp_mode,min_blocks_per_sm\n";
    begun_ = true;
  }

  static void write(std::string& text, const kernel_report& r) {
    const auto& k = r.kernel.resources;
    const auto summary = r.summary();
    const bool result = summary.has_value();
    text += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
        csv_field(r.file), csv_field(k.origin), csv_field(k.arch), csv_field(k.name), csv_field(r.kernel.demangled),
        csv_optional(k.registers), csv_optional(k.register_cap), csv_optional(k.static_shared_memory_bytes),
        csv_optional(k.stack_frame_bytes), csv_optional(k.stack_size_bytes), csv_optional(k.local_memory_bytes),
        csv_optional(k.spill_store_bytes), csv_optional(k.spill_load_bytes), csv_optional(k.barriers),
        csv_dim3(k.max_threads), csv_dim3(k.required_threads), csv_dim3(k.cluster_dims), csv_optional(r.block_size),
        r.block_size ? csv_field(r.block_size_from) : "", result ? std::to_string(summary->groups_per_unit) : "",
        result ? std::to_string(summary->active_warps) : "", result ? fmt::format("{}", summary->occupancy()) : "",
        csv_field(result ? limiters_text(summary) : ""), csv_field(r.unavailable), csv_optional(k.agprs),
        csv_optional(k.sgprs), csv_optional(k.wave_size), csv_optional(k.vgpr_spills), csv_optional(k.sgpr_spills),
        k.wgp_mode ? (*k.wgp_mode ? "true" : "false") : "", csv_optional(k.min_blocks_per_sm));
  }

  std::ostream& out_;
  unsigned workers_;
  std::vector<std::string> texts_;
  bool begun_ = false;
};

}  // namespace

std::unique_ptr<inspect_printer> inspect_json_printer(std::ostream& out, unsigned workers) {
  return std::make_unique<json_printer>(out, workers);
}

std::unique_ptr<inspect_printer> inspect_csv_printer(std::ostream& out, unsigned workers) {
  return std::make_unique<csv_printer>(out, workers);
}

void flush_chunk(std::ostream& out, std::string& text) {
  constexpr std::size_t chunk_bytes = 1 << 16;
  if (text.size() < chunk_bytes) return;
  out << text;
  text.clear();
}

}  // namespace occcalc::cli
