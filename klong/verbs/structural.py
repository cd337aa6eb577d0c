"""Klong's structural verbs: the verbs that look at their arguments as wholes (shape,
selection, joining), as opposed to the atomic verbs in atomic.py; the ordering verbs (grade,
group, range) are in ordering.py.

Every verb takes Klong values and returns a Klong value (see values.py). Numeric lists held as
arrays of the active backend (`backends.current()`) take vectorised paths on the backend's
device; everything else goes through plain Python on the items. The semantics, edge cases
included, are those of spec/verbs.md.

Verbs that move values (take, drop, @, join, reverse, rotate, reshape, transpose, first,
amend, cut, split) pick them from the backend array itself, so that an autograd graph
follows them.
"""
import math
import operator
import sys

from .. import backends
from ..backends import arrays
from ..runtime import values
from ..runtime.display import shown
from ..errors import KlongError
from .folds import fold
from ..runtime.limits import current as current_limits
from ..runtime.limits import INT64_MAX, INT64_MIN, REMEMBERED, check_elements, check_items, elements_of, fits_int64
from ..runtime.match import REAL_TOLERANCE, match
from ..runtime.values import Char, Dict, Function, UNDEFINED, array_kind, chars_to_string, element, empty_like, is_array, is_atom, is_empty, is_int, is_list, is_number, is_real, items, length, list_like, make_list, scalar
from ..runtime.mixed import MixedNumbers, general
from . import mixed, ordering
from .atomic import plain_compared


# ---------------------------------------------------------------- shared helpers

def _type_error(verb, what):
    return KlongError("type", f"{verb}: {what}")


def _int_arg(v, verb):
    """An integer argument as a Python int; reals and everything else are type errors."""
    if not is_int(v):
        raise _type_error(verb, "integer expected")
    return int(v)


def _int_list(v, verb):
    """An integer or a flat list of integers as a list of Python ints."""
    if is_int(v):
        return [int(v)]
    if is_array(v) and v.ndim == 1 and array_kind(v) == "i":
        return backends.current().to_host(v).tolist()
    if is_list(v):
        elems = items(v)
        if all(is_int(e) for e in elems):
            return [int(e) for e in elems]
    raise _type_error(verb, "integer or list of integers expected")


def _is_seq(v):
    """A list or a string, empty ones included: what the selection verbs work on."""
    return is_list(v) or type(v) is str


def _is_nonempty_list(v):
    return is_list(v) and not is_empty(v)


def _slice(v, start, stop):
    """v[start:stop] for a list or string, in canonical form."""
    if type(v) is list:
        part = v[start:stop]
        if part and type(part[0]) is str:
            # a general list's elements are in their ordinary form (values._ordinary), and
            # a list starting with a string is no array: the part is canonical as it stands
            return part
        return make_list(part)
    if type(v) is MixedNumbers:
        return mixed.cut_out(v, start, stop)
    return v[start:stop]


def _pick(v, positions):
    """The elements of v at `positions` (a list of valid ints), as a list of the kind of v.
    An array's elements are gathered on its backend."""
    if is_array(v):
        B = backends.current()
        return B.take(v, B.asarray(positions, "i"))
    if type(v) is str:
        return "".join(v[i] for i in positions)
    return make_list([v[i] for i in positions])


def _count(a):
    """The number of elements of an array of any rank."""
    return math.prod(a.shape)


def _scalar_kind(v):
    """The array kind ('i' or 'f') a value can be stored under without changing it, if any."""
    if is_int(v):
        return "i" if -2**63 <= int(v) < 2**63 else None
    if is_real(v):
        return "f"
    return None


def _fits_row(v, arr):
    """Can v be stored as one element of array `arr` without changing the list's meaning?"""
    if arr.ndim == 1:
        return _scalar_kind(v) == array_kind(arr)
    return (isinstance(v, arrays.ARRAY_TYPES) and tuple(v.shape) == tuple(arr.shape[1:])
            and array_kind(v) == array_kind(arr))


def _int_array(ints):
    """A backend int64 vector from a Python list of ints (OverflowError beyond 64 bits)."""
    try:
        return backends.current().asarray(ints, "i")
    except RuntimeError:              # some libraries' word for an int that does not fit
        raise OverflowError("integer too large for an array") from None


def _store(arr, positions, v, in_place=False):
    """A copy of array `arr` with v written at `positions` (an int, a slice, a list of ints
    or an integer vector of the backend); `in_place`: `arr` itself, written (verbs/inplace.py has
    made sure that nothing else holds it)."""
    B = backends.current()
    r = arr if in_place else B.copy(arr)
    r[positions if type(positions) in (int, slice) or B.is_array(positions)
      else B.asarray(positions, "i")] = v
    if in_place:
        current_limits().overwritten(r, v)
    return r


# ---------------------------------------------------------------- Atom, List, Undefined

def atom(a):
    return 1 if is_atom(a) else 0


def list_(a):
    # A character becomes a one-character string rather than a list holding it.
    if type(a) is Char:
        return str(a)
    if type(a) in arrays.ARRAY_TYPES and a.ndim and a.shape[0] and a.ndim < values.MAX_DIMS:
        # a non-empty array (,r: a row made a matrix of one row): what make_list gives it
        check_elements(elements_of(a))
        return backends.current().stack([a])
    return make_list([a])


def undefined(a):
    return 1 if a is UNDEFINED else 0


# ---------------------------------------------------------------- Enumerate, Size, Where

def enumerate_(a):
    n = _int_arg(a, "enumerate")
    if n < 0:
        raise KlongError("domain", "enumerate: negative argument")
    check_elements(n)
    r = backends.current().arange(n)
    if n >= REMEMBERED:     # (only a big array's is: limits.Limits.remember)
        # (arithmetic on it need not scan it, nor Amend at indices made from it)
        current_limits().remember(r, n - 1, (0, 1, 0))
    return r


def size(a):
    if isinstance(a, arrays.ARRAY_TYPES) and a.ndim:
        return a.shape[0]       # (a list held as an array, the commonest: its length at once)
    if is_list(a):
        return length(a)
    t = type(a)
    if t is str:
        return len(a)
    if t is Char:
        return ord(a)
    if isinstance(a, arrays.ARRAY_TYPES):      # a 0-d array: a number with a gradient
        return scalar(backends.current().abs(a))
    if is_int(a):
        return abs(int(a))
    if is_real(a):
        return abs(float(a))
    if isinstance(a, Dict):
        return len(a)
    raise _type_error("size", "list, string, number, character or dictionary expected")


def where(a):
    """Expand: index i repeated a@i times (an integer n is [n])."""
    B = backends.current()
    if is_array(a):
        if array_kind(a) != "i" or a.ndim != 1:
            raise _type_error("expand", "flat list of integers expected")
        counts = a
    else:
        counts = _int_list(a, "expand")
        try:
            counts = _int_array(counts)
        except OverflowError:
            raise KlongError("domain", "expand: count too large") from None
    if not counts.shape[0]:
        return B.arange(0)
    lo, hi = backends.current().bounds(counts)
    if lo < 0:
        raise KlongError("domain", "expand: negative count")
    if hi <= 1:
        return B.where(counts)      # a mask (&a=x): its positions, one library call
    check_elements(fold("+", counts))
    return B.repeat(B.arange(counts.shape[0]), counts)


def compress(a, mask):
    """a@&mask (ir.Compress) for an integer vector mask of 0s and 1s as long as the array a:
    the items of a at its 1s, as Where and At give them, without their checks (a mask's
    positions are in range, and its sum is at most its length); None for other operands
    (then Where and At as written, each failing as itself)."""
    backend = backends.current()
    array_type = backend.array_type
    if type(mask) is not array_type or type(a) is not array_type or mask.ndim != 1 \
            or not a.ndim or a.shape[0] != mask.shape[0] or not mask.shape[0] \
            or array_kind(mask) != "i":
        return None
    lo, hi = backend.bounds(mask)
    if lo < 0 or hi > 1:
        return None
    return backend.take(a, backend.where(mask))


def compress_compared(a, op, b, c):
    """a@&b op c (ir.Compress of a comparison: op is operator.lt, gt or eq, the verb's
    comparison): where b op c is a vector of truths as long as the array a, by the
    comparison's own shortcut (atomic.plain_compared, the operands it takes), the items of
    a where it holds, as compress gives them, from the library's truths without the 0s and
    1s made and scanned; None for other operands (then the comparison, and compress)."""
    backend = backends.current()
    if type(a) is not backend.array_type or not a.ndim:
        return None
    mask = plain_compared(op, b, c)
    if mask is None or mask.ndim != 1 or mask.shape[0] != a.shape[0]:
        return None
    return backend.selected(a, mask)


# ---------------------------------------------------------------- First, Reverse, Transpose

def first(a):
    if isinstance(a, arrays.ARRAY_TYPES) and a.ndim == 1 and a.shape[0]:
        # a vector of the backend (a group's positions): its element, as At takes it
        B = backends.current()
        if isinstance(a, B.array_type):
            return B.element(a, 0)
    if is_atom(a):
        return a
    return element(a, 0)


def firsts_of_vectors(vectors):
    """*'g for the items of g, non-empty vectors of the backend: their first elements, as
    First takes each."""
    return backends.current().firsts(vectors)


def sizes_of_vectors(vectors):
    """#'g for the items of g, vectors of the backend: their lengths."""
    return [v.shape[0] for v in vectors]        # (torch's len() is Python code)


def codes_of_chars(s):
    """#'s for a non-empty string s: the code of each character, as one integer vector (a
    Char's size is its code); None where the backend cannot read them (then the loop). No
    code exceeds the largest code point: remembered, arithmetic on the codes scans nothing."""
    codes = backends.current().char_codes(s)
    if codes is not None:
        current_limits().remember(codes, sys.maxunicode)
    return codes


def reverse(a):
    if type(a) is str:          # (a word, a line: the commonest list reversed in a loop)
        return a[::-1]
    if type(a) is MixedNumbers:
        a = a.general()         # (called without the tables' wrapper: below)
    if is_atom(a):
        return a
    if is_array(a):
        return backends.current().flip(a)
    return a[::-1]


def transpose(a):
    if not is_list(a):
        raise _type_error("transpose", "list expected")
    if is_array(a):
        if a.ndim == 1 or a.shape[0] == 0 or a.shape[1] == 0:
            return a   # no element is a non-empty list
        return backends.current().swap01(a)
    rows = [e for e in a if _is_nonempty_list(e)]
    if not rows:
        return a
    m = length(rows[0])
    # an empty list is a row of no elements, not an atom (as in the reference)
    if any(length(r) != m for r in rows) or any(is_list(e) and is_empty(e) for e in a):
        raise KlongError("length", "transpose: rows of different lengths")
    check_elements(m * len(a))
    whole = _transposed_numbers(a, m)
    if whole is not None:
        return whole
    # An atom element stands for a row of copies of itself.
    return make_list([make_list([element(e, j) if _is_nonempty_list(e) else e for e in a])
                      for j in range(m)])


def _transposed_numbers(a, m):
    """+a for a list of numbers and numeric vectors of length m, all integers or all reals,
    as one array operation (an atom is a column of m copies of itself); None otherwise.
    The loop's rows are vectors of one kind and length, which make_list stacks: the same."""
    kind = None
    for e in a:
        t = type(e)
        if t is int:
            k = "i" if fits_int64(e) else None
        elif t is float:
            k = "f"
        elif is_array(e) and e.ndim == 1:
            k = array_kind(e)
        else:
            return None
        if k not in ("i", "f") or kind not in (None, k):
            return None
        kind = k
    backend = backends.current()
    columns = [e if is_array(e) else backend.full((m,), e, kind) for e in a]
    return backend.swap01(backend.stack(columns))


# ---------------------------------------------------------------- Shape

def _shape_of(v):
    """The shape of v as a list of ints, or None for an atom that has no shape."""
    if type(v) is str:
        return [len(v)]     # a string element has a shape, even the empty one
    if not _is_nonempty_list(v):
        return None
    n = length(v)
    if n == 1:
        return [1]          # the reference's rule: one element hides everything below it
    if type(v) is MixedNumbers:
        return [n]
    if is_array(v):
        if v.ndim == 1:
            return [n]
        return [n] + (_shape_of(v[0]) or [])
    common = None
    for k, e in enumerate(v):
        s = _shape_of(e)
        if s is None:
            return [n]
        if k == 0:
            common = s
            continue
        same = 0
        while same < min(len(common), len(s)) and common[same] == s[same]:
            same += 1
        common = common[:same]
    return [n] + common


def shape(a):
    if is_atom(a):
        return 0
    return _int_array(_shape_of(a))


# ---------------------------------------------------------------- At, Index-in-Depth

def _apply(f, b):
    """Call f with the elements of list b as arguments ([] for a nilad), or with atom b."""
    args = items(b) if is_list(b) else [b]
    return f.call(list(args))     # the function checks the count against its arity


def _index(a, b):
    """a@b for an integer or a (possibly nested) list of integers b."""
    n = length(a)
    if is_int(b):
        i = int(b)
        if not 0 <= i < n:
            raise KlongError("index", f"index {shown(i)} out of range 0..{n - 1}")
        return element(a, i)
    if is_array(b):
        if array_kind(b) != "i":
            raise _type_error("at", "integer index expected")
        if _count(b):
            lo, hi = backends.current().bounds(b)
            if lo < 0 or hi >= n:
                bad = lo if lo < 0 else hi
                raise KlongError("index", f"index {shown(bad)} out of range 0..{n - 1}")
        if is_array(a):
            return backends.current().take(a, b)
        if b.ndim == 1:
            if type(a) is list:     # (a list's elements as they are: words picked by index)
                return make_list([a[i] for i in b.tolist()])
            return make_list([element(a, i) for i in b.tolist()])
    if is_list(b):
        return make_list([_index(a, e) for e in items(b)])
    raise _type_error("at", "integer index expected")


def at(a, b):
    if type(b) is int:
        # the commonest case first: an element of a vector (x@0 of a pair in a loop), then
        # of any array
        backend = backends.running.backend
        if type(a) is backend.array_type and a.ndim == 1 and 0 <= b < a.shape[0]:
            return backend.element(a, b)
        if isinstance(a, arrays.ARRAY_TYPES) and a.ndim and 0 <= b < a.shape[0]:
            if a.ndim == 1 and isinstance(a, backend.array_type):
                return backend.element(a, b)
            return scalar(a[b])
    if type(a) is MixedNumbers or type(b) is MixedNumbers:
        a, b = general(a), general(b)       # (called without the tables' wrapper: below)
    if isinstance(a, Function):
        return _apply(a, b)
    if isinstance(a, Dict):
        # our extension (kg refuses d@k): At looks a key up as Find does, because the torch
        # guide's programs read dictionaries that way (info@"graph")
        return a.get(b)
    if not _is_seq(a):
        raise _type_error("at", "list, string or function expected on the left")
    if is_list(b) and is_empty(b):
        return a[:0] if is_array(a) else empty_like(a)
    r = _index(a, b)
    if type(a) is str and is_list(b):
        # a flat index list gives a string; a nested one keeps characters in lists
        r = list_like(items(r), a)
    return r


def index_depth(a, b):
    if isinstance(a, Function):
        return _apply(a, b)
    if is_int(b):
        if type(a) is str:          # a string has no depth to index (as in the reference)
            raise _type_error("index-in-depth", "cannot index into a string")
        return at(a, b)
    if not _is_nonempty_list(b):
        raise _type_error("index-in-depth", "non-empty list of integer indices expected")
    path = items(b)
    if not all(is_int(i) for i in path):
        raise _type_error("index-in-depth", "indices must be integers")
    level = a
    for i in path:
        if not is_list(level):
            raise _type_error("index-in-depth", "cannot index into an atom or a string")
        i = int(i)
        n = length(level)
        # The reference reads a negative index as 0; we report it instead (verbs.md: do not
        # rely on that).
        if not 0 <= i < n:
            raise KlongError("index", f"index {shown(i)} out of range 0..{n - 1}")
        level = element(level, i)
    return level


# ---------------------------------------------------------------- Join

def _is_pair(v):
    return is_list(v) and length(v) == 2


def _numbers(a):
    """'i' or 'f' for a non-empty vector of integers or reals, else None."""
    if is_array(a) and a.ndim == 1 and a.shape[0]:
        kind = array_kind(a)
        return kind if kind in ("i", "f") else None
    return None


def _concat(a, b):
    r = mixed.concat(a, b)
    if r is not None:
        return r
    a, b = general(a), general(b)
    if (is_array(a) and is_array(b) and array_kind(a) == array_kind(b)
            and tuple(a.shape[1:]) == tuple(b.shape[1:])):
        return backends.current().concat((a, b))
    ka, kb = _numbers(a), _numbers(b)
    if ka and kb and ka != kb:
        return items(a) + items(b)      # integers and reals: a list of both, as it is
    return make_list(items(a) + items(b))


def _attach(lst, x, at_end):
    """lst with x as a new last (or first) element."""
    if type(x) is int and type(lst) in arrays.ARRAY_TYPES and lst.ndim == 1 and lst.shape[0] \
            and INT64_MIN <= x <= INT64_MAX and array_kind(lst) == "i":
        # an integer and a vector of integers (0,0,1; 0,v in a loop): what the tests below
        # come to, at once (no MixedNumbers holds integers alone)
        r = backends.current().attached(lst, x, "i", at_end)
        if not at_end and lst.shape[0] >= REMEMBERED:   # (a shorter one has nothing remembered)
            _remember_progression_after(r, x, lst)
        return r
    r = mixed.attach(lst, x, at_end)
    if r is not None:
        return r
    lst = general(lst)
    if is_array(lst) and lst.shape[0] and _fits_row(x, lst):
        B = backends.current()
        if lst.ndim == 1 and (type(x) is float or type(x) is int):
            r = B.attached(lst, x, array_kind(lst), at_end)
        else:
            one = B.asarray(x, array_kind(lst))[None]
            r = B.concat((lst, one) if at_end else (one, lst))
        if not at_end and type(x) is int:
            _remember_progression_after(r, x, lst)
        return r
    elems = items(lst)
    kind = _numbers(lst)
    if kind is not None and type(x) is _OTHER_NUMBER[kind]:
        # a real joined to integers (or the reverse): a list of both, without looking for
        # an array among a million elements
        return elems + [x] if at_end else [x] + elems
    return make_list(elems + [x] if at_end else [x] + elems)


_OTHER_NUMBER = {"i": float, "f": int}


def _remember_progression_after(r, x, lst):
    """r is x,lst: where lst is a known progression (limits.Limits.progression), r is one
    from its second element on (the value and indices of an Amend: 0,(x*x)+x*!k)."""
    limits = current_limits()
    p = limits.progression(lst)
    if p is not None and p[2] == 0:
        limits.remember(r, max(abs(x), limits.magnitude(lst)), (p[0], p[1], 1))


_dtype_kind = arrays.dtype_kind


def join(a, b):
    ta, tb = type(a), type(b)
    if ta is str:
        if tb is str:
            return a + b        # two strings (a word and its separator): the commonest text
        if tb is int or tb is float:
            return [a, b]       # a word and its count: a pair, as make_list gives it
    elif tb is str and (ta is int or ta is float):
        return [a, b]
    if ta is tb and (ta is int and INT64_MIN <= a <= INT64_MAX and INT64_MIN <= b <= INT64_MAX
                     or ta is float):
        # two numbers of one kind (a key and its count, a point, a pair in a loop): the pair
        # as an array
        check_elements(2)
        return backends.running.backend.asarray([a, b], "i" if ta is int else "f")
    # two vectors of one known kind (a quicksort's parts), their tests made inline (one
    # dtype: its kind looked up once); two arrays of one kind whose items have one shape
    # (rows joined to a matrix): what _concat gives them, at once
    if ta is tb and ta in arrays.ARRAY_TYPES and a.ndim == 1 and b.ndim == 1:
        dtype = a.dtype
        kind = _dtype_kind(dtype)
        if kind is not None and (b.dtype is dtype or kind == _dtype_kind(b.dtype)):
            check_elements(a.shape[0] + b.shape[0])
            return backends.running.backend.concat((a, b))
    if ta in arrays.ARRAY_TYPES and tb in arrays.ARRAY_TYPES:
        if a.ndim and b.ndim and a.shape[1:] == b.shape[1:] and array_kind(a) == array_kind(b):
            check_elements(elements_of(a) + elements_of(b))
            return backends.current().concat((a, b))
    # a number joined to a list held as an array (0,v or v,0 in a loop): where the tests
    # below would lead it, at once
    if tb in arrays.ARRAY_TYPES and (ta is int or ta is float) and b.ndim:
        check_elements(elements_of(b) + 1)
        return _attach(b, a, False)
    if ta in arrays.ARRAY_TYPES and (tb is int or tb is float) and a.ndim:
        check_elements(elements_of(a) + 1)
        return _attach(a, b, True)
    if ta in (str, Char) and tb in (str, Char):
        return str(a) + str(b)    # strings and characters join into a string
    if isinstance(a, Dict) and _is_pair(b):
        a.put(*items(b))          # insert in place
        return a
    if isinstance(b, Dict) and _is_pair(a):
        b.put(*items(a))
        return b
    list_a, list_b = is_list(a), is_list(b)
    if not (list_a or list_b):
        return make_list([a, b])    # two atoms (a word and its count): a pair, never large
    check_elements(elements_of(a) + elements_of(b))
    if list_a and list_b:
        return _concat(a, b)
    if list_a:
        return _attach(a, b, True)
    return _attach(b, a, False)


# A character put between the pieces of a text made in C (_cut_at_one_character,
# _each_joined), where no piece holds it
_MARK = "\0"


def each_on_strings(op, c, x_right):
    """{c OP x} (x_right) or {x OP c} applied to each of a list of strings, where the verb
    gives a string made at once: Join with a text (a character or a string) and Drop of a
    count from a string (as join and drop give them). A function from the list of strings
    to the list of results (all strings), or None for any other verb or constant."""
    if op == "," and type(c) in (str, Char):
        c = str(c)
        return lambda elems: _each_joined(c, elems, x_right)
    if op == "_" and x_right and type(c) is int:
        # (an itemgetter of the slice: a quarter quicker than e[c:] in a comprehension)
        if c >= 0:
            return lambda elems: list(map(operator.itemgetter(slice(c, None)), elems))
        return lambda elems: list(map(operator.itemgetter(slice(None, c)), elems))
    return None


def _each_joined(c, elems, before):
    """c,e (before) or e,c for each string e of elems: the strings joined into one with c and
    a mark between them (a character that none of them holds), split at the marks, both in C,
    instead of a concatenation a string."""
    if len(elems) > 1 and _MARK not in c:
        text = c + (_MARK + c).join(elems) if before else (c + _MARK).join(elems) + c
        if text.count(_MARK) == len(elems) - 1:
            return text.split(_MARK)
    return [c + e for e in elems] if before else [e + c for e in elems]


_ENTRY_PARTS = (int, float)


def join_entry(a, k, v):
    """a,k,v for the dictionary a and two numbers k and v: the entry put in place, as Join
    puts the pair k,v (passes/updates.py), without the pair made first. None for any other
    operands: then the two joins run as written."""
    if isinstance(a, Dict) and type(k) in _ENTRY_PARTS and type(v) in _ENTRY_PARTS:
        a.put(k, v)
        return a
    return None


# ---------------------------------------------------------------- Take, Drop, Rotate

def take(a, b):
    n = _int_arg(a, "take")
    if not _is_seq(b):
        raise _type_error("take", "list or string expected on the right")
    size_b = length(b)
    if n == 0 or size_b == 0:
        return b[:0] if is_array(b) else empty_like(b)
    if 0 < n <= size_b:
        return _slice(b, 0, n)
    if -size_b <= n < 0:
        return _slice(b, size_b + n, size_b)
    # More than b holds: cycle, forward from the start, or backward so as to end with b's end.
    check_items(abs(n), b)
    b = general(b)
    start = 0 if n > 0 else size_b + n
    if is_array(b):
        B = backends.current()
        if size_b == 1:             # (n#,1: copies of one item, without positions to find)
            return B.repeat(b, abs(n))
        positions = B.arange(abs(n))
        return B.take(b, (positions + start if start else positions) % size_b)
    return _pick(b, [(start + i) % size_b for i in range(abs(n))])


def drop(a, b):
    if type(b) is str and type(a) is int:         # a string's head or tail (words, lines)
        return b[a:] if a >= 0 else b[:max(len(b) + a, 0)]
    if isinstance(b, Dict):
        b.remove(a)               # delete in place; a missing key is fine
        return b
    n = _int_arg(a, "drop")
    if not _is_seq(b):
        raise _type_error("drop", "list, string or dictionary expected on the right")
    if n >= 0:
        return _slice(b, n, length(b))
    return _slice(b, 0, max(length(b) + n, 0))


def rotate(a, b):
    if is_atom(b) or length(b) == 0:  # unchanged, whatever a is (as the reference)
        return b
    n = _int_arg(a, "rotate")
    k = n % length(b)             # positive: rotate right
    if k == 0:
        return b
    if is_array(b):
        return backends.current().roll(b, k)      # (torch: one call, not two slices and a cat)
    return b[-k:] + b[:-k]


# ---------------------------------------------------------------- Find

def find(a, b):
    if isinstance(a, Dict):
        return a.get(b)           # the undefined value when missing
    if type(a) is str:
        if type(b) is Char:
            B = backends.current()
            if str(b) not in a:   # (a Char never equals a plain one-character str)
                return B.arange(0)
            return B.where(B.codes(a) == ord(b))
        if type(b) is str:
            if not b:
                return backends.current().arange(len(a) + 1)
            hits, i = [], a.find(b)
            while i >= 0:                  # overlapping occurrences
                hits.append(i)
                i = a.find(b, i + 1)
            return _int_array(hits)
        raise _type_error("find", "character or string expected with a string")
    if not is_list(a):
        raise _type_error("find", "list, string or dictionary expected on the left")
    if is_array(a) and a.ndim == 1 and is_number(b):
        return _find_number(a, b)
    if is_array(a) and is_array(b) and tuple(b.shape) == tuple(a.shape[1:]):
        return _find_row(a, b)
    return _int_array([i for i, e in enumerate(items(a)) if match(e, b)])


def _find_number(a, b):
    """Positions in a numeric vector that Match the number b (computed where a lives)."""
    B = backends.current()
    if array_kind(a) == "i" and is_int(b):
        if _scalar_kind(b) != "i":
            return B.arange(0)            # beyond 64 bits: equals no element
        hits = a == int(b)
    else:
        hits = B.close(B.astype(a, "f"), float(values.plain(b)), REAL_TOLERANCE)
    return B.where(hits)


def _find_row(a, b):
    """Positions of the elements of array `a` that Match the array b (of their shape)."""
    B = backends.current()
    if array_kind(a) == "f" or array_kind(b) == "f":
        with B.quiet():
            hits = B.close(a, b, REAL_TOLERANCE)
    else:
        hits = a == b
    return B.where(hits.reshape(a.shape[0], -1).all(1))


# ---------------------------------------------------------------- Split, Cut

def split(a, b):
    lengths = _int_list(a, "split")
    if not lengths:
        raise KlongError("domain", "split: no lengths")
    if min(lengths) < 1:
        raise KlongError("domain", "split: lengths must be positive")
    if not _is_seq(b):
        raise _type_error("split", "list or string expected on the right")
    n = length(b)
    if len(lengths) == 1 and is_array(b):
        # equal pieces of an array are rows of a reshaped array
        step = min(lengths[0], max(n, 1))         # a piece is at most the whole list
        whole = n - n % step
        rows = b[:whole].reshape((whole // step, step) + tuple(b.shape[1:]))
        if whole == n:
            return rows if n else []
        return make_list(list(rows) + [b[whole:]])
    pieces, pos, k = [], 0, 0
    while pos < n:
        step = lengths[k % len(lengths)]
        pieces.append(_slice(b, pos, pos + step))
        pos, k = pos + step, k + 1
    return make_list(pieces)


def _ascending(a, ints):
    """Are the integers `ints` of a (a list of them, or an integer vector) in order?"""
    if is_array(a):
        return bool((a[1:] >= a[:-1]).all())
    return all(map(operator.le, ints, ints[1:]))


def _cut_at_one_character(a, text):
    """The pieces of `text` cut at the integer vector a, when its indices are every place of
    one character, in ascending order, and there are many (a text cut into words at its
    spaces): the text with a mark put before each such character, split at the marks, both in
    C, instead of a slice a piece. None otherwise (then cut checks the indices)."""
    if not (is_array(a) and a.ndim == 1 and a.shape[0] >= 16 and array_kind(a) == "i"):
        return None
    places = backends.current().to_host(a)
    first, last = places[[0, -1]].tolist()
    if not 0 <= first <= last < len(text):
        return None
    c = text[first]
    if c == _MARK or _MARK in text or text.count(c) != places.shape[0]:
        return None
    # (every index at a c, no two the same, and as many as there are c's: every c is one)
    codes = backends.HOST.codes(text)
    if not ((codes[places] == ord(c)).all() and (places[1:] > places[:-1]).all()):
        return None
    return text.replace(c, _MARK + c).split(_MARK)


def cut(a, b):
    if type(b) is str:
        pieces = _cut_at_one_character(a, b)
        if pieces is not None:
            return pieces
    cuts = _int_list(a, "cut")
    if not _is_seq(b):
        raise _type_error("cut", "list or string expected on the right")
    n = length(b)
    # (in order and inside 0..n, as the pairs of neighbours tell at once: a text's thousands
    # of word starts, compared where the array lives; the loop finds the first that is not)
    if cuts and not (0 <= cuts[0] and cuts[-1] <= n and _ascending(a, cuts)):
        prev = 0
        for c in cuts:
            if c < prev or c > n:
                raise KlongError("range", f"cut: index {shown(c)} out of order or outside 0..{n}")
            prev = c
    if n == 0:
        # one empty piece per index, at least one (the reference's count for empty b)
        return make_list([empty_like(b)] * max(1, len(cuts)))
    bounds = [0] + cuts + [n]
    if type(b) is str:
        # a text cut into words: its slices, all strings (a list as it stands)
        return [b[i:j] for i, j in zip(bounds, bounds[1:])]
    return make_list([_slice(b, bounds[k], bounds[k + 1]) for k in range(len(bounds) - 1)])


# ---------------------------------------------------------------- Amend, Amend-in-Depth

def _amend_positions(indices, n):
    """The positions a list Amend writes: the reference walks the list once from the front,
    so an index behind the walker is never reached. That is harmless for the last index and a
    range error (the walk runs off the end) when more follow."""
    if all(0 <= i < n for i in indices) and all(i <= j for i, j in zip(indices, indices[1:])):
        return indices
    done, walker = [], 0
    for k, i in enumerate(indices):
        if i >= n:
            raise KlongError("range", f"amend: index {shown(i)} out of range 0..{n - 1}")
        if i < walker:
            if k == len(indices) - 1:
                break
            raise KlongError("range", f"amend: index {shown(i)} out of order")
        done.append(i)
        walker = i
    return done


def _amend_string(s, v, indices):
    if type(v) not in (Char, str):
        raise _type_error("amend", "character or string expected to amend a string")
    chars = list(s)
    for i in indices:             # any order; later writes win
        limit = len(chars) - (1 if type(v) is Char else 0)   # a string may also append
        if not 0 <= i <= limit:
            raise KlongError("range", f"amend: index {shown(i)} out of range 0..{limit}")
        chars[i:i + len(v)] = list(v)
    return "".join(chars)


def amend(a, b, in_place=False):
    """a:=b; `in_place`: an array a may be written instead of copied (verbs/inplace.py
    decides), once everything is checked, so that a failure leaves it as it was."""
    if not _is_seq(a):
        raise _type_error("amend", "list or string expected on the left")
    if not is_list(b):
        raise _type_error("amend", "list [value index ...] expected on the right")
    if is_array(a) and is_array(b) and b.ndim == 1 and array_kind(b) == "i":
        r = _amend_array(a, b, in_place)
        if r is not None:
            return r
    parts = items(b)
    if len(parts) < 2:
        return a                  # no indices: unchanged
    v, indices = parts[0], parts[1:]
    if not all(is_int(i) for i in indices):
        raise _type_error("amend", "indices must be integers")
    indices = [int(i) for i in indices]
    if type(a) is str:
        return _amend_string(a, v, indices)
    positions = _amend_positions(indices, length(a))
    if is_array(a) and _fits_row(v, a):
        return _store(a, positions, v, in_place)
    elems = list(items(a))
    for i in positions:
        elems[i] = v
    return make_list(elems)


def _amend_array(a, b, in_place):
    """a:=b for an array a and an integer vector b, when the indices need no walk (in range
    and in ascending order) and the value fits a: checked and written on the device. None
    when the general path has to decide."""
    n = b.shape[0]
    if n < 2 or a.ndim != 1:
        return None
    known = current_limits().progression(b)
    made = known is not None and known[2] == 1 and known[1] > 0
    if made:
        # the indices are first, first+step ... (made so): only the value is read
        v, first, step = b[:1].tolist()[0], known[0], known[1]
        last = first + step * (n - 2)
    else:
        # the value, the first two indices and the last, read from the device at once (a
        # few of them, s:=0,0,1, read whole: a quarter of the gather's time)
        ends = b.tolist() if n <= 8 else b[[0, 1, min(2, n - 1), n - 1]].tolist()
        v, first, second, last = ends[0], ends[1], ends[min(2, n - 1)], ends[-1]
        step = second - first
    if not _fits_row(v, a):
        return None
    if first < 0 or last >= a.shape[0]:                 # the least and greatest, if ascending
        return None
    if n == 2:
        positions = first
    elif made or n == 3 and step > 0:
        positions = slice(first, last + 1, step)
    else:
        indices = b[1:]
        steps = indices[1:] - indices[:-1]
        B = backends.current()
        if step > 0 and not B.any(steps != step):
            positions = slice(first, last + 1, step)    # a progression: written as a slice
        elif B.any(steps < 0):
            return None
        else:
            positions = indices
    return _store(a, positions, v, in_place)


def _amend_in(level, path, v):
    """level with the atom at `path` replaced by v, or None when a negative index means the
    element is never reached (then nothing changes)."""
    i = path[0]
    if i < 0:
        return None
    n = length(level)
    if i >= n:
        raise KlongError("range", f"amend-in-depth: index {shown(i)} out of range 0..{n - 1}")
    e = element(level, i)
    if len(path) > 1:
        if not _is_nonempty_list(e):
            raise KlongError("range", "amend-in-depth: more indices than levels")
        new = _amend_in(e, path[1:], v)
        if new is None:
            return None
    else:
        if _is_nonempty_list(e):
            raise KlongError("range", "amend-in-depth: indices stop at a list, not an atom")
        new = v
    if is_array(level) and _fits_row(new, level):
        return _store(level, i, new)
    elems = list(items(level))
    elems[i] = new
    return make_list(elems)


def amend_depth(a, b):
    if not _is_nonempty_list(a):
        raise _type_error("amend-in-depth", "non-empty list expected on the left")
    if not is_list(b) or length(b) < 2:
        raise _type_error("amend-in-depth", "list [value index ...] expected on the right")
    v, *path = items(b)
    if not all(is_int(i) for i in path):
        raise _type_error("amend-in-depth", "indices must be integers")
    r = _amend_in(a, [int(i) for i in path], v)
    return a if r is None else r


# ---------------------------------------------------------------- Reshape

def _reshape_items(b):
    """The items Reshape cycles through: runs of neighbouring strings in a list are joined
    first, and a list that is then a single string gives its characters."""
    if type(b) is str:
        return items(b)
    if not _is_nonempty_list(b):
        return [b]                # an atom, [] included, is the one item
    if is_array(b):
        return items(b)
    joined = []
    for e in b:
        if type(e) is str and joined and type(joined[-1]) is str:
            joined[-1] = joined[-1] + e
        else:
            joined.append(e)
    if len(joined) == 1 and type(joined[0]) is str:
        return items(joined[0])
    return joined


def _nest(flat, dims):
    """flat (a Python list) laid out row-major as dims; character rows become strings."""
    if len(dims) == 1:
        return chars_to_string(flat)
    step = len(flat) // dims[0]
    return make_list([_nest(flat[k * step:(k + 1) * step], dims[1:]) for k in range(dims[0])])


def reshape(a, b):
    if is_int(a) and int(a) == 0:
        return b
    if is_int(a) or _is_nonempty_list(a):
        dims = _int_list(a, "reshape")
    else:
        raise _type_error("reshape", "shape (integer or list of integers) expected")
    rows = _is_nonempty_list(b) and is_array(b)   # an array's items are its rows:
    elems = None if rows else _reshape_items(b)   # only their number is needed
    k = length(b) if rows else len(elems)
    if k == 0:
        raise KlongError("domain", "reshape: nothing to reshape")
    # every -1 stands for half the number of items
    dims = [k // 2 if d == -1 else d for d in dims]
    if min(dims) < 1:
        raise KlongError("domain", "reshape: dimensions must be positive (or -1)")
    total = math.prod(dims)
    check_items(total, b)
    if rows and len(dims) + b.ndim - 1 > values.MAX_DIMS:
        rows, elems = False, items(b)           # too deep for an array: nested lists
    B = backends.current()
    if rows:
        shape = tuple(dims) + tuple(b.shape[1:])
        if total == k:
            return b.reshape(shape)
        return B.take(b, B.arange(total) % k).reshape(shape)
    if k == 1 and _scalar_kind(b) is not None and len(dims) <= values.MAX_DIMS:
        if isinstance(b, arrays.ARRAY_TYPES):   # a number with a gradient: gather it
            return b.reshape(1)[B.full(tuple(dims), 0, "i")]
        return B.full(tuple(dims), b, _scalar_kind(b))
    flat = [elems[i % k] for i in range(total)]
    return _nest(flat, dims)


# ---------------------------------------------------------------- the tables

def _general_monad(verb):
    """verb, given the general list where its operand is a MixedNumbers (mixed.py)."""
    def monad(a):
        return verb(a.general() if type(a) is MixedNumbers else a)
    return monad


def _general_dyad(verb):
    def dyad(a, b):
        if type(a) is MixedNumbers or type(b) is MixedNumbers:
            a, b = general(a), general(b)
        return verb(a, b)
    return dyad


# the forms that know a MixedNumbers (through mixed.py and the values helpers): Atom, Tally,
# Shape and Reverse; Join, Take, Drop and At. Every other form gets the general list.
_MONADS_KNOWING = {"@", "#", "^", "|"}
_DYADS_KNOWING = {",", "#", "_", "@"}


MONADS = {
    "@": atom,
    ",": list_,
    "!": enumerate_,
    "#": size,
    "*": first,
    "+": transpose,
    "|": reverse,
    "^": shape,
    "&": where,
    ":_": undefined,
    **ordering.MONADS,
}

DYADS = {
    "@": at,
    ",": join,
    "#": take,
    "_": drop,
    "?": find,
    ":#": split,
    ":_": cut,
    ":=": amend,
    ":-": amend_depth,
    ":@": index_depth,
    ":+": rotate,
    ":^": reshape,
}

MONADS = {k: f if k in _MONADS_KNOWING else _general_monad(f) for k, f in MONADS.items()}
DYADS = {k: f if k in _DYADS_KNOWING else _general_dyad(f) for k, f in DYADS.items()}
