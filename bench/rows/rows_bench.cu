// rows_bench.cu -- row reductions (tgm-gen --rows, generated/rows) on the
// GPU at hand against CUB's DeviceSegmentedReduce in the same process.
//
// For each type (f32, i32), spectrum (sum, max, min) and shape m x n (rows
// contiguous, ld = n): every registered row variant (variants.cu) at every
// block size, items 1 and 4, and every per_row (RW threads, RL blocks a
// row) is first checked against a host reference of every row (double
// sums within n * eps * sum|x| for f32, exact otherwise; a wrong variant is
// reported and never timed), then timed two ways:
//   warm: 20 calls back to back between two events, per call; median of 5
//   cold: one call after a 256 MiB write that evicts L2, between two
//         events; median of 7
// A setting whose first call takes over 20 times the best so far (and
// over 1 ms) is timed by that call alone; one with fewer than 2^14 threads
// on a matrix over 2^22 elements is not run.
// CUB is checked and timed the same way. The plan of seed 003
// (tgm_rows_plan_of, launch_rule.tpl) is timed as it is, and its time is
// compared with the best variant's.
//   rows_bench [--out FILE.md] [--csv FILE.csv] [--quick] [--check-only]
// --cols times generated/cols' CT.SS (block, width, parts) instead, no CUB.
// --check-only runs each setting once and checks it, no timing (for
// compute-sanitizer's memcheck and racecheck); --quick: three small shapes.
#include "rows.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_segmented_reduce.cuh>
#include <string>
#include <vector>

#include "../../tests/embed/gpu_timing.h" // CK

// tgm_rows_plan_of: the launch rule every generated file holds
#include "../../templates/launch_rule.tpl"

struct Shape {
  unsigned long long m, n;
};
static const Shape issue_shapes[] = {
    {16, 128},        {768, 4096}, {25, 1ull << 20}, {1ull << 20, 8},  {1ull << 20, 32},
    {4096, 4096},     {4, 1ull << 26}, {1ull << 24, 4}, {1ull << 22, 64},
};

static unsigned hash32(unsigned long long i) {
  unsigned long long x = i * 0x9E3779B97F4A7C15ull;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return (unsigned)x;
}

template <typename T> static T value_at(unsigned long long i) {
  unsigned h = hash32(i);
  if (std::is_floating_point<T>::value)
    return (T)((double)((int)(h % 2001) - 1000) / 1000.0);
  return (T)((int)(h % 2001) - 1000);
}

enum Op { OP_SUM, OP_MAX, OP_MIN };
static const char *const op_names[] = {"sum", "max", "min"};

template <typename T>
__global__ void compare_kernel(const T *got, const T *want, const float *tol, unsigned long long m,
                               unsigned long long *bad) {
  for (unsigned long long r = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; r < m;
       r += (unsigned long long)gridDim.x * blockDim.x) {
    double g = (double)got[r], w = (double)want[r];
    bool ok = std::is_floating_point<T>::value ? (g == w || fabs(g - w) <= (double)tol[r]) : got[r] == want[r];
    if (!ok)
      atomicAdd(bad, 1ull);
  }
}

__global__ void flush_kernel(int4 *p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = make_int4((int)i, 0, 0, 0);
}

struct Timer {
  cudaEvent_t a, b;
  int4 *flush = nullptr;
  size_t flush_n = (256u << 20) / sizeof(int4);
  Timer() {
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    CK(cudaMalloc(&flush, flush_n * sizeof(int4)));
  }
  template <typename F> double warm(F f) { // us per call
    std::vector<double> v;
    f();
    for (int rep = 0; rep < 5; rep++) {
      CK(cudaEventRecord(a));
      for (int i = 0; i < 20; i++)
        f();
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float ms;
      CK(cudaEventElapsedTime(&ms, a, b));
      v.push_back(ms * 1000.0 / 20);
    }
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }
  template <typename F> double cold(F f, double *spread) {
    std::vector<double> v;
    for (int rep = 0; rep < 7; rep++) {
      flush_kernel<<<1024, 256>>>(flush, flush_n);
      CK(cudaEventRecord(a));
      f();
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float ms;
      CK(cudaEventElapsedTime(&ms, a, b));
      v.push_back(ms * 1000.0);
    }
    std::sort(v.begin(), v.end());
    if (spread)
      *spread = (v[5] - v[1]) / v[3]; // the middle two thirds' width, relative
    return v[v.size() / 2];
  }
};

struct Result {
  std::string id;
  unsigned block, items, per_row;
  double warm, cold, spread;
};

static bool check_only = false;
static bool cols_mode = false; // --cols: generated/cols' CT.SS; no CUB (it has no column reduction)

template <typename T>
static void run_type(const char *type, const std::vector<Shape> &shapes, FILE *md, FILE *csv, Timer &tm,
                     int sms, int max_threads, int *wrong_total) {
  std::vector<RowVariant> all[3];
  if (cols_mode && std::is_floating_point<T>::value) {
    register_cols_sum_f32(all[OP_SUM]);
    register_cols_max_f32(all[OP_MAX]);
    register_cols_min_f32(all[OP_MIN]);
  } else if (cols_mode) {
    register_cols_sum_i32(all[OP_SUM]);
    register_cols_max_i32(all[OP_MAX]);
    register_cols_min_i32(all[OP_MIN]);
  } else if (std::is_floating_point<T>::value) {
    register_sum_f32(all[OP_SUM]);
    register_max_f32(all[OP_MAX]);
    register_min_f32(all[OP_MIN]);
  } else {
    register_sum_i32(all[OP_SUM]);
    register_max_i32(all[OP_MAX]);
    register_min_i32(all[OP_MIN]);
  }
  for (const Shape &sh : shapes) {
    const unsigned long long m = sh.m, n = sh.n, ld = n, total = m * n, nout = cols_mode ? n : m;
    std::vector<T> h(total);
    for (unsigned long long i = 0; i < total; i++)
      h[i] = value_at<T>(i);
    T *d_in;
    CK(cudaMalloc(&d_in, total * sizeof(T)));
    CK(cudaMemcpy(d_in, h.data(), total * sizeof(T), cudaMemcpyHostToDevice));
    T *d_out, *d_want;
    float *d_tol;
    unsigned long long *d_bad;
    CK(cudaMalloc(&d_out, (nout + 1) * sizeof(T)));
    CK(cudaMalloc(&d_want, nout * sizeof(T)));
    CK(cudaMalloc(&d_tol, nout * sizeof(float)));
    CK(cudaMalloc(&d_bad, sizeof(unsigned long long)));
    for (int op = 0; op < 3; op++) {
      // the host reference of every row
      std::vector<T> want(nout);
      std::vector<float> tol(nout, 0.f);
      if (cols_mode) { // each column, the rows in order
        std::vector<double> s(n, 0), a(n, 0);
        std::vector<long long> si(n, 0);
        std::vector<T> v(h.begin(), h.begin() + n);
        for (unsigned long long r = 0; r < m; r++)
          for (unsigned long long c = 0; c < n; c++) {
            T x = h[r * ld + c];
            s[c] += (double)x;
            a[c] += std::fabs((double)x);
            si[c] += (long long)x;
            if (r)
              v[c] = op == OP_MAX ? std::max(v[c], x) : std::min(v[c], x);
          }
        for (unsigned long long c = 0; c < n; c++) {
          want[c] = op != OP_SUM ? v[c]
                    : std::is_floating_point<T>::value ? (T)s[c]
                                                       : (T)(unsigned)(unsigned long long)si[c];
          tol[c] = op == OP_SUM ? (float)(2.0 * (double)m * 1.1920929e-7 * a[c] + 1e-6) : 0.f;
        }
      }
      for (unsigned long long r = 0; r < m && !cols_mode; r++) {
        const T *row = h.data() + r * ld;
        if (op == OP_SUM) {
          double s = 0, a = 0;
          long long si = 0;
          for (unsigned long long c = 0; c < n; c++) {
            s += (double)row[c];
            a += std::fabs((double)row[c]);
            si += (long long)row[c];
          }
          want[r] = std::is_floating_point<T>::value ? (T)s : (T)(unsigned)(unsigned long long)si;
          tol[r] = (float)(2.0 * (double)n * 1.1920929e-7 * a + 1e-6);
        } else {
          T v = row[0];
          for (unsigned long long c = 1; c < n; c++)
            v = op == OP_MAX ? std::max(v, row[c]) : std::min(v, row[c]);
          want[r] = v;
        }
      }
      CK(cudaMemcpy(d_want, want.data(), nout * sizeof(T), cudaMemcpyHostToDevice));
      CK(cudaMemcpy(d_tol, tol.data(), nout * sizeof(float), cudaMemcpyHostToDevice));
      auto check = [&]() -> unsigned long long {
        CK(cudaMemset(d_bad, 0, sizeof(unsigned long long)));
        compare_kernel<T><<<1024, 256>>>(d_out, d_want, d_tol, nout, d_bad);
        unsigned long long bad;
        CK(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost));
        return bad;
      };

      // temp: the most any setting needs, zeroed once (RL's counters)
      size_t tb = 1;
      for (const RowVariant &v : all[op])
        if (v.kind == ROW_RL && m <= 4096)
          tb = std::max(tb, v.temp(m, n, 4, 64));
        else if (v.kind == ROW_CT)
          for (unsigned w = 1; w <= v.block; w *= 2)
            if ((n + w - 1) / w <= 4096)
              tb = std::max(tb, v.temp(m, n, 128, w));
      void *d_temp;
      CK(cudaMalloc(&d_temp, tb));
      CK(cudaMemset(d_temp, 0, tb));

      std::vector<Result> results;
      int wrong = 0, settings = 0;
      for (const RowVariant &v : all[op]) {
        if (v.kind == ROW_RL && m > 4096)
          continue;
        static const unsigned rw[] = {1, 2, 4, 8, 16, 32}, rl[] = {2, 4, 8, 16, 32, 64}, rb[] = {0},
                              ct[] = {1, 4, 16, 32, 64, 128, 256};
        const unsigned *pr = v.kind == ROW_RW ? rw : v.kind == ROW_RL ? rl : v.kind == ROW_CT ? ct : rb;
        int npr = v.kind == ROW_RB ? 1 : v.kind == ROW_CT ? 7 : 6;
        bool vec = std::strstr(v.id, "_SV") != nullptr;
        static const unsigned parts_list[] = {1, 2, 4, 8, 16, 32, 64, 128}, items_list[] = {1, 4};
        const unsigned *il = v.kind == ROW_CT ? parts_list : items_list;
        int nil = v.kind == ROW_CT ? 8 : 2;
        for (int k = 0; k < npr; k++)
          for (int ii = 0; ii < nil; ii++) {
            const unsigned items = il[ii]; // CT: parts down the rows
            if (v.kind != ROW_CT && !vec && items != 1)
              continue; // SS takes no items
            if (v.kind == ROW_CT && (pr[k] > v.block || (items > 1 && (n + pr[k] - 1) / pr[k] > 4096)))
              continue;
            if (v.kind == ROW_RW && pr[k] > v.block)
              continue;
            // too few threads for a large matrix: minutes, never a winner
            unsigned long long threads = v.kind == ROW_RW   ? m * pr[k]
                                         : v.kind == ROW_RB ? m * v.block
                                         : v.kind == ROW_CT ? std::min(n, (unsigned long long)pr[k] * 65535) *
                                                                  (v.block / pr[k]) * items
                                                            : m * pr[k] * v.block;
            if (threads < (1u << 14) && total > (1u << 22))
              continue;
            settings++;
            CK(cudaMemset(d_out, 0x7f, (nout + 1) * sizeof(T)));
            CK(cudaEventRecord(tm.a));
            cudaError_t e = v.launch(d_in, m, n, ld, d_out, d_temp, tb, items, pr[k], 0);
            CK(cudaEventRecord(tm.b));
            CK(cudaDeviceSynchronize());
            float first_ms = 0;
            CK(cudaEventElapsedTime(&first_ms, tm.a, tm.b));
            unsigned long long bad = e == cudaSuccess ? check() : nout;
            if (e != cudaSuccess || bad) {
              wrong++;
              std::printf("WRONG %s %s %llux%llu %s block=%u items=%u per_row=%u: %s, %llu rows\n", type,
                          op_names[op], m, n, v.id, v.block, items, pr[k], cudaGetErrorString(e), bad);
              continue;
            }
            auto call = [&] { v.launch(d_in, m, n, ld, d_out, d_temp, tb, items, pr[k], 0); };
            Result r{v.id, v.block, items, pr[k], 0, 0, 0};
            double best = results.empty() ? 1e30 : results[0].cold;
            for (const Result &o : results)
              best = std::min(best, o.cold);
            if (check_only || (first_ms * 1000.0 > 20 * best && first_ms > 1.0)) { // far behind: timed once
              r.warm = r.cold = first_ms * 1000.0;
            } else {
              r.warm = tm.warm(call);
              r.cold = tm.cold(call, &r.spread);
            }
            results.push_back(r);
            if (csv)
              std::fprintf(csv, "%s,%s,%llu,%llu,%s,%u,%u,%u,%.3f,%.3f\n", type, op_names[op], m, n, v.id,
                           v.block, items, pr[k], r.warm, r.cold);
          }
      }
      *wrong_total += wrong;

      if (cols_mode) { // no CUB column reduction: the best setting alone (torch_rows.py has torch's)
        std::sort(results.begin(), results.end(),
                  [](const Result &a, const Result &b) { return a.cold < b.cold; });
        double bytes = (double)total * sizeof(T);
        if (!results.empty()) {
          const Result &b = results[0];
          std::fprintf(md, "| %s | %s | %llu x %llu | b%u width %u parts %u | %.1f | %.2f | %.1f | %.1f | %d/%d |\n",
                       type, op_names[op], m, n, b.block, b.per_row, b.items, b.cold, bytes / b.cold / 1e6, b.warm,
                       b.spread * 100, wrong, settings);
          std::fflush(md);
          std::printf("cols %s %s %llux%llu: best b%u width %u parts %u %.1f us (%.2f TB/s), %d/%d wrong\n", type,
                      op_names[op], m, n, b.block, b.per_row, b.items, b.cold, bytes / b.cold / 1e6, wrong,
                      settings);
          std::fflush(stdout);
        }
        CK(cudaFree(d_temp));
        continue;
      }
      // CUB: DeviceSegmentedReduce over the same rows
      std::vector<int> offs(m + 1);
      for (unsigned long long r = 0; r <= m; r++)
        offs[r] = (int)(r * ld);
      int *d_offs;
      CK(cudaMalloc(&d_offs, (m + 1) * sizeof(int)));
      CK(cudaMemcpy(d_offs, offs.data(), (m + 1) * sizeof(int), cudaMemcpyHostToDevice));
      size_t cub_bytes = 0;
      auto cub_call = [&](void *tmp, size_t &bytes) {
        if (op == OP_SUM)
          return cub::DeviceSegmentedReduce::Sum(tmp, bytes, d_in, d_out, (int)m, d_offs, d_offs + 1);
        if (op == OP_MAX)
          return cub::DeviceSegmentedReduce::Max(tmp, bytes, d_in, d_out, (int)m, d_offs, d_offs + 1);
        return cub::DeviceSegmentedReduce::Min(tmp, bytes, d_in, d_out, (int)m, d_offs, d_offs + 1);
      };
      CK(cub_call(nullptr, cub_bytes));
      void *d_cub;
      CK(cudaMalloc(&d_cub, cub_bytes + 16));
      CK(cudaMemset(d_out, 0x7f, (m + 1) * sizeof(T)));
      CK(cub_call(d_cub, cub_bytes));
      CK(cudaDeviceSynchronize());
      unsigned long long cub_bad = check();
      double cub_spread = 0, cub_warm = 1, cub_cold = 1;
      if (!check_only) {
        cub_warm = tm.warm([&] { cub_call(d_cub, cub_bytes); });
        cub_cold = tm.cold([&] { cub_call(d_cub, cub_bytes); }, &cub_spread);
      }

      // the best by cold time, and seed 003's plan
      std::sort(results.begin(), results.end(), [](const Result &a, const Result &b) { return a.cold < b.cold; });
      struct tgm_rows_plan plan = tgm_rows_plan_of(m, n, (unsigned)sms, (unsigned)max_threads);
      const char *kinds[] = {"RW", "RB", "RL"};
      // the plan exactly as planned (its per_row may be in no list above)
      Result plan_r{"", 0, 4, plan.per_row, 0, 0, 0};
      const Result *planned = nullptr;
      std::string want_id = std::string(op_names[op]) + "_" + kinds[plan.kind] + "_VS_SV";
      for (const RowVariant &v : all[op]) {
        if (want_id != v.id || v.block != plan.block || (plan.kind == 2 && m > 4096))
          continue;
        CK(cudaMemset(d_out, 0x7f, (m + 1) * sizeof(T)));
        size_t need = v.temp(m, n, 4, plan.per_row);
        void *d_ptemp = nullptr;
        if (need) {
          CK(cudaMalloc(&d_ptemp, need));
          CK(cudaMemset(d_ptemp, 0, need));
        }
        auto call = [&] { v.launch(d_in, m, n, ld, d_out, d_ptemp, need, 4, plan.per_row, 0); };
        cudaError_t e = v.launch(d_in, m, n, ld, d_out, d_ptemp, need, 4, plan.per_row, 0);
        CK(cudaDeviceSynchronize());
        if (e == cudaSuccess && check() == 0) {
          plan_r.id = v.id;
          plan_r.block = v.block;
          plan_r.cold = check_only ? 1 : tm.cold(call, &plan_r.spread);
          planned = &plan_r;
        } else {
          wrong++;
          *wrong_total += 1;
          std::printf("WRONG the plan %s block=%u per_row=%u\n", v.id, v.block, plan.per_row);
        }
        if (d_ptemp)
          CK(cudaFree(d_ptemp));
      }
      double bytes = (double)total * sizeof(T);
      if (!results.empty()) {
        const Result &b = results[0];
        double warm_best = b.warm;
        for (const Result &r : results)
          warm_best = std::min(warm_best, r.warm);
        std::fprintf(md,
                     "| %s | %s | %llu x %llu | %s b%u i%u p%u | %.1f | %.2f | %.1f | %.2f | %.2f | %.1f | %.2f | %s | "
                     "%s | %d/%d |\n",
                     type, op_names[op], m, n, b.id.c_str() + std::strlen(op_names[op]) + 1, b.block, b.items,
                     b.per_row, b.cold, bytes / b.cold / 1e6, cub_cold, cub_cold / b.cold, cub_warm / warm_best,
                     b.spread * 100, bytes / cub_cold / 1e6,
                     planned ? (std::string(kinds[plan.kind]) + " b" + std::to_string(plan.block) + " p" +
                                std::to_string(plan.per_row) + ": " +
                                std::to_string(planned->cold / b.cold).substr(0, 4) + "x")
                                   .c_str()
                             : "n/a",
                     cub_bad ? "CUB WRONG" : "ok", wrong, settings);
        std::fflush(md);
        std::printf("%s %s %llux%llu: best %s %.1f us (%.2f TB/s), CUB %.1f us, plan %s b%u p%u: %s, %d/%d wrong\n",
                    type, op_names[op], m, n, b.id.c_str(), b.cold, bytes / b.cold / 1e6, cub_cold,
                    kinds[plan.kind], plan.block, plan.per_row,
                    planned ? std::to_string(planned->cold).c_str() : "n/a", wrong, settings);
        std::fflush(stdout);
      }
      CK(cudaFree(d_cub));
      CK(cudaFree(d_offs));
      CK(cudaFree(d_temp));
    }
    CK(cudaFree(d_in));
    CK(cudaFree(d_out));
    CK(cudaFree(d_want));
    CK(cudaFree(d_tol));
    CK(cudaFree(d_bad));
  }
}

int main(int argc, char **argv) {
  const char *out = "rows.md", *csv_path = nullptr;
  bool quick = false;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--out") && i + 1 < argc)
      out = argv[++i];
    else if (!std::strcmp(argv[i], "--csv") && i + 1 < argc)
      csv_path = argv[++i];
    else if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (!std::strcmp(argv[i], "--check-only"))
      check_only = true;
    else if (!std::strcmp(argv[i], "--cols"))
      cols_mode = true;
    else {
      std::fprintf(stderr, "usage: rows_bench [--cols] [--out FILE.md] [--csv FILE.csv] [--quick] [--check-only]\n");
      return 2;
    }
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  FILE *md = std::fopen(out, "w");
  FILE *csv = csv_path ? std::fopen(csv_path, "w") : nullptr;
  if (!md || (csv_path && !csv)) {
    std::perror(out);
    return 1;
  }
  if (csv)
    std::fprintf(csv, "type,op,m,n,variant,block,items,per_row,warm_us,cold_us\n");
  if (cols_mode)
    std::fprintf(md,
                 "# Column reductions on %s (%d SMs), tgm --cols (CT.SS)\n\n"
                 "cold: one call after a 256 MiB write evicts L2, median of 7; warm: 20 calls back to back, "
                 "median of 5. best: the fastest checked setting by cold time (block, width: columns a block, "
                 "parts: blocks down the rows). CUB has no column reduction; torch's are in torch.md.\n\n"
                 "| type | op | m x n | best | cold us | TB/s | warm us | spread %% | tgm wrong/settings |\n"
                 "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- |\n",
                 prop.name, prop.multiProcessorCount);
  else
  std::fprintf(md,
               "# Row reductions on %s (%d SMs), tgm --rows against CUB DeviceSegmentedReduce\n\n"
               "cold: one call after a 256 MiB write evicts L2, median of 7; warm: 20 calls back to back, "
               "median of 5. best: the fastest checked setting by cold time (b block, i items, p per_row). "
               "plan/best: seed 003's plan (tgm_rows_plan_of: kind, block, per_row; run as VS, SV, items 4) against the best, cold.\n\n"
               "| type | op | m x n | best | cold us | TB/s | CUB cold us | CUB/tgm cold | CUB/tgm warm | spread %% | "
               "CUB TB/s | plan/best | CUB check | tgm wrong/settings |\n"
               "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n",
               prop.name, prop.multiProcessorCount);
  std::vector<Shape> shapes(std::begin(issue_shapes), std::end(issue_shapes));
  if (quick)
    shapes = {{16, 128}, {768, 4096}, {1ull << 16, 8}};
  Timer tm;
  int wrong = 0;
  run_type<float>("f32", shapes, md, csv, tm, prop.multiProcessorCount, prop.maxThreadsPerBlock, &wrong);
  run_type<int>("i32", shapes, md, csv, tm, prop.multiProcessorCount, prop.maxThreadsPerBlock, &wrong);
  std::fprintf(md, "\n%d wrong settings in all\n", wrong);
  std::fclose(md);
  if (csv)
    std::fclose(csv);
  std::printf("%d wrong settings in all\n", wrong);
  return wrong ? 1 : 0;
}
