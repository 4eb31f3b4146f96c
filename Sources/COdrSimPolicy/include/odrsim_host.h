// odr-sim's side of calling plug-ins: not part of the plug-in interface (odrsim_policy.h).
// A call into a plug-in is marked, so that a plug-in ending the process (exit) is reported as
// what it is, not as odr-sim succeeding or failing with the plug-in's status.
#ifndef ODRSIM_HOST_H
#define ODRSIM_HOST_H

#ifdef __cplusplus
extern "C" {
#endif

/// Registers, once, an exit handler: when the process exits on a thread that is inside a
/// plug-in call (the plug-in called exit), it calls `stop` with that plug-in's line; `stop`
/// does not return. A normal exit, on a thread outside plug-in code, passes.
void odrsim_arm_plugin_exit(void (*stop)(const char *line));

/// Marks the calling thread as inside a call into plug-in code (plug-ins run on several
/// threads at once, so the mark is per thread); `line` is kept by the caller for the life of
/// the process.
void odrsim_enter_plugin(const char *line);
void odrsim_leave_plugin(void);

#ifdef __cplusplus
}
#endif

#endif
