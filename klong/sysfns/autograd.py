"""Derivatives beyond the operators (system.md, part B): .jacobian .hessian .gradcheck
.customgrad .numgrad .anomaly, each the interpreter's Differentiation (runtime/autograd.py)
at work."""
from .table import table

FUNCTIONS, register = table()


@register(".jacobian", 2)
def jacobian(interp, f, p):
    """.jacobian(f;x): the Jacobian of f at x, as x∂f gives it (one per variable when x
    is a list of names)."""
    return interp.differentiation.jacobian(p, f)


@register(".hessian", 2)
def hessian(interp, f, p):
    """.hessian(f;x): the matrix of second derivatives of the scalar function f at x."""
    return interp.differentiation.hessian(f, p)


@register(".gradcheck", 2)
def gradcheck(interp, f, p):
    """.gradcheck(f;x): 1 when the exact gradient of f at x agrees with central
    differences (torch), else 0."""
    return interp.differentiation.gradcheck(f, p)


@register(".customgrad", 2)
def custom_gradient(interp, f, df):
    """.customgrad(f;df): f, differentiated with the derivative df given for it."""
    return interp.differentiation.custom(f, df)


@register(".numgrad", 1)
def numeric_gradient(interp, f):
    """.numgrad(f): f, differentiated by central differences, for code that exact autograd
    cannot see into."""
    return interp.differentiation.numeric_backward(f)


@register(".anomaly", 1)
def anomaly(interp, on):
    """.anomaly(1) names the function in which a gradient turns NaN, .anomaly(0) stops
    it; either gives the previous setting."""
    return interp.differentiation.set_anomaly(on)
