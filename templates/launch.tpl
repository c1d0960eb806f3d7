
// -------------------------------------------------------------- host launchers
// launch_<kernel><BLOCK>({{in_args}}, n, out, temp, temp_bytes, items, grid_cap{{param_args}}, stream)
// runs one variant: no host synchronisation, errors returned, not printed.
// temp: temp_bytes_<kernel><BLOCK>(n, items, grid_cap) bytes (0: none); the
// counter word of the last-block variants must be zero when temp is first
// used, and they leave it zero. A launcher of a kernel compiled for its
// loads in flight (file.tpl's tgm_values_DS_SV) takes ITEMS too: 0 runs the
// kernel tgm_items_path gives `items`, 1, 4 or 16 that kernel alone (the
// embedded call names it, so that no other is compiled).
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
{{?per_items}}
template <unsigned BLOCK, unsigned ITEMS = 0>
{{/per_items}}
{{?whole}}
template <unsigned BLOCK>
{{/whole}}
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
{{?per_items}}
  static_assert(ITEMS == 0 || ITEMS == 1 || ITEMS == 4 || ITEMS == 16, "ITEMS: 0, 1, 4 or 16");
  const unsigned path = ITEMS ? ITEMS : tgm_items_path(items);
  auto kernel = path == 16 ? {{cname}}<BLOCK, ITEMS ? ITEMS : 16>
                : path == 4 ? {{cname}}<BLOCK, ITEMS ? ITEMS : 4>
                            : {{cname}}<BLOCK, ITEMS ? ITEMS : 1>;
{{/per_items}}
  TGM_LAUNCH({{kernel}}, grid, BLOCK, stream, {{in_args}}, n, out, partials, counter, items{{param_args}});
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
