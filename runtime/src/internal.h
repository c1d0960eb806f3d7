// internal.h — libtgm's one internal header; tgm__ names, a section per file.
#ifndef TGM_INTERNAL_H
#define TGM_INTERNAL_H

#include "tgm/tgm.h"
#include <stdarg.h>
#include <stdint.h>

// ---------------------------------------------------------------- status.c
// Records the detail of a failure for tgm_last_error() and returns s.
tgm_status tgm__fail(tgm_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tgm__clear_error(void);

// ------------------------------------------------------------------ hash.c
typedef struct {
  uint64_t h[2];
} tgm__hash;
void tgm__hash_init(tgm__hash *h);
void tgm__hash_add(tgm__hash *h, const void *data, size_t len);
void tgm__hash_str(tgm__hash *h, const char *s); // s and its terminator
void tgm__hash_hex(const tgm__hash *h, char out[33]);
// The hash of a text, as 32 hex digits: a manifest's "sources_hash" of each
// source it names, written by tgm-gen, compared by its readers.
void tgm__text_hash(const char *text, size_t len, char out[33]);

// ----------------------------------------------------------------- cache.c

// What a backend's compiles depend on besides the job, set when it is
// opened: its compile function passes exactly these options before the
// job's and includes exactly this prelude, and the cache key covers it all.
typedef struct {
  char *compiler; // the compiler's full identity (malloc'd), e.g.
                  // "nvrtc 13.0 /usr/.../libnvrtc.so.13 (N bytes,
                  // mtime S.NS, build-id HEX)"
  char **options; // built-in options (malloc'd), before the job's
  int n_options;
  const char *prelude_name; // a header given to the compiler (static), or NULL
  const char *prelude_text;
} tgm__compile_env;
// Appends a built-in option (printf-style); TGM_ERR_MEMORY when out of memory.
tgm_status tgm__env_option(tgm__compile_env *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void tgm__env_free(tgm__compile_env *e);
// The identity of the loaded library that holds `addr`: its resolved path,
// size, mtime and GNU build id when it has one (malloc'd; NULL: unknown).
char *tgm__library_id(const void *addr);

// The cache directory for `dir` as tgm_compile() takes it (malloc'd; NULL:
// no cache).
char *tgm__cache_dir(const char *dir);
// The key of a compile: a hash of the backend's environment (compiler
// identity, built-in options, prelude), the target and the whole job.
void tgm__cache_key(const tgm_backend *b, const tgm_compile_job *j, char key[33]);
// Reads a cached compile result (lowered names and image) into r: 1 when
// the entry is there, whole and made for this key; 0 (a miss) otherwise.
int tgm__cache_read(const char *dir, const char *key, int n_names, tgm_compile_result *r);
// Stores r under key, replacing any entry atomically; a failure is no error.
void tgm__cache_write(const char *dir, const char *key, const tgm_compile_result *r);
// Removes the temp files writers left when they were killed.
void tgm__cache_sweep(const char *dir);
// Writes bytes to path atomically (temp file with a unique name in the same
// folder, fsync, rename).
tgm_status tgm__write_atomic(const char *path, const void *data, size_t len);
// Reads a whole regular file (malloc'd, NUL-terminated); NULL on failure
// (errno EINVAL: not a regular file, a FIFO, a device or a folder).
char *tgm__read_file(const char *path, size_t *len);

// ---------------------------------------------------------------- backends
typedef struct {
  // compile one job into r (thread-safe; no device needed)
  void (*compile)(tgm_backend *b, const tgm_compile_job *job, tgm_compile_result *r);
  tgm_status (*module_load)(tgm_backend *b, const tgm_compile_result *r, void **mod,
                            tgm_function *fns);
  void (*module_unload)(tgm_backend *b, void *mod);
  tgm_status (*malloc_)(tgm_backend *b, size_t bytes, tgm_devptr *out);
  tgm_status (*free_)(tgm_backend *b, tgm_devptr p);
  tgm_status (*to_device)(tgm_backend *b, tgm_devptr dst, const void *src, size_t bytes);
  tgm_status (*to_host)(tgm_backend *b, void *dst, tgm_devptr src, size_t bytes);
  tgm_status (*memset_)(tgm_backend *b, tgm_devptr dst, unsigned char byte, size_t bytes,
                        tgm_stream s);
  tgm_status (*stream_create)(tgm_backend *b, tgm_stream *out);
  tgm_status (*stream_destroy)(tgm_backend *b, tgm_stream s);
  tgm_status (*stream_sync)(tgm_backend *b, tgm_stream s);
  tgm_status (*launch)(tgm_backend *b, tgm_function f, unsigned grid_x, unsigned grid_y,
                       unsigned block, void **args, tgm_stream s);
  tgm_status (*event_create)(tgm_backend *b, tgm_event *out);
  tgm_status (*event_destroy)(tgm_backend *b, tgm_event e);
  tgm_status (*event_record)(tgm_backend *b, tgm_event e, tgm_stream s);
  tgm_status (*event_elapsed)(tgm_backend *b, tgm_event a, tgm_event z, float *ms);
  tgm_status (*capture_begin)(tgm_backend *b, tgm_stream s);
  tgm_status (*capture_end)(tgm_backend *b, tgm_stream s, tgm_graph *out);
  tgm_status (*graph_launch)(tgm_backend *b, tgm_graph g, tgm_stream s);
  tgm_status (*graph_destroy)(tgm_backend *b, tgm_graph g);
  void (*close)(tgm_backend *b);
  tgm_status (*max_threads)(tgm_backend *b, tgm_function f, unsigned *out);
} tgm__ops;

struct tgm_backend {
  const tgm__ops *ops;
  tgm_device_info info;
  int offline; // compiler only
  tgm__compile_env env;
  void *impl; // the backend's own state
};

struct tgm_module {
  tgm_backend *b;
  void *mod;
  int n;
  tgm_function *fns;
};

// cuda.c / hip.c
tgm_status tgm__cuda_open(int device, const char *offline_arch, tgm_backend *b);
tgm_status tgm__hip_open(int device, const char *offline_arch, tgm_backend *b);

#endif
