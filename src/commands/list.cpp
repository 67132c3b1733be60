#include "commands/list.hpp"

#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "occcalc/error.hpp"
#include "occcalc/tables/gpu_names.hpp"
#include "occcalc/version.hpp"
#include "render/amd_text.hpp"
#include "render/json_writer.hpp"
#include "render/nvidia_text.hpp"
#include "render/table_entry_json.hpp"

namespace occcalc::cli {

namespace {

/// What `--gpu` takes for a GPU, as words a shell completes: its id, its
/// name without brand words (`rtx-4090` for `geforce-rtx-4090`), and the
/// family names it answers to (`h100` for `h100-sxm5-80gb`), each new one
/// appended to `names`.
template <typename Gpu>
void add_gpu_names(const Gpu& g, std::vector<std::string>& names, std::set<std::string>& seen) {
  const auto add = [&](const std::string& name) {
    if (!name.empty() && seen.insert(name).second) names.push_back(name);
  };
  add(g.id);
  std::vector<std::string> words = occcalc::gpu_name_words(g.name);
  const auto joined = [&] {
    std::string text;
    for (const auto& w : words) text += (text.empty() ? "" : "-") + w;
    return text;
  };
  add(joined());
  while (words.size() > 1 && occcalc::is_variant_word(words.back())) {
    words.pop_back();
    add(joined());
  }
}

}  // namespace

exit_status run_list(const occcalc::table& tables, const list_options& opts, std::ostream& out) {
  const bool all = opts.what == "all";
  const bool archs = all || opts.what == "archs";
  const bool gpus = all || opts.what == "gpus";
  const bool amd = all || opts.what == "amd";
  if (opts.ids) {
    // One id per line, for shell completion and scripts: each is what
    // --cc, --gpu or --gfx takes.
    if (opts.json) throw occcalc::input_error("ids", "cannot be given together with --json");
    std::string text;
    if (archs) {
      for (const auto& arch : tables.architectures) text += arch.id + "\n";
    }
    if (gpus) {
      std::vector<std::string> names;
      std::set<std::string> seen;
      for (const auto& g : tables.gpus) add_gpu_names(g, names, seen);
      for (const auto& g : tables.amd_gpus) add_gpu_names(g, names, seen);
      for (const auto& name : names) text += name + "\n";
    }
    if (amd) {
      for (const auto& t : tables.amd_targets) text += t.id + "\n";
    }
    out << text;
    return exit_status::ok;
  }
  if (opts.json) {
    // Each list of entries, when asked for.
    const auto entries = [](json_writer& w, bool wanted, std::string_view name, const auto& list) {
      if (!wanted) return;
      w.key(name);
      w.begin_array();
      for (const auto& entry : list) write_entry(w, entry);
      w.end_array();
    };
    out << pretty_document([&](json_writer& w) {
      w.begin_object();
      w.member("schema_version", occcalc::list_schema_version);
      entries(w, archs, "architectures", tables.architectures);
      entries(w, gpus, "gpus", tables.gpus);
      entries(w, amd, "amd_targets", tables.amd_targets);
      entries(w, gpus || amd, "amd_gpus", tables.amd_gpus);
      w.end_object();
    });
    return exit_status::ok;
  }
  bool first = true;
  const auto section = [&](bool wanted, auto render) {
    if (!wanted) return;
    if (!first) out << "\n";
    first = false;
    render(out, tables, opts.term);
  };
  section(archs, render_arch_list);
  section(gpus, render_gpu_list);
  section(amd, render_amd_target_list);
  section(gpus || amd, render_amd_gpu_list);
  return exit_status::ok;
}

}  // namespace occcalc::cli
