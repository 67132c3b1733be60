"""occcalc: the theoretical occupancy of GPU kernels, NVIDIA and AMD.

The same calculator as the ``occcalc`` command: the same C++ core and the
same compiled tables, in process. A call takes the CLI's keys as keyword
arguments, with its defaults, and answers as the CLI does::

    >>> import occcalc
    >>> r = occcalc.occupancy(cc="7.0", threads=128, regs=37)
    >>> r.blocks_per_sm, r.occupancy, r.limiters
    (12, 0.75, ['registers'])

``Result.to_dict()`` is the CLI's ``--json`` document for the same request.
What the CLI refuses raises :class:`occcalc.Error` (a ``ValueError``) with
its message.
"""
import json as _json
import os as _os

from ._occcalc import Error, Result, __version__  # noqa: F401
# The binding itself, not a Python function around it: that would double a call's cost.
from ._occcalc import occupancy  # noqa: F401
from . import _occcalc
from . import triton
from .triton import _a
from .kernel import ClusterRange, Kernel, KernelOccupancy, MaxPotentialBlockSizeOccupancyResult  # noqa: F401

# Named where users import them from, in tracebacks and reprs.
Error.__module__ = "occcalc"
Result.__module__ = "occcalc"

__all__ = ["Error", "Result", "occupancy", "occupancy_many", "triton_occupancy", "triton", "ClusterRange", "Kernel",
           "KernelOccupancy", "MaxPotentialBlockSizeOccupancyResult", "suggest", "sweep", "inspect", "gpus", "archs",
           "__version__"]


def occupancy_many(threads, regs=None, smem=None, dyn_smem=None, *, vgprs=None, sgprs=None, lds=None, **request):
    """The occupancy of many launches of one target at once: an autotuner's space.

    NVIDIA: ``threads``, ``regs``, ``smem`` and ``dyn_smem``; AMD (``gfx`` or
    an AMD ``gpu``): ``threads``, ``vgprs``, ``sgprs`` and ``lds``. Each is
    a sequence or a 1-D array of integers (NumPy's are read in place, with no
    Python object per value), all of one length, or one integer shared by
    every configuration; empty columns answer empty arrays. The rest of the request (``cc``, ``gfx`` or
    ``gpu``, ``carveout``, ``cache``, ``barriers``, ``model``, the wave
    size) is fixed. Returns ``(occupancy, blocks_per_sm)`` (AMD: work-groups
    per CU or WGP): NumPy arrays (float64, int64) where NumPy is installed,
    else lists. The computation releases the GIL. Raises :class:`Error`
    naming the first configuration the CLI would refuse, and ``TypeError``
    for booleans, floats, text or bytes.
    """
    return _occcalc._occupancy_many(threads, regs, smem, dyn_smem, vgprs, sgprs, lds, **request)


def suggest(**request):
    """What ``occcalc suggest`` answers, as its ``--json`` document (a dict):
    the block size with the most resident threads, and with ``threads`` the
    next steps per limiter. Takes the request's keys and ``max_threads``,
    ``dyn_smem_per_thread``, ``target`` (percent) and ``blocks``. For AMD,
    HIP's block size search, or with ``model="llvm"`` and ``threads`` the
    compiler's next steps (``steps``: each resource with the most it may
    use at ``goal_waves_per_simd``)."""
    return _json.loads(_occcalc._suggest_json(**request))


def sweep(vary, **request):
    """What ``occcalc sweep --vary VARY`` answers, as its ``--json`` document
    (a dict): the occupancy at every value of one figure (``threads``,
    ``regs``, ``smem``, ``barriers``; AMD ``vgprs``, ``sgprs``, ``lds``), the
    cliffs and the current value; or, with ``vary="cluster"`` on a ``gpu`` (or
    ``sm_count``), the clusters at every cluster size and the best size.
    ``from_``, ``to`` and ``step`` set the range."""
    return _json.loads(_occcalc._sweep_json(vary=vary, **request))


def _path_bytes(path, where):
    """`path` (str, bytes or os.PathLike) as the bytes the file system names it
    by: any file name, UTF-8 or not."""
    try:
        encoded = _os.fsencode(_os.fspath(path))
    except TypeError:
        raise TypeError(f"{where} is {_a(path)}; it takes a path (str, bytes or os.PathLike)") from None
    if b"\0" in encoded:
        raise Error(f"{where} {path!r} holds a NUL byte; a file name cannot")
    if not encoded:
        raise Error(f"{where} is empty; give a file or a directory")
    return encoded


def _text_or_none(value, where):
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{where} is {_a(value)}; it takes a string")
    if value is not None and "\0" in value:
        raise Error(f"{where} holds a NUL character")
    return value or ""


def inspect(*paths, kernel=None, arch=None, **launch):
    """The kernels of build outputs, as ``occcalc inspect --json`` reads them
    (cubins, fat binaries, libraries, executables, AMD code objects, Triton
    caches, compiler logs, directories): its document, a dict with
    ``kernels``. Paths are ``str``, ``bytes`` or ``os.PathLike``, as
    ``open()`` takes them. ``kernel`` (a regular expression) and ``arch``
    select; ``threads``, ``dyn_smem``, ``carveout`` and ``model`` set the
    launch. The CLI's notes come as warnings; what it cannot read raises
    :class:`Error`."""
    if not paths:
        raise Error("inspect needs a path: a build output or a directory")
    encoded = [_path_bytes(p, f"path {i}" if len(paths) > 1 else "path") for i, p in enumerate(paths)]
    document, notes = _occcalc._inspect_json(encoded, _text_or_none(kernel, "kernel"), _text_or_none(arch, "arch"),
                                             **launch)
    import warnings
    for note in _os.fsdecode(notes).splitlines():
        warnings.warn(note.replace("occcalc: note: ", "", 1), stacklevel=2)
    return _json.loads(_os.fsdecode(document))


def triton_occupancy(kernel, **launch):
    """The occupancy of a compiled Triton kernel, as Triton launches it:
    :func:`occcalc.triton.occupancy` (no GPU needed; registers from the
    kernel's cubin)."""
    return triton.occupancy(kernel, **launch)


def _limits(self):
    """Each resource's block limit per SM (CU, WGP); None where it does not limit."""
    return dict(self._limits)


def _to_dict(self):
    """The CLI's ``--json`` document for the same request, as a dict."""
    return _json.loads(self._json())


def _reasons(self):
    """Why a resource allows no block at all, by resource (as ``--json``'s ``reasons``)."""
    return self.to_dict()["reasons"]


def _from_json(key, doc):
    def get(self):
        return self.to_dict().get(key)  # None where the vendor has no such key
    get.__doc__ = doc
    return property(get)


Result.limits = property(_limits)
Result.reasons = property(_reasons)
Result.to_dict = _to_dict
# What --json carries beyond the attributes the module computes directly.
for _key, _doc in (("warps_per_block", "Warps (AMD: waves) per block."),
                   ("active_threads_per_sm", "Resident threads (AMD: work-items) per SM (CU or WGP)."),
                   ("family", "The family asked for (H100), or None."),
                   ("waves_per_sm", "With a grid: the grid in waves of resident blocks; None without one."),
                   ("full_waves", "With a grid: its whole waves; None without one."),
                   ("tail_utilization", "With a grid: how full its last wave is, in [0, 1]; None without one."),
                   ("blocks_per_wave", "With a grid: the blocks one wave holds on the device; None without one."),
                   ("whole_wave_grids", "With a grid: the whole-wave grid sizes around it; None without one."),
                   ("cluster", "With cluster= (NVIDIA 9.0+): the cluster's blocks per SM and, per device, the "
                               "clusters that run at once, each {fewest, most} (docs/clusters.md); None without "
                               "one."),
                   ("waves_per_simd", "AMD: the waves per SIMD the model gives, the figure AMD's tools and clang's "
                                      "Occupancy [waves/SIMD] count; None for NVIDIA."),
                   ("max_waves_per_simd", "AMD: the wave slots of a SIMD; None for NVIDIA.")):
    setattr(Result, _key, _from_json(_key, _doc))
del _key, _doc


def gpus():
    """Every named GPU, NVIDIA then AMD, as ``occcalc list --json`` writes each."""
    return [_json.loads(entry) for entry in _occcalc._gpu_entries()]


def archs():
    """Every NVIDIA architecture and AMD target, as ``occcalc list --json`` writes each."""
    return [_json.loads(entry) for entry in _occcalc._arch_entries()]
