import Foundation

/// Sample mean and (unbiased) variance.
func meanAndVariance(_ xs: [Double]) -> (mean: Double, variance: Double) {
    let n = Double(xs.count)
    let mean = xs.reduce(0, +) / n
    let variance = xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
    return (mean, variance)
}

/// Checks a sample against a normal N(mu, sigma²): the sample mean lies within 4 standard
/// errors (sigma/√n) and the sample variance within 4 of its standard errors
/// (sigma²·√(2/(n−1)) for normal data). A correct generator fails this about 1 in 15,000 runs;
/// the seeds are fixed, so a run is reproducible.
func matchesNormal(_ xs: [Double], mu: Double, sigma: Double) -> Bool {
    let n = Double(xs.count)
    let (mean, variance) = meanAndVariance(xs)
    return abs(mean - mu) <= 4 * sigma / n.squareRoot()
        && abs(variance - sigma * sigma) <= 4 * sigma * sigma * (2 / (n - 1)).squareRoot()
}

/// Checks a sample against an exponential with `mean`: the sample mean within 4·mean/√n,
/// the sample variance (expected mean²) within 4·mean²·√(8/n) (fourth central moment 9·mean⁴).
func matchesExponential(_ xs: [Double], mean expected: Double) -> Bool {
    let n = Double(xs.count)
    let (mean, variance) = meanAndVariance(xs)
    return abs(mean - expected) <= 4 * expected / n.squareRoot()
        && abs(variance - expected * expected) <= 4 * expected * expected * (8 / n).squareRoot()
}
