import Simulation
import Yams

/// Reads `network:`, the piecewise-constant link: a list of `{at, bandwidth, kind}` phases.
///
/// The first phase must be at 0 (the link needs a state from the start) and each later one
/// strictly after the one before, so that no phase is silently overridden.
struct NetworkReader {
    let reader: NodeReader

    func read(_ node: Node) throws(ScenarioError) -> [NetworkPhase] {
        let items = try reader.sequence(node, "network", of: "phases such as {at: 0, bandwidth: 40Mbps}")
        guard !items.isEmpty else {
            throw reader.error(at: node, "network must list at least one phase, such as {at: 0, bandwidth: 40Mbps}")
        }
        var phases: [NetworkPhase] = []
        var previousTimeText = ""
        for item in items {
            let fields = try reader.mapping(item, "each network phase", section: .networkPhase)
            let atNode = try fields.required("at")
            let at = try reader.duration(atNode, "at")
            let bandwidth = try reader.bandwidth(try fields.required("bandwidth"), "bandwidth")
            let kind =
                try fields.value("kind").map { node throws(ScenarioError) in
                    LinkKind(rawValue: try reader.choice(node, "kind", among: LinkKind.allCases.map(\.rawValue)))!
                } ?? .wifi
            let timeText = try reader.scalar(atNode, "at")
            if let previous = phases.last {
                guard at > previous.at else {
                    throw reader.error(
                        at: atNode,
                        """
                        network phase at \(timeText) is not after the phase before it (at \(previousTimeText)); \
                        phases must be in time order
                        """
                    )
                }
            } else if at != 0 {
                throw reader.error(
                    at: atNode,
                    "the first network phase must be at 0, not \(timeText): the link needs a state from the start")
            }
            phases.append(NetworkPhase(at: at, bandwidth: bandwidth, kind: kind))
            previousTimeText = timeText
        }
        return phases
    }
}
