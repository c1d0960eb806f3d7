/* types.c -- the element types of --type, and the AST's types. */
#include "tgm.h"

#include <string.h>

static const ElemInfo elems[ET_COUNT] = {
    [ET_I32] = {"i32", "int", false, true, 4, "int32_t"},
    [ET_U32] = {"u32", "unsigned", false, false, 4, "uint32_t"},
    [ET_I64] = {"i64", "long long", false, true, 8, "long long"},
    [ET_F32] = {"f32", "float", true, true, 4, "float"},
    [ET_F64] = {"f64", "double", true, true, 8, "double"},
};

const ElemInfo *elem_info(ElemType t) { return &elems[t]; }

bool elem_parse(const char *name, ElemType *out) {
  for (int i = 0; i < ET_COUNT; i++) {
    if (strcmp(elems[i].name, name) == 0) {
      *out = (ElemType)i;
      return true;
    }
  }
  return false;
}

Type *type_new(Arena *a, TypeKind kind) {
  Type *t = arena_alloc(a, sizeof *t);
  t->kind = kind;
  return t;
}

Type *type_unqualified(Arena *a, const Type *t) {
  Type *u = arena_alloc(a, sizeof *u);
  *u = *t;
  u->is_const = false;
  if (u->kind == TY_OTHER && u->name) /* clang's spelling: `const unsigned short` */
    while (!strncmp(u->name, "const ", 6) || !strncmp(u->name, "volatile ", 9))
      u->name += u->name[0] == 'c' ? 6 : 9;
  return u;
}

bool type_is_integer(const Type *t) {
  switch (t->kind) {
  case TY_BOOL:
  case TY_INT:
  case TY_UINT:
  case TY_LONG:
  case TY_ULONG: return true;
  default: return false;
  }
}

/* char, short and their unsigned forms (int8_t, uint16_t, ...), char16_t,
 * char32_t and wchar_t (TY_OTHER to the front end): a GPU converts a float
 * to 32 bits (cvt.rzi.s32 or .u32) and keeps the low bits (sema.c). Their
 * bits, negative for the signed ones; 0 for any other type. */
static const struct {
  const char *name;
  int bits; /* negative: signed */
} narrow_types[] = {{"char", -8},           {"signed char", -8},
                    {"unsigned char", 8},   {"short", -16},
                    {"short int", -16},     {"signed short", -16},
                    {"unsigned short", 16}, {"unsigned short int", 16},
                    {"char16_t", 16},       {"char32_t", 32},
                    {"wchar_t", -32}};

int type_narrow_bits(const Type *t) {
  if (!t || t->kind != TY_OTHER || !t->name)
    return 0;
  const char *nm = t->name; /* clang's spelling: `const char32_t` for a const local */
  while (!strncmp(nm, "const ", 6) || !strncmp(nm, "volatile ", 9))
    nm += nm[0] == 'c' ? 6 : 9;
  for (size_t i = 0; i < COUNT_OF(narrow_types); i++)
    if (!strcmp(nm, narrow_types[i].name))
      return narrow_types[i].bits;
  return 0;
}

bool type_is_arith(const Type *t) {
  return t && (type_is_integer(t) || t->kind == TY_FLOAT || t->kind == TY_DOUBLE ||
               t->kind == TY_ELEM || t->kind == TY_ACC || t->kind == TY_RES);
}

TypeKind type_concrete(const Type *t, ElemType elem) {
  if (t->kind != TY_ELEM)
    return t->kind;
  const ElemInfo *e = elem_info(elem);
  if (e->is_float)
    return e->bytes == 4 ? TY_FLOAT : TY_DOUBLE;
  return e->bytes == 4 ? (e->is_signed ? TY_INT : TY_UINT) : (e->is_signed ? TY_LONG : TY_ULONG);
}

TypeKind type_widened(TypeKind k) { return k == TY_UINT ? TY_SIZE : k == TY_INT ? TY_LONG : k; }

bool type_is_unsigned(const Type *t) { return t->kind == TY_UINT || t->kind == TY_ULONG; }

static const char *base_str(Arena *a, const Type *t) {
  switch (t->kind) {
  case TY_VOID: return "void";
  case TY_BOOL: return "bool";
  case TY_INT: return "int";
  case TY_UINT: return "unsigned";
  case TY_LONG: return "long long";
  case TY_ULONG: return "unsigned long long";
  case TY_FLOAT: return "float";
  case TY_DOUBLE: return "double";
  case TY_ELEM: return "T";
  case TY_ACC: return "A";
  case TY_RES: return "R";
  case TY_ARRAY: return arena_printf(a, "Array<%d,%s>", t->dims, type_str(a, t->base));
  case TY_CARRAY: return arena_printf(a, "%s[]", type_str(a, t->base));
  case TY_VECTOR: return "Vector";
  case TY_SEQUENCE: return "Sequence";
  case TY_PARTITION: return "Partition";
  case TY_MAP: return "Map";
  case TY_FUNC: return "function";
  case TY_SIZE: return "tgm_size";
  case TY_PTR: return arena_printf(a, "%s *", type_str(a, t->base));
  case TY_VEC: return "V";
  case TY_ARG: return "Arg";
  case TY_OTHER: return t->name ? t->name : "?";
  }
  return "?";
}

const char *type_str(Arena *a, const Type *t) {
  if (!t)
    return "?";
  const char *s = base_str(a, t);
  return t->is_const ? arena_printf(a, "const %s", s) : s;
}
