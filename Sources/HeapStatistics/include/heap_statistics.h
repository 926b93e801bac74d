#ifndef OPSCOPE_HEAP_STATISTICS_H
#define OPSCOPE_HEAP_STATISTICS_H

#include <stddef.h>
#if defined(__linux__)
#include <malloc.h>
#endif

/// Bytes the C allocator has handed out and not taken back (small chunks plus mmapped ones),
/// or 0 where the allocator does not say. The memory benchmarks read it before and after.
static inline size_t opscope_heap_bytes_in_use(void) {
#if defined(__linux__)
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
#else
    return 0;
#endif
}

#endif
