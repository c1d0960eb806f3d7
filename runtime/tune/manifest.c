// manifest.c — reads the JSON manifest tgm-gen writes beside the sources.
#include "tune.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>

#include "../src/internal.h" // tgm__fail

#define BAD(...) (tgm__fail(TGM_ERR_MANIFEST, __VA_ARGS__), -1)

static char *str_of(json_t *o, const char *k) {
  json_t *s = json_object_get(o, k);
  return json_is_string(s) ? strdup(json_string_value(s)) : NULL;
}

static int read_uints(json_t *a, unsigned *out, int cap, int *n) {
  *n = 0;
  if (!a)
    return 0;
  if (json_is_array(a) && json_array_size(a) > (size_t)cap)
    return -2; // more values than a variant may have
  if (!json_is_array(a) || json_array_size(a) == 0)
    return -1;
  size_t i;
  json_t *x;
  json_array_foreach(a, i, x) {
    if (!json_is_integer(x) || json_integer_value(x) <= 0 || json_integer_value(x) > 65536)
      return -1;
    out[(*n)++] = (unsigned)json_integer_value(x);
  }
  return 0;
}

size_t tune_type_size(tune_type t) {
  return t == TUNE_PAIR                                    ? 16
         : t == TUNE_BOOL                                  ? 1
         : t == TUNE_I32 || t == TUNE_U32 || t == TUNE_F32 ? 4
                                                           : 8;
}

const char *tune_type_name(tune_type t) {
  static const char *names[] = {"i32", "u32", "i64", "u64", "f32", "f64", "pair", "bool"};
  return names[t];
}

// A C type as the manifest spells it ("T": the element type).
static int type_of_c(const char *c, tune_type elem, tune_type *out) {
  static const struct {
    const char *c;
    tune_type t;
  } types[] = {{"int", TUNE_I32},
               {"signed", TUNE_I32},
               {"unsigned", TUNE_U32},
               {"unsigned int", TUNE_U32},
               {"long long", TUNE_I64},
               {"long", TUNE_I64},
               {"unsigned long long", TUNE_U64},
               {"unsigned long", TUNE_U64},
               {"float", TUNE_F32},
               {"double", TUNE_F64},
               {"bool", TUNE_BOOL}};
  if (c && !strcmp(c, "T")) {
    *out = elem;
    return 0;
  }
  if (c && !strcmp(c, "tgm_arg") && elem != TUNE_PAIR) { // an element's value and index
    *out = TUNE_PAIR;
    return 0;
  }
  for (size_t i = 0; c && i < sizeof types / sizeof types[0]; i++)
    if (!strcmp(c, types[i].c)) {
      *out = types[i].t;
      return 0;
    }
  return -1;
}

// The manifest's inputs and parameters, for "in:NAME" and "param:NAME".
typedef struct {
  int n_inputs, n_params;
  char **inputs, **params;
  tune_shape shape; // which grid rules and arguments a launch may have
} arg_names;

static int read_launch(const char *path, const char *id, json_t *l, size_t i, tune_launch *t,
                       const arg_names *an);

static int read_launches(const char *path, const char *id, json_t *a, tune_launch *out, int cap,
                         int *n, const arg_names *names) {
  *n = 0;
  if (json_is_array(a) && json_array_size(a) > (size_t)cap)
    return BAD("%s: variant %s: %zu launches; the limit is %d", path, id, json_array_size(a), cap);
  if (!json_is_array(a) || json_array_size(a) == 0)
    return BAD("%s: variant %s: bad launch list", path, id);
  size_t i;
  json_t *l;
  json_array_foreach(a, i, l) {
    if (read_launch(path, id, l, i, &out[(*n)++], names))
      return -1;
  }
  return 0;
}

static int read_launch(const char *path, const char *id, json_t *l, size_t i, tune_launch *t,
                       const arg_names *an) {
  memset(t, 0, sizeof *t);
  if (!json_is_object(l))
    return BAD("%s: variant %s: launch %zu is not an object", path, id, i);
  t->kernel = str_of(l, "kernel");
  t->name_expr = str_of(l, "name_expr");
  char *grid = str_of(l, "grid"), *block = str_of(l, "block");
  // tune_rule's order: the 1-D rules, then those of rows, then columns
  static const char *rules[] = {"one",  "tiles",       "tiles_vec",  "strided",     "strided_vec",
                                "rows", "rows_group",  "rows_parts", "rows_atomic", "rows_init",
                                "cols", "cols_atomic", "cols_init"};
  int rule = -1;
  for (int r = 0; grid && r < (int)(sizeof rules / sizeof *rules); r++)
    if (!strcmp(grid, rules[r]))
      rule = r;
  // a row or column manifest's variants launch by its rules; the reference
  // kernel (block 1024, once a row) and 1-D manifests by the 1-D ones
  int lo = RULE_ONE, hi = RULE_STRIDED_VEC;
  if (an->shape != TUNE_SHAPE_1D && strcmp(id, "reference")) {
    lo = an->shape == TUNE_SHAPE_ROWS ? RULE_ROWS : RULE_COLS;
    hi = an->shape == TUNE_SHAPE_ROWS ? RULE_ROWS_INIT : RULE_COLS_INIT;
  }
  if (rule < lo || rule > hi)
    rule = -1;
  // "BLOCK" (the knob) or a fixed size: "1" (tgm_init), "1024" (the reference)
  char *end = NULL;
  unsigned long fixed = block && strcmp(block, "BLOCK") ? strtoul(block, &end, 10) : 0;
  int ok = t->kernel && t->name_expr && rule >= 0 && block &&
           (!strcmp(block, "BLOCK") ||
            (block[0] >= '1' && block[0] <= '9' && end && !*end && fixed >= 1 && fixed <= 1024));
  t->rule = (tune_rule)rule;
  t->block_fixed = ok ? (unsigned)fixed : 0;
  free(grid);
  free(block);
  if (!ok)
    return BAD("%s: variant %s: bad launch %zu (kernel, name_expr, grid, block)", path, id, i);
  json_t *args = json_object_get(l, "args"), *x;
  size_t k;
  if (json_is_array(args) && json_array_size(args) > TUNE_MAX_ARGS)
    return BAD("%s: variant %s: launch %zu has %zu arguments; the limit is %d", path, id, i,
               json_array_size(args), TUNE_MAX_ARGS);
  if (!json_is_array(args))
    return BAD("%s: variant %s: bad args", path, id);
  json_array_foreach(args, k, x) {
    // tune_arg's order; m, ld and width in row and column manifests only
    static const char *names[] = {"in",    "n",    "out", "partials", "counter",
                                  "items", "grid", "m",   "ld",       "width"};
    const char *s = json_string_value(x);
    int found = -1, index = 0;
    for (int a2 = 0; s && a2 < (an->shape == TUNE_SHAPE_1D ? 7 : 10); a2++)
      if (!strcmp(s, names[a2]))
        found = a2;
    const char *colon = s ? strchr(s, ':') : NULL;
    if (found < 0 && colon && (!strncmp(s, "in:", 3) || !strncmp(s, "param:", 6))) {
      int is_in = s[0] == 'i';
      int count = is_in ? an->n_inputs : an->n_params;
      char **list = is_in ? an->inputs : an->params;
      for (int q = 0; q < count; q++)
        if (!strcmp(colon + 1, list[q]))
          found = is_in ? ARG_IN : ARG_PARAM, index = q;
    }
    if (found < 0)
      return BAD("%s: variant %s: unknown argument '%s'", path, id, s ? s : "(not a string)");
    t->args[t->n_args] = (tune_arg)found;
    t->arg_index[t->n_args++] = index;
  }
  return 0;
}

static int read_variant(const char *path, json_t *o, tune_variant *v, const arg_names *an) {
  memset(v, 0, sizeof *v);
  v->id = str_of(o, "id");
  v->kernel = str_of(o, "kernel");
  if (!v->id || !v->kernel)
    return BAD("%s: a variant without id or kernel", path);
  if (strlen(v->id) > TUNE_ID_MAX)
    return BAD("%s: variant id '%.40s...' is %zu characters; the limit is %d", path, v->id,
               strlen(v->id), TUNE_ID_MAX);
  v->deterministic = json_is_true(json_object_get(o, "deterministic"));
  const char *arch = json_string_value(json_object_get(o, "min_arch"));
  v->min_sm = arch && !strncmp(arch, "sm_", 3) ? atoi(arch + 3) : 0;
  json_t *d = json_object_get(o, "dialects"), *x;
  size_t i;
  json_array_foreach(d, i, x) {
    if (json_is_string(x) && !strcmp(json_string_value(x), "cuda"))
      v->cuda = 1;
    if (json_is_string(x) && !strcmp(json_string_value(x), "hip"))
      v->hip = 1;
  }
  json_t *temp = json_object_get(o, "temp");
  v->partials = json_is_true(json_object_get(temp, "partials"));
  v->counter = json_is_true(json_object_get(temp, "counter"));
  const char *thread = json_string_value(json_object_get(o, "thread"));
  v->vec = thread && !strcmp(thread, "SV");
  v->packed_rows = json_is_true(json_object_get(o, "packed_rows"));
  json_t *t = json_object_get(o, "tunables");
  // the knobs of each shape: 1-D, rows, columns (block first, always there)
  static const char *knobs[3][3] = {{"block", "items", "grid_cap_per_sm"},
                                    {"block", "items", "per_row"},
                                    {"block", "parts", "width"}};
  unsigned *lists[3][3] = {{v->blocks, v->items, v->caps},
                           {v->blocks, v->items, v->per_row},
                           {v->blocks, v->parts, v->widths}};
  int *counts[3][3] = {{&v->n_blocks, &v->n_items, &v->n_caps},
                       {&v->n_blocks, &v->n_items, &v->n_per_row},
                       {&v->n_blocks, &v->n_parts, &v->n_widths}};
  const int sh = (int)an->shape;
  const char *knob_names = sh == 0   ? "block, items, grid_cap_per_sm"
                           : sh == 1 ? "block, items, per_row"
                                     : "block, parts, width";
  const char *key;
  json_t *val;
  json_object_foreach(t, key, val) {
    int known = 0;
    for (int k = 0; k < 3; k++)
      known |= !strcmp(key, knobs[sh][k]);
    if (!known)
      return BAD("%s: variant %s: tunables.%s: not a knob of this manifest (%s)", path, v->id, key,
                 knob_names);
  }
  for (int k = 0; k < 3; k++) {
    json_t *a = json_object_get(t, knobs[sh][k]);
    int r = read_uints(a, lists[sh][k], TUNE_MAX_KNOBS, counts[sh][k]);
    if (r == -2)
      return BAD("%s: variant %s: tunables.%s has %zu values; the limit is %d", path, v->id,
                 knobs[sh][k], json_array_size(a), TUNE_MAX_KNOBS);
    if (r || (k == 0 && v->n_blocks == 0))
      return BAD("%s: variant %s: bad tunables.%s", path, v->id, knobs[sh][k]);
  }
  if (v->n_items == 0)
    v->items[v->n_items++] = 1;
  if (an->shape != TUNE_SHAPE_1D) { // m = 0 launches nothing
    if (json_object_get(o, "launches_n_positive") || json_object_get(o, "launches_n_zero"))
      return BAD("%s: variant %s: a row or column variant has launches_m_positive only", path,
                 v->id);
    if (read_launches(path, v->id, json_object_get(o, "launches_m_positive"), v->pos,
                      TUNE_MAX_LAUNCHES, &v->n_pos, an))
      return -1;
    // the kernel of the block knob; CA's (cols_atomic) after its tgm_init_out
    // (cols_init), RA's (rows_atomic) after its (rows_init)
    const tune_launch *main = tune_shape_main(v);
    int atomic = main && (main->rule == RULE_COLS_ATOMIC || main->rule == RULE_ROWS_ATOMIC);
    tune_rule init = main && main->rule == RULE_ROWS_ATOMIC ? RULE_ROWS_INIT : RULE_COLS_INIT;
    int ok = main && main == &v->pos[v->n_pos - 1] && !tune_rule_init(main->rule) &&
             v->n_pos == (atomic ? 2 : 1) &&
             (!atomic || (v->pos[0].rule == init && v->pos[0].block_fixed));
    if (!ok)
      return BAD("%s: variant %s: launches_m_positive: one kernel of the block knob (cols_atomic, "
                 "rows_atomic: after one cols_init, rows_init launch of a fixed block)",
                 path, v->id);
    return 0;
  }
  if (read_launches(path, v->id, json_object_get(o, "launches_n_positive"), v->pos,
                    TUNE_MAX_LAUNCHES, &v->n_pos, an))
    return -1;
  if (read_launches(path, v->id, json_object_get(o, "launches_n_zero"), v->zero, TUNE_MAX_ZERO,
                    &v->n_zero, an))
    return -1;
  return 0;
}

// "meaning": inputs, parameters and their types, accumulator and result.
static int read_meaning(const char *path, json_t *root, tune_manifest *m) {
  json_t *meaning = json_object_get(root, "meaning");
  if (type_of_c(m->ctype, TUNE_I32, &m->elem) || m->elem == TUNE_PAIR || m->elem == TUNE_BOOL)
    return BAD("%s: element type '%s' is not one the tuner knows", path, m->ctype);
  m->acc = m->res = m->elem;
  if (!meaning) { // older manifests: a plain fold of one input
    m->plain = 1;
    m->n_inputs = 1;
    m->inputs[0] = strdup("in");
    return 0;
  }
  m->plain = json_is_true(json_object_get(meaning, "plain"));
  const char *ik = json_string_value(json_object_get(meaning, "identity_kind"));
  static const char *const kinds[] = {"zero", "one", "ones", "lowest", "highest"};
  for (int k = 0; ik && k < 5; k++)
    if (!strcmp(ik, kinds[k]))
      m->identity = TUNE_ID_ZERO + k;
  if (ik && !m->identity)
    return BAD("%s: meaning.identity_kind: zero, one, ones, lowest or highest (got '%s')", path,
               ik);
  m->text = str_of(meaning, "text");
  json_t *ins = json_object_get(meaning, "inputs"), *prm = json_object_get(meaning, "params"), *x;
  if (!json_is_array(ins) || json_array_size(ins) == 0 || json_array_size(ins) > TUNE_MAX_INPUTS)
    return BAD("%s: meaning.inputs: 1 to %d input names", path, TUNE_MAX_INPUTS);
  if (prm && (!json_is_array(prm) || json_array_size(prm) > TUNE_MAX_PARAMS))
    return BAD("%s: meaning.params: at most %d parameters", path, TUNE_MAX_PARAMS);
  size_t i;
  json_array_foreach(ins, i, x) {
    if (!json_is_string(x))
      return BAD("%s: meaning.inputs: names", path);
    m->inputs[m->n_inputs++] = strdup(json_string_value(x));
  }
  json_array_foreach(prm, i, x) {
    char *name = str_of(x, "name"), *ctype = str_of(x, "ctype");
    tune_type t;
    int bad = !name || type_of_c(ctype, m->elem, &t) || t == TUNE_PAIR;
    if (bad) {
      int r = BAD("%s: meaning.params[%zu]: a name and a C type the tuner knows (got '%s')", path,
                  i, ctype ? ctype : "");
      free(name);
      free(ctype);
      return r;
    }
    free(ctype);
    m->param_names[m->n_params] = name;
    m->param_types[m->n_params++] = t;
  }
  const char *acc = json_string_value(json_object_get(meaning, "accumulator"));
  const char *res = json_string_value(json_object_get(meaning, "result"));
  if (type_of_c(acc, m->elem, &m->acc) || type_of_c(res, m->elem, &m->res))
    return BAD("%s: meaning: accumulator '%s' or result '%s' is not a type the tuner knows", path,
               acc ? acc : "", res ? res : "");
  return 0;
}

tgm_status tune_manifest_read(const char *path, tune_manifest *m) {
  memset(m, 0, sizeof *m);
  struct stat st;
  if (stat(path, &st) != 0)
    return tgm__fail(TGM_ERR_MANIFEST, "%s: %s", path, strerror(errno));
  if (S_ISDIR(st.st_mode))
    return tgm__fail(TGM_ERR_MANIFEST,
                     "%s: a folder, not a manifest (tgm-gen -o writes "
                     "NAME_TYPE.json into it)",
                     path);
  if (!S_ISREG(st.st_mode))
    return tgm__fail(TGM_ERR_MANIFEST, "%s: not a file (a FIFO, a device, ...)", path);
  size_t len = 0;
  char *text = tgm__read_file(path, &len); // a regular file only (one swapped in: no wait)
  if (!text)
    return tgm__fail(TGM_ERR_MANIFEST, "%s: %s", path,
                     errno == EINVAL ? "not a file (a FIFO, a device, ...)" : strerror(errno));
  json_error_t err;
  json_t *root = json_loadb(text, len, 0, &err);
  free(text);
  if (!root)
    return tgm__fail(TGM_ERR_MANIFEST, "%s:%d:%d: not a manifest: %s", path, err.line, err.column,
                     err.text);
  tgm_status s = TGM_OK;
  if (json_integer_value(json_object_get(root, "tgm_manifest")) != 1) {
    s = tgm__fail(TGM_ERR_MANIFEST, "%s: not a tgm manifest (no \"tgm_manifest\": 1)", path);
    goto out;
  }
  json_t *shape = json_object_get(root, "shape"); /* tgm-gen --rows, --cols */
  if (shape) {
    const char *sn = json_string_value(shape);
    m->shape = sn && !strcmp(sn, "rows")   ? TUNE_SHAPE_ROWS
               : sn && !strcmp(sn, "cols") ? TUNE_SHAPE_COLS
                                           : TUNE_SHAPE_1D;
    if (m->shape == TUNE_SHAPE_1D) {
      s = tgm__fail(TGM_ERR_MANIFEST, "%s: shape '%s': rows or cols (tgm-gen --rows, --cols)", path,
                    sn ? sn : "(not a string)");
      goto out;
    }
  }
  m->path = strdup(path);
  const char *slash = strrchr(path, '/');
  m->dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
  json_t *src = json_object_get(root, "sources");
  m->cuda_source = str_of(src, "cuda");
  m->hip_source = str_of(src, "hip");
  m->cub_source = str_of(src, "cub");
  // file names beside the manifest, never paths elsewhere
  const char *names[] = {m->cuda_source, m->hip_source, m->cub_source};
  for (int i = 0; i < 3; i++)
    if (names[i] && (strchr(names[i], '/') || !names[i][0] || !strcmp(names[i], ".."))) {
      s = tgm__fail(TGM_ERR_MANIFEST, "%s: sources: '%s' is not a file name beside the manifest",
                    path, names[i]);
      goto out;
    }
  // the hash of every file named: required (a manifest of an older tgm-gen
  // has none: make it again)
  json_t *hashes = json_object_get(root, "sources_hash");
  const struct {
    const char *dialect, *file;
    char *hash;
  } named[] = {{"cuda", m->cuda_source, m->cuda_hash},
               {"hip", m->hip_source, m->hip_hash},
               {"cub", m->cub_source, m->cub_hash}};
  for (int i = 0; i < 3; i++) {
    if (!named[i].file)
      continue;
    const char *h = json_string_value(json_object_get(hashes, named[i].dialect));
    size_t hex = h ? strspn(h, "0123456789abcdef") : 0;
    if (!h || hex != 32 || h[hex]) {
      s = tgm__fail(TGM_ERR_MANIFEST, "%s: sources_hash has no hash (32 hex digits) of %s '%s'%s",
                    path, named[i].dialect, named[i].file,
                    hashes ? ""
                           : " (a manifest of an older tgm-gen: make it again with tgm-gen -o)");
      goto out;
    }
    memcpy(named[i].hash, h, 33);
  }
  m->source_hash = str_of(root, "source_hash");
  m->spectrum = str_of(root, "spectrum");
  m->type = str_of(root, "type");
  m->ctype = str_of(root, "ctype");
  m->op = str_of(root, "op");
  m->ns = str_of(root, "namespace");
  if (!m->source_hash || !m->spectrum || !m->type || !m->op || !m->ns || !m->ctype) {
    s = tgm__fail(TGM_ERR_MANIFEST, "%s: missing source_hash/spectrum/type/op/namespace", path);
    goto out;
  }
  // what goes into a database key: refused when longer, never cut
  const struct {
    const char *name, *value;
    size_t max;
  } keyed[] = {{"source_hash", m->source_hash, TUNE_ID_MAX},
               {"type", m->type, 15},
               {"op", m->op, 15}};
  for (int k = 0; k < 3; k++) {
    if (strlen(keyed[k].value) > keyed[k].max) {
      s = tgm__fail(TGM_ERR_MANIFEST, "%s: %s '%.40s...' is %zu characters; the limit is %zu", path,
                    keyed[k].name, keyed[k].value, strlen(keyed[k].value), keyed[k].max);
      goto out;
    }
  }
  if (read_meaning(path, root, m) != 0) {
    s = TGM_ERR_MANIFEST;
    goto out;
  }
  arg_names an = {m->n_inputs, m->n_params, m->inputs, m->param_names, m->shape};
  json_t *vs = json_object_get(root, "variants");
  if (!json_is_array(vs) || json_array_size(vs) == 0) {
    s = tgm__fail(TGM_ERR_MANIFEST, "%s: no variants", path);
    goto out;
  }
  m->v = calloc(json_array_size(vs), sizeof *m->v);
  size_t i;
  json_t *o;
  json_array_foreach(vs, i, o) {
    if (read_variant(path, o, &m->v[m->n_v], &an)) {
      m->n_v++;
      s = TGM_ERR_MANIFEST;
      goto out;
    }
    m->v[m->n_v].index = m->n_v;
    m->n_v++;
  }
  // the variants the rule's pick runs, by kind (rows and columns; optional:
  // an older tgm-gen lists none, and tgm-tune then has no formula to time)
  for (int r = 0; r < TUNE_PICK_ROLES; r++)
    m->pick_v[r] = -1;
  json_t *pv = json_object_get(root, "pick_variants");
  if (pv && (m->shape == TUNE_SHAPE_1D || !json_is_object(pv))) {
    s = tgm__fail(TGM_ERR_MANIFEST, "%s: pick_variants: an object, of row or column manifests only",
                  path);
    goto out;
  }
  for (int r = 0; pv && r < TUNE_PICK_ROLES; r++) {
    json_t *id = json_object_get(pv, tune_pick_roles[r]);
    if (!id || json_is_null(id))
      continue;
    for (int k = 0; json_is_string(id) && k < m->n_v; k++)
      if (!strcmp(m->v[k].id, json_string_value(id)))
        m->pick_v[r] = k;
    if (m->pick_v[r] < 0) {
      s = tgm__fail(TGM_ERR_MANIFEST, "%s: pick_variants.%s names no variant of the manifest", path,
                    tune_pick_roles[r]);
      goto out;
    }
  }
  json_t *ref = json_object_get(root, "reference");
  if (ref) {
    m->has_reference = 1; // freed with the manifest, also when it is bad
    if (read_launch(path, "reference", ref, 0, &m->reference, &an)) {
      s = TGM_ERR_MANIFEST;
      goto out;
    }
  }
out:
  json_decref(root);
  if (s != TGM_OK)
    tune_manifest_free(m);
  return s;
}

static void free_launch(tune_launch *l) {
  free(l->kernel);
  free(l->name_expr);
}

tgm_status tune_manifest_source(const tune_manifest *m, tune_src which, char **text, char **path) {
  const char *file = which == TUNE_SRC_CUDA  ? m->cuda_source
                     : which == TUNE_SRC_HIP ? m->hip_source
                                             : m->cub_source;
  const char *want = which == TUNE_SRC_CUDA  ? m->cuda_hash
                     : which == TUNE_SRC_HIP ? m->hip_hash
                                             : m->cub_hash;
  const char *what = which == TUNE_SRC_CUDA  ? "CUDA source"
                     : which == TUNE_SRC_HIP ? "HIP source"
                                             : "CUB baseline";
  *text = NULL;
  *path = NULL;
  if (!file)
    return tgm__fail(TGM_ERR_MANIFEST, "%s names no %s", m->path, what);
  size_t len = strlen(m->dir) + strlen(file) + 2, n = 0;
  if (!(*path = malloc(len)))
    return tgm__fail(TGM_ERR_MEMORY, "out of memory");
  snprintf(*path, len, "%s/%s", m->dir, file);
  if (!(*text = tgm__read_file(*path, &n)))
    return tgm__fail(TGM_ERR_IO, "cannot read the %s %s", what, *path);
  char got[33];
  tgm__text_hash(*text, n, got);
  if (strcmp(got, want)) {
    free(*text);
    *text = NULL;
    return tgm__fail(TGM_ERR_MANIFEST,
                     "the %s %s is not the file tgm-gen wrote with %s (its hash differs: "
                     "edited, or another run's): make them again together (tgm-gen -o)",
                     what, *path, m->path);
  }
  return TGM_OK;
}

void tune_manifest_free(tune_manifest *m) {
  for (int i = 0; i < m->n_v; i++) {
    tune_variant *v = &m->v[i];
    free(v->id);
    free(v->kernel);
    for (int k = 0; k < v->n_pos; k++)
      free_launch(&v->pos[k]);
    for (int k = 0; k < v->n_zero; k++)
      free_launch(&v->zero[k]);
  }
  free(m->v);
  if (m->has_reference)
    free_launch(&m->reference);
  for (int i = 0; i < m->n_inputs; i++)
    free(m->inputs[i]);
  for (int i = 0; i < m->n_params; i++)
    free(m->param_names[i]);
  free(m->text);
  free(m->path);
  free(m->dir);
  free(m->cuda_source);
  free(m->hip_source);
  free(m->cub_source);
  free(m->source_hash);
  free(m->spectrum);
  free(m->type);
  free(m->ctype);
  free(m->op);
  free(m->ns);
  memset(m, 0, sizeof *m);
}

int tune_intern_name(char **names, int *n, char *expr) {
  for (int x = 0; x < *n; x++) {
    if (!strcmp(names[x], expr)) {
      free(expr);
      return x;
    }
  }
  names[*n] = expr;
  return (*n)++;
}

// One placeholder of a name expression's template arguments (after its
// last '<': a spectrum's name may hold the word) replaced by a number
// (none: a copy).
static char *name_with(const char *pattern, const char *word, unsigned value) {
  const char *args = strrchr(pattern, '<');
  const char *at = args ? strstr(args, word) : NULL;
  size_t len = strlen(pattern) + 16;
  char *out = malloc(len);
  if (!out)
    return NULL;
  if (!at)
    snprintf(out, len, "%s", pattern);
  else
    snprintf(out, len, "%.*s%u%s", (int)(at - pattern), pattern, value, at + strlen(word));
  return out;
}

const char *const tune_pick_roles[TUNE_PICK_ROLES] = {"rw_narrow", "rw_wide", "rb", "rl",
                                                      "ct",        "ca",      "ra"};

unsigned tune_variant_items(const tune_variant *v, unsigned items) {
  for (int l = 0; l < v->n_pos; l++) {
    const char *args = strrchr(v->pos[l].name_expr, '<');
    if (args && strstr(args, "ITEMS"))
      return tune_items_path(items);
  }
  return 0;
}

char *tune_name_expr(const char *pattern, unsigned block, unsigned group, unsigned items) {
  char *b = name_with(pattern, "BLOCK", block);
  if (b && group) {
    char *g = name_with(b, "GROUP", group);
    free(b);
    b = g;
  }
  if (b && items) {
    char *i = name_with(b, "ITEMS", tune_items_path(items));
    free(b);
    b = i;
  }
  return b;
}
