// 1. A correct shared-memory tree reduction with __syncthreads gives the right
//    sum in every block order and thread order; multi-dimensional blocks map
//    threadIdx like CUDA; __syncthreads_count/and/or work.
#include "check.h"

#include <vector>

template <unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK) block_sum(const int* __restrict__ in,
                                                   long long* __restrict__ out, int n) {
  __shared__ long long sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < unsigned(n) ? in[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// 16x8x2 block: transpose through shared memory; checks threadIdx.{x,y,z}.
__global__ void transpose_tile(int* out) {
  __shared__ int tile[2][8][16];
  tile[threadIdx.z][threadIdx.y][threadIdx.x] =
      int(threadIdx.x + 16 * threadIdx.y + 128 * threadIdx.z + 1000 * blockIdx.y);
  __syncthreads();
  unsigned lin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned x = lin % 8, y = lin / 8 % 16, z = lin / 128;  // read the tile transposed
  out[(blockIdx.y * gridDim.x + blockIdx.x) * 256 + lin] = tile[z][x][y];
}

__global__ void votes(int* out) {
  int t = int(threadIdx.x);
  int c = __syncthreads_count(t % 3 == 0);
  int a = __syncthreads_and(t < 1000);
  int o = __syncthreads_or(t == 77);
  int z = __syncthreads_or(0);
  if (t == 0) { out[0] = c; out[1] = a; out[2] = o; out[3] = z; }
}

int main() {
  const int n = 256 * 37 - 100;
  std::vector<int> in(n);
  long long expect = 0;
  for (int i = 0; i < n; ++i) expect += (in[i] = (i * 7919) % 1000 - 300);
  const unsigned grid = (n + 255) / 256;
  for (auto bo : kOrders)
    for (auto to : kOrders) {
      tgm_sim::set_block_order(bo, 42);
      tgm_sim::set_thread_order(to, 7);
      std::vector<long long> part(grid, -1);
      auto st = tgm_sim::launch(dim3(grid), dim3(256),
                                [&] { block_sum<256>(in.data(), part.data(), n); });
      CHECK_OK(st);
      long long got = 0;
      for (unsigned b = 0; b < grid; ++b) {
        long long e = 0;
        for (int i = int(b) * 256; i < n && i < int(b + 1) * 256; ++i) e += in[i];
        CHECK(part[b] == e);
        got += part[b];
      }
      if (got != expect)
        std::fprintf(stderr, "block order %s, thread order %s: %lld != %lld\n",
                     order_name(bo), order_name(to), got, expect);
      CHECK(got == expect);
    }
  tgm_sim::reset_options();

  std::vector<int> t(3 * 2 * 256, -1);
  CHECK_OK(tgm_sim::launch(dim3(3, 2), dim3(16, 8, 2), [&] { transpose_tile(t.data()); }));
  for (unsigned by = 0; by < 2; ++by)
    for (unsigned bx = 0; bx < 3; ++bx)
      for (unsigned lin = 0; lin < 256; ++lin) {
        unsigned x = lin % 8, y = lin / 8 % 16, z = lin / 128;
        CHECK(t[(by * 3 + bx) * 256 + lin] == int(y + 16 * x + 128 * z + 1000 * by));
      }

  int v[4] = {-1, -1, -1, -1};
  CHECK_OK(tgm_sim::launch(1, 200, [&] { votes(v); }));
  CHECK(v[0] == 67 && v[1] == 1 && v[2] == 1 && v[3] == 0);
  return finish("block_reduce");
}
