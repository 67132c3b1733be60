// The mission's example computed in device code: the core calculator's
// functions are __host__ __device__ under nvcc, so a kernel (an autotuner's,
// a JIT's) can call them. The architecture's figures travel as a kernel
// argument (a literal type, trivially copyable). Without a GPU the program
// says so and gives the same function's answer on the host.
#include <cstdio>

#include "occcalc/nvidia/builtin_architectures.hpp"
#include "occcalc/nvidia/occupancy.hpp"

namespace {

__host__ __device__ double mission_occupancy(const occcalc::nvidia_arch_figures& arch) {
  occcalc::launch_config launch;
  launch.threads_per_block = 128;
  launch.registers_per_thread = 37;
  return occcalc::compute_occupancy(arch, launch).occupancy();
}

__global__ void mission_kernel(occcalc::nvidia_arch_figures arch, double* occupancy) {
  *occupancy = mission_occupancy(arch);
}

}  // namespace

int main() {
  int devices = 0;
  double* answer = nullptr;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0 ||
      cudaMallocManaged(&answer, sizeof *answer) != cudaSuccess) {
    std::printf("%.1f%% (no GPU here: the same __host__ __device__ function on the host)\n",
                mission_occupancy(occcalc::builtin::sm_70) * 100.0);
    return 0;
  }
  mission_kernel<<<1, 1>>>(occcalc::builtin::sm_70, answer);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "the kernel failed: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  std::printf("%.1f%% (computed on the GPU)\n", *answer * 100.0);
  cudaFree(answer);
  return 0;
}
