"""Derivatives beyond the operators (system.md, part B): .jacobian .hessian .gradcheck
.customgrad .numgrad .anomaly, each the interpreter's Differentiation (runtime/autograd.py)
at work."""


def jacobian(interp, f, p):
    return interp.differentiation.jacobian(p, f)


def hessian(interp, f, p):
    return interp.differentiation.hessian(f, p)


def gradcheck(interp, f, p):
    return interp.differentiation.gradcheck(f, p)


def custom_gradient(interp, f, df):
    return interp.differentiation.custom(f, df)


def numeric_gradient(interp, f):
    return interp.differentiation.numeric_backward(f)


def anomaly(interp, on):
    return interp.differentiation.set_anomaly(on)


FUNCTIONS = {
    ".jacobian": (2, jacobian),
    ".hessian": (2, hessian),
    ".gradcheck": (2, gradcheck),
    ".customgrad": (2, custom_gradient),
    ".numgrad": (1, numeric_gradient),
    ".anomaly": (1, anomaly),
}
