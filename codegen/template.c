/* template.c -- tgm's template expander, for the fixed glue around the
 * printed kernels (templates/NAME.tpl, built into tgm-gen).
 *
 *   {{name}}               the value of hole `name`
 *   {{#list}}..{{/list}}   the text once per item of `list`; inside, a hole
 *                          is looked up in the item first, then outside
 *   {{?name}}..{{/name}}   the text only when hole `name` is set, non-empty
 *   {{!text}}              a comment: nothing
 * A line holding nothing but a section tag ({{#x}}, {{?x}}, {{/x}}) leaves
 * no blank line behind. A hole that is not set is an error in the template,
 * reported with its name and line; nothing else is logic. */
#include "tgm.h"

#include <string.h>

typedef struct {
  const char *key;
  const char *value; /* or NULL for a list */
  PtrVec items;      /* TplDict * */
} TplEntry;

struct TplDict {
  Arena *a;
  TplDict *parent;
  PtrVec entries; /* TplEntry * */
};

TplDict *tpl_dict(Arena *a, TplDict *parent) {
  TplDict *d = arena_alloc(a, sizeof *d);
  d->a = a;
  d->parent = parent;
  return d;
}

static TplEntry *find_here(const TplDict *d, const char *key, size_t len) {
  for (int i = 0; i < d->entries.len; i++) {
    TplEntry *e = d->entries.items[i];
    if (strlen(e->key) == len && strncmp(e->key, key, len) == 0)
      return e;
  }
  return NULL;
}

static TplEntry *lookup(const TplDict *d, const char *key, size_t len) {
  for (; d; d = d->parent) {
    TplEntry *e = find_here(d, key, len);
    if (e)
      return e;
  }
  return NULL;
}

static TplEntry *entry(TplDict *d, const char *key) {
  TplEntry *e = find_here(d, key, strlen(key));
  if (!e) {
    e = arena_alloc(d->a, sizeof *e);
    e->key = arena_strdup(d->a, key);
    vec_push(d->a, &d->entries, e);
  }
  return e;
}

void tpl_set(TplDict *d, const char *key, const char *value) {
  entry(d, key)->value = arena_strdup(d->a, value ? value : "");
}

void tpl_setf(TplDict *d, const char *key, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  Buf b = {0};
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  tpl_set(d, key, b.data ? b.data : "");
  buf_free(&b);
}

void tpl_list(TplDict *d, const char *list) { entry(d, list); }

TplDict *tpl_item(TplDict *d, const char *list) {
  TplEntry *e = entry(d, list);
  TplDict *item = tpl_dict(d->a, d);
  vec_push(d->a, &e->items, item);
  return item;
}

typedef struct {
  const char *name; /* the template, for errors */
  const char *text;
  char *err;
  size_t errlen;
} Tpl;

static int line_of(const Tpl *t, const char *p) {
  int line = 1;
  for (const char *q = t->text; q < p; q++)
    line += *q == '\n';
  return line;
}

static int tpl_fail(Tpl *t, const char *at, const char *what, size_t len, const char *name) {
  snprintf(t->err, t->errlen, "%s:%d: %s '%.*s'", t->name, line_of(t, at), what, (int)len, name);
  return -1;
}

/* The matching {{/name}} for a section opened just before p. */
static const char *section_end(const char *p, const char *name, size_t len) {
  int depth = 1;
  while ((p = strstr(p, "{{"))) {
    const char *q = p + 2;
    if ((*q == '#' || *q == '?') && strncmp(q + 1, name, len) == 0 &&
        strncmp(q + 1 + len, "}}", 2) == 0)
      depth++;
    else if (*q == '/' && strncmp(q + 1, name, len) == 0 && strncmp(q + 1 + len, "}}", 2) == 0 &&
             --depth == 0)
      return p;
    p += 2;
  }
  return NULL;
}

/* A tag alone on its line: swallow the line break after it (and the
 * indentation before it, already in the output). */
static bool alone_on_line(const char *begin, const char *tag, const char *after) {
  const char *s = tag;
  while (s > begin && (s[-1] == ' ' || s[-1] == '\t'))
    s--;
  return (s == begin || s[-1] == '\n') && (*after == '\n');
}

static void trim_indent(Buf *out) {
  while (out->len > 0 && (out->data[out->len - 1] == ' ' || out->data[out->len - 1] == '\t'))
    out->data[--out->len] = '\0';
}

static int expand(Tpl *t, Buf *out, const char *p, const char *end, TplDict *d) {
  while (p < end) {
    const char *open = strstr(p, "{{");
    if (!open || open >= end) {
      buf_printf(out, "%.*s", (int)(end - p), p);
      return 0;
    }
    buf_printf(out, "%.*s", (int)(open - p), p);
    const char *close = strstr(open, "}}");
    if (!close || close > end)
      return tpl_fail(t, open, "unterminated", 2, "{{");
    char kind = open[2];
    const char *name = open + 2 + (kind == '#' || kind == '?' || kind == '!' || kind == '/');
    size_t len = (size_t)(close - name);
    const char *after = close + 2;
    if (kind == '!') {
      p = after;
      continue;
    }
    if (kind == '/')
      return tpl_fail(t, open, "unopened section", len, name);
    if (kind != '#' && kind != '?') {
      TplEntry *e = lookup(d, name, len);
      if (!e || !e->value)
        return tpl_fail(t, open, "hole not set:", len, name);
      buf_puts(out, e->value);
      p = after;
      continue;
    }
    const char *stop = section_end(after, name, len);
    if (!stop || stop > end)
      return tpl_fail(t, open, "unclosed section", len, name);
    const char *inner = after, *next = stop + len + 5; /* past {{/name}} */
    if (alone_on_line(t->text, open, after)) {
      trim_indent(out);
      inner++;
    }
    bool close_alone = alone_on_line(t->text, stop, next);
    const char *inner_end = stop;
    if (close_alone) {
      while (inner_end > inner && (inner_end[-1] == ' ' || inner_end[-1] == '\t'))
        inner_end--;
      next++;
    }
    TplEntry *e = lookup(d, name, len);
    if (kind == '?') {
      if (e && e->value && e->value[0] && expand(t, out, inner, inner_end, d) != 0)
        return -1;
    } else {
      if (!e)
        return tpl_fail(t, open, "list not set:", len, name);
      for (int i = 0; i < e->items.len; i++)
        if (expand(t, out, inner, inner_end, e->items.items[i]) != 0)
          return -1;
    }
    p = next;
  }
  return 0;
}

int tpl_expand(Buf *out, const char *name, const char *text, TplDict *d, char *err, size_t errlen) {
  Tpl t = {name, text, err, errlen};
  return expand(&t, out, text, text + strlen(text), d);
}

const char *tpl_text(const char *name) {
  for (int i = 0; tgm_templates[i].name; i++)
    if (strcmp(tgm_templates[i].name, name) == 0)
      return tgm_templates[i].text;
  return NULL;
}
