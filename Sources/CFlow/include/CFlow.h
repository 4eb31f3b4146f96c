// Minimum-cost flow by LEMON's network simplex (Debian: liblemon-dev), behind a C interface
// that Swift can call: the offline bounds (FOO) are min-cost-flow problems.
#ifndef ODR_CFLOW_H
#define ODR_CFLOW_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How the solve ended.
typedef enum {
    ODR_FLOW_OPTIMAL = 0,
    ODR_FLOW_INFEASIBLE = 1,
    ODR_FLOW_UNBOUNDED = 2,
    ODR_FLOW_OUT_OF_MEMORY = 3
} odr_flow_status;

/// Solves min Σ cost[a]·flow[a] subject to 0 ≤ flow[a] ≤ capacity[a] and, at every node,
/// outflow − inflow = supply[node]. Nodes are 0..<node_count; arc a runs from[a] → to[a].
/// Nodes and arcs enter LEMON's graph in index order, so a problem built in the order of the
/// FOO reference tool is solved along the same pivots. `pivot`: LEMON's pivot rule (1 first
/// eligible, 2 best eligible, 3 block search, 4 candidate list, 8 altering list).
/// On success writes every arc's flow to `flow` and the total cost to `total_cost`.
odr_flow_status odr_min_cost_flow(int64_t node_count, int64_t arc_count,
                                  const int32_t *from, const int32_t *to,
                                  const int64_t *capacity, const double *cost, const int64_t *supply,
                                  int pivot, int64_t *flow, double *total_cost);

#ifdef __cplusplus
}
#endif

#endif
