"""An offline twin of cuda.core's occupancy API: the same calls, with no GPU.

``cuda.core``'s ``Kernel.occupancy`` (``KernelOccupancy``) asks the driver,
which needs a GPU and a loaded kernel. :class:`Kernel` holds a kernel's
figures (read from a cubin, a Triton kernel, or given) and its
``occupancy`` answers the same calls, with the same names, arguments and
results, computed as ``cuda_occupancy.h`` computes them:

- ``max_active_blocks_per_multiprocessor(block_size, dynamic_shared_memory_size)``:
  ``cudaOccMaxActiveBlocksPerMultiprocessor``;
- ``max_potential_block_size(dynamic_shared_memory_needed, block_size_limit)``:
  ``cudaOccMaxPotentialOccupancyBlockSize`` (``...VariableSMem`` when
  ``dynamic_shared_memory_needed`` is a function of the block size); its
  ``min_grid_size`` needs the SM count (``gpu=`` or ``sm_count=``), and is
  ``None`` without it;
- ``available_dynamic_shared_memory_per_block(num_blocks_per_multiprocessor, block_size)``:
  ``cudaOccAvailableDynamicSMemPerBlock``, for a kernel opted in to the most
  dynamic shared memory it may use;
- ``max_active_clusters(config)`` and ``max_potential_cluster_size(config)``:
  ``cudaOccupancyMaxActiveClusters`` and ``cudaOccupancyMaxPotentialClusterSize``
  for ``config`` (a ``cuda.core.LaunchConfig``, or anything with its
  ``cluster``, ``block`` and ``shmem_size``), on the one GPU the kernel names
  (``gpu=``, or ``sm_count=``). An ``int`` where the answer is exact (a
  measured GPU, docs/clusters.md), a :class:`ClusterRange` where it is not:
  never a guessed single figure.

What the driver refuses raises :class:`occcalc.Error` here (cuda.core raises
``CUDAError``); a value of the wrong type, ``TypeError``.
"""
from collections import namedtuple as _namedtuple

from . import _occcalc
from ._occcalc import Error
from . import triton
from .triton import _a

__all__ = ["ClusterRange", "Kernel", "KernelOccupancy", "MaxPotentialBlockSizeOccupancyResult"]

# cuda.core's own: namedtuple("MaxPotential", ("min_grid_size", "max_block_size")).
MaxPotentialBlockSizeOccupancyResult = _namedtuple("MaxPotential", ("min_grid_size", "max_block_size"))


class ClusterRange(_namedtuple("ClusterRange", ("fewest", "most", "basis"))):
    """A cluster figure known only to lie in ``[fewest, most]``: the GPU's placement
    domains were not measured. ``basis`` says what the range rests on: ``"gpc_counts"``
    (the product's published GPC counts) or ``"sm_count"`` (its SM count alone).
    ``fewest`` is what a launch can count on."""

    __slots__ = ()


def _volume(config, name, required=True):
    """``config.<name>`` (an int or a tuple of up to three ints, as ``LaunchConfig``
    takes them) as a count of blocks or threads."""
    if not hasattr(config, name):
        raise TypeError(f"config is {_a(config)} with no '{name}'; it takes a cuda.core LaunchConfig")
    value = getattr(config, name)
    if value is None:
        if required:
            raise Error(f"config.{name} is None; the call needs it")
        return 0
    dims = value if isinstance(value, (tuple, list)) else (value,)
    if not 1 <= len(dims) <= 3 or any(isinstance(d, bool) or not hasattr(d, "__index__") for d in dims):
        raise TypeError(f"config.{name} is {_a(value)}; it takes an int or a tuple of one to three ints")
    product = 1
    for d in dims:
        if d.__index__() < 1:
            raise Error(f"config.{name} {value!r} has a dimension below 1")
        product *= d.__index__()
    return product


def _sm_of(arch):
    """`sm_90a` as 90, for ordering images by architecture."""
    digits = "".join(c for c in arch if c.isdigit())
    return int(digits) if digits else 0


def _cluster_answer(fewest, most, basis):
    return fewest if fewest == most else ClusterRange(fewest, most, basis)

_KERNEL_KEYS = ("cc", "gpu", "regs", "smem", "barriers", "carveout", "cache", "sm_count", "max_threads")


def _target_of(request):
    """The architecture and GPU a kernel request names, as a Result names them."""
    return _occcalc.occupancy(threads=32, regs=0, **{k: request[k] for k in ("cc", "gpu") if request.get(k) is not None})


class KernelOccupancy:
    """cuda.core's ``KernelOccupancy`` calls for one :class:`Kernel`, answered offline."""

    __slots__ = ("_request", "_max_threads")

    def __init__(self, request, max_threads=None):
        self._request = request
        self._max_threads = max_threads

    def max_active_blocks_per_multiprocessor(self, block_size, dynamic_shared_memory_size):
        """The most blocks of ``block_size`` threads resident on one SM, each with
        ``dynamic_shared_memory_size`` bytes of dynamic shared memory."""
        return _occcalc._max_active_blocks(block_size, dynamic_shared_memory_size, **self._request)

    def max_potential_block_size(self, dynamic_shared_memory_needed, block_size_limit):
        """The largest block size of the most resident threads (``max_block_size``) and
        the grid that fills the GPU with it (``min_grid_size``; ``None`` without an
        SM count). ``dynamic_shared_memory_needed``: bytes, or a function of the
        block size; ``block_size_limit``: 0 for the kernel's own limit, its
        ``max_threads`` (``__launch_bounds__``) where it has one, as the runtime's
        ``maxThreadsPerBlock`` attribute limits the search."""
        block, blocks_per_sm, sm_count = _occcalc._potential_block_size(dynamic_shared_memory_needed,
                                                                         block_size_limit, self._max_threads,
                                                                         **self._request)
        min_grid = blocks_per_sm * sm_count if sm_count is not None else None
        return MaxPotentialBlockSizeOccupancyResult(min_grid_size=min_grid, max_block_size=block)

    def available_dynamic_shared_memory_per_block(self, num_blocks_per_multiprocessor, block_size):
        """The dynamic shared memory a block may use with ``num_blocks_per_multiprocessor``
        blocks of ``block_size`` threads resident on one SM."""
        return _occcalc._available_dynamic_smem(num_blocks_per_multiprocessor, block_size, **self._request)

    def _clusters(self, config, cluster_required, non_portable):
        shmem = getattr(config, "shmem_size", 0)
        return _occcalc._cluster_figures(_volume(config, "cluster", cluster_required), _volume(config, "block"),
                                         0 if shmem is None else shmem, bool(non_portable), **self._request)

    def max_active_clusters(self, config, stream=None):
        """The clusters of ``config.cluster`` blocks that run at once on the GPU
        (``cudaOccupancyMaxActiveClusters``): an ``int`` where the GPU's layout was
        measured, else a :class:`ClusterRange`. ``stream`` is accepted as cuda.core
        takes it, and not used."""
        fewest, most, _, _, basis = self._clusters(config, True, False)
        return _cluster_answer(fewest, most, basis)

    def max_potential_cluster_size(self, config, stream=None, *, non_portable=False):
        """The largest cluster size of which one cluster runs at once
        (``cudaOccupancyMaxPotentialClusterSize``): up to the portable size, as the
        runtime answers by default, or with ``non_portable=True`` (the kernel's
        ``cudaFuncAttributeNonPortableClusterSizeAllowed``) up to the largest the
        architecture launches. ``config.cluster`` is not used. An ``int``, or a
        :class:`ClusterRange`."""
        _, _, fewest, most, basis = self._clusters(config, False, non_portable)
        return _cluster_answer(fewest, most, basis)


class Kernel:
    """A kernel's figures and the GPU it runs on: what cuda.core's ``Kernel`` knows
    once the driver has loaded it.

    ``Kernel(regs=..., cc=... or gpu=..., smem=0, barriers=1, carveout=None,
    cache=None, sm_count=None, max_threads=None)``, or :meth:`from_cubin` and
    :meth:`from_triton`. ``max_threads``: the most threads per block the kernel
    takes (``__launch_bounds__``, the runtime's ``maxThreadsPerBlock``
    attribute), which ``max_potential_block_size`` does not search past.
    """

    __slots__ = ("_request", "_max_threads", "name")

    def __init__(self, *, name=None, max_threads=None, **figures):
        unknown = sorted(set(figures) - set(_KERNEL_KEYS))
        if unknown:
            raise TypeError(f"Kernel() does not take {', '.join(unknown)}; it takes {', '.join(_KERNEL_KEYS)}")
        if max_threads is not None:
            if isinstance(max_threads, bool) or not hasattr(max_threads, "__index__"):
                raise TypeError(f"max_threads is {_a(max_threads)}; it takes an integer")
            if max_threads.__index__() < 1:
                raise Error(f"max_threads {max_threads!r} is below 1 thread")
            max_threads = max_threads.__index__()
        self._request = {key: value for key, value in figures.items() if value is not None}
        self._max_threads = max_threads
        self.name = name
        # Checked now, as cuda.core checks a kernel when it loads it.
        _occcalc._max_active_blocks(32, 0, **self._request)

    @property
    def max_threads(self):
        """The most threads per block the kernel takes (its launch bounds), or None."""
        return self._max_threads

    @property
    def occupancy(self):
        """The occupancy calls, as ``cuda.core.Kernel.occupancy``."""
        return KernelOccupancy(self._request, self._max_threads)

    @classmethod
    def from_cubin(cls, cubin, name=None, **gpu):
        """The kernel ``name`` (the only one where it holds one; mangled, or demangled as
        ``inspect --kernel`` takes it) of a cubin, fat binary, executable or library:
        bytes, or a path. ``gpu``: ``gpu=``, ``cc=`` or ``sm_count=`` (by default the
        image's own architecture, with no SM count). Where the file holds the kernel
        for several architectures, the image the named GPU loads is taken (the newest
        it can load, as the driver picks SASS); without a GPU, one must be named."""
        if isinstance(cubin, (bytes, bytearray, memoryview)):
            kernels = _occcalc._image_kernels(bytes(cubin))
        else:
            from . import _path_bytes
            kernels = _occcalc._file_kernels(_path_bytes(cubin, "cubin"))
        if name is not None and not isinstance(name, str):
            raise TypeError(f"name is {_a(name)}; it takes a kernel's name")
        # Kernels with figures (PTX alone has none until ptxas builds it).
        built = [k for k in kernels if k["registers"] is not None]
        names = sorted({k["demangled"] for k in built})
        matching = [k for k in built if name is None or name in (k["name"], k["demangled"])]
        if not matching or (name is None and len({k["name"] for k in matching}) > 1):
            wanted = f"no kernel named {name!r}" if name is not None else "several kernels; name one"
            raise Error(f"the file holds {wanted} (it holds {', '.join(names) or 'none'})")
        if len({k["name"] for k in matching}) > 1:
            raise Error(f"{name!r} names {len({k['name'] for k in matching})} kernels (overloads: "
                        f"{', '.join(sorted({k['name'] for k in matching}))}); give the mangled name")
        archs = sorted({k["arch"] for k in matching}, key=_sm_of)
        if len(archs) > 1 and any(gpu.get(key) is not None for key in ("gpu", "cc")):
            target = _target_of(gpu)
            loadable = [a for a in archs if _occcalc._loads_cubin(a, target.arch)]
            if not loadable:
                asked = f"{target.gpu} ({target.arch})" if target.gpu else target.arch
                raise Error(f"the file holds {matching[0]['demangled']} for {', '.join(archs)}; {asked} loads none "
                            "of them (the driver would compile its PTX, whose figures ptxas gives)")
            archs = loadable[-1:]  # the newest SASS the GPU loads, as the driver picks
        if len(archs) > 1:
            raise Error(f"the file holds {matching[0]['demangled']} for {', '.join(archs)}; "
                        "give gpu= or cc= to pick the image the GPU loads")
        k = next(k for k in matching if k["arch"] == archs[0])
        request = dict(regs=k["registers"], smem=k["static_smem"], barriers=k["barriers"],
                       max_threads=triton._max_threads_of(k))
        if not any(gpu.get(key) is not None for key in ("gpu", "cc")):
            request["cc"] = k["arch"]
        request.update(gpu)
        kernel = cls(name=k["name"], **request)
        triton._check_target(k["name"], k["arch"], _target_of(request))
        return kernel

    @classmethod
    def from_triton(cls, compiled, **gpu):
        """A compiled Triton kernel (``compile()``, ``warmup()``, the cache), with no GPU:
        its cubin's figures (``n_regs`` where it holds no binary)."""
        backend, _, request = triton._own_request(compiled, gpu)
        if backend != "cuda":
            raise Error(f"a {backend} kernel: cuda.core's occupancy calls are CUDA's")
        request.update(gpu)
        name = triton._field(triton._metadata(compiled), "name")
        kernel = cls(name=name, **request)
        # Refused as triton.occupancy refuses a GPU that cannot load the binary.
        triton._check_target(name, triton.binary_target(compiled), _target_of(request))
        return kernel

    def __repr__(self):
        figures = ", ".join(f"{k}={v!r}" for k, v in
                            [*self._request.items(), *([("max_threads", self._max_threads)] if self._max_threads else [])])
        return f"<occcalc.Kernel {self.name or ''} {figures}>".replace("  ", " ")


Kernel.__module__ = KernelOccupancy.__module__ = "occcalc"
