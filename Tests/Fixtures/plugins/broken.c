/* Plug-ins that break the contract, one per macro (the tests build each):
   WRONG_VERSION speaks interface version 99; CRASH_IN_CREATE dereferences NULL in create;
   FAIL_CREATE returns no instance with a message; NOT_A_CANDIDATE answers a pack id no demand
   has; TWICE names the first candidate twice; TOO_FEW frees nothing while candidates remain.
   Untrusted code at each step of a load (issue 53): CRASH_IN_CONSTRUCTOR, HANG_IN_CONSTRUCTOR,
   EXIT_IN_CONSTRUCTOR (a library constructor); CRASH_IN_ENTRY, EXIT_IN_ENTRY
   (odrsim_policy_entry); HANG_IN_CREATE, EXIT_IN_CREATE; CRASH_IN_DESTROY; and during a run:
   EXIT_IN_SELECT (exit(0) in select_victims), PRINTS (printf to standard output in create and
   select_victims),
   RAW_ERROR (a message with a newline, an escape code and a byte that is not UTF-8),
   BAD_OWN_NAME (a name with a newline). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "odrsim_policy.h"

#if defined(CRASH_IN_CONSTRUCTOR) || defined(HANG_IN_CONSTRUCTOR) || defined(EXIT_IN_CONSTRUCTOR)
__attribute__((constructor)) static void on_load(void) {
#if defined(CRASH_IN_CONSTRUCTOR)
    volatile int *nowhere = NULL;
    *nowhere = 1;
#elif defined(HANG_IN_CONSTRUCTOR)
    for (;;) pause();
#else
    exit(0);
#endif
}
#endif

static void *create(const odrsim_create_args *args, const char **error) {
    (void)args;
#ifdef CRASH_IN_CREATE
    volatile int *nowhere = NULL;
    *nowhere = 1;
#endif
#ifdef HANG_IN_CREATE
    for (;;) pause();
#endif
#ifdef EXIT_IN_CREATE
    exit(0);
#endif
#ifdef PRINTS
    printf("creating\n");
    fflush(stdout);
#endif
#ifdef FAIL_CREATE
    *error = "needs a licence file";
    return NULL;
#endif
    (void)error;
    return malloc(1);
}

static void destroy(void *instance) {
#ifdef CRASH_IN_DESTROY
    volatile int *nowhere = NULL;
    *nowhere = 1;
#endif
    free(instance);
}

static int64_t select_victims(void *instance, const odrsim_view *view, int64_t *victims, const char **error) {
    (void)instance; (void)error;
#if defined(EXIT_IN_SELECT)
    exit(0);
#elif defined(PRINTS)
    printf("choosing victims\n");
    fflush(stdout);
    (void)view; (void)victims;
    return 0;
#elif defined(RAW_ERROR)
    *error = "no victim:\nsee \x1b[31mlog\x1b[0m \xff";
    return -1;
#elif defined(NOT_A_CANDIDATE)
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
#ifdef BAD_OWN_NAME
    .name = "bro\nken",
#else
    .name = "broken",
#endif
    .create = create,
    .destroy = destroy,
    .select_victims = select_victims,
};

const odrsim_policy_api *odrsim_policy_entry(void) {
#if defined(CRASH_IN_ENTRY)
    volatile int *nowhere = NULL;
    *nowhere = 1;
#elif defined(EXIT_IN_ENTRY)
    exit(0);
#endif
    return &api;
}
