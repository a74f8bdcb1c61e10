// libserialport (https://sigrok.org/wiki/Libserialport), as found by pkg-config.
// Debian: apt-get install libserialport-dev. Only ThrumSerial imports this module.
#ifndef THRUM_CLIBSERIALPORT_SHIM_H
#define THRUM_CLIBSERIALPORT_SHIM_H
#include <libserialport.h>
#endif
