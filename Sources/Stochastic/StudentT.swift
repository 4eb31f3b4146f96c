import CGSL

/// Quantiles of Student's t distribution, for confidence intervals.
public enum StudentT {
    /// The `p` quantile with `dof` degrees of freedom (e.g. p = 0.975 for a two-sided 95 % interval).
    public static func quantile(_ p: Double, degreesOfFreedom dof: Double) -> Double {
        _ = GSLErrors.returned
        return gsl_cdf_tdist_Pinv(p, dof)
    }
}

extension StudentT {
    /// The two-sided p-value of a t statistic with `dof` degrees of freedom: the chance of a
    /// statistic at least as far from 0 when the true mean is 0.
    public static func twoSidedP(_ t: Double, degreesOfFreedom dof: Double) -> Double {
        _ = GSLErrors.returned
        return min(1, 2 * gsl_cdf_tdist_Q(abs(t), dof))
    }
}
