// A hint to the processor to start loading the cache line at `address`: Swift has no
// prefetch of its own, and the trace replay's working set (a record per object of millions)
// is memory-bound, so loading the records of requests a few ahead hides their latency.
#ifndef ODR_PREFETCH_H
#define ODR_PREFETCH_H

static inline void odr_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
