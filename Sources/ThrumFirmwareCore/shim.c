#include "ThrumFirmwareCore.h"

size_t thrum_sim_core_size(void) { return sizeof(thr_core); }
