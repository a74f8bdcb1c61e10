/* Compiled for the size report only: the static RAM a port needs is one thr_core (the timeline
 * memory is separate and sized by the port). */
#include "thr_core.h"

thr_core thr_size_probe_core;
