import Foundation

// Thin names so the generator files read the same on every platform.
@inline(__always) func Foundation_log(_ x: Double) -> Double { log(x) }
@inline(__always) func Foundation_exp(_ x: Double) -> Double { exp(x) }
@inline(__always) func Foundation_sin(_ x: Double) -> Double { sin(x) }
