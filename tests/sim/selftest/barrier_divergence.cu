// 4. A barrier inside `if (threadIdx.x < 32)` is reported as an error (not a
//    hang), in every thread order; so are barriers at different call sites.
//    After a failed launch the sim is reusable.
#include "check.h"

#include <string>

__global__ void half_barrier(int* out) {
  if (threadIdx.x < 32) {
    __syncthreads();
    out[threadIdx.x] = 1;
  }
}

__global__ void diverge_in_block(int* out, unsigned bad_block) {
  out[blockIdx.x] = 1;
  if (blockIdx.x != bad_block || threadIdx.x % 2 == 0) __syncthreads();
}

__global__ void two_sites(int* out) {
  if (threadIdx.x < 16) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  out[0] = 1;
}

__global__ void fine(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = int(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}

int main() {
  int buf[64] = {0};
  for (auto to : kOrders) {
    tgm_sim::set_thread_order(to, 11);
    auto st = tgm_sim::launch(1, 64, [&] { half_barrier(buf); });
    CHECK_FAILS_WITH(st, "barrier divergence: 32 of 64 threads reached __syncthreads at block 0 ");
    CHECK_FAILS_WITH(st, "barrier_divergence.cu:10");
    CHECK_FAILS_WITH(st, "32 exited without reaching it");
  }
  std::printf("half_barrier: %s\n", tgm_sim::last_error_text());

  for (auto bo : kOrders) {
    tgm_sim::set_block_order(bo, 5);
    int blocks[8] = {0};
    auto st = tgm_sim::launch(8, 64, [&] { diverge_in_block(blocks, 3); });
    CHECK_FAILS_WITH(st, "barrier divergence: 32 of 64 threads reached __syncthreads at block 3 ");
  }
  std::printf("diverge_in_block: %s\n", tgm_sim::last_error_text());
  tgm_sim::reset_options();

  auto st = tgm_sim::launch(1, 32, [&] { two_sites(buf); });
  CHECK_FAILS_WITH(st, "different call sites");
  CHECK_FAILS_WITH(st, "barrier_divergence.cu:24");
  CHECK_FAILS_WITH(st, "barrier_divergence.cu:22");
  std::printf("two_sites: %s\n", tgm_sim::last_error_text());

  // 2D grid: the block is named by its coordinates
  st = tgm_sim::launch(dim3(2, 2), 64, [&] {
    if (blockIdx.y == 1 && blockIdx.x == 0) half_barrier(buf);
  });
  CHECK_FAILS_WITH(st, "at block (0,1,0)");

  // the sim recovers: abandoned fibers are rebuilt
  for (int rep = 0; rep < 3; ++rep) {
    int out[64] = {0};
    CHECK_OK(tgm_sim::launch(1, 64, [&] { fine(out); }));
    for (int i = 0; i < 64; ++i) CHECK(out[i] == 63 - i);
    CHECK(std::string(tgm_sim::last_error_text()).empty());
    CHECK_FAILS_WITH(tgm_sim::launch(1, 64, [&] { half_barrier(buf); }), "barrier divergence");
  }
  return finish("barrier_divergence");
}
