// instantiate.cu -- compiles every variant of one generated file: naming each
// host launcher at BLOCK = 256 instantiates its kernels, for every device
// architecture the compiler targets (a host function, so HIP's device pass
// instantiates the kernels without emitting host code).
//   -DTGM_FILE="sum_i32.cu" -DTGM_NS=tgm_kernels_sum_i32 -DTGM_VARIANTS=TGM_VARIANTS_sum_i32
#include TGM_FILE

#define TGM_ADDRESS(id, name, deterministic) \
  reinterpret_cast<const void *>(&TGM_NS::launch_##name<256>),

const void *tgm_all_launchers(int i);
const void *tgm_all_launchers(int i) {
  static const void *const all[] = {TGM_VARIANTS(TGM_ADDRESS) nullptr};
  return all[i];
}
