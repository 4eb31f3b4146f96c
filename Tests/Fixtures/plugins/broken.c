/* Plug-ins that break the contract, one per BROKEN_* macro (the tests build each):
   WRONG_VERSION speaks interface version 99; CRASH_IN_CREATE dereferences NULL in create;
   FAIL_CREATE returns no instance with a message; NOT_A_CANDIDATE answers a pack id no demand
   has; TWICE names the first candidate twice; TOO_FEW frees nothing while candidates remain. */
#include <stddef.h>
#include <stdlib.h>
#include "odrsim_policy.h"

static void *create(const odrsim_create_args *args, const char **error) {
    (void)args;
#ifdef CRASH_IN_CREATE
    volatile int *nowhere = NULL;
    *nowhere = 1;
#endif
#ifdef FAIL_CREATE
    *error = "needs a licence file";
    return NULL;
#endif
    (void)error;
    return malloc(1);
}

static void destroy(void *instance) { free(instance); }

static int64_t select_victims(void *instance, const odrsim_view *view, int64_t *victims, const char **error) {
    (void)instance; (void)error;
#if defined(NOT_A_CANDIDATE)
    victims[0] = 1000000;
    return 1;
#elif defined(TWICE)
    /* The first candidate, twice (there is room: the array holds candidate_count ids, and a
       demand with one candidate is refused by the count check instead). */
    odrsim_pack first;
    view->candidates(view, &first, 1);
    victims[0] = first.id;
    if (view->candidate_count < 2) return 1;
    victims[1] = first.id;
    return 2;
#else
    (void)view; (void)victims;
    return 0;
#endif
}

static const odrsim_policy_api api = {
#ifdef WRONG_VERSION
    .version = 99,
#else
    .version = ODRSIM_POLICY_API_VERSION,
#endif
    .name = "broken",
    .create = create,
    .destroy = destroy,
    .select_victims = select_victims,
};

const odrsim_policy_api *odrsim_policy_entry(void) { return &api; }
