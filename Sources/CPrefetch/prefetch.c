// The module is its header (CPrefetch.h); SwiftPM needs one source file for a C target.
#include "CPrefetch.h"
