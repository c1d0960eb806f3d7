// hip.c — the HIP backend: hiprtc and the HIP module API (linked, not
// loaded: it is built only where HIP is installed).
#include "internal.h"
#include "launch_rule.tpl" // tgm_mem_gbps
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#include <hip/hiprtc.h>

typedef struct {
  int dev;
} hip;

static tgm_status hip_fail(hipError_t e, const char *what) {
  return tgm__fail(e == hipErrorOutOfMemory ? TGM_ERR_MEMORY : TGM_ERR_DEVICE,
                   "%s: HIP error %d (%s)", what, (int)e, hipGetErrorString(e));
}

#define HIPCALL(call)             \
  do {                            \
    hipError_t e_ = (call);       \
    if (e_ != hipSuccess)         \
      return hip_fail(e_, #call); \
  } while (0)

// hiprtc 5.2 keys template instances by their demangled spelling: "f<128>"
// is found as "f<128u>" for an unsigned parameter, and only when that
// spelling was added too.
static void unsigned_spelling(const char *name, char *alt, size_t cap) {
  size_t o = 0;
  for (const char *p = name; *p && o < cap - 2; p++) {
    alt[o++] = *p;
    if (*p >= '0' && *p <= '9' && (p[1] == '>' || p[1] == ','))
      alt[o++] = 'u';
  }
  alt[o] = 0;
}

// hiprtc 5.2 crashes when programs are built on several threads at once
// (seen in hiprtcAddNameExpression): its compiles are serialised.
static pthread_mutex_t hiprtc_lock = PTHREAD_MUTEX_INITIALIZER;

static void hip_compile_locked(tgm_backend *b, const tgm_compile_job *job, tgm_compile_result *r);

static void hip_compile(tgm_backend *b, const tgm_compile_job *job, tgm_compile_result *r) {
  pthread_mutex_lock(&hiprtc_lock);
  hip_compile_locked(b, job, r);
  pthread_mutex_unlock(&hiprtc_lock);
}

static void hip_compile_locked(tgm_backend *b, const tgm_compile_job *job, tgm_compile_result *r) {
  hiprtcProgram prog;
  hiprtcResult e = hiprtcCreateProgram(&prog, job->source, job->source_name, 0, NULL, NULL);
  if (e != HIPRTC_SUCCESS) {
    r->status = TGM_ERR_COMPILE;
    r->log = strdup(hiprtcGetErrorString(e));
    return;
  }
  for (int i = 0; i < job->n_names; i++) {
    char alt[1024];
    int dup = 0; // hiprtc 5.2 fails to compile a name added twice
    for (int k = 0; k < i; k++)
      dup |= !strcmp(job->names[k], job->names[i]);
    if (dup)
      continue;
    hiprtcAddNameExpression(prog, job->names[i]);
    unsigned_spelling(job->names[i], alt, sizeof alt);
    if (strcmp(alt, job->names[i]))
      hiprtcAddNameExpression(prog, alt);
  }
  const tgm__compile_env *env = &b->env; // all the cache key knows of the backend
  int n = 0, n_opts = env->n_options + job->n_options;
  const char **opts = malloc((size_t)(n_opts ? n_opts : 1) * sizeof *opts);
  if (!opts) {
    hiprtcDestroyProgram(&prog);
    r->status = TGM_ERR_MEMORY;
    return;
  }
  for (int i = 0; i < env->n_options; i++)
    opts[n++] = env->options[i];
  for (int i = 0; i < job->n_options; i++)
    opts[n++] = job->options[i];
  e = hiprtcCompileProgram(prog, n, opts);
  free(opts);
  size_t log_size = 0;
  hiprtcGetProgramLogSize(prog, &log_size);
  if (log_size > 1) {
    r->log = malloc(log_size + 1);
    hiprtcGetProgramLog(prog, r->log);
    r->log[log_size] = 0;
  }
  if (e != HIPRTC_SUCCESS) {
    r->status = TGM_ERR_COMPILE;
    if (!r->log)
      r->log = strdup(hiprtcGetErrorString(e));
    hiprtcDestroyProgram(&prog);
    return;
  }
  r->n_lowered = job->n_names;
  r->lowered = calloc((size_t)(job->n_names ? job->n_names : 1), sizeof *r->lowered);
  for (int i = 0; i < job->n_names; i++) {
    const char *low = NULL;
    if (hiprtcGetLoweredName(prog, job->names[i], &low) != HIPRTC_SUCCESS || !low) {
      char alt[1024];
      unsigned_spelling(job->names[i], alt, sizeof alt);
      low = NULL;
      hiprtcGetLoweredName(prog, alt, &low);
    }
    if (!low) {
      r->status = TGM_ERR_COMPILE;
      free(r->log);
      r->log = strdup("hiprtcGetLoweredName failed");
      hiprtcDestroyProgram(&prog);
      return;
    }
    r->lowered[i] = strdup(low);
  }
  hiprtcGetCodeSize(prog, &r->image_size);
  r->image = malloc(r->image_size ? r->image_size : 1);
  hiprtcGetCode(prog, r->image);
  hiprtcDestroyProgram(&prog);
  r->status = TGM_OK;
}

static tgm_status hip_module_load(tgm_backend *b, const tgm_compile_result *r, void **mod,
                                  tgm_function *fns) {
  (void)b;
  hipModule_t m;
  HIPCALL(hipModuleLoadData(&m, r->image));
  for (int i = 0; i < r->n_lowered; i++) {
    hipError_t e = hipModuleGetFunction((hipFunction_t *)&fns[i], m, r->lowered[i]);
    if (e != hipSuccess) {
      hipModuleUnload(m);
      return hip_fail(e, r->lowered[i]);
    }
  }
  *mod = m;
  return TGM_OK;
}

static void hip_module_unload(tgm_backend *b, void *mod) {
  (void)b;
  hipModuleUnload(mod);
}

static tgm_status hip_malloc(tgm_backend *b, size_t bytes, tgm_devptr *out) {
  (void)b;
  void *p;
  HIPCALL(hipMalloc(&p, bytes ? bytes : 1));
  *out = (tgm_devptr)(uintptr_t)p;
  return TGM_OK;
}
static tgm_status hip_free(tgm_backend *b, tgm_devptr p) {
  (void)b;
  HIPCALL(hipFree((void *)(uintptr_t)p));
  return TGM_OK;
}
static tgm_status hip_to_device(tgm_backend *b, tgm_devptr d, const void *s, size_t n) {
  (void)b;
  HIPCALL(hipMemcpyHtoD((hipDeviceptr_t)(uintptr_t)d, (void *)s, n));
  return TGM_OK;
}
static tgm_status hip_to_host(tgm_backend *b, void *d, tgm_devptr s, size_t n) {
  (void)b;
  HIPCALL(hipMemcpyDtoH(d, (hipDeviceptr_t)(uintptr_t)s, n));
  return TGM_OK;
}
static tgm_status hip_memset(tgm_backend *b, tgm_devptr d, unsigned char v, size_t n,
                             tgm_stream s) {
  (void)b;
  HIPCALL(hipMemsetAsync((void *)(uintptr_t)d, v, n, s));
  return TGM_OK;
}
static tgm_status hip_stream_create(tgm_backend *b, tgm_stream *out) {
  (void)b;
  HIPCALL(hipStreamCreateWithFlags((hipStream_t *)out, hipStreamNonBlocking));
  return TGM_OK;
}
static tgm_status hip_stream_destroy(tgm_backend *b, tgm_stream s) {
  (void)b;
  HIPCALL(hipStreamDestroy(s));
  return TGM_OK;
}
static tgm_status hip_stream_sync(tgm_backend *b, tgm_stream s) {
  (void)b;
  HIPCALL(hipStreamSynchronize(s));
  return TGM_OK;
}
static tgm_status hip_launch(tgm_backend *b, tgm_function f, unsigned grid_x, unsigned grid_y,
                             unsigned block, void **args, tgm_stream s) {
  (void)b;
  HIPCALL(hipModuleLaunchKernel(f, grid_x, grid_y, 1, block, 1, 1, 0, s, args, NULL));
  return TGM_OK;
}
static tgm_status hip_event_create(tgm_backend *b, tgm_event *out) {
  (void)b;
  HIPCALL(hipEventCreate((hipEvent_t *)out));
  return TGM_OK;
}
static tgm_status hip_event_destroy(tgm_backend *b, tgm_event e) {
  (void)b;
  HIPCALL(hipEventDestroy(e));
  return TGM_OK;
}
static tgm_status hip_event_record(tgm_backend *b, tgm_event e, tgm_stream s) {
  (void)b;
  HIPCALL(hipEventRecord(e, s));
  return TGM_OK;
}
static tgm_status hip_event_elapsed(tgm_backend *b, tgm_event a, tgm_event z, float *ms) {
  (void)b;
  HIPCALL(hipEventSynchronize(z));
  HIPCALL(hipEventElapsedTime(ms, a, z));
  return TGM_OK;
}
static tgm_status hip_capture_begin(tgm_backend *b, tgm_stream s) {
  (void)b;
  HIPCALL(hipStreamBeginCapture(s, hipStreamCaptureModeThreadLocal));
  return TGM_OK;
}
static tgm_status hip_capture_end(tgm_backend *b, tgm_stream s, tgm_graph *out) {
  (void)b;
  hipGraph_t g;
  HIPCALL(hipStreamEndCapture(s, &g));
  hipGraphExec_t x;
  hipError_t e = hipGraphInstantiate(&x, g, NULL, NULL, 0);
  hipGraphDestroy(g);
  if (e != hipSuccess)
    return hip_fail(e, "hipGraphInstantiate");
  *out = x;
  return TGM_OK;
}
static tgm_status hip_graph_launch(tgm_backend *b, tgm_graph g, tgm_stream s) {
  (void)b;
  HIPCALL(hipGraphLaunch(g, s));
  return TGM_OK;
}
static tgm_status hip_graph_destroy(tgm_backend *b, tgm_graph g) {
  (void)b;
  HIPCALL(hipGraphExecDestroy(g));
  return TGM_OK;
}
static void hip_close(tgm_backend *b) { free(b->impl); }
static tgm_status hip_max_threads(tgm_backend *b, tgm_function f, unsigned *out) {
  (void)b;
  int n = 0;
  HIPCALL(hipFuncGetAttribute(&n, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
  *out = n > 0 ? (unsigned)n : 0;
  return TGM_OK;
}

static const tgm__ops hip_ops = {
    hip_compile,       hip_module_load,   hip_module_unload, hip_malloc,        hip_free,
    hip_to_device,     hip_to_host,       hip_memset,        hip_stream_create, hip_stream_destroy,
    hip_stream_sync,   hip_launch,        hip_event_create,  hip_event_destroy, hip_event_record,
    hip_event_elapsed, hip_capture_begin, hip_capture_end,   hip_graph_launch,  hip_graph_destroy,
    hip_close,         hip_max_threads,
};

// The compile environment, which the cache key covers: the full version of
// the headers built against and of the library loaded (path, size, mtime,
// build id), since the two may differ; the built-in options.
static tgm_status hip_env(tgm_backend *b) {
  int vmaj = 0, vmin = 0;
  hiprtcVersion(&vmaj, &vmin);
  char *lib = tgm__library_id((const void *)hiprtcCompileProgram);
  const char *fmt = "hiprtc (hiprtcVersion %d.%d, headers %d.%d.%d) %s";
  int len = snprintf(NULL, 0, fmt, vmaj, vmin, HIP_VERSION_MAJOR, HIP_VERSION_MINOR,
                     HIP_VERSION_PATCH, lib ? lib : "unknown");
  b->env.compiler = malloc((size_t)len + 1);
  if (b->env.compiler)
    snprintf(b->env.compiler, (size_t)len + 1, fmt, vmaj, vmin, HIP_VERSION_MAJOR,
             HIP_VERSION_MINOR, HIP_VERSION_PATCH, lib ? lib : "unknown");
  free(lib);
  tgm_status s = b->env.compiler ? TGM_OK : tgm__fail(TGM_ERR_MEMORY, "out of memory");
  if (s || (s = tgm__env_option(&b->env, "--offload-arch=%s", b->info.arch)) ||
      (s = tgm__env_option(&b->env, "-std=c++17")) || (s = tgm__env_option(&b->env, "-O3"))) {
    free(b->impl);
    b->impl = NULL;
  }
  return s;
}

tgm_status tgm__hip_open(int device, const char *offline_arch, tgm_backend *b) {
  hip *h = calloc(1, sizeof *h);
  if (!h)
    return tgm__fail(TGM_ERR_MEMORY, "out of memory");
  b->ops = &hip_ops;
  b->impl = h;
  b->info.warp = 64;
  snprintf(b->info.compiler, sizeof b->info.compiler, "hiprtc %d.%d", HIP_VERSION_MAJOR,
           HIP_VERSION_MINOR);
  if (offline_arch) {
    b->offline = 1;
    snprintf(b->info.arch, sizeof b->info.arch, "%s", offline_arch);
    snprintf(b->info.name, sizeof b->info.name, "offline %s", offline_arch);
    return hip_env(b);
  }
  int count = 0;
  hipError_t e = hipGetDeviceCount(&count);
  if (e != hipSuccess || count == 0) {
    free(h);
    b->impl = NULL;
    return tgm__fail(TGM_ERR_NO_DEVICE, "no HIP device (hipGetDeviceCount: %s)",
                     hipGetErrorString(e));
  }
  if (device < 0 || device >= count || hipSetDevice(device) != hipSuccess) {
    free(h);
    b->impl = NULL;
    return tgm__fail(TGM_ERR_NO_DEVICE, "no HIP device %d (%d present)", device, count);
  }
  h->dev = device;
  hipDeviceProp_t p;
  if ((e = hipGetDeviceProperties(&p, device)) != hipSuccess) {
    free(h);
    b->impl = NULL;
    return hip_fail(e, "hipGetDeviceProperties");
  }
  snprintf(b->info.name, sizeof b->info.name, "%s", p.name);
  snprintf(b->info.arch, sizeof b->info.arch, "%.31s", p.gcnArchName);
  char *colon = strchr(b->info.arch, ':'); // "gfx90a:sramecc+:xnack-"
  if (colon)
    *colon = 0;
  b->info.cc_major = p.major, b->info.cc_minor = p.minor;
  b->info.sm_count = p.multiProcessorCount;
  b->info.max_threads = p.maxThreadsPerBlock;
  b->info.l2_bytes = (size_t)p.l2CacheSize;
  b->info.global_mem_bytes = p.totalGlobalMem;
  b->info.peak_gbps = (double)tgm_mem_gbps(p.memoryClockRate, p.memoryBusWidth);
  b->info.warp = p.warpSize;
  hipDriverGetVersion(&b->info.driver_version);
  return hip_env(b);
}
