#ifndef OPSCOPE_CACHE_HINTS_H
#define OPSCOPE_CACHE_HINTS_H

// Asks the processor to start loading the cache line at `address` for reading. A hint: it never
// faults, whatever the address, and the program means the same without it. Swift has no
// public spelling of it; inlined where it is called.
static inline void opscope_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
