"""Hooks on named values: a Python function called with the value each time a Klong variable
of a given name (global or local) is assigned, for looking inside a model while it runs.

Inside code that a backend batches with vmap (on torch: Each over a function free of
effects, a KlongLayer), an assignment runs once for all samples: the hook is then called
once, with the values of every sample stacked along the first axis.

Both evaluators test `if hooks:` at each assignment: an empty Hooks is false, so a program
with no hook registered pays one truth test per assignment and nothing more."""
import warnings

from .. import backends
from .pyconv import to_python


class Hooks(dict):
    """One interpreter's hooks: name -> list of functions. The object never changes (the
    generated code holds it), only its contents."""

    def __init__(self):
        super().__init__()
        self.failed = set()      # ids of hooks whose failure was reported

    def add(self, name, fn):
        if not isinstance(name, str) or not name:
            raise TypeError("register_hook: the name of a Klong variable is needed")
        if not callable(fn):
            raise TypeError("register_hook: the hook must be callable")
        self.setdefault(name, []).append(fn)

    def remove(self, name, fn=None):
        """Remove fn from `name` (every hook of `name` when fn is None); a hook that is not
        registered is a KeyError."""
        fns = self.get(name)
        if not fns or fn is not None and fn not in fns:
            raise KeyError(f"no such hook on {name!r}")
        if fn is None:
            fns.clear()
        else:
            fns.remove(fn)
        if not fns:
            del self[name]

    def fire(self, name, value):
        """Call the hooks of `name` with `value` as Python sees it. A hook that raises is
        reported once (a RuntimeWarning) and the program goes on."""
        fns = self.get(name)
        if not fns:
            return
        python_value = backends.current().unbatched(to_python(value))
        for fn in list(fns):
            try:
                fn(python_value)
            except Exception as e:
                if id(fn) not in self.failed:
                    self.failed.add(id(fn))
                    label = getattr(fn, "__qualname__", None) or repr(fn)
                    warnings.warn(f"klong: the hook {label} on {name} raised "
                                  f"{type(e).__name__}: {e} (reported once; the program "
                                  f"goes on)", RuntimeWarning)

