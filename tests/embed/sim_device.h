// sim_device.h -- the device queries an embedded header makes, answered by
// fake GPUs, for running the header on the CPU simulator (sim/, whose
// runtime has memory, copies and launches but no devices).
//
// The test lists its GPUs in fake::gpus and picks the current one per
// thread (fake::current); fake::props_calls counts the (slow) property
// reads, fake::fail makes cudaGetDevice / hipGetDevice fail.
#ifndef TGM_SIM_DEVICE_H
#define TGM_SIM_DEVICE_H

#include <atomic>
#include <cstdio>
#include <cstring>
#include <vector>

namespace fake {
struct Gpu {
  const char *name;
  int major, minor, sms;
  int max_threads = 1024;        // threads a block
  int mem_khz = 0, bus_bits = 0; // memory clock and bus width; 0: the query fails
  int code = 0; // the PTX version of the program's code for it (cudaFuncGetAttributes); 0: its own
};
inline std::vector<Gpu> gpus;
inline thread_local int current = 0;
inline std::atomic<int> props_calls{0}, attribute_calls{0};
inline bool fail = false;

inline bool known(int dev) { return dev >= 0 && dev < (int)gpus.size(); }
// 0: SMs, 1: cc major, 2: cc minor, 3: threads a block, 4: memory clock (kHz), 5: bus width (bits)
inline int attribute(int what, int dev) {
  attribute_calls++;
  const Gpu &g = gpus[(size_t)dev];
  return what == 0   ? g.sms
         : what == 1 ? g.major
         : what == 2 ? g.minor
         : what == 4 ? g.mem_khz
         : what == 5 ? g.bus_bits
                     : g.max_threads;
}
// Whether a query of attribute `what` fails: the memory's, where the GPU has none.
inline bool attribute_fails(int what, int dev) {
  const Gpu &g = gpus[(size_t)dev];
  return (what == 4 && g.mem_khz == 0) || (what == 5 && g.bus_bits == 0);
}
template <typename Props> void properties(Props *p, int dev) {
  props_calls++;
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "%s", gpus[(size_t)dev].name);
  p->major = gpus[(size_t)dev].major;
  p->minor = gpus[(size_t)dev].minor;
  p->multiProcessorCount = gpus[(size_t)dev].sms;
}
} // namespace fake

// CUDA
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
};
struct cudaDeviceProp {
  char name[256];
  int major, minor, multiProcessorCount;
};
inline cudaError_t cudaGetDevice(int *dev) {
  *dev = fake::current;
  return fake::fail ? cudaErrorInvalidValue : cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int dev) {
  if (!fake::known(dev))
    return cudaErrorInvalidValue;
  const int what = a == cudaDevAttrMultiProcessorCount      ? 0
                   : a == cudaDevAttrComputeCapabilityMajor ? 1
                   : a == cudaDevAttrComputeCapabilityMinor ? 2
                   : a == cudaDevAttrMemoryClockRate        ? 4
                   : a == cudaDevAttrGlobalMemoryBusWidth   ? 5
                                                            : 3;
  if (fake::attribute_fails(what, dev))
    return cudaErrorInvalidValue;
  *v = fake::attribute(what, dev);
  return cudaSuccess;
}
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int dev) {
  if (!fake::known(dev))
    return cudaErrorInvalidValue;
  fake::properties(p, dev);
  return cudaSuccess;
}
// a kernel's attributes: the code the program holds for the current GPU
struct cudaFuncAttributes {
  int ptxVersion, binaryVersion;
};
template <typename F> cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, F *) {
  if (!fake::known(fake::current))
    return cudaErrorInvalidValue;
  const fake::Gpu &g = fake::gpus[(size_t)fake::current];
  a->binaryVersion = g.major * 10 + g.minor;
  a->ptxVersion = g.code ? g.code : a->binaryVersion;
  return cudaSuccess;
}

// HIP
enum hipDeviceAttribute_t {
  hipDeviceAttributeMultiprocessorCount = 1,
  hipDeviceAttributeMaxThreadsPerBlock = 4,
  hipDeviceAttributeComputeCapabilityMajor = 2,
  hipDeviceAttributeComputeCapabilityMinor = 3,
  hipDeviceAttributeMemoryClockRate = 5,
  hipDeviceAttributeMemoryBusWidth = 6,
};
struct hipDeviceProp_t {
  char name[256];
  int major, minor, multiProcessorCount;
};
inline hipError_t hipGetDevice(int *dev) {
  *dev = fake::current;
  return fake::fail ? hipErrorInvalidValue : hipSuccess;
}
inline hipError_t hipDeviceGetAttribute(int *v, hipDeviceAttribute_t a, int dev) {
  if (!fake::known(dev))
    return hipErrorInvalidValue;
  const int what = a == hipDeviceAttributeMultiprocessorCount      ? 0
                   : a == hipDeviceAttributeComputeCapabilityMajor ? 1
                   : a == hipDeviceAttributeComputeCapabilityMinor ? 2
                   : a == hipDeviceAttributeMemoryClockRate        ? 4
                   : a == hipDeviceAttributeMemoryBusWidth         ? 5
                                                                   : 3;
  if (fake::attribute_fails(what, dev))
    return hipErrorInvalidValue;
  *v = fake::attribute(what, dev);
  return hipSuccess;
}
inline hipError_t hipGetDeviceProperties(hipDeviceProp_t *p, int dev) {
  if (!fake::known(dev))
    return hipErrorInvalidValue;
  fake::properties(p, dev);
  return hipSuccess;
}

#endif
