/* gen.c -- one source file per spectrum, type and dialect: the printed
 * device functions and kernels inside templates/file.tpl, plus host
 * launchers from templates/launch.tpl. */
#include "tgm.h"

#include <string.h>

/* What the element type and operator need spelled out in C. */
typedef struct {
  const char *vtype; /* the 16-byte vector type */
  const char *lowest, *highest;
  const char *utype; /* an unsigned type of the same size, for CAS */
} ElemText;

static const ElemText elem_text[ET_COUNT] = {
    [ET_I32] = {"int4", "(-2147483647 - 1)", "2147483647", "unsigned int"},
    [ET_U32] = {"uint4", "0u", "4294967295u", "unsigned int"},
    [ET_I64] = {"longlong2", "(-9223372036854775807LL - 1)", "9223372036854775807LL",
                "unsigned long long"},
    /* -inf and +inf by their bits: NVRTC has no __builtin_huge_valf */
    [ET_F32] = {"float4", "__int_as_float((int)0xff800000u)", "__int_as_float(0x7f800000)",
                "unsigned int"},
    [ET_F64] = {"double2", "__longlong_as_double((long long)0xfff0000000000000ull)",
                "__longlong_as_double(0x7ff0000000000000ll)", "unsigned long long"},
};

/* tgm_combine's body: a + b, tgm_max(a, b) */
static const char *combine_text(Arena *a, Op op) {
  const Combiner *cb = combiner_of(op);
  if (cb && cb->form == CF_CALL)
    return arena_printf(a, "tgm_%s(a, b)", op_name(op));
  return arena_printf(a, "a %s b", op_name(cb ? op : OP_ADD));
}

static const char *identity_text(Op op, ElemType e) {
  const Combiner *cb = combiner_of(op);
  switch (cb ? cb->identity : ID_ZERO) {
  case ID_LOWEST: return "tgm_lowest()";
  case ID_HIGHEST: return "tgm_highest()";
  case ID_ONE: return "1";
  case ID_ONES: return e == ET_I64 ? "~0LL" : "~0";
  case ID_ZERO: break;
  }
  return "0";
}

/* The body of tgm_atomic_<op>: a native atomic where the hardware has one
 * for this type (CUDA and HIP alike), a compare-and-swap loop otherwise. */
static const char *atomic_body(Arena *a, Op op, ElemType e, const char **how) {
  const Combiner *cb = combiner_of(op);
  const char *native = NULL;
  if (cb && cb->native && (cb->native_on & TS_OF(e)))
    native = e == ET_I64 ? arena_printf(a,
                                        "%s(reinterpret_cast<unsigned long long *>(p), "
                                        "(unsigned long long)v)",
                                        cb->native)
                         : arena_printf(a, "%s(p, v)", cb->native);
  if (native) {
    *how = "a native atomic";
    return arena_printf(a, "  %s;", native);
  }
  /* f32 only: HIP has no atomicMax on long long for f64's bits */
  if (cb && cb->fpos && e == ET_F32) {
    *how = "native atomics on its bits, by its sign";
    return arena_printf(a,
                        "  if (__float_as_int(v) >= 0)\n"
                        "    %s(reinterpret_cast<int *>(p), __float_as_int(v));\n"
                        "  else\n"
                        "    %s(reinterpret_cast<unsigned int *>(p), (unsigned "
                        "int)__float_as_int(v));",
                        cb->fpos, cb->fneg);
  }

  *how = "a compare-and-swap loop: no native atomic for this type";
  const char *u = elem_text[e].utype;
  return arena_printf(a,
                      "  union { A t; %s u; } old, want;\n"
                      "  %s *q = reinterpret_cast<%s *>(p);\n"
                      "  old.t = *p;\n"
                      "  for (;;) {\n"
                      "    want.t = tgm_combine(old.t, v);\n"
                      "    %s seen = atomicCAS(q, old.u, want.u);\n"
                      "    if (seen == old.u)\n"
                      "      break;\n"
                      "    old.u = seen;\n"
                      "  }",
                      u, u, u, u);
}

static const char *printed(Arena *a, const Dialect *d, const Node *fn) {
  Buf b = {0};
  emit_func(&b, a, d, fn);
  if (b.len && b.data[b.len - 1] == '\n')
    b.data[--b.len] = '\0';
  const char *s = arena_strdup(a, b.data);
  buf_free(&b);
  return s;
}

static const char *const block_titles[B_COUNT] = {
    "V: the cooperative codelet, barriers inserted",
    "VS: the cooperative codelet with warp shuffles",
    "VR: the cooperative codelet with the warp-reduce instruction",
    "VA1: shared atomic on one accumulator",
    "VA2: per-warp trees, then a shared atomic",
    "VA2S: per-warp shuffle trees, then a shared atomic",
    "VW: per-warp shuffle trees, then thread 0 folds the warps' partials",
    "VRW: the warp-reduce instruction per warp, then thread 0 folds the warps' partials",
};

const char *gen_grid_enum(const char *rule) {
  if (strcmp(rule, "tiles") == 0)
    return "TGM_TILES";
  if (strcmp(rule, "tiles_vec") == 0)
    return "TGM_TILES_VEC";
  if (strcmp(rule, "strided") == 0)
    return "TGM_STRIDED";
  if (strcmp(rule, "strided_vec") == 0)
    return "TGM_STRIDED_VEC";
  return "TGM_ONE";
}

const char *gen_base_name(Arena *a, const Composition *c) {
  return arena_printf(a, "%s_%s%s", c->name, elem_info(c->elem)->name,
                      c->rows   ? "_rows"
                      : c->cols ? "_cols"
                                : "");
}

const char *plan_summary(Arena *a, const Plan *p) {
  return arena_printf(a, "%d launch%s%s, %s%s%s", p->launches, p->launches == 1 ? "" : "es",
                      !p->needs_init                 ? ""
                      : p->g == G_CA || p->g == G_RA ? " (tgm_init_out first)"
                                                     : " (tgm_init first)",
                      p->deterministic ? "deterministic" : "not deterministic for floating point",
                      p->partials ? ", partials in temp" : "", p->counter ? " + counter" : "");
}

/* What the spectrum computes, in a line: out[0] = sqrt(acc), where acc = the + of in[i] * in[i] ... */
const char *gen_meaning(Arena *a, const Composition *c) {
  const Spectrum *s = c->spec;
  const char *first = ((const SpecInput *)s->inputs.items[0])->user; /* the user's names */
  const char *fold = arena_printf(a, "the %s of %s over 0 <= i < n (%s.Size()), from %s",
                                  op_name(s->op), s->transform_text, first,
                                  identity_text(s->op, c->acc_elem));
  /* rows: each row r (elements r * ld ... r * ld + n - 1) is the input */
  const char *out = c->rows   ? "for each row r < m, out[r]"
                    : c->cols ? "for each column j < n, out[j]"
                              : "out[0]";
  const char *of = c->rows ? arena_printf(a, " of row r, %s[r * ld + i]", first)
                   : c->cols
                       ? arena_printf(a, " of column j, %s[i * ld + j], n the rows (m)", first)
                       : "";
  if (!s->epilogue)
    return arena_printf(a, "%s = %s%s", out, fold, of);
  return arena_printf(a, "%s = %s, where %s = %s%s", out, s->epilogue_text, s->acc_user, fold, of);
}

const char *gen_identity_text(const Composition *c) { return identity_text(c->op, c->acc_elem); }

const char *gen_param_decls(Arena *a, const Composition *c) {
  Buf b = {0};
  for (int i = 0; i < c->spec->params.len; i++) {
    const SpecParam *p = c->spec->params.items[i];
    buf_printf(&b, ", %s %s", p->ctype, p->name);
  }
  const char *s = b.data ? arena_strdup(a, b.data) : "";
  buf_free(&b);
  return s;
}

const char *gen_kernel_args(Arena *a, const Composition *c) {
  Buf b = {0};
  for (int i = 0; i < c->spec->inputs.len; i++)
    buf_printf(&b, "const T *%s, ", ((const SpecInput *)c->spec->inputs.items[i])->name);
  if (c->rows)
    buf_printf(&b, "tgm_size m, tgm_size n, tgm_size ld, R *out, unsigned items%s",
               gen_param_decls(a, c));
  else if (c->cols)
    buf_printf(&b,
               "tgm_size m, tgm_size n, tgm_size ld, R *out, A *partials, unsigned *counter, "
               "unsigned width%s",
               gen_param_decls(a, c));
  else
    buf_printf(&b, "tgm_size n, R *out, A *partials, unsigned *counter, unsigned items%s",
               gen_param_decls(a, c));
  const char *s = arena_strdup(a, b.data);
  buf_free(&b);
  return s;
}

/* The reference kernel's tolerance (gen_reference_bound): how far a fold of
 * n values in another order may round away from the sequential one. */
const char *gen_reference_bound(const Composition *c) {
  if (!c->spec->acc_float)
    return "exact";
  return combiner_of(c->op)->bound;
}

/* The holes of tgm_reference_kernel: x + i, y + i; the bound's parts. */
static void fill_reference(TplDict *d, Arena *a, const Composition *c) {
  const Spectrum *s = c->spec;
  Buf at = {0};
  for (int i = 0; i < s->inputs.len; i++)
    buf_printf(&at, "%s%s + i", i ? ", " : "", ((const SpecInput *)s->inputs.items[i])->name);
  tpl_set(d, "in_args_at_i", arena_strdup(a, at.data));
  buf_free(&at);
  const char *bound = gen_reference_bound(c);
  tpl_set(d, "bound", strcmp(bound, "exact") ? bound : "");
  tpl_set(d, "bound_sum", strcmp(bound, "sum") ? "" : "1");
  tpl_set(d, "bound_exact", strcmp(bound, "exact") ? "" : "1");
  /* a start folded into the return (fold_start) is one more term of the sum */
  Buf start = {0};
  if (c->start_fn) {
    buf_puts(&start, "(mag + fabs((double)tgm_start(n");
    for (int i = 0; i < s->params.len; i++)
      buf_printf(&start, ", %s", ((const SpecParam *)s->params.items[i])->name);
    buf_puts(&start, ")))");
  }
  tpl_set(d, "bound_of",
          strcmp(bound, "sum") ? "(acc < 0 ? -(double)acc : (double)acc)"
          : c->start_fn        ? arena_strndup(a, start.data, start.len)
                               : "mag");
  buf_free(&start);
  bool single = elem_info(c->acc_elem)->bytes == 4;
  tpl_set(d, "eps", single ? "1.1920929e-7" : "2.220446049250313e-16");
  /* the smallest subnormal: below the normal range a step loses that much,
     whatever the value (a product of many small factors gets there) */
  tpl_set(d, "tiny", single ? "1.40129846e-45" : "4.9406564584124654e-324");
}

/* The holes that spell the inputs and parameters: `const T *__restrict__ x, ...` */
static void fill_signature(TplDict *d, Arena *a, const Composition *c) {
  const Spectrum *s = c->spec;
  Buf decls = {0}, host = {0}, args = {0}, checks = {0}, pdecls = {0}, pargs = {0}, cchecks = {0},
      overlaps = {0};
  tpl_list(d, "inputs");
  for (int i = 0; i < s->inputs.len; i++) {
    const char *nm = ((const SpecInput *)s->inputs.items[i])->name;
    buf_printf(&decls, "%sconst T *__restrict__ %s", i ? ", " : "", nm);
    buf_printf(&host, "%sconst T *%s", i ? ", " : "", nm);
    buf_printf(&args, "%s%s", i ? ", " : "", nm);
    buf_printf(&checks, "%s(n > 0 && !%s) || tgm_misaligned(%s, sizeof(T))", i ? " || " : "", nm,
               nm);
    buf_printf(&cchecks, "%s(m > 0 && !%s) || tgm_misaligned(%s, sizeof(T))", i ? " || " : "", nm,
               nm);
    /* d_out inside an input: refused (launch_rule.tpl's tgm_overlaps) */
    buf_printf(&overlaps,
               " || tgm_overlaps((unsigned long long)out, %s, (unsigned long long)%s, %s)",
               c->rows   ? "m * sizeof(R)"
               : c->cols ? "n * sizeof(R)"
                         : "sizeof(R)",
               nm,
               c->rows || c->cols ? "(m && n ? (m - 1) * ld + n : 0) * sizeof(T)"
                                  : "n * sizeof(T)");
    tpl_set(tpl_item(d, "inputs"), "name", nm);
  }
  for (int i = 0; i < s->params.len; i++) {
    const SpecParam *p = s->params.items[i];
    buf_printf(&pdecls, ", %s %s", p->ctype, p->name);
    buf_printf(&pargs, ", %s", p->name);
  }
  tpl_set(d, "in_decls", arena_strdup(a, decls.data));
  tpl_set(d, "host_in_decls", arena_strdup(a, host.data));
  tpl_set(d, "in_args", arena_strdup(a, args.data));
  tpl_set(d, "in_checks", arena_printf(a, "%s%s", checks.data, overlaps.data));
  tpl_set(d, "col_in_checks", /* --cols: m rows read */
          arena_printf(a, "%s%s", cchecks.data, overlaps.data));
  tpl_set(d, "first_in", ((const SpecInput *)s->inputs.items[0])->name);
  tpl_set(d, "param_decls", pdecls.data ? arena_strdup(a, pdecls.data) : "");
  tpl_set(d, "param_args", pargs.data ? arena_strdup(a, pargs.data) : "");
  tpl_set(d, "kernel_args", gen_kernel_args(a, c));
  fill_reference(d, a, c);
  buf_free(&decls);
  buf_free(&host);
  buf_free(&args);
  buf_free(&checks);
  buf_free(&cchecks);
  buf_free(&overlaps);
  buf_free(&pdecls);
  buf_free(&pargs);
}

static void fill_common(TplDict *d, Arena *a, const Composition *c, const Dialect *dl,
                        const char *source) {
  const ElemInfo *ei = elem_info(c->elem);
  tpl_set(d, "source", text_comment_safe(a, source)); /* a path: any bytes */
  tpl_set(d, "source_name", text_file_name(a, source));
  tpl_set(d, "version", TGM_VERSION);
  tpl_set(d, "type", ei->name);
  tpl_set(d, "ctype", ei->ctype);
  tpl_set(d, "spectrum", c->name);
  tpl_set(d, "op", op_name(c->op));
  tpl_set(d, "dialect_title", dl->title);
  tpl_set(d, "dialect_includes", dl->includes);
  tpl_set(d, "dialect_warp", dl->warp_def);
  tpl_set(d, "dialect_device", dl->device_prelude);
  tpl_setf(d, "namespace", "tgm_kernels_%s", gen_base_name(a, c));
  tpl_setf(d, "manifest", "%s.json", gen_base_name(a, c));
  tpl_set(d, "ext", dl->ext);
  tpl_set(d, "acc_ctype", c->spec->acc_ctype);
  tpl_set(d, "result_ctype", c->spec->result_ctype);
  tpl_set(d, "meaning", gen_meaning(a, c));
  fill_signature(d, a, c);
}

static bool wanted(const PtrVec *only, const Plan *p) {
  if (!only)
    return true;
  for (int i = 0; i < only->len; i++)
    if (only->items[i] == p)
      return true;
  return false;
}

int gen_source(Buf *out, Arena *a, const Composition *c, const char *source, const PtrVec *only,
               bool embedded, char *err, size_t errlen) {
  const Dialect *dl = c->target;
  TplDict *d = tpl_dict(a, NULL);
  fill_common(d, a, c, dl, source);
  /* an embedded header (embed.tpl, embed_rows.tpl close what this opens) */
  tpl_set(d, "embedded", embedded ? "1" : "");
  tpl_set(d, "embed_rtc", dialect_hole(dl, "rtc"));
  /* a kernel that is no template: in the header's unnamed namespace, unused
     by a program that never launches it (and compilers warn of that) */
  tpl_set(d, "unused", embedded ? "[[maybe_unused]] " : "");
  tpl_set(d, "vtype", elem_text[c->elem].vtype);
  tpl_setf(d, "vw", "%d", 16 / elem_info(c->elem)->bytes);
  const ElemText *at = &elem_text[c->acc_elem];
  const Spectrum *sp = c->spec;
  tpl_set(d, "pair", sp->pair ? "1" : "");
  tpl_set(d, "ftoi", sp->ftoi ? "1" : "");
  tpl_set(d, "indexed", sp->indexed ? "1" : "");
  tpl_set(d, "value_t", sp->pair ? "T" : "A"); /* what Lowest(), max, ... take and give */
  tpl_set(d, "shfl_key", arena_printf(a, dl->shfl_down_width, "v.key", "offset", "width"));
  tpl_set(d, "shfl_value", arena_printf(a, dl->shfl_down_width, "v.value", "offset", "width"));
  tpl_set(d, "shfl_acc", arena_printf(a, dl->shfl_down_width, "v", "offset", "TGM_WARP"));
  tpl_set(d, "volatile_load", sp->pair ? "tgm_load(p + i)" : "p[i]");
  tpl_set(d, "lowest", at->lowest);
  tpl_set(d, "highest", at->highest);
  tpl_set(d, "identity", identity_text(c->op, c->acc_elem));
  tpl_set(d, "combine", combine_text(a, c->op));
  const char *how = "";
  /* no atomics on an Arg (grid.c leaves those plans out) */
  /* none for a pair or a bool (one byte): no variant of theirs combines
     through a global atomic (atomics_wanting), and CUDA has no atomicOr on
     a bool */
  tpl_set(d, "atomic_body",
          sp->pair || sp->acc_ty->kind == TY_BOOL ? "" : atomic_body(a, c->op, c->acc_elem, &how));
  tpl_set(d, "atomic_how", how);
  tpl_set(d, "atomic_fn", atomic_name(c->op));
  tpl_set(d, "redux", c->block[B_VR].fn || c->block[B_VRW].fn ? "1" : "");
  tpl_set(d, "redux_op", redux_name(c->op));
  tpl_set(d, "thread_fn", c->thread_fn ? printed(a, dl, c->thread_fn) : "");
  tpl_set(d, "reference_fn", printed(a, dl, c->reference_fn));
  tpl_set(d, "reference_name", c->reference_fn->name);
  tpl_set(d, "epilogue_fn", printed(a, dl, c->epilogue_fn));
  tpl_set(d, "start_fn", c->start_fn ? printed(a, dl, c->start_fn) : "");
  tpl_list(d, "helpers");
  for (int i = 0; i < c->prog->helpers.len; i++) {
    Node *h = node_clone(a, c->prog->helpers.items[i]);
    h->kind = ND_FUNC;
    h->spelling = "__device__ __forceinline__";
    h->qual = 0;
    tpl_set(tpl_item(d, "helpers"), "helper", printed(a, dl, h));
  }
  tpl_set(d, "thread_name", c->thread_fn ? c->thread_fn->name : "");
  /* tgm_columns, tgm_columns_vec, CA's atomics (--cols); tgm_init_out and
     tgm_wait_prior_grids for CA and RA (--rows) */
  bool col_ss = false, col_sv = false, col_atomic = false, row_atomic = false, row_packed = false;
  for (int i = 0; i < c->plans.len; i++) {
    const Plan *p = c->plans.items[i];
    row_packed |= wanted(only, p) && p->packed_rows;
    col_ss |= wanted(only, p) && p->g == G_CT && p->t != T_SV;
    col_sv |= wanted(only, p) && grid_cols(p->g) && p->t == T_SV;
    col_atomic |= wanted(only, p) && p->g == G_CA;
    row_atomic |= wanted(only, p) && p->g == G_RA;
  }
  tpl_set(d, "columns", col_ss ? "1" : "");
  tpl_set(d, "columns_vec", col_sv ? "1" : "");
  tpl_set(d, "columns_any", col_ss || col_sv ? "1" : "");
  tpl_set(d, "columns_atomic", col_atomic ? "1" : "");
  tpl_set(d, "init_out", col_atomic || row_atomic ? "1" : "");
  tpl_set(d, "rows_packed", row_packed ? "1" : "");
  tpl_set(d, "init_out_for", row_atomic ? "RA (count: m rows)" : "CA.SV (count: n columns)");
  tpl_set(d, "wait_prior", ((col_ss || col_sv) && dl->early_launch) || row_atomic ? "1" : "");
  tpl_set(d, "early_launch", dl->early_launch ? "1" : "");
  tpl_set(d, "after_clear_note",
          dl->early_launch
              ? "the grid just before it in the stream clears the counters\n"
                "// (tgm_clear_counters), and the kernel is launched to start at once, waiting\n"
                "// for that grid only before its tickets (sm_90+)"
              : "ignored (no kernel starts early on this platform: the caller\n"
                "// clears the counters with a memset)");
  tpl_set(d, "after_init_note",
          dl->early_launch
              ? "the kernel is launched to start before tgm_init_out ends,\n"
                "// waiting for it only before its atomics (sm_90+ only: elsewhere it would\n"
                "// not wait)"
              : "ignored (no kernel starts early on this platform)");
  bool any_vec = false;
  for (int i = 0; i < c->plans.len; i++)
    any_vec |= wanted(only, c->plans.items[i]) && ((const Plan *)c->plans.items[i])->t == T_SV;
  tpl_set(d, "thread_vec_fn", c->thread_vec_fn && any_vec ? printed(a, dl, c->thread_vec_fn) : "");
  tpl_set(d, "what", only ? "the chosen variants" : "every variant");
  tpl_set(d, "reference_kernel", only ? "" : "1"); /* for tgm-tune; not in embedded headers */
  tpl_set(d, "thread_vec_name", c->thread_vec_fn ? c->thread_vec_fn->name : "");
  tpl_list(d, "blocks");
  tpl_list(d, "plans");
  for (int b = 0; b < B_COUNT; b++) {
    bool used = false, used_group = false; /* by a block; by a row's group (RW) */
    for (int i = 0; i < c->plans.len; i++) {
      const Plan *p = c->plans.items[i];
      if (wanted(only, p) && p->b == (BlockKind)b && !grid_cols(p->g))
        *(p->g == G_RW ? &used_group : &used) = true;
    }
    if (c->block[b].fn && used) {
      TplDict *it = tpl_item(d, "blocks");
      tpl_set(it, "block_title", block_titles[b]);
      tpl_set(it, "block_fn", printed(a, dl, c->block[b].fn));
    }
    if (c->block[b].group_fn && used_group) {
      TplDict *it = tpl_item(d, "blocks");
      tpl_set(it, "block_title",
              arena_printf(a, "%s; for each group of GROUP threads (a row's)", block_titles[b]));
      tpl_set(it, "block_fn", printed(a, dl, c->block[b].group_fn));
    }
  }
  for (int i = 0; i < c->plans.len; i++) {
    const Plan *p = c->plans.items[i];
    if (!wanted(only, p))
      continue;
    TplDict *it = tpl_item(d, "plans");
    tpl_set(it, "id", p->id);
    tpl_set(it, "summary", plan_summary(a, p));
    tpl_set(it, "kernel", printed(a, dl, p->kernel->fn));
    tpl_set(it, "pass2", p->pass2 ? printed(a, dl, p->pass2->fn) : "");
  }
  if (tpl_expand(out, "file.tpl", tpl_text("file.tpl"), d, err, errlen) != 0)
    return -1;
  /* host launchers */
  TplDict *h = tpl_dict(a, d);
  dialect_set_holes(h, dl);
  tpl_setf(h, "macro", "TGM_VARIANTS_%s", gen_base_name(a, c));
  tpl_list(h, "launchers");
  int last = -1;
  for (int i = 0; i < c->plans.len; i++)
    if (wanted(only, c->plans.items[i]))
      last = i;
  tpl_set(h, "launch_rule", tpl_text("launch_rule.tpl"));
  if (c->rows || c->cols) {
    for (int i = 0; i < c->plans.len; i++) {
      const Plan *p = c->plans.items[i];
      if (!wanted(only, p))
        continue;
      TplDict *it = tpl_item(h, "launchers");
      tpl_set(it, "id", p->id);
      tpl_set(it, "cname", p->cname);
      tpl_set(it, "grouped", p->g == G_RW ? "1" : "");
      /* a kernel a path of loads in flight (kernel.c's per_items) */
      tpl_set(it, "per_items", p->kernel->per_items ? "1" : "");
      tpl_set(it, "per_items_single", p->kernel->per_items && p->g != G_RW ? "1" : "");
      tpl_set(it, "whole", p->kernel->per_items ? "" : "1");
      tpl_set(it, "kernel",
              p->kernel->per_items ? "kernel" : arena_printf(a, "%s<BLOCK>", p->cname));
      tpl_set(it, "row_packed", p->packed_rows ? "1" : "");
      tpl_set(it, "single", p->g == G_RB ? "1" : "");
      tpl_set(it, "parts", p->g == G_RL ? "1" : "");
      tpl_set(it, "row_atomic", p->g == G_RA ? "1" : "");
      tpl_set(it, "columns", grid_cols(p->g) ? "1" : "");
      tpl_set(it, "col_parts", p->g == G_CT ? "1" : "");
      tpl_set(it, "col_atomic", p->g == G_CA ? "1" : "");
      bool vec = grid_cols(p->g) && p->t == T_SV;
      tpl_set(it, "col_vw", vec ? "TGM_VW" : "1");
      tpl_set(it, "first_in", ((const SpecInput *)c->spec->inputs.items[0])->name);
      tpl_set(it, "col_note",
              vec ? "tiles of width groups of TGM_VW columns from the input's 16-byte boundaries"
                  : "tiles of width columns");
      tpl_set(it, "col_unit", vec ? "groups of TGM_VW columns" : "columns");
      tpl_set(it, "rowwise", grid_cols(p->g) ? "" : "1");
      tpl_set(it, "temp_expr", p->g == G_RL ? "tgm_rows_temp_need(m, per_row, sizeof(A))" : "0");
      tpl_set(it, "deterministic", p->deterministic ? "1" : "0");
      tpl_set(it, "more", i < last ? " \\" : "");
    }
    return tpl_expand(out, "launch_rows.tpl", tpl_text("launch_rows.tpl"), h, err, errlen);
  }
  for (int i = 0; i < c->plans.len; i++) {
    const Plan *p = c->plans.items[i];
    if (!wanted(only, p))
      continue;
    TplDict *it = tpl_item(h, "launchers");
    tpl_set(it, "id", p->id);
    tpl_set(it, "cname", p->cname);
    tpl_set(it, "grid_rule", p->grid_rule);
    tpl_set(it, "grid_enum", gen_grid_enum(p->grid_rule));
    tpl_set(it, "temp_expr",
            !p->partials ? "0"
                         : arena_printf(a,
                                        "tgm_partials_bytes(tgm_grid(%s, nullptr, n, BLOCK, items "
                                        "? items : 1, "
                                        "grid_cap ? grid_cap : 1))%s",
                                        gen_grid_enum(p->grid_rule), p->counter ? " + 16" : ""));
    tpl_set(it, "partials", p->partials ? "1" : "");
    tpl_set(it, "counter", p->counter ? "1" : "");
    tpl_set(it, "has_counter", p->counter ? "true" : "false");
    tpl_set(it, "needs_init", p->needs_init ? "1" : "");
    tpl_set(it, "pass2", p->pass2 ? "1" : "");
    tpl_set(it, "per_items", p->kernel->per_items ? "1" : "");
    tpl_set(it, "whole", p->kernel->per_items ? "" : "1");
    tpl_set(it, "kernel", p->kernel->per_items ? "kernel" : arena_printf(a, "%s<BLOCK>", p->cname));
    tpl_set(it, "deterministic", p->deterministic ? "1" : "0");
    tpl_set(it, "more", i < last ? " \\" : "");
  }
  tpl_set(h, "launch_rule", tpl_text("launch_rule.tpl"));
  return tpl_expand(out, "launch.tpl", tpl_text("launch.tpl"), h, err, errlen);
}

/* The CUB operator of c's combine, as cub::DeviceReduce::Sum, Max and Min
 * name theirs (CUB tunes its kernels for those); a pair's max/min is the
 * variants' own tgm_combine. */
static const char *cub_op(const Composition *c) {
  return c->spec->pair ? "tgm_combine_op{}" : combiner_of(c->op)->cub;
}

int gen_cub(Buf *out, Arena *a, const Composition *c, const char *source, char *err,
            size_t errlen) {
  const Spectrum *sp = c->spec;
  TplDict *d = tpl_dict(a, NULL);
  fill_common(d, a, c, dialect_get(DIALECT_CUDA), source); /* CUB: CUDA only */
  bool plain = spectrum_is_plain(sp);
  const char *op = cub_op(c);
  tpl_set(d, "base", gen_base_name(a, c));
  tpl_set(d, "thread_name", c->thread_fn->name);
  tpl_set(d, "indexed", sp->indexed ? "1" : "");
  tpl_set(d, "plain", plain ? "1" : "");
  tpl_set(d, "transform", plain ? "" : "1");
  tpl_set(d, "no_params", sp->params.len ? "" : "1");
  tpl_set(d, "op_expr", op);
  tpl_set(d, "custom_op", strncmp(op, "tgm_", 4) ? "" : "1");
  const char *pair_of = sp->pair ? "A(%s<T>())" : "%s<A>()";
  static const char *const host_identity[] = {[ID_ZERO] = "A(0)",
                                              [ID_ONE] = "A(1)",
                                              [ID_ONES] = "A(~A(0))",
                                              [ID_LOWEST] = "tgm_host_lowest",
                                              [ID_HIGHEST] = "tgm_host_highest"};
  IdentityKind id = combiner_of(c->op)->identity;
  tpl_set(d, "host_identity",
          id == ID_LOWEST || id == ID_HIGHEST ? arena_printf(a, pair_of, host_identity[id])
                                              : host_identity[id]);
  tpl_setf(d, "nin", "%d", sp->inputs.len);
  tpl_set(d, "how",
          plain ? arena_printf(a,
                               "cub::DeviceReduce::Reduce over the input, operator %.*s, from the "
                               "identity (what DeviceReduce::Sum, Max and Min run)",
                               (int)(strlen(op) - 2), op)
                : arena_printf(a,
                               "cub::DeviceReduce::TransformReduce over the indices 0..n-1: the\n"
                               "// spectrum's transform of element i (tgm_transform_op), operator "
                               "%.*s,\n// the identity, and the epilogue through a transform "
                               "output iterator",
                               (int)(strlen(op) - 2), op));
  tpl_list(d, "cub_inputs");
  for (int i = 0; i < sp->inputs.len; i++) {
    TplDict *it = tpl_item(d, "cub_inputs");
    tpl_set(it, "name", ((const SpecInput *)sp->inputs.items[i])->name);
    tpl_setf(it, "index", "%d", i);
  }
  tpl_list(d, "cub_params");
  for (int i = 0; i < sp->params.len; i++) {
    const SpecParam *p = sp->params.items[i];
    TplDict *it = tpl_item(d, "cub_params");
    tpl_set(it, "name", p->name);
    tpl_set(it, "ctype", p->ctype);
    tpl_setf(it, "index", "%d", i);
  }
  return tpl_expand(out, "cub.tpl", tpl_text("cub.tpl"), d, err, errlen);
}
