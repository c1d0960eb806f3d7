
// -------------------------------------------------------------- host launchers
// launch_<kernel><BLOCK>({{in_args}}, n, out, temp, temp_bytes, items, grid_cap{{param_args}}, stream)
// runs one variant: no host synchronisation, errors returned, not printed.
// temp: temp_bytes_<kernel><BLOCK>(n, items, grid_cap) bytes (0: none); the
// counter word of the last-block variants must be zero when temp is first
// used, and they leave it zero.
#if !defined({{rtc}})
namespace {{namespace}} {

inline bool tgm_misaligned(const void *p, size_t align) {
  return (unsigned long long)p % align != 0;
}

inline tgm_size tgm_ceil_div(tgm_size a, tgm_size b) {
  return (a + b - 1) / b;
}

// Blocks for a launch-shape rule (the manifest's "grid").
enum tgm_rule { TGM_ONE, TGM_TILES, TGM_TILES_VEC, TGM_STRIDED, TGM_STRIDED_VEC };

inline unsigned tgm_grid(tgm_rule rule, const T *in, tgm_size n, unsigned block, unsigned items,
                                unsigned grid_cap) {
  tgm_size elems = n;
  if (rule == TGM_TILES_VEC || rule == TGM_STRIDED_VEC) { // the 16-byte aligned body
    tgm_size head = ((16 - ((unsigned long long)in & 15)) & 15) / sizeof(T);
    elems = (n - (head < n ? head : n)) / TGM_VW;
  }
  tgm_size g = tgm_ceil_div(elems, (tgm_size)block * items);
  if (rule == TGM_ONE || g == 0)
    g = 1;
  if ((rule == TGM_STRIDED || rule == TGM_STRIDED_VEC) && g > grid_cap)
    g = grid_cap;
  return g > 0x7fffffffull ? 0x7fffffffu : (unsigned)g;
}

inline size_t tgm_partials_bytes(unsigned grid) {
  return ((size_t)grid * sizeof(A) + 15) / 16 * 16;
}

{{#launchers}}
template <unsigned BLOCK>
size_t temp_bytes_{{cname}}(tgm_size n, unsigned items, unsigned grid_cap) {
  (void)n, (void)items, (void)grid_cap;
  return {{temp_expr}};
}

// {{id}}
template <unsigned BLOCK>
{{err_t}} launch_{{cname}}({{host_in_decls}}, tgm_size n, R *out, void *temp, size_t temp_bytes, unsigned items,
                           unsigned grid_cap{{param_decls}}, {{stream_t}} stream) {
  if (!out || {{in_checks}} || tgm_misaligned(out, sizeof(R)) || items == 0 || grid_cap == 0)
    return {{err_invalid}};
  if (n == 0) {
    TGM_LAUNCH(tgm_init, 1, 1, stream, out{{param_args}});
    return {{get_last_error}}();
  }
  unsigned grid = tgm_grid({{grid_enum}}, {{first_in}}, n, BLOCK, items, grid_cap);
  A *partials = nullptr;
  unsigned *counter = nullptr;
{{?partials}}
  if (!temp || temp_bytes < tgm_partials_bytes(grid){{?counter}} + 16{{/counter}})
    return {{err_invalid}};
  partials = static_cast<A *>(temp);
{{/partials}}
{{?counter}}
  counter = reinterpret_cast<unsigned *>(static_cast<char *>(temp) + tgm_partials_bytes(grid));
{{/counter}}
  (void)temp, (void)temp_bytes;
{{?needs_init}}
  TGM_LAUNCH(tgm_init, 1, 1, stream, out{{param_args}});
{{/needs_init}}
  TGM_LAUNCH({{cname}}<BLOCK>, grid, BLOCK, stream, {{in_args}}, n, out, partials, counter, items{{param_args}});
{{?pass2}}
  TGM_LAUNCH({{cname}}_pass2<BLOCK>, 1, BLOCK, stream, partials, grid, out, n{{param_args}});
{{/pass2}}
  return {{get_last_error}}();
}

{{/launchers}}
} // namespace {{namespace}}

// Every variant: X(id, kernel, deterministic), e.g. for a table of launchers.
#define {{macro}}(X) \
{{#launchers}}
  X("{{id}}", {{cname}}, {{deterministic}}){{more}}
{{/launchers}}

#endif // !{{rtc}}
