#ifndef CAIRN_CMALLOC_SHIM_H
#define CAIRN_CMALLOC_SHIM_H

// glibc's allocator settings (mallopt) and statistics (mallinfo2).
#include <malloc.h>

#endif
