#include "../gen/absmax_i32.cu"
#include <cstdio>
int main() {
  int h[8] = {-518, 7, -3, 2, 9, -1, 4, 5};
  int *d, *out; void *temp;
  cudaMalloc(&d, 64); cudaMalloc(&out, 16); cudaMalloc(&temp, 1 << 16);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(temp, 0, 1 << 16);
  namespace ns = tgm_kernels_absmax_i32;
  for (int n = 1; n <= 3; n++) {
    int r = 0;
    ns::launch_absmax_DSL_VS_SV<256>(d, n, out, temp, 1 << 16, 1, 528, 0);
    cudaMemcpy(&r, out, 4, cudaMemcpyDeviceToHost);
    printf("DSL.VS.SV n=%d: %d\n", n, r);
    ns::launch_absmax_B1_VS_SV<256>(d, n, out, temp, 1 << 16, 1, 528, 0);
    cudaMemcpy(&r, out, 4, cudaMemcpyDeviceToHost);
    printf("B1.VS.SV n=%d: %d\n", n, r);
    ns::launch_absmax_DT_V_ST<256>(d, n, out, temp, 1 << 16, 1, 528, 0);
    cudaMemcpy(&r, out, 4, cudaMemcpyDeviceToHost);
    printf("DT.V.ST n=%d: %d (%s)\n", n, r, cudaGetErrorString(cudaGetLastError()));
  }
}
