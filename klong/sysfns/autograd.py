"""Derivatives beyond the operators (system.md, part B): .jacobian .hessian .gradcheck
.customgrad .numgrad .anomaly, each the interpreter's Differentiation (runtime/autograd.py)
at work."""
from .table import table

FUNCTIONS, register = table()


@register(".jacobian", 2)
def jacobian(interp, f, p):
    return interp.differentiation.jacobian(p, f)


@register(".hessian", 2)
def hessian(interp, f, p):
    return interp.differentiation.hessian(f, p)


@register(".gradcheck", 2)
def gradcheck(interp, f, p):
    return interp.differentiation.gradcheck(f, p)


@register(".customgrad", 2)
def custom_gradient(interp, f, df):
    return interp.differentiation.custom(f, df)


@register(".numgrad", 1)
def numeric_gradient(interp, f):
    return interp.differentiation.numeric_backward(f)


@register(".anomaly", 1)
def anomaly(interp, on):
    return interp.differentiation.set_anomaly(on)
