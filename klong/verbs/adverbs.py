"""Klong's adverbs (language.md section 4).

Each adverb takes the verb it modifies as a Python callable (`f(a)` or `f(a, b)`) and the
operands. `fast` names the backend reduction ('+', '*', '|' or '&', see Backend.reduce) that
folding with the verb equals, when there is one (for `+/` on a numeric array, say); `fold`
folds a whole list at once (Join's `,/`, or a dyad {x+g(y)}); `whole` applies the verb to a
whole array at once; `rows` is the matrix-vector product that an inner product applied to
the rows of a matrix equals. Each may return None (not here); they are shortcuts to the same
results, never different semantics.
"""
import operator

from .. import backends
from ..backends import arrays
from . import folds, mixed
from ..runtime import kinds, limits, values
from ..runtime.mixed import MixedNumbers
from ..errors import KlongError
from ..runtime.match import match
from ..runtime.values import Dict, is_atom, is_int, is_seq, is_true, items, list_like, make_list


def numeric(a):
    """A non-empty integer or real array."""
    return values.is_array(a) and a.shape[0] > 0 and values.array_kind(a) in "if"


def _numbers_kind(a):
    """'i' or 'f' for a non-empty integer or real array (numeric), else None: the kind a
    fold asks again, asked once."""
    if isinstance(a, arrays.ARRAY_TYPES) and a.ndim and a.shape[0]:
        kind = values.array_kind(a)
        if kind == "i" or kind == "f":
            return kind
    return None


def _same_kind(scalar, array):
    """An int with an integer array or a float with a real one: the backend then keeps
    Klong's result type (klong/runtime/kinds.py)."""
    t = type(scalar)
    return (t is int or t is float) and kinds.kind(scalar) == values.array_kind(array)


def _iterable(a):
    """True when an adverb iterates over `a`: a non-empty list or string."""
    return not is_atom(a)


# ------------------------------------------------------------------ each and friends


def each(f, a, whole=None, strings=None, vectors=None, chars=None):
    """f'a. `strings(elems)`: the results of f on a list of strings, an iterator (or it
    raises: the loop then runs and fails as f does), or a list of strings (a list as it
    stands); `vectors(elems)`: the results of f on a list of non-empty vectors of the
    backend; `chars(a)`: the results of f on the characters of a string, as one value, or
    None (the loop)."""
    # the whole-array form first: a non-empty array is neither a dictionary nor an atom,
    # and `*'m` over a matrix asks nothing else
    if whole is not None and numeric(a):
        r = whole(a)
        if r is not None:
            return r
    if isinstance(a, Dict):
        return make_list([f(make_list([k, v])) for k, v in a.pairs()])
    if not _iterable(a):
        return a if is_seq(a) else f(a)
    if chars is not None and type(a) is str:
        r = chars(a)
        if r is not None:
            return r
    elems = items(a)
    if vectors is not None and type(a) is list and _nonempty_vectors(elems):
        return list_like(vectors(elems), a)
    # (all of type str exactly, counted in C: a third quicker than the set of their types)
    if strings is not None and type(a) is list and list(map(type, elems)).count(str) == len(elems):
        try:
            results = strings(elems)
            if type(results) is list:
                return limits.gather(results, len(elems))
            return list_like(limits.gather(results, len(elems)), a)
        except Exception:
            pass
    return list_like(limits.gather(map(f, elems), len(elems)), a)


def _nonempty_vectors(elems):
    """Whether every item is a non-empty vector of the backend (the groups of =)."""
    # (each test one pass in C: a word count's Each over a few hundred groups)
    return set(map(type, elems)) == {backends.current().array_type} \
        and all(len(s) == 1 and s[0] for s in set(map(_SHAPE, elems)))


_SHAPE = operator.attrgetter("shape")


def each2(f, a, b, whole=None):
    if not (is_seq(a) and is_seq(b)):
        return f(a, b)
    if is_atom(a) or is_atom(b):            # at least one is empty
        return [] if type(a) is not str and is_atom(a) or type(b) is not str and is_atom(b) else ""
    if whole is not None and numeric(a) and numeric(b):
        n = min(a.shape[0], b.shape[0])
        try:
            # (operands of one length as they are: a slice of a tensor costs a few us)
            r = whole(a, b) if a.shape[0] == b.shape[0] else whole(a[:n], b[:n])
        except KlongError:
            r = None        # the loop below raises the error as it names it (at its pair)
        if r is not None:
            return r
    xs, ys = items(a), items(b)
    results = limits.gather(map(f, xs, ys), min(len(xs), len(ys)))
    # characters make a string when an operand of the results' length is one (as in kg:
    # [1 2]{y}'"ab" is "ab", but [1]{y}'"ab" is [0ca])
    n = len(results)
    strings = [v for v in (a, b) if type(v) is str and len(v) == n]
    return list_like(results, strings[0] if strings else [])


def each_left(f, a, b, rows=None, pairs=None):
    whole = None if pairs is None else (lambda e: pairs(a, e, 2))
    return _each_of_right(lambda e: f(a, e), a, b, rows, whole)


def each_right(f, a, b, rows=None, pairs=None):
    whole = None if pairs is None else (lambda e: pairs(e, a, 1))
    return _each_of_right(lambda e: f(e, a), a, b, rows, whole)


def _each_of_right(g, a, b, rows, whole=None):
    """g applied to every element of b (to b itself when it is an atom); `whole(b)`: all
    of them at once, where it gives a result (a dyad's batched form)."""
    if not _iterable(b):
        return b if is_seq(b) else g(b)
    if rows is not None:
        r = rows(b, a)
        if r is not None:
            return r
    if whole is not None and numeric(b):
        r = whole(b)
        if r is not None:
            return r
    elems = items(b)
    return list_like(limits.gather(map(g, elems), len(elems)), b)


def each_pair(f, a, whole=None):
    if is_atom(a) or len(a) < 2:
        return a
    if whole is not None and numeric(a):
        # the pairs of neighbours are the items of a without its last and without its first
        try:
            r = whole(a[:-1], a[1:])
        except KlongError:
            r = None        # the loop below raises the error as it names it (at its pair)
        if r is not None:
            return r
    elems = items(a)
    return list_like(limits.gather(map(f, elems, elems[1:]), len(elems) - 1), a)


# ------------------------------------------------------------------ over and scan

def _whole(fold, a):
    """Over or Scan of a list of two or more items by `fold`, the dyad's way with a whole
    list at once (the registry's fold, or a Lambda's), or None where it has none."""
    if fold is not None and values.length(a) > 1:
        return fold(a)
    return None


def over(f, a, fast=None, fold=None):
    if fast is not None:                        # (the common case first)
        kind = _numbers_kind(a)
        if kind is not None:
            return folds.fold(fast, a, kind)
    if fast == "+" and type(a) is MixedNumbers:
        return mixed.plus_over(a)               # (0,+\x: the general list's sum)
    if not _iterable(a):
        return a
    r = _whole(fold, a)
    if r is not None:
        return r
    elems = items(a)
    acc = elems[0]
    for e in elems[1:]:
        acc = f(acc, e)
    return acc


def join_pairs(a, b):
    """a,'b for two numeric arrays of one kind and length, with one or two axes, as one
    array operation (item i of the result is a's item i joined to b's); None otherwise."""
    if a.ndim > 2 or b.ndim > 2 or values.array_kind(a) != values.array_kind(b):
        return None
    backend = backends.current()
    # as columns: a vector is one column, a matrix's rows are its columns transposed
    columns = [x.reshape(1, -1) if x.ndim == 1 else backend.swap01(x) for x in (a, b)]
    return backend.swap01(backend.concat(columns))


def join_all(a):
    """,/a in one pass: joining pairwise would copy the growing result at every step. None
    unless every item is a list, or every item is text (the same result then as pairwise)."""
    if values.is_array(a):               # numbers join into themselves; rows into one list
        return a if a.ndim == 1 else a.reshape((-1,) + tuple(a.shape[2:]))
    elems = items(a)
    kinds = list(map(type, elems))          # (counted in C: quicker than a set of them)
    if kinds.count(str) + kinds.count(values.Char) == len(kinds):  # (words, lines: the commonest)
        return "".join(elems)
    if all(values.is_list(e) for e in elems):
        first = elems[0]
        if all(values.is_array(e) and values.array_kind(e) == values.array_kind(first)
               and tuple(e.shape[1:]) == tuple(first.shape[1:]) for e in elems):
            return backends.current().concat(elems)
        joined = []
        for e in elems:
            joined.extend(items(e))
        return make_list(joined)
    return None


def over_neutral(f, a, b, fast=None):
    if not _iterable(b):
        return a if is_seq(b) else f(a, b)
    if fast is not None and numeric(b) and b.ndim == 1 and _same_kind(a, b):
        return f(a, folds.fold(fast, b))
    acc = a
    for e in items(b):
        acc = f(acc, e)
    return acc


def scan(f, a, fast=None, fold=None):
    if fast == "+" and type(a) is MixedNumbers:
        r = mixed.plus_scan(a)                  # (the general list's running sums)
        if r is not None:
            return r
    if not _iterable(a):
        return a if is_seq(a) else make_list([a])
    if fast is not None and numeric(a) and a.ndim == 1:
        return folds.running_fold(fast, a)
    r = _whole(fold, a)
    if r is not None:
        return r
    elems = items(a)
    if len(elems) == 1:
        return a if type(a) is not str else elems    # ,\"a" is [0ca]
    return make_list(limits.gather(_running(f, elems[0], elems[1:]), len(elems)))


def _running(f, acc, elems):
    """A scan's parts: acc, then acc = f(acc, e) for each e of elems in turn."""
    yield acc
    for e in elems:
        acc = f(acc, e)
        yield acc


def scan_neutral(f, a, b, join):
    if not _iterable(b):
        if is_seq(b):
            return a
        return join(a, values.chars_to_string([f(a, b)]))    # a , ,f(a;b): ,0cq is "q"
    elems = items(b)
    return make_list(limits.gather(_running(f, a, elems), len(elems) + 1))


# ------------------------------------------------------------------ converge, while, iterate

def converge(f, a):
    while True:
        nxt = f(a)
        if match(nxt, a):
            return nxt
        a = nxt


def scan_converge(f, a):
    return make_list(limits.gather(_converging(f, a), None))


def _converging(f, a):
    yield a
    while not match(nxt := f(a), a):
        yield nxt
        a = nxt


def while_(f, pred, b):
    while is_true(pred(b)):
        b = f(b)
    return b


def scan_while(f, pred, b):
    return make_list(limits.gather(_while(f, pred, b), None))


def _while(f, pred, b):
    while is_true(pred(b)):
        yield b
        b = f(b)


def iterations(n):
    """How many times Iterate applies its function."""
    if not is_int(n):
        raise KlongError("type", "iterate: count must be an integer")
    return abs(int(n))


def iterate(f, n, b):
    for _ in range(iterations(n)):
        b = f(b)
    return b


def scan_start(n):
    """(parts, add) for a scan whose loop the compiler runs inline (compiler/passes/loops.py):
    the list it gathers its values into and the function adding one (limits.gatherer), as
    the scans here gather them; `n`: how many there will be when known (an iterating scan's
    count + 1), checked as scan_iterate checks it."""
    if n is not None:
        limits.check_elements(n)
    return limits.gatherer(n)


def scan_iterate(f, n, b):
    count = iterations(n)
    if count == 0:
        return b
    limits.check_elements(count + 1)
    return make_list(limits.gather(_iterating(f, count, b), count + 1))


def _iterating(f, count, b):
    yield b
    for _ in range(count):
        b = f(b)
        yield b


# what each adverb is called (in error messages), applied as a monad and as a dyad
NAMES = {
    "'": ("each", "each-2"), "/": ("over", "over-neutral"), "\\": ("scan", "scan-neutral"),
    ":'": ("each-pair", None), ":\\": (None, "each-left"), ":/": (None, "each-right"),
    ":~": ("converge", "while"), "\\~": ("scan-converging", "scan-while"),
    ":*": (None, "iterate"), "\\*": (None, "scan-iterating"),
}

# which form of the modified verb each adverb uses: 1 = its monad, 2 = its dyad
MONADIC_USE = {"'": 1, "/": 2, "\\": 2, ":'": 2, ":~": 1, "\\~": 1}
DYADIC_USE = {"'": 2, "/": 2, "\\": 2, ":\\": 2, ":/": 2, ":~": 1, "\\~": 1, ":*": 1, "\\*": 1}
