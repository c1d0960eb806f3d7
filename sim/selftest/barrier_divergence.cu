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

__global__ void traps(int* out) {
  if (threadIdx.x == 3 && blockIdx.x == 1) __trap();
  __syncthreads();
  out[0] = 1;
}

__global__ void throws(int* out) {
  if (threadIdx.x == 7) throw 42;
  out[0] = 1;
}

__global__ void big_frame(int* out) {  // 128 KiB of locals: needs a bigger fiber stack
  volatile int local[32768];
  for (int i = 0; i < 32768; ++i) local[i] = i;
  __syncthreads();
  out[threadIdx.x] = local[32767 - int(threadIdx.x)];
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

  // other kernel errors: __trap(), C++ exceptions, nested launches
  CHECK_FAILS_WITH(tgm_sim::launch(2, 32, [&] { traps(buf); }),
                   "__trap() at barrier_divergence.cu:");
  CHECK_FAILS_WITH(tgm_sim::launch(1, 32, [&] { throws(buf); }),
                   "thread (7,0,0) of block 0 threw a C++ exception");
  tgm_sim::status inner = tgm_sim::status::success;
  CHECK_OK(tgm_sim::launch(1, 1, [&] { inner = tgm_sim::launch(1, 1, [] {}); }));
  CHECK(inner == tgm_sim::status::invalid_configuration);
  CHECK(*tgm_sim::last_error_text() == '\0');

  tgm_sim::set_stack_size(512 * 1024);
  int out[64] = {0};
  CHECK_OK(tgm_sim::launch(2, 64, [&] { big_frame(out); }));
  CHECK(out[0] == 32767 && out[63] == 32767 - 63);
  tgm_sim::reset_options();
  CHECK_OK(tgm_sim::launch(1, 64, [&] { fine(out); }));
  tgm_sim::release_resources();
  CHECK_OK(tgm_sim::launch(1, 64, [&] { fine(out); }));
  CHECK(out[5] == 58);
  return finish("barrier_divergence");
}
