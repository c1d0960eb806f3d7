// tgm.h — libtgm, the run-time half of tgm: compile generated kernels at run
// time (NVRTC or hiprtc), load them, launch them, and time them.
//
// Every function returns a tgm_status; on failure tgm_last_error() holds a
// one-line explanation (per thread). Nothing here calls exit() or prints.
// The CUDA backend loads libcuda and libnvrtc with dlopen, so a program
// linked with libtgm starts on a machine without a GPU and learns so from
// tgm_backend_open() (TGM_ERR_NO_DRIVER / TGM_ERR_NO_DEVICE).
#ifndef TGM_TGM_H
#define TGM_TGM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// X(name, value, message)
#define TGM_STATUS_LIST(X)                                         \
  X(TGM_OK, 0, "success")                                          \
  X(TGM_ERR_INVALID, 1, "invalid argument")                        \
  X(TGM_ERR_NO_DRIVER, 2, "no GPU driver")                         \
  X(TGM_ERR_NO_DEVICE, 3, "no GPU device")                         \
  X(TGM_ERR_NO_COMPILER, 4, "no run-time compiler (NVRTC/hiprtc)") \
  X(TGM_ERR_COMPILE, 5, "run-time compilation failed")             \
  X(TGM_ERR_DEVICE, 6, "GPU driver call failed")                   \
  X(TGM_ERR_MEMORY, 7, "out of memory")                            \
  X(TGM_ERR_IO, 8, "file input/output failed")                     \
  X(TGM_ERR_MANIFEST, 9, "bad manifest")                           \
  X(TGM_ERR_DB_CORRUPT, 10, "corrupt tuning database")             \
  X(TGM_ERR_DB_FOREIGN, 11, "not a tgm tuning database")           \
  X(TGM_ERR_UNSUPPORTED, 12, "not supported by this backend")      \
  X(TGM_ERR_NOT_FOUND, 13, "not found")

typedef enum {
#define TGM_X(name, value, msg) name = value,
  TGM_STATUS_LIST(TGM_X)
#undef TGM_X
} tgm_status;

// The fixed message of a status ("success", "no GPU driver", ...).
const char *tgm_strerror(tgm_status s);
// The detail of the last failure on this thread ("" when none).
const char *tgm_last_error(void);

// ------------------------------------------------------------------ backends
typedef enum { TGM_BACKEND_CUDA, TGM_BACKEND_HIP } tgm_backend_kind;

typedef struct tgm_backend tgm_backend; // a device (or only a compiler)
typedef struct tgm_module tgm_module;   // loaded code
typedef void *tgm_function;             // CUfunction / hipFunction_t
typedef void *tgm_stream;               // CUstream / hipStream_t
typedef void *tgm_event;
typedef void *tgm_graph; // an instantiated graph
typedef uint64_t tgm_devptr;

typedef struct {
  char name[256]; // "NVIDIA H100 80GB HBM3"
  char arch[32];  // "sm_90", "gfx90a"
  int cc_major, cc_minor;
  int sm_count;
  size_t l2_bytes;
  size_t global_mem_bytes;
  int driver_version; // 13000
  char compiler[64];  // "nvrtc 13.0", "hiprtc 5.2"
  int warp;           // 32 or 64
  int max_threads;    // threads a block, at most
  double peak_gbps;   // memory bandwidth in whole GB/s, 2 x memory clock x bus width
                      // (templates/launch_rule.tpl's tgm_mem_gbps); 0: unknown
} tgm_device_info;

// Opens device `device` of the backend. When `offline_arch` is not NULL no
// device is opened, only the run-time compiler, for that target ("sm_90",
// "gfx90a"): compile works, nothing else does.
tgm_status tgm_backend_open(tgm_backend_kind kind, int device, const char *offline_arch,
                            tgm_backend **out);
void tgm_backend_close(tgm_backend *b);
const tgm_device_info *tgm_backend_info(const tgm_backend *b);

// ---------------------------------------------------------------- compiling
// One translation unit and the kernels (name expressions, e.g.
// "tgm_sum_i32::sum_DT_V_ST<256>") wanted from it.
typedef struct {
  const char *source;
  const char *source_name;  // for diagnostics, e.g. "sum_i32.cu"
  const char *const *names; // name expressions
  int n_names;
  const char *const *options; // extra options; the backend adds the target
  int n_options;
} tgm_compile_job;

typedef struct {
  tgm_status status;
  char *log;   // the compiler's log (malloc'd, may be NULL)
  void *image; // cubin / code object (malloc'd)
  size_t image_size;
  char **lowered; // lowered (mangled) name per name expression
  int n_lowered;
  int from_cache;
  double seconds; // wall time of the compile (0 from the cache)
} tgm_compile_result;

// Compiles `n` jobs with up to `threads` threads, each result in results[i].
// Images are cached under cache_dir (NULL: $TGM_CACHE_DIR, else
// $XDG_CACHE_HOME/tgm, else ~/.cache/tgm; "" disables the cache), keyed by a
// hash of every input of the compile (source, names, options, the backend's
// own options and prelude, the compiler's full identity, the target); an
// entry is served only when its length and checksum hold. Returns
// TGM_OK when every job compiled, else TGM_ERR_COMPILE (see each status).
tgm_status tgm_compile(tgm_backend *b, const tgm_compile_job *jobs, int n, int threads,
                       const char *cache_dir, tgm_compile_result *results);
void tgm_compile_result_free(tgm_compile_result *r);

tgm_status tgm_module_load(tgm_backend *b, const tgm_compile_result *r, tgm_module **out);
// The function of name expression names[i] of the job that made the module.
tgm_status tgm_module_function(tgm_module *m, int i, tgm_function *out);
void tgm_module_unload(tgm_module *m);

// ------------------------------------------------------------------ running
tgm_status tgm_malloc(tgm_backend *b, size_t bytes, tgm_devptr *out);
tgm_status tgm_free(tgm_backend *b, tgm_devptr p);
tgm_status tgm_copy_to_device(tgm_backend *b, tgm_devptr dst, const void *src, size_t bytes);
tgm_status tgm_copy_to_host(tgm_backend *b, void *dst, tgm_devptr src, size_t bytes);
tgm_status tgm_memset(tgm_backend *b, tgm_devptr dst, unsigned char byte, size_t bytes,
                      tgm_stream s);
tgm_status tgm_stream_create(tgm_backend *b, tgm_stream *out);
tgm_status tgm_stream_destroy(tgm_backend *b, tgm_stream s);
tgm_status tgm_stream_sync(tgm_backend *b, tgm_stream s);
tgm_status tgm_launch(tgm_backend *b, tgm_function f, unsigned grid, unsigned block, void **args,
                      tgm_stream s);
// A grid of grid_x x grid_y blocks (row and column kernels: blockIdx.y the
// row, or the part down the rows).
tgm_status tgm_launch_2d(tgm_backend *b, tgm_function f, unsigned grid_x, unsigned grid_y,
                         unsigned block, void **args, tgm_stream s);
// The most threads a block of f can have (its registers and shared memory).
tgm_status tgm_function_max_threads(tgm_backend *b, tgm_function f, unsigned *out);
tgm_status tgm_event_create(tgm_backend *b, tgm_event *out);
tgm_status tgm_event_destroy(tgm_backend *b, tgm_event e);
tgm_status tgm_event_record(tgm_backend *b, tgm_event e, tgm_stream s);
// Milliseconds between two recorded events (waits for `end`).
tgm_status tgm_event_elapsed(tgm_backend *b, tgm_event start, tgm_event end, float *ms);
// Stream capture: everything launched on `s` between begin and end becomes
// one instantiated graph.
tgm_status tgm_capture_begin(tgm_backend *b, tgm_stream s);
tgm_status tgm_capture_end(tgm_backend *b, tgm_stream s, tgm_graph *out);
tgm_status tgm_graph_launch(tgm_backend *b, tgm_graph g, tgm_stream s);
tgm_status tgm_graph_destroy(tgm_backend *b, tgm_graph g);

#ifdef __cplusplus
}
#endif
#endif
