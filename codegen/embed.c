/* embed.c -- tgm-gen --embed: one self-contained header with the chosen
 * kernels and a CUB-like entry point that dispatches on n.
 *
 * The choice comes from tgm-tune's database (--embed=DB: one winner per
 * size bucket) or from one named variant (--embed --variant=ID), which
 * works before any tuning. The header is the generated source restricted to
 * the chosen variants (templates/file.tpl, launch.tpl) followed by
 * templates/embed.tpl. The database is read by tgm-tune's own reader and
 * every bucket is checked against the manifest. */
#include "tgm.h"
#include "tune.h" /* tune_db_load_buckets: the database as tgm-tune reads it */

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const Plan *plan_by_id(const Composition *c, const char *id) {
  for (int i = 0; i < c->plans.len; i++) {
    const Plan *p = c->plans.items[i];
    if (strcmp(p->id, id) == 0)
      return p;
  }
  return NULL;
}

/* Defaults for a variant named without tuning: block 256, a few items per
 * thread, four blocks per SM for strided grids. */
static void defaults(const Plan *p, EmbedChoice *ch) {
  ch->plan = p;
  ch->block = 256;
  ch->items = p->g == G_DT || p->g == G_DTA || p->g == G_DTL ? 4 : 1;
  ch->cap = p->g == G_DS || p->g == G_DSA || p->g == G_DSL ? 4 : 1;
  ch->from = 0;
  ch->to = 63;
}

/* "variant 'X' is left out for cuda f32: why" or "no variant 'X' for sum". */
static const char *missing_variant(Arena *a, const Composition *c, const char *id) {
  for (int i = 0; i < c->left_out.len; i++) {
    const LeftOut *lo = c->left_out.items[i];
    if (strcmp(lo->id, id) == 0)
      return arena_printf(a, "variant '%s' is left out for %s %s: %s", id, dialect_get(c->dialect)->name,
                          elem_info(c->elem)->name, lo->why);
  }
  return arena_printf(a, "no variant '%s' for %s in %s (see tgm-gen --list)", id, c->name,
                      dialect_get(c->dialect)->name);
}

int embed_choose_variant(Ctx *ctx, const Composition *c, const char *id, EmbedChoice *out) {
  const Plan *p = plan_by_id(c, id);
  if (!p) {
    diag_error(ctx->diag, (Loc){"--variant", 0, 0}, "%s", missing_variant(ctx->arena, c, id));
    return -1;
  }
  defaults(p, out);
  return 0;
}

/* ------------------------------------------------------------- the database */

/* tgm-tune's reader refused the file with "PATH:LINE:COL: why; advice" (or
 * "PATH: why; ..."): the same as a diagnostic at PATH:LINE:COL, without the
 * advice, which names tgm-tune's options. */
static void db_refused(Ctx *ctx, const char *path, const char *text) {
  Loc at = {path, 0, 0};
  size_t pl = strlen(path);
  const char *why = text;
  if (strncmp(text, path, pl) == 0 && text[pl] == ':') {
    int line = 0, col = 0, used = 0;
    why = text + pl + 1;
    if (sscanf(why, "%d:%d: %n", &line, &col, &used) == 2 && used > 0)
      at.line = line, at.col = col, why += used;
    else
      why += strspn(why, " ");
  }
  size_t len = strlen(why);
  static const char *advice[] = {"; move ", "; it is left alone"};
  for (size_t i = 0; i < COUNT_OF(advice); i++) {
    const char *cut = strstr(why, advice[i]);
    if (cut && (size_t)(cut - why) < len)
      len = (size_t)(cut - why);
  }
  diag_error(ctx->diag, at, "%.*s", (int)len, why);
}

static const char *key_str(json_t *key, const char *name) {
  const char *s = json_string_value(json_object_get(key, name));
  return s ? s : "";
}

/* "the entry for NVIDIA H100 80GB HBM3 (i32 sum, stream)" */
static const char *entry_name(Arena *a, json_t *key) {
  return text_comment_safe(a, arena_printf(a, "the entry for %s (%s %s, %s)", key_str(key, "device"),
                                           key_str(key, "type"), key_str(key, "op"), key_str(key, "mode")));
}

/* Whether v is one of the manifest's values for a knob; else `values`
 * lists them ("1, 2, 4"). */
static bool in_tunable(Arena *a, json_t *tunables, const char *knob, long long v, const char **values) {
  json_t *list = json_object_get(tunables, knob), *x;
  size_t i;
  Buf b = {0};
  json_array_foreach(list, i, x) {
    if (json_integer_value(x) == v) {
      buf_free(&b);
      return true;
    }
    buf_printf(&b, "%s%lld", i ? ", " : "", (long long)json_integer_value(x));
  }
  *values = b.data ? arena_strdup(a, b.data) : "none";
  buf_free(&b);
  return false;
}

/* One bucket of an entry checked against the manifest: the variant exists
 * in this dialect and its knobs are among the manifest's tunables. */
static EmbedChoice *bucket_choice(Ctx *ctx, const Composition *c, const char *db_path, json_t *key,
                                  size_t i, json_t *b) {
  Arena *a = ctx->arena;
  Loc at = {db_path, 0, 0};
  EmbedChoice *ch = arena_alloc(a, sizeof *ch);
  ch->from = (int)json_integer_value(json_object_get(b, "from_log2n"));
  ch->to = (int)json_integer_value(json_object_get(b, "to_log2n"));
  const char *where = arena_printf(a, "bucket %zu (2^%d..2^%d) of %s", i, ch->from, ch->to, entry_name(a, key));
  const char *id = json_string_value(json_object_get(b, "variant"));
  ch->plan = plan_by_id(c, id);
  if (!ch->plan) {
    diag_error(ctx->diag, at, "%s chose %s", where, text_comment_safe(a, missing_variant(a, c, id)));
    return NULL;
  }
  json_t *cap = json_object_get(b, "grid_cap_per_sm");
  long long knob[3] = {json_integer_value(json_object_get(b, "block")),
                       json_integer_value(json_object_get(b, "items")), cap ? json_integer_value(cap) : 0};
  static const char *names[3] = {"block", "items", "grid_cap_per_sm"};
  json_t *tunables = manifest_tunables(ch->plan);
  bool ok = true;
  for (int k = 0; k < 3 && ok; k++) {
    const char *values = "";
    if (k == 2 && !json_object_get(tunables, names[k])) { /* no grid cap: absent or 0 */
      if (knob[k] != 0) {
        diag_error(ctx->diag, at, "%s: %s has no grid cap, but grid_cap_per_sm is %lld", where, ch->plan->id,
                   knob[k]);
        ok = false;
      }
    } else if (!in_tunable(a, tunables, names[k], knob[k], &values)) {
      diag_error(ctx->diag, at, "%s: %s %lld is not one of %s's (%s)", where, names[k], knob[k], ch->plan->id,
                 values);
      ok = false;
    }
  }
  json_decref(tunables);
  if (!ok)
    return NULL;
  ch->block = (unsigned)knob[0];
  ch->items = (unsigned)knob[1];
  ch->cap = (unsigned)knob[2];
  return ch;
}

/* The database's buckets for this spectrum, type and source. */
int embed_choose_db(Ctx *ctx, const Composition *c, const char *db_path, const char *source_hash,
                    const char *device, const char *mode, PtrVec *out) {
  Arena *a = ctx->arena;
  Loc at = {db_path, 0, 0};
  json_t *root = NULL;
  if (tune_db_load_buckets(db_path, &root) != TGM_OK) {
    db_refused(ctx, db_path, tgm_last_error());
    return -1;
  }
  int rc = -1;
  const char *op = c->op == OP_ADD ? "sum" : op_name(c->op);
  const char *type = elem_info(c->elem)->name;
  json_t *found = NULL, *e;
  size_t i;
  int matches = 0, stale = 0;
  json_array_foreach(json_object_get(root, "entries"), i, e) {
    json_t *key = json_object_get(e, "key");
    const char *km = json_string_value(json_object_get(key, "mode"));
    const char *kd = json_string_value(json_object_get(key, "device"));
    const char *kh = json_string_value(json_object_get(key, "source_hash"));
    if (strcmp(key_str(key, "type"), type) || strcmp(key_str(key, "op"), op))
      continue;
    if ((mode && (!km || strcmp(km, mode))) || (device && (!kd || strcmp(kd, device))))
      continue;
    if (!kh || strcmp(kh, source_hash)) {
      stale++;
      continue;
    }
    found = e;
    matches++;
  }
  if (!found) {
    diag_error(ctx->diag, at, "no tuned %s %s in the database%s%s%s%s%s", op, type, mode ? ", mode " : "",
               mode ? mode : "", device ? ", device " : "", device ? text_comment_safe(a, device) : "",
               stale ? " for this version of the codelets (it was tuned for another source: "
                       "run tgm-tune again)" : "");
    goto done;
  }
  if (matches > 1) {
    diag_error(ctx->diag, at, "%d tunings of %s %s match; choose one with --device=NAME and --mode", matches,
               op, type);
    goto done;
  }
  json_t *b;
  json_array_foreach(json_object_get(found, "buckets"), i, b) {
    EmbedChoice *ch = bucket_choice(ctx, c, db_path, json_object_get(found, "key"), i, b);
    if (!ch)
      goto done;
    if (ch->cap == 0) /* no grid cap: the launchers take 1 */
      ch->cap = 1;
    vec_push(a, out, ch);
  }
  rc = 0;
done:
  json_decref(root);
  return rc;
}

int gen_embed(Buf *out, Arena *a, const Composition *c, const char *source, const PtrVec *choices,
              const char *how, char *err, size_t errlen) {
  PtrVec plans = {0};
  for (int i = 0; i < choices->len; i++) {
    const EmbedChoice *ch = choices->items[i];
    bool seen = false;
    for (int j = 0; j < plans.len; j++)
      seen |= plans.items[j] == ch->plan;
    if (!seen)
      vec_push(a, &plans, (void *)ch->plan);
  }
  if (gen_source(out, a, c, source, &plans, err, errlen) != 0)
    return -1;
  bool cuda = c->dialect == DIALECT_CUDA;
  TplDict *d = tpl_dict(a, NULL);
  const ElemInfo *ei = elem_info(c->elem);
  tpl_setf(d, "fname", "tgm_%s_%s", c->name, ei->name);
  tpl_setf(d, "namespace", "tgm_kernels_%s", gen_base_name(a, c));
  tpl_set(d, "chosen_how", text_comment_safe(a, how)); /* holds the database's path */
  const char *sig_t = c->elem == ET_I32 ? "int32_t" : c->elem == ET_U32 ? "uint32_t" : ei->ctype;
  tpl_set(d, "sig_t", sig_t);
  { /* the inputs and parameters, in the caller's types (T is not in scope there) */
    const Spectrum *s = c->spec;
    Buf decls = {0}, args = {0}, pdecls = {0}, pargs = {0};
    for (int i = 0; i < s->inputs.len; i++) {
      const char *nm = ((const SpecInput *)s->inputs.items[i])->name;
      buf_printf(&decls, "%sconst %s *d_%s", i ? ", " : "", sig_t, nm);
      buf_printf(&args, "%sd_%s", i ? ", " : "", nm);
    }
    for (int i = 0; i < s->params.len; i++) {
      const SpecParam *p = s->params.items[i];
      buf_printf(&pdecls, ", %s %s", p->ty->kind == TY_ELEM ? sig_t : p->ctype, p->name);
      buf_printf(&pargs, ", %s", p->name);
    }
    tpl_set(d, "embed_in_decls", arena_strdup(a, decls.data));
    tpl_set(d, "embed_in_args", arena_strdup(a, args.data));
    tpl_setf(d, "embed_first_in", "d_%s", ((const SpecInput *)s->inputs.items[0])->name);
    tpl_set(d, "embed_param_decls", pdecls.data ? arena_strdup(a, pdecls.data) : "");
    tpl_set(d, "param_args", pargs.data ? arena_strdup(a, pargs.data) : "");
    tpl_set(d, "out_t", s->result_ty->kind == TY_ELEM ? sig_t : s->result_ctype);
    tpl_set(d, "meaning", gen_meaning(a, c));
    buf_free(&decls);
    buf_free(&args);
    buf_free(&pdecls);
    buf_free(&pargs);
  }
  tpl_set(d, "err_t", cuda ? "cudaError_t" : "hipError_t");
  tpl_set(d, "stream_t", cuda ? "cudaStream_t" : "hipStream_t");
  tpl_set(d, "success", cuda ? "cudaSuccess" : "hipSuccess");
  tpl_set(d, "err_invalid", cuda ? "cudaErrorInvalidValue" : "hipErrorInvalidValue");
  tpl_set(d, "rtc", cuda ? "__CUDACC_RTC__" : "__HIPCC_RTC__");
  tpl_set(d, "get_device", cuda ? "cudaGetDevice" : "hipGetDevice");
  tpl_set(d, "get_attribute", cuda ? "cudaDeviceGetAttribute" : "hipDeviceGetAttribute");
  tpl_set(d, "sm_count_attr", cuda ? "cudaDevAttrMultiProcessorCount" : "hipDeviceAttributeMultiprocessorCount");
  tpl_set(d, "memset_async", cuda ? "cudaMemsetAsync" : "hipMemsetAsync");
  bool strided = false;
  tpl_list(d, "choices");
  for (int i = 0; i < choices->len; i++) {
    const EmbedChoice *ch = choices->items[i];
    const Plan *p = ch->plan;
    TplDict *it = tpl_item(d, "choices");
    if (i + 1 == choices->len)
      tpl_set(it, "cond", "true");
    else
      tpl_setf(it, "cond", "n < ((size_t)1 << %d)", ch->to + 1);
    tpl_set(it, "id", p->id);
    tpl_set(it, "cname", p->cname);
    tpl_setf(it, "block", "%u", ch->block);
    tpl_setf(it, "items", "%u", ch->items);
    tpl_setf(it, "cap", "%u", ch->cap);
    bool s = p->g == G_DS || p->g == G_DSA || p->g == G_DSL;
    strided |= s;
    tpl_set(it, "cap_note", s ? arena_printf(a, ", %u blocks per SM at most", ch->cap) : "");
    tpl_set(it, "counter", p->counter ? "1" : "");
    tpl_set(it, "grid_enum", gen_grid_enum(p->grid_rule));
  }
  tpl_set(d, "cap_query", strided ? "1" : "");
  if (tpl_expand(out, "embed.tpl", tpl_text("embed.tpl"), d, err, errlen) != 0)
    return -1;
  return 0;
}
