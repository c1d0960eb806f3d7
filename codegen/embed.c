/* embed.c -- tgm-gen --embed: one self-contained header with the chosen
 * kernels and a CUB-like entry point that dispatches on the GPU and on n.
 *
 * The choice comes from tgm-tune's database (--embed=DB: per tuned GPU, one
 * winner per size bucket) or from one named variant (--embed --variant=ID),
 * which works before any tuning. The header is the generated source
 * restricted to the chosen variants (templates/file.tpl, launch.tpl: a
 * kernel several tables use is there once) followed by templates/embed.tpl:
 * the choices (a variant and its knobs), one table of buckets per GPU, and
 * the entry point.
 *
 * Several GPUs: each table is used on a GPU of its name, compute capability
 * and SM count; any other GPU gets the portable table (portable_table). */
#include "tgm.h"
#include "tune.h"                    /* tune_db_load_buckets: the database as tgm-tune reads it */
#include "../runtime/src/internal.h" /* tgm__text_hash: the header's include guard */

#include "launch_rule.tpl" /* tgm_cols_width_ok: the launch rule, one home */

#include <ctype.h>
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

static bool is_strided(const Plan *p) { return p->g == G_DS || p->g == G_DSA || p->g == G_DSL; }

/* Defaults for a variant named without tuning: block 256, a few items per
 * thread, four blocks per SM for strided grids. */
static void defaults(const Plan *p, EmbedChoice *ch) {
  ch->plan = p;
  ch->block = 256;
  ch->items = p->g == G_DT || p->g == G_DTA || p->g == G_DTL ? 4 : 1;
  ch->cap = is_strided(p) ? 4 : 0;
  ch->from = 0;
  ch->to = 63;
}

/* "variant 'X' is left out for cuda f32: why" or "no variant 'X' for sum". */
static const char *missing_variant(Arena *a, const Composition *c, const char *id) {
  for (int i = 0; i < c->left_out.len; i++) {
    const LeftOut *lo = c->left_out.items[i];
    if (strcmp(lo->id, id) == 0)
      return arena_printf(a, "variant '%s' is left out for %s %s: %s", id, c->target->name,
                          elem_info(c->elem)->name, lo->why);
  }
  return arena_printf(a, "no variant '%s' for %s in %s (see tgm-gen --list)", id, c->name,
                      c->target->name);
}

int embed_choose_variant(Ctx *ctx, const Composition *c, const char *id, EmbedChoice *out) {
  const Plan *p = plan_by_id(c, id);
  if (!p) {
    diag_error(ctx->diag, (Loc){"--variant", 0, 0}, "%s", missing_variant(ctx->arena, c, id));
    return -1;
  }
  defaults(p, out);
  EmbedTable *t = arena_alloc(ctx->arena, sizeof *t);
  t->label = arena_printf(ctx->arena, "%s, untuned", p->id);
  t->note = arena_printf(ctx->arena, "%s on every GPU, with untuned knobs", p->id);
  out->table = t;
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
  return text_comment_safe(a, arena_printf(a, "the entry for %s (%s %s, %s)",
                                           key_str(key, "device"), key_str(key, "type"),
                                           key_str(key, "op"), key_str(key, "mode")));
}

/* Whether v is one of the manifest's values for a knob; else `values`
 * lists them ("1, 2, 4"). */
static bool in_tunable(Arena *a, json_t *tunables, const char *knob, long long v,
                       const char **values) {
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

/* The plan a bucket or cell b (`where`) chose, or NULL with the error said:
 * no such variant in this dialect. */
static const Plan *chosen_plan(Ctx *ctx, const Composition *c, const char *db_path,
                               const char *where, json_t *b) {
  const char *id = json_string_value(json_object_get(b, "variant"));
  const Plan *p = plan_by_id(c, id);
  if (!p)
    diag_error(ctx->diag, (Loc){db_path, 0, 0}, "%s chose %s", where,
               text_comment_safe(ctx->arena, missing_variant(ctx->arena, c, id)));
  return p;
}

/* Whether knob k (names[k], v[k]) is among p's tunables, for each of n; the
 * first that is not is said, with the values there are. */
static bool knobs_listed(Ctx *ctx, const char *db_path, const char *where, const Plan *p,
                         const char *const names[], const long long v[], int n) {
  json_t *tunables = manifest_tunables(p);
  const char *values = "";
  int k = 0;
  while (k < n && in_tunable(ctx->arena, tunables, names[k], v[k], &values))
    k++;
  json_decref(tunables);
  if (k < n)
    diag_error(ctx->diag, (Loc){db_path, 0, 0}, "%s: %s %lld is not one of %s's (%s)", where,
               names[k], v[k], p->id, values);
  return k == n;
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
  const char *where = arena_printf(a, "bucket %zu (2^%d..2^%d) of %s", i, ch->from, ch->to,
                                   entry_name(a, key));
  if (!(ch->plan = chosen_plan(ctx, c, db_path, where, b)))
    return NULL;
  json_t *cap = json_object_get(b, "grid_cap_per_sm");
  long long knob[3] = {json_integer_value(json_object_get(b, "block")),
                       json_integer_value(json_object_get(b, "items")),
                       cap ? json_integer_value(cap) : 0};
  static const char *const names[3] = {"block", "items", "grid_cap_per_sm"};
  json_t *tunables = manifest_tunables(ch->plan);
  const bool capped = json_object_get(tunables, names[2]) != NULL;
  json_decref(tunables);
  if (!knobs_listed(ctx, db_path, where, ch->plan, names, knob, 2 + capped))
    return NULL;
  if (!capped && knob[2] != 0) { /* no grid cap: absent or 0 */
    diag_error(ctx->diag, at, "%s: %s has no grid cap, but grid_cap_per_sm is %lld", where,
               ch->plan->id, knob[2]);
    return NULL;
  }
  ch->block = (unsigned)knob[0];
  ch->items = (unsigned)knob[1];
  ch->cap = (unsigned)knob[2];
  return ch;
}

/* A tuned GPU: its entry and its table. */
typedef struct {
  json_t *key, *buckets;
  EmbedTable *table;
} Tuned;

/* "mode stream, driver 13000, compiler nvrtc 13.0", comment-safe */
static const char *tuning_of(Arena *a, json_t *key) {
  json_t *drv = json_object_get(key, "driver");
  const char *driver = json_is_string(drv) ? json_string_value(drv)
                       : json_is_integer(drv)
                           ? arena_printf(a, "%lld", (long long)json_integer_value(drv))
                           : "?";
  json_t *det = json_object_get(key, "deterministic"), *hot = json_object_get(key, "hot_l2");
  const char *params = key_str(key, "params");
  return text_comment_safe(a, arena_printf(a, "mode %s, driver %s, compiler %s%s%s%s%s",
                                           key_str(key, "mode"), driver, key_str(key, "compiler"),
                                           json_is_true(det) ? ", deterministic" : "",
                                           json_is_true(hot) ? ", L2 warm" : "",
                                           *params ? ", parameters " : "", params));
}

/* "MAJOR.MINOR", digits only, 3 at most each (sscanf's %d took " 9. 0",
 * "+9.-0", and 4294967305 as 9) */
static bool parse_cc(const char *s, int *major, int *minor) {
  int *part[2] = {major, minor};
  for (int k = 0; k < 2; k++) {
    int v = 0, digits = 0;
    for (; isdigit((unsigned char)*s) && digits < 4; s++, digits++)
      v = v * 10 + (*s - '0');
    if (digits == 0 || digits > 3 || *s != (k ? '\0' : '.'))
      return false;
    *part[k] = v;
    s++;
  }
  return true;
}

/* The key's members that are text, when present, are text (a "mode": {}
 * was written as "mode ,"); "driver" may be a number too. */
static const char *key_member_wrong(json_t *key) {
  static const char *const text[] = {"device", "cc",          "mode",   "compiler", "type",
                                     "op",     "source_hash", "params", "shape",    "spectrum"};
  for (size_t i = 0; i < COUNT_OF(text); i++) {
    json_t *v = json_object_get(key, text[i]);
    if (v && !json_is_string(v))
      return text[i];
  }
  json_t *d = json_object_get(key, "driver");
  if (d && !json_is_string(d) && !json_is_integer(d))
    return "driver";
  return NULL;
}

/* The GPU of an entry's key; NULL (with an error) when the key lacks it. */
static EmbedTable *tuned_gpu(Ctx *ctx, const char *db_path, json_t *key) {
  Arena *a = ctx->arena;
  EmbedTable *t = arena_alloc(a, sizeof *t);
  const char *cc = json_string_value(json_object_get(key, "cc"));
  json_t *sms = json_object_get(key, "sm_count");
  const char *wrong = key_member_wrong(key);
  if (wrong) {
    diag_error(ctx->diag, (Loc){db_path, 0, 0}, "%s: its key's \"%s\" is not %s",
               entry_name(a, key), wrong, strcmp(wrong, "driver") ? "text" : "text or a number");
    return NULL;
  }
  t->device = json_string_value(json_object_get(key, "device"));
  if (!t->device || !*t->device || !cc || !parse_cc(cc, &t->cc_major, &t->cc_minor) ||
      !json_is_integer(sms) || json_integer_value(sms) < 1 || json_integer_value(sms) > 1000000) {
    diag_error(ctx->diag, (Loc){db_path, 0, 0},
               "%s has no GPU (\"device\", \"cc\": \"MAJOR.MINOR\" and \"sm_count\" in its key)",
               entry_name(a, key));
    return NULL;
  }
  t->device = arena_strdup(a, t->device);
  t->sms = (int)json_integer_value(sms);
  t->label = arena_printf(a, "%s, cc %d.%d, %d SMs", t->device, t->cc_major, t->cc_minor, t->sms);
  t->note = arena_printf(a, "%s: %s", text_comment_safe(a, t->label), tuning_of(a, key));
  return t;
}

static bool same_gpu(const EmbedTable *a, const EmbedTable *b) {
  return strcmp(a->device, b->device) == 0 && a->cc_major == b->cc_major &&
         a->cc_minor == b->cc_minor && a->sms == b->sms;
}

static bool same_choice(const EmbedChoice *a, const EmbedChoice *b) {
  return a->plan == b->plan && a->block == b->block && a->items == b->items && a->cap == b->cap;
}

/* The choice of table t (EmbedChoice *, in order) for size 2^s, if one was
 * tuned there. */
static const EmbedChoice *tuned_at(const PtrVec *t, int s) {
  for (int i = 0; i < t->len; i++) {
    const EmbedChoice *ch = t->items[i];
    if (ch->from <= s && s <= ch->to)
      return ch;
  }
  return NULL;
}

static int arch_number(const Plan *p) { /* sm_80 -> 80 */
  const char *digits = strpbrk(p->min_arch, "0123456789");
  return digits ? atoi(digits) : 0;
}

/* The portable table, for a GPU none of the tables was tuned on: per size,
 * the choice with the best worst case over the tuned GPUs.
 *
 * A choice that needs a newer GPU than the oldest one the header runs on
 * (VR: sm_80) would trap there: only choices every GPU runs are candidates.
 * Among those, the worst case is judged by the times in the database, but
 * the database holds each GPU's winner only (one result per size), so a
 * choice's loss is known, and zero, only on the GPUs where it won: the
 * portable choice is the one that won on the most tuned GPUs; ties go to
 * fewer launches, then a deterministic variant, then the GPU listed first.
 * A size where no tuned GPU's winner runs everywhere gets `fallback` (the
 * untuned default). Neighbouring sizes with one choice share a bucket. */
static void portable_table(Arena *a, const Composition *c, PtrVec *const tables[], int n,
                           const EmbedTable *pt, PtrVec *out) {
  int lo = 63, hi = 0, oldest = 1 << 30;
  for (int t = 0; t < n; t++) {
    const EmbedChoice *first = tables[t]->items[0], *last = tables[t]->items[tables[t]->len - 1];
    lo = first->from < lo ? first->from : lo;
    hi = last->to > hi ? last->to : hi;
  }
  for (int i = 0; i < c->plans.len; i++) {
    int arch = arch_number(c->plans.items[i]);
    oldest = arch < oldest ? arch : oldest;
  }
  EmbedChoice fallback = {0};
  const Plan *dflt = plan_by_id(c, "DSL.VS.SV");
  if (dflt)
    defaults(dflt, &fallback);
  EmbedChoice *cur = NULL;
  for (int s = lo; s <= hi; s++) {
    const EmbedChoice *best = NULL;
    int best_votes = 0;
    bool tuned_here = false;
    for (int t = 0; t < n; t++) {
      const EmbedChoice *ch = tuned_at(tables[t], s);
      tuned_here |= ch != NULL;
      if (!ch || arch_number(ch->plan) > oldest)
        continue;
      int votes = 0;
      for (int u = 0; u < n; u++) {
        const EmbedChoice *other = tuned_at(tables[u], s);
        votes += other && same_choice(other, ch);
      }
      const Plan *p = ch->plan, *q = best ? best->plan : NULL;
      if (!best || votes > best_votes ||
          (votes == best_votes &&
           (p->launches < q->launches ||
            (p->launches == q->launches && p->deterministic && !q->deterministic))))
        best = ch, best_votes = votes;
    }
    if (!best && tuned_here && dflt)
      best = &fallback;
    if (!best) { /* no GPU was tuned at 2^s: the next bucket serves it */
      cur = NULL;
      continue;
    }
    if (cur && same_choice(cur, best)) {
      cur->to = s;
      continue;
    }
    cur = arena_alloc(a, sizeof *cur);
    *cur = *best;
    cur->from = cur->to = s;
    cur->table = pt;
    vec_push(a, out, cur);
  }
}

/* The database's entries of c's type, operator and dialect for `shape`
 * (NULL: the 1-D reduction; "rows", "cols"), one per GPU (--device and
 * --mode narrow them): *tuned (malloc'd) and *n, *root holding them. 0, or
 * -1 with an error said (none found, two for one GPU, a refused file). */
static int tuned_entries(Ctx *ctx, const Composition *c, const char *db_path, const char *shape,
                         const char *source_hash, const char *device, const char *mode,
                         json_t **root, Tuned **out, int *n) {
  Arena *a = ctx->arena;
  Loc at = {db_path, 0, 0};
  *root = NULL, *out = NULL, *n = 0;
  if (tune_db_load_buckets(db_path, shape, root) != TGM_OK) {
    db_refused(ctx, db_path, tgm_last_error());
    return -1;
  }
  const char *op = combiner_of(c->op)->name; /* the manifest's and the database's name */
  const char *type = elem_info(c->elem)->name;
  const Dialect *other = NULL; /* a dialect whose tunings were found instead */
  Tuned *tuned = NULL;
  int ntuned = 0, stale = 0;
  json_t *e;
  size_t i;
  json_array_foreach(json_object_get(*root, "entries"), i, e) {
    json_t *key = json_object_get(e, "key");
    const char *km = json_string_value(json_object_get(key, "mode"));
    const char *kd = json_string_value(json_object_get(key, "device"));
    const char *kh = json_string_value(json_object_get(key, "source_hash"));
    if (strcmp(key_str(key, "type"), type) || strcmp(key_str(key, "op"), op))
      continue;
    const Dialect *kdl = NULL; /* the dialect whose runtime compiler tuned it */
    for (int k = 0; k < DIALECT_COUNT && !kdl; k++) {
      const char *rtc = dialect_get((DialectKind)k)->rtc_name;
      if (strncmp(key_str(key, "compiler"), rtc, strlen(rtc)) == 0)
        kdl = dialect_get((DialectKind)k);
    }
    if (kdl && kdl != c->target) {
      other = kdl; /* tuned for another dialect */
      continue;
    }
    if ((mode && (!km || strcmp(km, mode))) || (device && (!kd || strcmp(kd, device))))
      continue;
    if (!kh || strcmp(kh, source_hash)) {
      stale++;
      continue;
    }
    EmbedTable *t = tuned_gpu(ctx, db_path, key);
    if (!t)
      goto fail;
    int replaced = 0;
    for (int k = 0; k < ntuned; k++) {
      if (same_gpu(tuned[k].table, t)) {
        /* without --mode, a tuning of both modes (tgm-tune's default, made
           for embedding) is taken over one of a single mode */
        const char *kmode = key_str(tuned[k].key, "mode");
        if (!mode && (!strcmp(kmode, "both")) != (km && !strcmp(km, "both"))) {
          if (km && !strcmp(km, "both"))
            tuned[k] = (Tuned){key, json_object_get(e, "buckets"), t};
          replaced = 1;
          break;
        }
        bool same_mode = !strcmp(kmode, key_str(key, "mode"));
        diag_error(ctx->diag, at, "%s %s%s%s is tuned twice for %s (%s; %s); %s", op, type,
                   shape ? " " : "", shape ? shape : "", text_comment_safe(a, t->label),
                   tuning_of(a, tuned[k].key), tuning_of(a, key),
                   same_mode ? "--mode and --device cannot tell them apart: keep the one you "
                               "want in the database, or tune into another --db"
                             : "choose one with --mode (or --device)");
        goto fail;
      }
    }
    if (replaced)
      continue;
    tuned = realloc(tuned, (size_t)(ntuned + 1) * sizeof *tuned);
    tuned[ntuned++] = (Tuned){key, json_object_get(e, "buckets"), t};
  }
  if (!ntuned) {
    int unfinished = tune_db_unfinished(db_path, shape);
    diag_error(ctx->diag, at, "no tuned %s %s%s%s for %s in the database%s%s%s%s%s%s%s", op, type,
               shape ? " " : "", shape ? shape : "", c->target->name, mode ? ", mode " : "",
               mode ? mode : "", device ? ", device " : "",
               device ? text_comment_safe(a, device) : "",
               stale ? " for this version of the codelets (it was tuned for another source: "
                       "run tgm-tune again)"
                     : "",
               other ? arena_printf(a, " (the %s tunings are for %s)", other->rtc_name,
                                    other->chosen_by)
                     : "",
               unfinished ? arena_printf(a,
                                         "; %d tuning%s in it did not finish (results, no "
                                         "buckets): run tgm-tune again, which resumes",
                                         unfinished, unfinished == 1 ? "" : "s")
                          : "");
    goto fail;
  }
  if (ntuned > 250) {
    diag_error(ctx->diag, at,
               "%d GPUs tuned %s %s: one header holds 250 at most (choose with --device)", ntuned,
               op, type);
    goto fail;
  }
  *out = tuned, *n = ntuned;
  return 0;
fail:
  free(tuned);
  json_decref(*root);
  *root = NULL;
  return -1;
}

int embed_choose_db(Ctx *ctx, const Composition *c, const char *db_path, const char *source_hash,
                    const char *device, const char *mode, PtrVec *out) {
  Arena *a = ctx->arena;
  json_t *root;
  Tuned *tuned;
  int ntuned, rc = -1;
  if (tuned_entries(ctx, c, db_path, NULL, source_hash, device, mode, &root, &tuned, &ntuned) != 0)
    return -1;
  PtrVec **tables = arena_alloc(a, (size_t)ntuned * sizeof *tables);
  for (int k = 0; k < ntuned; k++) {
    tables[k] = arena_alloc(a, sizeof **tables);
    json_t *b;
    size_t i;
    json_array_foreach(tuned[k].buckets, i, b) {
      EmbedChoice *ch = bucket_choice(ctx, c, db_path, tuned[k].key, i, b);
      if (!ch)
        goto done;
      ch->table = tuned[k].table;
      vec_push(a, tables[k], ch);
      vec_push(a, out, ch);
    }
  }
  if (ntuned > 1) {
    EmbedTable *pt = arena_alloc(a, sizeof *pt);
    pt->label = "portable";
    pt->note =
        arena_printf(a,
                     "portable, for any other GPU: per size, the choice with the best worst\n"
                     "//      case over the %d tuned GPUs: among their winners that every GPU "
                     "runs,\n"
                     "//      the winner on the most of them (ties: fewer launches, "
                     "deterministic,\n"
                     "//      the GPU listed first); DSL.VS.SV where none runs everywhere",
                     ntuned);
    portable_table(a, c, tables, ntuned, pt, out);
  }
  rc = 0;
done:
  free(tuned);
  json_decref(root);
  return rc;
}

/* One cell of a row or column entry checked against the manifest: the
 * variant exists in this dialect (the composition has the shape's plans
 * only), its block
 * (and RW's threads a row, RB/RL's items) among the manifest's tunables;
 * RL's blocks a row, CT's width and parts are what the embedded call takes
 * (the launcher refuses the rest at run time, which the check would not
 * catch here: say it now). */
static EmbedCell *cell_choice(Ctx *ctx, const Composition *c, const char *db_path, json_t *key,
                              size_t i, json_t *b) {
  Arena *a = ctx->arena;
  Loc at = {db_path, 0, 0};
  EmbedCell *ch = arena_alloc(a, sizeof *ch);
  ch->log2m = (int)json_integer_value(json_object_get(b, "log2m"));
  ch->log2n = (int)json_integer_value(json_object_get(b, "log2n"));
  const char *where = arena_printf(a, "cell %zu (2^%d x 2^%d) of %s", i, ch->log2m, ch->log2n,
                                   entry_name(a, key));
  /* cells are odd (tgm_shape_cell): an even one no shape would ever find */
  if (ch->log2m % 2 == 0 || ch->log2n % 2 == 0 || ch->log2m < 0 || ch->log2n < 0) {
    diag_error(ctx->diag, at,
               "%s: a cell's log2m and log2n are odd (tgm-tune's cells, tgm_shape_cell), so no "
               "shape would find this one",
               where);
    return NULL;
  }
  if (!(ch->plan = chosen_plan(ctx, c, db_path, where, b)))
    return NULL;
  ch->block = (unsigned)json_integer_value(json_object_get(b, "block"));
  ch->items = (unsigned)json_integer_value(json_object_get(b, "items"));
  ch->per_row = (unsigned)json_integer_value(json_object_get(b, "per_row"));
  ch->width = (unsigned)json_integer_value(json_object_get(b, "width"));
  ch->parts = (unsigned)json_integer_value(json_object_get(b, "parts"));
  /* the listed knobs: CT's block; RB's, RL's and RA's items too; RW's threads a row too */
  static const char *const names[3] = {"block", "items", "per_row"};
  const long long knob[3] = {ch->block, ch->items, ch->per_row};
  if (!knobs_listed(ctx, db_path, where, ch->plan, names, knob,
                    grid_cols(ch->plan->g) ? 1
                    : ch->plan->g == G_RW  ? 3
                                           : 2))
    return NULL;
  /* what the launchers refuse (launch_rows.tpl, by the launch rule's own test) */
  const char *why =
      ch->plan->g == G_RL && (ch->per_row < 2 || ch->per_row > 65535)
          ? "per_row (blocks a row) outside 2..65535"
      : ch->plan->g == G_RA && (ch->per_row < 1 || ch->per_row > 65535)
          ? "per_row (blocks a row) outside 1..65535"
      : grid_cols(ch->plan->g) &&
              (!tgm_cols_width_ok(ch->width, ch->block) || ch->parts < 1 || ch->parts > 65535)
          ? "width and parts the launch rule refuses (width a power of two up to the block, "
            "parts 1..65535)"
          : NULL;
  if (why) {
    diag_error(ctx->diag, at, "%s: %s %s: %s", where, ch->plan->id,
               text_comment_safe(a, arena_printf(a, "b%u", ch->block)), why);
    return NULL;
  }
  return ch;
}

int embed_choose_cells(Ctx *ctx, const Composition *c, const char *db_path, const char *source_hash,
                       const char *device, const char *mode, PtrVec *out) {
  Arena *a = ctx->arena;
  json_t *root;
  Tuned *tuned;
  int ntuned, rc = -1;
  if (tuned_entries(ctx, c, db_path, c->rows ? "rows" : "cols", source_hash, device, mode, &root,
                    &tuned, &ntuned) != 0)
    return -1;
  for (int k = 0; k < ntuned; k++) {
    json_t *b;
    size_t i;
    json_array_foreach(tuned[k].buckets, i, b) {
      EmbedCell *ch = cell_choice(ctx, c, db_path, tuned[k].key, i, b);
      if (!ch)
        goto done;
      ch->table = tuned[k].table;
      vec_push(a, out, ch);
    }
  }
  rc = 0;
done:
  free(tuned);
  json_decref(root);
  return rc;
}

/* ------------------------------------------------------------- the header */

/* s as a C string literal: printable ASCII as it is, every other byte (and
 * the quote, the backslash and the question mark) as an octal escape, so
 * the bytes are exactly the database's. */
const char *embed_c_string(Arena *a, const char *s) {
  Buf b = {0};
  buf_puts(&b, "\"");
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\' || *p == '?')
      buf_printf(&b, "\\%03o", *p);
    else
      buf_printf(&b, "%c", *p);
  }
  buf_puts(&b, "\"");
  const char *r = arena_strdup(a, b.data);
  buf_free(&b);
  return r;
}

/* The tables in order of first appearance in choices. */
static void tables_of(Arena *a, const PtrVec *choices, PtrVec *tables) {
  for (int i = 0; i < choices->len; i++) {
    const EmbedTable *t = ((const EmbedChoice *)choices->items[i])->table;
    bool seen = false;
    for (int j = 0; j < tables->len && !seen; j++)
      seen = tables->items[j] == t;
    if (!seen)
      vec_push(a, tables, (void *)t);
  }
}

/* The index of ch's (variant, knobs) among the distinct ones, added when new. */
static int choice_index(Arena *a, PtrVec *distinct, const EmbedChoice *ch) {
  for (int i = 0; i < distinct->len; i++)
    if (same_choice(distinct->items[i], ch))
      return i;
  vec_push(a, distinct, (void *)ch);
  return distinct->len - 1;
}

/* The grid cap a choice passes: blocks per SM times the SMs, or 1 (unused). */
static const char *cap_arg(Arena *a, const EmbedChoice *ch) {
  return is_strided(ch->plan) ? arena_printf(a, "sms * %u", ch->cap) : "1";
}

/* The entry point's holes: its name (tgm_NAME_TYPE, or tgm_NAME_rows_TYPE
 * for --rows and --cols), the kernels' namespace, the inputs and parameters
 * in the caller's types and in the namespace's, the result type, what it
 * computes and the dialect's host names. */
void embed_fill_signature(TplDict *d, Arena *a, const Composition *c) {
  const Spectrum *s = c->spec;
  const ElemInfo *ei = elem_info(c->elem);
  tpl_setf(d, "fname", "tgm_%s%s_%s", c->name,
           c->rows   ? "_rows"
           : c->cols ? "_cols"
                     : "",
           ei->name);
  tpl_setf(d, "namespace", "tgm_kernels_%s", gen_base_name(a, c));
  const char *sig_t = ei->host_ctype;
  { /* the inputs and parameters: in the caller's types (T is not in scope
       there), and inside the namespace */
    Buf decls = {0}, args = {0}, pdecls = {0}, pargs = {0}, ns_decls = {0}, ns_args = {0};
    for (int i = 0; i < s->inputs.len; i++) {
      const char *nm = ((const SpecInput *)s->inputs.items[i])->name;
      buf_printf(&decls, "%sconst %s *d_%s", i ? ", " : "", sig_t, nm);
      buf_printf(&args, "%sd_%s", i ? ", " : "", nm);
      buf_printf(&ns_decls, "%sconst T *%s", i ? ", " : "", nm);
      buf_printf(&ns_args, "%s%s", i ? ", " : "", nm);
    }
    for (int i = 0; i < s->params.len; i++) {
      const SpecParam *p = s->params.items[i];
      buf_printf(&pdecls, ", %s %s", p->ty->kind == TY_ELEM ? sig_t : p->ctype, p->name);
      buf_printf(&pargs, ", %s", p->name);
    }
    tpl_set(d, "embed_in_decls", arena_strdup(a, decls.data));
    /* the name cub::DeviceReduce gives what a plain fold of + max min
       computes, and the guard that defines it once for its type */
    const char *cub = !spectrum_is_plain(s) ? ""
                      : s->op == OP_ADD     ? "Sum"
                      : s->op == OP_MAX     ? "Max"
                      : s->op == OP_MIN     ? "Min"
                                            : "";
    tpl_set(d, "cub_name", cub);
    char *guard = arena_printf(a, "TGM_DEVICE_REDUCE_%s_%s", cub, ei->name);
    for (char *g = guard; *g; g++)
      *g = (char)toupper((unsigned char)*g);
    tpl_set(d, "cub_guard", guard);
    /* int64_t is long where long has 64 bits (LP64), not long long: CUB's
       call over int64_t buffers needs that overload too */
    tpl_set(d, "cub_long",
            !strcmp(sig_t, "long long")            ? "long"
            : !strcmp(sig_t, "unsigned long long") ? "unsigned long"
                                                   : "");
    { /* the same call over int64_t (uint64_t) buffers, where that is long
         (LP64) and the call's type long long: a template on L = long, so
         that a nullptr (a size query) still picks the call itself */
      const char *lt = !strcmp(sig_t, "long long")            ? "long"
                       : !strcmp(sig_t, "unsigned long long") ? "unsigned long"
                                                              : "";
      Buf ld = {0}, la = {0};
      for (int i = 0; i < s->inputs.len; i++) {
        const char *nm = ((const SpecInput *)s->inputs.items[i])->name;
        buf_printf(&ld, "%sconst L *d_%s", i ? ", " : "", nm);
        buf_printf(&la, "%sreinterpret_cast<const %s *>(d_%s)", i ? ", " : "", sig_t, nm);
      }
      bool same_out = s->result_ty->kind == TY_ELEM;
      tpl_set(d, "long_t", lt);
      tpl_set(d, "sig_t", sig_t);
      tpl_set(d, "long_in_decls", arena_strdup(a, ld.data));
      tpl_set(d, "long_in_args", arena_strdup(a, la.data));
      tpl_set(d, "long_out_arg",
              same_out ? arena_printf(a, "reinterpret_cast<%s *>(d_out)", sig_t) : "d_out");
      buf_free(&ld);
      buf_free(&la);
    }
    tpl_set(d, "embed_in_args", arena_strdup(a, args.data));
    tpl_set(d, "embed_param_decls", pdecls.data ? arena_strdup(a, pdecls.data) : "");
    tpl_set(d, "param_args", pargs.data ? arena_strdup(a, pargs.data) : "");
    tpl_set(d, "in_decls", arena_strdup(a, ns_decls.data));
    tpl_set(d, "in_args", arena_strdup(a, ns_args.data));
    tpl_set(d, "first_in", ((const SpecInput *)s->inputs.items[0])->name);
    tpl_set(d, "param_decls", gen_param_decls(a, c));
    /* an Arg result lives in the kernels' namespace: {key = the index, value} */
    const char *out_t = s->result_ty->kind == TY_ELEM ? sig_t
                        : s->pair ? arena_printf(a, "tgm_kernels_%s::tgm_arg", gen_base_name(a, c))
                                  : s->result_ctype;
    tpl_set(d, "out_t", out_t);
    tpl_set(d, "long_out_t", s->result_ty->kind == TY_ELEM ? "L" : out_t);
    tpl_set(d, "meaning", gen_meaning(a, c));
    { /* names.c renamed a user's name apart from tgm's: the call takes it so */
      Buf r = {0};
      for (int i = 0; i < s->inputs.len; i++) {
        const SpecInput *in = s->inputs.items[i];
        if (strcmp(in->name, in->user) != 0)
          buf_printf(&r, "%sd_%s (input %s)", r.data ? ", " : "", in->name, in->user);
      }
      for (int i = 0; i < s->params.len; i++) {
        const SpecParam *p = s->params.items[i];
        if (strcmp(p->name, p->user) != 0)
          buf_printf(&r, "%s%s (parameter %s)", r.data ? ", " : "", p->name, p->user);
      }
      tpl_set(d, "renamed",
              r.data ? arena_printf(a,
                                    "\n//\n// The codelet's names that tgm's code uses too are "
                                    "renamed here: %s.",
                                    r.data)
                     : "");
      buf_free(&r);
    }
    Buf *bufs[] = {&decls, &args, &pdecls, &pargs, &ns_decls, &ns_args};
    for (size_t i = 0; i < COUNT_OF(bufs); i++)
      buf_free(bufs[i]);
  }
  dialect_set_holes(d, c->target);
}

int gen_embed(Buf *out, Arena *a, const Composition *c, const char *source, const PtrVec *choices,
              const char *how, char *err, size_t errlen) {
  PtrVec plans = {0}, tables = {0}, distinct = {0};
  for (int i = 0; i < choices->len; i++) {
    const EmbedChoice *ch = choices->items[i];
    bool seen = false;
    for (int j = 0; j < plans.len; j++)
      seen |= plans.items[j] == ch->plan;
    if (!seen)
      vec_push(a, &plans, (void *)ch->plan);
    choice_index(a, &distinct, ch);
  }
  tables_of(a, choices, &tables);
  size_t start = out->len;
  if (gen_source(out, a, c, source, &plans, true, err, errlen) != 0)
    return -1;
  TplDict *d = tpl_dict(a, NULL);
  embed_fill_signature(d, a, c);
  tpl_set(d, "chosen_how", text_comment_safe(a, how)); /* holds the database's path */

  /* the choices: each distinct (variant, knobs) once */
  tpl_list(d, "choices");
  for (int i = 0; i < distinct.len; i++) {
    const EmbedChoice *ch = distinct.items[i];
    const Plan *p = ch->plan;
    TplDict *it = tpl_item(d, "choices");
    tpl_setf(it, "index", "%d", i);
    tpl_set(it, "id", p->id);
    tpl_set(it, "cname", p->cname);
    tpl_setf(it, "block", "%u", ch->block);
    tpl_setf(it, "items", "%u", ch->items);
    /* the launcher's ITEMS: its kernel alone is compiled (launch.tpl) */
    tpl_set(it, "items_path",
            p->kernel->per_items ? arena_printf(a, ", %u", tgm_items_path(ch->items)) : "");
    tpl_set(it, "cap_arg", cap_arg(a, ch));
    tpl_set(it, "cap_note",
            is_strided(p)                 ? arena_printf(a, ", %u blocks per SM at most", ch->cap)
            : !p->partials && !p->counter ? ": no temp storage"
                                          : "");
    tpl_set(it, "counter", p->counter ? "1" : "");
    tpl_set(it, "grid_enum", gen_grid_enum(p->grid_rule));
    tpl_set(it, "temp_expr",
            p->partials || p->counter
                ? arena_printf(a,
                               "tgm_temp_need(tgm_grid(%s, nullptr, n, %u, %u, %s), sizeof(A), %d, "
                               "%d)",
                               gen_grid_enum(p->grid_rule), ch->block, ch->items, cap_arg(a, ch),
                               p->partials, p->counter)
                : "0");
  }

  /* the tables: the tuned GPUs' (in the database's order), then the portable one */
  tpl_list(d, "tables");
  Buf notes = {0};
  int portable = tables.len - 1;
  for (int t = 0; t < tables.len; t++) {
    const EmbedTable *tb = tables.items[t];
    TplDict *it = tpl_item(d, "tables");
    tpl_setf(it, "tindex", "%d", t);
    tpl_set(it, "label", text_comment_safe(a, tb->label));
    buf_printf(&notes, "\n//   %d. %s", t, tb->note); /* comment-safe already */
    if (!tb->device)
      portable = t;
    tpl_list(it, "rows");
    int count = 0;
    for (int i = 0; i < choices->len; i++) {
      const EmbedChoice *ch = choices->items[i];
      if (ch->table != tb)
        continue;
      count++;
      tpl_setf(tpl_item(it, "rows"), "row", "{%d, %d}, // 2^%d..2^%d: %s, block %u, items %u%s",
               ch->to, choice_index(a, &distinct, ch), ch->from, ch->to, ch->plan->id, ch->block,
               ch->items,
               is_strided(ch->plan) ? arena_printf(a, ", %u blocks per SM", ch->cap) : "");
    }
    tpl_setf(it, "table_row", "{%s, %s, %d, %d, %d, %d, tgm_buckets_%d},",
             embed_c_string(a, tb->label), tb->device ? embed_c_string(a, tb->device) : "nullptr",
             tb->cc_major, tb->cc_minor, tb->sms, count, t);
  }
  if (tables.len > 1)
    buf_puts(&notes,
             "\n// At the first call on a GPU, the table tuned on a GPU of its name, compute\n"
             "// capability and SM count is chosen, else the last one, and kept for that GPU.");
  tpl_set(d, "tables_note", arena_strdup(a, notes.data));
  buf_free(&notes);
  tpl_setf(d, "ntables", "%d", tables.len);
  tpl_setf(d, "portable", "%d", portable);
  tpl_set(d, "several", tables.len > 1 ? "1" : "");
  if (tpl_expand(out, "embed.tpl", tpl_text("embed.tpl"), d, err, errlen) != 0)
    return -1;
  embed_guard(out, start, a, c);
  return 0;
}

/* The header's own short names in capitals (T, A, R, V, BLOCK, ITEMS, N, a
 * parameter K ...: every identifier of capitals and digits outside comments
 * and literals, none of the C library's macros it may use): sorted, each
 * once. An application's `#define N 1024` before the include broke it. */
static void shielded_names(Arena *a, const char *text, size_t len, PtrVec *out) {
  static const char *const library[] = {"INFINITY", "NAN", "NULL", "EOF"};
  for (size_t i = 0; i < len;) {
    size_t past = front_skip_trivia(text, len, i);
    if (past != i) {
      i = past;
      continue;
    }
    const char *p = text + i;
    if (!isalnum((unsigned char)*p) && *p != '_') {
      i++;
      continue;
    }
    size_t n = 0;
    bool caps = isupper((unsigned char)*p);
    while (i + n < len && (isalnum((unsigned char)p[n]) || p[n] == '_')) {
      caps = caps && (isupper((unsigned char)p[n]) || isdigit((unsigned char)p[n]));
      n++;
    }
    i += n;
    const char *id = arena_printf(a, "%.*s", (int)n, p);
    for (size_t k = 0; caps && k < COUNT_OF(library); k++)
      caps = strcmp(id, library[k]) != 0;
    int at = 0; /* sorted insertion, each once */
    while (caps && at < out->len && strcmp(out->items[at], id) < 0)
      at++;
    if (!caps || (at < out->len && strcmp(out->items[at], id) == 0))
      continue;
    vec_push(a, out, NULL);
    memmove(&out->items[at + 1], &out->items[at],
            (size_t)(out->len - 1 - at) * sizeof out->items[0]);
    out->items[at] = (void *)id;
  }
}

/* The include guard of the embedded header in out from `start`: after its
 * banner (the leading comment lines) to its end. The guard names the call
 * and the hash of the header's text: the same header included twice is
 * read once, two different headers of one call in a program stay two (and
 * the compiler says the call is defined twice). Inside it, the header's
 * short names are kept from the application's macros (push_macro, #undef)
 * and the macros given back at its end. */
void embed_guard(Buf *out, size_t start, Arena *a, const Composition *c) {
  const char *text = out->data + start;
  size_t len = out->len - start, banner = 0;
  while (banner + 1 < len && text[banner] == '/' && text[banner + 1] == '/') {
    const char *nl = memchr(text + banner, '\n', len - banner);
    banner = nl ? (size_t)(nl - text) + 1 : len;
  }
  char hex[33];
  tgm__text_hash(text, len, hex);
  const ElemInfo *ei = elem_info(c->elem);
  char *guard = arena_printf(a, "TGM_EMBED_%s%s_%s_%.8s", c->name,
                             c->rows   ? "_ROWS"
                             : c->cols ? "_COLS"
                                       : "",
                             ei->name, hex);
  for (char *g = guard; *g; g++)
    *g = (char)toupper((unsigned char)*g);
  PtrVec names = {0};
  shielded_names(a, text + banner, len - banner, &names);
  const char *rtc = dialect_hole(c->target, "rtc");
  Buf push = {0}, pop = {0};
  buf_printf(&push,
             "\n// The header's short names, kept from an application's macros of the same\n"
             "// names (#define N 1024 before the include), which its end gives back.\n"
             "#if !defined(%s)\n",
             rtc);
  buf_printf(&pop, "\n#if !defined(%s)\n", rtc);
  for (int i = 0; i < names.len; i++) {
    buf_printf(&push, "#pragma push_macro(\"%s\")\n#undef %s\n", (const char *)names.items[i],
               (const char *)names.items[i]);
    buf_printf(&pop, "#pragma pop_macro(\"%s\")\n", (const char *)names.items[i]);
  }
  buf_puts(&push, "#endif\n");
  buf_puts(&pop, "#endif\n");
  char *rest = arena_alloc(a, len - banner + 1);
  memcpy(rest, text + banner, len - banner);
  rest[len - banner] = '\0';
  out->len = start + banner;
  buf_printf(out, "#ifndef %s\n#define %s\n%s%s%s#endif // %s\n", guard, guard,
             names.len ? push.data : "", rest, names.len ? pop.data : "", guard);
  buf_free(&push);
  buf_free(&pop);
}
