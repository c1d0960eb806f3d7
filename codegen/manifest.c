/* manifest.c -- the manifest of a spectrum and type (JSON, with jansson)
 * and the --list lines. Both say, for every variant: its id, kernels and
 * launches, the launch-shape rule, tunables and their candidate values,
 * temp storage, passes, determinism and the minimum architecture. */
#include "tgm.h"
#include "../runtime/src/internal.h" /* tgm__text_hash: libtgm's hash, which its readers compare */

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* Candidate items per thread: a tiled grid sizes itself by them; a strided
 * one stays below grid_cap blocks by them, and its SV threads load that many
 * vectors at once (tgm_vectors in file.tpl), one block's too. */
static json_t *items_for(const Plan *p) {
  static const unsigned tiled[] = {1, 2, 4, 8, 16}, strided[] = {1, 4, 16}, one[] = {1};
  const unsigned *v = one;
  size_t n = 1;
  if (p->g == G_DT || p->g == G_DTA || p->g == G_DTL)
    v = tiled, n = COUNT_OF(tiled);
  else if (p->g != G_B1 || p->t == T_SV) /* B1.SV: vectors in flight per thread */
    v = strided, n = COUNT_OF(strided);
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++)
    json_array_append_new(a, json_integer(v[i]));
  return a;
}

/* "1,4,16": the items of items_for, as --list prints them */
static const char *items_text(Arena *a, const Plan *p) {
  json_t *items = items_for(p), *x;
  const char *s = "";
  size_t i;
  json_array_foreach(items, i, x)
      s = arena_printf(a, "%s%s%lld", s, i ? "," : "", json_integer_value(x));
  json_decref(items);
  return s;
}

static json_t *uint_array(const unsigned *v, size_t n) {
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++)
    json_array_append_new(a, json_integer(v[i]));
  return a;
}

json_t *manifest_tunables(const Plan *p) {
  json_t *tun = json_object();
  json_object_set_new(tun, "block", uint_array(block_sizes, COUNT_OF(block_sizes)));
  json_object_set_new(tun, "items", items_for(p));
  if (p->g == G_DS || p->g == G_DSA || p->g == G_DSL) {
    static const unsigned per_sm[] = {1, 2, 4, 8, 16, 32};
    json_object_set_new(tun, "grid_cap_per_sm", uint_array(per_sm, COUNT_OF(per_sm)));
  }
  if (p->g == G_RW) { /* threads a row (launch_rows.tpl's tgm_group_ok) */
    static const unsigned group[] = {1, 2, 4, 8, 16, 32};
    json_object_set_new(tun, "per_row", uint_array(group, COUNT_OF(group)));
  }
  if (grid_cols(p->g)) { /* columns a block; blocks down the rows */
    static const unsigned width[] = {1, 4, 16, 32, 64, 128, 256},
                          parts[] = {1, 2, 4, 8, 16, 32, 64};
    json_object_set_new(tun, "width", uint_array(width, COUNT_OF(width)));
    json_object_set_new(tun, "parts", uint_array(parts, COUNT_OF(parts)));
    json_object_del(tun, "items");
  }
  if (p->g == G_RL) { /* blocks a row */
    static const unsigned parts[] = {2, 4, 8, 16, 32, 64};
    json_object_set_new(tun, "per_row", uint_array(parts, COUNT_OF(parts)));
  }
  if (p->g == G_RA) { /* blocks a row, combined with atomics: one too */
    static const unsigned parts[] = {1, 2, 4, 8, 16, 32, 64};
    json_object_set_new(tun, "per_row", uint_array(parts, COUNT_OF(parts)));
  }
  return tun;
}

/* templ: the template arguments the name expression takes (kernel.c's
 * kernel_template_args: "<BLOCK>"; RW's GROUP is its per_row, ITEMS a
 * launch's items as tgm_items_path gives them), or "" */
static json_t *launch(const char *ns, const char *kernel, const char *templ, const char *grid,
                      const char *block, const char *const args[], size_t nargs) {
  json_t *l = json_object();
  json_object_set_new(l, "kernel", json_string(kernel));
  char name[256];
  snprintf(name, sizeof name, "%s::%s%s", ns, kernel, templ);
  json_object_set_new(l, "name_expr", json_string(name));
  json_object_set_new(l, "grid", json_string(grid));
  json_object_set_new(l, "block", json_string(block));
  json_t *a = json_array();
  for (size_t i = 0; i < nargs; i++)
    json_array_append_new(a, json_string(args[i]));
  json_object_set_new(l, "args", a);
  return l;
}

static const Plan *find_plan(const Composition *c, const char *id) {
  for (int i = 0; c && i < c->plans.len; i++) {
    const Plan *p = c->plans.items[i];
    if (strcmp(p->id, id) == 0)
      return p;
  }
  return NULL;
}

/* The dialects in which a plan of that id exists, in the table's order. */
static json_t *dialects_of(Composition *const by[DIALECT_COUNT], const char *id) {
  json_t *dl = json_array();
  for (int d = 0; d < DIALECT_COUNT; d++)
    if (find_plan(by[d], id))
      json_array_append_new(dl, json_string(by[d]->target->name));
  return dl;
}

/* The first dialect that has a plan of p's id: p is listed there only. */
static bool listed_before(Composition *const by[DIALECT_COUNT], int d, const Plan *p) {
  for (int o = 0; o < d; o++)
    if (find_plan(by[o], p->id))
      return true;
  return false;
}

static json_t *variant(Arena *a, const Plan *p, const char *ns,
                       Composition *const by[DIALECT_COUNT]) {
  json_t *v = json_object();
  json_object_set_new(v, "id", json_string(p->id));
  json_object_set_new(v, "kernel", json_string(p->cname));
  json_object_set_new(v, "grid", json_string(grid_code(p->g)));
  json_object_set_new(v, "block", json_string(grid_cols(p->g) ? "none" : block_code(p->b)));
  json_object_set_new(v, "thread", json_string(thread_code(p->t)));
  json_t *dl = dialects_of(by, p->id);
  json_object_set_new(v, "dialects", dl);
  json_object_set_new(v, "launches", json_integer(p->launches));
  json_object_set_new(v, "passes", json_integer(p->pass2 ? 2 : 1));
  json_object_set_new(v, "needs_zeroed_output", json_false());
  json_object_set_new(v, "initialises_output", json_boolean(p->needs_init));
  json_object_set_new(v, "deterministic", json_boolean(p->deterministic));
  json_object_set_new(v, "min_arch", json_string(p->min_arch));
  json_object_set_new(v, "launch_shape", json_string(p->grid_rule));
  if (p->g == G_RW) /* where ld == n < the vector, a thread a vector of rows (rows_group's grid) */
    json_object_set_new(v, "packed_rows", json_boolean(p->packed_rows));

  json_object_set_new(v, "tunables", manifest_tunables(p));

  json_t *temp = json_object();
  json_object_set_new(temp, "partials", json_boolean(p->partials));
  json_object_set_new(temp, "counter", json_boolean(p->counter));
  json_object_set_new(temp, "bytes",
                      json_string(p->g == G_RL   ? "4096 * 4 + m * per_row * sizeof(A): counters, "
                                                   "then partials"
                                  : p->g == G_CT ? "parts > 1: 4096 * 4 + parts * n * sizeof(A): "
                                                   "counters, then partials"
                                  : p->g == G_CA || p->g == G_RA ? "0"
                                  : !p->partials                 ? "0"
                                  : p->counter                   ? "align16(grid * sizeof(A)) + 16"
                                                                 : "align16(grid * sizeof(A))"));
  json_object_set_new(temp, "counter_starts_zero", json_boolean(p->counter));
  json_object_set_new(v, "temp", temp);

  /* tgm_init(out, params...) */
  const PtrVec *kr = &p->kernel->roles;
  const char **iargs = arena_alloc(a, sizeof *iargs * (size_t)(1 + kr->len));
  size_t ni = 0;
  iargs[ni++] = "out";
  for (int i = 0; i < kr->len; i++)
    if (strncmp(kr->items[i], "param:", 6) == 0)
      iargs[ni++] = kr->items[i];
  json_t *ls = json_array();
  if (p->g == G_CA) { /* tgm_init_out(out, n): out = the identity; then the kernel */
    static const char *const cargs[] = {"out", "n"};
    json_array_append_new(ls, launch(ns, "tgm_init_out", "", "cols_init", "256", cargs, 2));
  }
  if (p->g == G_RA) { /* tgm_init_out(out, m): the same for the rows */
    static const char *const rargs[] = {"out", "m"};
    json_array_append_new(ls, launch(ns, "tgm_init_out", "", "rows_init", "256", rargs, 2));
  }
  if (p->g == G_RW || p->g == G_RB || grid_row_parts(p->g) || grid_cols(p->g)) { /* its kernel */
    json_array_append_new(ls,
                          launch(ns, p->cname, kernel_template_args(p->kernel), p->grid_rule,
                                 "BLOCK", (const char **)p->kernel->roles.items, (size_t)kr->len));
    json_object_set_new(v, "launches_m_positive", ls);
    return v;
  }
  if (p->needs_init)
    json_array_append_new(ls, launch(ns, "tgm_init", "", "one", "1", iargs, ni));
  json_array_append_new(ls,
                        launch(ns, p->cname, kernel_template_args(p->kernel), p->grid_rule, "BLOCK",
                               (const char **)p->kernel->roles.items, (size_t)kr->len));
  if (p->pass2)
    json_array_append_new(ls, launch(ns, arena_printf(a, "%s_pass2", p->cname), "<BLOCK>", "one",
                                     "BLOCK", (const char **)p->pass2->roles.items,
                                     (size_t)p->pass2->roles.len));
  json_object_set_new(v, "launches_n_positive", ls);
  json_t *zero = json_array();
  json_array_append_new(zero, launch(ns, "tgm_init", "", "one", "1", iargs, ni));
  json_object_set_new(v, "launches_n_zero", zero);
  return v;
}

static unsigned long long fnv1a(const char *s) {
  unsigned long long h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

const char *source_hash(Arena *a, const char *text) {
  return arena_printf(a, "%016llx", fnv1a(text));
}

void gen_manifest(Buf *out, Arena *a, Composition *const by[DIALECT_COUNT], const char *source,
                  const char *source_text, const Buf *const texts[DIALECT_COUNT + 1]) {
  const Composition *c = by[DIALECT_CUDA];
  const char *base = gen_base_name(a, c);
  const char *ns = arena_printf(a, "tgm_kernels_%s", base);
  const ElemInfo *ei = elem_info(c->elem);
  json_t *m = json_object();
  json_object_set_new(m, "tgm_manifest", json_integer(1));
  json_object_set_new(m, "generator", json_string("tgm-gen " TGM_VERSION));
  json_object_set_new(m, "note", json_string("generated -- do not edit"));
  json_object_set_new(m, "source", json_string(source));
  json_object_set_new(m, "source_hash", json_string(source_hash(a, source_text)));
  json_object_set_new(m, "spectrum", json_string(c->name));
  json_object_set_new(m, "type", json_string(ei->name));
  json_object_set_new(m, "ctype", json_string(ei->ctype));
  json_object_set_new(m, "op", json_string(combiner_of(c->op)->name));
  json_object_set_new(m, "namespace", json_string(ns));
  /* a row manifest (--rows) says so; without "shape", the 1-D problem */
  if (c->rows || c->cols)
    json_object_set_new(m, "shape", json_string(c->rows ? "rows" : "cols"));
  json_t *files = json_object();
  for (int d = 0; d < DIALECT_COUNT; d++)
    json_object_set_new(files, by[d]->target->name,
                        json_string(arena_printf(a, "%s.%s", base, by[d]->target->ext)));
  /* the CUB baseline (templates/cub.tpl): int tgm_cub_run(...), built with nvcc */
  if (!c->rows && !c->cols)
    json_object_set_new(files, "cub", json_string(arena_printf(a, "%s.cub.cu", base)));
  json_object_set_new(m, "sources", files);
  /* each file's hash (libtgm's): its readers refuse a file that is not the
   * one written with this manifest (edited, or of another run) */
  json_t *hashes = json_object();
  for (int d = 0; d <= DIALECT_COUNT; d++)
    if (texts[d]) {
      char hex[33];
      tgm__text_hash(texts[d]->data ? texts[d]->data : "", texts[d]->len, hex);
      json_object_set_new(hashes, d < DIALECT_COUNT ? by[d]->target->name : "cub",
                          json_string(hex));
    }
  json_object_set_new(m, "sources_hash", hashes);
  /* what the spectrum means: epilogue(fold(op, identity, map(transform, inputs))) */
  const Spectrum *sp = c->spec;
  json_t *meaning = json_object();
  json_t *ins = json_array(), *prm = json_array();
  for (int i = 0; i < sp->inputs.len; i++)
    json_array_append_new(ins, json_string(((const SpecInput *)sp->inputs.items[i])->user));
  for (int i = 0; i < sp->params.len; i++) {
    const SpecParam *p = sp->params.items[i];
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(p->user));
    json_object_set_new(o, "ctype", json_string(p->ctype));
    json_array_append_new(prm, o);
  }
  json_object_set_new(meaning, "inputs", ins);
  json_object_set_new(meaning, "params", prm);
  json_object_set_new(meaning, "transform", json_string(sp->transform_text));
  json_object_set_new(meaning, "op", json_string(op_name(sp->op)));
  json_object_set_new(meaning, "identity", json_string(gen_identity_text(c)));
  /* the identity's kind, for a runtime check's sparse data (tune_fill_sparse) */
  static const char *const id_kinds[] = {[ID_ZERO] = "zero",
                                         [ID_ONE] = "one",
                                         [ID_ONES] = "ones",
                                         [ID_LOWEST] = "lowest",
                                         [ID_HIGHEST] = "highest"};
  json_object_set_new(meaning, "identity_kind",
                      json_string(id_kinds[combiner_of(c->op)->identity]));
  json_object_set_new(meaning, "accumulator", json_string(sp->acc_ctype));
  json_object_set_new(meaning, "result", json_string(sp->result_ctype));
  if (sp->pair)
    json_object_set_new(meaning, "pair",
                        json_string(
                            "struct tgm_arg { tgm_size key; T value; }: the winning element's "
                            "index in the whole input and its value (CUB's KeyValuePair); "
                            "ties go to the lower index; NaNs lose to every number, and only "
                            "NaNs give the first; n = 0 gives the identity's value "
                            "with key ~0"));
  json_object_set_new(meaning, "epilogue",
                      sp->epilogue_text ? json_string(sp->epilogue_text) : json_null());
  json_object_set_new(meaning, "plain", json_boolean(spectrum_is_plain(sp)));
  json_object_set_new(meaning, "text", json_string(gen_meaning(a, c)));
  json_object_set_new(m, "meaning", meaning);
  json_object_set_new(m, "kernel_args",
                      json_string(c->rows || c->cols
                                      ? arena_printf(a, "(%s)", gen_kernel_args(a, c))
                                      : arena_printf(a, "(%s); tgm_init(R *out%s)",
                                                     gen_kernel_args(a, c),
                                                     gen_param_decls(a, c))));
  /* the reference, for tgm-tune: R[3] = {sequential result, low, high}; it
   * takes the main kernels' inputs, n, out and parameters (kernel.c's roles,
   * every plan's main kernel has them all) */
  const PtrVec *roles = &((const Plan *)c->plans.items[0])->kernel->roles;
  const char **rargs = arena_alloc(a, sizeof *rargs * (size_t)roles->len);
  size_t nr = 0;
  for (int i = 0; i < roles->len; i++)
    if (strcmp(roles->items[i], "partials") && strcmp(roles->items[i], "counter") &&
        strcmp(roles->items[i], "items") && strcmp(roles->items[i], "m") &&
        strcmp(roles->items[i], "ld") && strcmp(roles->items[i], "width"))
      rargs[nr++] = roles->items[i];
  json_t *ref = launch(ns, "tgm_reference_kernel", "", "one", "1024", rargs, nr);
  json_object_set_new(ref, "out",
                      json_string("R[3]: the scalar codelet run sequentially (past "
                                  "1024 elements, up to 1024 parts of at least 64 "
                                  "combined in order); the "
                                  "lowest and highest a fold in another order may give"));
  json_object_set_new(ref, "bound", json_string(gen_reference_bound(c)));
  if (c->rows)
    json_object_set_new(ref, "rows", json_string("once per row r: in + r * ld, n, out + 3 * r"));
  if (c->cols)
    json_object_set_new(ref, "cols",
                        json_string("once per column j, over the column gathered "
                                    "contiguous (m elements)"));
  json_object_set_new(m, "reference", ref);
  json_object_set_new(m, "launch_shapes",
                      json_string(c->cols ? "cols: ceil(n / width) x parts blocks (CT.SV, CA.SV: "
                                            "width groups of 16-byte vectors from the "
                                            "input's 16-byte boundary: ceil((n + skew) / "
                                            "(width * vw)) x parts); cols_init (CA.SV's "
                                            "tgm_init_out): launch_rule.tpl's "
                                            "tgm_init_out_grid(n) blocks of 256"
                                  : c->rows
                                      ? "rows: m blocks; rows_group: ceil(m / (block / per_row)) "
                                        "blocks (launch_rule.tpl's tgm_rows_grid_of), the "
                                        "kernel's GROUP = per_row; rows_parts, rows_atomic: "
                                        "per_row x m blocks (blockIdx.y the row); rows_init "
                                        "(RA's tgm_init_out): tgm_init_out_grid(m) blocks of "
                                        "256"
                                      : "one: 1 block; tiles: ceil(n / (block * items)); "
                                        "tiles_vec: the same over the 16-byte aligned body, in "
                                        "vectors, at least 1; strided, strided_vec: as tiles, at "
                                        "most grid_cap"));
  json_t *vs = json_array();
  /* every plan of any dialect, in the first one's order, then the others' own */
  for (int d = 0; d < DIALECT_COUNT; d++) {
    for (int i = 0; i < by[d]->plans.len; i++) {
      const Plan *p = by[d]->plans.items[i];
      if (!listed_before(by, d, p))
        json_array_append_new(vs, variant(a, p, ns, by));
    }
  }
  json_object_set_new(m, "variants", vs);
  if (c->rows || c->cols) {
    json_t *roles = json_object();
    for (int i = 0; pick_role_name(c, i); i++) {
      const char *id = pick_role_variant(c, i);
      json_object_set_new(roles, pick_role_name(c, i), id ? json_string(id) : json_null());
    }
    json_object_set_new(m, "pick_variants", roles);
  }
  json_t *left = json_array();
  for (int d = 0; d < DIALECT_COUNT; d++) {
    for (int i = 0; i < by[d]->left_out.len; i++) {
      const LeftOut *lo = by[d]->left_out.items[i];
      json_t *o = json_object();
      json_object_set_new(o, "id", json_string(lo->id));
      json_object_set_new(o, "dialect", json_string(by[d]->target->name));
      json_object_set_new(o, "why", json_string(lo->why));
      json_array_append_new(left, o);
    }
  }
  json_object_set_new(m, "left_out", left);
  char *text = json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  buf_puts(out, text);
  buf_puts(out, "\n");
  free(text);
  json_decref(m);
}

void gen_list(Buf *out, Arena *a, Composition *const by[DIALECT_COUNT]) {
  for (int d = 0; d < DIALECT_COUNT; d++) {
    for (int i = 0; i < by[d]->plans.len; i++) {
      const Plan *p = by[d]->plans.items[i];
      if (listed_before(by, d, p))
        continue;
      const char *names = "";
      for (int o = 0; o < DIALECT_COUNT; o++)
        if (find_plan(by[o], p->id))
          names = arena_printf(a, "%s%s%s", names, names[0] ? "," : "", by[o]->target->name);
      buf_printf(out,
                 "%-13s launches=%d init=%s deterministic=%s temp=%s min_arch=%s shape=%s "
                 "dialects=%s tunables=block{128,256,512,1024}%s%s%s%s\n",
                 p->id, p->launches, p->needs_init ? "yes" : "no", p->deterministic ? "yes" : "no",
                 p->counter    ? "partials+counter"
                 : p->partials ? "partials"
                               : "none",
                 p->min_arch, p->grid_rule, names, grid_cols(p->g) ? "" : ",items{",
                 grid_cols(p->g) ? "" : items_text(a, p), grid_cols(p->g) ? "" : "}",
                 p->g == G_DS || p->g == G_DSA || p->g == G_DSL ? ",grid_cap{1,2,4,8,16,32}xSMs"
                 : p->g == G_RW                                 ? ",per_row{1,2,4,8,16,32}"
                 : p->g == G_RL                                 ? ",per_row{2,4,8,16,32,64}"
                 : p->g == G_RA                                 ? ",per_row{1,2,4,8,16,32,64}"
                 : grid_cols(p->g) ? ",width{1,4,16,32,64,128,256},parts{1,2,4,8,16,32,64}"
                                   : "");
    }
  }
}
