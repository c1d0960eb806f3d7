
// ------------------------------------------------------------- the entry point
// {{fname}}: a CUB-like call over the {{shape_plural}} of a row-major m x n
// matrix, row r at d_in + r * ld (ld >= n elements), the kernel and its
// knobs chosen at each call by {{pick_fn}} (templates/launch_rule.tpl)
// from m, n and the GPU's SM count and threads a block.
//
//   size_t bytes = 0;
//   {{fname}}(nullptr, &bytes, {{embed_in_args}}, d_out, m, n, ld{{param_args}}, stream);  // the temp size
//   {{malloc}}(&d_temp, bytes);
//   {{fname}}(d_temp, &bytes, {{embed_in_args}}, d_out, m, n, ld{{param_args}}, stream);   // d_out[0..{{out_count}})
//
// {{meaning}}{{renamed}}
//
// It keeps cub::DeviceSegmentedReduce's contract:
// - {{temp_contract}} A NULL d_temp is a size query, and only that. d_temp
//   needs no alignment.
// - {{empty_note}}.
// - m and n beyond 2^32 work; d_in, d_out and ld need only the element
//   type's alignment; ld < n, and d_out inside the matrix, return
//   {{err_invalid}}.
// - The call only enqueues work on `stream`: a kernel and, when several
//   blocks share a {{shape}}, a memset of their counters in d_temp{{?cols}}{{?early_launch}} (on
//   sm_90+ a small kernel instead){{/early_launch}}{{?ca}}, or a small kernel that
//   sets d_out to the identity before the parts combine into it
//   atomically ({{ca}}){{/ca}}{{/cols}}{{?rows}}{{?ra}}, or a small kernel that sets
//   d_out to the identity before the blocks combine into it atomically
//   ({{ra}}){{/ra}}{{/rows}}. It allocates
//   nothing and never synchronises the host, so it can be captured in
//   {{graph}} and the graph replayed with new data in the same buffers. It
//   writes d_out and d_temp only, so streams may run it at once, each with
//   its own d_temp. Every error is returned.
#if !defined({{rtc}})
namespace {{namespace}} {

{{?early_launch}}
// An empty kernel whose attributes say which code of this program the GPU
// runs (its PTX version): code built for a GPU older than sm_90 (-arch=sm_80
// run on an sm_90 GPU from its PTX) has none of the waits a kernel started
// early needs, whatever GPU runs it.
[[maybe_unused]] __global__ void tgm_image_probe() {}

{{/early_launch}}
// The current GPU's SM count, threads a block, compute capability (its
// major number{{?early_launch}}, or the code's where this program holds code for an older GPU
// only{{/early_launch}}) and a SM's share of the memory bandwidth (GB/s, 0 where the
// memory clock or bus width is unknown: launch_rule.tpl's tgm_sm_gbps), read
// at the first call on the GPU and kept in one word per GPU (for the first
// 64; a later one is read at every call). Threads may race to store the
// same word: no lock.
inline {{err_t}} tgm_device_limits(unsigned *sms, unsigned *max_threads, unsigned *cc_major,
                                   unsigned *sm_gbps) {
  // 0: not yet; else GB/s a SM << 32 | major << 24 | SMs << 11 | threads a block
  static std::atomic<unsigned long long> known[64];
  int dev = 0;
  {{err_t}} e = {{get_device}}(&dev);
  if (e != {{success}})
    return e;
  unsigned long long word = dev >= 0 && dev < 64 ? known[dev].load(std::memory_order_relaxed) : 0;
  if (word == 0) {
    int count = 0, threads = 0, major = 0, mem_khz = 0, bus_bits = 0;
    e = {{get_attribute}}(&count, {{sm_count_attr}}, dev);
    if (e == {{success}})
      e = {{get_attribute}}(&threads, {{max_threads_attr}}, dev);
    if (e == {{success}})
      e = {{get_attribute}}(&major, {{cc_major_attr}}, dev);
    if (e != {{success}})
      return e;
    if (count <= 0 || count > 8191 || threads < 32 || threads > 2047 || major < 0 || major > 255)
      return {{err_invalid}};
{{?early_launch}}
    cudaFuncAttributes code;
    if (major >= 9) {
      e = cudaFuncGetAttributes(&code, tgm_image_probe);
      if (e != {{success}})
        return e;
      if (code.ptxVersion / 10 < major)
        major = code.ptxVersion / 10;
    }
{{/early_launch}}
    // the bandwidth is a hint: where it cannot be read it is unknown, and
    // the error is taken off the thread so that no later check reports it
    if ({{get_attribute}}(&mem_khz, {{mem_clock_attr}}, dev) != {{success}} ||
        {{get_attribute}}(&bus_bits, {{bus_width_attr}}, dev) != {{success}}) {
      (void){{clear_last_error}}();
      mem_khz = bus_bits = 0;
    }
    word = (unsigned long long)tgm_sm_gbps(tgm_mem_gbps(mem_khz, bus_bits), count) << 32 |
           (unsigned long long)major << 24 |
           (unsigned long long)count << 11 | (unsigned long long)threads;
    if (dev >= 0 && dev < 64)
      known[dev].store(word, std::memory_order_relaxed);
  }
  *sms = (unsigned)(word >> 11 & 8191);
  *max_threads = (unsigned)(word & 2047);
  *cc_major = (unsigned)(word >> 24 & 255);
  *sm_gbps = (unsigned)(word >> 32);
  return {{success}};
}
{{?atomic}}

// Whether the rule runs {{atomic}} where it runs {{atomic_where}}:
// {{atomic_what}}.
{{?atomic_float}}
// Not in a header compiled with TGM_DETERMINISTIC defined: the float
// atomics of {{atomic}} round differently from run to run, where
// {{atomic_fold}} in order.
// Tuned cells run what they name: tune with --deterministic for those.
#if defined(TGM_DETERMINISTIC)
constexpr int {{atomic_switch}} = 0;
#else
constexpr int {{atomic_switch}} = 1;
#endif
{{/atomic_float}}
{{?atomic_exact}}
// Its result does not depend on the order of the atomics.
constexpr int {{atomic_switch}} = 1;
{{/atomic_exact}}
{{/atomic}}
{{?rows}}

// Runs pick k: {{rw_narrow}} (RW, n < 128), {{rw_wide}} (RW), {{rb}} (RB) and
// {{rl}} (RL){{?ra}}, or {{ra}} where k.atomic{{/ra}}, in the blocks tgm_rows_pick_of gives. temp:
// 16-byte aligned, tgm_rows_embed_temp(sizeof(A)) bytes. early: the GPU
// starts a kernel before the one ahead of it in the stream ends, where the
// launch allows it (tgm_pick's).
inline {{err_t}} tgm_pick_run(const tgm_rows_pick &k, {{in_decls}}, tgm_size m, tgm_size n, tgm_size ld, R *out,
                              void *temp, size_t temp_bytes{{param_decls}}, {{stream_t}} stream, bool early) {
{{?ra}}
  if (k.kind == 2 && k.atomic) { // {{ra}}: out set to the identity, then the blocks' atomics (no counters)
    switch (k.block) {
    case 128: return launch_{{ra_c}}<128>({{in_args}}, m, n, ld, out, temp, temp_bytes, k.items, k.per_row{{param_args}}, stream, early);
    case 256: return launch_{{ra_c}}<256>({{in_args}}, m, n, ld, out, temp, temp_bytes, k.items, k.per_row{{param_args}}, stream, early);
    case 512: return launch_{{ra_c}}<512>({{in_args}}, m, n, ld, out, temp, temp_bytes, k.items, k.per_row{{param_args}}, stream, early);
    case 1024: return launch_{{ra_c}}<1024>({{in_args}}, m, n, ld, out, temp, temp_bytes, k.items, k.per_row{{param_args}}, stream, early);
    }
    return {{err_invalid}};
  }
{{/ra}}
  (void)early;
  switch (k.kind) {
  case 0: // blocks of 128, or 256 for a thread a row
    if (k.block == 256 && !k.vec)
      return launch_{{rw_narrow_c}}<256>({{in_args}}, m, n, ld, out, temp, temp_bytes, k.items, k.per_row{{param_args}},
                                        stream);
    if (k.block != 128)
      return {{err_invalid}};
    if (k.vec)
      return launch_{{rw_wide_c}}<128>({{in_args}}, m, n, ld, out, temp, temp_bytes, k.items, k.per_row{{param_args}},
                                        stream);
    return launch_{{rw_narrow_c}}<128>({{in_args}}, m, n, ld, out, temp, temp_bytes, k.items, k.per_row{{param_args}},
                                        stream);
  case 1:
    switch (k.block) {
    case 128: return launch_{{rb_c}}<128>({{in_args}}, m, n, ld, out, temp, temp_bytes, k.items, 0{{param_args}}, stream);
    case 256: return launch_{{rb_c}}<256>({{in_args}}, m, n, ld, out, temp, temp_bytes, k.items, 0{{param_args}}, stream);
    case 512: return launch_{{rb_c}}<512>({{in_args}}, m, n, ld, out, temp, temp_bytes, k.items, 0{{param_args}}, stream);
    case 1024: return launch_{{rb_c}}<1024>({{in_args}}, m, n, ld, out, temp, temp_bytes, k.items, 0{{param_args}}, stream);
    }
    return {{err_invalid}};
  case 2: {
    // the rows' counters start at zero: CUB's temp storage holds anything
    {{err_t}} e = {{memset_async}}(temp, 0, (size_t)m * 4, stream);
    if (e != {{success}})
      return e;
    switch (k.block) {
    case 128: return launch_{{rl_c}}<128>({{in_args}}, m, n, ld, out, temp, temp_bytes, k.items, k.per_row{{param_args}}, stream);
    case 256: return launch_{{rl_c}}<256>({{in_args}}, m, n, ld, out, temp, temp_bytes, k.items, k.per_row{{param_args}}, stream);
    case 512: return launch_{{rl_c}}<512>({{in_args}}, m, n, ld, out, temp, temp_bytes, k.items, k.per_row{{param_args}}, stream);
    case 1024: return launch_{{rl_c}}<1024>({{in_args}}, m, n, ld, out, temp, temp_bytes, k.items, k.per_row{{param_args}}, stream);
    }
    return {{err_invalid}};
  }
  }
  return {{err_invalid}};
}

// What runs for m rows of n on the current GPU, and whether it starts a
// kernel before the one ahead of it in the stream ends, where the launch
// allows it (*early: programmatic dependent launch, compute capability 9.0
// and later{{?no_early_launch}}; never here{{/no_early_launch}}).
inline {{err_t}} tgm_pick(tgm_size m, tgm_size n, tgm_rows_pick *k, bool *early) {
  unsigned sms = 0, max_threads = 0, major = 0, sm_gbps = 0;
  {{err_t}} e = tgm_device_limits(&sms, &max_threads, &major, &sm_gbps);
  *early = false;
  if (e == {{success}}) {
    *k = tgm_rows_pick_of(m, n, sms, max_threads, sm_gbps, {{ra_atomics}});
{{?early_launch}}
    *early = major >= 9;
{{/early_launch}}
  }
  return e;
}
{{/rows}}
{{?cols}}

// Runs pick k with {{ct}} ({{ct_how}}){{?ca}}, or {{ca}} where k.atomic{{/ca}}. temp: 16-byte aligned,
// tgm_cols_embed_temp(n, sizeof(A)) bytes. early: the GPU starts a kernel
// before the one ahead of it in the stream ends, where the launch allows it
// (tgm_pick's). In parts {{?ca}}without atomics {{/ca}}the column tiles' counters start at zero
// (CUB's temp storage holds anything): {{?early_launch}}where early a kernel clears them and the
// column kernel starts before it ends (bench/results/2026-11-27-cols-clear),
// else {{/early_launch}}a memset clears them.
inline {{err_t}} tgm_pick_run(const tgm_cols_pick &k, {{in_decls}}, tgm_size m, tgm_size n, tgm_size ld, R *out,
                              void *temp, size_t temp_bytes{{param_decls}}, {{stream_t}} stream, bool early) {
{{?ca}}
  // {{ca}}: out set to the identity, then the parts' atomics (no counters)
  const bool atomic = k.atomic;
{{/ca}}
{{?no_ca}}
  const bool atomic = false;
{{/no_ca}}
  if (!atomic && k.parts > 1 && n > 0) {
    {{err_t}} e = {{success}};
{{?early_launch}}
    if (early) {
      TGM_LAUNCH(tgm_clear_counters, 1, 256, stream, static_cast<unsigned *>(temp), (unsigned)TGM_ROWS_PARTS_MAX);
      e = {{peek_last_error}}();
    }
{{/early_launch}}
    if (e == {{success}} && !early)
      e = {{memset_async}}(temp, 0, (size_t)TGM_ROWS_PARTS_MAX * 4, stream);
    if (e != {{success}})
      return e;
  }
  const unsigned width = {{cols_width}};
  switch (k.block) {
  case 128: return {{?ca}}(atomic ? launch_{{ca_c}}<128> : launch_{{ct_c}}<128>){{/ca}}{{?no_ca}}launch_{{ct_c}}<128>{{/no_ca}}({{in_args}}, m, n, ld, out, temp, temp_bytes, k.parts, width{{param_args}}, stream, early);
  case 256: return {{?ca}}(atomic ? launch_{{ca_c}}<256> : launch_{{ct_c}}<256>){{/ca}}{{?no_ca}}launch_{{ct_c}}<256>{{/no_ca}}({{in_args}}, m, n, ld, out, temp, temp_bytes, k.parts, width{{param_args}}, stream, early);
  case 512: return {{?ca}}(atomic ? launch_{{ca_c}}<512> : launch_{{ct_c}}<512>){{/ca}}{{?no_ca}}launch_{{ct_c}}<512>{{/no_ca}}({{in_args}}, m, n, ld, out, temp, temp_bytes, k.parts, width{{param_args}}, stream, early);
  case 1024: return {{?ca}}(atomic ? launch_{{ca_c}}<1024> : launch_{{ct_c}}<1024>){{/ca}}{{?no_ca}}launch_{{ct_c}}<1024>{{/no_ca}}({{in_args}}, m, n, ld, out, temp, temp_bytes, k.parts, width{{param_args}}, stream, early);
  }
  return {{err_invalid}};
}

// What runs for the n columns of m rows on the current GPU, and whether it
// starts a kernel before the one ahead of it in the stream ends, where the
// launch allows it (*early: programmatic dependent launch, compute
// capability 9.0 and later{{?no_early_launch}}; never here{{/no_early_launch}}).
inline {{err_t}} tgm_pick(tgm_size m, tgm_size n, tgm_cols_pick *k, bool *early) {
  unsigned sms = 0, max_threads = 0, major = 0, sm_gbps = 0;
  {{err_t}} e = tgm_device_limits(&sms, &max_threads, &major, &sm_gbps);
  *early = false;
  if (e == {{success}}) {
    *k = tgm_cols_pick_of(m, n, sms, TGM_VW, {{ca_atomics}});
{{?early_launch}}
    *early = major >= 9;
{{/early_launch}}
  }
  return e;
}
{{/cols}}
{{?tuned}}

// ------------------------------------------------------------ the tuned cells
// tgm-tune's choices ({{tuned_how}}), per tuned GPU: a setting per cell
// 2^log2m x 2^log2n, which holds m in [2^(log2m - 1), 2^(log2m + 1)) and n
// likewise (tgm_shape_cell). A shape whose cell is not there, on a GPU not
// tuned, or whose setting does not fit the temp storage (a larger shape of
// its cell), runs {{pick_fn}}'s choice.
struct tgm_cell {
  unsigned char log2m, log2n, slot;
  unsigned short block, items;
  unsigned per_row, width, parts; // RW's threads a row or RL's blocks a row; CT's width and parts
};
struct tgm_cell_table {
  const char *device; // the GPU it was tuned on, as the runtime names it
  int cc_major, cc_minor, sms, count;
  const tgm_cell *cells;
};
{{#tables}}

// {{note}}
constexpr tgm_cell tgm_cells_{{tindex}}[] = {
{{#rows}}
    {{row}}
{{/rows}}
};
{{/tables}}

constexpr tgm_cell_table tgm_cell_tables[] = {
{{#tables}}
    {{table_row}}
{{/tables}}
};
enum { TGM_CELL_TABLES = {{ntables}} };

// The current GPU's table (the one tuned on a GPU of its name, compute
// capability and SM count), nullptr where none is: chosen at the first call
// on the GPU and kept in one word per GPU (the first 64; a later one looks
// at every call). Threads may race to store the same word: no lock.
inline {{err_t}} tgm_cell_table_of(const tgm_cell_table **table) {
  static std::atomic<int> chosen[64]; // 0: not yet; 1: none; else table + 2
  int dev = 0;
  {{err_t}} e = {{get_device}}(&dev);
  if (e != {{success}})
    return e;
  int word = dev >= 0 && dev < 64 ? chosen[dev].load(std::memory_order_relaxed) : 0;
  if (word == 0) {
    int sms = 0, major = 0, minor = 0;
    e = {{get_attribute}}(&sms, {{sm_count_attr}}, dev);
    if (e == {{success}})
      e = {{get_attribute}}(&major, {{cc_major_attr}}, dev);
    if (e == {{success}})
      e = {{get_attribute}}(&minor, {{cc_minor_attr}}, dev);
    if (e != {{success}})
      return e;
    word = 1;
    {{props_t}} props;
    bool named = false; // the name comes with the properties: read once, when a table may match
    for (int i = 0; i < TGM_CELL_TABLES && word == 1; i++) {
      const tgm_cell_table &t = tgm_cell_tables[i];
      if (t.cc_major != major || t.cc_minor != minor || t.sms != sms)
        continue;
      if (!named) {
        e = {{get_props}}(&props, dev);
        if (e != {{success}})
          return e;
        named = true;
      }
      if (strcmp(props.name, t.device) == 0)
        word = i + 2;
    }
    if (dev >= 0 && dev < 64)
      chosen[dev].store(word, std::memory_order_relaxed);
  }
  *table = word >= 2 ? &tgm_cell_tables[word - 2] : nullptr;
  return {{success}};
}

// The tuned cell of m x n on the current GPU, when its setting fits; else nullptr.
inline {{err_t}} tgm_cell_of(tgm_size m, tgm_size n, const tgm_cell **cell) {
  *cell = nullptr;
  const tgm_cell_table *t = nullptr;
  {{err_t}} e = tgm_cell_table_of(&t);
  if (e != {{success}} || !t || m == 0 || n == 0)
    return e;
  const int lm = tgm_shape_cell(m), ln = tgm_shape_cell(n);
  for (int i = 0; i < t->count; i++) {
    const tgm_cell &k = t->cells[i];
    if (k.log2m != lm || k.log2n != ln)
      continue;
{{#slots}}
    if (k.slot == {{slot}} && {{slot_fits}})
      *cell = &k;
{{/slots}}
    break;
  }
  return {{success}};
}

// Runs cell k's setting, by its slot:
{{#slots}}
//   {{slot}}: {{slot_id}}
{{/slots}}
// temp: 16-byte aligned, the call's temp size.
inline {{err_t}} tgm_cell_run(const tgm_cell &k, {{in_decls}}, tgm_size m, tgm_size n, tgm_size ld, R *out,
                              void *temp, size_t temp_bytes{{param_decls}}, {{stream_t}} stream) {
  size_t clear = 0;
  switch (k.slot) {
{{#slots}}
  case {{slot}}:
{{?slot_clear}}
    clear = {{slot_clear}};
    if (clear != 0) {
      {{err_t}} e = {{memset_async}}(temp, 0, clear, stream); // CUB's temp storage holds anything
      if (e != {{success}})
        return e;
    }
{{/slot_clear}}
    switch (k.block) {
    case 128: return launch_{{slot_c}}<128>({{in_args}}, m, n, ld, out, temp, temp_bytes, {{slot_knobs}}{{param_args}}, stream);
    case 256: return launch_{{slot_c}}<256>({{in_args}}, m, n, ld, out, temp, temp_bytes, {{slot_knobs}}{{param_args}}, stream);
    case 512: return launch_{{slot_c}}<512>({{in_args}}, m, n, ld, out, temp, temp_bytes, {{slot_knobs}}{{param_args}}, stream);
    case 1024: return launch_{{slot_c}}<1024>({{in_args}}, m, n, ld, out, temp, temp_bytes, {{slot_knobs}}{{param_args}}, stream);
    }
    return {{err_invalid}};
{{/slots}}
  }
  (void)clear;
  return {{err_invalid}};
}
{{/tuned}}

} // namespace {{namespace}}

// The temp size {{fname}} asks for: {{temp_note}}.
inline size_t {{fname}}_temp_bytes({{temp_decl}}) { return {{temp_fn}}sizeof({{namespace}}::A)) + 16; }

inline {{err_t}} {{fname}}(void *d_temp, size_t *temp_bytes, {{embed_in_decls}}, {{out_t}} *d_out, size_t m,
                           size_t n, size_t ld{{embed_param_decls}}, {{stream_t}} stream = 0) {
  namespace ns = {{namespace}};
  if (!temp_bytes)
    return {{err_invalid}};
  if (!d_temp) {
    *temp_bytes = {{fname}}_temp_bytes({{temp_arg}});
    return {{success}};
  }
  if ({{out_count}} == 0) // no outputs: nothing to do, whatever the rest (CUB's no segments)
    return {{success}};
  if (*temp_bytes < {{fname}}_temp_bytes({{temp_arg}}))
    return {{err_invalid}};
  // the 16-byte aligned part of d_temp (its size leaves room for that)
  size_t skip = (16 - (size_t)((uintptr_t)d_temp % 16)) % 16;
{{?tuned}}
  const ns::tgm_cell *cell = nullptr;
  {{err_t}} te = ns::tgm_cell_of(m, n, &cell);
  if (te != {{success}})
    return te;
  if (cell)
    return ns::tgm_cell_run(*cell, {{embed_in_args}}, m, n, ld, d_out, static_cast<char *>(d_temp) + skip,
                            *temp_bytes - skip{{param_args}}, stream);
{{/tuned}}
  {{pick_t}} k;
  bool early = false;
  {{err_t}} e = ns::tgm_pick(m, n, &k, &early);
  if (e != {{success}})
    return e;
  return ns::tgm_pick_run(k, {{embed_in_args}}, m, n, ld, d_out, static_cast<char *>(d_temp) + skip, *temp_bytes - skip{{param_args}},
                          stream, early);
}
{{?long_t}}

#if defined(__LP64__) || defined(_LP64)
namespace {{namespace}} {
template <typename L> struct tgm_is_int64 {}; // int64_t's type here, {{long_t}}: the same 64 bits
template <> struct tgm_is_int64<{{long_t}}> { typedef int type; };
} // namespace {{namespace}}
// The same call over int64_t buffers ({{long_t}} here, not {{sig_t}}); a template, so that
// a size query's nullptr picks the call above
template <typename L, typename {{namespace}}::tgm_is_int64<L>::type = 0>
inline {{err_t}} {{fname}}(void *d_temp, size_t *temp_bytes, {{long_in_decls}}, {{long_out_t}} *d_out, size_t m,
                           size_t n, size_t ld{{embed_param_decls}}, {{stream_t}} stream = 0) {
  static_assert(sizeof(L) == sizeof({{sig_t}}), "int64_t's width");
  return {{fname}}(d_temp, temp_bytes, {{long_in_args}}, {{long_out_arg}}, m, n, ld{{param_args}}, stream);
}
#endif
{{/long_t}}
#endif // !{{rtc}}
} // namespace (the header's internal linkage)
