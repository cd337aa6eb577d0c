"""Grade-Up, Grade-Down, Group and Range: the verbs that order or classify the elements of a
list or string (spec/verbs.md).

A numeric list, a list of equal-shaped arrays and a string (as the array of its character
codes) are ordered on the backend's device with the library's own sort: no element goes
through Python and nothing goes to the host. Only lists of other values (strings, symbols,
mixed or nested lists) are compared in Python.

Every verb here reduces its argument to one integer or real sort key per element ("keys"):
the element itself for a numeric vector, a rank for the rows of a matrix or for Python
values, a code for a character.
"""
from .. import backends
from ..runtime import kinds
from ..errors import KlongError
from ..runtime.match import REAL_TOLERANCE
from ..runtime.values import Char, Dict, Symbol, array_kind, is_array, is_empty, is_list, is_number, items, length, make_list, plain


def _check(a, verb):
    if not (is_list(a) or type(a) is str):
        raise KlongError("type", f"{verb}: list or string expected")


def _device_keys(a):
    """One sort key per element of a string or array, on the device: character codes, the
    numbers of a vector, or ranks of the rows of a matrix. None for a Python list."""
    B = backends.current()
    if type(a) is str:
        return B.codes(a)
    if not is_array(a):
        return None
    if a.ndim == 1:
        return a
    if 0 in tuple(a.shape[1:]):
        return B.full(a.shape[0], 0, "i")          # every element is []: all equal
    # elements of one shape compare like their flattened (row-major) contents
    return B.row_ranks(a)


# ---------------------------------------------------------------- Grade-Up, Grade-Down

def _fix_gap(k):
    # The reference avoids gaps that are powers of two (from 4 up).
    return k - 1 if k >= 4 and k & (k - 1) == 0 else k


def _dense_ranks(B, s, order):
    """Ranks 0, 1, ... of keys (equal keys, equal ranks), from the sorted keys s and the
    order that sorts them."""
    steps = B.accumulate("+", B.astype(s[1:] != s[:-1], "i"))
    return B.put(B.full(s.shape[0], 0, "i"), order[1:], steps)


def _shell_order(B, ranks):
    """The reference's Shell sort (spec: Grade-Up) of positions by integer ranks, ascending,
    one pass per gap on the whole array.

    A pass with gap g is an insertion sort of every chain of positions i, i+g, i+2g, ... that
    moves each newcomer in front of all elements not smaller than it. So the pass leaves each
    chain sorted by rank, equal ranks in the reverse of their order in the chain. Laid out
    row-major in g columns, the chains are the columns, and a pass sorts each column by
    (rank, -row): one sort of every column at once, of a key unique within its column."""
    n = ranks.shape[0]
    # position n stands for the slots after the end of the last row: it ranks above all
    ranks = B.concat((ranks, B.full(1, int(ranks.max()) + 1, "i")))
    p = B.arange(n)
    gap = _fix_gap(n // 2)
    while gap > 0:
        rows = -(-n // gap)
        grid = B.concat((p, B.full(rows * gap - n, n, "i"))).reshape(rows, gap)
        below = (rows - 1 - B.arange(rows)).reshape(rows, 1)   # the reversed row number
        p = B.sort_columns(B.take(ranks, grid) * rows + below, grid).reshape(-1)[:n]
        gap = _fix_gap(gap // 2)
    return p


def _nans_last(B, keys):
    """(sorted keys, order) of reals some of which are NaN: the numbers ascending (a stable
    sort), then the NaNs in the order of their places. Libraries put NaNs at either end,
    and among themselves as they please (a GPU's sort puts a NaN with its sign bit set
    first): this order is the same on every library and device."""
    numbers = B.where(keys == keys)
    order = B.concat((B.take(numbers, B.sort_order(B.take(keys, numbers), stable=True)[1]),
                      B.where(keys != keys)))
    return B.take(keys, order), order


def _grade_keys(B, keys, descending):
    s, order = B.sort_order(keys, stable=False)
    if s.shape[0] and array_kind(s) == "f" and (bool(s[-1] != s[-1]) or bool(s[0] != s[0])):
        s, order = _nans_last(B, keys)        # (a sort puts its NaNs at one end)
    if not B.any(s[1:] == s[:-1]):
        # distinct keys: there is one order, whatever the sort
        return B.flip(order) if descending else order
    ranks = _dense_ranks(B, s, order)
    if descending:
        ranks = int(ranks.max()) - ranks
    return _shell_order(B, ranks)


def _grade_class(v):
    """Which elements grade orders among each other: numbers, characters, strings,
    symbols, lists (not an element type: see kinds.py for that)."""
    if is_number(v):
        return "number"
    t = type(v)
    if t in (Char, str, Symbol):
        return t
    if is_list(v):
        return "list"
    raise KlongError("type", "grade: elements must be numbers, characters, strings, symbols or lists")


def _compare(x, y):
    """-1, 0 or 1: the order Grade uses. Elements of different kinds are a type error."""
    kx, ky = _grade_class(x), _grade_class(y)
    if kx != ky:
        raise KlongError("type", "grade: cannot compare elements of different kinds")
    if kx == "list":
        xs, ys = items(x), items(y)
        for e, f in zip(xs, ys):
            c = _compare(e, f)
            if c:
                return c
        return (len(xs) > len(ys)) - (len(xs) < len(ys))
    if kx == "number":
        x, y = plain(x), plain(y)
    return (x > y) - (x < y)   # numbers by value, str kinds by character code


def _shell_grade(elems, descending):
    """The reference's Shell sort on an index vector, step by step (spec: Grade-Up), for
    elements whose comparison may fail (a type error, raised where the reference raises it)."""
    want = 1 if descending else -1       # `before` is strictly less / strictly greater
    n = len(elems)
    p = list(range(n))
    gap = _fix_gap(n // 2)
    while gap > 0:
        for i in range(gap, n):
            j = i - gap
            while j >= 0 and _compare(elems[p[j]], elems[p[j + gap]]) != want:
                p[j], p[j + gap] = p[j + gap], p[j]
                j -= gap
        gap = _fix_gap(gap // 2)
    return p


def _python_keys(elems):
    """Python sort keys that order the elements as Grade does, when all are of one kind that
    cannot fail to compare: numbers, strings, symbols, characters, or flat numeric lists.
    None otherwise."""
    found = {_grade_class(e) for e in elems}
    if len(found) != 1:
        return None
    kind = found.pop()
    if kind == "number":
        return [plain(e) for e in elems]
    if kind != "list":
        return [str(e) for e in elems]
    keys = []
    for e in elems:
        row = items(e)
        if not all(is_number(x) for x in row):
            return None
        keys.append(tuple(plain(x) for x in row))
    return keys


def _python_ranks(elems):
    """Dense integer ranks of Python values (as _compare orders them), or None when only the
    step-by-step Shell sort can tell (elements of kinds that may not compare)."""
    keys = _python_keys(elems)
    if keys is None:
        return None
    rank = {k: r for r, k in enumerate(sorted(set(keys)))}
    return backends.current().asarray([rank[k] for k in keys], "i")


def _grade(a, descending):
    _check(a, "grade")
    B = backends.current()
    if is_empty(a):
        return B.arange(0)
    if length(a) == 1:
        return B.arange(1)          # one element is in order, whatever it is (as in kg)
    keys = _device_keys(a)
    if keys is None:
        elems = items(a)
        keys = _python_ranks(elems)
        if keys is None:
            return B.asarray(_shell_grade(elems, descending), "i")
    return _grade_keys(B, keys, descending)


def grade_up(a):
    return _grade(a, False)


def grade_down(a):
    return _grade(a, True)


# ---------------------------------------------------------------- Group, Range

def _group_key(v):
    """A hashable key under which equal values meet. An integer and a real never do (1 and
    1.0 are two classes, as in the reference), though Match finds them equal."""
    if type(v) is str:              # first: the words of a text are grouped often
        return ("str", v)
    if is_number(v):
        return (kinds.kind(v), plain(v))
    if is_list(v):
        return ("list", tuple(_group_key(e) for e in items(v)))
    if isinstance(v, Dict):
        return ("dict", frozenset((k, _group_key(val)) for k, (_, val) in v.table.items()))
    return v   # characters, symbols, functions, the undefined value


def _tolerant(a):
    """Do the keys of `a` join within Match's tolerance (a vector of reals)?"""
    return is_array(a) and a.ndim == 1 and array_kind(a) == "f"


_STRINGS = {str}


def _classes(a):
    """The classes of Match among the elements of a non-empty list or string, as
    (order, starts, first): `order` lists the positions class by class, each class in
    ascending positions; class j starts at order[starts[j]], and first[j] is its first
    position. Classes are numbered by the order of their keys, not by first occurrence."""
    B = backends.current()
    keys = _device_keys(a)
    if keys is None:
        elems = items(a)
        if set(map(type, elems)) != _STRINGS:
            elems = list(map(_group_key, elems))
        # (strings only, the words of a text, are their own keys) each key numbered by its
        # first occurrence, by the dictionary's own loops
        numbers = {key: i for i, key in enumerate(dict.fromkeys(elems))}
        keys = B.asarray(list(map(numbers.__getitem__, elems)), "i")
    s, order = B.sort_order(keys, stable=True)
    if _tolerant(a):
        with B.quiet():
            joined = B.close(s[1:], s[:-1], REAL_TOLERANCE)
        if B.any(joined & (s[1:] != s[:-1])):
            # neighbouring distinct reals that Match join one class: number the classes,
            # then sort by class so that each lists its positions in ascending order
            steps = B.accumulate("+", B.astype(~joined, "i"))
            ids = B.put(B.full(s.shape[0], 0, "i"), order[1:], steps)
            s, order = B.sort_order(ids, stable=True)
    starts = B.concat((B.arange(1), B.where(s[1:] != s[:-1]) + 1))
    return order, starts, B.take(order, starts)


def group(a):
    _check(a, "group")
    if is_empty(a):
        return []
    B = backends.current()
    order, starts, first = _classes(a)
    n, k = order.shape[0], starts.shape[0]
    by_first = B.argsort(first, stable=False)    # the classes by their first occurrence
    bounds = B.concat((starts, B.full(1, n, "i")))
    sizes = bounds[1:] - bounds[:-1]
    if int(sizes.min()) == int(sizes.max()):
        # classes of one size: the list is a matrix, one row per class
        return B.take(order.reshape(k, n // k), by_first)
    pieces = B.split(order, sizes.tolist())
    return make_list([pieces[j] for j in by_first.tolist()])


def range_(a):
    _check(a, "range")
    if is_empty(a):
        return "" if type(a) is str else []
    B = backends.current()
    _, _, first = _classes(a)
    first = B.sort(first)                      # the classes by their first occurrence
    if is_array(a):
        return B.take(a, first)
    if type(a) is str:
        return "".join([a[i] for i in first.tolist()])
    elems = items(a)
    return make_list([elems[i] for i in first.tolist()])


MONADS = {
    "<": grade_up,
    ">": grade_down,
    "=": group,
    "?": range_,
}
