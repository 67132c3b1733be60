"""Objects shaped exactly as Triton 3.6 makes them, for tests that run without Triton.

Each follows Triton 3.6.0's source as tools/gpu/triton_cache.py recorded it on a GPU
(tests/fixtures/measured/h200/triton.jsonl, the `describe` and `early_config_prune`
records):
- `GPUTarget`: `triton/backends/compiler.py`, a frozen dataclass (backend, arch, warp_size).
- `CompiledKernel`: `triton/compiler/compiler.py`: built from a cache group's files,
  `metadata` a namedtuple `KernelMetadata` of the JSON's keys, sorted, with `target` a
  GPUTarget; `asm` maps each file's extension to its text, the binary's to its bytes;
  `kernel` is the binary; `n_regs`, `n_spills` and `n_max_threads` exist only once
  the driver loads it (`_init_handles`, which needs a GPU, and raises here).
- `Config`: `triton/runtime/autotuner.py`, its attributes and `all_kwargs()`.
- `Autotuner.prune_configs`: calls `early_config_prune(self.configs, self.nargs, **kwargs)`
  and raises on an empty list.
"""
import dataclasses
import json
import lzma
import os
import tarfile
from collections import namedtuple
from pathlib import Path
from typing import Union

ROOT = Path(__file__).resolve().parents[2]
CACHE_ARCHIVE = ROOT / "tests" / "fixtures" / "triton" / "triton-3.6-cache.tar.xz"
MEASURED = ROOT / "tests" / "fixtures" / "measured" / "h200" / "triton.jsonl"


@dataclasses.dataclass(frozen=True)
class GPUTarget:
    backend: str
    arch: Union[int, str]
    warp_size: int


class AutotunerError(RuntimeError):
    pass


class CompiledKernel:
    def __init__(self, src, metadata_group, hash):
        metadata_path = next((Path(p) for c, p in metadata_group.items() if c.endswith(".json")))
        metadata = json.loads(metadata_path.read_text())
        target = metadata["target"]
        metadata["target"] = GPUTarget(target["backend"], target["arch"], target["warp_size"])
        KernelMetadata = namedtuple("KernelMetadata", sorted(list(metadata.keys())))
        self.metadata = KernelMetadata(**metadata)
        self.packed_metadata = (self.metadata.num_warps, self.metadata.num_ctas, self.metadata.shared)
        self.src = src
        self.hash = hash
        self.name = self.metadata.name
        asm_files = [Path(p) for c, p in metadata_group.items() if not c.endswith(".json")]
        binary_ext = "cubin" if self.metadata.target.backend == "cuda" else "hsaco"
        self.asm = {file.suffix[1:]: file.read_bytes() if file.suffix[1:] == binary_ext else file.read_text()
                    for file in asm_files}
        self.metadata_group = metadata_group
        self.kernel = self.asm[binary_ext]
        self.module = None
        self.function = None
        self._run = None

    def _init_handles(self):
        raise RuntimeError("0 active drivers ([]). There should only be one.")


class Config:
    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None, ir_override=None):
        self.kwargs = kwargs
        self.num_warps = num_warps
        self.num_ctas = num_ctas
        self.num_stages = num_stages
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.ir_override = ir_override

    def all_kwargs(self):
        return {**self.kwargs, **{k: v for (k, v) in (("num_warps", self.num_warps), ("num_ctas", self.num_ctas),
                                                       ("num_stages", self.num_stages), ("maxnreg", self.maxnreg),
                                                       ("ir_override", self.ir_override)) if v is not None}}


class Autotuner:
    """The part of Triton's Autotuner that calls a pruner."""

    def __init__(self, configs, arg_names, prune_configs_by=None):
        self.configs = configs
        self.arg_names = arg_names
        self.early_config_prune = (prune_configs_by or {}).get("early_config_prune")
        self.nargs = None

    def prune_configs(self, kwargs):
        pruned_configs = self.configs
        if self.early_config_prune:
            pruned_configs = self.early_config_prune(self.configs, self.nargs, **kwargs)
            if not pruned_configs:
                raise AutotunerError(
                    "No valid autotuner configs after pruning. `early_config_prune` should return at least one config.")
        return pruned_configs

    def run(self, *args, **kwargs):
        self.nargs = dict(zip(self.arg_names, args))
        return self.prune_configs(kwargs)


def unpack_cache(into):
    """The real Triton 3.6 cache (tests/fixtures/triton) unpacked under `into`: its path."""
    with lzma.open(CACHE_ARCHIVE) as xz, tarfile.open(fileobj=xz) as tar:
        tar.extractall(into, filter="data") if hasattr(tarfile, "data_filter") else tar.extractall(into)
    return Path(into)


def load_cache(cache):
    """Every kernel of a Triton cache, as CompiledKernel objects from their group files."""
    kernels = []
    for group in sorted(Path(cache).glob("*/__grp__*.json")):
        # The group names each file by the path it had where Triton wrote it; here, beside it.
        children = json.loads(group.read_text())["child_paths"]
        metadata_group = {name: str(group.parent / name) for name in children}
        kernels.append(CompiledKernel(None, metadata_group, group.parent.name))
    return kernels


def measured():
    """What Triton and the driver said of each kernel on the H200 (triton.jsonl)."""
    return [json.loads(line) for line in MEASURED.read_text().splitlines()]
