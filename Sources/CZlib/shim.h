#ifndef CAIRN_CZLIB_SHIM_H
#define CAIRN_CZLIB_SHIM_H

#include <zlib.h>

#endif
