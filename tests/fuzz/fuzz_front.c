// fuzz_front.c — libFuzzer target: a codelet file through the whole
// front of tgm-gen, in memory: libclang (front_parse), sema, composition
// for CUDA and HIP, and generation of the .cu, the .hip and the manifest.
//
// front_parse reads a path, so each input is written to one temporary
// file (on /dev/shm where there is one) and parsed from there. Diagnostics
// go to /dev/null; nothing is written anywhere else.
#include "tgm.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  // libclang's crash recovery installs signal handlers of its own: let the
  // fuzzer's sanitizers see a crash instead
  setenv("LIBCLANG_DISABLE_CRASH_RECOVERY", "1", 1);
  const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(path, sizeof path, "%s/tgm-fuzz-front-%ld.tgm", dir, (long)getpid());
  devnull = fopen("/dev/null", "w");
  return 0;
}

static void pipeline(Ctx *ctx, ElemType elem) {
  Arena *a = ctx->arena;
  Program *prog = front_parse(ctx, path, elem, false);
  if (!prog || ctx->diag->nerrors)
    return;
  sema_check(ctx, prog);
  if (ctx->diag->nerrors)
    return;
  Buf dump = {0};
  dump_sema(&dump, a, prog);
  buf_free(&dump);
  PtrVec comps = {0};
  composition_new(ctx, prog, false, false, &comps);
  static const Pass passes[] = {pass_plan, pass_lower, pass_block, pass_grid};
  for (int i = 0; i < comps.len; i++) {
    Composition *c = comps.items[i];
    for (size_t k = 0; k < COUNT_OF(passes); k++)
      passes[k](ctx, c);
    Buf g = {0};
    dump_pass(&g, a, "grid", c);
    buf_free(&g);
    Composition *by[DIALECT_COUNT];
    for (int d = 0; d < DIALECT_COUNT; d++)
      by[d] = composition_for(a, c, (DialectKind)d, dialect_get((DialectKind)d));
    compose_check_empty(ctx, by);
    if (ctx->diag->nerrors)
      return;
    Buf out[DIALECT_COUNT] = {{0}};
    const Buf *texts[DIALECT_COUNT + 1] = {0};
    for (int d = 0; d < DIALECT_COUNT; d++) {
      char err[512];
      gen_source(&out[d], a, by[d], path, NULL, false, err, sizeof err);
      texts[d] = &out[d];
    }
    Buf m = {0};
    gen_manifest(&m, a, by, path, prog->file->text, texts);
    buf_free(&m);
    for (int d = 0; d < DIALECT_COUNT; d++)
      buf_free(&out[d]);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  // the element type comes from the input's length, so all five are reached
  static const ElemType types[] = {ET_I32, ET_U32, ET_I64, ET_F32, ET_F64};
  Arena *arena = arena_new();
  Diag diag;
  diag_init(&diag, arena, devnull);
  Ctx ctx = {arena, &diag};
  pipeline(&ctx, types[size % 5]);
  arena_free(arena);
  return 0;
}
