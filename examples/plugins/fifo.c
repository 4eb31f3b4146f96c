/*
 * First in, first out, as a plug-in: the pack that finished downloading earliest goes first;
 * requests do not move it. It reproduces odr-sim's built-in `fifo` exactly (the tests check
 * misses and bytes on a trace and a scenario).
 *
 *   scripts/build-plugin examples/plugins/fifo.c        # prints the .so's path
 *   odr-sim replay Scenarios/traces/zipf-20k.csv --capacity 10% \
 *       --policy-plugin .build/plugins/fifo.so --policy c-fifo --policy fifo
 *
 * The queue is a doubly linked list over pack ids (arrays indexed by id), so every
 * notification is O(1) and a purge walks from the oldest pack, skipping those that are not
 * candidates of the demand (held, of another app, ...), as the built-in queue does.
 */
#include <stdlib.h>
#include <string.h>
#include "odrsim_policy.h"

typedef struct fifo {
    int64_t *next, *prev;   /* links by pack id; -2: not in the queue */
    int64_t capacity;       /* ids below it have links */
    int64_t head, tail;     /* -1: empty */
} fifo;

static int grow(fifo *q, int64_t id) {
    if (id < q->capacity) return 1;
    int64_t capacity = q->capacity ? q->capacity : 64;
    while (capacity <= id) capacity *= 2;
    int64_t *next = realloc(q->next, (size_t)capacity * sizeof *next);
    if (!next) return 0;
    q->next = next;
    int64_t *prev = realloc(q->prev, (size_t)capacity * sizeof *prev);
    if (!prev) return 0;
    q->prev = prev;
    for (int64_t k = q->capacity; k < capacity; k++) q->next[k] = q->prev[k] = -2;
    q->capacity = capacity;
    return 1;
}

static int contains(const fifo *q, int64_t id) { return id < q->capacity && q->next[id] != -2; }

static void unlink_pack(fifo *q, int64_t id) {
    if (!contains(q, id)) return;
    int64_t p = q->prev[id], n = q->next[id];
    if (p >= 0) q->next[p] = n; else q->head = n;
    if (n >= 0) q->prev[n] = p; else q->tail = p;
    q->next[id] = q->prev[id] = -2;
}

static void push_back(fifo *q, int64_t id) {
    if (!grow(q, id)) return;
    unlink_pack(q, id);
    q->prev[id] = q->tail;
    q->next[id] = -1;
    if (q->tail >= 0) q->next[q->tail] = id; else q->head = id;
    q->tail = id;
}

static void *create(const odrsim_create_args *args, const char **error) {
    (void)args;
    fifo *q = calloc(1, sizeof *q);
    if (!q) { *error = "out of memory"; return NULL; }
    q->head = q->tail = -1;
    return q;
}

static void destroy(void *instance) {
    fifo *q = instance;
    free(q->next);
    free(q->prev);
    free(q);
}

static void stored(void *instance, const odrsim_pack *pack) { push_back(instance, pack->id); }
static void removed(void *instance, const odrsim_pack *pack) { unlink_pack(instance, pack->id); }

static int64_t select_victims(void *instance, const odrsim_view *view, int64_t *victims, const char **error) {
    (void)error;
    fifo *q = instance;
    int64_t count = 0, freed = 0;
    for (int64_t id = q->head; id >= 0 && freed < view->bytes; id = q->next[id]) {
        int64_t size = view->candidate_size(view, id);
        if (size < 0) continue;
        victims[count++] = id;
        freed += size;
    }
    return count;
}

static const odrsim_policy_api api = {
    .version = ODRSIM_POLICY_API_VERSION,
    .name = "c-fifo",
    .summary = "earliest downloaded first (a C plug-in reproducing fifo)",
    .create = create,
    .destroy = destroy,
    .stored = stored,
    .removed = removed,
    .select_victims = select_victims,
};

const odrsim_policy_api *odrsim_policy_entry(void) { return &api; }
