/* arena.c -- bump allocation. The compiler allocates and never frees; the
 * whole arena goes at exit. */
#include "tgm.h"

#include <stdlib.h>
#include <string.h>

typedef struct Chunk Chunk;
struct Chunk {
  Chunk *next;
  size_t used, size;
  _Alignas(16) unsigned char data[];
};

struct Arena {
  Chunk *head;
};

enum { CHUNK_SIZE = 64 * 1024 };

static void out_of_memory(void) {
  fputs("tgm-gen: out of memory\n", stderr);
  abort();
}

Arena *arena_new(void) {
  Arena *a = calloc(1, sizeof *a);
  if (!a)
    out_of_memory();
  return a;
}

void arena_free(Arena *a) {
  if (!a)
    return;
  for (Chunk *c = a->head, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  free(a);
}

void *arena_alloc(Arena *a, size_t size) {
  size = (size + 15) & ~(size_t)15;
  Chunk *c = a->head;
  if (!c || c->size - c->used < size) {
    size_t n = size > CHUNK_SIZE ? size : CHUNK_SIZE;
    c = malloc(sizeof(Chunk) + n);
    if (!c)
      out_of_memory();
    c->size = n;
    c->used = 0;
    c->next = a->head;
    a->head = c;
  }
  void *p = c->data + c->used;
  c->used += size;
  memset(p, 0, size);
  return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(Arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = arena_alloc(a, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

void vec_push(Arena *a, PtrVec *v, void *item) {
  if (v->len == v->cap) {
    int cap = v->cap ? v->cap * 2 : 8;
    void **items = arena_alloc(a, sizeof(void *) * (size_t)cap);
    if (v->len)
      memcpy(items, v->items, sizeof(void *) * (size_t)v->len);
    v->items = items;
    v->cap = cap;
  }
  v->items[v->len++] = item;
}

bool vec_has(const PtrVec *v, const void *item) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == item)
      return true;
  return false;
}
