// The C interface of CFlow.h over LEMON's NetworkSimplex, as the FOO reference tool uses it
// (SmartDigraph, int64 capacities, double costs).
#include "CFlow.h"

#include <lemon/network_simplex.h>
#include <lemon/smart_graph.h>
#include <new>

using namespace lemon;

extern "C" odr_flow_status odr_min_cost_flow(int64_t node_count, int64_t arc_count,
                                             const int32_t *from, const int32_t *to,
                                             const int64_t *capacity, const double *cost, const int64_t *supply,
                                             int pivot, int64_t *flow, double *total_cost) {
    try {
        typedef NetworkSimplex<SmartDigraph, int64_t, double> Solver;
        SmartDigraph g;
        g.reserveNode(static_cast<int>(node_count));
        g.reserveArc(static_cast<int>(arc_count));
        for (int64_t n = 0; n < node_count; n++) g.addNode();
        SmartDigraph::ArcMap<int64_t> cap(g);
        SmartDigraph::ArcMap<double> costs(g);
        SmartDigraph::NodeMap<int64_t> supplies(g);
        for (int64_t n = 0; n < node_count; n++) supplies[g.nodeFromId(static_cast<int>(n))] = supply[n];
        for (int64_t a = 0; a < arc_count; a++) {
            SmartDigraph::Arc arc = g.addArc(g.nodeFromId(from[a]), g.nodeFromId(to[a]));
            cap[arc] = capacity[a];
            costs[arc] = cost[a];
        }
        Solver solver(g);
        solver.upperMap(cap).costMap(costs).supplyMap(supplies);
        Solver::PivotRule rule;
        switch (pivot) {
            case 1: rule = Solver::FIRST_ELIGIBLE; break;
            case 2: rule = Solver::BEST_ELIGIBLE; break;
            case 4: rule = Solver::CANDIDATE_LIST; break;
            case 8: rule = Solver::ALTERING_LIST; break;
            default: rule = Solver::BLOCK_SEARCH; break;
        }
        Solver::ProblemType result = solver.run(rule);
        if (result == Solver::INFEASIBLE) return ODR_FLOW_INFEASIBLE;
        if (result == Solver::UNBOUNDED) return ODR_FLOW_UNBOUNDED;
        for (int64_t a = 0; a < arc_count; a++) flow[a] = solver.flow(g.arcFromId(static_cast<int>(a)));
        *total_cost = solver.totalCost<double>();
        return ODR_FLOW_OPTIMAL;
    } catch (const std::bad_alloc &) {
        return ODR_FLOW_OUT_OF_MEMORY;
    }
}
