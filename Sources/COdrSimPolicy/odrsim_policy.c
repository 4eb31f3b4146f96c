// The interface is the header alone; SwiftPM builds a C target from at least one source.
#include "odrsim_policy.h"

uint32_t odrsim_policy_host_version(void) { return ODRSIM_POLICY_API_VERSION; }

// odr-sim's side of calling plug-ins (odrsim_host.h).
#include "odrsim_host.h"

#include <stdlib.h>

/* Per thread: a plug-in that calls exit does so on the thread that called it, and exit runs
   the handlers there. */
static __thread int plugin_depth = 0;
static __thread const char *plugin_line = 0;
static void (*plugin_exit_stop)(const char *line) = 0;

static void exit_inside_plugin(void) {
    if (plugin_depth > 0 && plugin_line != 0 && plugin_exit_stop != 0) plugin_exit_stop(plugin_line);
}

/* The handler is registered once per thread that may call exit at the same moment: glibc
   (2.36) pops each handler under a lock and runs it outside it, so a second thread calling
   exit while the first runs the only copy finds the list empty and ends the process with the
   plug-in's status before the first has said why. With a copy each, every thread that exits
   from a plug-in call runs one; the first to stop holds Interruption's lock, the others wait. */
enum { exit_handler_copies = 1024 };

void odrsim_arm_plugin_exit(void (*stop)(const char *line)) {
    if (plugin_exit_stop != 0) return;
    plugin_exit_stop = stop;
    for (int k = 0; k < exit_handler_copies; k++) atexit(exit_inside_plugin);
}

void odrsim_enter_plugin(const char *line) {
    plugin_line = line;
    plugin_depth += 1;
}

void odrsim_leave_plugin(void) { plugin_depth -= 1; }
