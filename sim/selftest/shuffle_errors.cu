// 5. A shuffle with a full mask where a lane has returned early is reported
//    as an error, as are: a full mask in a partial warp, a mask without the
//    calling lane, mismatched warp collectives, __syncwarp with a missing
//    lane.  Reading a lane that does not take part gives poison (default) or
//    an error (strict).  HIP no-mask shuffles need only the non-exited lanes.
#include "check.h"

#include <cstring>
#include <vector>

__global__ void early_return(int* out) {
  int lane = int(threadIdx.x % 32);
  if (lane == 5) return;
  int v = lane;
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  if (lane == 0) out[threadIdx.x / 32] = v;
}

__global__ void full_mask_partial_warp(int* out) {
  int v = int(threadIdx.x);
  v += __shfl_xor_sync(0xffffffffu, v, 1);
  out[threadIdx.x] = v;
}

__global__ void partial_warp_ballot_mask(int* out) {  // the correct way for a partial warp
  unsigned mask = __ballot_sync(0xffffffffu >> (32 - (blockDim.x - threadIdx.x / 32 * 32 < 32
                                                          ? blockDim.x % 32 : 32)), 1);
  int v = int(threadIdx.x);
  v += __shfl_xor_sync(mask, v, 1);
  out[threadIdx.x] = v;
}

__global__ void mask_without_self(int* out) {
  out[threadIdx.x] = __shfl_sync(0x0000ffffu, 1, 0);
}

__global__ void mismatched(int* out) {
  if (threadIdx.x < 16) out[threadIdx.x] = __shfl_sync(0xffffffffu, 1, 0);
  else out[threadIdx.x] = int(__ballot_sync(0xffffffffu, 1));
}

__global__ void syncwarp_missing_lane(int* out) {
  if (threadIdx.x == 31) return;
  __syncwarp();
  out[threadIdx.x] = 1;
}

__global__ void read_outside_mask(int* out) {  // lanes 8..15 read lanes 16..23
  if (threadIdx.x < 16) out[threadIdx.x] = __shfl_down_sync(0x0000ffffu, int(threadIdx.x), 8);
}

__global__ void hip_early_return(int* out) {
  int lane = int(__lane_id());
  if (lane == 31) return;
  out[lane] = __shfl_down(lane, 1);  // lane 30 reads exited lane 31: poison
}

// HIP wave64 with a branch on 32 lanes: the two halves of the wavefront
// shuffle separately (exec mask), then meet at a block barrier.
__global__ void hip_divergent(int* out) {
  int lane = int(__lane_id());
  int v = 1000 + int(threadIdx.x);
  if (lane < 32) v = __shfl_down(v, 8);
  else v = __shfl_xor(v, 1) + 100000;
  __syncthreads();
  out[threadIdx.x] = v;
}

__global__ void shuffle_in_branch(int* out) {  // lanes 16..31 go to the barrier instead
  int v = int(threadIdx.x);
  if (threadIdx.x % 32 < 16) v += __shfl_down_sync(0xffffffffu, v, 8);
  __syncthreads();
  out[threadIdx.x] = v;
}

int main() {
  std::vector<int> out(64, 0);
  for (auto to : kOrders) {
    tgm_sim::set_thread_order(to, 9);
    auto st = tgm_sim::launch(2, 64, [&] { early_return(out.data()); });
    CHECK_FAILS_WITH(st, "__shfl_down_sync at block 0, warp ");  // warp 1 first in reverse
    CHECK_FAILS_WITH(st, ": lane 5 named in mask 0xffffffff exited");
  }
  std::printf("early_return: %s\n", tgm_sim::last_error_text());
  tgm_sim::reset_options();

  auto st = tgm_sim::launch(1, 48, [&] { full_mask_partial_warp(out.data()); });
  CHECK_FAILS_WITH(st, "__shfl_xor_sync at block 0, warp 1: mask 0xffffffff names lanes 16-31, "
                       "which do not exist");
  std::printf("full_mask_partial_warp: %s\n", tgm_sim::last_error_text());

  CHECK_OK(tgm_sim::launch(1, 48, [&] { partial_warp_ballot_mask(out.data()); }));
  for (int t = 0; t < 48; ++t) CHECK(out[t] == t + (t ^ 1));

  st = tgm_sim::launch(1, 32, [&] { mask_without_self(out.data()); });
  CHECK_FAILS_WITH(st, "lane 16 calls it with mask 0x0000ffff, which does not include the lane");

  st = tgm_sim::launch(1, 32, [&] { mismatched(out.data()); });
  CHECK_FAILS_WITH(st, "warp collective deadlock at block 0, warp 0: lanes 0-15 wait in "
                       "__shfl_sync (mask 0xffffffff); lanes 16-31 wait in __ballot_sync");
  std::printf("mismatched: %s\n", tgm_sim::last_error_text());

  st = tgm_sim::launch(1, 64, [&] { shuffle_in_branch(out.data()); });
  CHECK_FAILS_WITH(st, "barrier divergence: 32 of 64 threads reached __syncthreads at block 0");
  CHECK_FAILS_WITH(st, "32 wait in warp operations (first: lane 0 of warp 0 in __shfl_down_sync, "
                       "mask 0xffffffff)");
  std::printf("shuffle_in_branch: %s\n", tgm_sim::last_error_text());

  st = tgm_sim::launch(1, 32, [&] { syncwarp_missing_lane(out.data()); });
  CHECK_FAILS_WITH(st, "__syncwarp at block 0, warp 0: lane 31 named in mask 0xffffffff");

  // undefined source lane: poison by default, error when strict
  std::fill(out.begin(), out.end(), 0);
  CHECK_OK(tgm_sim::launch(1, 32, [&] { read_outside_mask(out.data()); }));
  for (int t = 0; t < 16; ++t) CHECK(out[t] == (t < 8 ? t + 8 : 0x7f7f7f7f));
  tgm_sim::set_strict_shuffle(true);
  st = tgm_sim::launch(1, 32, [&] { read_outside_mask(out.data()); });
  CHECK_FAILS_WITH(st, "lane 8 reads lane 16, which does not take part");
  tgm_sim::reset_options();

  // HIP-style: participants are the lanes that have not exited
  for (int ws : {32, 64}) {
    CHECK(tgm_sim::set_warp_size(ws));
    std::fill(out.begin(), out.end(), 0);
    CHECK_OK(tgm_sim::launch(1, 32, [&] { hip_early_return(out.data()); }));
    for (int t = 0; t < 30; ++t) CHECK(out[t] == t + 1);
    CHECK(out[30] == 0x7f7f7f7f);
  }
  CHECK(tgm_sim::set_warp_size(64));
  std::vector<int> dv(128, 0);
  CHECK_OK(tgm_sim::launch(1, 128, [&] { hip_divergent(dv.data()); }));
  for (int t = 0; t < 128; ++t) {
    int lane = t % 64;
    int expect = lane < 24 ? 1000 + t + 8 : lane < 32 ? 0x7f7f7f7f : 1000 + (t ^ 1) + 100000;
    CHECK(dv[t] == expect);
  }
  tgm_sim::reset_options();
  CHECK(!tgm_sim::set_warp_size(48));
  return finish("shuffle_errors");
}
