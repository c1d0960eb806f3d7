// search.c — the knob space of a variant and the fixed tie-break order.
#include "tune.h"
#include <stdio.h>
#include <stdlib.h>

int tune_settings(const tune_variant *v, int vi, tune_knobs *out, int cap_out) {
  int n = 0;
  int nc = v->n_caps ? v->n_caps : 1;
  for (int b = 0; b < v->n_blocks; b++)
    for (int i = 0; i < v->n_items; i++)
      for (int c = 0; c < nc; c++) {
        if (n == cap_out)
          return n;
        out[n++] = (tune_knobs){vi, v->blocks[b], v->items[i], v->n_caps ? v->caps[c] : 0};
      }
  return n;
}

unsigned tune_nearest(const unsigned *a, int n, unsigned want) {
  unsigned best = a[0];
  for (int i = 1; i < n; i++) {
    unsigned d = a[i] > want ? a[i] - want : want - a[i];
    unsigned db = best > want ? best - want : want - best;
    if (d < db)
      best = a[i];
  }
  return best;
}

tune_knobs tune_default(const tune_variant *v, int vi) {
  return (tune_knobs){vi, tune_nearest(v->blocks, v->n_blocks, 256),
                      tune_nearest(v->items, v->n_items, 4),
                      v->n_caps ? tune_nearest(v->caps, v->n_caps, 4) : 0};
}

static int index_of(const unsigned *a, int n, unsigned x) {
  for (int i = 0; i < n; i++)
    if (a[i] == x)
      return i;
  return -1;
}

int tune_neighbours(const tune_variant *v, tune_knobs k, tune_knobs out[6]) {
  int n = 0;
  int ib = index_of(v->blocks, v->n_blocks, k.block);
  int ii = index_of(v->items, v->n_items, k.items);
  int ic = v->n_caps ? index_of(v->caps, v->n_caps, k.cap) : -1;
  for (int d = -1; d <= 1; d += 2) {
    if (ib >= 0 && ib + d >= 0 && ib + d < v->n_blocks) {
      out[n] = k;
      out[n++].block = v->blocks[ib + d];
    }
    if (ii >= 0 && ii + d >= 0 && ii + d < v->n_items) {
      out[n] = k;
      out[n++].items = v->items[ii + d];
    }
    if (ic >= 0 && ic + d >= 0 && ic + d < v->n_caps) {
      out[n] = k;
      out[n++].cap = v->caps[ic + d];
    }
  }
  return n;
}

int tune_tie_order(const tune_manifest *m, tune_knobs a, tune_knobs b) {
  const tune_variant *va = &m->v[a.v], *vb = &m->v[b.v];
  if (va->n_pos != vb->n_pos)
    return va->n_pos < vb->n_pos ? -1 : 1;
  if (va->deterministic != vb->deterministic)
    return va->deterministic ? -1 : 1;
  if (a.v != b.v)
    return a.v < b.v ? -1 : 1;
  if (a.block != b.block)
    return a.block < b.block ? -1 : 1;
  if (a.items != b.items)
    return a.items < b.items ? -1 : 1;
  if (a.cap != b.cap)
    return a.cap < b.cap ? -1 : 1;
  return 0;
}

int tune_prefer(const tune_manifest *m, tune_knobs a, tune_knobs b, double sa, double sb,
                const tune_knobs *prev, const char **why) {
  const tune_variant *va = &m->v[a.v], *vb = &m->v[b.v];
  if (va->deterministic != vb->deterministic) {
    *why = "deterministic";
    return va->deterministic ? -1 : 1;
  }
  if (va->n_pos != vb->n_pos) {
    *why = "fewer launches";
    return va->n_pos < vb->n_pos ? -1 : 1;
  }
  if (va->counter != vb->counter) {
    *why = "no memset";
    return va->counter ? 1 : -1;
  }
  if (prev && tune_knobs_equal(*prev, a) != tune_knobs_equal(*prev, b)) {
    *why = "the neighbour's choice";
    return tune_knobs_equal(*prev, a) ? -1 : 1;
  }
  if (sa != sb) {
    *why = "faster median";
    return sa < sb ? -1 : 1;
  }
  *why = "fixed order";
  int o = tune_tie_order(m, a, b);
  return o ? o : -1;
}

int tune_knobs_equal(tune_knobs a, tune_knobs b) {
  return a.v == b.v && a.block == b.block && a.items == b.items && a.cap == b.cap;
}

void tune_knobs_str(const tune_knobs *k, char *buf, size_t len) {
  if (k->cap)
    snprintf(buf, len, "block=%u items=%u cap=%u/SM", k->block, k->items, k->cap);
  else
    snprintf(buf, len, "block=%u items=%u", k->block, k->items);
}
