// libsamplerate (https://libsndfile.github.io/libsamplerate/), as found by pkg-config: band-limited
// sample-rate conversion. Debian: apt-get install libsamplerate0-dev. Only ThrumAudioAnalysis imports it.
#ifndef THRUM_CSAMPLERATE_SHIM_H
#define THRUM_CSAMPLERATE_SHIM_H
#include <samplerate.h>
#endif
