// The temp storage of one launch on `grid` blocks, as the manifest's "temp"
// says (align16(grid * sizeof(A)) + 16): the partials, one accumulator per
// block rounded up to 16 bytes, then 16 bytes for the last-block counter.
// One home for the rule (templates/embed_temp.tpl): every embedded header
// holds this text, and tgm_reduce (runtime/reduce/reduce.c) compiles it.
#ifndef TGM_TEMP_NEED_DEFINED
#define TGM_TEMP_NEED_DEFINED
static inline size_t tgm_temp_need(unsigned long long grid, size_t acc_bytes, int partials, int counter) {
  return (partials ? ((size_t)grid * acc_bytes + 15) / 16 * 16 : 0) + (counter ? 16 : 0);
}
#endif
