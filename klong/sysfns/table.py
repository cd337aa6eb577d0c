"""How a module of system functions registers them: each function carries its Klong name
and arity beside its definition, `@register(".name", arity)`, and the module's FUNCTIONS
table (name -> (arity, function)) is what `install` reads. An arity is a number or, for
a function taking from m to n arguments, the pair (m, n)."""


def table():
    """A new module's FUNCTIONS table and the decorator that fills it."""
    functions = {}

    def register(name, arity):
        def add(fn):
            functions[name] = (arity, fn)
            return fn
        return add
    return functions, register
