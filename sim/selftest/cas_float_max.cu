// 7. A float atomicMax built from atomicCAS + __float_as_int works.  Also the
//    other atomics, bit casts, vector types, min/max overloads and intrinsics.
#include "check.h"

#include <cmath>
#include <vector>

__device__ float atomicMaxFloat(float* address, float val) {
  int* addr = (int*)address;
  int old = *addr, assumed;
  do {
    assumed = old;
    old = atomicCAS(addr, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__device__ double atomicMinDouble(double* address, double val) {
  unsigned long long* addr = (unsigned long long*)address;
  unsigned long long old = *addr, assumed;
  do {
    assumed = old;
    double cur = __longlong_as_double((long long)assumed);
    if (cur <= val) break;
    old = atomicCAS(addr, assumed, (unsigned long long)__double_as_longlong(val));
  } while (assumed != old);
  return __longlong_as_double((long long)old);
}

__global__ void max_kernel(const float* in, int n, float* out, double* dmin) {
  float local = -INFINITY;
  for (int i = int(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += int(blockDim.x * gridDim.x))
    local = fmaxf(local, in[i]);
  // shuffle to lane 0, then one CAS per warp
  for (int off = 16; off > 0; off /= 2) local = max(local, __shfl_xor_sync(0xffffffffu, local, off));
  if (threadIdx.x % 32 == 0) atomicMaxFloat(out, local);
  atomicMinDouble(dmin, double(in[(blockIdx.x * 131 + threadIdx.x) % unsigned(n)]));
}

struct Atomics {
  int i; unsigned u; long long ll; unsigned long long ull; float f; double d;
  int imin, imax; unsigned umin, umax; long long llmin, llmax; unsigned long long ullmin, ullmax;
  unsigned uand, uor, uxor; int iand, ior, ixor; unsigned long long ulland, ullor, ullxor;
  int exch_i; unsigned exch_u; unsigned long long exch_ull; float exch_f;
  unsigned inc, dec; unsigned short us; int isub; unsigned usub;
};

__global__ void all_atomics(Atomics* a) {
  int t = int(threadIdx.x + blockIdx.x * blockDim.x);  // 0..255
  atomicAdd(&a->i, t); atomicAdd(&a->u, unsigned(t)); atomicAdd(&a->ll, (long long)t << 33);
  atomicAdd(&a->ull, 1ull << 40); atomicAdd(&a->f, 0.5f); atomicAdd(&a->d, 0.25);
  atomicMin(&a->imin, t - 100); atomicMax(&a->imax, t - 100);
  atomicMin(&a->umin, unsigned(t + 5)); atomicMax(&a->umax, unsigned(t + 5));
  atomicMin(&a->llmin, -((long long)t << 35)); atomicMax(&a->llmax, (long long)t << 35);
  atomicMin(&a->ullmin, (unsigned long long)t + 9); atomicMax(&a->ullmax, (unsigned long long)t << 50);
  atomicAnd(&a->uand, ~(1u << (t % 32))); atomicOr(&a->uor, 1u << (t % 32));
  atomicXor(&a->uxor, unsigned(t));
  atomicAnd(&a->iand, ~(1 << (t % 31))); atomicOr(&a->ior, 1 << (t % 31)); atomicXor(&a->ixor, t);
  atomicAnd(&a->ulland, ~(1ull << (t % 64))); atomicOr(&a->ullor, 1ull << (t % 64));
  atomicXor(&a->ullxor, 1ull << (t % 64));
  if (t == 200) {
    CHECK(atomicExch(&a->exch_i, 7) == -1);
    CHECK(atomicExch(&a->exch_u, 8u) == 0u);
    CHECK(atomicExch(&a->exch_ull, 9ull) == 0ull);
    CHECK(atomicExch(&a->exch_f, 1.5f) == 0.0f);
    CHECK(atomicCAS(&a->us, (unsigned short)3, (unsigned short)4) == 0);
    CHECK(atomicCAS(&a->us, (unsigned short)0, (unsigned short)65535) == 0);
    CHECK(atomicCAS(&a->us, (unsigned short)0, (unsigned short)1) == 65535);
  }
  atomicInc(&a->inc, 99u);  // 256 increments modulo 100
  atomicDec(&a->dec, 9u);   // from 0: wraps to 9, 8, ..
  atomicSub(&a->isub, 2); atomicSub(&a->usub, 1u);
}

int main() {
  const int n = 100000;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = std::sin(float(i) * 0.001f) * 1000.0f - float(i % 7);
  float expect = -INFINITY;
  for (float v : in) expect = std::fmax(expect, v);
  for (auto bo : kOrders)
    for (auto to : kOrders) {
      tgm_sim::set_block_order(bo, 99);
      tgm_sim::set_thread_order(to, 98);
      float out = -INFINITY;
      double dmin = 1e300;
      CHECK_OK(tgm_sim::launch(40, 256, [&] { max_kernel(in.data(), n, &out, &dmin); }));
      CHECK(out == expect);
      CHECK(dmin < 1e300 && dmin >= double(*std::min_element(in.begin(), in.end())));
    }
  tgm_sim::reset_options();

  Atomics a{};
  a.imin = a.umin = 1 << 30; a.llmin = 0; a.ullmin = ~0ull; a.imax = -1000;
  a.uand = ~0u; a.iand = -1; a.ulland = ~0ull; a.exch_i = -1;
  CHECK_OK(tgm_sim::launch(2, 128, [&] { all_atomics(&a); }));
  CHECK(a.i == 255 * 256 / 2 && a.u == 255u * 256u / 2u);
  CHECK(a.ll == (255ll * 256 / 2) << 33 && a.ull == 256ull << 40);
  CHECK(a.f == 128.0f && a.d == 64.0);
  CHECK(a.imin == -100 && a.imax == 155 && a.umin == 5 && a.umax == 260);
  CHECK(a.llmin == -(255ll << 35) && a.llmax == 255ll << 35);
  CHECK(a.ullmin == 9 && a.ullmax == 255ull << 50);
  CHECK(a.uand == 0 && a.uor == ~0u && a.uxor == 0);
  CHECK(a.iand == (int)0x80000000 && a.ior == 0x7fffffff);
  CHECK(a.ulland == 0 && a.ullor == ~0ull && a.ullxor == 0);
  CHECK(a.exch_i == 7 && a.exch_u == 8 && a.exch_ull == 9 && a.exch_f == 1.5f && a.us == 65535);
  CHECK(a.inc == 56 && a.dec == 4);  // dec: 0->9, then 255 more steps mod 10
  CHECK(a.isub == -512 && a.usub == 0u - 256u);

  // bit casts, vector types, min/max, intrinsics
  CHECK(__float_as_int(1.0f) == 0x3f800000 && __int_as_float(0x40000000) == 2.0f);
  CHECK(__float_as_uint(-0.0f) == 0x80000000u && __uint_as_float(0x3f000000u) == 0.5f);
  CHECK(__double_as_longlong(1.0) == 0x3ff0000000000000ll);
  CHECK(__longlong_as_double(0x4000000000000000ll) == 2.0);
  static_assert(sizeof(int2) == 8 && alignof(int2) == 8, "int2");
  static_assert(sizeof(int4) == 16 && alignof(int4) == 16, "int4");
  static_assert(sizeof(uint2) == 8 && alignof(uint2) == 8, "uint2");
  static_assert(sizeof(uint4) == 16 && alignof(uint4) == 16, "uint4");
  static_assert(sizeof(float2) == 8 && alignof(float2) == 8, "float2");
  static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4");
  static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "double2");
  static_assert(sizeof(longlong2) == 16 && alignof(longlong2) == 16, "longlong2");
  static_assert(sizeof(ulonglong2) == 16 && alignof(ulonglong2) == 16, "ulonglong2");
  float4 f4 = make_float4(1, 2, 3, 4);
  int4 i4 = make_int4(1, 2, 3, 4);
  uint4 u4 = make_uint4(1, 2, 3, 4);
  double2 d2 = make_double2(1, 2);
  longlong2 l2 = make_longlong2(-1, 2);
  ulonglong2 ul2 = make_ulonglong2(1, 2);
  int2 i2 = make_int2(5, 6);
  uint2 u2 = make_uint2(7, 8);
  float2 f2 = make_float2(0.5f, 1.5f);
  CHECK(f4.w == 4 && i4.z == 3 && u4.y == 2 && d2.y == 2 && l2.x == -1 && ul2.y == 2);
  CHECK(i2.y == 6 && u2.x == 7 && f2.y == 1.5f);
  CHECK(min(3, 4) == 3 && max(3u, 4u) == 4u && min(-1, 2u) == 2u /* CUDA: unsigned compare */);
  CHECK(min(2.5f, 1.5f) == 1.5f && max(2.5, 1.5) == 2.5 && min(1ll, -2ll) == -2ll);
  CHECK(max(1ull, 2ull) == 2ull && min(3l, 4l) == 3l && max(1.0f, 2.0) == 2.0);
  CHECK(__popc(0xf0f0u) == 8 && __popcll(~0ull) == 64 && __clz(1) == 31 && __ffs(8) == 4);
  CHECK(__clzll(1ll) == 63 && __ffsll(1ll << 40) == 41 && __brev(1u) == 0x80000000u);
  CHECK(__ldg(&a.i) == a.i);
  __threadfence(); __threadfence_block(); __threadfence_system();
  return finish("cas_float_max");
}
