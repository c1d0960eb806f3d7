// verify.c — tgm-tune: test data, the reference (the spectrum's scalar codelet run on the GPU)
// and the verification of every knob setting.
#include "tuner.h"
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

void verify_fill_host(ctx *c, void *host, unsigned long long n) {
  tune_fill(&c->m, host, n, &rng_state);
}

tgm_status verify_fill_pool(ctx *c) {
  size_t chunk = 1u << 24, all = c->pool_bytes * (size_t)c->n_in;
  void *host = malloc(chunk);
  if (!host)
    return tgm__fail(TGM_ERR_MEMORY, "out of host memory");
  tgm_status s = TGM_OK;
  verify_fill_host(c, host, chunk / c->elem);
  for (size_t off = 0; off < all && s == TGM_OK; off += chunk) {
    if (off && off % c->pool_bytes == 0)
      verify_fill_host(c, host, chunk / c->elem); // another input: other values
    s = tgm_copy_to_device(c->b, c->pool + off, host, all - off < chunk ? all - off : chunk);
  }
  free(host);
  return s;
}

// The reference of the inputs at in (c->in_gap apart) into want[3] (R each):
// the spectrum's scalar codelet run by one GPU thread (tgm_reference_kernel),
// and the lowest and highest a fold in another order may give.
tgm_status verify_reference(ctx *c, tgm_devptr in, unsigned long long n, void *want) {
  const tune_launch *l = &c->m.reference;
  uint64_t vals[TUNE_MAX_ARGS];
  void *args[TUNE_MAX_ARGS];
  tgm_status s = launch_args(c, l, in, n, c->ref_out, NULL, vals, args);
  if (s == TGM_OK)
    s = tgm_memset(c->b, c->ref_out, 0xA5, 3 * c->res_size, c->s);
  // the manifest's block (up to 1024 parts above 1024 elements), or less
  if (!c->ref_block)
    c->ref_block = l->block_fixed ? l->block_fixed : 1;
  if (s == TGM_OK)
    s = tune_launch_reference(c->b, c->ref_fn, args, &c->ref_block, c->s);
  if (s == TGM_OK)
    s = tgm_stream_sync(c->b, c->s);
  if (s == TGM_OK)
    s = tgm_copy_to_host(c->b, want, c->ref_out, 3 * c->res_size);
  return s;
}

// ------------------------------------------------------------- verification
// Runs every setting in sets[] on random data of each size, for a plain
// fold on sparse data too (tune_fill_sparse), and for a floating-point
// element on NaN elements (tune_fill_nan), twice (the
// second run checks that the counter word was left zero), output poisoned;
// a setting that fails anywhere is dropped and listed. Sizes may carry an
// element offset so that the input is misaligned for the vector loads.
int verify_all(ctx *c, tune_knobs *sets, int *n_sets, const unsigned long long *sizes,
               const int *offsets, int n_sizes) {
  unsigned long long nmax = 0;
  for (int i = 0; i < n_sizes; i++)
    nmax = sizes[i] + (unsigned long long)offsets[i] > nmax
               ? sizes[i] + (unsigned long long)offsets[i]
               : nmax;
  size_t in_bytes = ((size_t)(nmax ? nmax : 1) * c->elem + 255) / 256 * 256;
  tgm_devptr din;
  TRY("allocating the verification input", tgm_malloc(c->b, in_bytes * (size_t)c->n_in, &din));
  c->in_gap = in_bytes; // input k at din + k * in_bytes
  void *host = malloc(in_bytes);
  char *outs = malloc((size_t)2 * SLOTS * c->res_size);
  char *bad = calloc((size_t)*n_sets, 1);
  if (!host || !outs || !bad) {
    fprintf(stderr, "tgm-tune: out of host memory for verification\n");
    return EXIT_TUNE;
  }
  // each size on random data, then (a plain fold) on sparse data, then (a
  // floating-point element) on NaN elements
  for (int round = 0; round < 3 * n_sizes; round++) {
    int si = round / 3, sparse = round % 3 == 1, nan = round % 3 == 2;
    unsigned long long n = sizes[si];
    tgm_devptr in = din + (tgm_devptr)offsets[si] * c->elem;
    if (sparse && !tune_fill_sparse(&c->m, host, n, &rng_state))
      continue;
    if (nan && !tune_fill_nan(&c->m, host, n, 1009, &rng_state))
      continue;
    for (int k = 0; k < c->n_in && n; k++) {
      if (!sparse && !nan)
        verify_fill_host(c, host, n);
      TRY("copying the verification input",
          tgm_copy_to_device(c->b, in + (tgm_devptr)k * c->in_gap, host, (size_t)n * c->elem));
    }
    char want[3 * 16];
    TRY("running the reference", verify_reference(c, in, n, want));
    for (int first = 0; first < *n_sets; first += SLOTS) {
      int last = first + SLOTS < *n_sets ? first + SLOTS : *n_sets;
      TRY("poisoning", tgm_memset(c->b, c->out, 0xA5, (size_t)2 * SLOTS * c->res_size, c->s));
      for (int i = first; i < last; i++) {
        if (bad[i])
          continue;
        size_t need = launch_temp_need(c, sets[i], in, n);
        if (need > c->temp_bytes) {
          fprintf(stderr, "tgm-tune: internal: temp %zu > %zu\n", need, c->temp_bytes);
          return EXIT_TUNE;
        }
        TRY("preparing", launch_prepare(c, sets[i], in, n));
        for (int rep = 0; rep < 2; rep++) {
          tgm_status s = launch_enqueue(c, sets[i], in, n,
                                        c->out + (tgm_devptr)(2 * (i - first) + rep) * c->res_size);
          if (s != TGM_OK)
            return gpu_fail(c->m.v[sets[i].v].id, s);
        }
      }
      tgm_status s = tgm_stream_sync(c->b, c->s);
      if (s != TGM_OK) {
        // a fault kills the context: say which batch, then give up
        fprintf(stderr, "tgm-tune: a kernel failed at n=%llu among %s..%s: %s\n", n,
                c->m.v[sets[first].v].id, c->m.v[sets[last - 1].v].id, tgm_last_error());
        return EXIT_TUNE;
      }
      TRY("reading results",
          tgm_copy_to_host(c->b, outs, c->out, (size_t)2 * (last - first) * c->res_size));
      for (int i = first; i < last; i++) {
        for (int rep = 0; rep < 2 && !bad[i]; rep++) {
          const char *got = outs + (size_t)(2 * (i - first) + rep) * c->res_size;
          if (tune_same(&c->m, got, want))
            continue;
          bad[i] = 1;
          char g[64], w[64], k[64], line[512];
          tune_value_text(&c->m, got, g, sizeof g);
          tune_value_text(&c->m, want, w, sizeof w);
          tune_knobs_str(&sets[i], k, sizeof k);
          snprintf(line, sizeof line, "%s %s: n=%llu%s%s%s%s: got %s, want %s",
                   c->m.v[sets[i].v].id, k, n, offsets[si] ? " (misaligned input)" : "",
                   sparse ? " (sparse data: the identity but for one element)" : "",
                   nan ? " (NaN elements: at 2 and every 1009th from 504)" : "",
                   rep ? " (second run)" : "", g, w);
          c->excluded = realloc(c->excluded, (size_t)(c->n_excluded + 1) * sizeof *c->excluded);
          c->excluded[c->n_excluded++] = strdup(line);
        }
      }
    }
  }
  int kept = 0;
  for (int i = 0; i < *n_sets; i++)
    if (!bad[i])
      sets[kept++] = sets[i];
  *n_sets = kept;
  free(bad);
  free(host);
  free(outs);
  tgm_free(c->b, din);
  return 0;
}
