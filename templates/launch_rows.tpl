
// -------------------------------------------------------------- host launchers
// launch_<kernel><BLOCK>({{in_args}}, m, n, ld, out, items, group{{param_args}}, stream)
// reduces each of the m rows of n elements, ld elements apart, into out[r]:
// no host synchronisation, errors returned, not printed, no temp storage.
// RW variants take a row with `group` threads (1, 2, 4, 8, 16 or 32, at most
// BLOCK), RB variants with a block (group must be 0). m = 0 launches
// nothing; n = 0 gives every row the spectrum of no elements.
#if !defined({{rtc}})
{{launch_rule}}
namespace {{namespace}} {

inline bool tgm_misaligned(const void *p, size_t align) {
  return (unsigned long long)p % align != 0;
}

// The group sizes RW variants take: 1, 2, 4, 8, 16, 32 (and at most BLOCK).
inline bool tgm_group_ok(unsigned group, unsigned block) {
  return group >= 1 && group <= 32 && group <= block && (group & (group - 1)) == 0;
}

{{#launchers}}
{{?grouped}}
template <unsigned BLOCK, unsigned GROUP>
{{err_t}} launch_{{cname}}_group(unsigned grid, {{host_in_decls}}, tgm_size m, tgm_size n, tgm_size ld, R *out,
                                 unsigned items{{param_decls}}, {{stream_t}} stream) {
  auto kernel = {{cname}}<BLOCK, GROUP>;
  TGM_LAUNCH(kernel, grid, BLOCK, stream, {{in_args}}, m, n, ld, out, items{{param_args}});
  return {{get_last_error}}();
}

{{/grouped}}
// {{id}}
template <unsigned BLOCK>
{{err_t}} launch_{{cname}}({{host_in_decls}}, tgm_size m, tgm_size n, tgm_size ld, R *out, unsigned items,
                           unsigned group{{param_decls}}, {{stream_t}} stream) {
  if (!out || {{in_checks}} || tgm_misaligned(out, sizeof(R)) || items == 0 || ld < n)
    return {{err_invalid}};
{{?grouped}}
  if (!tgm_group_ok(group, BLOCK))
    return {{err_invalid}};
{{/grouped}}
{{?single}}
  if (group != 0)
    return {{err_invalid}};
{{/single}}
  if (m == 0)
    return {{success}};
  unsigned grid = tgm_rows_grid_of(m, BLOCK, group);
  if (grid == 0)
    return {{err_invalid}};
{{?grouped}}
  switch (group) {
  case 1: return launch_{{cname}}_group<BLOCK, 1>(grid, {{in_args}}, m, n, ld, out, items{{param_args}}, stream);
  case 2: return launch_{{cname}}_group<BLOCK, 2>(grid, {{in_args}}, m, n, ld, out, items{{param_args}}, stream);
  case 4: return launch_{{cname}}_group<BLOCK, 4>(grid, {{in_args}}, m, n, ld, out, items{{param_args}}, stream);
  case 8: return launch_{{cname}}_group<BLOCK, 8>(grid, {{in_args}}, m, n, ld, out, items{{param_args}}, stream);
  case 16: return launch_{{cname}}_group<BLOCK, 16>(grid, {{in_args}}, m, n, ld, out, items{{param_args}}, stream);
  default: return launch_{{cname}}_group<BLOCK, 32>(grid, {{in_args}}, m, n, ld, out, items{{param_args}}, stream);
  }
{{/grouped}}
{{?single}}
  TGM_LAUNCH({{cname}}<BLOCK>, grid, BLOCK, stream, {{in_args}}, m, n, ld, out, items{{param_args}});
  return {{get_last_error}}();
{{/single}}
}

{{/launchers}}
} // namespace {{namespace}}

// Every variant: X(id, kernel, deterministic), e.g. for a table of launchers.
#define {{macro}}(X) \
{{#launchers}}
  X("{{id}}", {{cname}}, {{deterministic}}){{more}}
{{/launchers}}

#endif // !{{rtc}}
