// core.c — the public API over the backend table: open, the parallel
// compile with its cache, modules, and thin wrappers for the rest.
#include "internal.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

tgm_status tgm_backend_open(tgm_backend_kind kind, int device, const char *offline_arch,
                            tgm_backend **out) {
  tgm__clear_error();
  if (!out)
    return tgm__fail(TGM_ERR_INVALID, "tgm_backend_open: out is NULL");
  *out = NULL;
  tgm_backend *b = calloc(1, sizeof *b);
  if (!b)
    return tgm__fail(TGM_ERR_MEMORY, "out of memory");
  tgm_status s;
  switch (kind) {
  case TGM_BACKEND_CUDA: s = tgm__cuda_open(device, offline_arch, b); break;
  case TGM_BACKEND_HIP: s = tgm__hip_open(device, offline_arch, b); break;
  default: s = tgm__fail(TGM_ERR_INVALID, "unknown backend %d", (int)kind);
  }
  if (s != TGM_OK) {
    tgm__env_free(&b->env);
    free(b);
    return s;
  }
  *out = b;
  return TGM_OK;
}

void tgm_backend_close(tgm_backend *b) {
  if (!b)
    return;
  b->ops->close(b);
  tgm__env_free(&b->env);
  free(b);
}

const tgm_device_info *tgm_backend_info(const tgm_backend *b) { return &b->info; }

// ------------------------------------------------------------------ compile
typedef struct {
  tgm_backend *b;
  const tgm_compile_job *jobs;
  tgm_compile_result *results;
  int n;
  atomic_int next;
  const char *cache;
} pool;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *worker(void *arg) {
  pool *p = arg;
  for (;;) {
    int i = atomic_fetch_add(&p->next, 1);
    if (i >= p->n)
      break;
    const tgm_compile_job *j = &p->jobs[i];
    tgm_compile_result *r = &p->results[i];
    memset(r, 0, sizeof *r);
    char key[33];
    tgm__cache_key(p->b, j, key);
    if (p->cache && tgm__cache_read(p->cache, key, j->n_names, r))
      continue;
    double t0 = now();
    p->b->ops->compile(p->b, j, r);
    r->seconds = now() - t0;
    if (r->status == TGM_OK && p->cache)
      tgm__cache_write(p->cache, key, r);
  }
  return NULL;
}

tgm_status tgm_compile(tgm_backend *b, const tgm_compile_job *jobs, int n, int threads,
                       const char *cache_dir, tgm_compile_result *results) {
  if (!b || (n > 0 && (!jobs || !results)))
    return tgm__fail(TGM_ERR_INVALID, "tgm_compile: bad arguments");
  pool p = {.b = b, .jobs = jobs, .results = results, .n = n};
  atomic_init(&p.next, 0);
  char *cache = tgm__cache_dir(cache_dir);
  p.cache = cache;
  if (cache)
    tgm__cache_sweep(cache);
  if (threads < 1)
    threads = 1;
  if (threads > n)
    threads = n;
  pthread_t tids[64];
  if (threads > 64)
    threads = 64;
  int started = 0;
  for (int t = 1; t < threads; t++)
    if (pthread_create(&tids[started], NULL, worker, &p) == 0)
      started++;
  worker(&p);
  for (int t = 0; t < started; t++)
    pthread_join(tids[t], NULL);
  free(cache);
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (results[i].status != TGM_OK)
      bad++;
  if (bad)
    return tgm__fail(TGM_ERR_COMPILE, "%d of %d compiles failed", bad, n);
  return TGM_OK;
}

void tgm_compile_result_free(tgm_compile_result *r) {
  if (!r)
    return;
  free(r->log);
  free(r->image);
  for (int i = 0; i < r->n_lowered; i++)
    free(r->lowered[i]);
  free(r->lowered);
  memset(r, 0, sizeof *r);
}

// ------------------------------------------------------------------ modules
tgm_status tgm_module_load(tgm_backend *b, const tgm_compile_result *r, tgm_module **out) {
  if (b->offline)
    return tgm__fail(TGM_ERR_UNSUPPORTED, "no device: the backend was opened to compile only");
  if (!r || r->status != TGM_OK || !r->image)
    return tgm__fail(TGM_ERR_INVALID, "tgm_module_load: no image");
  tgm_module *m = calloc(1, sizeof *m);
  m->b = b;
  m->n = r->n_lowered;
  m->fns = calloc((size_t)(m->n ? m->n : 1), sizeof *m->fns);
  tgm_status s = b->ops->module_load(b, r, &m->mod, m->fns);
  if (s != TGM_OK) {
    free(m->fns);
    free(m);
    return s;
  }
  *out = m;
  return TGM_OK;
}

tgm_status tgm_module_function(tgm_module *m, int i, tgm_function *out) {
  if (!m || i < 0 || i >= m->n)
    return tgm__fail(TGM_ERR_NOT_FOUND, "no function %d in the module", i);
  *out = m->fns[i];
  return TGM_OK;
}

void tgm_module_unload(tgm_module *m) {
  if (!m)
    return;
  m->b->ops->module_unload(m->b, m->mod);
  free(m->fns);
  free(m);
}

// ------------------------------------------------------------------ running
#define ONLINE(b)                                                               \
  do {                                                                          \
    if (!(b) || (b)->offline)                                                   \
      return tgm__fail(TGM_ERR_UNSUPPORTED, "no device: compile-only backend"); \
  } while (0)

tgm_status tgm_malloc(tgm_backend *b, size_t bytes, tgm_devptr *out) {
  ONLINE(b);
  return b->ops->malloc_(b, bytes, out);
}
tgm_status tgm_free(tgm_backend *b, tgm_devptr p) {
  ONLINE(b);
  return p ? b->ops->free_(b, p) : TGM_OK;
}
tgm_status tgm_copy_to_device(tgm_backend *b, tgm_devptr dst, const void *src, size_t bytes) {
  ONLINE(b);
  return b->ops->to_device(b, dst, src, bytes);
}
tgm_status tgm_copy_to_host(tgm_backend *b, void *dst, tgm_devptr src, size_t bytes) {
  ONLINE(b);
  return b->ops->to_host(b, dst, src, bytes);
}
tgm_status tgm_memset(tgm_backend *b, tgm_devptr dst, unsigned char byte, size_t bytes,
                      tgm_stream s) {
  ONLINE(b);
  return b->ops->memset_(b, dst, byte, bytes, s);
}
tgm_status tgm_stream_create(tgm_backend *b, tgm_stream *out) {
  ONLINE(b);
  return b->ops->stream_create(b, out);
}
tgm_status tgm_stream_destroy(tgm_backend *b, tgm_stream s) {
  ONLINE(b);
  return b->ops->stream_destroy(b, s);
}
tgm_status tgm_stream_sync(tgm_backend *b, tgm_stream s) {
  ONLINE(b);
  return b->ops->stream_sync(b, s);
}
tgm_status tgm_launch(tgm_backend *b, tgm_function f, unsigned grid, unsigned block, void **args,
                      tgm_stream s) {
  ONLINE(b);
  return b->ops->launch(b, f, grid, 1, block, args, s);
}
tgm_status tgm_launch_2d(tgm_backend *b, tgm_function f, unsigned grid_x, unsigned grid_y,
                         unsigned block, void **args, tgm_stream s) {
  ONLINE(b);
  return b->ops->launch(b, f, grid_x, grid_y, block, args, s);
}
tgm_status tgm_function_max_threads(tgm_backend *b, tgm_function f, unsigned *out) {
  ONLINE(b);
  return b->ops->max_threads(b, f, out);
}
tgm_status tgm_event_create(tgm_backend *b, tgm_event *out) {
  ONLINE(b);
  return b->ops->event_create(b, out);
}
tgm_status tgm_event_destroy(tgm_backend *b, tgm_event e) {
  ONLINE(b);
  return b->ops->event_destroy(b, e);
}
tgm_status tgm_event_record(tgm_backend *b, tgm_event e, tgm_stream s) {
  ONLINE(b);
  return b->ops->event_record(b, e, s);
}
tgm_status tgm_event_elapsed(tgm_backend *b, tgm_event start, tgm_event end, float *ms) {
  ONLINE(b);
  return b->ops->event_elapsed(b, start, end, ms);
}
tgm_status tgm_capture_begin(tgm_backend *b, tgm_stream s) {
  ONLINE(b);
  return b->ops->capture_begin(b, s);
}
tgm_status tgm_capture_end(tgm_backend *b, tgm_stream s, tgm_graph *out) {
  ONLINE(b);
  return b->ops->capture_end(b, s, out);
}
tgm_status tgm_graph_launch(tgm_backend *b, tgm_graph g, tgm_stream s) {
  ONLINE(b);
  return b->ops->graph_launch(b, g, s);
}
tgm_status tgm_graph_destroy(tgm_backend *b, tgm_graph g) {
  ONLINE(b);
  return b->ops->graph_destroy(b, g);
}
