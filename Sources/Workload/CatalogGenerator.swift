import ODRCore
import Quantities
import Simulation
import Stochastic

/// Generated catalogs: `count` single-tag resources with lognormal sizes, so a study can
/// sweep tag size. Drawn from the scenario seed (not the replication's), so every
/// replication and policy sees the same catalog.
///
/// ```yaml
/// apps:
///   - id: filters
///     generate: {tags: 300, size: {median: 8MB, sigma: 0.7}, prefix: filter-}
/// ```
public enum CatalogGenerator {
    /// Most tags a catalog may generate on a platform without a pack limit.
    public static let maximumTags = 1_000_000

    public static func resources(count: Int, size: Lognormal, prefix: String, seed: UInt64, app: String) -> [Resource] {
        let stream = RandomStream(seed: seed, purpose: "catalog/\(app)")
        return (1...max(count, 1)).prefix(count).map { i in
            let bytes = max(1, ModelLimits.drawnBytes(stream.lognormal(mu: size.mu, sigma: size.sigma)))
            return Resource(name: "\(prefix)\(i)", size: bytes, tags: ["\(prefix)\(i)"])
        }
    }
}
