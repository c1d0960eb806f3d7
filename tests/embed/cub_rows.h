// cub_rows.h -- CUB's row reduction as tgm's GPU tests and benchmarks call
// it (tests/embed/gpu_rows.cu, bench/rows/pick_ab.cu): DeviceSegmentedReduce
// over m fixed-size segments, segment r = [r * ld, r * ld + n), its offsets
// from counting iterators (no offsets array to build or read).
#pragma once
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cuda_runtime.h>

#include <cstddef>

struct CubRowBegin {
  long long ld;
  __host__ __device__ long long operator()(long long r) const { return r * ld; }
};
struct CubRowEnd {
  long long ld, n;
  __host__ __device__ long long operator()(long long r) const { return r * ld + n; }
};

// op: 0 sum, 1 max, 2 min. temp == nullptr: sets bytes, as CUB does.
template <typename T>
static cudaError_t cub_rows(int op, void *temp, size_t &bytes, const T *in, T *out, size_t m,
                            size_t n, size_t ld, cudaStream_t s) {
  auto begin = thrust::make_transform_iterator(thrust::make_counting_iterator<long long>(0),
                                               CubRowBegin{(long long)ld});
  auto end = thrust::make_transform_iterator(thrust::make_counting_iterator<long long>(0),
                                             CubRowEnd{(long long)ld, (long long)n});
  if (op == 0)
    return cub::DeviceSegmentedReduce::Sum(temp, bytes, in, out, (int)m, begin, end, s);
  if (op == 1)
    return cub::DeviceSegmentedReduce::Max(temp, bytes, in, out, (int)m, begin, end, s);
  return cub::DeviceSegmentedReduce::Min(temp, bytes, in, out, (int)m, begin, end, s);
}
