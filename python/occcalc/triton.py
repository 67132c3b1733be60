"""occcalc for Triton: compiled kernels' occupancy with no GPU, and pruners an autotuner can use.

Triton need not be installed: every object is read by the attributes Triton
3.x gives it (``python/triton/compiler/compiler.py``, ``CompiledKernel``;
``python/triton/runtime/autotuner.py``, ``Config``), and its cache's
``<name>.json`` as a dict.

- :func:`occupancy` (also ``occcalc.triton_occupancy``): a ``CompiledKernel``
  launched as Triton launches it. Its registers, barriers and static shared
  memory come from its cubin (``kernel.asm["cubin"]``; ``hsaco`` on AMD),
  which ``compile()`` and ``warmup()`` produce with no GPU; ``n_regs``, which
  Triton sets only when the driver loads the kernel, is used where no binary
  is held.
- :func:`early_config_prune`: a function for
  ``triton.autotune(prune_configs_by={"early_config_prune": ...})``, which runs
  before any config is compiled.
- :func:`prune_compiled`: the configs worth benchmarking, once compiled.

Neither pruner ever returns an empty list (Triton raises on one): when every
config falls short, the best is kept and a :class:`PruneWarning` says so.
"""
import warnings as _warnings

from . import _occcalc
from ._occcalc import Error

__all__ = ["occupancy", "early_config_prune", "prune_compiled", "PruneWarning", "binary_target"]


def _a(value):
    """`value`'s type with its article: `a list`, `an int`."""
    name = type(value).__name__
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


class PruneWarning(UserWarning):
    """Every config fell short of what the pruner was asked for; the best was kept."""


PruneWarning.__module__ = "occcalc.triton"


def _field(obj, name, default=None):
    """`obj.name`, or `obj[name]` for a dict (Triton's metadata is either)."""
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _metadata(kernel):
    """``kernel.metadata``; a TypeError naming the argument for anything without it."""
    meta = getattr(kernel, "metadata", None)
    if meta is None:
        raise TypeError(f"kernel is {_a(kernel)} with no 'metadata'; it takes a Triton CompiledKernel "
                        "(compile(), warmup(), the cache) or anything with its attributes")
    return meta


def _integer(meta, name, default=None, minimum=0):
    """The metadata's integer `name`, at least `minimum`; a TypeError naming it for
    another type, an Error for a value below the minimum."""
    value = _field(meta, name, default)
    if value is None:
        value = default
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"the kernel's metadata.{name} is {_a(value)}; Triton's is an integer")
    if value < minimum:
        raise Error(f"the kernel's metadata.{name} is {value}; Triton's is at least {minimum}")
    return value


def _target(meta):
    """(backend, arch, warp size) of Triton's ``metadata.target``."""
    target = _field(meta, "target")
    if target is None:
        raise Error("the kernel's metadata has no target (Triton's GPUTarget: backend, arch, warp_size)")
    backend, arch = _field(target, "backend"), _field(target, "arch")
    if not isinstance(backend, str) or backend not in ("cuda", "hip"):
        raise Error(f"target backend {backend!r} is not cuda or hip")
    if isinstance(arch, bool) or not isinstance(arch, (int, str)):
        raise TypeError(f"the kernel's metadata.target.arch is {_a(arch)}; Triton's is an integer (cuda) or a string")
    warp_size = _integer(target, "warp_size", 64 if backend == "hip" else 32)
    if warp_size not in (32, 64):
        raise Error(f"the kernel's metadata.target.warp_size is {warp_size}; Triton's is 32 or 64")
    return backend, arch, warp_size


def binary_target(kernel):
    """The target the kernel's binary was built for, as the toolchain spells it:
    ``sm_80``, ``sm_90a``, ``gfx90a``. Triton builds CUDA targets of compute
    capability 9.0 and later arch-specific (``sm_arch_from_capability`` in
    ``third_party/nvidia/backend/compiler.py``): an ``sm_90a`` cubin runs on
    compute capability 9.0 alone."""
    backend, arch, _ = _target(kernel.metadata if hasattr(kernel, "metadata") else kernel)
    if backend == "hip":
        return str(arch).split(":")[0]
    arch = int(arch)
    return f"sm_{arch}{'a' if arch >= 90 else ''}"


def _binary(kernel, backend):
    asm = getattr(kernel, "asm", None)
    if asm is None:
        return None
    try:
        binary = asm.get("cubin" if backend == "cuda" else "hsaco")
    except AttributeError:
        return None
    if binary is None or isinstance(binary, str):  # none, or a path as some tools keep it
        return None
    if not isinstance(binary, (bytes, bytearray, memoryview)):
        raise TypeError(f"the kernel's asm binary is {_a(binary)}; Triton's is bytes")
    return bytes(binary)


def _figures(kernel, meta, backend):
    """The kernel's figures from its binary, or from ``n_regs`` where it holds none."""
    name = _field(meta, "name")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"the kernel's metadata.name is {_a(name)}; Triton's is a string")
    binary = _binary(kernel, backend)
    if binary is not None:
        kernels = _occcalc._image_kernels(binary)
        matching = [k for k in kernels if k["name"] == name] or (kernels if len(kernels) == 1 else [])
        if len(matching) != 1:
            names = ", ".join(k["name"] for k in kernels) or "none"
            raise Error(f"the kernel's {'cubin' if backend == 'cuda' else 'code object'} holds no kernel named "
                        f"{name!r} (it holds {names})")
        return matching[0]
    n_regs = getattr(kernel, "n_regs", None)
    if n_regs is None:
        raise Error("the kernel has neither a binary (asm['cubin'] or asm['hsaco']) nor n_regs; "
                    "give a CompiledKernel from compile() or warmup()")
    return {"registers": n_regs, "static_smem": None, "barriers": None, "sgprs": None}


def _check_target(name, image, result):
    """Refuses the GPU or architecture of `result` where it cannot load kernel `name`'s
    binary, built for `image` (`sm_90a`, `gfx90a`)."""
    if image.startswith("sm_"):
        runs = _occcalc._loads_cubin(image, result.arch)
    else:
        runs = result.arch.split(":")[0] == image
    if not runs:
        asked = f"{result.gpu} ({result.arch})" if result.gpu else result.arch
        raise Error(f"{name} is built for {image}; {asked} cannot load it "
                    f"(ask for a GPU that runs {image}, or compile the kernel for {result.arch})")


def _max_threads_of(figures):
    """The most threads per block a kernel read from a cubin takes, as the runtime's
    ``maxThreadsPerBlock`` attribute gives it: its launch bounds (``.maxntid``) or
    required size (``.reqntid``), the smaller; None without either."""
    bounds = []
    for key in ("max_threads", "required_threads"):
        if figures.get(key):
            product = 1
            for d in figures[key]:
                product *= d
            bounds.append(product)
    return min(bounds) if bounds else None


def _own_request(kernel, launch):
    """The compiled kernel's backend, warp size, and its own figures as request keys: its
    target (unless ``launch`` names a GPU or architecture), registers, static shared memory
    and barriers (AMD: VGPRs, SGPRs, LDS and the wave size)."""
    meta = _metadata(kernel)
    backend, arch, warp_size = _target(meta)
    figures = _figures(kernel, meta, backend)
    if backend == "hip":
        request = dict(gfx=str(arch).split(":")[0], vgprs=figures["registers"], sgprs=figures.get("sgprs"),
                       lds=figures.get("static_smem") or 0, wave64=warp_size == 64 or None,
                       wave32=warp_size == 32 or None)
    else:
        request = dict(cc=arch, regs=figures["registers"], smem=figures.get("static_smem"),
                       barriers=figures.get("barriers"))
        # The cubin's .maxntid (Triton writes num_warps x 32): the runtime's maxThreadsPerBlock.
        bounds = _max_threads_of(figures)
        if bounds is not None:
            request["max_threads"] = bounds
    if any(launch.get(key) is not None for key in ("gpu", "cc", "gfx")):
        request.pop("cc", None)
        request.pop("gfx", None)
    return backend, warp_size, request


def occupancy(kernel, **launch):
    """The occupancy of a compiled Triton kernel, as Triton launches it.

    ``kernel`` is a ``CompiledKernel`` (from ``compile()``, ``warmup()`` or
    the cache) or anything with its attributes: ``metadata`` (an object or
    the cache's JSON as a dict) with ``name``, ``num_warps``, ``shared`` (the
    dynamic shared memory Triton launches with) and ``target`` (``backend``,
    ``arch``, ``warp_size``), and ``asm`` with the binary, or ``n_regs``. The
    block size is ``num_warps`` times the warp size; with ``num_ctas`` above 1,
    a cluster launch of ``cluster_dims`` (:attr:`occcalc.Result.cluster`).

    ``launch`` adds request keys: ``gpu`` (or ``cc``, ``gfx``) to answer for
    another GPU than the kernel's target, ``grid`` with ``gpu`` or
    ``sm_count`` for waves, ``carveout``. A GPU that cannot load the
    kernel's binary (an ``sm_90a`` kernel asked about an RTX 4090) raises
    :class:`occcalc.Error`.
    """
    from . import occupancy as _occupancy
    meta = _metadata(kernel)
    backend, warp_size, request = _own_request(kernel, launch)
    request.pop("max_threads", None)  # Triton launches num_warps x the warp size, which its bounds are
    request["threads"] = _integer(meta, "num_warps", minimum=1) * warp_size
    shared = _integer(meta, "shared", 0)
    if backend == "hip":
        request["lds"] += shared
    else:
        request["dyn_smem"] = shared
        # num_ctas > 1: Triton's launcher launches clusters of cluster_dims (of num_ctas along x where
        # the metadata holds none): Result.cluster says what a cluster launch keeps per SM.
        ctas = _integer(meta, "num_ctas", 1, minimum=1)
        if ctas > 1:
            dims = tuple(_field(meta, "cluster_dims", None) or (1, 1, 1))
            if len(dims) != 3 or not all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in dims):
                raise TypeError(f"the kernel's metadata.cluster_dims is {_a(dims)}; Triton's is three positive integers")
            request["cluster"] = "x".join(map(str, dims)) if dims[0] * dims[1] * dims[2] > 1 else ctas
    request.update(launch)
    result = _occupancy(**request)
    _check_target(_field(meta, "name"), binary_target(kernel), result)
    return result


def _kept(scored, min_occupancy, what):
    """The configs of `scored` ((occupancy or None, config), in order) at or
    above the floor, best first; the best alone, with a warning, when none is."""
    if not scored:
        return []
    floor = 0.0 if min_occupancy is None else min_occupancy
    launchable = [(occ, i, c) for i, (occ, c) in enumerate(scored) if occ is not None and occ > 0]
    kept = [(occ, i, c) for occ, i, c in launchable if occ >= floor]
    if kept:
        return [c for occ, i, c in sorted(kept, key=lambda s: (-s[0], s[1]))]
    candidates = launchable or [(0.0, i, c) for i, (occ, c) in enumerate(scored)]
    best = min(candidates, key=lambda s: (-s[0], s[1]))
    reason = (f"none of the {len(scored)} {what} reaches min_occupancy {floor:g}" if launchable
              else f"none of the {len(scored)} {what} can launch")
    _warnings.warn(f"{reason}; kept the best ({best[0]:.1%}) so that the autotuner has one", PruneWarning,
                   stacklevel=3)
    return [best[2]]


def _validated_floor(min_occupancy):
    """The floor as a fraction: a number in [0, 1] (0.75), or a percent as the CLI's
    --min-occupancy takes it, written with its sign ("75%"), so neither is mistaken
    for the other."""
    if min_occupancy is None:
        return None
    if isinstance(min_occupancy, str) and min_occupancy.strip().endswith("%"):
        try:
            percent = float(min_occupancy.strip()[:-1])
        except ValueError:
            raise Error(f"min_occupancy {min_occupancy!r} is not a percent such as '75%'") from None
        if not 0 <= percent <= 100:
            raise Error(f"min_occupancy {min_occupancy!r} is outside [0%, 100%]")
        return percent / 100
    if isinstance(min_occupancy, bool) or not isinstance(min_occupancy, (int, float)):
        raise TypeError(f"min_occupancy is {_a(min_occupancy)}; it takes a number in [0, 1] or a percent such as '75%'")
    if not 0 <= min_occupancy <= 1:
        raise Error(f"min_occupancy {min_occupancy!r} is outside [0, 1] (0.5 is 50%; a percent is written '50%')")
    return float(min_occupancy)


def prune_compiled(compiled, min_occupancy=None, **launch):
    """The configs of ``compiled`` worth benchmarking, best first.

    ``compiled`` maps each config (anything: a ``triton.Config``, a label)
    to its compiled kernel, or is a sequence of compiled kernels (then the
    kernels themselves are returned). A config is dropped when its kernel
    cannot launch (no block fits on an SM: too much shared memory, too many
    registers or threads) or, with ``min_occupancy`` (0 to 1), when its
    occupancy is lower. ``launch`` is :func:`occupancy`'s (``gpu``, ...).
    Never empty: when every config is dropped, the best is kept and a
    :class:`PruneWarning` says so.
    """
    floor = _validated_floor(min_occupancy)
    pairs = list(compiled.items()) if hasattr(compiled, "items") else [(k, k) for k in compiled]
    scored = [(occupancy(kernel, **launch).occupancy, config) for config, kernel in pairs]
    return _kept(scored, floor, "compiled configs")


def _current_target():
    """The GPU Triton compiles for here (Triton's own answer), as occcalc's request keys."""
    try:
        from triton.runtime import driver
        target = driver.active.get_current_target()
    except Exception as error:  # noqa: BLE001 - any failure means: no GPU Triton can see
        raise Error("early_config_prune needs gpu= or cc= (or gfx=) where Triton sees no GPU "
                    f"({type(error).__name__}: {error})") from None
    return {"gfx": str(target.arch)} if target.backend == "hip" else {"cc": target.arch}


# The request keys a config's own figures fill: an error about one of these means the config cannot launch.
_CONFIG_FIGURES = ("threads", "regs", "vgprs", "dyn_smem", "lds")


def early_config_prune(*, min_occupancy=None, registers=None, shared=None, **launch):
    """A function for ``triton.autotune(prune_configs_by={"early_config_prune": ...})``.

    Triton calls it as ``early_config_prune(configs, named_args, **kwargs)``
    before compiling anything (``Autotuner.prune_configs``), so a config's
    registers and shared memory are not known yet: by default it drops only
    what provably cannot launch, a block of ``num_warps`` warps larger than
    the GPU runs. Give estimates to judge more:

    - ``registers``: registers per thread, an integer or
      ``registers(config, named_args)``; ``None`` from the function skips the
      config's occupancy (it is kept).
    - ``shared``: the dynamic shared memory a config launches with, in bytes,
      ``shared(config, named_args)`` (the matmul tutorial's is about
      ``(BLOCK_SIZE_M + BLOCK_SIZE_N) * BLOCK_SIZE_K * 2 * (num_stages - 1)``).
      A config over the opt-in maximum per block cannot launch.
    - ``min_occupancy`` (0 to 1, or a percent as the CLI takes it: ``"75%"``): with
      ``registers``, drop configs whose occupancy is lower.

    ``launch`` names the GPU (``gpu``, ``cc`` or ``gfx``; by default the one
    Triton compiles for). Never empty: when every config falls short, the
    best is kept and a :class:`PruneWarning` says so.
    """
    floor = _validated_floor(min_occupancy)
    for name, value in (("registers", registers), ("shared", shared)):
        if value is not None and not callable(value) and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"{name} is {_a(value)}; it takes an integer or a function "
                            f"(config, named_args) -> int")
        if value is not None and not callable(value) and value < 0:
            raise Error(f"{name} {value} is below 0")
    from . import occupancy as _occupancy
    if any(launch.get(key) is not None for key in ("gpu", "cc", "gfx")):
        _occcalc._target_waves(**launch)  # a typo or an unknown key is raised now, not at the first autotune

    def estimate(name, value, config, named_args):
        """An estimate for `config`: None, or a count of at least 0 (else the estimate is wrong, and says so)."""
        got = value(config, named_args) if callable(value) else value
        if got is None:
            return None
        where = f"{name}({config!r})" if callable(value) else name
        if isinstance(got, bool) or not hasattr(got, "__index__"):
            raise TypeError(f"{where} is {_a(got)}; it takes an integer")
        if got.__index__() < 0:
            raise Error(f"{where} {got!r} is below 0")
        return got.__index__()

    def prune(configs, named_args, **kwargs):
        request = dict(launch)
        if not any(request.get(key) is not None for key in ("gpu", "cc", "gfx")):
            request.update(_current_target())
        # The GPU asked about, checked before any config: a typo or an unknown key is raised, never taken as a
        # config that cannot launch. Blocks run in the target's waves (RDNA: wave32, as Triton launches there).
        vendor, wave_size = _occcalc._target_waves(**request)
        scored = []
        for config in configs:
            regs = estimate("registers", registers, config, named_args)
            smem = estimate("shared", shared, config, named_args)
            threads = config.num_warps * wave_size
            figures = dict(vgprs=regs or 0, lds=smem or 0) if vendor == "amd" else dict(regs=regs or 0,
                                                                                         dyn_smem=smem or 0)
            try:
                result = _occupancy(threads=threads, **figures, **request)
            except Error as error:
                if getattr(error, "field", "") not in _CONFIG_FIGURES:
                    raise
                scored.append((None, config))  # more threads, registers or memory than the GPU gives a block
                continue
            if result.blocks_per_sm == 0:
                scored.append((None, config))
            else:
                # Without a register estimate the occupancy is unknown: the floor cannot judge it.
                scored.append((result.occupancy if regs is not None else 1.0, config))
        return _kept(scored, floor, "configs")

    prune.__doc__ = early_config_prune.__doc__
    return prune
