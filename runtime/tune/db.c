// db.c — the tuning database: one JSON file (jansson), rewritten atomically
// after every measured size.
//
//   {"tgm_db": 1, "entries": [{"key": {...}, "results": [...], "buckets": [...]}]}
//
// An entry's key is everything a result depends on (device, compute
// capability, SM count, driver and compiler versions, type, op, mode, the
// manifest's source hash, --deterministic, --hot). Entries of other keys are
// kept as they are, so one file can hold several GPUs.
#include "tune.h"
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

tgm_status tgm__fail(tgm_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
tgm_status tgm__write_atomic(const char *path, const void *data, size_t len);
char *tgm__read_file(const char *path, size_t *len);

struct tune_db {
  char *path;
  json_t *root;
};

static tgm_status save(tune_db *db);

tgm_status tune_db_open(const char *path, tune_db **out) {
  *out = NULL;
  size_t len;
  char *text = tgm__read_file(path, &len);
  json_t *root;
  if (!text) {
    if (errno != ENOENT)
      return tgm__fail(TGM_ERR_IO, "%s: %s", path, strerror(errno));
    root = json_pack("{s:i,s:[]}", "tgm_db", 1, "entries");
  } else {
    json_error_t err;
    root = json_loadb(text, len, 0, &err);
    free(text);
    if (!root)
      return tgm__fail(TGM_ERR_DB_CORRUPT,
                       "%s:%d:%d: corrupt tuning database (%s); move it away or pass another --db",
                       path, err.line, err.column, err.text);
    json_t *ver = json_object_get(root, "tgm_db");
    json_t *entries = json_object_get(root, "entries");
    if (!json_is_object(root) || !json_is_integer(ver) || !json_is_array(entries)) {
      json_decref(root);
      return tgm__fail(TGM_ERR_DB_FOREIGN,
                       "%s: not a tgm tuning database (no \"tgm_db\" version and \"entries\"); "
                       "it is left alone",
                       path);
    }
    if (json_integer_value(ver) != 1) {
      json_decref(root);
      return tgm__fail(TGM_ERR_DB_FOREIGN, "%s: tuning database version %lld, this tgm reads 1",
                       path, (long long)json_integer_value(ver));
    }
    size_t i;
    json_t *e;
    json_array_foreach(entries, i, e) {
      if (!json_is_object(json_object_get(e, "key")) ||
          !json_is_array(json_object_get(e, "results"))) {
        json_decref(root);
        return tgm__fail(TGM_ERR_DB_CORRUPT, "%s: entry %zu has no key or results", path, i);
      }
    }
  }
  tune_db *db = calloc(1, sizeof *db);
  db->path = strdup(path);
  db->root = root;
  if (!text) { // a new file: write it now, so an unwritable path fails before any work
    tgm_status s = save(db);
    if (s != TGM_OK) {
      tune_db_close(db);
      return s;
    }
  }
  *out = db;
  return TGM_OK;
}

void tune_db_close(tune_db *db) {
  if (!db)
    return;
  json_decref(db->root);
  free(db->path);
  free(db);
}

int tune_db_entries(tune_db *db) { return (int)json_array_size(json_object_get(db->root, "entries")); }

static json_t *key_json(const tune_key *k) {
  return json_pack("{s:s,s:s,s:i,s:i,s:s,s:s,s:s,s:s,s:s,s:b,s:b}", "device", k->device, "cc", k->cc,
                   "sm_count", k->sm_count, "driver", k->driver, "compiler", k->compiler, "type",
                   k->type, "op", k->op, "mode", k->mode, "source_hash", k->source_hash,
                   "deterministic", k->deterministic, "hot_l2", k->hot);
}

static json_t *find_entry(tune_db *db, const tune_key *k, int create) {
  json_t *want = key_json(k);
  json_t *entries = json_object_get(db->root, "entries"), *e;
  size_t i;
  json_array_foreach(entries, i, e) {
    if (json_equal(json_object_get(e, "key"), want)) {
      json_decref(want);
      return e;
    }
  }
  if (!create) {
    json_decref(want);
    return NULL;
  }
  e = json_pack("{s:o,s:[],s:[]}", "key", want, "results", "buckets");
  json_array_append_new(entries, e);
  return e;
}

static int result_of(json_t *o, tune_result *r) {
  memset(r, 0, sizeof *r);
  const char *v = json_string_value(json_object_get(o, "variant"));
  if (!v || !json_is_integer(json_object_get(o, "log2n")))
    return 0;
  r->log2n = (int)json_integer_value(json_object_get(o, "log2n"));
  snprintf(r->variant, sizeof r->variant, "%s", v);
  r->block = (unsigned)json_integer_value(json_object_get(o, "block"));
  r->items = (unsigned)json_integer_value(json_object_get(o, "items"));
  r->cap = (unsigned)json_integer_value(json_object_get(o, "grid_cap_per_sm"));
  r->us = json_number_value(json_object_get(o, "us"));
  r->us_p25 = json_number_value(json_object_get(o, "us_p25"));
  r->us_p75 = json_number_value(json_object_get(o, "us_p75"));
  r->gbps = json_number_value(json_object_get(o, "gbps"));
  r->cub_us = json_number_value(json_object_get(o, "cub_us"));
  return 1;
}

int tune_db_get(tune_db *db, const tune_key *key, int log2n, tune_result *out) {
  json_t *e = find_entry(db, key, 0), *o;
  if (!e)
    return 0;
  size_t i;
  json_array_foreach(json_object_get(e, "results"), i, o) {
    if (json_integer_value(json_object_get(o, "log2n")) == log2n)
      return result_of(o, out);
  }
  return 0;
}

static tgm_status save(tune_db *db) {
  char *text = json_dumps(db->root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
  if (!text)
    return tgm__fail(TGM_ERR_MEMORY, "cannot serialise the database");
  size_t len = strlen(text);
  text[len] = '\n'; // json_dumps leaves room for the terminator only: rewrite it
  tgm_status s = tgm__write_atomic(db->path, text, len + 1);
  free(text);
  return s;
}

tgm_status tune_db_put(tune_db *db, const tune_key *key, const tune_result *r) {
  json_t *e = find_entry(db, key, 1);
  json_t *res = json_object_get(e, "results"), *o;
  json_t *row = json_pack("{s:i,s:s,s:i,s:i,s:i,s:f,s:f,s:f,s:f,s:f}", "log2n", r->log2n,
                          "variant", r->variant, "block", (int)r->block, "items", (int)r->items,
                          "grid_cap_per_sm", (int)r->cap, "us", r->us, "us_p25", r->us_p25,
                          "us_p75", r->us_p75, "gbps", r->gbps, "cub_us", r->cub_us);
  size_t i, at = json_array_size(res);
  json_array_foreach(res, i, o) {
    if (json_integer_value(json_object_get(o, "log2n")) == r->log2n) {
      json_array_set_new(res, i, row);
      return save(db);
    }
    if (json_integer_value(json_object_get(o, "log2n")) > r->log2n && at == json_array_size(res))
      at = i;
  }
  json_array_insert_new(res, at, row);
  return save(db);
}

tgm_status tune_db_finish(tune_db *db, const tune_key *key) {
  json_t *e = find_entry(db, key, 1);
  json_t *res = json_object_get(e, "results"), *o;
  json_t *buckets = json_array();
  json_t *cur = NULL;
  size_t i;
  json_array_foreach(res, i, o) {
    tune_result r;
    if (!result_of(o, &r))
      continue;
    if (cur && !strcmp(json_string_value(json_object_get(cur, "variant")), r.variant) &&
        json_integer_value(json_object_get(cur, "block")) == r.block &&
        json_integer_value(json_object_get(cur, "items")) == r.items &&
        json_integer_value(json_object_get(cur, "grid_cap_per_sm")) == r.cap &&
        json_integer_value(json_object_get(cur, "to_log2n")) == r.log2n - 1) {
      json_object_set_new(cur, "to_log2n", json_integer(r.log2n));
      continue;
    }
    cur = json_pack("{s:i,s:i,s:s,s:i,s:i,s:i}", "from_log2n", r.log2n, "to_log2n", r.log2n,
                    "variant", r.variant, "block", (int)r.block, "items", (int)r.items,
                    "grid_cap_per_sm", (int)r.cap);
    json_array_append_new(buckets, cur);
  }
  json_object_set_new(e, "buckets", buckets);
  return save(db);
}
