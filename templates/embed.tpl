
// ------------------------------------------------------------- the entry point
// {{fname}}: a CUB-like reduction with the variants chosen {{chosen_how}}.
//
//   size_t bytes = 0;
//   {{fname}}(nullptr, &bytes, {{embed_in_args}}, d_out, n{{param_args}}, stream);    // temp size only
//   {{fname}}(d_temp, &bytes, {{embed_in_args}}, d_out, n{{param_args}}, stream);     // reduce: d_out[0]
//
// {{meaning}}
//
// n = 0 writes the identity's result; n beyond 2^32 works; inputs and d_out need only
// be aligned for their element type (vector loads cover the aligned body).
// Temp storage is the caller's (the last-block counter is cleared in it on
// every call), so several streams may run at once. No host synchronisation;
// every error is returned.
#if !defined({{rtc}})
#include <stdint.h>

inline {{err_t}} {{fname}}(void *d_temp, size_t *temp_bytes, {{embed_in_decls}}, {{out_t}} *d_out,
                           size_t n{{embed_param_decls}}, {{stream_t}} stream) {
  namespace ns = {{namespace}};
  if (!temp_bytes)
    return {{err_invalid}};
  unsigned grid_cap = 1;
{{?cap_query}}
  { // the grid cap counts in SMs of the current GPU
    int dev = 0, sms = 1;
    {{err_t}} e = {{get_device}}(&dev);
    if (e == {{success}})
      e = {{get_attribute}}(&sms, {{sm_count_attr}}, dev);
    if (e != {{success}})
      return e;
    grid_cap = (unsigned)sms;
  }
{{/cap_query}}
{{#choices}}
  if ({{cond}}) { // {{id}}, block {{block}}, items {{items}}{{cap_note}}
    size_t need = ns::temp_bytes_{{cname}}<{{block}}>(n, {{items}}, grid_cap * {{cap}});
    if (!d_temp) {
      *temp_bytes = need;
      return {{success}};
    }
    if (*temp_bytes < need)
      return {{err_invalid}};
{{?counter}}
    // the last-block counter sits after the partials; it must start at zero
    size_t counter_at = ns::tgm_partials_bytes(ns::tgm_grid(ns::{{grid_enum}}, {{embed_first_in}}, n, {{block}}, {{items}}, grid_cap * {{cap}}));
    {{err_t}} e = {{memset_async}}(static_cast<char *>(d_temp) + counter_at, 0, sizeof(unsigned), stream);
    if (e != {{success}})
      return e;
{{/counter}}
    return ns::launch_{{cname}}<{{block}}>({{embed_in_args}}, n, d_out, d_temp, *temp_bytes, {{items}}, grid_cap * {{cap}}{{param_args}}, stream);
  }
{{/choices}}
  return {{err_invalid}};
}
#endif // !{{rtc}}
