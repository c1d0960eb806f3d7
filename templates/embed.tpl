
// ------------------------------------------------------------- the entry point
// {{fname}}: a CUB-like reduction with the variants chosen {{chosen_how}}.
//
//   size_t bytes = 0;
//   {{fname}}(nullptr, &bytes, {{embed_in_args}}, d_out, n{{param_args}}, stream);  // the temp size
//   {{malloc}}(&d_temp, bytes);
//   {{fname}}(d_temp, &bytes, {{embed_in_args}}, d_out, n{{param_args}}, stream);   // d_out[0]
//
// {{meaning}}{{renamed}}
//
// It keeps cub::DeviceReduce's contract:
{{?cub_name}}
// - Its spelling: tgm::DeviceReduce::{{cub_name}}(d_temp, bytes, {{embed_in_args}}, d_out, n, stream)
//   is cub::DeviceReduce::{{cub_name}}'s, the size by reference.
{{/cub_name}}
// - The temp size is at least 1 byte, so the allocation is never NULL (a NULL
//   d_temp is a size query, and only that), and the size for n serves every
//   smaller n on the same GPU: allocate once for the largest n.
// - n = 0 writes the identity's result; n beyond 2^32 works; inputs and d_out
//   need only be aligned for their element type. d_out inside an input (an
//   in-place call) returns {{err_invalid}} and writes nothing.
// - The call only enqueues work on `stream`: its kernels and, for last-block
//   variants, a memset of the counter in d_temp. It allocates nothing and
//   never synchronises the host, so it can be captured in {{graph}}, and the
//   graph replayed with new data in the same buffers. What it writes lives in
//   d_out and d_temp only, so streams may run it at once, each with its own
//   d_temp. Every error is returned.
//
// The tables, a variant and its knobs per size bucket ({{fname}}_table()
// names the one that runs on the current GPU):{{tables_note}}
#if !defined({{rtc}})
namespace {{namespace}} {

// ---------------------------------------------------------------- the choices
// A variant with its knobs; the tables below name one per size bucket.

// The temp bytes choice c needs for n elements on a GPU of `sms` SMs.
inline size_t tgm_choice_temp(int c, tgm_size n, unsigned sms) {
  (void)n, (void)sms;
  switch (c) {
{{#choices}}
  case {{index}}: // {{id}}, block {{block}}, items {{items}}{{cap_note}}
    return {{temp_expr}};
{{/choices}}
  }
  return 0;
}

// Runs choice c; temp holds temp_bytes >= tgm_choice_temp(c, n, sms).
inline {{err_t}} tgm_choice_run(int c, {{in_decls}}, tgm_size n, R *out, void *temp, size_t temp_bytes,
                                unsigned sms{{param_decls}}, {{stream_t}} stream) {
  (void)sms;
  switch (c) {
{{#choices}}
  case {{index}}: { // {{id}}
{{?counter}}
    // the last-block counter sits after the partials; it must start at zero
    size_t counter_at = tgm_temp_need(tgm_grid({{grid_enum}}, {{first_in}}, n, {{block}}, {{items}}, {{cap_arg}}), sizeof(A), 1, 0);
    {{err_t}} e = {{memset_async}}(static_cast<char *>(temp) + counter_at, 0, sizeof(unsigned), stream);
    if (e != {{success}})
      return e;
{{/counter}}
    return launch_{{cname}}<{{block}}{{items_path}}>({{in_args}}, n, out, temp, temp_bytes, {{items}}, {{cap_arg}}{{param_args}}, stream);
  }
{{/choices}}
  }
  return {{err_invalid}};
}

// ----------------------------------------------------------------- the tables
// A bucket serves n up to 2^(to_log2n + 1) - 1 (n = 0: the first bucket);
// the last one serves every larger n too.
struct tgm_bucket {
  int to_log2n, choice;
};

struct tgm_table {
  const char *label;  // what {{fname}}_table() returns
  const char *device; // the GPU it was tuned on, as the runtime names it; nullptr: any
  int cc_major, cc_minor, sms, count;
  const tgm_bucket *buckets;
};
{{#tables}}

// {{label}}
constexpr tgm_bucket tgm_buckets_{{tindex}}[] = {
{{#rows}}
    {{row}}
{{/rows}}
};
{{/tables}}

constexpr tgm_table tgm_tables[] = {
{{#tables}}
    {{table_row}}
{{/tables}}
};
enum { TGM_TABLES = {{ntables}}, TGM_OTHER = {{portable}} }; // TGM_OTHER: the table for any other GPU

// The table for GPU dev and its SM count.
inline {{err_t}} tgm_choose(int dev, int *table, int *sms) {
  *table = TGM_OTHER;
  {{err_t}} e = {{get_attribute}}(sms, {{sm_count_attr}}, dev);
  if (e != {{success}})
    return e;
{{?several}}
  int major = 0, minor = 0;
  e = {{get_attribute}}(&major, {{cc_major_attr}}, dev);
  if (e == {{success}})
    e = {{get_attribute}}(&minor, {{cc_minor_attr}}, dev);
  if (e != {{success}})
    return e;
  {{props_t}} props;
  bool named = false; // the name comes with the properties: read once, when a table may match
  for (int i = 0; i < TGM_TABLES; i++) {
    const tgm_table &t = tgm_tables[i];
    if (!t.device || t.cc_major != major || t.cc_minor != minor || t.sms != *sms)
      continue;
    if (!named) {
      e = {{get_props}}(&props, dev);
      if (e != {{success}})
        return e;
      named = true;
    }
    if (strcmp(props.name, t.device) == 0) {
      *table = i;
      break;
    }
  }
{{/several}}
  return {{success}};
}

// The current GPU's table and SM count: chosen at the first call on the GPU
// and kept in one word per GPU (for the first 64; a later one is looked up
// at every call). Threads may race to store the same word: no lock, and no
// host synchronisation. This word is the only state that outlives a call.
inline {{err_t}} tgm_current(const tgm_table **table, unsigned *sms) {
  static std::atomic<unsigned> chosen[64]; // 0: not yet; else SMs << 8 | table + 1
  int dev = 0;
  {{err_t}} e = {{get_device}}(&dev);
  if (e != {{success}})
    return e;
  unsigned word = dev >= 0 && dev < 64 ? chosen[dev].load(std::memory_order_relaxed) : 0;
  if (word == 0) {
    int t = TGM_OTHER, count = 0;
    e = tgm_choose(dev, &t, &count);
    if (e != {{success}})
      return e;
    word = (unsigned)count << 8 | (unsigned)(t + 1);
    if (dev >= 0 && dev < 64)
      chosen[dev].store(word, std::memory_order_relaxed);
  }
  *table = &tgm_tables[(word & 255) - 1];
  *sms = word >> 8;
  return {{success}};
}

// n's bucket in table t.
inline int tgm_bucket_of(const tgm_table *t, tgm_size n) {
  int b = 0;
  while (b + 1 < t->count && (n >> t->buckets[b].to_log2n) > 1) // n >= 2^(to_log2n + 1)
    b++;
  return b;
}

// The temp size a caller is told for n: the most that n's bucket needs at n
// and every smaller bucket at its largest n, so the size for n serves every
// smaller n; and at least 1 byte.
inline size_t tgm_temp_bytes(const tgm_table *t, int bucket, tgm_size n, unsigned sms) {
  size_t bytes = tgm_choice_temp(t->buckets[bucket].choice, n, sms);
  for (int b = 0; b < bucket; b++) {
    tgm_size largest = ((tgm_size)2 << t->buckets[b].to_log2n) - 1;
    size_t need = tgm_choice_temp(t->buckets[b].choice, largest, sms);
    bytes = need > bytes ? need : bytes;
  }
  return bytes > 0 ? bytes : 1;
}

} // namespace {{namespace}}

// The label of the table that runs on the current GPU; nullptr when the GPU
// cannot be queried.
inline const char *{{fname}}_table() {
  const {{namespace}}::tgm_table *t = nullptr;
  unsigned sms = 0;
  return {{namespace}}::tgm_current(&t, &sms) == {{success}} ? t->label : nullptr;
}

inline {{err_t}} {{fname}}(void *d_temp, size_t *temp_bytes, {{embed_in_decls}}, {{out_t}} *d_out,
                           size_t n{{embed_param_decls}}, {{stream_t}} stream = 0) {
  namespace ns = {{namespace}};
  if (!temp_bytes)
    return {{err_invalid}};
  const ns::tgm_table *t = nullptr;
  unsigned sms = 0;
  {{err_t}} e = ns::tgm_current(&t, &sms);
  if (e != {{success}})
    return e;
  int b = ns::tgm_bucket_of(t, n);
  if (!d_temp) {
    *temp_bytes = ns::tgm_temp_bytes(t, b, n, sms);
    return {{success}};
  }
  int c = t->buckets[b].choice;
  if (*temp_bytes < ns::tgm_choice_temp(c, n, sms))
    return {{err_invalid}};
  return ns::tgm_choice_run(c, {{embed_in_args}}, n, d_out, d_temp, *temp_bytes, sms{{param_args}}, stream);
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
inline {{err_t}} {{fname}}(void *d_temp, size_t *temp_bytes, {{long_in_decls}}, {{long_out_t}} *d_out,
                           size_t n{{embed_param_decls}}, {{stream_t}} stream = 0) {
  static_assert(sizeof(L) == sizeof({{sig_t}}), "int64_t's width");
  return {{fname}}(d_temp, temp_bytes, {{long_in_args}}, {{long_out_arg}}, n{{param_args}}, stream);
}
#endif
{{/long_t}}
{{?cub_name}}

// cub::DeviceReduce's spelling: a call written for CUB compiles with `cub`
// changed to `tgm`, the size by reference, the stream 0 unless given
// (the headers of the other element types add their overloads; of two
// headers of one operator and type, both plain folds, the first defines it).
#ifndef {{cub_guard}}
#define {{cub_guard}}
namespace tgm {
namespace DeviceReduce {
inline {{err_t}} {{cub_name}}(void *d_temp, size_t &temp_bytes, {{embed_in_decls}}, {{out_t}} *d_out,
                       size_t n, {{stream_t}} stream = 0) {
  return {{fname}}(d_temp, &temp_bytes, {{embed_in_args}}, d_out, n, stream);
}
{{?cub_long}}
#if defined(__LP64__) || defined(_LP64)
// int64_t is {{cub_long}} here, a type of the same 64 bits as {{out_t}}
inline {{err_t}} {{cub_name}}(void *d_temp, size_t &temp_bytes, const {{cub_long}} *d_in, {{cub_long}} *d_out,
                       size_t n, {{stream_t}} stream = 0) {
  static_assert(sizeof({{cub_long}}) == sizeof({{out_t}}), "int64_t's width");
  return {{fname}}(d_temp, &temp_bytes, reinterpret_cast<const {{out_t}} *>(d_in),
                   reinterpret_cast<{{out_t}} *>(d_out), n, stream);
}
#endif
{{/cub_long}}
} // namespace DeviceReduce
} // namespace tgm
#endif // {{cub_guard}}
{{/cub_name}}
#endif // !{{rtc}}
} // namespace (the header's internal linkage)
