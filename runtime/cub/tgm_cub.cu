// tgm_cub.cu — cub::DeviceReduce for tgm-tune's side-by-side timings.
#include "tgm_cub.h"
#include <cub/device/device_reduce.cuh>
#include <string.h>

template <typename T>
static int run(const char *op, const void *in, unsigned long long n, void *out, void *temp,
               size_t *temp_bytes, cudaStream_t s) {
  const T *i = static_cast<const T *>(in);
  T *o = static_cast<T *>(out);
  cudaError_t e;
  if (!strcmp(op, "sum"))
    e = cub::DeviceReduce::Sum(temp, *temp_bytes, i, o, (long long)n, s);
  else if (!strcmp(op, "max"))
    e = cub::DeviceReduce::Max(temp, *temp_bytes, i, o, (long long)n, s);
  else if (!strcmp(op, "min"))
    e = cub::DeviceReduce::Min(temp, *temp_bytes, i, o, (long long)n, s);
  else
    return -1;
  return (int)e;
}

extern "C" int tgm_cub_reduce(const char *type, const char *op, const void *in,
                              unsigned long long n, void *out, void *temp, size_t *temp_bytes,
                              void *stream) {
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  if (!strcmp(type, "i32"))
    return run<int>(op, in, n, out, temp, temp_bytes, s);
  if (!strcmp(type, "u32"))
    return run<unsigned>(op, in, n, out, temp, temp_bytes, s);
  if (!strcmp(type, "i64"))
    return run<long long>(op, in, n, out, temp, temp_bytes, s);
  if (!strcmp(type, "f32"))
    return run<float>(op, in, n, out, temp, temp_bytes, s);
  if (!strcmp(type, "f64"))
    return run<double>(op, in, n, out, temp, temp_bytes, s);
  return -1;
}
