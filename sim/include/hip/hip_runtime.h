// Stub for the tgm_sim CPU harness: emitted code may include <hip/hip_runtime.h>.
#include "../../tgm_sim.h"
