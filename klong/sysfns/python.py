"""Python interop (system.md B.3): .py .pyf .pyc .pya .pyiter, and .bkf for the backend's
math."""
import functools
import importlib
import importlib.util
import os
import sys
import types

import numpy as np

from ..backends import arrays
from ..runtime import values
from ..errors import KlongError
from ..runtime.pyconv import PyFunction, to_klong, to_python
from ..runtime.values import Dict, Function, is_string
from .table import table

FUNCTIONS, register = table()


def _import(spec, folders=()):
    """A module from a name, a path to a .py file, or a package directory. A name is also
    looked for in `folders` (beside the running script, then the current folder), as
    Python finds modules beside the script it runs."""
    if not is_string(spec):
        raise KlongError("type", "module name must be a string")
    try:
        if spec.endswith(".py") or os.path.isdir(spec):
            return _import_path(spec)
        top = spec.split(".")[0]
        for folder in folders:
            if os.path.isfile(os.path.join(folder, top + ".py")) or \
                    os.path.isfile(os.path.join(folder, top, "__init__.py")):
                _on_path(folder)
                break
        return importlib.import_module(spec)
    except KlongError:
        raise
    except Exception as e:
        raise KlongError("io", f"failed to load module: {spec} ({type(e).__name__}: {e})") from None


def _import_path(spec):
    """The module in a .py file or package directory, loaded once per file under a name of
    its own made from its resolved path: two files called mymain.py in two folders are two
    modules (imported by name, the second would be the first, as Python keeps modules by
    name)."""
    path = os.path.realpath(spec)
    if os.path.isdir(path):
        parent, base = os.path.split(path.rstrip(os.sep))
        location, search = os.path.join(path, "__init__.py"), [path]
        if not os.path.isfile(location):    # a namespace package: by name, as Python would
            _on_path(parent)
            return importlib.import_module(base)
    else:
        parent, base = os.path.dirname(path), os.path.basename(path)[:-3]
        location, search = path, None
    import hashlib      # here, not at start-up (it loads OpenSSL)
    digest = hashlib.sha1(path.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    name = f"_klong_py_{digest}_{base.replace('.', '_')}"
    module = sys.modules.get(name)
    if module is not None:
        return module
    _on_path(parent)                 # so the module finds its siblings
    found = importlib.util.spec_from_file_location(name, location,
                                                   submodule_search_locations=search)
    if found is None:
        raise ImportError(f"not a Python module: {spec}")
    module = importlib.util.module_from_spec(found)
    sys.modules[name] = module       # as import does: the module may import itself
    try:
        found.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def _on_path(folder):
    if folder not in sys.path:
        sys.path.insert(0, folder)


def _exports(module):
    table = getattr(module, "klongpy_exports", None)
    if isinstance(table, dict):
        return dict(table)
    return {k: v for k, v in vars(module).items() if not k.startswith("__")}


def _target(interp, x):
    """The object .pyc/.pya work on: a value, or a symbol/string naming a variable."""
    if isinstance(x, values.Symbol):
        try:
            return interp.globals[str(x)]
        except KeyError:
            raise KlongError("undefined", f"{x} is not defined") from None
    return x


def _host(v):
    """What Python code sees for a Klong value that holds a host object."""
    if isinstance(v, PyFunction):
        return v.fn
    return to_python(v)


def _module_folders(interp):
    """Where .py and .pyf look for a module by name: the folders of the files being run,
    innermost first, then the current folder."""
    files = [os.path.dirname(os.path.abspath(f)) for f in reversed(interp.running_files)]
    return list(dict.fromkeys(files + [os.getcwd()]))


def _bind(interp, name, value):
    interp.globals[name] = to_klong(value, interp)


def _load(interp, spec):
    return _import(spec, _module_folders(interp))


@register(".py", 1)
def py(interp, spec):
    module = _load(interp, spec)
    for name, value in _exports(module).items():
        if isinstance(value, types.ModuleType) and name.startswith("_"):
            continue
        try:
            _bind(interp, name, value)
        except Exception as e:     # an attribute that cannot be wrapped is skipped
            print(f".py: skipped {name}: {e}", file=sys.stderr)
    return 1


@register(".pyf", 2)
def pyf(interp, spec, names):
    module = _load(interp, spec)
    wanted = [names] if is_string(names) else values.items(names) if values.is_seq(names) else None
    if wanted is None or not all(is_string(n) for n in wanted):
        raise KlongError("type", ".pyf: names must be a string or a list of strings")
    for name in wanted:
        try:
            value = getattr(module, name)
        except AttributeError:
            try:
                value = importlib.import_module(f"{module.__name__}.{name}")
            except ImportError:
                raise KlongError("undefined", f".pyf: {spec} has no {name}") from None
        _bind(interp, name, value)
    return 1


@register(".pyc", 3)
def pyc(interp, target, args, kwargs):
    if not isinstance(kwargs, Dict):
        raise KlongError("type", ".pyc: z must be a dictionary")
    target = _target(interp, target)
    if is_string(target):
        target = _target(interp, values.Symbol(target))
    if values.is_list(target) and values.length(target) == 2 and \
            is_string(values.element(target, 1)):
        obj = _host(_target(interp, values.element(target, 0)))
        name = values.element(target, 1)
        try:
            fn = getattr(obj, name)
        except AttributeError:
            raise KlongError("undefined", f".pyc: function name not found: {name}") from None
    else:
        fn = _host(target)
    if not callable(fn):
        return to_klong(fn, interp)
    positional = [_host(a) for a in values.items(args)] if values.is_list(args) else [_host(args)]
    keywords = {str(k): _host(v) for k, v in kwargs.pairs()}
    try:
        result = fn(*positional, **keywords)
    except Exception as e:
        raise KlongError("python", f"{type(e).__name__}: {e}") from None
    if isinstance(result, types.GeneratorType):
        result = list(result)
    return to_klong(result, interp)


@register(".pya", 2)
def pya(interp, obj, name):
    if not is_string(name):
        raise KlongError("type", ".pya: attribute name must be a string")
    obj = _host(_target(interp, obj))
    try:
        return to_klong(getattr(obj, name), interp)
    except AttributeError:
        raise KlongError("undefined", f".pya: attribute {name} not found") from None


@register(".bkf", 1)
def bkf(interp, names):
    wanted = [names] if is_string(names) else values.items(names) if values.is_seq(names) else []
    if not wanted or not all(is_string(n) for n in wanted):
        raise KlongError("type", ".bkf: a name or a list of names is needed")
    for name in wanted:
        fn = interp.backend.math_function(name)
        if fn is None:
            raise KlongError("undefined", f"Backend does not have function: {name}")
        torch_draw = interp.backend.name == "torch" and name in (*RANDOM_DRAWS, *RANDOM_ARRAYS)
        if torch_draw:
            # draws from the interpreter's generator, so that its seed repeats them
            fn = functools.partial(fn, generator=interp.random.torch())
        if name in RANDOM_ARRAYS:
            interp.globals[name] = RandomArrayOfSize(name, fn, interp.backend)
        elif name in FILLED_ARRAYS:
            interp.globals[name] = ArrayOfSize(name, fn, interp.backend)
        elif torch_draw:
            interp.globals[name] = RandomDraw(name, fn, interp.backend)
        else:
            interp.globals[name] = BackendFunction(name, fn, interp.backend)
    return None


@register(".pyiter", 1)
def pyiter(interp, obj):
    obj = _target(interp, obj)
    if isinstance(obj, (list, str)) or values.is_array(obj):
        return obj                      # already a Klong list
    try:
        items = iter(obj)
    except TypeError:
        raise KlongError("type", f".pyiter: {type(obj).__name__} is not a Python "
                                 f"iterable") from None
    try:                                # one pass: a DataLoader's epoch, a generator
        return values.make_list([to_klong(e, interp) for e in items])
    except KlongError:
        raise
    except Exception as e:
        raise KlongError("python", f".pyiter: {type(e).__name__}: {e}") from e


def start(interp):
    """The name klong is the running interpreter, for Python code that works with it:
    SGDOptimizer(klong;["w"];:{["lr" 0.1]})"""
    return {"klong": to_klong(interp, interp)}


class BackendFunction(Function):
    """A math function of the backend's array library as a Klong monad. On torch it works on
    tensors, so gradients flow through it."""
    __slots__ = ("name", "fn", "backend", "elementwise")
    arity = 1
    pure = True         # no effects: Each may trace it over a whole array (verbs/wholearray.py)

    def __init__(self, name, fn, backend):
        self.name, self.fn, self.backend = name, fn, backend
        # one element's result from that element alone (numpy has a ufunc of one operand
        # and one result of the name: tanh, exp, log ...): a batched Each applies it to all
        # rows at once (verbs/batched.py)
        ufunc = getattr(np, name, None)
        self.elementwise = self.pure and isinstance(ufunc, np.ufunc) \
            and ufunc.nin == 1 and ufunc.nout == 1

    def call(self, args):
        if len(args) != 1:
            raise KlongError("arity", f"wrong arity: {self.name} takes 1 argument")
        x = values.general(args[0])
        if type(x) is list and x and all(values.is_number(e) for e in x):
            x = values.make_list([float(e) for e in x])       # integers and reals mixed
        if not (values.is_number(x) or values.is_array(x)):
            raise KlongError("type", f"{self.name}: number or numeric list expected")
        if not isinstance(x, arrays.ARRAY_TYPES):
            x = self.backend.asarray(x, "f")
        elif values.array_kind(x) != "f":
            x = self.backend.astype(x, "f")
        elif x.ndim:
            # (row by row in memory: a library may compute an element of a strided view, a
            # column of a matrix, by other code than one of the same numbers laid out)
            x = self.backend.laid_out(x)
        try:
            if self.backend.warns:
                with self.backend.quiet():  # (log(0.0) is -inf, as on torch: no warning)
                    result = self.fn(x)
            else:
                result = self.fn(x)
        except Exception as e:
            raise KlongError("type", f"{self.name}: {e}") from None
        if isinstance(result, arrays.ARRAY_TYPES) and result.ndim == 0:
            return self.backend.item(result)
        return values.scalar(result)


# torch's functions that draw random numbers from a tensor argument (and take a generator)
RANDOM_DRAWS = ("bernoulli", "normal", "poisson")
# functions whose argument is a size: an array of reals of that size, drawn (torch's, with a
# generator) or filled (numpy's and torch's)
RANDOM_ARRAYS = ("rand", "randn")
FILLED_ARRAYS = ("zeros", "ones")


class RandomDraw(BackendFunction):
    """A backend function that draws random numbers: never traced over a whole array, which
    would draw once for every element."""
    __slots__ = ()
    pure = False


class ArrayOfSize(BackendFunction):
    """A backend function that makes an array of reals of the size it is given, an integer
    or a list of integers (`zeros(3)`, `ones([2 3])`), in the interpreter's dtype and on
    its device."""
    __slots__ = ()

    def call(self, args):
        if len(args) != 1:
            raise KlongError("arity", f"wrong arity: {self.name} takes 1 argument")
        size = values.general(args[0])
        if values.is_int(size):
            shape = (int(size),)
        elif values.is_list(size) and all(values.is_int(n) for n in values.items(size)):
            shape = tuple(int(n) for n in values.items(size))
        else:
            raise KlongError("type", f"{self.name}: a size is needed (an integer or a list "
                                     f"of integers)")
        if any(n < 0 for n in shape):
            raise KlongError("range", f"{self.name}: a size is never negative")
        try:
            result = self.fn(shape, **self.backend.creation_options())
        except Exception as e:
            raise KlongError("type", f"{self.name}: {e}") from None
        return self.backend.astype(result, "f")


class RandomArrayOfSize(ArrayOfSize):
    """`randn(3)`, `rand([2 3])`: drawn, so never traced over a whole array."""
    __slots__ = ()
    pure = False
