/* reduce_api.c -- tgm-gen --reduce-api=FILE: the typed tgm_reduce calls,
 * one per spectrum and element type (templates/reduce_api.tpl), each a
 * tgm_reduce_spectrum() with the spectrum's inputs, scalar parameters and
 * result in their C types. */
#include "tgm.h"

#include <ctype.h>
#include <string.h>

void reduce_api_start(ReduceApi *r, Arena *a) {
  r->arena = a;
  r->dict = tpl_dict(a, NULL);
  tpl_list(r->dict, "wrappers");
  tpl_list(r->dict, "pairs");
  for (int e = 0; e < ET_COUNT; e++)
    r->pair_done[e] = false;
  r->made = (PtrVec){0};
  r->made_from = (PtrVec){0};
}

const char *reduce_api_add(ReduceApi *r, const Composition *c, const char *file) {
  Arena *a = r->arena;
  const Spectrum *s = c->spec;
  const char *tn = elem_info(c->elem)->name, *st = elem_info(c->elem)->host_ctype;
  const char *made = arena_printf(a, "%s_%s", s->name, tn);
  for (int i = 0; i < r->made.len; i++)
    if (!strcmp(r->made.items[i], made))
      return r->made_from.items[i];
  vec_push(a, &r->made, (void *)made);
  vec_push(a, &r->made_from, (void *)file);
  if (s->pair && !r->pair_done[c->elem]) {
    TplDict *p = tpl_item(r->dict, "pairs");
    tpl_set(p, "type", tn);
    tpl_set(p, "ctype", st);
    r->pair_done[c->elem] = true;
  }
  TplDict *w = tpl_item(r->dict, "wrappers");
  Buf decls = {0}, args = {0}, pdecls = {0}, pptrs = {0};
  for (int i = 0; i < s->inputs.len; i++) {
    const char *nm = ((const SpecInput *)s->inputs.items[i])->name;
    buf_printf(&decls, "%sconst %s *d_%s", i ? ", " : "", st, nm);
    buf_printf(&args, "%sd_%s", i ? ", " : "", nm);
  }
  for (int i = 0; i < s->params.len; i++) {
    const SpecParam *p = s->params.items[i];
    buf_printf(&pdecls, ", %s %s", p->ty->kind == TY_ELEM ? st : p->ctype, p->name);
    buf_printf(&pptrs, "%s&%s", i ? ", " : "", p->name);
  }
  char upper[16];
  size_t k = 0;
  for (; tn[k] && k + 1 < sizeof upper; k++)
    upper[k] = (char)toupper((unsigned char)tn[k]);
  upper[k] = 0;
  tpl_set(w, "name", s->name);
  tpl_set(w, "type", tn);
  tpl_setf(w, "type_enum", "TGM_TYPE_%s", upper);
  tpl_set(w, "meaning", text_comment_safe(a, gen_meaning(a, c)));
  tpl_set(w, "in_decls", arena_strdup(a, decls.data));
  tpl_set(w, "in_args", arena_strdup(a, args.data));
  tpl_setf(w, "nin", "%d", s->inputs.len);
  tpl_set(w, "param_decls", pdecls.data ? arena_strdup(a, pdecls.data) : "");
  tpl_set(w, "param_ptrs", pptrs.data ? arena_strdup(a, pptrs.data) : "");
  tpl_set(w, "params", s->params.len ? "1" : "");
  tpl_set(w, "params_arg", s->params.len ? "params" : "NULL");
  tpl_setf(w, "nparams", "%d", s->params.len);
  tpl_set(w, "out_t",
          s->pair                         ? arena_printf(a, "tgm_arg_%s", tn)
          : s->result_ty->kind == TY_ELEM ? st
                                          : s->result_ctype);
  Buf *bufs[] = {&decls, &args, &pdecls, &pptrs};
  for (size_t i = 0; i < COUNT_OF(bufs); i++)
    buf_free(bufs[i]);
  return NULL;
}

int reduce_api_write(ReduceApi *r, Buf *out, const char *sources, const char *guard, char *err,
                     size_t errlen) {
  tpl_set(r->dict, "guard", guard);
  tpl_set(r->dict, "version", TGM_VERSION);
  tpl_set(r->dict, "sources", text_comment_safe(r->arena, sources));
  return tpl_expand(out, "reduce_api.tpl", tpl_text("reduce_api.tpl"), r->dict, err, errlen);
}
