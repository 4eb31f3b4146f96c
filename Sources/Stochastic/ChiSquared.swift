import CGSL

/// Quantiles of the χ² distribution, for exact (Garwood) intervals of a Poisson mean.
public enum ChiSquared {
    /// The `p` quantile with `dof` degrees of freedom (0 for `dof` 0, the χ² of no events).
    public static func quantile(_ p: Double, degreesOfFreedom dof: Double) -> Double {
        _ = GSLErrors.returned
        return dof > 0 ? gsl_cdf_chisq_Pinv(p, dof) : 0
    }
}
