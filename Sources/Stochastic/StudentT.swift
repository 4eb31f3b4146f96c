import CGSL

/// Quantiles of Student's t distribution, for confidence intervals.
public enum StudentT {
    /// The `p` quantile with `dof` degrees of freedom (e.g. p = 0.975 for a two-sided 95 % interval).
    public static func quantile(_ p: Double, degreesOfFreedom dof: Double) -> Double {
        gsl_cdf_tdist_Pinv(p, dof)
    }
}
