/* target.c -- the dialects tgm-gen prints: everything that differs between
 * CUDA and HIP, in one entry each. The printer, the transformations (which
 * make abstract nodes: ND_SYNC, ND_FENCE, ND_TICKET, ND_SHFL, ND_REDUX),
 * the planner, the CPU check and the templates (through the holes below)
 * read it; nothing else tests which dialect it prints. Adding a dialect is
 * an entry here and a backend in the runtime. */
#include "tgm.h"
#include <string.h>

// clang-format off
/* The GPU built-ins that ND_GPU names (tid, bid, ...), as printed. */
static const char *const cuda_builtins[] = {
    "tid", "threadIdx.x",
    "bid", "blockIdx.x",
    "bid_y", "blockIdx.y",
    "bdim", "blockDim.x",
    "gdim", "gridDim.x",
    "lane", "threadIdx.x % TGM_WARP",
    "warp", "threadIdx.x / TGM_WARP",
    "warp_size", "TGM_WARP",
    "block", "BLOCK",
    "items", "ITEMS",
    "group", "GROUP",                    /* a row's threads (xf_group.c) */
    "group_tid", "threadIdx.x % GROUP",
    "group_id", "threadIdx.x / GROUP",
    NULL,
};

/* The host API's names, as template holes of launch.tpl and embed.tpl. */
static const char *const cuda_host[] = {
    "err_t", "cudaError_t",
    "stream_t", "cudaStream_t",
    "success", "cudaSuccess",
    "err_invalid", "cudaErrorInvalidValue",
    "peek_last_error", "cudaPeekAtLastError",
    "clear_last_error", "cudaGetLastError",
    "rtc", "__CUDACC_RTC__",
    "malloc", "cudaMalloc",
    "graph", "a CUDA graph",
    "get_device", "cudaGetDevice",
    "get_attribute", "cudaDeviceGetAttribute",
    "sm_count_attr", "cudaDevAttrMultiProcessorCount",
    "max_threads_attr", "cudaDevAttrMaxThreadsPerBlock",
    "mem_clock_attr", "cudaDevAttrMemoryClockRate",
    "bus_width_attr", "cudaDevAttrGlobalMemoryBusWidth",
    "cc_major_attr", "cudaDevAttrComputeCapabilityMajor",
    "cc_minor_attr", "cudaDevAttrComputeCapabilityMinor",
    "props_t", "cudaDeviceProp",
    "get_props", "cudaGetDeviceProperties",
    "memset_async", "cudaMemsetAsync",
    NULL,
};

static const char *const hip_host[] = {
    "err_t", "hipError_t",
    "stream_t", "hipStream_t",
    "success", "hipSuccess",
    "err_invalid", "hipErrorInvalidValue",
    "peek_last_error", "hipPeekAtLastError",
    "clear_last_error", "hipGetLastError",
    "rtc", "__HIPCC_RTC__",
    "malloc", "hipMalloc",
    "graph", "a HIP graph",
    "get_device", "hipGetDevice",
    "get_attribute", "hipDeviceGetAttribute",
    "sm_count_attr", "hipDeviceAttributeMultiprocessorCount",
    "max_threads_attr", "hipDeviceAttributeMaxThreadsPerBlock",
    "mem_clock_attr", "hipDeviceAttributeMemoryClockRate",
    "bus_width_attr", "hipDeviceAttributeMemoryBusWidth",
    "cc_major_attr", "hipDeviceAttributeComputeCapabilityMajor",
    "cc_minor_attr", "hipDeviceAttributeComputeCapabilityMinor",
    "props_t", "hipDeviceProp_t",
    "get_props", "hipGetDeviceProperties",
    "memset_async", "hipMemsetAsync",
    NULL,
};

static const Dialect dialects[DIALECT_COUNT] = {
    [DIALECT_CUDA] = {
        .name = "cuda",
        .title = "CUDA",
        .ext = "cu",
        .rtc_name = "nvrtc",
        .chosen_by = "CUDA, without --hip",
        .gpus = "NVIDIA GPUs",
        .sync_block = "__syncthreads()",
        .sync_warp = "__syncwarp()",
        .shfl_down = "__shfl_down_sync(0xffffffffu, %s, %s)",
        .shfl_down_width = "__shfl_down_sync(0xffffffffu, %s, %s, %s)",
        .redux = "tgm_warp_reduce(%s)",
        .fence = "__threadfence()",
        .ticket = "atomicInc(%s, %s)",
        .early_launch = true,
        .min_blocks_bound = true,
        .includes = "",
        .warp_def = "\n#ifndef TGM_WARP\n#define TGM_WARP 32\n#endif",
        .device_prelude = "",
        .warps = {32},
        .nwarps = 1,
        .warp_flag = NULL,
        .builtins = cuda_builtins,
        .host = cuda_host,
    },
    [DIALECT_HIP] = {
        .name = "hip",
        .title = "HIP",
        .ext = "hip",
        .rtc_name = "hiprtc",
        .chosen_by = "--hip",
        .gpus = "AMD GPUs",
        .sync_block = "__syncthreads()",
        .sync_warp = "tgm_sync_warp()",
        .shfl_down = "__shfl_down(%s, %s)",
        .shfl_down_width = "__shfl_down(%s, %s, %s)",
        .redux = NULL,
        .fence = "__threadfence()",
        .ticket = "atomicInc(%s, %s)",
        .includes = "#if !defined(__HIPCC_RTC__) && !defined(TGM_SIM)\n"
                    "#include <hip/hip_runtime.h>\n"
                    "#endif\n",
        .warp_def = "\n#ifndef TGM_WARP\n"
                    "#if defined(__AMDGCN_WAVEFRONT_SIZE)\n"
                    "#define TGM_WARP __AMDGCN_WAVEFRONT_SIZE\n"
                    "#else\n"
                    "#define TGM_WARP 64 // host pass: no device code is generated\n"
                    "#endif\n"
                    "#endif",
        .device_prelude = "\n\n// A warp-wide barrier with memory ordering among the lanes of a wavefront.\n"
                          "__device__ __forceinline__ void tgm_sync_warp() {\n"
                          "#if defined(__HIP_DEVICE_COMPILE__)\n"
                          "  __builtin_amdgcn_fence(__ATOMIC_RELEASE, \"wavefront\");\n"
                          "  __builtin_amdgcn_wave_barrier();\n"
                          "  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, \"wavefront\");\n"
                          "#elif defined(TGM_SIM)\n"
                          "  __syncwarp(); // the CPU simulator of the tests\n"
                          "#endif\n"
                          "}",
        .warps = {64, 32},
        .nwarps = 2,
        .warp_flag = "-D__AMDGCN_WAVEFRONT_SIZE=%d",
        .builtins = cuda_builtins, /* HIP spells them as CUDA does */
        .host = hip_host,
    },
};
// clang-format on

const Dialect *dialect_get(DialectKind k) { return &dialects[k]; }

void dialect_set_holes(TplDict *d, const Dialect *dl) {
  for (const char *const *kv = dl->host; kv[0]; kv += 2)
    tpl_set(d, kv[0], kv[1]);
}

const char *dialect_hole(const Dialect *dl, const char *hole) {
  for (const char *const *kv = dl->host; kv[0]; kv += 2)
    if (strcmp(kv[0], hole) == 0)
      return kv[1];
  return "";
}
