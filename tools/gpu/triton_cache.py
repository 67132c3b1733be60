#!/usr/bin/env python3
"""Builds a real Triton cache, and records what Triton and the CUDA driver say of it.

Run by tools/gpu/run where Triton and a GPU are installed:

    triton_cache.py compile ARCH OUT.jsonl   # one target: 80, 90 (the GPU's), 100, 120
    triton_cache.py sources OUT.txt          # the Triton source the fixtures follow

`compile` compiles the tutorials' kernels (vector add, fused softmax, layer norm,
the matmul autotuning configs) the way the tutorials do, with `JITFunction.warmup`,
into $TRITON_CACHE_DIR. For a target other than the GPU's it answers Triton's
`get_current_target` with that target, so the JIT path, its specialization and
its cache are Triton's own. For the GPU's own target it then loads each kernel
(`_init_handles`) and records `n_regs`, `n_spills` and the driver's
`cuOccupancyMaxActiveBlocksPerMultiprocessor` at Triton's launch, and runs one
real autotune whose `early_config_prune` records how Triton calls it.
"""
import ctypes
import inspect
import json
import sys
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=mask)


@triton.jit
def _layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr, ACTIVATION: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


# The matmul tutorial's get_cuda_autotune_config(): (BLOCK_SIZE_M, N, K, GROUP_SIZE_M, num_stages, num_warps)
MATMUL_CONFIGS = [
    (128, 256, 64, 8, 3, 8), (64, 256, 32, 8, 4, 4), (128, 128, 32, 8, 4, 4), (128, 64, 32, 8, 4, 4),
    (64, 128, 32, 8, 4, 4), (128, 32, 32, 8, 4, 4), (64, 32, 32, 8, 5, 2), (32, 64, 32, 8, 5, 2),
]


def emit(out, record):
    out.write(json.dumps(record, default=str) + "\n")
    out.flush()


def jsonable(metadata):
    if hasattr(metadata, "_asdict"):
        metadata = metadata._asdict()
    return json.loads(json.dumps(metadata, default=lambda v: v._asdict() if hasattr(v, "_asdict") else str(v)))


def warmups():
    """(label, thunk) for every kernel the tutorials compile."""
    dev = "cuda"
    x = torch.empty(98432, device=dev)
    rows = torch.empty((1823, 781), device=dev)
    a = torch.empty((512, 512), device=dev, dtype=torch.float16)
    w = torch.empty(8192, device=dev)
    mean = torch.empty(1151, device=dev)
    ln_x = torch.empty((1151, 8192), device=dev)
    jobs = [("add BLOCK_SIZE=1024", lambda: add_kernel.warmup(x, x, x, x.numel(), BLOCK_SIZE=1024, grid=(1,)))]
    for block, warps, stages in [(1024, 8, 4), (1024, 4, 2), (2048, 16, 4)]:
        jobs.append((f"softmax BLOCK_SIZE={block} num_warps={warps} num_stages={stages}",
                     lambda block=block, warps=warps, stages=stages: softmax_kernel.warmup(
                         rows, rows, rows.stride(0), rows.stride(0), rows.shape[0], rows.shape[1],
                         BLOCK_SIZE=block, num_stages=stages, num_warps=warps, grid=(1,))))
    jobs.append(("layer_norm BLOCK_SIZE=8192 num_warps=8", lambda: _layer_norm_fwd_fused.warmup(
        ln_x, ln_x, w, w, mean, mean, ln_x.stride(0), 8192, 1e-5, BLOCK_SIZE=8192, num_warps=8, grid=(1,))))
    for m, n, k, g, stages, warps in MATMUL_CONFIGS:
        jobs.append((f"matmul {m}x{n}x{k} num_stages={stages} num_warps={warps}",
                     lambda m=m, n=n, k=k, g=g, stages=stages, warps=warps: matmul_kernel.warmup(
                         a, a, a, 512, 512, 512, a.stride(0), a.stride(1), a.stride(0), a.stride(1), a.stride(0),
                         a.stride(1), BLOCK_SIZE_M=m, BLOCK_SIZE_N=n, BLOCK_SIZE_K=k, GROUP_SIZE_M=g, ACTIVATION="",
                         num_stages=stages, num_warps=warps, grid=(1,))))
    # A cluster of two blocks (num_ctas=2), where the target allows one.
    jobs.append(("matmul 128x128x32 num_ctas=2", lambda: matmul_kernel.warmup(
        a, a, a, 512, 512, 512, a.stride(0), a.stride(1), a.stride(0), a.stride(1), a.stride(0), a.stride(1),
        BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=32, GROUP_SIZE_M=8, ACTIVATION="",
        num_stages=3, num_warps=4, num_ctas=2, grid=(1,))))
    return jobs


def describe(kernel):
    """What a CompiledKernel holds before the driver loads it."""
    return {"class": f"{type(kernel).__module__}.{type(kernel).__qualname__}",
            "attributes": sorted(vars(kernel)), "has_n_regs": "n_regs" in vars(kernel),
            "metadata_type": type(kernel.metadata).__name__,
            "metadata_fields": list(getattr(kernel.metadata, "_fields", [])),
            "target_type": type(kernel.metadata.target).__name__, "asm_keys": sorted(kernel.asm),
            "packed_metadata": getattr(kernel, "packed_metadata", None)}


def driver_figures(kernel):
    """n_regs and the driver's own occupancy answers for a loaded kernel."""
    kernel._init_handles()
    cuda = ctypes.CDLL("libcuda.so.1")
    function = ctypes.c_void_p(kernel.function)
    figures = {"n_regs": kernel.n_regs, "n_spills": kernel.n_spills,
               "n_max_threads": getattr(kernel, "n_max_threads", None)}
    attributes = {"max_threads_per_block": 0, "shared_size_bytes": 1, "const_size_bytes": 2, "local_size_bytes": 3,
                  "num_regs": 4, "ptx_version": 5, "binary_version": 6, "max_dynamic_shared_size_bytes": 8,
                  "cluster_size_must_be_set": 10, "required_cluster_width": 11, "non_portable_cluster_size_allowed": 14}
    for name, code in attributes.items():
        value = ctypes.c_int()
        status = cuda.cuFuncGetAttribute(ctypes.byref(value), code, function)
        figures[name] = value.value if status == 0 else {"error": status}
    threads = kernel.metadata.num_warps * 32
    shared = kernel.metadata.shared
    occupancy = {}
    for dyn in sorted({shared, 0, shared * 2, shared + 16384, 49152}):
        blocks = ctypes.c_int()
        status = cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor(ctypes.byref(blocks), function, threads,
                                                                  ctypes.c_size_t(dyn))
        occupancy[str(dyn)] = blocks.value if status == 0 else {"error": status}
    figures["threads"] = threads
    figures["blocks_per_sm_by_dyn_smem"] = occupancy
    return figures


def autotune_probe(out):
    """One real autotune; its early_config_prune records how Triton calls it."""
    seen = {}

    def early_config_prune(configs, named_args, **kwargs):
        seen.update(configs_type=type(configs).__name__, count=len(configs),
                    config_type=f"{type(configs[0]).__module__}.{type(configs[0]).__qualname__}",
                    config_attributes=sorted(vars(configs[0])), config_repr=repr(configs[0]),
                    all_kwargs=sorted(configs[0].all_kwargs()), named_args_type=type(named_args).__name__,
                    named_args=sorted(named_args), kwargs=sorted(kwargs),
                    signature=str(inspect.signature(early_config_prune)))
        return configs[:1]

    configs = [triton.Config({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k, "GROUP_SIZE_M": g},
                             num_stages=s, num_warps=w) for m, n, k, g, s, w in MATMUL_CONFIGS[:3]]
    tuned = triton.autotune(configs=configs, key=["M", "N", "K"],
                            prune_configs_by={"early_config_prune": early_config_prune})(matmul_kernel)
    a = torch.randn((256, 256), device="cuda", dtype=torch.float16)
    c = torch.empty_like(a)
    grid = lambda meta: (triton.cdiv(256, meta["BLOCK_SIZE_M"]) * triton.cdiv(256, meta["BLOCK_SIZE_N"]),)
    tuned[grid](a, a, c, 256, 256, 256, a.stride(0), a.stride(1), a.stride(0), a.stride(1), c.stride(0),
                c.stride(1), ACTIVATION="")
    emit(out, {"record": "early_config_prune", **seen, "best_config": repr(tuned.best_config)})


def compile_for(arch, path):
    native = torch.cuda.get_device_capability()
    native_arch = native[0] * 10 + native[1]
    if arch != native_arch:
        from triton.backends.compiler import GPUTarget
        driver = triton.runtime.driver.active
        driver.get_current_target = lambda: GPUTarget("cuda", arch, 32)
    with open(path, "w") as out:
        emit(out, {"record": "triton", "version": triton.__version__, "arch": arch, "native_arch": native_arch,
                   "device": torch.cuda.get_device_name()})
        described = False
        for label, thunk in warmups():
            try:
                kernel = thunk()
                record = {"record": "kernel", "label": label, "arch": arch, "hash": kernel.hash,
                          "name": kernel.name, "metadata": jsonable(kernel.metadata)}
                if not described:
                    record["describe"] = describe(kernel)
                    described = True
                if arch == native_arch:
                    try:
                        record["driver"] = driver_figures(kernel)
                    except Exception as error:  # noqa: BLE001 - recorded, as Triton raises it
                        record["driver_error"] = f"{type(error).__name__}: {error}"
                emit(out, record)
            except Exception as error:  # noqa: BLE001
                emit(out, {"record": "kernel", "label": label, "arch": arch,
                           "error": f"{type(error).__name__}: {error}"[:2000]})
        if arch == native_arch:
            try:
                autotune_probe(out)
            except Exception:  # noqa: BLE001
                emit(out, {"record": "early_config_prune", "error": traceback.format_exc()[-3000:]})


def sources(path):
    import triton.compiler.compiler as compiler
    import triton.runtime.autotuner as autotuner
    import triton.runtime.cache as cache
    wanted = [("compiler.CompiledKernel", lambda: compiler.CompiledKernel),
              ("autotuner.Autotuner.prune_configs", lambda: autotuner.Autotuner.prune_configs),
              ("autotuner.Autotuner.__init__", lambda: autotuner.Autotuner.__init__),
              ("autotuner.Config", lambda: autotuner.Config),
              ("cache", lambda: cache),
              ("compiler.compile", lambda: compiler.compile)]
    for module in ("cuda.core", "cuda.core.experimental", "cuda.core.experimental._module", "cuda.core._module"):
        wanted.append((f"{module}.KernelOccupancy", lambda module=module: getattr(
            __import__(module, fromlist=["KernelOccupancy"]), "KernelOccupancy")))
    try:
        import triton.backends.nvidia.compiler as nvidia
        wanted += [("nvidia.compiler", lambda: nvidia)]
    except Exception:  # noqa: BLE001
        pass
    with open(path, "w") as out:
        for name, get in wanted:
            try:
                text = inspect.getsource(get())
            except Exception as error:  # noqa: BLE001
                text = f"unavailable: {error}"
            out.write(f"===== {name}\n{text}\n")


if __name__ == "__main__":
    if sys.argv[1] == "compile":
        compile_for(int(sys.argv[2]), sys.argv[3])
    else:
        sources(sys.argv[2])
