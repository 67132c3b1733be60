#!/usr/bin/env python3
"""Prune Triton's autotuning configs by occupancy, before and after compiling.

Before: Triton calls ``early_config_prune(configs, named_args, **kwargs)``
before it compiles any config, so registers are unknown; what occcalc can
judge is what a config provably needs. Here, the shared memory of the
matmul tutorial's kernel, estimated per config: configs that cannot launch
on the GPU are dropped, the rest kept.

    import triton
    @triton.autotune(configs=get_cuda_autotune_config(), key=["M", "N", "K"],
                     prune_configs_by={"early_config_prune": early_prune})
    @triton.jit
    def matmul_kernel(...): ...

After: once compiled (``kernel.warmup(...)``, no GPU needed for the numbers),
``occcalc.triton.prune_compiled({config: compiled_kernel, ...},
min_occupancy=0.25)`` keeps the configs at or above a floor, best first.

Neither returns an empty list: when every config falls short, the best is
kept and ``occcalc.triton.PruneWarning`` says so.

Run as a script, it prunes the tutorial's eight configs for a Tesla T4
(compute capability 7.5: 64 KiB of shared memory per block at most), with
Triton's ``Config`` where Triton is installed.
"""
import occcalc.triton

# The matmul tutorial's get_cuda_autotune_config():
# (BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M, num_stages, num_warps)
TUTORIAL_CONFIGS = [
    (128, 256, 64, 8, 3, 8), (64, 256, 32, 8, 4, 4), (128, 128, 32, 8, 4, 4), (128, 64, 32, 8, 4, 4),
    (64, 128, 32, 8, 4, 4), (128, 32, 32, 8, 4, 4), (64, 32, 32, 8, 5, 2), (32, 64, 32, 8, 5, 2),
]


def matmul_shared_bytes(config, named_args):
    """The tutorial kernel's shared memory for fp16 inputs before Hopper:
    num_stages - 1 buffers of an A tile and a B tile (what Triton 3.6 compiled
    for sm_80, 98304 bytes for the first config)."""
    k = config.kwargs
    return (k["BLOCK_SIZE_M"] + k["BLOCK_SIZE_N"]) * k["BLOCK_SIZE_K"] * 2 * (config.num_stages - 1)


early_prune = occcalc.triton.early_config_prune(shared=matmul_shared_bytes, gpu="Tesla T4")


class Config:
    """Where Triton is not installed: triton.Config's attributes (triton/runtime/autotuner.py)."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None, ir_override=None):
        self.kwargs, self.num_warps, self.num_stages, self.num_ctas = kwargs, num_warps, num_stages, num_ctas
        self.maxnreg, self.pre_hook, self.ir_override = maxnreg, pre_hook, ir_override


def tutorial_configs(config_class):
    return [config_class({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k, "GROUP_SIZE_M": g},
                         num_stages=stages, num_warps=warps) for m, n, k, g, stages, warps in TUTORIAL_CONFIGS]


def label(config):
    k = config.kwargs
    return (f"{k['BLOCK_SIZE_M']}x{k['BLOCK_SIZE_N']}x{k['BLOCK_SIZE_K']} "
            f"num_stages={config.num_stages} num_warps={config.num_warps}")


def main():
    try:
        from triton import Config as config_class
    except ImportError:
        config_class = Config
    configs = tutorial_configs(config_class)
    named_args = {"M": 4096, "N": 4096, "K": 4096}  # as Triton passes them: the kernel's arguments by name
    kept = early_prune(configs, named_args)
    for config in configs:
        verdict = "kept" if config in kept else "cannot launch"
        print(f"{label(config)}: {matmul_shared_bytes(config, named_args)} bytes, {verdict}")


if __name__ == "__main__":
    main()
