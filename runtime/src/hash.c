// hash.c — libtgm's 128-bit hash (two FNV-1a lanes), for the cache's keys
// and checks and for the hashes of the sources a manifest names, which
// tgm-gen writes and tgm-tune and tgm_reduce compare (tgm-gen links this
// file with the database reader).
#include "internal.h"
#include <stdio.h>
#include <string.h>

void tgm__hash_init(tgm__hash *h) {
  h->h[0] = 0xcbf29ce484222325ull;
  h->h[1] = 0x84222325cbf29ce4ull;
}

void tgm__hash_add(tgm__hash *h, const void *data, size_t len) {
  const unsigned char *p = data;
  uint64_t a = h->h[0], b = h->h[1];
  for (size_t i = 0; i < len; i++) {
    a = (a ^ p[i]) * 0x100000001b3ull;
    b = (b ^ p[i]) * 0x100000001b3ull;
    b ^= b >> 29;
  }
  h->h[0] = a, h->h[1] = b;
}

void tgm__hash_str(tgm__hash *h, const char *s) {
  if (!s) // NULL and "" differ: a NULL adds one byte 0xff, no terminator
    tgm__hash_add(h, "\xff", 1);
  else
    tgm__hash_add(h, s, strlen(s) + 1);
}

void tgm__hash_hex(const tgm__hash *h, char out[33]) {
  snprintf(out, 33, "%016llx%016llx", (unsigned long long)h->h[0], (unsigned long long)h->h[1]);
}

void tgm__text_hash(const char *text, size_t len, char out[33]) {
  tgm__hash h;
  tgm__hash_init(&h);
  tgm__hash_add(&h, text, len);
  tgm__hash_hex(&h, out);
}
