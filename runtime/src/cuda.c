// cuda.c — the CUDA backend: NVRTC and the driver API, both loaded with
// dlopen so that nothing links against CUDA. The few types and constants of
// cuda.h and nvrtc.h it needs are declared here.
#include "internal.h"
#include "launch_rule.tpl" // tgm_mem_gbps
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent, *CUgraph, *CUgraphExec;
typedef unsigned long long CUdeviceptr;
typedef int nvrtcResult;
typedef void *nvrtcProgram;

enum {
  CU_ERROR_NO_DEVICE = 100,
  CU_ATTR_MAX_THREADS = 1, // CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK
  CU_ATTR_SM_COUNT = 16,
  CU_ATTR_MEM_CLOCK = 36, // CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, kHz
  CU_ATTR_BUS_WIDTH = 37, // CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, bits
  CU_ATTR_L2 = 38,
  CU_ATTR_CC_MAJOR = 75,
  CU_ATTR_CC_MINOR = 76,
  CU_STREAM_NON_BLOCKING = 1,
  CU_CAPTURE_THREAD_LOCAL = 1,
};

// X(return, name, symbol, params)
#define CU_FUNCS(X)                                                                               \
  X(CUresult, cuInit, "cuInit", (unsigned))                                                       \
  X(CUresult, cuDriverGetVersion, "cuDriverGetVersion", (int *))                                  \
  X(CUresult, cuDeviceGetCount, "cuDeviceGetCount", (int *))                                      \
  X(CUresult, cuDeviceGet, "cuDeviceGet", (CUdevice *, int))                                      \
  X(CUresult, cuDeviceGetName, "cuDeviceGetName", (char *, int, CUdevice))                        \
  X(CUresult, cuDeviceGetAttribute, "cuDeviceGetAttribute", (int *, int, CUdevice))               \
  X(CUresult, cuDeviceTotalMem, "cuDeviceTotalMem_v2", (size_t *, CUdevice))                      \
  X(CUresult, cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", (CUcontext *, CUdevice))      \
  X(CUresult, cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", (CUdevice))              \
  X(CUresult, cuCtxSetCurrent, "cuCtxSetCurrent", (CUcontext))                                    \
  X(CUresult, cuCtxSynchronize, "cuCtxSynchronize", (void))                                       \
  X(CUresult, cuGetErrorString, "cuGetErrorString", (CUresult, const char **))                    \
  X(CUresult, cuModuleLoadData, "cuModuleLoadData", (CUmodule *, const void *))                   \
  X(CUresult, cuModuleUnload, "cuModuleUnload", (CUmodule))                                       \
  X(CUresult, cuModuleGetFunction, "cuModuleGetFunction", (CUfunction *, CUmodule, const char *)) \
  X(CUresult, cuFuncGetAttribute, "cuFuncGetAttribute", (int *, int, CUfunction))                 \
  X(CUresult, cuLaunchKernel, "cuLaunchKernel",                                                   \
    (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,  \
     void **, void **))                                                                           \
  X(CUresult, cuMemAlloc, "cuMemAlloc_v2", (CUdeviceptr *, size_t))                               \
  X(CUresult, cuMemFree, "cuMemFree_v2", (CUdeviceptr))                                           \
  X(CUresult, cuMemcpyHtoD, "cuMemcpyHtoD_v2", (CUdeviceptr, const void *, size_t))               \
  X(CUresult, cuMemcpyDtoH, "cuMemcpyDtoH_v2", (void *, CUdeviceptr, size_t))                     \
  X(CUresult, cuMemsetD8Async, "cuMemsetD8Async", (CUdeviceptr, unsigned char, size_t, CUstream)) \
  X(CUresult, cuStreamCreate, "cuStreamCreate", (CUstream *, unsigned))                           \
  X(CUresult, cuStreamDestroy, "cuStreamDestroy_v2", (CUstream))                                  \
  X(CUresult, cuStreamSynchronize, "cuStreamSynchronize", (CUstream))                             \
  X(CUresult, cuEventCreate, "cuEventCreate", (CUevent *, unsigned))                              \
  X(CUresult, cuEventDestroy, "cuEventDestroy_v2", (CUevent))                                     \
  X(CUresult, cuEventRecord, "cuEventRecord", (CUevent, CUstream))                                \
  X(CUresult, cuEventSynchronize, "cuEventSynchronize", (CUevent))                                \
  X(CUresult, cuEventElapsedTime, "cuEventElapsedTime", (float *, CUevent, CUevent))              \
  X(CUresult, cuStreamBeginCapture, "cuStreamBeginCapture_v2", (CUstream, int))                   \
  X(CUresult, cuStreamEndCapture, "cuStreamEndCapture", (CUstream, CUgraph *))                    \
  X(CUresult, cuGraphInstantiate, "cuGraphInstantiateWithFlags",                                  \
    (CUgraphExec *, CUgraph, unsigned long long))                                                 \
  X(CUresult, cuGraphLaunch, "cuGraphLaunch", (CUgraphExec, CUstream))                            \
  X(CUresult, cuGraphExecDestroy, "cuGraphExecDestroy", (CUgraphExec))                            \
  X(CUresult, cuGraphDestroy, "cuGraphDestroy", (CUgraph))

#define NVRTC_FUNCS(X)                                                                           \
  X(nvrtcResult, nvrtcVersion, "nvrtcVersion", (int *, int *))                                   \
  X(const char *, nvrtcGetErrorString, "nvrtcGetErrorString", (nvrtcResult))                     \
  X(nvrtcResult, nvrtcCreateProgram, "nvrtcCreateProgram",                                       \
    (nvrtcProgram *, const char *, const char *, int, const char *const *, const char *const *)) \
  X(nvrtcResult, nvrtcDestroyProgram, "nvrtcDestroyProgram", (nvrtcProgram *))                   \
  X(nvrtcResult, nvrtcAddNameExpression, "nvrtcAddNameExpression", (nvrtcProgram, const char *)) \
  X(nvrtcResult, nvrtcCompileProgram, "nvrtcCompileProgram",                                     \
    (nvrtcProgram, int, const char *const *))                                                    \
  X(nvrtcResult, nvrtcGetLoweredName, "nvrtcGetLoweredName",                                     \
    (nvrtcProgram, const char *, const char **))                                                 \
  X(nvrtcResult, nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize", (nvrtcProgram, size_t *))     \
  X(nvrtcResult, nvrtcGetProgramLog, "nvrtcGetProgramLog", (nvrtcProgram, char *))               \
  X(nvrtcResult, nvrtcGetCUBINSize, "nvrtcGetCUBINSize", (nvrtcProgram, size_t *))               \
  X(nvrtcResult, nvrtcGetCUBIN, "nvrtcGetCUBIN", (nvrtcProgram, char *))

typedef struct {
  void *libcuda, *libnvrtc;
#define FIELD(ret, name, sym, params) ret(*name) params;
  CU_FUNCS(FIELD)
  NVRTC_FUNCS(FIELD)
#undef FIELD
  CUdevice dev;
  CUcontext ctx;
} cuda;

#define IMPL(b) ((cuda *)(b)->impl)

static tgm_status cu_fail(cuda *c, CUresult r, const char *what) {
  const char *msg = NULL;
  if (c->cuGetErrorString)
    c->cuGetErrorString(r, &msg);
  return tgm__fail(r == 2 ? TGM_ERR_MEMORY : TGM_ERR_DEVICE, "%s: CUDA error %d (%s)", what, r,
                   msg ? msg : "?");
}

#define CU(c, call)                   \
  do {                                \
    CUresult r_ = (c)->call;          \
    if (r_ != 0)                      \
      return cu_fail((c), r_, #call); \
  } while (0)

static void *open_nvrtc(void) {
  const char *names[] = {"libnvrtc.so.13", "libnvrtc.so", "libnvrtc.so.12", NULL};
  for (int i = 0; names[i]; i++) {
    void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (h)
      return h;
  }
  const char *homes[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda", NULL};
  for (int i = 0; i < 3; i++) {
    if (!homes[i])
      continue;
    for (int k = 0; k < 2; k++) {
      char path[1024];
      snprintf(path, sizeof path, "%s/lib64/%s", homes[i], names[k]);
      void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      if (h)
        return h;
    }
  }
  return NULL;
}

// ------------------------------------------------------------------ compile
static void cuda_compile(tgm_backend *b, const tgm_compile_job *job, tgm_compile_result *r) {
  cuda *c = IMPL(b);
  const tgm__compile_env *env = &b->env; // all the cache key knows of the backend
  nvrtcProgram prog = NULL;
  int n_opts = env->n_options + job->n_options;
  const char **opts = malloc((size_t)(n_opts ? n_opts : 1) * sizeof *opts);
  if (!opts) {
    r->status = TGM_ERR_MEMORY;
    return;
  }
  nvrtcResult e = c->nvrtcCreateProgram(&prog, job->source, job->source_name,
                                        env->prelude_text ? 1 : 0, &env->prelude_text,
                                        &env->prelude_name);
  if (e != 0) {
    free(opts);
    r->status = TGM_ERR_COMPILE;
    r->log = strdup(c->nvrtcGetErrorString(e));
    return;
  }
  for (int i = 0; i < job->n_names; i++)
    c->nvrtcAddNameExpression(prog, job->names[i]);
  int n = 0;
  for (int i = 0; i < env->n_options; i++)
    opts[n++] = env->options[i];
  for (int i = 0; i < job->n_options; i++)
    opts[n++] = job->options[i];
  e = c->nvrtcCompileProgram(prog, n, opts);
  free(opts);
  size_t log_size = 0;
  c->nvrtcGetProgramLogSize(prog, &log_size);
  if (log_size > 1) {
    r->log = malloc(log_size + 1);
    c->nvrtcGetProgramLog(prog, r->log);
    r->log[log_size] = 0;
  }
  if (e != 0) {
    r->status = TGM_ERR_COMPILE;
    if (!r->log)
      r->log = strdup(c->nvrtcGetErrorString(e));
    c->nvrtcDestroyProgram(&prog);
    return;
  }
  r->lowered = calloc((size_t)(job->n_names ? job->n_names : 1), sizeof *r->lowered);
  r->n_lowered = job->n_names;
  for (int i = 0; i < job->n_names; i++) {
    const char *low = NULL;
    if (c->nvrtcGetLoweredName(prog, job->names[i], &low) != 0 || !low) {
      r->status = TGM_ERR_COMPILE;
      free(r->log);
      size_t len = strlen(job->names[i]) + 64;
      r->log = malloc(len);
      snprintf(r->log, len, "no lowered name for %s", job->names[i]);
      c->nvrtcDestroyProgram(&prog);
      return;
    }
    r->lowered[i] = strdup(low);
  }
  c->nvrtcGetCUBINSize(prog, &r->image_size);
  r->image = malloc(r->image_size ? r->image_size : 1);
  c->nvrtcGetCUBIN(prog, r->image);
  c->nvrtcDestroyProgram(&prog);
  r->status = TGM_OK;
}

// ------------------------------------------------------------------ modules
static tgm_status cuda_module_load(tgm_backend *b, const tgm_compile_result *r, void **mod,
                                   tgm_function *fns) {
  cuda *c = IMPL(b);
  CUmodule m;
  CU(c, cuModuleLoadData(&m, r->image));
  for (int i = 0; i < r->n_lowered; i++) {
    CUresult e = c->cuModuleGetFunction((CUfunction *)&fns[i], m, r->lowered[i]);
    if (e != 0) {
      c->cuModuleUnload(m);
      return cu_fail(c, e, r->lowered[i]);
    }
  }
  *mod = m;
  return TGM_OK;
}

static void cuda_module_unload(tgm_backend *b, void *mod) { IMPL(b)->cuModuleUnload(mod); }

// ------------------------------------------------------------------ running
static tgm_status cuda_malloc(tgm_backend *b, size_t bytes, tgm_devptr *out) {
  CUdeviceptr p;
  CU(IMPL(b), cuMemAlloc(&p, bytes ? bytes : 1));
  *out = p;
  return TGM_OK;
}
static tgm_status cuda_free(tgm_backend *b, tgm_devptr p) {
  CU(IMPL(b), cuMemFree(p));
  return TGM_OK;
}
static tgm_status cuda_to_device(tgm_backend *b, tgm_devptr d, const void *s, size_t n) {
  CU(IMPL(b), cuMemcpyHtoD(d, s, n));
  return TGM_OK;
}
static tgm_status cuda_to_host(tgm_backend *b, void *d, tgm_devptr s, size_t n) {
  CU(IMPL(b), cuMemcpyDtoH(d, s, n));
  return TGM_OK;
}
static tgm_status cuda_memset(tgm_backend *b, tgm_devptr d, unsigned char v, size_t n,
                              tgm_stream s) {
  CU(IMPL(b), cuMemsetD8Async(d, v, n, s));
  return TGM_OK;
}
static tgm_status cuda_stream_create(tgm_backend *b, tgm_stream *out) {
  CU(IMPL(b), cuStreamCreate((CUstream *)out, CU_STREAM_NON_BLOCKING));
  return TGM_OK;
}
static tgm_status cuda_stream_destroy(tgm_backend *b, tgm_stream s) {
  CU(IMPL(b), cuStreamDestroy(s));
  return TGM_OK;
}
static tgm_status cuda_stream_sync(tgm_backend *b, tgm_stream s) {
  CU(IMPL(b), cuStreamSynchronize(s));
  return TGM_OK;
}
static tgm_status cuda_launch(tgm_backend *b, tgm_function f, unsigned grid_x, unsigned grid_y,
                              unsigned block, void **args, tgm_stream s) {
  CU(IMPL(b), cuLaunchKernel(f, grid_x, grid_y, 1, block, 1, 1, 0, s, args, NULL));
  return TGM_OK;
}
static tgm_status cuda_event_create(tgm_backend *b, tgm_event *out) {
  CU(IMPL(b), cuEventCreate((CUevent *)out, 0));
  return TGM_OK;
}
static tgm_status cuda_event_destroy(tgm_backend *b, tgm_event e) {
  CU(IMPL(b), cuEventDestroy(e));
  return TGM_OK;
}
static tgm_status cuda_event_record(tgm_backend *b, tgm_event e, tgm_stream s) {
  CU(IMPL(b), cuEventRecord(e, s));
  return TGM_OK;
}
static tgm_status cuda_event_elapsed(tgm_backend *b, tgm_event a, tgm_event z, float *ms) {
  CU(IMPL(b), cuEventSynchronize(z));
  CU(IMPL(b), cuEventElapsedTime(ms, a, z));
  return TGM_OK;
}
static tgm_status cuda_capture_begin(tgm_backend *b, tgm_stream s) {
  CU(IMPL(b), cuStreamBeginCapture(s, CU_CAPTURE_THREAD_LOCAL));
  return TGM_OK;
}
static tgm_status cuda_capture_end(tgm_backend *b, tgm_stream s, tgm_graph *out) {
  cuda *c = IMPL(b);
  CUgraph g;
  CU(c, cuStreamEndCapture(s, &g));
  CUgraphExec x;
  CUresult e = c->cuGraphInstantiate(&x, g, 0);
  c->cuGraphDestroy(g);
  if (e != 0)
    return cu_fail(c, e, "cuGraphInstantiateWithFlags");
  *out = x;
  return TGM_OK;
}
static tgm_status cuda_graph_launch(tgm_backend *b, tgm_graph g, tgm_stream s) {
  CU(IMPL(b), cuGraphLaunch(g, s));
  return TGM_OK;
}
static tgm_status cuda_graph_destroy(tgm_backend *b, tgm_graph g) {
  CU(IMPL(b), cuGraphExecDestroy(g));
  return TGM_OK;
}

static void cuda_close(tgm_backend *b) {
  cuda *c = IMPL(b);
  if (c->ctx)
    c->cuDevicePrimaryCtxRelease(c->dev);
  // the libraries stay loaded: CUDA does not like being unloaded
  free(c);
}

// CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: what f's registers and shared memory allow
static tgm_status cuda_max_threads(tgm_backend *b, tgm_function f, unsigned *out) {
  int n = 0;
  CU(IMPL(b), cuFuncGetAttribute(&n, 0, f));
  *out = n > 0 ? (unsigned)n : 0;
  return TGM_OK;
}

static const tgm__ops cuda_ops = {
    cuda_compile,       cuda_module_load,    cuda_module_unload, cuda_malloc,
    cuda_free,          cuda_to_device,      cuda_to_host,       cuda_memset,
    cuda_stream_create, cuda_stream_destroy, cuda_stream_sync,   cuda_launch,
    cuda_event_create,  cuda_event_destroy,  cuda_event_record,  cuda_event_elapsed,
    cuda_capture_begin, cuda_capture_end,    cuda_graph_launch,  cuda_graph_destroy,
    cuda_close,         cuda_max_threads,
};

tgm_status tgm__cuda_open(int device, const char *offline_arch, tgm_backend *b) {
  cuda *c = calloc(1, sizeof *c);
  if (!c)
    return tgm__fail(TGM_ERR_MEMORY, "out of memory");
  b->ops = &cuda_ops;
  b->impl = c;
  b->info.warp = 32;
  tgm_status s = TGM_OK;
  if (!offline_arch) {
    c->libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!c->libcuda) {
      s = tgm__fail(TGM_ERR_NO_DRIVER, "no CUDA driver (libcuda.so.1 cannot be loaded)");
      goto fail;
    }
#define LOAD_CU(ret, name, sym, params)                                  \
  c->name = (ret(*) params)dlsym(c->libcuda, sym);                       \
  if (!c->name) {                                                        \
    s = tgm__fail(TGM_ERR_NO_DRIVER, "CUDA driver too old: no %s", sym); \
    goto fail;                                                           \
  }
    CU_FUNCS(LOAD_CU)
#undef LOAD_CU
    CUresult e = c->cuInit(0);
    int count = 0;
    if (e == 0)
      e = c->cuDeviceGetCount(&count);
    if (e != 0 || count == 0) {
      s = tgm__fail(TGM_ERR_NO_DEVICE, "no CUDA device (cuInit: error %d)", e);
      goto fail;
    }
    if (device < 0 || device >= count) {
      s = tgm__fail(TGM_ERR_NO_DEVICE, "no CUDA device %d (%d present)", device, count);
      goto fail;
    }
    int major = 0, minor = 0, sms = 0, l2 = 0, threads = 0;
    if ((e = c->cuDeviceGet(&c->dev, device)) ||
        (e = c->cuDeviceGetName(b->info.name, 255, c->dev)) ||
        (e = c->cuDeviceGetAttribute(&major, CU_ATTR_CC_MAJOR, c->dev)) ||
        (e = c->cuDeviceGetAttribute(&minor, CU_ATTR_CC_MINOR, c->dev)) ||
        (e = c->cuDeviceGetAttribute(&sms, CU_ATTR_SM_COUNT, c->dev)) ||
        (e = c->cuDeviceGetAttribute(&l2, CU_ATTR_L2, c->dev)) ||
        (e = c->cuDeviceGetAttribute(&threads, CU_ATTR_MAX_THREADS, c->dev)) ||
        (e = c->cuDeviceTotalMem(&b->info.global_mem_bytes, c->dev)) ||
        (e = c->cuDriverGetVersion(&b->info.driver_version)) ||
        (e = c->cuDevicePrimaryCtxRetain(&c->ctx, c->dev)) || (e = c->cuCtxSetCurrent(c->ctx))) {
      s = cu_fail(c, e, "opening the CUDA device");
      goto fail;
    }
    b->info.cc_major = major, b->info.cc_minor = minor;
    b->info.sm_count = sms;
    b->info.max_threads = threads;
    b->info.l2_bytes = (size_t)l2;
    int mem_khz = 0, bus_bits = 0; // either may be unsupported: the peak stays unknown
    if (!c->cuDeviceGetAttribute(&mem_khz, CU_ATTR_MEM_CLOCK, c->dev) &&
        !c->cuDeviceGetAttribute(&bus_bits, CU_ATTR_BUS_WIDTH, c->dev))
      b->info.peak_gbps = (double)tgm_mem_gbps(mem_khz, bus_bits);
    snprintf(b->info.arch, sizeof b->info.arch, "sm_%d%d", major, minor);
  } else {
    b->offline = 1;
    snprintf(b->info.arch, sizeof b->info.arch, "%s", offline_arch);
    snprintf(b->info.name, sizeof b->info.name, "offline %s", offline_arch);
  }
  c->libnvrtc = open_nvrtc();
  if (!c->libnvrtc) {
    s = tgm__fail(TGM_ERR_NO_COMPILER, "no NVRTC (libnvrtc.so.13 cannot be loaded)");
    goto fail;
  }
#define LOAD_NV(ret, name, sym, params)                              \
  c->name = (ret(*) params)dlsym(c->libnvrtc, sym);                  \
  if (!c->name) {                                                    \
    s = tgm__fail(TGM_ERR_NO_COMPILER, "NVRTC too old: no %s", sym); \
    goto fail;                                                       \
  }
  NVRTC_FUNCS(LOAD_NV)
#undef LOAD_NV
  int vmaj = 0, vmin = 0;
  c->nvrtcVersion(&vmaj, &vmin);
  snprintf(b->info.compiler, sizeof b->info.compiler, "nvrtc %d.%d", vmaj, vmin);
  // The compile environment, which the cache key covers: nvrtcVersion has
  // no patch level, so the library itself (path, size, mtime, build id)
  // names the compiler.
  char *lib = tgm__library_id((const void *)c->nvrtcCompileProgram);
  size_t len = strlen(b->info.compiler) + (lib ? strlen(lib) : 7) + 2;
  b->env.compiler = malloc(len);
  if (!b->env.compiler) {
    free(lib);
    s = tgm__fail(TGM_ERR_MEMORY, "out of memory");
    goto fail;
  }
  snprintf(b->env.compiler, len, "%s %s", b->info.compiler, lib ? lib : "unknown");
  free(lib);
  // no prelude: the generated sources compile with NVRTC as they are
  if ((s = tgm__env_option(&b->env, "-arch=%s", b->info.arch)) ||
      (s = tgm__env_option(&b->env, "--std=c++17")))
    goto fail;
  return TGM_OK;
fail:
  if (c->ctx)
    c->cuDevicePrimaryCtxRelease(c->dev);
  free(c);
  b->impl = NULL;
  return s;
}
