/*
 * odrsim_policy.h: the interface of an odr-sim purge-policy plug-in, version 1.
 *
 * A plug-in is a shared library that exports one function,
 *
 *     const odrsim_policy_api *odrsim_policy_entry(void);
 *
 * returning a table that lives as long as the library. odr-sim loads it with
 * `--policy-plugin PATH[:NAME[:OPTIONS]]` (run, compare, sweep, replay, advise), checks
 * `version`, and from then on the policy is one more name, usable on the command line and as
 * an app's `strategy:` in a scenario. Each run makes its own instance (`create`) and ends it
 * (`destroy`); runs may be made on several threads at once, each instance on one thread.
 *
 * The contract is the built-in policies' (ODRCore's PurgePolicy): odr-sim keeps the
 * instance informed (stored, accessed, released, removed) and, when the device needs room,
 * asks for victims among the candidates of a view. Every answer is checked: each victim must
 * be a candidate (`candidate_size` >= 0), listed once, and together they must free the bytes
 * asked for, or be every candidate there is. A wrong answer, a failed `create` or an error
 * returned by `select_victims` stops odr-sim with one line naming the plug-in (exit 1),
 * before anything is written; a crash inside the plug-in cannot be caught once a run has begun.
 *
 * Build one with `scripts/build-plugin FILE.c` (it prints the .so's path as its last line);
 * examples/plugins/fifo.c is a complete plug-in that reproduces the built-in `fifo`.
 */
#ifndef ODRSIM_POLICY_H
#define ODRSIM_POLICY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface; a plug-in of another version is refused when loaded. */
#define ODRSIM_POLICY_API_VERSION 1

/* What a policy may know about one asset pack (read when the call is made). */
typedef struct odrsim_pack {
    int64_t id;             /* the pack's index on the device: 0, 1, ...; stable for the run */
    int64_t size;           /* bytes removing it would free */
    double last_use;        /* time (s) of the last request, arrival or release */
    uint64_t last_use_order;/* device-wide order of that last use (breaks ties of equal times) */
    uint64_t stored_order;  /* device-wide order in which packs finished downloading */
    int64_t request_count;  /* requests that included it since its app was installed */
    int32_t app;            /* the app's index on the device */
    int32_t app_running;    /* 1 if its app is running */
    double preservation;    /* highest preservation priority among its tags (0...1) */
    int32_t purge_count;    /* how often it has been removed before */
    int32_t reserved;
} odrsim_pack;

/* Whose packs a demand chooses from. */
enum {
    ODRSIM_SCOPE_APPS_NOT_RUNNING = 0, /* the system purges packs of apps not running (ODR) */
    ODRSIM_SCOPE_RUNNING_APPS = 1,     /* ... then, only if that is not enough, of running apps */
    ODRSIM_SCOPE_APP = 2               /* one app's own code removes its packs (`app`) */
};

/* One demand for room and the candidates it may take, valid during select_victims only. */
typedef struct odrsim_view odrsim_view;
struct odrsim_view {
    const void *context;    /* odr-sim's; pass the view back to its functions */
    int64_t bytes;          /* bytes to free */
    double time;            /* time (s) of the demand */
    int64_t cache_bytes;    /* bytes packs may take on the device now (capacity less other data) */
    int32_t scope;          /* ODRSIM_SCOPE_* */
    int32_t app;            /* with ODRSIM_SCOPE_APP: the evicting app's index; else -1 */
    int64_t candidate_count;/* how many candidates there are */
    /* The bytes removing `pack` frees if it is a candidate of this demand; -1 if it is not. */
    int64_t (*candidate_size)(const odrsim_view *view, int64_t pack);
    /* Fills `out` with up to `capacity` candidates in pack order; returns how many it wrote.
       Costs time in proportion to the packs on the device: incremental policies keep their
       own order and ask candidate_size instead. */
    int64_t (*candidates)(const odrsim_view *view, odrsim_pack *out, int64_t capacity);
    /* Any pack of the device, candidate or not; returns 0, or -1 for an id out of range. */
    int32_t (*pack)(const odrsim_view *view, int64_t pack, odrsim_pack *out);
};

/* One `key=value` of the OPTIONS in `--policy-plugin PATH:NAME:k=v,k=v`, as text. */
typedef struct odrsim_option {
    const char *key;
    const char *value;
} odrsim_option;

/* What `create` is given. */
typedef struct odrsim_create_args {
    const char *name;              /* the policy's name in this run */
    const char *argument;          /* for a host plug-in (Python): what to load; else "" */
    const odrsim_option *options;  /* the OPTIONS given after the name */
    int32_t option_count;
    int32_t reserved;
    uint64_t seed;                 /* the run's seed: derive any randomness from it */
} odrsim_create_args;

typedef struct odrsim_policy_api {
    uint32_t version;              /* ODRSIM_POLICY_API_VERSION */
    const char *name;              /* the default name (`--policy NAME`) */
    const char *summary;           /* one line for `odr-sim policies` */
    /* A new instance, or NULL with a message in *error (a static or the plug-in's string). */
    void *(*create)(const odrsim_create_args *args, const char **error);
    void (*destroy)(void *instance);
    /* Notifications; any may be NULL. */
    void (*stored)(void *instance, const odrsim_pack *pack);   /* finished downloading (admitted) */
    void (*accessed)(void *instance, const odrsim_pack *pack); /* a request included it (a hit) */
    void (*released)(void *instance, const odrsim_pack *pack); /* its last holder ended access */
    void (*removed)(void *instance, const odrsim_pack *pack);  /* removed, or its app uninstalled */
    /* Victims in removal order, written to `victims` (room for view->candidate_count ids):
       returns how many, or -1 with a message in *error. */
    int64_t (*select_victims)(void *instance, const odrsim_view *view, int64_t *victims, const char **error);
    /* The first error a notification met (they return nothing), or NULL; may be NULL itself.
       odr-sim asks after each demand and when the run ends, and stops on one. */
    const char *(*error)(void *instance);
} odrsim_policy_api;

/* The one symbol a plug-in exports. */
typedef const odrsim_policy_api *(*odrsim_policy_entry_fn)(void);
#define ODRSIM_POLICY_ENTRY "odrsim_policy_entry"

#ifdef __cplusplus
}
#endif

#endif /* ODRSIM_POLICY_H */
