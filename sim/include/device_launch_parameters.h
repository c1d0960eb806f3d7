// Stub for the tgm_sim CPU harness: emitted code may include <device_launch_parameters.h>.
#include "../tgm_sim.h"
