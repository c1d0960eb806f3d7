
// -------------------------------------------------------------- host launchers
// launch_<kernel><BLOCK>({{in_args}}, n, out, temp, temp_bytes, items, grid_cap{{param_args}}, stream)
// runs one variant: no host synchronisation, errors returned, not printed.
// temp: temp_bytes_<kernel><BLOCK>(n, items, grid_cap) bytes (0: none); the
// counter word of the last-block variants must be zero when temp is first
// used, and they leave it zero.
#if !defined({{rtc}})
{{launch_rule}}
namespace {{namespace}} {

inline bool tgm_misaligned(const void *p, size_t align) {
  return (unsigned long long)p % align != 0;
}

// Blocks for a launch-shape rule (the manifest's "grid"), for this T.
inline unsigned tgm_grid(tgm_rule rule, const T *in, tgm_size n, unsigned block, unsigned items,
                                unsigned grid_cap) {
  return tgm_grid_of(rule, (unsigned long long)in, n, block, items, grid_cap, sizeof(T));
}

inline size_t tgm_partials_bytes(unsigned grid) {
  return tgm_temp_need(grid, sizeof(A), 1, 0);
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
  if (!out || {{in_checks}} || tgm_misaligned(out, alignof(R)) || items == 0 || grid_cap == 0)
    return {{err_invalid}};
  if (n == 0) {
    TGM_LAUNCH(tgm_init, 1, 1, stream, out{{param_args}});
    return {{peek_last_error}}();
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
  return {{peek_last_error}}();
}

{{/launchers}}
} // namespace {{namespace}}

// Every variant: X(id, kernel, deterministic), e.g. for a table of launchers.
#define {{macro}}(X) \
{{#launchers}}
  X("{{id}}", {{cname}}, {{deterministic}}){{more}}
{{/launchers}}

#endif // !{{rtc}}
