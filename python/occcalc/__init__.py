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

from ._occcalc import Error, Result, __version__  # noqa: F401
from . import _occcalc

# Named where users import them from, in tracebacks and reprs.
Error.__module__ = "occcalc"
Result.__module__ = "occcalc"

__all__ = ["Error", "Result", "occupancy", "occupancy_many", "triton_occupancy", "suggest", "sweep", "inspect",
           "gpus", "archs", "__version__"]


def occupancy(**request):
    """The occupancy of one launch.

    NVIDIA: ``cc`` (``"7.0"``, ``70``, ``"sm_70"``) or ``gpu`` (a name, as
    ``occcalc list gpus`` shows, or a family such as ``"H100"``), ``threads``,
    ``regs``, and optionally ``smem`` and ``dyn_smem`` (bytes, or ``"48K"``),
    ``carveout``, ``cache``, ``barriers``, ``grid`` and ``sm_count``.
    AMD: ``gfx`` or an AMD ``gpu``, ``threads``, ``vgprs``, ``agprs``,
    ``sgprs``, ``lds``, ``wave32``/``wave64``, ``cu_mode``/``wgp_mode``,
    ``model``. ``None`` is the same as leaving a key out.

    Returns a :class:`Result`; raises :class:`Error` for what the CLI
    refuses.
    """
    return _occcalc._occupancy(**request)


def occupancy_many(threads, regs=None, smem=None, dyn_smem=None, *, vgprs=None, sgprs=None, lds=None, **request):
    """The occupancy of many launches of one target at once: an autotuner's space.

    NVIDIA: ``threads``, ``regs``, ``smem`` and ``dyn_smem``; AMD (``gfx`` or
    an AMD ``gpu``): ``threads``, ``vgprs``, ``sgprs`` and ``lds``. Each is
    a sequence (or NumPy array) of one length, or one integer shared by
    every configuration; the rest of the request (``cc``, ``gfx`` or
    ``gpu``, ``carveout``, ``cache``, ``barriers``, ``model``, the wave
    size) is fixed. Returns ``(occupancy, blocks_per_sm)`` (AMD: work-groups
    per CU or WGP): NumPy arrays where NumPy is installed, else lists. The
    computation releases the GIL. Raises :class:`Error` naming the first
    configuration the CLI would refuse.
    """
    occupancy, blocks = _occcalc._occupancy_many(threads, regs, smem, dyn_smem, vgprs, sgprs, lds, **request)
    try:
        import numpy
    except ImportError:
        return occupancy, blocks
    return numpy.asarray(occupancy, dtype=numpy.float64), numpy.asarray(blocks, dtype=numpy.int64)


def suggest(**request):
    """What ``occcalc suggest`` answers, as its ``--json`` document (a dict):
    the block size with the most resident threads, and with ``threads`` the
    next steps per limiter. Takes the request's keys and ``max_threads``,
    ``dyn_smem_per_thread``, ``target`` (percent) and ``blocks``."""
    return _json.loads(_occcalc._suggest_json(**request))


def sweep(vary, **request):
    """What ``occcalc sweep --vary VARY`` answers, as its ``--json`` document
    (a dict): the occupancy at every value of one figure (``threads``,
    ``regs``, ``smem``, ``barriers``; AMD ``vgprs``, ``sgprs``, ``lds``), the
    cliffs and the current value. ``from_``, ``to`` and ``step`` set the
    range."""
    return _json.loads(_occcalc._sweep_json(vary=vary, **request))


def inspect(*paths, kernel=None, arch=None, **launch):
    """The kernels of build outputs, as ``occcalc inspect --json`` reads them
    (cubins, fat binaries, libraries, executables, AMD code objects, Triton
    caches, compiler logs, directories): its document, a dict with
    ``kernels``. ``kernel`` (a regular expression) and ``arch`` select;
    ``threads``, ``dyn_smem``, ``carveout`` and ``model`` set the launch.
    The CLI's notes come as warnings; what it cannot read raises
    :class:`Error`."""
    if not paths:
        raise Error("inspect needs a path: a build output or a directory")
    document, notes = _occcalc._inspect_json([str(p) for p in paths], kernel or "", arch or "", **launch)
    import warnings
    for note in notes.splitlines():
        warnings.warn(note.replace("occcalc: note: ", "", 1), stacklevel=2)
    return _json.loads(document)


def _field(obj, name, default=None):
    """`obj.name`, or `obj[name]` for a dict (Triton's metadata is either)."""
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def triton_occupancy(kernel, **launch):
    """The occupancy of a compiled Triton kernel, as Triton launches it.

    Duck-typed, so Triton need not be imported here: ``kernel.n_regs``, and
    ``kernel.metadata`` (an object or a dict, as in Triton's cache JSON) with
    ``num_warps``, ``shared`` (the dynamic shared memory Triton launches
    with) and ``target`` (``backend``, ``arch``, ``warp_size``). The block
    size is ``num_warps`` times the warp size. ``launch`` adds request keys
    (``gpu`` or ``sm_count`` with ``grid`` for waves, ``carveout``).
    """
    meta = kernel.metadata
    target = _field(meta, "target")
    backend, arch = _field(target, "backend"), _field(target, "arch")
    warp_size = _field(target, "warp_size") or (64 if backend == "hip" else 32)
    threads = _field(meta, "num_warps") * warp_size
    shared = _field(meta, "shared", 0) or 0
    if backend == "hip":
        request = dict(gfx=str(arch), threads=threads, vgprs=kernel.n_regs, lds=shared,
                       wave64=warp_size == 64 or None, wave32=warp_size == 32 or None)
    elif backend == "cuda":
        request = dict(cc=arch, threads=threads, regs=kernel.n_regs, dyn_smem=shared)
    else:
        raise Error(f"target backend {backend!r} is not cuda or hip")
    if "gpu" in launch:
        request.pop("cc", None)
        request.pop("gfx", None)
    request.update(launch)
    return occupancy(**request)


def _limits(self):
    """Each resource's block limit per SM (CU, WGP); None where it does not limit."""
    return dict(self._limits)


def _to_dict(self):
    """The CLI's ``--json`` document for the same request, as a dict."""
    return _json.loads(self._json())


def _reasons(self):
    """Why a resource allows no block at all, by resource (as ``--json``'s ``reasons``)."""
    return self.to_dict()["reasons"]


Result.limits = property(_limits)
Result.reasons = property(_reasons)
Result.to_dict = _to_dict


def gpus():
    """Every named GPU, NVIDIA then AMD, as ``occcalc list --json`` writes each."""
    return [_json.loads(entry) for entry in _occcalc._gpu_entries()]


def archs():
    """Every NVIDIA architecture and AMD target, as ``occcalc list --json`` writes each."""
    return [_json.loads(entry) for entry in _occcalc._arch_entries()]
