// libsndfile (https://libsndfile.github.io/libsndfile/), as found by pkg-config: reads WAV, FLAC,
// Ogg Vorbis/Opus and MP3. Debian: apt-get install libsndfile1-dev. Only ThrumAudioAnalysis imports it.
#ifndef THRUM_CSNDFILE_SHIM_H
#define THRUM_CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
