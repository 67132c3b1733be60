/// \file common/host_device.hpp
/// `OCCCALC_HOST_DEVICE`: marks the core calculator's functions callable
/// from device code under nvcc and hipcc, and from host code everywhere
/// (it expands to nothing for other compilers).
#pragma once

#if defined(__CUDACC__) || defined(__HIPCC__)
#define OCCCALC_HOST_DEVICE __host__ __device__
#else
#define OCCCALC_HOST_DEVICE
#endif
