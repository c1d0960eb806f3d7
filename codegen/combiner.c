/* combiner.c -- the combining operators' table (combiners.def), read by
 * sema, the builders, the printers and the planner alike. */
#include "tgm.h"

#include <assert.h>

#include <string.h>

static const Combiner combiners[] = {
#define C(op, name, suffix, form, identity, native, native_on, fpos, fneg, redux_on, cub, bound) \
  {op, name, suffix, form, identity, native, native_on, fpos, fneg, redux_on, cub, bound},
#include "combiners.def"
#undef C
};

int combiner_count(void) { return (int)COUNT_OF(combiners); }

const Combiner *combiner_at(int i) { return i >= 0 && i < combiner_count() ? &combiners[i] : NULL; }

const Combiner *combiner_of(Op op) {
  for (size_t i = 0; i < COUNT_OF(combiners); i++)
    if (combiners[i].op == op)
      return &combiners[i];
  return NULL;
}

const Combiner *combiner_spelled(const char *spelling) {
  for (size_t i = 0; i < COUNT_OF(combiners); i++)
    if (strcmp(op_name(combiners[i].op), spelling) == 0)
      return &combiners[i];
  return NULL;
}

const char *combiner_forms(Arena *a) {
  const char *s = "";
  int n = combiner_count();
  for (int i = 0; i < n; i++) {
    const Combiner *cb = &combiners[i];
    const char *sp = op_name(cb->op);
    const char *form = cb->form == CF_ASSIGN ? arena_printf(a, "%s=", sp)
                       : cb->form == CF_CALL ? arena_printf(a, "x = %s(x, e)", sp)
                                             : arena_printf(a, "x = x %s e", sp);
    s = arena_printf(a, "%s%s%s", s, i == 0 ? "" : i == n - 1 ? " or " : ", ", form);
  }
  return s;
}

const char *combiner_atomic(const Combiner *cb) {
  static char names[COUNT_OF(combiners)][40];
  size_t i = (size_t)(cb - combiners);
  assert(i < COUNT_OF(combiners)); /* a line of the table, not a copy */
  if (!names[i][0])
    snprintf(names[i], sizeof names[i], "tgm_atomic_%s", cb->suffix);
  return names[i];
}

bool combiner_order_matters(const Combiner *cb, ElemType acc) {
  return elem_info(acc)->is_float && strcmp(cb->bound, "exact") != 0;
}
