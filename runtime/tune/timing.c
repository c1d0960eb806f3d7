// timing.c — tgm-tune: the timing protocol: events, batches, a cold L2, stream or graph mode,
// CUB in the same harness, every timing kept for the CSV.
#include "tuner.h"
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int timing_buffers(ctx *c) {
  for (int i = 0; i < 2 * MAXSAMPLES; i++)
    if (!c->ev[i])
      TRY("creating events", tgm_event_create(c->b, &c->ev[i]));
  c->flush_bytes = c->info->l2_bytes * 2 > (32u << 20) ? c->info->l2_bytes * 2 : (32u << 20);
  TRY("allocating the input pool", tgm_malloc(c->b, c->pool_bytes * (size_t)c->n_in, &c->pool));
  c->in_gap = c->pool_bytes; // input k: pool_bytes after input k - 1
  TRY("allocating the L2 flush buffer", tgm_malloc(c->b, c->flush_bytes, &c->flush));
  TRY("clearing the L2 flush buffer", tgm_memset(c->b, c->flush, 0, c->flush_bytes, c->s));
  int rc = compile_flush(c);
  if (rc)
    return rc;
  TRY("filling the input pool", verify_fill_pool(c)); // random timing data, not zeros
  return 0;
}

static tgm_status enq_variant(ctx *c, const void *arg, tgm_devptr in, unsigned long long n) {
  return launch_enqueue(c, *(const tune_knobs *)arg, in, n, c->out);
}

// One CUB reduction of the inputs at in (c->in_gap apart) into out; temp 0:
// the size query. Returns CUB's cudaError_t.
int timing_cub_call(ctx *c, tgm_devptr in, unsigned long long n, tgm_devptr out, tgm_devptr temp,
                    size_t *bytes) {
  if (c->cub_run) {
    const void *ins[TUNE_MAX_INPUTS];
    for (int k = 0; k < c->n_in; k++)
      ins[k] = in ? (const void *)(uintptr_t)(in + (tgm_devptr)k * c->in_gap) : NULL;
    return c->cub_run(ins, n, (void *)(uintptr_t)out, (void *)(uintptr_t)temp, bytes,
                      (const unsigned long long *)c->param_vals, c->s);
  }
  return c->cub(c->o->type, c->o->op, (const void *)(uintptr_t)in, n, (void *)(uintptr_t)out,
                (void *)(uintptr_t)temp, bytes, c->s);
}

tgm_status timing_enq_cub(ctx *c, const void *arg, tgm_devptr in, unsigned long long n) {
  (void)arg;
  size_t bytes = c->cub_temp_bytes;
  return timing_cub_call(c, in, n, c->out, c->cub_temp, &bytes) == 0 ? TGM_OK : TGM_ERR_DEVICE;
}

// One reduction between two events: its time in milliseconds.
static tgm_status time_once(ctx *c, enq_fn f, const void *arg, unsigned long long n, float *ms) {
  tgm_status s;
  tgm_event_record(c->b, c->ev[0], c->s);
  if ((s = f(c, arg, c->pool, n)) != TGM_OK)
    return s;
  tgm_event_record(c->b, c->ev[1], c->s);
  return tgm_event_elapsed(c->b, c->ev[0], c->ev[1], ms);
}

// Times one reduction of n elements (see README: timing protocol). Returns
// the per-reduction statistics in microseconds; st->n == 0 when skipped
// because one run took longer than `give_up` microseconds.
tgm_status timing_measure(ctx *c, enq_fn f, const void *arg, unsigned long long n, int samples,
                          double give_up, tune_stats *st) {
  memset(st, 0, sizeof *st);
  size_t bytes = (size_t)n * c->elem;
  tgm_status s;
  // warm-up, timed too: a run far slower than the leader is not sampled
  float ms;
  if ((s = time_once(c, f, arg, n, &ms)) != TGM_OK)
    return s;
  if (give_up > 0 && ms * 1000.0 > 4 * give_up) // 4x: the warm-up may load the module
    return TGM_OK;
  // cold L2: flush before each sample, unless the input is at least twice
  // the L2, when one run already streams everything else out
  // (--mode one: before every sample, so that the flush kernel's run hides
  // the call's launch latency, whatever the size)
  int flush = !c->o->hot && (bytes < 2 * c->info->l2_bytes || c->one);
  if (flush && (s = flush_l2(c)) != TGM_OK)
    return s;
  if ((s = time_once(c, f, arg, n, &ms)) != TGM_OK)
    return s;
  double t1 = ms * 1000.0;
  c->measured++;
  if (give_up > 0 && t1 > give_up)
    return TGM_OK;
  if (t1 > 300 && samples > 3) // long runs vary less: half the samples
    samples = samples / 2 > 3 ? samples / 2 : 3;
  // launches per sample: enough to cover ~100 us; each on its own input copy
  // (cold: copies are distinct memory, flushed before the sample)
  int batch = (int)ceil(100.0 / (t1 > 0.5 ? t1 : 0.5));
  if (batch > 128)
    batch = 128;
  if (batch < 1 || c->one) // --mode one: one call per sample, its GPU time
    batch = 1;
  size_t stride = (bytes + 255) / 256 * 256;
  if (!c->o->hot && (size_t)batch * stride > c->pool_bytes)
    batch = (int)(c->pool_bytes / stride) > 0 ? (int)(c->pool_bytes / stride) : 1;
  tgm_graph g = NULL;
  if (c->graph) {
    if ((s = tgm_capture_begin(c->b, c->s)) != TGM_OK)
      return s;
    for (int i = 0; i < batch; i++) {
      s = f(c, arg, c->pool + (c->o->hot ? 0 : (tgm_devptr)i * stride), n);
      if (s != TGM_OK)
        break;
    }
    tgm_graph g2 = NULL;
    tgm_status s2 = tgm_capture_end(c->b, c->s, &g2);
    if (s != TGM_OK || s2 != TGM_OK)
      return s != TGM_OK ? s : s2;
    g = g2;
    if ((s = tgm_graph_launch(c->b, g, c->s)) != TGM_OK) // upload, warm
      return s;
  }
  if (samples > MAXSAMPLES)
    samples = MAXSAMPLES;
  for (int k = 0; k < samples; k++) {
    if (flush && (s = flush_l2(c)) != TGM_OK)
      return s;
    tgm_event_record(c->b, c->ev[2 * k], c->s);
    if (g)
      s = tgm_graph_launch(c->b, g, c->s);
    else
      for (int i = 0; i < batch && s == TGM_OK; i++)
        s = f(c, arg, c->pool + (c->o->hot ? 0 : (tgm_devptr)i * stride), n);
    if (s != TGM_OK)
      return s;
    tgm_event_record(c->b, c->ev[2 * k + 1], c->s);
  }
  double t[MAXSAMPLES];
  for (int k = 0; k < samples; k++) {
    if ((s = tgm_event_elapsed(c->b, c->ev[2 * k], c->ev[2 * k + 1], &ms)) != TGM_OK)
      return s;
    t[k] = ms * 1000.0 / batch;
  }
  if (g)
    tgm_graph_destroy(c->b, g);
  *st = tune_stats_of(t, samples);
  c->measured++;
  return TGM_OK;
}

// Keeps one timing for the CSV beside the report (every timed setting).
void timing_keep(ctx *c, const tune_knobs *k, unsigned long long n, const tune_stats *st) {
  if (!st->n)
    return;
  if (c->n_timings == c->cap_timings) {
    int cap = c->cap_timings ? 2 * c->cap_timings : 1024;
    tune_timing *t = realloc(c->timings, (size_t)cap * sizeof *t);
    if (!t)
      return; // the CSV misses it; the tune goes on
    c->timings = t, c->cap_timings = cap;
  }
  tune_timing *t = &c->timings[c->n_timings++];
  t->n = n, t->stage = c->stage, t->st = *st;
  t->k = k ? *k : (tune_knobs){-1, 0, 0, 0};
}

tgm_status timing_measure_knobs(ctx *c, tune_knobs k, unsigned long long n, int samples,
                                double give_up, tune_stats *st) {
  tgm_status s = launch_prepare(c, k, c->pool, n);
  if (s == TGM_OK)
    s = timing_measure(c, enq_variant, &k, n, samples, give_up, st);
  if (s == TGM_OK)
    timing_keep(c, &k, n, st);
  return s;
}
