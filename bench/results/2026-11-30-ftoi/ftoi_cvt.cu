// ftoi_cvt.cu -- tgm_ftoi<I>(x), as a generated header defines it, against
// the GPU's own conversion (I)x (cvt.rzi: PTX saturates and takes NaN to 0)
// for I = int, unsigned, long long, unsigned long long and x a float or a
// double, over the values where C++ leaves the conversion undefined (NaN,
// +-inf, beyond the range, just inside it) and ordinary ones. Every pair must
// agree bit for bit: then the CPU check, which runs tgm_ftoi, sees the GPU's
// answer. Build: nvcc -std=c++17 -arch=sm_90 -I DIR ftoi_cvt.cu (DIR holds
// ftoi_rows_f32.h from tgm-gen --rows --embed tests/ops/ftoi.tgm).
#include "ftoi_rows_f32.h"
#include <cmath>
#include <cstdio>
#include <cstring>

namespace ns = tgm_kernels_ftoi_f32_rows;

template <typename I, typename F>
__global__ void both(const F *x, int n, I *mine, I *hw) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    mine[i] = ns::tgm_ftoi<I>(x[i]);
    volatile F v = x[i]; // no folding: the conversion instruction itself
    hw[i] = (I)v;
  }
}

template <typename I, typename F>
static int check(const char *what) {
  const double specials[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 0.5, -0.5, -1.0, 1.0, 7.9, -7.9,
                             2147483647.0, 2147483648.0, -2147483648.0, -2147483649.0,
                             4294967295.0, 4294967296.0, 5e9, -5e9, 9.2233720368547758e18,
                             -9.2233720368547758e18, 1.8446744073709552e19, 3e19, -3e19, 1e30,
                             -1e30, 123456789.0, -123456789.0, 16777217.0};
  const int n = sizeof specials / sizeof *specials;
  F h[n];
  for (int i = 0; i < n; i++)
    h[i] = (F)specials[i];
  F *dx;
  I *dm, *dh;
  cudaMalloc(&dx, sizeof h);
  cudaMalloc(&dm, n * sizeof(I));
  cudaMalloc(&dh, n * sizeof(I));
  cudaMemcpy(dx, h, sizeof h, cudaMemcpyHostToDevice);
  both<I, F><<<1, 64>>>(dx, n, dm, dh);
  I m[n], w[n];
  cudaMemcpy(m, dm, sizeof m, cudaMemcpyDeviceToHost);
  cudaMemcpy(w, dh, sizeof w, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (std::memcmp(&m[i], &w[i], sizeof(I)) != 0) {
      std::printf("FAIL %s: x = %.17g: tgm_ftoi %lld, the GPU %lld\n", what, (double)h[i],
                  (long long)m[i], (long long)w[i]);
      bad++;
    }
  std::printf("%s: %d values, %d differ\n", what, n, bad);
  cudaFree(dx), cudaFree(dm), cudaFree(dh);
  return bad;
}

int main() {
  int bad = check<int, float>("float -> int") + check<unsigned, float>("float -> unsigned") +
            check<long long, float>("float -> long long") +
            check<unsigned long long, float>("float -> unsigned long long") +
            check<int, double>("double -> int") + check<unsigned, double>("double -> unsigned") +
            check<long long, double>("double -> long long") +
            check<unsigned long long, double>("double -> unsigned long long");
  std::printf("%s\n", bad ? "FAILED" : "ok: tgm_ftoi is the GPU's conversion");
  return bad != 0;
}
