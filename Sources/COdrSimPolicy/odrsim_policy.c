// The interface is the header alone; SwiftPM builds a C target from at least one source.
#include "odrsim_policy.h"

uint32_t odrsim_policy_host_version(void) { return ODRSIM_POLICY_API_VERSION; }
