"""The dot-functions and system variables, grouped by topic. `install` binds them all as
globals of a new interpreter."""
from ..runtime.functions import Builtin
from . import compiler, core, distributed, io, plot, python, runtime


def install(interp):
    def define(name, arity_or_value, impl=None):
        if impl is None:
            interp.globals[name] = arity_or_value
        else:
            interp.globals[name] = Builtin(name, arity_or_value, impl, interp.backend)

    io.install(interp, define)
    core.install(interp, define)
    python.install(interp, define)
    compiler.install(interp, define)
    plot.install(interp, define)
    diff = interp.differentiation
    define(".jacobian", 2, lambda f, p: diff.jacobian(p, f))
    define(".hessian", 2, diff.hessian)
    define(".gradcheck", 2, diff.gradcheck)
    define(".customgrad", 2, diff.custom)
    define(".numgrad", 1, diff.numeric_backward)
    define(".anomaly", 1, diff.set_anomaly)
    distributed.install(interp, define)
    runtime.install(interp, define)
