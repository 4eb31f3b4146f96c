// Zstandard (Debian: libzstd-dev), for reading compressed traces as a stream.
#include <zstd.h>
