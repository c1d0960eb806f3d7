
// -------------------------------------------------------------- host launchers
// launch_<kernel><BLOCK>({{in_args}}, m, n, ld, out, temp, temp_bytes, items, per_row{{param_args}}, stream)
// reduces each of the m rows of n elements, ld elements apart, into out[r]:
// no host synchronisation, errors returned, not printed. per_row is what
// takes a row: RW variants `per_row` threads (1, 2, 4, 8, 16 or 32, at most
// BLOCK), RL variants `per_row` blocks (m at most TGM_ROWS_PARTS_MAX), RA
// variants `per_row` blocks combined with atomics (m at most 65535), RB
// variants a block (per_row must be 0). Only RL uses temp:
// temp_bytes_<kernel><BLOCK>(m, n, items, per_row) bytes, 16-byte aligned,
// whose first TGM_ROWS_PARTS_MAX * 4 bytes (the rows' counters) are zero
// when temp is first used; every call leaves them zero. m = 0 launches
// nothing; n = 0 gives every row the spectrum of no elements. A kernel
// compiled for its loads in flight (file.tpl's tgm_values_DS_SV: the row
// variants with vector loads) runs as tgm_items_path gives `items`.
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

{{?early_launch}}
{{?wait_prior}}
// Launches kernel to start before the grid ahead of it in the stream ends
// (programmatic stream serialization, sm_90+); it waits for that grid
// where it says so (tgm_wait_prior_grids).
template <typename... P, typename... Args>
{{err_t}} tgm_launch_early(void (*kernel)(P...), dim3 grid, unsigned block, {{stream_t}} stream, Args... args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = dim3(block);
  config.stream = stream;
  cudaLaunchAttribute early[1];
  early[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  early[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = early;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, args...);
}

{{/wait_prior}}
{{/early_launch}}
{{#launchers}}
{{?columns}}
// {{id}}: out[j] for each column j < n; `width` {{col_unit}} a block (1, 2,
// 4, ..., BLOCK), `parts` blocks down the rows (1 to 65535).
{{?col_parts}}
// Above 1 part, n / width at most TGM_ROWS_PARTS_MAX and temp as RL's:
// counters, then parts x n partials.
{{/col_parts}}
{{?col_atomic}}
// temp unused: tgm_init_out, launched first, sets out to the identity,
// and the parts combine into it atomically.
{{/col_atomic}}
// n = 0 launches nothing; m = 0 gives every column the spectrum of no
// elements. early: {{?col_parts}}{{after_clear_note}}{{/col_parts}}{{?col_atomic}}{{after_init_note}}{{/col_atomic}}.
template <unsigned BLOCK>
size_t temp_bytes_{{cname}}(tgm_size m, tgm_size n, unsigned parts, unsigned width) {
  (void)m, (void)width;
{{?col_parts}}
  return parts > 1 ? tgm_rows_temp_need(n, parts, sizeof(A)) : 0;
{{/col_parts}}
{{?col_atomic}}
  (void)n, (void)parts;
  return 0;
{{/col_atomic}}
}

template <unsigned BLOCK>
{{err_t}} launch_{{cname}}({{host_in_decls}}, tgm_size m, tgm_size n, tgm_size ld, R *out, void *temp,
                           size_t temp_bytes, unsigned parts, unsigned width{{param_decls}}, {{stream_t}} stream,
                           bool early = false) {
  if (!out || {{col_in_checks}} || tgm_misaligned(out, alignof(R)) || ld < n || !tgm_cols_width_ok(width, BLOCK) ||
      parts == 0 || parts > 65535)
    return {{err_invalid}};
  if (n == 0)
    return {{success}};
  // {{col_note}}
  unsigned tiles = tgm_cols_grid_of((unsigned long long){{first_in}}, n, width, {{col_vw}}, sizeof(T));
{{?col_parts}}
  if (tiles == 0 || (parts > 1 && (tiles > TGM_ROWS_PARTS_MAX || !temp || tgm_misaligned(temp, 16) ||
                                   temp_bytes < tgm_rows_temp_need(n, parts, sizeof(A)))))
    return {{err_invalid}};
  unsigned *counter = parts > 1 ? static_cast<unsigned *>(temp) : nullptr;
  A *partials = parts > 1 ? reinterpret_cast<A *>(static_cast<char *>(temp) + TGM_ROWS_PARTS_MAX * 4) : nullptr;
{{?early_launch}}
  if (early && parts > 1)
    return tgm_launch_early({{cname}}<BLOCK>, dim3(tiles, parts), BLOCK, stream, {{in_args}}, m, n, ld, out,
                            partials, counter, width{{param_args}});
{{/early_launch}}
{{/col_parts}}
{{?col_atomic}}
  (void)temp, (void)temp_bytes;
  if (tiles == 0)
    return {{err_invalid}};
  unsigned *counter = nullptr;
  A *partials = nullptr;
  TGM_LAUNCH(tgm_init_out, tgm_init_out_grid(n), 256, stream, out, n);
  {{err_t}} e = {{peek_last_error}}();
  if (e != {{success}})
    return e;
{{?early_launch}}
  if (early)
    return tgm_launch_early({{cname}}<BLOCK>, dim3(tiles, parts), BLOCK, stream, {{in_args}}, m, n, ld, out,
                            partials, counter, width{{param_args}});
{{/early_launch}}
{{/col_atomic}}
  (void)early;
  TGM_LAUNCH({{cname}}<BLOCK>, dim3(tiles, parts), BLOCK, stream, {{in_args}}, m, n, ld, out, partials,
             counter, width{{param_args}});
  return {{peek_last_error}}();
}
{{/columns}}
{{?rowwise}}
template <unsigned BLOCK>
size_t temp_bytes_{{cname}}(tgm_size m, tgm_size n, unsigned items, unsigned per_row) {
  (void)m, (void)n, (void)items, (void)per_row;
  return {{temp_expr}};
}

{{?grouped}}
template <unsigned BLOCK, unsigned GROUP>
{{err_t}} launch_{{cname}}_group(unsigned grid, {{host_in_decls}}, tgm_size m, tgm_size n, tgm_size ld, R *out,
                                 unsigned items{{param_decls}}, {{stream_t}} stream) {
{{?per_items}}
  const unsigned path = tgm_items_path(items);
  auto kernel = path == 16 ? {{cname}}<BLOCK, GROUP, 16> : path == 4 ? {{cname}}<BLOCK, GROUP, 4> : {{cname}}<BLOCK, GROUP, 1>;
{{/per_items}}
{{?whole}}
  auto kernel = {{cname}}<BLOCK, GROUP>;
{{/whole}}
  TGM_LAUNCH(kernel, grid, BLOCK, stream, {{in_args}}, m, n, ld, out, items{{param_args}});
  return {{peek_last_error}}();
}

{{/grouped}}
// {{id}}{{?row_atomic}}: per_row blocks a row (1 to 65535), m at most 65535; temp
// unused: tgm_init_out, launched first, sets out[0..m) to the identity,
// and each block combines its value into out[row] atomically. early:
// {{after_init_note}}{{/row_atomic}}
template <unsigned BLOCK>
{{err_t}} launch_{{cname}}({{host_in_decls}}, tgm_size m, tgm_size n, tgm_size ld, R *out, void *temp,
                           size_t temp_bytes, unsigned items, unsigned per_row{{param_decls}}, {{stream_t}} stream{{?row_atomic}},
                           bool early = false{{/row_atomic}}) {
  if (!out || {{in_checks}} || tgm_misaligned(out, alignof(R)) || items == 0 || ld < n)
    return {{err_invalid}};
{{?grouped}}
  if (!tgm_group_ok(per_row, BLOCK))
    return {{err_invalid}};
{{/grouped}}
{{?single}}
  if (per_row != 0)
    return {{err_invalid}};
{{/single}}
{{?parts}}
  if (per_row == 0 || m > TGM_ROWS_PARTS_MAX ||
      (m > 0 && (!temp || tgm_misaligned(temp, 16) || temp_bytes < tgm_rows_temp_need(m, per_row, sizeof(A)))))
    return {{err_invalid}};
{{/parts}}
{{?row_atomic}}
  if (per_row == 0 || per_row > 65535 || m > 65535)
    return {{err_invalid}};
{{/row_atomic}}
  (void)temp, (void)temp_bytes;
  if (m == 0)
    return {{success}};
{{?per_items_single}}
  const unsigned path = tgm_items_path(items);
  auto kernel = path == 16 ? {{cname}}<BLOCK, 16> : path == 4 ? {{cname}}<BLOCK, 4> : {{cname}}<BLOCK, 1>;
{{/per_items_single}}
{{?grouped}}
  unsigned grid = tgm_rows_grid_of(m, BLOCK, per_row);
{{?row_packed}}
  // packed rows, a thread a row: a thread a vector of rows (tgm_rows_packed)
  const unsigned packed = per_row == 1 ? tgm_rows_packed_of((unsigned long long){{first_in}}, n, ld, TGM_VW, sizeof(T)) : 0;
  if (packed)
    grid = tgm_rows_packed_grid_of(m, BLOCK, packed);
{{/row_packed}}
  if (grid == 0)
    return {{err_invalid}};
  switch (per_row) {
  case 1: return launch_{{cname}}_group<BLOCK, 1>(grid, {{in_args}}, m, n, ld, out, items{{param_args}}, stream);
  case 2: return launch_{{cname}}_group<BLOCK, 2>(grid, {{in_args}}, m, n, ld, out, items{{param_args}}, stream);
  case 4: return launch_{{cname}}_group<BLOCK, 4>(grid, {{in_args}}, m, n, ld, out, items{{param_args}}, stream);
  case 8: return launch_{{cname}}_group<BLOCK, 8>(grid, {{in_args}}, m, n, ld, out, items{{param_args}}, stream);
  case 16: return launch_{{cname}}_group<BLOCK, 16>(grid, {{in_args}}, m, n, ld, out, items{{param_args}}, stream);
  default: return launch_{{cname}}_group<BLOCK, 32>(grid, {{in_args}}, m, n, ld, out, items{{param_args}}, stream);
  }
{{/grouped}}
{{?single}}
  unsigned grid = tgm_rows_grid_of(m, BLOCK, 0);
  if (grid == 0)
    return {{err_invalid}};
  TGM_LAUNCH({{kernel}}, grid, BLOCK, stream, {{in_args}}, m, n, ld, out, items{{param_args}});
  return {{peek_last_error}}();
{{/single}}
{{?parts}}
  unsigned *counter = static_cast<unsigned *>(temp);
  A *partials = reinterpret_cast<A *>(static_cast<char *>(temp) + TGM_ROWS_PARTS_MAX * 4);
  TGM_LAUNCH({{kernel}}, dim3(per_row, (unsigned)m), BLOCK, stream, {{in_args}}, m, n, ld, out, partials, counter,
             items{{param_args}});
  return {{peek_last_error}}();
{{/parts}}
{{?row_atomic}}
  TGM_LAUNCH(tgm_init_out, tgm_init_out_grid(m), 256, stream, out, m);
  {{err_t}} e = {{peek_last_error}}();
  if (e != {{success}})
    return e;
{{?early_launch}}
  if (early)
    return tgm_launch_early({{kernel}}, dim3(per_row, (unsigned)m), BLOCK, stream, {{in_args}}, m, n, ld, out,
                            items{{param_args}});
{{/early_launch}}
  (void)early;
  TGM_LAUNCH({{kernel}}, dim3(per_row, (unsigned)m), BLOCK, stream, {{in_args}}, m, n, ld, out, items{{param_args}});
  return {{peek_last_error}}();
{{/row_atomic}}
}
{{/rowwise}}

{{/launchers}}
} // namespace {{namespace}}

// Every variant: X(id, kernel, deterministic), e.g. for a table of launchers.
#define {{macro}}(X) \
{{#launchers}}
  X("{{id}}", {{cname}}, {{deterministic}}){{more}}
{{/launchers}}

#endif // !{{rtc}}
