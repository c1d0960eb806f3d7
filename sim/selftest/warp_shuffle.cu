// 3. Warp-shuffle reductions are exact for int/unsigned/long long/unsigned
//    long long/float/double.  Built three ways: CUDA (*_sync, warp 32), and
//    HIP (no-mask __shfl_*) with -D__AMDGCN_WAVEFRONT_SIZE=32 and =64.
//    Also: sub-warp widths, up/xor/idx semantics at segment edges, votes, and
//    __reduce_*_sync (CUDA build).
#include "check.h"

#include <cstdint>
#include <vector>

#ifdef __AMDGCN_WAVEFRONT_SIZE
#define WS __AMDGCN_WAVEFRONT_SIZE
#define SHFL_DOWN(v, d, w) __shfl_down((v), (d), (w))
#define SHFL_UP(v, d, w) __shfl_up((v), (d), (w))
#define SHFL_XOR(v, m, w) __shfl_xor((v), (m), (w))
#define SHFL_IDX(v, s, w) __shfl((v), (s), (w))
#define NAME "warp_shuffle_hip" TGM_STR(WS)
#else
#define WS 32
#define SHFL_DOWN(v, d, w) __shfl_down_sync(0xffffffffu, (v), (d), (w))
#define SHFL_UP(v, d, w) __shfl_up_sync(0xffffffffu, (v), (d), (w))
#define SHFL_XOR(v, m, w) __shfl_xor_sync(0xffffffffu, (v), (m), (w))
#define SHFL_IDX(v, s, w) __shfl_sync(0xffffffffu, (v), (s), (w))
#define NAME "warp_shuffle_cuda"
#endif
#define TGM_STR2(x) #x
#define TGM_STR(x) TGM_STR2(x)

template <class T>
__device__ T warp_reduce_down(T v) {
  for (int off = warpSize / 2; off > 0; off /= 2) v += SHFL_DOWN(v, off, warpSize);
  return v;
}

// Block reduction: warp shuffle, then the first warp reduces the warp sums.
template <class T>
__global__ void block_reduce(const T* in, T* out) {
  __shared__ T warp_sums[1024 / 32];
  unsigned tid = threadIdx.x, lane = tid % warpSize, warp = tid / warpSize;
  T v = warp_reduce_down(in[blockIdx.x * blockDim.x + tid]);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    unsigned nwarps = blockDim.x / warpSize;
    v = lane < nwarps ? warp_sums[lane] : T(0);
    v = warp_reduce_down(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

// The same tree on the host, lane-parallel, same operation order.
template <class T>
T host_tree(std::vector<T> lanes) {
  const int ws = int(lanes.size());
  for (int off = ws / 2; off > 0; off /= 2) {
    std::vector<T> next(lanes);
    for (int l = 0; l < ws; ++l) next[l] = lanes[l] + (l + off < ws ? lanes[l + off] : lanes[l]);
    lanes = next;
  }
  return lanes[0];
}

template <class T>
void check_type(const char* tname, T (*gen)(unsigned)) {
  const unsigned block = 256, grid = 5, n = block * grid;
  std::vector<T> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = gen(i);
  for (auto to : kOrders) {
    tgm_sim::set_thread_order(to, 3);
    std::vector<T> out(grid, T(0));
    CHECK_OK(tgm_sim::launch(grid, block, [&] { block_reduce<T>(in.data(), out.data()); }));
    for (unsigned b = 0; b < grid; ++b) {
      std::vector<T> sums(WS, T(0));
      for (unsigned w = 0; w < block / WS; ++w)
        sums[w] = host_tree(std::vector<T>(in.begin() + b * block + w * WS,
                                           in.begin() + b * block + (w + 1) * WS));
      T expect = host_tree(sums);
      if (!(out[b] == expect)) {
        std::fprintf(stderr, "%s, block %u, order %s: mismatch\n", tname, b, order_name(to));
        CHECK(out[b] == expect);
      }
    }
  }
  tgm_sim::reset_options();
}

int gen_int(unsigned i) { return int(i * 2654435761u % 20001u) - 10000; }
unsigned gen_uint(unsigned i) { return i * 2654435761u; }  // wraps: still exact
long long gen_ll(unsigned i) { return (long long)(i * 2654435761u) * 977 - (1ll << 40); }
unsigned long long gen_ull(unsigned i) { return 0x9e3779b97f4a7c15ull * (i + 1); }
float gen_float(unsigned i) { return float(int(i * 2654435761u % 2000001u) - 1000000) / 3e3f; }
double gen_double(unsigned i) { return double(int(i * 2654435761u % 2000001u) - 1000000) / 7e3; }

// Edge semantics of up/down/xor/idx with width 8 and out-of-range sources.
__global__ void edges(int* out) {
  int lane = int(threadIdx.x % warpSize), w = int(threadIdx.x / warpSize);
  int v = 100 * w + lane;
  int* o = out + threadIdx.x * 8;
  o[0] = SHFL_DOWN(v, 3, 8);     // own value in the last 3 lanes of each 8-segment
  o[1] = SHFL_UP(v, 2, 8);       // own value in the first 2 lanes of each segment
  o[2] = SHFL_XOR(v, 5, 8);      // stays inside the segment
  o[3] = SHFL_XOR(v, 8, 16);     // swaps halves of 16-segments
  o[4] = SHFL_IDX(v, 11, 8);     // srcLane taken modulo width: lane 3 of the segment
  o[5] = SHFL_IDX(v, lane ^ 1, warpSize);  // per-lane source
  o[6] = SHFL_DOWN(v, 1, warpSize);
  o[7] = SHFL_XOR(v, warpSize / 2, warpSize);
}

#ifndef __AMDGCN_WAVEFRONT_SIZE
__global__ void cuda_votes(unsigned* out) {
  unsigned lane = threadIdx.x % 32;
  int iv = int(lane) - 10;
  unsigned* o = out + threadIdx.x * 10;
  o[0] = __ballot_sync(0xffffffffu, lane % 3 == 0);
  o[1] = unsigned(__all_sync(0xffffffffu, lane < 32));
  o[2] = unsigned(__any_sync(0xffffffffu, lane == 31));
  o[3] = unsigned(__reduce_add_sync(0xffffffffu, iv));
  o[4] = unsigned(__reduce_min_sync(0xffffffffu, iv));
  o[5] = __reduce_max_sync(0xffffffffu, lane * 3);
  o[6] = __reduce_or_sync(0xffffffffu, 1u << lane);
  o[7] = __reduce_and_sync(0xffffffffu, ~(1u << lane));
  o[8] = __reduce_xor_sync(0xffffffffu, lane);
  // two disjoint half-warp groups with their own masks, concurrently
  unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  // No lockstep: __activemask() is "lanes not exited yet", so ask before any
  // lane can return (everyone is held at the __syncwarp).
  o[9] = __activemask() == 0xffffffffu ? 1000 : 0;
  __syncwarp();
  o[9] += __shfl_sync(half, lane, (lane & 16) | ((lane + 1) & 15));  // rotate each half
}
#else
// shared-memory exchange inside a wavefront, ordered by the wave barrier
__global__ void hip_wave_exchange(int* out, bool barrier, int k) {
  __shared__ int s[256];
  s[threadIdx.x] = int(threadIdx.x) * k;
  if (barrier) {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
    __builtin_amdgcn_wave_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
  }
  out[threadIdx.x] = s[threadIdx.x ^ 1];
  __builtin_amdgcn_s_barrier();
}

__global__ void hip_votes(unsigned long long* out) {
  unsigned lane = __lane_id();
  unsigned long long* o = out + threadIdx.x * 4;
  o[3] = __activemask();  // before any lane of the warp can have returned
  o[0] = __ballot(lane % 3 == 0);
  o[1] = (unsigned long long)__all(lane < unsigned(warpSize));
  o[2] = (unsigned long long)__any(lane == 7);
}
#endif

int main() {
  CHECK(warpSize == WS);
  CHECK(tgm_sim::get_warp_size() == WS);
  check_type<int>("int", gen_int);
  check_type<unsigned>("unsigned", gen_uint);
  check_type<long long>("long long", gen_ll);
  check_type<unsigned long long>("unsigned long long", gen_ull);
  check_type<float>("float", gen_float);
  check_type<double>("double", gen_double);

  const unsigned nt = 2 * WS;
  std::vector<int> e(nt * 8, -1);
  CHECK_OK(tgm_sim::launch(1, nt, [&] { edges(e.data()); }));
  for (unsigned t = 0; t < nt; ++t) {
    int lane = int(t % WS), w = int(t / WS), base = 100 * w, seg = lane & ~7;
    const int* o = &e[t * 8];
    CHECK(o[0] == base + ((lane & 7) + 3 < 8 ? lane + 3 : lane));
    CHECK(o[1] == base + ((lane & 7) >= 2 ? lane - 2 : lane));
    CHECK(o[2] == base + (lane ^ 5));
    CHECK(o[3] == base + (lane ^ 8));
    CHECK(o[4] == base + seg + 3);
    CHECK(o[5] == base + (lane ^ 1));
    CHECK(o[6] == base + (lane + 1 < WS ? lane + 1 : lane));
    CHECK(o[7] == base + (lane ^ (WS / 2)));
    (void)seg;
  }

#ifndef __AMDGCN_WAVEFRONT_SIZE
  std::vector<unsigned> v(64 * 10, 0);
  CHECK_OK(tgm_sim::launch(1, 64, [&] { cuda_votes(v.data()); }));
  for (unsigned t = 0; t < 64; ++t) {
    const unsigned* o = &v[t * 10];
    unsigned lane = t % 32;
    CHECK(o[0] == 0x49249249u);
    CHECK(o[1] == 1 && o[2] == 1);
    CHECK(int(o[3]) == 496 - 320);
    CHECK(int(o[4]) == -10);
    CHECK(o[5] == 93);
    CHECK(o[6] == 0xffffffffu && o[7] == 0 && o[8] == 0);
    CHECK(o[9] == 1000 + ((lane & 16) | ((lane + 1) & 15)));
  }
#else
  std::vector<unsigned long long> v(nt * 4, 0);
  CHECK_OK(tgm_sim::launch(1, nt, [&] { hip_votes(v.data()); }));
  unsigned long long every3 = 0;
  for (unsigned l = 0; l < WS; l += 3) every3 |= 1ull << l;
  const unsigned long long all = WS == 64 ? ~0ull : 0xffffffffull;
  for (unsigned t = 0; t < nt; ++t) {
    const unsigned long long* o = &v[t * 4];
    CHECK(o[0] == every3 && o[1] == 1 && o[2] == 1 && o[3] == all);
  }
  std::vector<int> x(256, 0);
  CHECK_OK(tgm_sim::launch(1, 256, [&] { hip_wave_exchange(x.data(), true, 3); }));
  for (int t = 0; t < 256; ++t) CHECK(x[t] == (t ^ 1) * 3);
  CHECK_OK(tgm_sim::launch(1, 256, [&] { hip_wave_exchange(x.data(), false, 5); }));
  CHECK(x[0] != 5);  // without the wave barrier lane 0 reads before lane 1 writes
#endif
  return finish(NAME);
}
