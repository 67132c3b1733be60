/* occcalc's C ABI (C99): the calculator the occcalc command line runs, with
 * its tables built in, for any program. docs/library.md.
 *
 * Thread-safe: every call may run on any thread at once. Strings in and out
 * are UTF-8 JSON text; every string a call returns is the caller's, to give
 * back with occcalc_free. */
#ifndef OCCCALC_H
#define OCCCALC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define OCCCALC_API
#else
#define OCCCALC_API __attribute__((visibility("default")))
#endif

/* occcalc's version, "0.1.0": static, never freed. */
OCCCALC_API const char *occcalc_version(void);

/* The answer to one request object, exactly as `occcalc batch` answers it
 * as a line (schema/result.schema.json): the result, or
 * {"schema_version":N,"error":{"field":...,"message":...}} naming the field,
 * without a line number (a request that is not JSON is "the request").
 * `request`: a JSON object of the request keys (`cc` or `gpu`, `threads`,
 * `regs`, ...; AMD: `gfx`, `vgprs`, ...), as `occcalc batch` reads a line;
 * NULL is the empty request. Returns JSON text to give to occcalc_free, or
 * NULL only when memory runs out. */
OCCCALC_API char *occcalc_json(const char *request);

/* The document `occcalc inspect --json NAME` prints for a file named `name`
 * holding the `size` bytes at `bytes` (schema/inspect.schema.json): a cubin,
 * fat binary, host ELF file or archive, AMD code object, offload bundle or
 * compiler log, each kernel with its resources and occupancy. No file is
 * read (none beside it either, such as Triton's metadata); PTX is assembled
 * by ptxas where it is on PATH, as inspect does. Where inspect would refuse
 * the input, {"schema_version":N,"error":{"field":null,"message":...}}
 * naming it. NULL `name` is "input". Returns JSON text to give to
 * occcalc_free, or NULL only when memory runs out. */
OCCCALC_API char *occcalc_inspect_json(const unsigned char *bytes, size_t size, const char *name);

/* Gives back a string a call returned; NULL does nothing. */
OCCCALC_API void occcalc_free(char *text);

/* ---- Typed calls: caller-owned structs and a status, as cuda_occupancy.h's
 * users expect. Each checks its input as the command line does: a bad value
 * gives OCCCALC_BAD_INPUT and, in `message` (when not NULL, at most
 * `message_size` bytes with the terminating NUL, cut short if need be), the
 * line `occcalc batch` gives, led by the request key
 * ("threads 0 is outside [1, 2147483647]"). They never abort and never
 * throw. */

typedef enum occcalc_status {
  OCCCALC_OK = 0,
  /* What the command line answers with exit status 2. */
  OCCCALC_BAD_INPUT = 2,
  /* Memory ran out. */
  OCCCALC_NO_MEMORY = 3
} occcalc_status;

/* A resource's limit where it imposes none (no registers, no shared memory,
 * barriers that do not limit). */
#define OCCCALC_NO_LIMIT (-1)

/* ---- NVIDIA */

/* An architecture, or a GPU with its SM count, from the tables built in:
 * never freed, valid for the life of the program. */
typedef struct occcalc_nvidia_device occcalc_nvidia_device;

/* `name`: a compute capability (8.0, 80, sm_80), a GPU as `occcalc list
 * gpus` names it (H100 SXM5 80GB, RTX 4090) or a family of one
 * architecture (H100: per SM, without an SM count). */
OCCCALC_API occcalc_status occcalc_nvidia_device_find(const char *name, const occcalc_nvidia_device **device,
                                                      char *message, size_t message_size);

/* cudaFuncCache preferences; on Volta and later each stands for a carveout. */
enum occcalc_cache { OCCCALC_CACHE_NONE, OCCCALC_CACHE_SHARED, OCCCALC_CACHE_L1, OCCCALC_CACHE_EQUAL };
/* The carveout the architecture picks when none is asked for. */
#define OCCCALC_CARVEOUT_DEFAULT (-1)

/* One launch, as cudaFuncAttributes and the launch parameters give it (the
 * kernel opted in to the dynamic shared memory it asks for).
 * OCCCALC_NVIDIA_LAUNCH_INIT gives the command line's defaults. */
typedef struct occcalc_nvidia_launch {
  int64_t threads_per_block;
  /* As ptxas -v reports them. */
  int64_t registers_per_thread;
  /* Without the driver's reserve (cudaFuncAttributes::sharedSizeBytes). */
  int64_t static_shared_memory_bytes;
  int64_t dynamic_shared_memory_bytes;
  /* Block barriers the kernel uses: 1 for __syncthreads. */
  int64_t barriers;
  /* 0-100, cudaFuncAttributePreferredSharedMemoryCarveout, or
   * OCCCALC_CARVEOUT_DEFAULT. */
  int32_t carveout_percent;
  /* An enum occcalc_cache. */
  int32_t cache;
} occcalc_nvidia_launch;

#define OCCCALC_NVIDIA_LAUNCH_INIT {0, 0, 0, 0, 1, OCCCALC_CARVEOUT_DEFAULT, OCCCALC_CACHE_NONE}

/* The resources that bound resident blocks: indices of `limits`, bits
 * (1u << resource) of `limiters`. */
enum occcalc_nvidia_resource {
  OCCCALC_WARPS,
  OCCCALC_REGISTERS,
  OCCCALC_SHARED_MEMORY,
  OCCCALC_BLOCKS,
  OCCCALC_BARRIERS,
  OCCCALC_NVIDIA_RESOURCE_COUNT
};

typedef struct occcalc_nvidia_result {
  /* Resident blocks per SM: the smallest limit (cudaOccResult's
   * activeBlocksPerMultiprocessor); 0 where the block cannot run. */
  int64_t blocks_per_sm;
  int64_t warps_per_block;
  int64_t active_warps_per_sm;
  int64_t active_threads_per_sm;
  int64_t max_warps_per_sm;
  /* active_warps_per_sm / max_warps_per_sm, in [0, 1]. */
  double occupancy;
  /* Blocks each resource allows, or OCCCALC_NO_LIMIT. */
  int64_t limits[OCCCALC_NVIDIA_RESOURCE_COUNT];
  /* The resources whose limit is blocks_per_sm. */
  uint32_t limiters;
  /* A block's allocation: registers; shared memory with the reserve. */
  int64_t registers_per_block;
  int64_t shared_memory_per_block_bytes;
  /* The SM's shared memory configuration; -1 where none holds the block. */
  int64_t shared_memory_per_sm_bytes;
  /* The GPU's SMs; 0 for an architecture or a family. */
  int64_t sm_count;
} occcalc_nvidia_result;

/* The occupancy of `launch` on `device`, as `occcalc --json` gives it. */
OCCCALC_API occcalc_status occcalc_nvidia_occupancy(const occcalc_nvidia_device *device,
                                                    const occcalc_nvidia_launch *launch,
                                                    occcalc_nvidia_result *result, char *message,
                                                    size_t message_size);

/* ---- AMD */

/* A target, or a GPU with its CU count, from the tables built in. */
typedef struct occcalc_amd_device occcalc_amd_device;

/* `name`: an LLVM processor (gfx90a, gfx1100, gfx11-generic), an R600 name
 * (cayman) or a GPU as `occcalc list gpus` names it (MI300X). */
OCCCALC_API occcalc_status occcalc_amd_device_find(const char *name, const occcalc_amd_device **device,
                                                   char *message, size_t message_size);

/* The models (docs/models.md); DEFAULT is the target's first, as the
 * command line's. */
enum occcalc_amd_model { OCCCALC_AMD_MODEL_DEFAULT, OCCCALC_AMD_MODEL_LLVM, OCCCALC_AMD_MODEL_HIP, OCCCALC_AMD_MODEL_RCP };
/* RDNA's modes; DEFAULT is WGP mode where the target has it. */
enum occcalc_amd_mode { OCCCALC_AMD_MODE_DEFAULT, OCCCALC_AMD_MODE_CU, OCCCALC_AMD_MODE_WGP };

/* One launch; zero-initialized, it takes the target's defaults (wave32 on
 * RDNA, WGP mode, the default model). */
typedef struct occcalc_amd_launch {
  int64_t work_group_size;
  /* As the compiler reports them (; NumVgprs, ; NumAgprs, ; NumSgprs). */
  int64_t vgprs;
  int64_t agprs;
  int64_t sgprs;
  int64_t lds_bytes;
  /* 32, 64, or 0 for the target's default. */
  int32_t wave_size;
  /* An enum occcalc_amd_mode. */
  int32_t mode;
  /* An enum occcalc_amd_model. */
  int32_t model;
} occcalc_amd_launch;

/* The resources: indices of `limits`, bits of `limiters`. */
enum occcalc_amd_resource {
  OCCCALC_AMD_WAVE_SLOTS,
  OCCCALC_AMD_VGPRS,
  OCCCALC_AMD_AGPRS,
  OCCCALC_AMD_SGPRS,
  OCCCALC_AMD_LDS,
  OCCCALC_AMD_WORK_GROUPS,
  OCCCALC_AMD_BARRIERS,
  OCCCALC_AMD_RESOURCE_COUNT
};

typedef struct occcalc_amd_result {
  /* The model that answered (an enum occcalc_amd_model, never DEFAULT),
   * the wave size and whether it counts per WGP (else per CU). */
  int32_t model;
  int32_t wave_size;
  int32_t per_wgp;
  /* Resident work-groups per CU (or WGP): the smallest limit. */
  int64_t work_groups;
  int64_t waves_per_work_group;
  int64_t active_waves;
  int64_t max_waves;
  /* The compiler's `; Occupancy:` under the llvm model. */
  double waves_per_simd;
  int64_t max_waves_per_simd;
  double occupancy;
  int64_t limits[OCCCALC_AMD_RESOURCE_COUNT];
  uint32_t limiters;
  /* The GPU's CUs; 0 for a target. */
  int64_t compute_units;
} occcalc_amd_result;

/* The occupancy of `launch` on `device` under its model, as `occcalc
 * --json` gives it. */
OCCCALC_API occcalc_status occcalc_amd_occupancy(const occcalc_amd_device *device, const occcalc_amd_launch *launch,
                                                 occcalc_amd_result *result, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif /* OCCCALC_H */
