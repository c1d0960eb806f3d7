// fresh_shared.cu - shared memory after TGM_SIM_FRESH holds junk until the
// block writes it, in every block, as a GPU's does (a C++ static alone
// starts at 0 and keeps the last block's values):
// 1. a slot nobody wrote is not 0 (the identity of + would hide the bug);
// 2. what a block writes it reads back, across a barrier;
// 3. the next block finds junk again, not the last block's values;
// 4. a declaration reached again in one block (a loop, a second thread)
//    keeps what the block wrote.
#include "check.h"

#include <vector>

__global__ void kernel(int *unwritten, int *stale, int *mine) {
  __shared__ int s[64]; TGM_SIM_FRESH(s);
  unsigned t = threadIdx.x, b = blockIdx.x;
  if (t == 0) {
    unwritten[b] = s[63]; // never written by any block
    stale[b] = s[1];      // every block writes it below: junk at block start
  }
  __syncthreads();
  s[t] = int(b * 1000 + t);
  __syncthreads();
  for (int round = 0; round < 2; ++round) {
    __shared__ int again[4]; TGM_SIM_FRESH(again);
    if (round == 0 && t < 4)
      again[t] = int(t + 7);
    __syncthreads();
    if (round == 1 && t == 0)
      mine[b] = (s[(t + 1) % blockDim.x] == int(b * 1000 + 1)) + (again[3] == 10);
    __syncthreads();
  }
}

int main() {
  const unsigned grid = 6;
  std::vector<int> unwritten(grid), stale(grid), mine(grid);
  CHECK_OK(tgm_sim::launch(grid, 32, [&] { kernel(unwritten.data(), stale.data(), mine.data()); }));
  int zero = 0, from_before = 0, right = 0;
  for (unsigned b = 0; b < grid; ++b) {
    zero += unwritten[b] == 0;
    from_before += b > 0 && stale[b] == int((b - 1) * 1000 + 1);
    right += mine[b] == 2;
  }
  std::printf("unwritten slot 0 in %d of %u blocks, the last block's value in %d, right %d\n", zero,
              grid, from_before, right);
  CHECK(zero == 0);
  CHECK(from_before == 0);
  CHECK(right == int(grid));
  int x = 5;
  TGM_SIM_FRESH(x); // outside a kernel: nothing
  CHECK(x == 5);
  return finish("fresh_shared");
}
