// Stub for the tgm_sim CPU harness: emitted code may include <hip/hip_runtime_api.h>.
#include "../../tgm_sim.h"
