// tgm_cub.h — the C interface of libtgm_cub.so, CUB's device-wide reduction
// built by nvcc (optional) and loaded by tgm-tune with dlopen.
#ifndef TGM_CUB_H
#define TGM_CUB_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
// type: "i32" "u32" "i64" "f32" "f64"; op: "sum" "max" "min".
// Returns 0 on success, a cudaError_t otherwise; -1 for an unknown type/op.
// With temp == NULL, stores the temp bytes needed in *temp_bytes.
int tgm_cub_reduce(const char *type, const char *op, const void *in, unsigned long long n,
                   void *out, void *temp, size_t *temp_bytes, void *stream);
#ifdef __cplusplus
}
#endif
#endif
