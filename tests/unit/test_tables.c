/* Unit tests of the generator's tables: every combining operator of
 * combiners.def (its algebra on sample values, its names, its atomic and
 * warp-reduce columns, what the builders and printers make of it) and
 * every target of the dialect table. A new operator adds its case to
 * apply() below; a new dialect is checked by the loop over targets. */
#include "../check.h"
#include "tgm.h"

#include <stdint.h>
#include <string.h>

/* The operator on 64-bit integers, as C computes it; false: not known here
 * (a new line in combiners.def must add its case). */
static bool apply(Op op, int64_t x, int64_t y, int64_t *out) {
  switch (op) {
  case OP_ADD: *out = (int64_t)((uint64_t)x + (uint64_t)y); return true;
  case OP_MUL: *out = (int64_t)((uint64_t)x * (uint64_t)y); return true;
  case OP_AND: *out = x & y; return true;
  case OP_OR: *out = x | y; return true;
  case OP_XOR: *out = x ^ y; return true;
  case OP_MAX: *out = x > y ? x : y; return true;
  case OP_MIN: *out = x < y ? x : y; return true;
  case OP_LOR: *out = x || y; return true;
  case OP_LAND: *out = x && y; return true;
  default: return false;
  }
}

static int64_t identity_value(IdentityKind id) {
  switch (id) {
  case ID_ZERO: return 0;
  case ID_ONE: return 1;
  case ID_ONES: return ~(int64_t)0;
  case ID_LOWEST: return INT64_MIN;
  case ID_HIGHEST: return INT64_MAX;
  }
  return 12345;
}

// clang-format off
static const int64_t samples[] = {0, 1, -1, 2, 3, 7, -8, 255, 1 << 20, -(1 << 30), INT64_MAX, INT64_MIN};
static const int64_t truths[] = {0, 1};
// clang-format on

static void test_algebra(const Combiner *cb) {
  int64_t id = identity_value(cb->identity), r, s, t, u;
  CHECK(apply(cb->op, 0, 0, &r)); /* the test knows the operator */
  /* a logical operator's partial results are 0 or 1: its algebra holds there */
  bool logical = cb->op == OP_LOR || cb->op == OP_LAND;
  const int64_t *v = logical ? truths : samples;
  size_t nv = logical ? COUNT_OF(truths) : COUNT_OF(samples);
  for (size_t i = 0; i < nv; i++) {
    int64_t x = v[i];
    /* the identity */
    CHECK(apply(cb->op, id, x, &r) && r == x);
    CHECK(apply(cb->op, x, id, &r) && r == x);
    for (size_t j = 0; j < nv; j++) {
      int64_t y = v[j];
      /* commutative: the variants combine in any order */
      CHECK(apply(cb->op, x, y, &r) && apply(cb->op, y, x, &s) && r == s);
      for (size_t k = 0; k < nv; k += logical ? 1 : 3) {
        int64_t z = v[k];
        /* associative */
        CHECK(apply(cb->op, x, y, &r) && apply(cb->op, r, z, &s) && apply(cb->op, y, z, &t) &&
              apply(cb->op, x, t, &u) && s == u);
      }
    }
  }
}

static void test_columns(Arena *a, const Combiner *cb) {
  const char *sp = op_name(cb->op);
  CHECK(combiner_of(cb->op) == cb);
  CHECK(combiner_spelled(sp) == cb);
  CHECK(cb->name && cb->name[0] && strlen(cb->name) < 16); /* a database key's field */
  CHECK(cb->suffix && cb->suffix[0]);
  CHECK(strncmp(combiner_atomic(cb), "tgm_atomic_", 11) == 0);
  CHECK_STR(combiner_atomic(cb) + 11, cb->suffix);
  CHECK(!cb->native == !cb->native_on); /* a native atomic takes some type, and only then */
  CHECK(!cb->fpos == !cb->fneg);        /* a float's bits take both, by their sign */
  CHECK(!cb->fpos || cb->identity == ID_LOWEST || cb->identity == ID_HIGHEST); /* an order */
  CHECK((cb->native_on & ~TS_ALL) == 0);
  CHECK((cb->redux_on & ~(TS_I32 | TS_U32)) == 0); /* __reduce_*_sync: 32-bit integers */
  CHECK(cb->cub && strstr(cb->cub, "<>{}"));
  CHECK(!strcmp(cb->bound, "sum") || !strcmp(cb->bound, "product") || !strcmp(cb->bound, "exact"));
  CHECK(combiner_order_matters(cb, ET_F32) == (strcmp(cb->bound, "exact") != 0));
  CHECK(!combiner_order_matters(cb, ET_I32));
  CHECK(cb->form != CF_ASSIGN || strlen(sp) <= 2); /* `x OP= e` exists in C */
  for (int i = 0; i < combiner_count(); i++) {
    const Combiner *o = combiner_at(i);
    if (o != cb) {
      CHECK(strcmp(o->name, cb->name) != 0);
      CHECK(strcmp(o->suffix, cb->suffix) != 0);
      CHECK(o->op != cb->op);
    }
  }
  /* the builders: a call for CF_CALL, the operator itself otherwise */
  Loc loc = {"t.tgm", 1, 1};
  Node *x = mk_int(a, loc, 1), *y = mk_int(a, loc, 2);
  Node *c = mk_combine(a, loc, cb->op, x, y);
  if (cb->form == CF_CALL)
    CHECK(c->kind == ND_CALL && !strcmp(c->name, sp) && c->kids.len == 2);
  else
    CHECK(c->kind == ND_BINARY && c->op == cb->op);
  Node *id = mk_identity(a, loc, cb->op);
  switch (cb->identity) {
  case ID_ZERO: CHECK(id->kind == ND_INT && id->ival == 0); break;
  case ID_ONE: CHECK(id->kind == ND_INT && id->ival == 1); break;
  case ID_ONES: CHECK(id->kind == ND_UNARY && id->op == OP_BITNOT); break;
  case ID_LOWEST: CHECK(id->kind == ND_CALL && !strcmp(id->name, "Lowest")); break;
  case ID_HIGHEST: CHECK(id->kind == ND_CALL && !strcmp(id->name, "Highest")); break;
  }
  /* the error text that lists the forms names this one */
  const char *forms = combiner_forms(a);
  CHECK(strstr(forms, cb->form == CF_ASSIGN ? arena_printf(a, "%s=", sp)
                      : cb->form == CF_CALL ? arena_printf(a, "x = %s(x, e)", sp)
                                            : arena_printf(a, "x = x %s e", sp)));
}

static void test_combiners(void) {
  Arena *a = arena_new();
  CHECK(combiner_count() >= 7);
  for (int i = 0; i < combiner_count(); i++) {
    const Combiner *cb = combiner_at(i);
    test_algebra(cb);
    test_columns(a, cb);
  }
  CHECK(combiner_at(-1) == NULL && combiner_at(combiner_count()) == NULL);
  CHECK(combiner_of(OP_SUB) == NULL && combiner_of(OP_DIV) == NULL && combiner_of(OP_NONE) == NULL);
  CHECK(combiner_spelled("-") == NULL && combiner_spelled("") == NULL);
  /* the shipped names that databases hold */
  CHECK_STR(combiner_of(OP_ADD)->name, "sum");
  CHECK_STR(combiner_of(OP_MAX)->name, "max");
  CHECK_STR(combiner_of(OP_MIN)->name, "min");
  CHECK_STR(combiner_of(OP_MUL)->name, "*");
  CHECK_HAS(combiner_forms(a), "+=, *=");
  arena_free(a);
}

/* A third dialect, compiled here only: every spelling CUDA and HIP differ
 * in is its own, so what gen_source prints for it must hold the stub's
 * spellings and none of CUDA's or HIP's. */
// clang-format off
static const char *const stub_builtins[] = {
    "tid", "stub_tid()", "bid", "stub_bid()", "bdim", "stub_bdim()", "gdim", "stub_gdim()",
    "lane", "stub_lane()", "warp", "stub_warp()", "warp_size", "TGM_WARP", "block", "BLOCK",
    "items", "ITEMS", NULL};
static const char *const stub_host[] = {
    "err_t", "stub_error", "stream_t", "stub_stream", "success", "stub_ok",
    "err_invalid", "stub_invalid", "peek_last_error", "stub_peek_last_error", "clear_last_error", "stub_last_error", "rtc", "__STUB_RTC__",
    "malloc", "stub_malloc", "graph", "a stub graph", "get_device", "stub_get_device",
    "get_attribute", "stub_attribute", "sm_count_attr", "STUB_SMS", "cc_major_attr", "STUB_MAJOR",
    "mem_clock_attr", "STUB_MEM_CLOCK", "bus_width_attr", "STUB_BUS_WIDTH",
    "cc_minor_attr", "STUB_MINOR", "props_t", "stub_props", "get_props", "stub_get_props",
    "memset_async", "stub_memset_async", NULL};
static const Dialect stub = {
    .name = "stub", .title = "Stub", .ext = "stub", .rtc_name = "stubrtc",
    .chosen_by = "--stub", .gpus = "stub GPUs",
    .sync_block = "stub_barrier()", .sync_warp = "stub_warp_barrier()",
    .shfl_down = "stub_shfl(%s, %s)", .shfl_down_width = "stub_shfl_w(%s, %s, %s)", .redux = NULL,
    .fence = "stub_fence()", .ticket = "stub_ticket(%s, %s)",
    .includes = "#include <stub.h>\n", .warp_def = "\n#define TGM_WARP 16", .device_prelude = "",
    .warps = {16}, .nwarps = 1, .warp_flag = "-DSTUB_WARP=%d",
    .builtins = stub_builtins, .host = stub_host};
// clang-format on

static void test_stub_dialect(void) {
  Arena *a = arena_new();
  Diag diag;
  FILE *sink = tmpfile();
  diag_init(&diag, a, sink ? sink : stderr);
  Ctx ctx = {a, &diag};
  Program *prog = front_parse(&ctx, TGM_SOURCE_DIR "/codelets/sum.tgm", ET_I32, true);
  CHECK(prog && diag.nerrors == 0);
  if (!prog || diag.nerrors) {
    arena_free(a);
    return;
  }
  sema_check(&ctx, prog);
  PtrVec comps = {0};
  composition_new(&ctx, prog, false, false, &comps);
  CHECK(comps.len == 1);
  Composition *all = comps.items[0];
  pass_plan(&ctx, all);
  pass_lower(&ctx, all);
  pass_block(&ctx, all);
  pass_grid(&ctx, all);
  CHECK(diag.nerrors == 0);
  /* the passes ran once; each dialect takes its own view */
  const Composition *c = composition_for(a, all, DIALECT_CUDA, &stub);
  const Composition *cu = composition_for(a, all, DIALECT_CUDA, dialect_get(DIALECT_CUDA));
  /* no warp-reduce instruction: the VR variants are left out, saying why */
  CHECK(c->plans.len > 0 && c->plans.len < cu->plans.len);
  bool vr_left = false;
  for (int i = 0; i < c->left_out.len; i++) {
    const LeftOut *lo = c->left_out.items[i];
    vr_left |= strstr(lo->id, ".VR.") && strstr(lo->why, "on stub GPUs");
  }
  CHECK(vr_left);
  Buf out = {0};
  char err[256];
  CHECK(gen_source(&out, a, c, "sum.tgm", NULL, false, err, sizeof err) == 0);
  const char *text = out.data ? out.data : "";
  static const char *const stub_has[] = {"for Stub.",
                                         "#include <stub.h>",
                                         "#define TGM_WARP 16",
                                         "stub_barrier();",
                                         "stub_warp_barrier();",
                                         "stub_shfl(",
                                         "stub_fence();",
                                         "stub_ticket(counter, stub_gdim() - 1)",
                                         "stub_tid()",
                                         "stub_error",
                                         "stub_stream",
                                         "__STUB_RTC__",
                                         "stub_peek_last_error",
                                         "stub_invalid"};
  for (size_t i = 0; i < COUNT_OF(stub_has); i++)
    CHECK_HAS(text, stub_has[i]);
  /* (file.tpl's hand-written helpers keep what CUDA and HIP share:
     threadIdx.x, blockIdx.x, __syncthreads(); the kernels tgm prints use
     the table's built-ins, checked above) */
  static const char *const others[] = {"__syncwarp",
                                       "tgm_sync_warp",
                                       "__shfl_down",
                                       "__threadfence",
                                       "atomicInc",
                                       "hip_runtime",
                                       "__AMDGCN_WAVEFRONT_SIZE",
                                       "cudaError_t",
                                       "hipError_t",
                                       "cudaStream_t",
                                       "hipStream_t",
                                       "__CUDACC_RTC__",
                                       "__HIPCC_RTC__",
                                       "GetLastError",
                                       "__reduce_",
                                       "tgm_warp_reduce",
                                       "gridDim"};
  for (size_t i = 0; i < COUNT_OF(others); i++)
    if (strstr(text, others[i]))
      fprintf(stderr, "the stub dialect's source holds '%s'\n", others[i]), check_failures++;
  buf_free(&out);
  if (sink)
    fclose(sink);
  arena_free(a);
}

/* The two shipped dialects fill every field the printer reads. */
static void test_dialects(void) {
  for (int d = 0; d < DIALECT_COUNT; d++) {
    const Dialect *dl = dialect_get((DialectKind)d);
    CHECK(dl->name && dl->title && dl->ext && dl->rtc_name && dl->chosen_by && dl->gpus);
    CHECK(dl->sync_block && dl->sync_warp && dl->shfl_down && dl->fence && dl->ticket);
    CHECK(dl->includes && dl->warp_def && dl->device_prelude && dl->builtins && dl->host);
    CHECK(dl->nwarps >= 1 && dl->nwarps <= (int)COUNT_OF(dl->warps));
    int pairs = 0;
    for (const char *const *kv = dl->host; kv[0]; kv += 2, pairs++)
      CHECK(kv[1] != NULL);
    CHECK_EQ_INT(pairs, 20); /* every dialect names the same holes */
    for (int o = 0; o < d; o++)
      CHECK(strcmp(dialect_get((DialectKind)o)->name, dl->name) != 0);
  }
}

int main(void) {
  test_combiners();
  test_dialects();
  test_stub_dialect();
  CHECK_DONE();
}
