// rows.h -- what bench/rows/variants.cu registers for rows_bench.cu.
#pragma once
#include <cuda_runtime.h>
#include <vector>

#ifndef TGM_SIZE_DEFINED
#define TGM_SIZE_DEFINED
typedef unsigned long long tgm_size;
#endif

enum RowKind { ROW_RW = 0, ROW_RB = 1, ROW_RL = 2, ROW_CT = 3 }; // tgm_rows_plan's kind; columns

struct RowVariant {
  const char *id; // the kernel's name: sum_RW_VS_SV
  RowKind kind;
  unsigned block;
  cudaError_t (*launch)(const void *in, tgm_size m, tgm_size n, tgm_size ld, void *out, void *temp,
                        size_t temp_bytes, unsigned items, unsigned per_row, cudaStream_t s);
  size_t (*temp)(tgm_size m, tgm_size n, unsigned items, unsigned per_row);
};

#define TGM_ROWS_REGISTER(op, type)                                                                \
  void register_##op##_##type(std::vector<RowVariant> &out);                                       \
  void register_cols_##op##_##type(std::vector<RowVariant> &out);
TGM_ROWS_REGISTER(sum, f32)
TGM_ROWS_REGISTER(sum, i32)
TGM_ROWS_REGISTER(max, f32)
TGM_ROWS_REGISTER(max, i32)
TGM_ROWS_REGISTER(min, f32)
TGM_ROWS_REGISTER(min, i32)
