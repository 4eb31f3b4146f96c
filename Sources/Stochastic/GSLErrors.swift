import CGSL

/// GSL's errors as values, not an abort: its default handler ends the process on a domain
/// error (`gamma.c: x too large` for a t quantile at absurd degrees of freedom, from a
/// hand-edited baseline; found by FuzzBaseline), where every function here returns NaN
/// instead and its caller decides. Touched before every GSL call of this module.
enum GSLErrors {
    static let returned: Void = { _ = gsl_set_error_handler_off() }()
}
