// hip_stub.c — the HIP backend where HIP was not found at build time.
#include "internal.h"

tgm_status tgm__hip_open(int device, const char *offline_arch, tgm_backend *b) {
  (void)device, (void)offline_arch, (void)b;
  return tgm__fail(TGM_ERR_NO_DRIVER, "this libtgm was built without HIP");
}
