// 2. The same tree reduction with barriers removed gives a wrong sum in at
//    least one thread order: the sim catches missing barriers.  Also the
//    legacy "warp-synchronous" idiom (volatile shared memory, no __syncwarp)
//    is caught, because the sim does not run warps in lockstep.
#include "check.h"

#include <vector>

enum Variant { kCorrect, kNoBarrierAfterStore, kNoBarrierInLoop, kNoBarriers, kWarpSync };

__global__ void block_sum(const int* in, long long* out, int variant) {
  __shared__ long long sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  if (variant == kCorrect || variant == kNoBarrierInLoop || variant == kWarpSync)
    __syncthreads();
  unsigned stop = variant == kWarpSync ? 32 : 0;
  for (unsigned s = blockDim.x / 2; s > stop; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    if (variant == kCorrect || variant == kNoBarrierAfterStore || variant == kWarpSync)
      __syncthreads();
  }
  if (variant == kWarpSync && tid < 32) {  // pre-Volta idiom: relies on lockstep
    volatile long long* v = sdata;
    v[tid] += v[tid + 32]; v[tid] += v[tid + 16]; v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];  v[tid] += v[tid + 2];  v[tid] += v[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

int main() {
  const unsigned grid = 8, n = grid * 256;
  std::vector<int> in(n);
  long long expect = 0;
  for (unsigned i = 0; i < n; ++i) expect += (in[i] = int(i % 97) + 1);
  const char* names[] = {"correct", "no barrier after store", "no barrier in loop",
                         "no barriers", "warp-synchronous"};
  for (int variant = kCorrect; variant <= kWarpSync; ++variant) {
    int wrong = 0, runs = 0;
    for (auto to : kOrders) {
      for (unsigned long long seed = 1; seed <= (to == tgm_sim::order::random ? 3u : 1u); ++seed) {
        tgm_sim::set_thread_order(to, seed);
        std::vector<long long> part(grid, 0);
        CHECK_OK(tgm_sim::launch(grid, 256, [&] { block_sum(in.data(), part.data(), variant); }));
        long long got = 0;
        for (long long p : part) got += p;
        ++runs;
        if (got != expect) ++wrong;
      }
    }
    std::printf("%-24s wrong in %d of %d thread orders\n", names[variant], wrong, runs);
    if (variant == kCorrect) CHECK(wrong == 0);
    else CHECK(wrong > 0);
  }
  return finish("missing_barrier");
}
