// occcalc's Python module, `occcalc._occcalc`: the header-only core and the
// tables compiled into the CLI, bound with pybind11. A request is the CLI's
// (the same keys, defaults and messages), resolved by the same functions; a
// result's attributes come from the C++ result, and `to_dict()` is the
// CLI's `--json` document, written by the same writer. The Python package
// (python/occcalc/__init__.py) adds what is easier said in Python.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>
#include <utility>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "builds/kernel_report.hpp"
#include "analysis/evaluated.hpp"
#include "commands/inspect.hpp"
#include "commands/suggest.hpp"
#include "commands/sweep.hpp"
#include "cli/compiled_tables.hpp"
#include "occcalc/amd/summary.hpp"
#include "occcalc/error.hpp"
#include "builds/readers/demangle.hpp"
#include "builds/readers/inspect_bytes.hpp"
#include "builds/readers/mapped_file.hpp"
#include "occcalc/nvidia/compute_capability.hpp"
#include "occcalc/nvidia/suggest.hpp"
#include "occcalc/nvidia/summary.hpp"
#include "occcalc/request/request.hpp"
#include "occcalc/version.hpp"
#include "render/amd_text.hpp"
#include "render/brief.hpp"
#include "render/result_json.hpp"
#include "render/table_entry_json.hpp"

#include "column.hpp"
#include "output.hpp"

namespace py = pybind11;

namespace occcalc::python {

namespace {

using cli::evaluated;

/// Both vendors' tables, built once from the compiled-in values: no JSON is
/// parsed at import.
const occcalc::table& tables() { return cli::resident_tables(); }

/// A keyword argument as the request field it names: an integer as a JSON
/// integer is, a string as typed, True/False for a switch. Anything else is
/// an `occcalc.Error` naming the key.
occcalc::field_value field_of(std::string_view key, const occcalc::request_field& field, const py::handle& value) {
  if (is_truth_value(value)) {
    if (field.kind != occcalc::field_kind::flag) throw type_error(key, "is True or False; it takes an integer or a string");
    return std::string(PyObject_IsTrue(value.ptr()) == 1 ? occcalc::flag_set_text : occcalc::flag_unset_text);
  }
  if (field.kind == occcalc::field_kind::flag) throw type_error(key, "takes True or False");
  // An integer is what has __index__: int and NumPy's integer scalars.
  if (PyIndex_Check(value.ptr())) return occcalc::field_value::of_integer(integer_of(key, value));
  if (PyFloat_Check(value.ptr())) {
    const double number = PyFloat_AsDouble(value.ptr());
    // A compute capability is written as a number: 7.0, 8.6.
    if (key == "cc" && std::isfinite(number)) return std::string(py::str(value));
    throw occcalc::input_error(std::string(key), std::string(py::str(value)) + " is not an integer or a string");
  }
  if (py::isinstance<py::str>(value)) {
    const std::string_view text = utf8_view_of(key, value);
    if (text.find('\0') != std::string_view::npos) throw occcalc::input_error(std::string(key), "holds a NUL character");
    if (occcalc::detail::trim(text).empty())
      throw occcalc::input_error(std::string(key), "is empty; give a value, or leave the argument out");
    return text;
  }
  throw type_error(key, "is " + type_name(value) + "; it takes an integer or a string");
}

/// The request the keyword arguments give. An unknown key is refused naming
/// every known one, as a batch line's is.
void set_field(occcalc::request& req, const py::handle& name, const py::handle& value) {
  // The name as Python holds it (a keyword's UTF-8 is cached in the str), copied only to refuse it.
  const std::string_view key = utf8_view_of("an argument's name", name);
  const auto* field = occcalc::find_request_field(key);
  if (field == nullptr) {
    throw occcalc::input_error(occcalc::detail::one_line(std::string(key), occcalc::detail::max_quoted_chars),
                               "is not a known argument; known arguments: " + occcalc::request_field_keys());
  }
  if (value.is_none()) return;  // None: not given, as the CLI's default
  req.*(field->member) = field_of(key, *field, value);
}

occcalc::request request_of(const py::kwargs& kwargs) {
  occcalc::request req;
  for (const auto& [name, value] : kwargs) set_field(req, name, value);
  return req;
}

/// One answer: the resolved request and its result, of either vendor.
class result {
 public:
  explicit result(evaluated&& e) : e_(std::move(e)) {}

  occcalc::occupancy_summary summary() const {
    return std::visit([](const auto& q) { return occcalc::summarize(q.result); }, e_);
  }
  double occupancy() const { return summary().occupancy(); }
  double occupancy_percent() const { return summary().occupancy_percent(); }
  std::int64_t blocks_per_sm() const { return summary().groups_per_unit; }
  std::int64_t active_warps_per_sm() const { return summary().active_warps; }
  std::int64_t max_warps_per_sm() const { return summary().max_warps; }
  std::string model() const { return std::string(summary().model); }
  std::string unit() const { return std::string(summary().unit); }
  std::vector<std::string> limiters() const {
    const auto s = summary();
    std::vector<std::string> out;
    for (std::size_t i = 0; i < s.limiter_count; ++i) out.emplace_back(s.limiters[i]->key);
    return out;
  }
  /// Each resource's block limit per unit (None: not a limit), as the
  /// CLI's `limits`.
  std::vector<std::pair<std::string, std::optional<std::int64_t>>> limits() const {
    std::vector<std::pair<std::string, std::optional<std::int64_t>>> out;
    std::visit(
        [&](const auto& q) {
          if constexpr (std::is_same_v<std::decay_t<decltype(q)>, cli::query>) {
            for (const auto r : occcalc::nvidia_resources) {
              const auto& blocks = q.result.limit(r).blocks;
              out.emplace_back(occcalc::to_string(r), blocks ? std::optional<std::int64_t>(*blocks) : std::nullopt);
            }
          } else {
            for (const auto r : occcalc::amd_resources) {
              const auto& groups = q.result.limit(r);
              out.emplace_back(occcalc::to_string(r), groups ? std::optional<std::int64_t>(*groups) : std::nullopt);
            }
          }
        },
        e_);
    return out;
  }
  std::string arch() const {
    return std::visit(
        [](const auto& q) -> std::string {
          if constexpr (std::is_same_v<std::decay_t<decltype(q)>, cli::query>)
            return q.request.arch->id;
          else
            return q.request.target->id;
        },
        e_);
  }
  std::optional<std::string> gpu() const {
    return std::visit(
        [](const auto& q) -> std::optional<std::string> {
          if (q.request.named_gpu) return q.request.named_gpu->name;
          return std::nullopt;
        },
        e_);
  }
  /// The CLI's `--json` document for the same request.
  std::string json() const {
    return std::visit([](const auto& q) { return cli::result_text(q, cli::json_writer::style::pretty); }, e_);
  }
  /// `<occcalc.Result sm_70: 75.0%, 12 blocks and 48 of 64 warps per SM, limited by registers>`: the
  /// CLI's `--brief` line.
  std::string repr() const {
    return std::visit(
        [](const auto& q) {
          std::string line = cli::brief_line(q);
          while (!line.empty() && line.back() == '\n') line.pop_back();
          return "<occcalc.Result " + line + ">";
        },
        e_);
  }

 private:
  evaluated e_;
};

/// Sets Python's error for the exception in flight: what the CLI refuses as
/// `occcalc.Error` (with its `field`), a wrong type as `TypeError`, as
/// pybind11 does for the functions it binds (`translate_error`, registered
/// at import).
void set_python_error(std::exception_ptr p);

// occcalc.Result is a type of Python's C API, not a pybind11 class, and
// occupancy() a vectorcall function, not a pybind11 one: pybind11's call
// (its argument conversion, the keyword arguments copied into a dict) and
// its making of an instance (a type lookup and its registry of instances)
// cost 0.8 us of a 2.2 us call (docs/performance.md).
struct result_object {
  PyObject ob_base;
  result value;
};

PyTypeObject* result_type = nullptr;

const result& result_of(PyObject* self) { return reinterpret_cast<result_object*>(self)->value; }

PyObject* new_result(evaluated&& e) {
  PyObject* self = result_type->tp_alloc(result_type, 0);
  if (self == nullptr) return nullptr;
  new (&reinterpret_cast<result_object*>(self)->value) result(std::move(e));
  return self;
}

void result_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  reinterpret_cast<result_object*>(self)->value.~result();
  type->tp_free(self);
  Py_DECREF(type);  // a heap type: each instance holds a reference to it
}

/// A getter or method of Result: `Member`'s value, converted by pybind11.
template <auto Member>
PyObject* result_member(PyObject* self, void* = nullptr) {
  try {
    return py::cast((result_of(self).*Member)()).release().ptr();
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

PyObject* result_method_json(PyObject* self, PyObject*) { return result_member<&result::json>(self); }

/// Result() is refused: a result comes from occupancy() (a slot rather than
/// Py_TPFLAGS_DISALLOW_INSTANTIATION, which Python 3.9 lacks).
PyObject* result_new(PyTypeObject*, PyObject*, PyObject*) {
  PyErr_SetString(PyExc_TypeError, "cannot create 'occcalc.Result' instances; occcalc.occupancy() gives them");
  return nullptr;
}

PyObject* result_repr(PyObject* self) { return result_member<&result::repr>(self); }

PyGetSetDef result_getset[] = {
    {"occupancy", result_member<&result::occupancy>, nullptr, "Active warps / the warp slots, in [0, 1].", nullptr},
    {"occupancy_percent", result_member<&result::occupancy_percent>, nullptr, "The same in percent, to hundredths.",
     nullptr},
    {"blocks_per_sm", result_member<&result::blocks_per_sm>, nullptr,
     "Resident blocks (AMD: work-groups) per SM (CU or WGP).", nullptr},
    {"active_warps_per_sm", result_member<&result::active_warps_per_sm>, nullptr,
     "Resident warps (AMD: waves) per SM (CU or WGP).", nullptr},
    {"max_warps_per_sm", result_member<&result::max_warps_per_sm>, nullptr, "The warp (wave) slots per unit.",
     nullptr},
    {"limiters", result_member<&result::limiters>, nullptr, "The resources that set the blocks, several when tied.",
     nullptr},
    {"_limits", result_member<&result::limits>, nullptr, nullptr, nullptr},
    {"model", result_member<&result::model>, nullptr, "nvidia, or the AMD model that answered.", nullptr},
    {"unit", result_member<&result::unit>, nullptr, "What blocks are counted per: sm, cu or wgp.", nullptr},
    {"arch", result_member<&result::arch>, nullptr, "The architecture's id: sm_70, gfx90a.", nullptr},
    {"gpu", result_member<&result::gpu>, nullptr, "The named GPU, or None.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyMethodDef result_methods[] = {
    {"_json", result_method_json, METH_NOARGS, "The CLI's --json document for the same request, as text."},
    {nullptr, nullptr, 0, nullptr}};

PyType_Slot result_slots[] = {
    {Py_tp_new, reinterpret_cast<void*>(result_new)},
    {Py_tp_dealloc, reinterpret_cast<void*>(result_dealloc)},
    {Py_tp_repr, reinterpret_cast<void*>(result_repr)},
    {Py_tp_getset, result_getset},
    {Py_tp_methods, result_methods},
    {Py_tp_doc, const_cast<char*>("One launch's occupancy: the CLI's answer, attribute by attribute.")},
    {0, nullptr}};

PyType_Spec result_spec = {"occcalc.Result", sizeof(result_object), 0, Py_TPFLAGS_DEFAULT, result_slots};

PyObject* occupancy(PyObject*, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) {
  try {
    const Py_ssize_t positional = PyVectorcall_NARGS(nargsf);
    if (positional != 0) {
      throw type_error("occupancy()", "takes keyword arguments only (cc=, threads=, regs=, ...); it was given " +
                                          std::to_string(positional) + " positional");
    }
    occcalc::request req;
    const Py_ssize_t keywords = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < keywords; ++i) set_field(req, PyTuple_GET_ITEM(kwnames, i), args[i]);
    return new_result(cli::evaluate_any(tables(), req));
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

/// Each configuration's (occupancy, groups per unit), computed by `one(i)`
/// without the GIL into NumPy arrays (lists where NumPy is not installed);
/// the first error names its configuration.
template <typename One>
py::tuple each_configuration(std::size_t count, const One& one) {
  output<double> occupancy(count, "float64");
  output<std::int64_t> groups(count, "int64");
  std::string failure;
  {
    py::gil_scoped_release unlocked;
    for (std::size_t i = 0; i < count && failure.empty(); ++i) {
      try {
        std::tie(occupancy[i], groups[i]) = one(i);
      } catch (const occcalc::input_error& e) {
        failure = "configuration " + std::to_string(i) + ": " + e.keyed_text();
      }
    }
  }
  if (!failure.empty()) throw occcalc::error(failure);
  return py::make_tuple(occupancy.release(), groups.release());
}

/// `values` as a column, or `fallback` for every configuration when None.
column column_or(const std::string& key, const py::object& values, std::int64_t fallback) {
  return values.is_none() ? column(key, py::int_(fallback)) : column(key, values);
}

/// How many configurations `columns` describe: the length they share, or 1
/// when each is one value for all. Refuses columns of different lengths.
std::size_t configurations(std::initializer_list<std::pair<const char*, const column*>> columns) {
  std::optional<std::pair<const char*, std::size_t>> first;
  for (const auto& [key, c] : columns) {
    if (c->scalar()) continue;
    if (!first) first = {key, c->size()};
    if (c->size() != first->second) {
      throw occcalc::input_error(key, "holds " + std::to_string(c->size()) + " values where " + first->first +
                                          " holds " + std::to_string(first->second));
    }
  }
  return first ? first->second : 1;
}

/// Occupancy and blocks (work-groups) per unit of many launches of one
/// target that differ in block size and resources: NVIDIA threads, regs,
/// smem, dyn_smem; AMD threads, vgprs, sgprs, lds. The rest of the request
/// (`cc`, `gfx` or `gpu`, carveout, cache, barriers, model, wave size) is
/// resolved once. Empty columns answer empty arrays.
py::tuple occupancy_many(const py::object& threads, const py::object& regs, const py::object& smem,
                         const py::object& dyn_smem, const py::object& vgprs, const py::object& sgprs,
                         const py::object& lds, const py::kwargs& kwargs) {
  occcalc::request req = request_of(kwargs);
  const bool amd = occcalc::is_amd_request(tables(), req) || !vgprs.is_none();
  const auto refuse = [&](const py::object& given, const char* key, const char* instead) {
    if (!given.is_none()) throw occcalc::input_error(key, std::string("does not apply to ") + instead);
  };
  const column threads_column("threads", threads);
  // The fixed part, resolved with figures any target takes: each
  // configuration's own are checked where an error can name it.
  req.threads = occcalc::field_value::of_integer(1);
  if (amd) {
    refuse(regs, "regs", "AMD targets; give vgprs (and sgprs)");
    refuse(smem, "smem", "AMD targets; give lds");
    refuse(dyn_smem, "dyn_smem", "AMD targets; give lds");
    if (vgprs.is_none()) throw occcalc::input_error("vgprs", "is required: VGPRs per work-item");
    const column v("vgprs", vgprs), s = column_or("sgprs", sgprs, 0), l = column_or("lds", lds, 0);
    const std::size_t count = configurations({{"threads", &threads_column}, {"vgprs", &v}, {"sgprs", &s}, {"lds", &l}});
    req.vgprs = occcalc::field_value::of_integer(0);
    const occcalc::resolved_amd_request fixed = occcalc::resolve_amd(tables(), req);
    std::optional<std::int64_t> device_waves;
    if (fixed.named_gpu) device_waves = fixed.named_gpu->max_waves_per_simd;
    return each_configuration(count, [&](std::size_t i) {
      occcalc::amd_kernel kernel = fixed.kernel;
      kernel.vgprs = v[i];
      kernel.sgprs = s[i];
      kernel.lds_bytes = l[i];
      const auto r = occcalc::resolve_amd_kernel(*fixed.target, fixed.model, fixed.mode, kernel, threads_column[i]);
      const auto result =
          occcalc::compute_amd_occupancy(*r.target, r.kernel, r.mode, r.model, r.work_group_size, device_waves);
      return std::pair<double, std::int64_t>(result.occupancy(), result.work_groups);
    });
  }
  refuse(vgprs, "vgprs", "NVIDIA architectures; give regs");
  refuse(sgprs, "sgprs", "NVIDIA architectures");
  refuse(lds, "lds", "NVIDIA architectures; give smem");
  if (regs.is_none()) throw occcalc::input_error("regs", "is required: registers per thread");
  const column r("regs", regs), s = column_or("smem", smem, 0), d = column_or("dyn_smem", dyn_smem, 0);
  const std::size_t count = configurations({{"threads", &threads_column}, {"regs", &r}, {"smem", &s}, {"dyn_smem", &d}});
  req.regs = occcalc::field_value::of_integer(0);
  const occcalc::resolved_request fixed = occcalc::resolve(tables(), req);
  return each_configuration(count, [&](std::size_t i) {
    occcalc::launch_config launch = fixed.launch;
    launch.threads_per_block = threads_column[i];
    launch.registers_per_thread = r[i];
    launch.static_shared_memory_bytes = s[i];
    launch.dynamic_shared_memory_bytes = d[i];
    const auto resolved = occcalc::resolve_launch(*fixed.arch, launch);
    const auto result = occcalc::compute_occupancy(*resolved.arch, resolved.launch);
    return std::pair<double, std::int64_t>(result.occupancy(), result.blocks_per_sm);
  });
}

/// A kernel's fixed request (target, registers, static shared memory,
/// barriers, carveout), resolved at a block size any target takes: the
/// part of `cuda.core`'s twin that does not change between its calls.
occcalc::resolved_request kernel_request(const py::kwargs& kwargs) {
  occcalc::request req = request_of(kwargs);
  if (!req.threads) req.threads = occcalc::field_value::of_integer(1);
  if (!req.regs) throw occcalc::input_error("regs", "is required: registers per thread");
  if (occcalc::is_amd_request(tables(), req)) {
    throw occcalc::input_error("gfx", "names an AMD target; cuda.core's occupancy calls are NVIDIA's");
  }
  return occcalc::resolve(tables(), req);
}

/// `launch` checked, its errors naming cuda.core's arguments (`block_size`,
/// not the request's `threads`).
occcalc::resolved_request checked_launch(const occcalc::nvidia_arch& arch, const occcalc::launch_config& launch) {
  try {
    return occcalc::resolve_launch(arch, launch);
  } catch (const occcalc::input_error& e) {
    const auto spell = [](std::string_view key) { return std::string(key); };
    if (e.field() == "threads") throw occcalc::input_error("block_size", e.message(spell));
    if (e.field() == "dyn_smem") throw occcalc::input_error("dynamic_shared_memory_size", e.message(spell));
    throw;
  }
}

/// `cudaOccMaxActiveBlocksPerMultiprocessor` for the kernel of `kwargs`.
std::int64_t max_active_blocks(const py::handle& block_size, const py::handle& dynamic_bytes,
                               const py::kwargs& kwargs) {
  const occcalc::resolved_request fixed = kernel_request(kwargs);
  occcalc::launch_config launch = fixed.launch;
  launch.threads_per_block = integer_of("block_size", block_size);
  launch.dynamic_shared_memory_bytes = integer_of("dynamic_shared_memory_size", dynamic_bytes);
  const auto resolved = checked_launch(*fixed.arch, launch);
  return occcalc::compute_occupancy(*resolved.arch, resolved.launch).blocks_per_sm;
}

/// A request's target before any kernel exists: its vendor (`nvidia`,
/// `amd`) and the wave size its blocks run in, as the query defaults it (an
/// AMD target's own, or `wave32`/`wave64` where given; NVIDIA's warp).
py::tuple target_waves(const py::kwargs& kwargs) {
  occcalc::request req = request_of(kwargs);
  req.threads = occcalc::field_value::of_integer(1);
  if (!occcalc::is_amd_request(tables(), req)) {
    req.regs = occcalc::field_value::of_integer(0);
    return py::make_tuple("nvidia", occcalc::resolve(tables(), req).arch->warp_size_threads);
  }
  req.vgprs = occcalc::field_value::of_integer(0);
  return py::make_tuple("amd", occcalc::resolve_amd(tables(), req).mode.wave_size);
}

/// `value` as a count of bytes or threads: an integer, at least 0.
std::int64_t count_of(const std::string& key, const py::handle& value, std::string_view unit) {
  const std::int64_t n = integer_of(key, value);
  if (n < 0) throw occcalc::input_error(key, std::to_string(n) + " is below 0 " + std::string(unit));
  return n;
}

/// The block size of most resident threads and the blocks per SM there
/// (`cudaOccMaxPotentialOccupancyBlockSize`, or its VariableSMem form when
/// `dynamic` is a function of the block size), and the SMs of the named GPU
/// (None without one). The search stops at the smallest of `limit` (0: none),
/// the kernel's `max_threads` (its `__launch_bounds__`, the runtime's
/// `maxThreadsPerBlock` attribute; None or 0: none) and the architecture's
/// maximum, as the runtime's does.
py::tuple potential_block_size(const py::object& dynamic, const py::handle& limit, const py::handle& max_threads,
                               const py::kwargs& kwargs) {
  std::int64_t block_size_limit = count_of("block_size_limit", limit, "threads; 0 takes the kernel's own limit");
  if (!max_threads.is_none()) {
    const std::int64_t bound = count_of("max_threads", max_threads, "threads");
    if (bound > 0) block_size_limit = block_size_limit > 0 ? std::min(block_size_limit, bound) : bound;
  }
  const occcalc::resolved_request fixed = kernel_request(kwargs);
  const auto sm_count = fixed.sm_count ? py::object(py::int_(*fixed.sm_count)) : py::object(py::none());
  if (!PyCallable_Check(dynamic.ptr())) {
    const occcalc::dynamic_shared_memory_rule rule{count_of("dynamic_shared_memory_needed", dynamic, "bytes"), 0};
    const auto c = occcalc::max_potential_block_size(*fixed.arch, fixed.launch, rule, block_size_limit);
    return py::make_tuple(c.block_size, c.blocks_per_sm, sm_count);
  }
  // The function is called for each block size tried, as the runtime calls it.
  struct python_function {
    const py::object& f;
    std::int64_t at(std::int64_t threads) const {
      return count_of("dynamic_shared_memory_needed(" + std::to_string(threads) + ")", f(threads), "bytes");
    }
  };
  const auto c = occcalc::max_potential_block_size(*fixed.arch, fixed.launch, python_function{dynamic},
                                                   block_size_limit);
  return py::make_tuple(c.block_size, c.blocks_per_sm, sm_count);
}

/// For the kernel of `kwargs` launched in clusters of `cluster` blocks (0:
/// the size is not asked) of `block_size` threads with `dynamic_bytes`, on
/// the one device its request names: `cudaOccupancyMaxActiveClusters` and
/// `cudaOccupancyMaxPotentialClusterSize` (up to the portable size, or with
/// `non_portable` the largest), each as (fewest, most), and what they rest
/// on (`measured`, `gpc_counts`, `sm_count`).
py::tuple cluster_figures(const py::handle& cluster, const py::handle& block_size, const py::handle& dynamic_bytes,
                          bool non_portable, const py::kwargs& kwargs) {
  const std::int64_t cluster_blocks = integer_of("config.cluster", cluster);
  occcalc::resolved_request r = kernel_request(kwargs);
  occcalc::require_clusters(*r.arch, "config.cluster", std::to_string(cluster_blocks));
  occcalc::launch_config launch = r.launch;
  launch.threads_per_block = integer_of("config.block", block_size);
  launch.dynamic_shared_memory_bytes = integer_of("config.shmem_size", dynamic_bytes);
  const auto& arch = *r.arch;
  try {
    r.launch = checked_launch(arch, launch).launch;
  } catch (const occcalc::input_error& e) {
    // Named as the config the caller passed.
    const auto spell = [](std::string_view key) { return std::string(key); };
    if (e.field() == "block_size") throw occcalc::input_error("config.block", e.message(spell));
    if (e.field() == "dynamic_shared_memory_size") throw occcalc::input_error("config.shmem_size", e.message(spell));
    throw;
  }
  if (cluster_blocks < 0 || cluster_blocks > arch.max_cluster_size()) {
    throw occcalc::input_error("config.cluster", std::to_string(cluster_blocks) + " blocks is outside [1, " +
                                                     std::to_string(arch.max_cluster_size()) + "] for " + arch.id);
  }
  r.cluster = occcalc::cluster_shape{std::max<std::int64_t>(cluster_blocks, 1), 1, 1};
  const auto devices = occcalc::cluster_devices_of(tables(), r);
  if (devices.size() != 1) {
    throw occcalc::input_error("gpu", devices.empty() ? "or sm_count is needed: clusters depend on the SMs of each GPC"
                                                      : "names a family; give one of its GPUs");
  }
  const auto& d = devices.front();
  const std::int64_t blocks = occcalc::compute_occupancy(arch, r.launch).blocks_per_sm;
  const auto clusters = occcalc::max_active_clusters(arch, d.layout, d.sm_count, blocks, cluster_blocks);
  const auto sizes = occcalc::largest_cluster_size(
      arch, d.layout, d.sm_count, blocks,
      non_portable ? std::nullopt : std::optional<std::int64_t>(arch.max_cluster_size_portable));
  return py::make_tuple(clusters.fewest, clusters.most, sizes.fewest, sizes.most,
                        occcalc::to_string(occcalc::cluster_basis_of(d.layout, d.sm_count)));
}

/// `cudaOccAvailableDynamicSMemPerBlock`: the dynamic shared memory a block
/// may use with `blocks` resident; an error where fewer are resident even
/// without any, as the runtime's.
std::int64_t available_dynamic_smem(const py::handle& resident, const py::handle& threads, const py::kwargs& kwargs) {
  const std::int64_t blocks = integer_of("num_blocks_per_multiprocessor", resident);
  const std::int64_t block_size = integer_of("block_size", threads);
  const occcalc::resolved_request fixed = kernel_request(kwargs);
  occcalc::launch_config launch = fixed.launch;
  launch.threads_per_block = block_size;
  const auto resolved = checked_launch(*fixed.arch, launch);
  const auto answer = occcalc::available_dynamic_shared_memory(*resolved.arch, resolved.launch, blocks);
  if (!answer.cuda_bytes) {
    throw occcalc::input_error("num_blocks_per_multiprocessor",
                               std::to_string(blocks) + " blocks of " + std::to_string(block_size) +
                                   " threads are not resident on one SM even without dynamic shared memory");
  }
  return *answer.cuda_bytes;
}

/// A value of an option that is not a request field (suggest's `target`,
/// sweep's `vary`), as the text the CLI would have read.
std::string option_text(const std::string& key, const py::handle& value) {
  if (value.is_none()) return {};
  if (is_truth_value(value)) throw type_error(key, "is True or False; it takes an integer or a string");
  if (PyIndex_Check(value.ptr())) return std::to_string(integer_of(key, value));
  if (py::isinstance<py::str>(value)) return utf8_of(key, value);
  throw type_error(key, "is " + type_name(value) + "; it takes an integer or a string");
}

/// `kwargs` without the keys a command takes beyond the request's, each
/// moved into `taken` as text.
occcalc::request request_without(py::kwargs kwargs, std::initializer_list<const char*> keys,
                                 std::vector<std::string>& taken) {
  py::kwargs rest;
  for (const auto& [name, value] : kwargs) {
    const std::string key = utf8_of("an argument's name", name);
    const auto at = std::find_if(keys.begin(), keys.end(), [&](const char* k) { return key == k; });
    if (at == keys.end())
      rest[name] = value;
    else
      taken[static_cast<std::size_t>(at - keys.begin())] = option_text(key, value);
  }
  return request_of(rest);
}

/// The CLI's `suggest --json` document for the same request and options.
std::string suggest_json(const py::kwargs& kwargs) {
  std::vector<std::string> o(4);
  const occcalc::request req = request_without(kwargs, {"max_threads", "dyn_smem_per_thread", "target", "blocks"}, o);
  std::ostringstream out;
  cli::run_suggest(tables(), req, {o[0], o[1], o[2], o[3]}, true, out, {});
  return out.str();
}

/// The CLI's `sweep --json` document.
std::string sweep_json(const py::kwargs& kwargs) {
  std::vector<std::string> o(4);
  const occcalc::request req = request_without(kwargs, {"vary", "from_", "to", "step"}, o);
  if (o[0].empty()) throw occcalc::input_error("vary", "is required: " + cli::vary_choices());
  cli::sweep_options options;
  options.vary = o[0];
  options.from = o[1];
  options.to = o[2];
  options.step = o[3];
  std::ostringstream out;
  cli::run_sweep(tables(), req, options, true, out, {});
  return out.str();
}

/// The CLI's words for an option as the module's: `--sm-count` is
/// `sm_count=`, the keyword argument that gives the same.
std::string in_python_words(std::string text) {
  const auto is_word = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; };
  for (std::size_t at = 0; (at = text.find("--", at)) != std::string::npos;) {
    const bool starts = (at == 0 || text[at - 1] == ' ' || text[at - 1] == '(') && at + 2 < text.size() &&
                        text[at + 2] >= 'a' && text[at + 2] <= 'z';
    if (!starts) {
      at += 2;
      continue;
    }
    std::size_t end = at + 2;
    while (end < text.size() && is_word(text[end])) ++end;
    std::string name = text.substr(at + 2, end - at - 2);
    std::replace(name.begin(), name.end(), '-', '_');
    text.replace(at, end - at, name + "=");
    at += name.size() + 1;
  }
  return text;
}

/// The CLI's `inspect --json` document for `paths`, and its notes.
/// `paths` are file system paths as bytes (os.fsencode's: any file name,
/// UTF-8 or not); the document and notes come back as bytes, for Python to
/// decode as it encoded.
std::pair<py::bytes, py::bytes> inspect_json(const std::vector<py::bytes>& paths, const std::string& kernel,
                                             const std::string& arch, const py::kwargs& kwargs) {
  cli::inspect_command command;
  for (const auto& path : paths) command.inputs.emplace_back(path);
  command.kernel_pattern = kernel;
  command.arch = arch;
  command.format = cli::output_format::json;
  command.overrides = cli::parse_overrides(request_of(kwargs));
  std::istringstream no_input;
  std::ostringstream out, err;
  {
    py::gil_scoped_release unlocked;  // reading a library takes a while
    if (cli::run_inspect(tables(), command, no_input, out, err, {}) != cli::exit_status::ok) {
      // The CLI's error lines, without their prefix: its notes are for a
      // reading that went through.
      constexpr std::string_view prefix = "occcalc: error: ";
      std::string message;
      std::istringstream lines(err.str());
      for (std::string line; std::getline(lines, line);) {
        if (line.rfind(prefix, 0) == 0) message += (message.empty() ? "" : "\n") + line.substr(prefix.size());
      }
      throw occcalc::error(message.empty() ? "inspect could not read its inputs" : in_python_words(message));
    }
  }
  return {py::bytes(out.str()), py::bytes(in_python_words(err.str()))};
}

/// A figure of a kernel, or None where the binary does not state it.
py::object figure(const std::optional<std::int64_t>& value) {
  return value ? py::object(py::int_(*value)) : py::object(py::none());
}

py::object dimensions(const std::optional<inspect::dim3>& value) {
  return value ? py::object(py::make_tuple((*value)[0], (*value)[1], (*value)[2])) : py::object(py::none());
}

/// The kernels `inspect_bytes` reads from `bytes`, each a dict of its
/// figures (static shared memory settled as the CLI settles it) and its
/// demangled name.
py::list kernels_of(inspect::byte_view bytes) {
  inspect::inspection found;
  {
    py::gil_scoped_release unlocked;
    found = inspect::inspect_bytes(bytes, {});
  }
  py::list out;
  for (auto& k : found.kernels) {
    inspect::kernel_resources& r = k.resources;
    cli::settle_static_shared_memory(tables(), r);
    py::dict d;
    d["name"] = r.name;
    d["demangled"] = k.demangled.empty() ? inspect::demangle(r.name) : k.demangled;
    d["arch"] = r.arch.name;
    d["registers"] = figure(r.registers);
    d["static_smem"] = figure(r.static_shared_memory_bytes);
    d["barriers"] = figure(r.barriers);
    d["stack_size"] = figure(r.stack_size_bytes);
    d["required_threads"] = dimensions(r.required_threads);
    d["max_threads"] = dimensions(r.max_threads);
    d["cluster_dims"] = dimensions(r.cluster_dims);
    d["agprs"] = figure(r.agprs);
    d["sgprs"] = figure(r.sgprs);
    d["wave_size"] = figure(r.wave_size);
    out.append(d);
  }
  return out;
}

/// The kernels of an image in memory (a cubin, a fat binary, a code object).
py::list image_kernels(const py::bytes& data) {
  const std::string_view bytes = data;
  return kernels_of(inspect::byte_view(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()));
}

/// The kernels of a file (a cubin, fat binary, executable or library), read
/// as the CLI reads it: mapped, a pipe or device bounded.
py::list file_kernels(const py::bytes& path) {
  const inspect::mapped_file file{std::string(path)};
  return kernels_of(file.bytes());
}

/// Whether a GPU of compute capability `gpu` (`8.9`, `sm_89`) loads a cubin
/// built for `image` (`sm_90a`, `sm_100f`, `sm_80`).
bool loads_cubin(const std::string& image, const std::string& gpu) {
  return occcalc::loads_cubin(occcalc::parse_compute_capability("image", image), occcalc::features_of(image),
                              occcalc::parse_compute_capability("gpu", gpu));
}

/// Raises `type` with `text`. Messages can quote a file name or a value that
/// is not UTF-8: shown with backslash escapes, never a UnicodeDecodeError in
/// their place.
void raise(PyObject* type, const std::string& text) {
  const py::object message = py::reinterpret_steal<py::object>(
      PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "backslashreplace"));
  PyErr_SetObject(type, message.ptr());
}

/// Raises `type` with `text` and a `field` attribute: the request key the
/// error is about (`threads`, `gpu`), empty where it is about none.
void raise_input_error(PyObject* type, const std::string& text, const std::string& field) {
  const py::object message = py::reinterpret_steal<py::object>(
      PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "backslashreplace"));
  const py::object instance = py::reinterpret_steal<py::object>(PyObject_CallOneArg(type, message.ptr()));
  if (!instance) return;  // the call's own error stands
  PyObject_SetAttrString(instance.ptr(), "field", py::str(field).ptr());
  PyErr_SetObject(type, instance.ptr());
}

/// occcalc.Error, made at import.
PyObject* error_type = nullptr;

/// What pybind11 calls for an exception its bound functions let out, and
/// the vectorcall functions call themselves.
void translate_error(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const type_error& e) {
    raise(PyExc_TypeError, e.what());
  } catch (const occcalc::input_error& e) {
    raise_input_error(error_type, e.keyed_text(), e.field());
  } catch (const occcalc::error& e) {
    raise_input_error(error_type, e.what(), "");
  }
}

void set_python_error(std::exception_ptr p) {
  try {
    translate_error(p);
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    raise(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "unknown error");
  }
}

/// Each table entry as the CLI's `list --json` writes it, JSON text.
std::vector<std::string> gpu_entries() {
  std::vector<std::string> out;
  for (const auto& g : tables().gpus) out.push_back(cli::entry_text(g));
  for (const auto& g : tables().amd_gpus) out.push_back(cli::entry_text(g));
  return out;
}

std::vector<std::string> arch_entries() {
  std::vector<std::string> out;
  for (const auto& a : tables().architectures) out.push_back(cli::entry_text(a));
  for (const auto& t : tables().amd_targets) out.push_back(cli::entry_text(t));
  return out;
}

}  // namespace

}  // namespace occcalc::python

PYBIND11_MODULE(_occcalc, m) {
  using namespace occcalc::python;
  m.doc() = "occcalc's calculator: the C++ core and tables the occcalc CLI uses.";
  m.attr("__version__") = occcalc::version_string;
  // occcalc.Error: what the CLI would refuse, with its message (keys spelled
  // as Python's keyword arguments, as a batch line's are).
  static py::exception<occcalc::error> error(m, "Error", PyExc_ValueError);
  error_type = error.ptr();
  py::register_exception_translator(translate_error);
  result_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&result_spec));
  if (result_type == nullptr) throw py::error_already_set();
  m.add_object("Result", py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(result_type)));
  static PyMethodDef occupancy_def = {"occupancy", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(occupancy)),
                                      METH_FASTCALL | METH_KEYWORDS, R"doc(occupancy(**request) -> Result

The occupancy of one launch.

NVIDIA: ``cc`` (``"7.0"``, ``70``, ``"sm_70"``) or ``gpu`` (a name, as
``occcalc list gpus`` shows, or a family such as ``"H100"``), ``threads``,
``regs``, and optionally ``smem`` and ``dyn_smem`` (bytes, or ``"48K"``),
``carveout``, ``cache``, ``barriers``, ``grid``, ``sm_count`` and ``cluster``
(``8`` or ``"2x2x1"``, 9.0 and later: :attr:`Result.cluster`).
AMD: ``gfx`` or an AMD ``gpu``, ``threads``, ``vgprs``, ``agprs``,
``sgprs``, ``lds``, ``wave32``/``wave64``, ``cu_mode``/``wgp_mode``,
``model``. ``None`` is the same as leaving a key out. Integers are what
has ``__index__`` (``int``, NumPy's integer scalars), never a bool.

Returns a :class:`Result`; raises :class:`Error` for what the CLI
refuses, and ``TypeError`` naming the argument for a value of the wrong
type.)doc"};
  m.add_object("occupancy", py::reinterpret_steal<py::object>(PyCFunction_NewEx(&occupancy_def, nullptr, m.attr("__name__").ptr())));
  m.def("_occupancy_many", &occupancy_many, py::arg("threads"), py::arg("regs") = py::none(),
        py::arg("smem") = py::none(), py::arg("dyn_smem") = py::none(), py::arg("vgprs") = py::none(),
        py::arg("sgprs") = py::none(), py::arg("lds") = py::none());
  m.def("_suggest_json", &suggest_json);
  m.def("_sweep_json", &sweep_json);
  m.def("_inspect_json", &inspect_json, py::arg("paths"), py::arg("kernel") = "", py::arg("arch") = "");
  m.def("_image_kernels", &image_kernels, py::arg("data"));
  m.def("_file_kernels", &file_kernels, py::arg("path"));
  m.def("_target_waves", &target_waves);
  m.def("_max_active_blocks", &max_active_blocks, py::arg("block_size"), py::arg("dynamic_bytes"));
  m.def("_potential_block_size", &potential_block_size, py::arg("dynamic"), py::arg("block_size_limit"),
        py::arg("max_threads"));
  m.def("_available_dynamic_smem", &available_dynamic_smem, py::arg("blocks"), py::arg("block_size"));
  m.def("_cluster_figures", &cluster_figures, py::arg("cluster"), py::arg("block_size"), py::arg("dynamic_bytes"),
        py::arg("non_portable"));
  m.def("_loads_cubin", &loads_cubin, py::arg("image"), py::arg("gpu"));
  m.def("_gpu_entries", &gpu_entries);
  m.def("_arch_entries", &arch_entries);
}
