"""Evaluation, loading, modules, the process and the system variables (system.md A)."""
import os
import sys
import time

from ..errors import KlongError
from .io import read_source
from ..runtime.values import EOF, Symbol, is_string, is_symbol, is_true
from .table import table

FUNCTIONS, register = table()

DEFAULT_KLONGPATH = ".:lib"


def find_source(name):
    """The file `.l(name)` loads, by the search rules of system.md (.l)."""
    def candidates(path):
        return [path, path + ".kg"]

    if name.startswith("/") or name.startswith("."):
        options = candidates(name)
    else:
        path = os.environ.get("KLONGPATH", DEFAULT_KLONGPATH)
        options = [c for d in path.split(":") if d for c in candidates(os.path.join(d, name))]
    for option in options:
        if os.path.isfile(option):
            return option
    raise KlongError("io", f"file does not exist: {name}")


def start(interp):
    """The system variables (system.md A.4), fresh for each interpreter."""
    return {".a": [], ".e": 1e-18, ".h": Symbol("unix"), ".cols": 80, ".edit": 1,
            ".fastpow": 0, ".helpdb": []}


@register(".l", 1)
def load(interp, name):
    if not is_string(name):
        raise KlongError("type", ".l: file name must be a string")
    path = find_source(name)
    try:
        text = read_source(path)
    except OSError as e:
        raise KlongError("io", f"cannot read {name}: {e.strerror}") from None
    result = interp.run(text, filename=path)
    return [] if result is None else result


@register(".E", 1)
def evaluate(interp, text):
    if not is_string(text):
        raise KlongError("type", ".E: string expected")
    result = interp.run(text)
    return EOF if result is None else result


@register(".module", 1)
def module(interp, x):
    if is_symbol(x):
        interp.modules.open(x)
    elif not is_true(x):
        interp.modules.close()
    else:
        raise KlongError("type", ".module: symbol or 0 expected")
    return x


@register(".comment", 1)
def comment(interp, marker):
    if not is_string(marker):
        raise KlongError("type", ".comment: string expected")
    interp.pending_comment = marker
    return marker


@register(".x", 1)
def leave(interp, x):
    sys.stdout.flush()
    raise SystemExit(1 if is_true(x) else 0)


@register(".pc", 0)
def process_time(interp):
    return time.process_time()


@register(".sys", 1)
def system(interp, command):
    if not is_string(command):
        raise KlongError("type", ".sys: string expected")
    sys.stdout.flush()
    return os.system(command)


@register(".df", 1)
def delete_file(interp, name):
    if not is_string(name):
        raise KlongError("type", ".df: string expected")
    try:
        os.remove(name)
    except FileNotFoundError:
        raise KlongError("io", f"file does not exist: {name}") from None
    except OSError as e:
        raise KlongError("io", f"cannot delete {name}: {e.strerror}") from None
    return name


@register(".strict", 0)
def strict(interp):
    interp.strict = True
    return 1


@register(".unsafe", 0)
def unsafe(interp):
    interp.strict = False
    return 0
