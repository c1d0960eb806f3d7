// 6. A grid of 1000 blocks doing atomicAdd into global memory, and the "last
//    block finishes" pattern (__threadfence + atomicInc ticket), give the
//    right answer in forward, reverse and random block order.
#include "check.h"

#include <vector>

__device__ unsigned int g_ticket = 0;

__global__ void atomic_sum(const int* in, int n, unsigned long long* total, int* itotal) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < unsigned(n)) {
    atomicAdd(total, (unsigned long long)in[i]);
    atomicAdd(itotal, in[i]);
  }
}

// One pass: every block reduces its part and stores a partial; the block
// that draws the last ticket sums the partials.
__global__ void last_block_sum(const int* in, int n, long long* partial, long long* result,
                               unsigned* finisher) {
  __shared__ long long sdata[128];
  __shared__ bool am_last;
  unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < unsigned(n) ? in[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) {
    partial[blockIdx.x] = sdata[0];
    __threadfence();
    unsigned t = atomicInc(&g_ticket, gridDim.x - 1);  // wraps to 0 for the next launch
    am_last = (t == gridDim.x - 1);
  }
  __syncthreads();
  if (am_last) {
    long long acc = 0;
    for (unsigned b = tid; b < gridDim.x; b += blockDim.x) acc += partial[b];
    sdata[tid] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (tid < s) sdata[tid] += sdata[tid + s];
      __syncthreads();
    }
    if (tid == 0) { *result = sdata[0]; *finisher = blockIdx.x; }
  }
}

int main() {
  const unsigned grid = 1000, block = 128;
  const int n = int(grid * block) - 77;
  std::vector<int> in(n);
  long long expect = 0;
  for (int i = 0; i < n; ++i) expect += (in[i] = (i * 37) % 1001 - 400);
  std::vector<long long> partial(grid);
  for (auto bo : kOrders) {
    tgm_sim::set_block_order(bo, 1234);
    unsigned long long total = 0;
    int itotal = 0;
    CHECK_OK(tgm_sim::launch(grid, block, [&] { atomic_sum(in.data(), n, &total, &itotal); }));
    CHECK((long long)total == expect);
    CHECK(itotal == int(expect));

    long long result = 0;
    unsigned finisher = ~0u;
    CHECK_OK(tgm_sim::launch(grid, block, [&] {
      last_block_sum(in.data(), n, partial.data(), &result, &finisher);
    }));
    CHECK(result == expect);
    CHECK(g_ticket == 0);
    std::printf("%-8s order: sum %lld (expected %lld), last block to finish: %u\n",
                order_name(bo), result, expect, finisher);
    if (bo == tgm_sim::order::forward) CHECK(finisher == grid - 1);
    if (bo == tgm_sim::order::reverse) CHECK(finisher == 0);
  }
  return finish("atomics_grid");
}
