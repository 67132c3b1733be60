// Measures what the CUDA runtime answers about occupancy and thread block
// clusters on the GPU it runs on, as JSON lines on stdout:
//   {"record":"device", ...}   the device's attributes, driver and runtime
//   {"record":"kernel", ...}   each measured kernel's attributes (registers, ...)
//   {"record":"query", ...}    per kernel, block size and dynamic shared memory:
//       cudaOccupancyMaxActiveBlocksPerMultiprocessor, cudaOccupancyMaxPotentialClusterSize
//       and cudaOccupancyMaxActiveClusters for cluster sizes 1-16 and some 2-D/3-D shapes
//   {"record":"placement", ...} which SMs each launched cluster's blocks ran on
//       (%smid), one block per SM, so the SMs that share a cluster share a GPC
// Built and run by tools/gpu/run on a machine with a GPU (compute capability 9.0 or
// later); tests/cluster replays what it recorded. Every CUDA error is recorded in
// the line it belongs to, never fatal past the device record.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace {

template <int Values>
__device__ void register_pressure(float* out, const float* in, int rounds) {
    float acc[Values];
#pragma unroll
    for (int i = 0; i < Values; ++i) acc[i] = in[threadIdx.x + i];
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
        for (int i = 0; i < Values; ++i) acc[i] = acc[i] * acc[(i + 1) % Values] + in[r];
    }
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < Values; ++i) sum += acc[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void regs_few(float* out, const float* in, int rounds) { out[threadIdx.x] = in[threadIdx.x] * rounds; }
__global__ void __maxnreg__(32) regs_32(float* out, const float* in, int rounds) { register_pressure<28>(out, in, rounds); }
__global__ void __maxnreg__(40) regs_40(float* out, const float* in, int rounds) { register_pressure<36>(out, in, rounds); }
__global__ void __maxnreg__(64) regs_64(float* out, const float* in, int rounds) { register_pressure<60>(out, in, rounds); }
__global__ void __maxnreg__(96) regs_96(float* out, const float* in, int rounds) { register_pressure<92>(out, in, rounds); }
__global__ void __maxnreg__(128) regs_128(float* out, const float* in, int rounds) { register_pressure<124>(out, in, rounds); }
__global__ void __maxnreg__(168) regs_168(float* out, const float* in, int rounds) { register_pressure<164>(out, in, rounds); }

// Each block writes the SM it runs on and its place in its cluster.
__global__ void where_blocks_run(unsigned* out) {
    unsigned smid = 0, rank = 0, cluster = 0;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cluster));
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = smid;
        out[3 * blockIdx.x + 1] = rank;
        out[3 * blockIdx.x + 2] = cluster;
    }
}

struct kernel_entry {
    const char* name;
    const void* function;
};

const kernel_entry kernels[] = {
    {"regs_few", reinterpret_cast<const void*>(regs_few)},
    {"regs_32", reinterpret_cast<const void*>(regs_32)},
    {"regs_40", reinterpret_cast<const void*>(regs_40)},
    {"regs_64", reinterpret_cast<const void*>(regs_64)},
    {"regs_96", reinterpret_cast<const void*>(regs_96)},
    {"regs_128", reinterpret_cast<const void*>(regs_128)},
    {"regs_168", reinterpret_cast<const void*>(regs_168)},
};

struct cluster_shape {
    unsigned x, y, z;
};

// Shapes beyond 1-D: do the runtime's answers depend on the shape or only on the size?
const cluster_shape shapes[] = {{1, 2, 1}, {2, 2, 1}, {1, 4, 1}, {4, 2, 1}, {2, 4, 1}, {2, 2, 2},
                                {1, 1, 2}, {2, 1, 4}, {4, 4, 1}, {1, 8, 1}, {3, 2, 1}, {2, 3, 2}};

// Grids every measured cluster shape divides: 720720 is divisible by 1-16.
constexpr unsigned grid_x = 720720;
constexpr unsigned grid_y = 720;
constexpr unsigned grid_z = 16;
constexpr int max_cluster_size = 16;

std::string quoted(const char* text) {
    std::string out = "\"";
    for (const char* p = text; *p; ++p) {
        if (*p == '"' || *p == '\\') out += '\\';
        if (static_cast<unsigned char>(*p) >= 0x20) out += *p;
    }
    return out + "\"";
}

// A runtime answer or its error, as JSON. Call the runtime before this: the order in
// which a call's arguments are evaluated is unspecified.
std::string answer(cudaError_t status, long long value) {
    if (status == cudaSuccess) return std::to_string(value);
    cudaGetLastError();
    return "{\"error\":" + quoted(cudaGetErrorName(status)) + "}";
}

cudaLaunchConfig_t launch_config(dim3 grid, int threads, size_t dyn_smem, cudaLaunchAttribute* attribute,
                                 const cluster_shape* shape) {
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = dim3(threads, 1, 1);
    config.dynamicSmemBytes = dyn_smem;
    if (shape) {
        attribute->id = cudaLaunchAttributeClusterDimension;
        attribute->val.clusterDim.x = shape->x;
        attribute->val.clusterDim.y = shape->y;
        attribute->val.clusterDim.z = shape->z;
        config.attrs = attribute;
        config.numAttrs = 1;
    }
    return config;
}

std::string active_clusters(const void* function, int threads, size_t dyn_smem, cluster_shape shape) {
    cudaLaunchAttribute attribute;
    dim3 grid = shape.y == 1 && shape.z == 1 ? dim3(grid_x, 1, 1) : dim3(grid_x, grid_y, grid_z);
    cudaLaunchConfig_t config = launch_config(grid, threads, dyn_smem, &attribute, &shape);
    int clusters = 0;
    const cudaError_t status = cudaOccupancyMaxActiveClusters(&clusters, function, &config);
    return answer(status, clusters);
}

void print_device(int device) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, device);
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    int cluster_launch = 0;
    cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, device);
    std::printf(
        "{\"record\":\"device\",\"name\":%s,\"cc\":\"%d.%d\",\"sm_count\":%d,\"driver_version\":%d,"
        "\"runtime_version\":%d,\"shared_memory_per_sm\":%zu,\"shared_memory_per_block_optin\":%zu,"
        "\"reserved_shared_memory_per_block\":%zu,\"registers_per_sm\":%d,\"max_threads_per_sm\":%d,"
        "\"max_blocks_per_sm\":%d,\"cluster_launch\":%d,\"l2_bytes\":%d,\"pci_bus_id\":%d}\n",
        quoted(prop.name).c_str(), prop.major, prop.minor, prop.multiProcessorCount, driver, runtime,
        prop.sharedMemPerMultiprocessor, prop.sharedMemPerBlockOptin, prop.reservedSharedMemPerBlock,
        prop.regsPerMultiprocessor, prop.maxThreadsPerMultiProcessor, prop.maxBlocksPerMultiProcessor,
        cluster_launch, prop.l2CacheSize, prop.pciBusID);
}

void print_kernel(const kernel_entry& kernel) {
    cudaFuncAttributes attributes;
    cudaError_t status = cudaFuncGetAttributes(&attributes, kernel.function);
    if (status != cudaSuccess) {
        std::printf("{\"record\":\"kernel\",\"kernel\":%s,\"error\":%s}\n", quoted(kernel.name).c_str(),
                    quoted(cudaGetErrorName(status)).c_str());
        return;
    }
    std::printf(
        "{\"record\":\"kernel\",\"kernel\":%s,\"regs\":%d,\"static_smem\":%zu,\"local_bytes\":%zu,"
        "\"max_threads_per_block\":%d,\"max_dynamic_smem\":%d,\"binary_version\":%d,\"ptx_version\":%d}\n",
        quoted(kernel.name).c_str(), attributes.numRegs, attributes.sharedSizeBytes, attributes.localSizeBytes,
        attributes.maxThreadsPerBlock, attributes.maxDynamicSharedSizeBytes, attributes.binaryVersion,
        attributes.ptxVersion);
}

// Lets every kernel take the opt-in shared memory and clusters of up to 16 blocks.
void allow_everything(const void* function, size_t optin) {
    cudaFuncAttributes attributes;
    if (cudaFuncGetAttributes(&attributes, function) != cudaSuccess) return;
    cudaFuncSetAttribute(function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         static_cast<int>(optin - attributes.sharedSizeBytes));
    cudaFuncSetAttribute(function, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    cudaGetLastError();
}

void print_query(const kernel_entry& kernel, int threads, size_t dyn_smem) {
    int blocks = 0;
    const cudaError_t blocks_status =
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel.function, threads, dyn_smem);
    const std::string per_sm = answer(blocks_status, blocks);
    cudaLaunchAttribute unused;
    cudaLaunchConfig_t config = launch_config(dim3(grid_x, 1, 1), threads, dyn_smem, &unused, nullptr);
    int potential = 0;
    const cudaError_t potential_status = cudaOccupancyMaxPotentialClusterSize(&potential, kernel.function, &config);
    const std::string potential_size = answer(potential_status, potential);
    std::string by_size;
    for (unsigned size = 1; size <= max_cluster_size; ++size)
        by_size += (size > 1 ? "," : "") + active_clusters(kernel.function, threads, dyn_smem, {size, 1, 1});
    std::string by_shape;
    for (const cluster_shape& shape : shapes) {
        by_shape += (by_shape.empty() ? "\"" : ",\"") + std::to_string(shape.x) + "x" + std::to_string(shape.y) + "x" +
                    std::to_string(shape.z) + "\":" + active_clusters(kernel.function, threads, dyn_smem, shape);
    }
    // cudaOccupancyAvailableDynamicSMemPerBlock for 1-8 resident blocks (it takes no dynamic size).
    std::string available;
    for (int resident = 1; resident <= 8 && dyn_smem == 0; ++resident) {
        size_t bytes = 0;
        const cudaError_t status = cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, kernel.function, resident, threads);
        available += (resident > 1 ? "," : "") + answer(status, static_cast<long long>(bytes));
    }
    std::printf(
        "{\"record\":\"query\",\"kernel\":%s,\"threads\":%d,\"dyn_smem\":%zu,\"blocks_per_sm\":%s,"
        "\"max_potential_cluster_size\":%s,\"max_active_clusters\":[%s],\"max_active_clusters_by_shape\":{%s},"
        "\"available_dyn_smem_by_blocks\":[%s]}\n",
        quoted(kernel.name).c_str(), threads, dyn_smem, per_sm.c_str(), potential_size.c_str(), by_size.c_str(),
        by_shape.c_str(), available.c_str());
}

// Union-find over SM ids: SMs that ever share a cluster share a GPC.
struct sm_groups {
    std::vector<int> parent;
    explicit sm_groups(int count) : parent(count) { std::iota(parent.begin(), parent.end(), 0); }
    int root(int sm) { return parent[sm] == sm ? sm : parent[sm] = root(parent[sm]); }
    void join(int a, int b) { parent[root(a)] = root(b); }
};

// Launches clusters of `size` blocks, one block per SM (the opt-in shared memory
// each), and records which SMs each cluster ran on.
void print_placement(int size, int clusters, size_t optin, sm_groups& groups, int sm_count) {
    const void* function = reinterpret_cast<const void*>(where_blocks_run);
    cudaFuncSetAttribute(function, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(optin));
    cudaFuncSetAttribute(function, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    const int blocks = size * clusters;
    unsigned* device_out = nullptr;
    cudaError_t status = cudaMalloc(&device_out, sizeof(unsigned) * 3 * blocks);
    if (status == cudaSuccess) status = cudaMemset(device_out, 0xff, sizeof(unsigned) * 3 * blocks);
    cluster_shape shape = {static_cast<unsigned>(size), 1, 1};
    cudaLaunchAttribute attribute;
    cudaLaunchConfig_t config = launch_config(dim3(blocks, 1, 1), 32, optin, &attribute, &shape);
    if (status == cudaSuccess) status = cudaLaunchKernelEx(&config, where_blocks_run, device_out);
    if (status == cudaSuccess) status = cudaDeviceSynchronize();
    std::vector<unsigned> out(3 * static_cast<size_t>(blocks));
    if (status == cudaSuccess)
        status = cudaMemcpy(out.data(), device_out, sizeof(unsigned) * out.size(), cudaMemcpyDeviceToHost);
    cudaFree(device_out);
    if (status != cudaSuccess) {
        std::printf("{\"record\":\"placement\",\"cluster_size\":%d,\"error\":%s}\n", size,
                    quoted(cudaGetErrorName(status)).c_str());
        cudaGetLastError();
        return;
    }
    std::map<unsigned, std::set<unsigned>> by_cluster;
    for (int b = 0; b < blocks; ++b) by_cluster[out[3 * b + 2]].insert(out[3 * b]);
    std::set<std::vector<unsigned>> distinct;
    for (const auto& [cluster, sms] : by_cluster) {
        distinct.insert(std::vector<unsigned>(sms.begin(), sms.end()));
        for (unsigned sm : sms)
            if (static_cast<int>(sm) < sm_count && static_cast<int>(*sms.begin()) < sm_count)
                groups.join(static_cast<int>(sm), static_cast<int>(*sms.begin()));
    }
    std::string sets;
    for (const auto& sms : distinct) {
        sets += sets.empty() ? "[" : ",[";
        for (size_t i = 0; i < sms.size(); ++i) sets += (i ? "," : "") + std::to_string(sms[i]);
        sets += "]";
    }
    std::printf("{\"record\":\"placement\",\"cluster_size\":%d,\"clusters\":%d,\"sm_sets\":[%s]}\n", size, clusters,
                sets.c_str());
}

}  // namespace

int main() {
    int device = 0;
    if (cudaSetDevice(device) != cudaSuccess) {
        std::fprintf(stderr, "measure_clusters: no CUDA device\n");
        return 2;
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 1 << 16);
    print_device(device);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, device);
    const size_t optin = prop.sharedMemPerBlockOptin;
    for (const kernel_entry& kernel : kernels) {
        allow_everything(kernel.function, optin);
        print_kernel(kernel);
    }
    sm_groups groups(prop.multiProcessorCount);
    for (int round = 0; round < 4; ++round)
        for (int size = 2; size <= max_cluster_size; ++size)
            print_placement(size, 2 * prop.multiProcessorCount / size + round * 7, optin, groups,
                            prop.multiProcessorCount);
    std::map<int, std::vector<int>> gpcs;
    for (int sm = 0; sm < prop.multiProcessorCount; ++sm) gpcs[groups.root(sm)].push_back(sm);
    std::string listed;
    for (const auto& [root, sms] : gpcs) {
        listed += listed.empty() ? "[" : ",[";
        for (size_t i = 0; i < sms.size(); ++i) listed += (i ? "," : "") + std::to_string(sms[i]);
        listed += "]";
    }
    std::printf("{\"record\":\"sm_groups\",\"groups\":[%s]}\n", listed.c_str());
    std::vector<size_t> dyn_smem = {0, 1024, 8192, 16384, 32768, 49152, 65536, 81920, 100352, 116736, 150528, 233472};
    dyn_smem.push_back(optin);
    std::sort(dyn_smem.begin(), dyn_smem.end());
    dyn_smem.erase(std::unique(dyn_smem.begin(), dyn_smem.end()), dyn_smem.end());
    for (const kernel_entry& kernel : kernels)
        for (int threads = 32; threads <= 1024; threads += 32)
            for (size_t bytes : dyn_smem)
                if (bytes <= optin) print_query(kernel, threads, bytes);
    return 0;
}
