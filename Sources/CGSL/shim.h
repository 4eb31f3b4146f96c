#ifndef ODR_SIM_CGSL_SHIM_H
#define ODR_SIM_CGSL_SHIM_H

#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sys.h>

/* GSL exposes its generator types as mutable globals, which Swift 6's strict
   concurrency rejects; these getters hand them over as plain function results. */
static inline const gsl_rng_type *cgsl_rng_mt19937(void) { return gsl_rng_mt19937; }
static inline const gsl_rng_type *cgsl_rng_ranlxd2(void) { return gsl_rng_ranlxd2; }

/* GSL's default error handler aborts the process; the library reports errors by return value instead. */
static inline void cgsl_disable_abort_on_error(void) { gsl_set_error_handler_off(); }

#endif
