// variants.cu -- one spectrum and type of generated/rows (tgm-gen --rows),
// compiled once per (OP, TYPE) by bench/rows/run.sh, registered for
// rows_bench.cu: each row variant the benchmark times, at each block size.
//   nvcc -DOP=sum -DTYPE=f32 -I generated/rows -c variants.cu
#include "rows.h"

#define STR2(x) #x
#define STR(x) STR2(x)
#define CAT3_(a, b, c) a##b##c
#define CAT3(a, b, c) CAT3_(a, b, c)
#define FILE_OF2(op, type) STR(op##_##type##_rows.cu)
#define FILE_OF(op, type) FILE_OF2(op, type)
#include FILE_OF(OP, TYPE)
#define CFILE_OF2(op, type) STR(op##_##type##_cols.cu)
#define CFILE_OF(op, type) CFILE_OF2(op, type)
#include CFILE_OF(OP, TYPE)

#define NS_OF2(op, type) tgm_kernels_##op##_##type##_rows
#define NS_OF(op, type) NS_OF2(op, type)
namespace ns = NS_OF(OP, TYPE);
#define CNS_OF2(op, type) tgm_kernels_##op##_##type##_cols
#define CNS_OF(op, type) CNS_OF2(op, type)
namespace cns = CNS_OF(OP, TYPE);

namespace {
template <unsigned B, cudaError_t (*L)(const cns::T *, tgm_size, tgm_size, tgm_size, cns::R *, void *,
                                       size_t, unsigned, unsigned, cudaStream_t),
          size_t (*TB)(tgm_size, tgm_size, unsigned, unsigned)>
struct ErasedCols {
  static cudaError_t launch(const void *in, tgm_size m, tgm_size n, tgm_size ld, void *out, void *temp,
                            size_t temp_bytes, unsigned parts, unsigned width, cudaStream_t s) {
    return L(static_cast<const cns::T *>(in), m, n, ld, static_cast<cns::R *>(out), temp, temp_bytes, parts,
             width, s);
  }
  static size_t temp(tgm_size m, tgm_size n, unsigned parts, unsigned width) {
    return TB(m, n, parts, width);
  }
};

template <unsigned B, cudaError_t (*L)(const ns::T *, tgm_size, tgm_size, tgm_size, ns::R *, void *,
                                       size_t, unsigned, unsigned, cudaStream_t),
          size_t (*TB)(tgm_size, tgm_size, unsigned, unsigned)>
struct Erased {
  static cudaError_t launch(const void *in, tgm_size m, tgm_size n, tgm_size ld, void *out, void *temp,
                            size_t temp_bytes, unsigned items, unsigned per_row, cudaStream_t s) {
    return L(static_cast<const ns::T *>(in), m, n, ld, static_cast<ns::R *>(out), temp, temp_bytes, items,
             per_row, s);
  }
  static size_t temp(tgm_size m, tgm_size n, unsigned items, unsigned per_row) {
    return TB(m, n, items, per_row);
  }
};
} // namespace

#define ENTRY(kind, name, B)                                                                            \
  out.push_back(RowVariant{STR(name), kind, B,                                                          \
                           &Erased<B, &ns::CAT3(launch_, name, )<B>, &ns::CAT3(temp_bytes_, name, )<B>>::launch, \
                           &Erased<B, &ns::CAT3(launch_, name, )<B>, &ns::CAT3(temp_bytes_, name, )<B>>::temp})
#define ALLB(kind, name) ENTRY(kind, name, 128); ENTRY(kind, name, 256); ENTRY(kind, name, 512); ENTRY(kind, name, 1024)

#define VNAME(op, v) CAT3(op, _, v)
#define REG2(op, type) register_##op##_##type
#define REG(op, type) REG2(op, type)

void REG(OP, TYPE)(std::vector<RowVariant> &out) {
  ALLB(ROW_RW, VNAME(OP, RW_V_SS));
  ALLB(ROW_RW, VNAME(OP, RW_VS_SS));
  ALLB(ROW_RW, VNAME(OP, RW_VS_SV));
  ALLB(ROW_RB, VNAME(OP, RB_VS_SS));
  ALLB(ROW_RB, VNAME(OP, RB_VS_SV));
  ALLB(ROW_RL, VNAME(OP, RL_VS_SS));
  ALLB(ROW_RL, VNAME(OP, RL_VS_SV));
#ifdef HAS_VR
  ALLB(ROW_RB, VNAME(OP, RB_VR_SV));
  ALLB(ROW_RL, VNAME(OP, RL_VR_SV));
#endif
}

#define CENTRY(name, B)                                                                                    \
  out.push_back(RowVariant{STR(name), ROW_CT, B,                                                          \
                           &ErasedCols<B, &cns::CAT3(launch_, name, )<B>, &cns::CAT3(temp_bytes_, name, )<B>>::launch, \
                           &ErasedCols<B, &cns::CAT3(launch_, name, )<B>, &cns::CAT3(temp_bytes_, name, )<B>>::temp})
#define REGC2(op, type) register_cols_##op##_##type
#define REGC(op, type) REGC2(op, type)

void REGC(OP, TYPE)(std::vector<RowVariant> &out) {
  CENTRY(VNAME(OP, CT_SS), 128);
  CENTRY(VNAME(OP, CT_SS), 256);
  CENTRY(VNAME(OP, CT_SS), 512);
  CENTRY(VNAME(OP, CT_SS), 1024);
  // CT.SV: `width` counts groups of 4 columns (one 16-byte vector a row)
  CENTRY(VNAME(OP, CT_SV), 128);
  CENTRY(VNAME(OP, CT_SV), 256);
  CENTRY(VNAME(OP, CT_SV), 512);
  CENTRY(VNAME(OP, CT_SV), 1024);
}
