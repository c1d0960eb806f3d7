#include <cstdio>
typedef int A; typedef int T;
__device__ __forceinline__ A tgm_lowest() { return (-2147483647 - 1); }
__device__ __forceinline__ A tgm_max(A a, A b) { return a < b ? b : a; }
__global__ void k1(const T *__restrict__ in, unsigned long long n, int *out) {
  T accum = tgm_lowest();
  for (unsigned long long i = 0; i < n; i += 1)
    accum = tgm_max(accum, tgm_max(in[i], -in[i]));
  out[0] = accum;
}
__global__ void k2(const T *__restrict__ in, int *out) { out[0] = tgm_max(in[0], -in[0]); }
__global__ void k3(const T *__restrict__ in, int *out) { int x = in[0]; out[0] = x < -x ? -x : x; }
__global__ void k4(const T *__restrict__ in, int *out) { int x = in[0]; out[0] = -x; }
int main() {
  int h[4] = {-518, 7, -3, 2}, r[4];
  int *d, *o;
  cudaMalloc(&d, 64); cudaMalloc(&o, 64);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  k1<<<1, 1>>>(d, 1, o); k2<<<1, 1>>>(d, o + 1); k3<<<1, 1>>>(d, o + 2); k4<<<1, 1>>>(d, o + 3);
  cudaMemcpy(r, o, 16, cudaMemcpyDeviceToHost);
  printf("loop %d, max(x,-x) %d, select %d, neg %d (%s)\n", r[0], r[1], r[2], r[3], cudaGetErrorString(cudaGetLastError()));
}
