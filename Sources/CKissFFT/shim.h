// kissfft (https://github.com/mborgerding/kissfft) in single precision (libkissfft-float; float is
// kiss_fft_scalar's default). Debian: apt-get install libkissfft-dev, which puts the headers in
// /usr/include/kissfft. Only ThrumAudioAnalysis imports it.
#ifndef THRUM_CKISSFFT_SHIM_H
#define THRUM_CKISSFFT_SHIM_H
#include <kissfft/kiss_fftr.h>
#endif
