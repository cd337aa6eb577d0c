"""The dot-functions and system variables, grouped by topic, one module each.

Each system function is a module-level function that takes the interpreter first, then its
Klong arguments, registered with its Klong name and arity where it is defined
(`@register(".name", arity)`, table.py) in its module's FUNCTIONS table. A module whose
functions keep something for one interpreter (channels, a process group) makes it in
`start(interp)`, which returns the module's system variables, name -> value. `install`
binds them all as globals of a new interpreter, in one loop."""
import functools

from ..runtime.functions import Builtin, Variadic
from . import autograd, compiler, core, distributed, io, plot, python, runtime

MODULES = (io, core, python, compiler, plot, autograd, distributed, runtime)


def install(interp):
    for module in MODULES:
        start = getattr(module, "start", None)
        if start is not None:
            interp.globals.update(start(interp))
        for name, (arity, fn) in module.FUNCTIONS.items():
            interp.globals[name] = system_function(interp, name, arity, fn)


def system_function(interp, name, arity, fn):
    """fn(interp, ...) as the Klong function `name` of the interpreter."""
    impl = functools.partial(fn, interp)
    if isinstance(arity, tuple):
        return Variadic(name, *arity, impl, interp.backend)
    return Builtin(name, arity, impl, interp.backend)
