/* embed.c -- tgm-gen --embed: one self-contained header with the chosen
 * kernels and a CUB-like entry point that dispatches on n.
 *
 * The choice comes from tgm-tune's database (--embed=DB: one winner per
 * size bucket) or from one named variant (--embed --variant=ID), which
 * works before any tuning. The header is the generated source restricted to
 * the chosen variants (templates/file.tpl, launch.tpl) followed by
 * templates/embed.tpl. */
#include "tgm.h"

#include <jansson.h>
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

int embed_choose_variant(Ctx *ctx, const Composition *c, const char *id, EmbedChoice *out) {
  const Plan *p = plan_by_id(c, id);
  if (!p) {
    for (int i = 0; i < c->left_out.len; i++) {
      const LeftOut *lo = c->left_out.items[i];
      if (strcmp(lo->id, id) == 0) {
        diag_error(ctx->diag, (Loc){"--variant", 0, 0}, "variant '%s' is left out for %s %s: %s", id,
                   dialect_get(c->dialect)->name, elem_info(c->elem)->name, lo->why);
        return -1;
      }
    }
    diag_error(ctx->diag, (Loc){"--variant", 0, 0},
               "no variant '%s' for %s (see tgm-gen --list)", id, c->name);
    return -1;
  }
  defaults(p, out);
  return 0;
}

static bool is_uint(json_t *v, unsigned lo, unsigned hi) {
  return json_is_integer(v) && json_integer_value(v) >= lo && json_integer_value(v) <= hi;
}

/* The database's buckets for this spectrum, type and source. */
int embed_choose_db(Ctx *ctx, const Composition *c, const char *db_path, const char *source_hash,
                    const char *device, const char *mode, PtrVec *out) {
  Arena *a = ctx->arena;
  Loc at = {db_path, 0, 0};
  json_error_t jerr;
  json_t *root = json_load_file(db_path, 0, &jerr);
  if (!root) {
    diag_error(ctx->diag, (Loc){db_path, jerr.line > 0 ? jerr.line : 0, jerr.column > 0 ? jerr.column : 0},
               "not a tuning database: %s", jerr.text);
    return -1;
  }
  int rc = -1;
  json_t *entries = json_object_get(root, "entries");
  if (!json_is_integer(json_object_get(root, "tgm_db")) || !json_is_array(entries)) {
    diag_error(ctx->diag, at, "not a tgm-tune database (no \"tgm_db\" and \"entries\")");
    goto done;
  }
  const char *op = c->op == OP_ADD ? "sum" : op_name(c->op);
  json_t *found = NULL, *e;
  size_t i;
  int matches = 0, stale = 0;
  json_array_foreach(entries, i, e) {
    json_t *k = json_object_get(e, "key");
    const char *kt = json_string_value(json_object_get(k, "type"));
    const char *ko = json_string_value(json_object_get(k, "op"));
    const char *km = json_string_value(json_object_get(k, "mode"));
    const char *kd = json_string_value(json_object_get(k, "device"));
    const char *kh = json_string_value(json_object_get(k, "source_hash"));
    if (!kt || !ko || strcmp(kt, elem_info(c->elem)->name) || strcmp(ko, op))
      continue;
    if ((mode && (!km || strcmp(km, mode))) || (device && (!kd || strcmp(kd, device))))
      continue;
    if (!kh || strcmp(kh, source_hash)) {
      stale++;
      continue;
    }
    if (!json_array_size(json_object_get(e, "buckets")))
      continue;
    found = e;
    matches++;
  }
  if (!found) {
    diag_error(ctx->diag, at, "no tuned %s %s%s%s%s%s in the database%s", op, elem_info(c->elem)->name,
               mode ? ", mode " : "", mode ? mode : "", device ? ", device " : "",
               device ? device : "",
               stale ? " for this version of the codelets (it was tuned for another source: "
                       "run tgm-tune again)" : "");
    goto done;
  }
  if (matches > 1) {
    diag_error(ctx->diag, at, "%d tunings of %s %s match; choose one with --device=NAME and --mode", matches,
               op, elem_info(c->elem)->name);
    goto done;
  }
  json_t *b;
  json_array_foreach(json_object_get(found, "buckets"), i, b) {
    const char *id = json_string_value(json_object_get(b, "variant"));
    json_t *from = json_object_get(b, "from_log2n"), *to = json_object_get(b, "to_log2n");
    if (!id || !is_uint(from, 0, 63) || !is_uint(to, 0, 63) ||
        !is_uint(json_object_get(b, "block"), 32, 1024) ||
        !is_uint(json_object_get(b, "items"), 1, 1024) ||
        !is_uint(json_object_get(b, "grid_cap_per_sm"), 0, 4096)) {
      diag_error(ctx->diag, at, "bucket %zu of %s %s is malformed", i, op, elem_info(c->elem)->name);
      goto done;
    }
    const Plan *p = plan_by_id(c, id);
    if (!p) {
      diag_error(ctx->diag, at, "the database chose '%s', which %s does not have for %s", id,
                 c->name, dialect_get(c->dialect)->name);
      goto done;
    }
    EmbedChoice *ch = arena_alloc(a, sizeof *ch);
    ch->plan = p;
    ch->from = (int)json_integer_value(from);
    ch->to = (int)json_integer_value(to);
    ch->block = (unsigned)json_integer_value(json_object_get(b, "block"));
    ch->items = (unsigned)json_integer_value(json_object_get(b, "items"));
    ch->cap = (unsigned)json_integer_value(json_object_get(b, "grid_cap_per_sm"));
    if (ch->cap == 0)
      ch->cap = 1;
    unsigned bs = ch->block;
    if (bs != 128 && bs != 256 && bs != 512 && bs != 1024) {
      diag_error(ctx->diag, at, "bucket %zu: block size %u is not one tgm generates", i, bs);
      goto done;
    }
    if (out->len && ((EmbedChoice *)out->items[out->len - 1])->to >= ch->from) {
      diag_error(ctx->diag, at, "buckets of %s %s overlap or are out of order", op, elem_info(c->elem)->name);
      goto done;
    }
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
