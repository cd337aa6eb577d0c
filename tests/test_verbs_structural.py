"""The structural verbs (klong/verbs/structural.py), tested directly on Klong values.

Arguments are written as Klong literals and read by the small reader `K` below (a Python value
that is not a str is passed through unchanged; a numpy array in the tables stands for the same
array on the active backend).
Expected results are written in Klong's printed (write) form, so a case checks the value and
its integer/real/string types at once. Most cases are the examples of verbs.md and the
conformance cases of the verbs' sections.

Every test runs on each backend (numpy, and torch when installed): the autouse fixture
`backend` makes it the active one, so list literals become its arrays. The torch-only tests at
the end check dtypes and that gradients flow through the verbs that move values.
"""
import re

import numpy as np
import pytest

from klong import KlongInterpreter, backends
from klong.backends import arrays
from klong.runtime import kinds, values
from klong.runtime.display import write
from klong.errors import KlongError
from klong.runtime.match import match
from klong.runtime.values import Char, Dict, Function, Symbol, UNDEFINED, make_list
from klong.verbs import ordering, structural
from klong.verbs.structural import DYADS, MONADS

C = Char
S = Symbol


@pytest.fixture(autouse=True, params=["numpy", "torch"])
def backend(request):
    """Run the test with this backend active."""
    if request.param == "torch":
        pytest.importorskip("torch")
    b = backends.get_backend(request.param)
    with backends.using(b):
        yield b


def A(data, kind=None):
    """An array of the active backend."""
    return backends.current().asarray(data, kind)


def host(a):
    """A backend array as numpy (for checks computed with numpy)."""
    return backends.current().to_host(a)


# ---------------------------------------------------------------- helpers

_TOKEN = re.compile(r'''\s*(?:
    (?P<open>\[) | (?P<close>\]) | (?P<dopen>:\{) | (?P<dclose>\}) |
    (?P<str>"(?:[^"]|"")*") |
    (?P<char>0c.) |
    (?P<num>-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?) |
    (?P<sym>:?[A-Za-z.][A-Za-z0-9.]*)
)''', re.X | re.S)


def K(text):
    """A Klong literal (number, character, string, symbol, list, dictionary) as a value."""
    if isinstance(text, np.ndarray):
        return A(text)
    if not isinstance(text, str):
        return text
    tokens = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        assert m and m.end() > pos, f"cannot read {text[pos:]!r}"
        tokens.append((m.lastgroup, m.group(m.lastgroup)))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    value, rest = _read(tokens)
    assert not rest, f"trailing {rest}"
    return value


def _read(tokens):
    kind, tok = tokens[0]
    rest = tokens[1:]
    if kind == "open":
        elems = []
        while rest[0][0] != "close":
            e, rest = _read(rest)
            elems.append(e)
        return make_list(elems), rest[1:]
    if kind == "dopen":
        d = Dict()
        while rest[0][0] != "dclose":
            pair, rest = _read(rest)
            d.put(*pair.tolist() if values.is_array(pair) else list(pair))
        return d, rest[1:]
    if kind == "str":
        return tok[1:-1].replace('""', '"'), rest
    if kind == "char":
        return C(tok[2]), rest
    if kind == "num":
        is_real = any(c in tok for c in ".eE")
        return (float(tok) if is_real else int(tok)), rest
    return S(tok.lstrip(":")), rest      # bare names in lists are symbols


def assert_canonical(v):
    """Results use only the value model's forms: Python scalars, int64/float64 arrays of the
    active backend, Python lists (never numpy scalars, bool or object arrays)."""
    assert not isinstance(v, np.generic), repr(v)
    if isinstance(v, arrays.ARRAY_TYPES):
        assert isinstance(v, backends.current().array_type), type(v)
        assert v.ndim >= 1 and v.dtype in (A([0]).dtype, A([0.5]).dtype), (v.dtype, v.shape)
    elif type(v) is list:
        for e in v:
            assert_canonical(e)


def monad(verb, a):
    r = MONADS[verb](K(a))
    assert_canonical(r)
    return write(r)


def dyad(verb, a, b):
    r = DYADS[verb](K(a), K(b))
    assert_canonical(r)
    return write(r)


def error_kind(fn, *args):
    with pytest.raises(KlongError) as e:
        fn(*[K(a) for a in args])
    return e.value.kind


class Fn(Function):
    """A stand-in for a Klong function: calls a Python callable, checking the arity."""
    def __init__(self, arity, impl):
        self.arity = arity
        self.impl = impl

    def call(self, args):
        if len(args) != self.arity:
            raise KlongError("arity", "wrong arity")
        return self.impl(*args)


def test_reader():
    assert write(K('[1 2.0 "a""b" 0cx :foo [bar] []]')) == '[1 2.0 "a""b" 0cx :foo [:bar] []]'
    assert write(K(":{[1 2] [:a \"x\"]}")) == ':{[1 2] [:a "x"]}'
    assert write(K("-1.5e3")) == "-1500.0"


def test_tables_are_complete():
    assert set(MONADS) == set("@,!#<>=*+|^&?") | {":_"}
    assert set(DYADS) == set("@,#_?") | {":#", ":_", ":=", ":-", ":@", ":+", ":^"}


# ---------------------------------------------------------------- monads

MONAD_CASES = [
    # Atom
    ("@", ":foo", "1"), ("@", "0", "1"), ("@", "1.23", "1"), ("@", '""', "1"),
    ("@", '"string"', "0"), ("@", "[]", "1"), ("@", "[1 2 3]", "0"), ("@", ":{}", "1"),
    ("@", ":{[1 2]}", "1"), ("@", np.zeros(0, dtype=np.int64), "1"), ("@", UNDEFINED, "1"),
    # List
    (",", ":foo", "[:foo]"), (",", "1.23", "[1.23]"), (",", "1e5", "[100000.0]"),
    (",", "0cx", '"x"'), (",", '"string"', '["string"]'), (",", "[]", "[[]]"),
    (",", "[1 2 3]", "[[1 2 3]]"), (",", "[[1 2] [3 4]]", "[[[1 2] [3 4]]]"),
    # Enumerate
    ("!", "0", "[]"), ("!", "1", "[0]"), ("!", "3", "[0 1 2]"),
    ("!", "10", "[0 1 2 3 4 5 6 7 8 9]"),
    # Size
    ("#", "0", "0"), ("#", "123", "123"), ("#", "-123", "123"), ("#", "-1.5", "1.5"),
    ("#", "[]", "0"), ("#", "[1 2 3 4 5]", "5"), ("#", "[[1] [2]]", "2"),
    ("#", "[[1 2 3] [4 5 6]]", "2"), ("#", '""', "0"), ("#", '"hello world"', "11"),
    ("#", "0cA", "65"), ("#", ":{}", "0"), ("#", ":{[1 2]}", "1"),
    # Grade-Up
    ("<", "[]", "[]"), ("<", '""', "[]"), ("<", "[1]", "[0]"), ("<", "[3 1 2]", "[1 2 0]"),
    ("<", "[2 3 1]", "[2 0 1]"), ("<", "[3 2 1]", "[2 1 0]"),
    ("<", "[0.0 0.1 -0.1]", "[2 0 1]"), ("<", "[:foo :bar :baz]", "[1 2 0]"),
    ("<", '"foobar"', "[4 3 0 1 2 5]"), ("<", "[[0 1] [0 2]]", "[0 1]"),
    ("<", "[[0 2] [0 1]]", "[1 0]"), ("<", '["this" "is" "a" "test"]', "[2 1 3 0]"),
    ("<", '"hello, world"', "[6 5 11 1 0 2 3 10 8 4 9 7]"),
    ("<", "[1 1]", "[1 0]"), ("<", "[1 1 1 0]", "[3 1 0 2]"), ("<", "[5 5 5 5]", "[1 0 3 2]"),
    ("<", "[1 2.5 0 2]", "[2 0 3 1]"), ("<", "[[1 2] [1] []]", "[2 1 0]"),
    ("<", '["ab" "a" ""]', "[2 1 0]"), ("<", "[:b :a :ab]", "[1 2 0]"),
    ("<", "[[1 2] [1 2 3] [0 9 9]]", "[2 0 1]"),
    # Grade-Down
    (">", "[]", "[]"), (">", "[1]", "[0]"), (">", "[1 2 3]", "[2 1 0]"),
    (">", "[1 3 2]", "[1 2 0]"), (">", "[2 1 3]", "[2 0 1]"), (">", "[3 2 1]", "[0 1 2]"),
    (">", "[0.0 0.1 -0.1]", "[1 0 2]"), (">", "[:foo :bar :baz]", "[0 2 1]"),
    (">", '"foobar"', "[5 2 1 0 3 4]"), (">", "[[0 1] [0 2]]", "[1 0]"),
    (">", "[[0 2] [0 1]]", "[0 1]"), (">", '["this" "is" "a" "test"]', "[0 3 1 2]"),
    (">", "[1 1]", "[1 0]"), (">", "[3 1 3 2 1]", "[0 2 3 4 1]"), (">", "[1 1 1 0]", "[0 1 2 3]"),
    # Group
    ("=", "[]", "[]"), ("=", '""', "[]"), ("=", "[1]", "[[0]]"), ("=", "[1 2 3]", "[[0] [1] [2]]"),
    ("=", "[1 2 1 3 1 2 3]", "[[0 2 4] [1 5] [3 6]]"), ("=", "[1 1 1 1 1]", "[[0 1 2 3 4]]"),
    ("=", '"x"', "[[0]]"), ("=", '"abacabc"', "[[0 2 4] [1 5] [3 6]]"),
    ("=", '"hello foo"', "[[0] [1] [2 3] [4 7 8] [5] [6]]"),
    ("=", "[3 1 3 2 1]", "[[0 2] [1 4] [3]]"), ("=", "[2.5 1.0 2.5]", "[[0 2] [1]]"),
    ("=", "[[1 2] [3] [1 2]]", "[[0 2] [1]]"), ("=", '["ab" :ab "ab" 0ca]', "[[0 2] [1] [3]]"),
    ("=", "[1 1.0 :a]", "[[0] [1] [2]]"), ("=", "[[1 2] [3 4] [1 2]]", "[[0 2] [1]]"),
    # First
    ("*", "[]", "[]"), ("*", "[1]", "1"), ("*", "[1 2 3]", "1"), ("*", "[[1 2] 3]", "[1 2]"),
    ("*", "[[1 2] [3 4]]", "[1 2]"), ("*", '""', '""'), ("*", '"abc"', "0ca"),
    ("*", "1", "1"), ("*", ":{[1 2]}", ":{[1 2]}"), ("*", "[1.5 2.5]", "1.5"),
    # Transpose
    ("+", "[]", "[]"), ("+", "[1]", "[1]"), ("+", "[1 2 3]", "[1 2 3]"),
    ("+", "[[1 2 3]]", "[[1] [2] [3]]"), ("+", "[[1 2 3] [4 5 6]]", "[[1 4] [2 5] [3 6]]"),
    ("+", "[[1 2] [3 4] [5 6]]", "[[1 3 5] [2 4 6]]"), ("+", '["ab" "cd"]', '["ab" "cd"]'),
    ("+", "[[1 2] 3]", "[[1 3] [2 3]]"), ("+", "[[1 :a] [2 :b]]", "[[1 2] [:a :b]]"),
    ("+", "[[[1 2] [3 4]] [[5 6] [7 8]]]", "[[[1 2] [5 6]] [[3 4] [7 8]]]"),
    # Reverse
    ("|", "[]", "[]"), ("|", "[1]", "[1]"), ("|", "[1 2 3]", "[3 2 1]"),
    ("|", "[[1 2 3] [4 5 6]]", "[[4 5 6] [1 2 3]]"), ("|", '""', '""'),
    ("|", '"abcdef"', '"fedcba"'), ("|", "1", "1"), ("|", '[1 "a" :b]', '[:b "a" 1]'),
    # Shape
    ("^", ":foo", "0"), ("^", "123", "0"), ("^", "[]", "0"), ("^", '""', "0"),
    ("^", ":{[1 2]}", "0"), ("^", '"string"', "[6]"), ("^", "[1]", "[1]"), ("^", "[1 2 3]", "[3]"),
    ("^", "[[1 2] [3 4]]", "[2 2]"), ("^", "[[1 2] [3 4] [5 6]]", "[3 2]"),
    ("^", "[[1] [2] [3] [4]]", "[4 1]"), ("^", "[[[1] [2]] [[3] [4]]]", "[2 2 1]"),
    ("^", '["abc" "def"]', "[2 3]"), ("^", "[1 [2]]", "[2]"), ("^", "[[1 2] [3 4 5]]", "[2]"),
    ("^", "[[1 2 3]]", "[1]"), ('^', '["abc"]', "[1]"),
    ("^", "[[[1 2] [3 4]] [[5 6] [7 8 9]]]", "[2 2]"), ("^", '["" ""]', "[2 0]"),
    ("^", "[[[1 2 3]] [[4 5 6]]]", "[2 1]"), ("^", "[[[1 2] [3 4]] [[5 6] [7 8]]]", "[2 2 2]"),
    ("^", '[["ab" "cd"] ["ef" "gh"]]', "[2 2 2]"), ("^", "[[] []]", "[2]"),
    # Expand / Where
    ("&", "0", "[]"), ("&", "1", "[0]"), ("&", "2", "[0 0]"), ("&", "[]", "[]"), ("&", "[0]", "[]"),
    ("&", "[1 2 3]", "[0 1 1 2 2 2]"), ("&", "[0 3]", "[1 1 1]"), ("&", "[3 0]", "[0 0 0]"),
    ("&", "[2 0 3]", "[0 0 2 2 2]"), ("&", "[0 1 0 1 1]", "[1 3 4]"),
    # Range
    ("?", "[]", "[]"), ("?", '""', '""'), ("?", "[1]", "[1]"), ("?", "[1 2 1 3 1 2 3]", "[1 2 3]"),
    ("?", "[1 1 1 1 1]", "[1]"), ("?", '"x"', '"x"'), ("?", '"abacabc"', '"abc"'),
    ("?", '"aaabbcccd"', '"abcd"'), ("?", "[3 1 3 2 1]", "[3 1 2]"),
    ("?", '["a" :a "a" [1] [1]]', '["a" :a [1]]'), ("?", "[[1 2] [3 4] [1 2]]", "[[1 2] [3 4]]"),
    ("?", "[2.5 1.0 2.5]", "[2.5 1.0]"),
    # Undefined
    (":_", "0", "0"), (":_", "[]", "0"), (":_", ":{}", "0"), (":_", '"x"', "0"),
    (":_", UNDEFINED, "1"),
]


@pytest.mark.parametrize("verb,a,want", MONAD_CASES)
def test_monad(verb, a, want):
    assert monad(verb, a) == want


MONAD_ERRORS = [
    ("!", "-1", "domain"), ("!", "1.0", "type"), ("!", ":a", "type"), ("!", "[3]", "type"),
    ("#", ":foo", "type"), ("#", UNDEFINED, "type"),
    ("<", "1", "type"), ("<", ":a", "type"), ("<", '[1 "a"]', "type"), ("<", "[[1] 2]", "type"),
    ("<", '["a" 0ca]', "type"), (">", ":{[1 2]}", "type"), ("<", '[:a "a"]', "type"),
    ("=", "1", "type"), ("?", "1", "type"), ("?", ":{}", "type"),
    ("+", '"abc"', "type"), ("+", "1", "type"), ("+", '""', "type"),
    ("+", "[[1 2] [3 4 5]]", "length"),
    ("&", "-1", "domain"), ("&", "[1 -2]", "domain"), ("&", "1.0", "type"),
    ("&", "[1.0 2]", "type"), ("&", '""', "type"), ("&", "[[1] [2]]", "type"),
]


@pytest.mark.parametrize("verb,a,kind", MONAD_ERRORS)
def test_monad_error(verb, a, kind):
    assert error_kind(MONADS[verb], a) == kind


def test_enumerate_is_an_int64_array():
    r = MONADS["!"](5)
    assert isinstance(r, backends.current().array_type) and r.dtype == A([0]).dtype
    assert MONADS["!"](np.int64(3)).tolist() == [0, 1, 2]


def test_size_keeps_the_number_type():
    assert type(MONADS["#"](-2.0)) is float and type(MONADS["#"](np.int64(-4))) is int


def test_first_of_an_array_is_a_python_scalar():
    assert type(MONADS["*"](A([0, 1, 2]))) is int
    assert type(MONADS["*"](A([1.5]))) is float


# ---------------------------------------------------------------- grading

def _reference_grade(values, descending):
    """The Shell sort of verbs.md, written out on Python values."""
    n = len(values)
    fix = lambda k: k - 1 if k >= 4 and k & (k - 1) == 0 else k   # noqa: E731
    p = list(range(n))
    gap = fix(n // 2)
    while gap > 0:
        for i in range(gap, n):
            j = i - gap
            while j >= 0:
                x, y = values[p[j]], values[p[j + gap]]
                if (x > y) if descending else (x < y):
                    break
                p[j], p[j + gap] = p[j + gap], p[j]
                j -= gap
        gap = fix(gap // 2)
    return p


@pytest.mark.parametrize("seed", range(30))
def test_vectorised_grade_reproduces_the_shell_sort(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    ints = rng.integers(0, max(1, n // int(rng.integers(1, 8))), n)
    for nums in (ints, ints * 0.5 - 3):
        for verb, desc in (("<", False), (">", True)):
            got = MONADS[verb](A(nums))
            assert isinstance(got, backends.current().array_type) and got.dtype == A([0]).dtype
            assert got.tolist() == _reference_grade(nums.tolist(), desc)
    # the generic (Python list) path gives the same as the array path
    mixed = make_list([int(v) if k % 2 else float(v) for k, v in enumerate(ints)])
    assert MONADS["<"](mixed).tolist() == _reference_grade(ints.tolist(), False)
    # strings and rows of a matrix
    text = "".join(chr(97 + int(v) % 5) for v in ints)
    assert MONADS[">"](text).tolist() == _reference_grade(list(text), True)
    rows = ints.reshape(-1, 1) % np.array([1, 3])
    assert MONADS["<"](A(rows)).tolist() == _reference_grade([tuple(r) for r in rows.tolist()], False)


def test_grade_of_a_big_array_sorts():
    a = np.random.default_rng(1).integers(0, 1000, 100_000)
    g = host(MONADS["<"](A(a)))
    assert np.all(np.diff(a[g]) >= 0) and sorted(g.tolist()) == list(range(len(a)))
    g = host(MONADS[">"](A(a, "f")))
    assert np.all(np.diff(a[g]) <= 0)


# ---------------------------------------------------------------- ordering on every path

def _python(v):
    """A Klong value as a Python value that compares as Grade compares (for the reference)."""
    if isinstance(v, arrays.ARRAY_TYPES) and v.ndim:
        return tuple(_python(e) for e in values.items(v))
    if type(v) is list:
        return tuple(_python(e) for e in v)
    return values.scalar(v) if isinstance(v, arrays.ARRAY_TYPES) else v


def _ordering_cases(rng):
    """Lists that take each path of the ordering verbs, most with ties."""
    n = int(rng.integers(1, 400))
    small = rng.integers(0, max(1, n // int(rng.integers(1, 9))), n)
    words = ["b", "ab", "a", "", "ba", "abc"]
    return [
        A(small),                                           # integers with ties
        A(rng.permutation(n)),                              # distinct integers
        A(small * 0.25 - 1),                                # reals with ties
        A(rng.random(n)),                                   # distinct reals
        "".join(chr(97 + int(v) % 7) for v in small),       # a string
        "".join("a\u03b1\u2200b"[int(v) % 4] for v in small),  # beyond Latin-1
        A(small.reshape(-1, 1) % np.array([2, 3])),         # rows of a matrix
        make_list([words[int(v) % 6] for v in small]),      # strings
        make_list([S(words[int(v) % 6] or "z") for v in small]),    # symbols
        make_list([int(v) if k % 2 else float(v) for k, v in enumerate(small)]),
        make_list([A(list(range(int(v) % 3 + 1))) + int(v) % 2 for v in small]),  # ragged
    ]


@pytest.mark.parametrize("seed", range(12))
def test_grade_reproduces_the_shell_sort_on_every_path(seed):
    for a in _ordering_cases(np.random.default_rng(seed)):
        elems = [_python(e) for e in values.items(a)]
        for verb, desc in (("<", False), (">", True)):
            got = MONADS[verb](a)
            assert isinstance(got, backends.current().array_type) and got.dtype == A([0]).dtype
            assert got.tolist() == _reference_grade(elems, desc), (verb, write(a)[:60])


def test_grade_of_a_big_list_with_ties_reproduces_the_shell_sort():
    a = np.random.default_rng(7).integers(0, 50, 3000)
    assert MONADS["<"](A(a)).tolist() == _reference_grade(a.tolist(), False)
    assert MONADS[">"](A(a)).tolist() == _reference_grade(a.tolist(), True)


def test_grade_puts_nans_above_every_number_in_the_order_of_their_places(monkeypatch):
    """A NaN compares with nothing: Grade ranks it above every number, and NaNs among
    themselves by their places, so that every library and device gives one grade (an
    unstable sort on a GPU ordered them otherwise). Down is Up reversed."""
    a = np.random.default_rng(5).permutation(60) * 0.5
    nans = [3, 7, 8, 20, 41, 59]
    a[nans] = np.nan
    up = sorted((i for i in range(60) if i not in nans), key=lambda i: a[i]) + nans
    assert MONADS["<"](A(a)).tolist() == up
    assert MONADS[">"](A(a)).tolist() == up[::-1]
    # the same where the library's sort puts NaNs first, in the reverse of their places
    # (as a GPU's sort can: NaN's sign bit set)
    B = backends.current()
    library_sort = B.sort_order

    def nans_first(keys, stable=True):
        s, order = library_sort(keys, stable)
        nan = host(s != s)
        turned = np.concatenate([np.flatnonzero(nan)[::-1], np.flatnonzero(~nan)])
        return B.take(s, A(turned)), B.take(order, A(turned))
    monkeypatch.setattr(B, "sort_order", nans_first)
    assert MONADS["<"](A(a)).tolist() == up
    assert MONADS[">"](A(a)).tolist() == up[::-1]


@pytest.mark.parametrize("a", ['[1 "a"]', '["a" 0ca]', '[[1 2] [1 "a"]]', "[:a 1]",
                               '[[1] 1]'])
def test_grade_of_elements_that_do_not_compare_is_a_type_error(a):
    for verb in "<>":
        with pytest.raises(KlongError) as e:
            MONADS[verb](K(a))
        assert e.value.kind == "type"


def _kinds(v):
    """The kinds of the numbers in v, nested as v is: an integer and a real are never one
    class of Group and Range, though they match (as in the reference)."""
    if values.is_number(v):
        return kinds.kind(v)
    if values.is_list(v):
        return tuple(_kinds(e) for e in values.items(v))
    return None


def _reference_classes(elems):
    """The classes of Match in first-occurrence order, each its positions ascending."""
    classes = []
    for i, e in enumerate(elems):
        for members in classes:
            if match(elems[members[0]], e) and _kinds(elems[members[0]]) == _kinds(e):
                members.append(i)
                break
        else:
            classes.append([i])
    return classes


@pytest.mark.parametrize("seed", range(8))
def test_group_and_range_match_the_reference_on_every_path(seed):
    rng = np.random.default_rng(seed)
    cases = _ordering_cases(rng) + [A(np.repeat(rng.random(5), 3) * (1 + 1e-16 * rng.random(15)))]
    for a in cases:
        elems = values.items(a)
        classes = _reference_classes(elems)
        groups = MONADS["="](a)
        assert [host(g).tolist() for g in values.items(groups)] == classes, write(a)[:60]
        r = MONADS["?"](a)
        firsts = [elems[c[0]] for c in classes]
        assert type(r) is type(a) if type(a) is str else values.is_list(r)
        assert match(r, values.list_like(firsts, a)), write(a)[:60]


def test_group_of_classes_of_one_size_is_a_matrix():
    g = MONADS["="](A([5, 7, 5, 7]))
    assert isinstance(g, backends.current().array_type) and g.tolist() == [[0, 2], [1, 3]]
    assert write(MONADS["="](A([3, 1, 2]))) == "[[0] [1] [2]]"


@pytest.mark.parametrize("src, printed", [
    ('=["to" "be" "or" "not" "to" "be" ""  ""]', "[[0 4] [1 5] [2] [3] [6 7]]"),
    ('?["to" "be" "or" "not" "to" "be"]', '["to" "be" "or" "not"]'),
    ('=["ab" :ab "ab" 0cx "x" :ab]', "[[0 2] [1 5] [3] [4]]"),     # strings among others
    ('=["1" 1 "1" 1.0]', "[[0 2] [1] [3]]"),
])
def test_group_and_range_of_strings(src, printed):
    assert write(KlongInterpreter().run(src)) == printed


def test_find_a_character_in_any_string():
    assert DYADS["?"]("ab\u03b1b\u03b1", C("\u03b1")).tolist() == [2, 4]
    assert DYADS["?"]("abcb", C("\u03b1")).tolist() == []
    assert DYADS["?"]("abcb", C("b")).tolist() == [1, 3]
    assert DYADS["?"]("", C("b")).tolist() == []


def test_find_a_row_of_a_matrix():
    m = A([[1, 2], [3, 4], [1, 2]])
    assert DYADS["?"](m, A([1, 2])).tolist() == [0, 2]
    assert DYADS["?"](m, A([1.0, 2.0])).tolist() == [0, 2]       # Match: 1 is 1.0
    assert DYADS["?"](A([[0.1 + 0.2, 1.0]]), A([0.3, 1.0])).tolist() == [0]
    assert DYADS["?"](m, A([2, 1])).tolist() == []


@pytest.mark.parametrize("b,want", [
    ("[0 1 3]", "[1 0 3 0 5]"), ("[9 4]", "[1 2 3 4 9]"), ("[0 1 1]", "[1 0 3 4 5]"),
    ("[0 3 1]", "[1 2 3 0 5]"), ("[0 3 1 4]", "range"), ("[0 1 5]", "range"),
    ("[0 -1]", "[1 2 3 4 5]"), ("[0 2 -1]", "[1 2 0 4 5]"),
    ("[1.5 0]", "[1.5 2 3 4 5]"), ("[7]", "[1 2 3 4 5]"),
])
def test_amend_with_an_index_array(b, want):
    a = A([1, 2, 3, 4, 5])
    b = K(b)
    if want == "range":
        with pytest.raises(KlongError) as e:
            DYADS[":="](a, b)
        assert e.value.kind == "range"
    else:
        assert write(DYADS[":="](a, b)) == want
    assert write(a) == "[1 2 3 4 5]"


def test_transpose_and_reverse_share_the_argument_memory_safely():
    m = A(range(6)).reshape(2, 3)
    t = MONADS["+"](m)
    assert t.tolist() == [[0, 3], [1, 4], [2, 5]]
    r = DYADS[":="](MONADS["|"](A(range(4))), K("[9 0]"))
    assert write(r) == "[9 2 1 0]" and write(MONADS["+"](t)) == "[[0 1 2] [3 4 5]]"


# ---------------------------------------------------------------- dyads

DYAD_CASES = [
    # At / Index
    ("[]", "@", "[]", "[]"), ("[1]", "@", "[]", "[]"), ("[1]", "@", "0", "1"),
    ("[1]", "@", "[0]", "[1]"), ("[1]", "@", "[0 0 0]", "[1 1 1]"),
    (np.arange(10), "@", "[1 3 5 9]", "[1 3 5 9]"), ("[[1] [2] [3]]", "@", "[0 1 2]", "[[1] [2] [3]]"),
    ("[[1 2] [3 4]]", "@", "1", "[3 4]"), ("[[1 2] [3 4]]", "@", "[1 0 1]", "[[3 4] [1 2] [3 4]]"),
    ("[1 2 3]", "@", "[0 [1 2]]", "[1 [2 3]]"), ("[1 2 3]", "@", "[[0 1] [2 2]]", "[[1 2] [3 3]]"),
    ('[1 "a" :b]', "@", "[2 0]", '[:b 1]'), ('[1 "a" :b]', "@", "[0 2]", '[1 :b]'),
    ('""', "@", "[]", '""'), ('"x"', "@", "[]", '""'), ('"x"', "@", "0", "0cx"),
    ('"x"', "@", "[0]", '"x"'), ('"x"', "@", "[0 0 0]", '"xxx"'),
    ('"abcdefghij"', "@", "[1 3 5 9]", '"bdfj"'), ('"abc"', "@", "[0 [1 2]]", "[0ca [0cb 0cc]]"),
    ('"abc"', "@", "[[0 1] [1 2]]", "[[0ca 0cb] [0cb 0cc]]"),
    # Join
    ("0", ",", "1", "[0 1]"), ("[]", ",", "[]", "[]"), ("[0]", ",", "[]", "[0]"),
    ("[]", ",", "[1]", "[1]"), ("[0]", ",", "[1]", "[0 1]"), ("[[0]]", ",", "[1]", "[[0] 1]"),
    ("[0]", ",", "[[1]]", "[0 [1]]"), ("[1 2 3]", ",", "4", "[1 2 3 4]"),
    ("1", ",", "[2 3 4]", "[1 2 3 4]"), ("[1 2 3]", ",", "[4 5 6]", "[1 2 3 4 5 6]"),
    ("[1 2]", ",", "3.5", "[1 2 3.5]"), ("[1.5]", ",", "[2.5]", "[1.5 2.5]"),
    ("[1 2]", ",", "[3.0]", "[1 2 3.0]"), ("[[1 2] [3 4]]", ",", "[[5 6]]", "[[1 2] [3 4] [5 6]]"),
    ("[[1 2] [3 4]]", ",", "[5 6]", "[[1 2] [3 4] 5 6]"), ('""', ",", '""', '""'),
    ('"a"', ",", '""', '"a"'), ('"abc"', ",", '"def"', '"abcdef"'), ('"abc"', ",", "0cd", '"abcd"'),
    ("0ca", ",", '"bcd"', '"abcd"'), ("0ca", ",", "0cb", '"ab"'), ('["abc"]', ",", '"def"', '["abc" "def"]'),
    ('"abc"', ",", '["def"]', '["abc" "def"]'), ('["abc"]', ",", '["def"]', '["abc" "def"]'),
    ('"a"', ",", "1", '["a" 1]'), ("0ca", ",", "1", "[0ca 1]"), ("[]", ",", '""', '[""]'),
    (":a", ",", ":b", "[:a :b]"), ("[1]", ",", ":{}", "[1 :{}]"),
    # Take
    ("0", "#", "[]", "[]"), ("3", "#", "[]", "[]"), ("0", "#", "[1]", "[]"), ("3", "#", "[1]", "[1 1 1]"),
    ("-3", "#", "[1]", "[1 1 1]"), ("2", "#", "[1 2 3]", "[1 2]"), ("5", "#", np.arange(5), "[0 1 2 3 4]"),
    ("9", "#", np.arange(5), "[0 1 2 3 4 0 1 2 3]"), ("-1", "#", np.arange(5), "[4]"),
    ("-3", "#", np.arange(5), "[2 3 4]"), ("-7", "#", np.arange(5), "[3 4 0 1 2 3 4]"),
    ("0", "#", '""', '""'), ("3", "#", '""', '""'), ("3", "#", '"x"', '"xxx"'),
    ("-3", "#", '"x"', '"xxx"'), ("3", "#", '"abcdef"', '"abc"'), ("10", "#", '"abcdef"', '"abcdefabcd"'),
    ("-1", "#", '"abcdef"', '"f"'), ("-9", "#", '"abcdef"', '"defabcdef"'),
    ("3", "#", '[1 "a"]', '[1 "a" 1]'), ("1", "#", '[1 "a"]', "[1]"), ("-1", "#", '[1 "a"]', '["a"]'),
    ("3", "#", "[[1 2] [3 4]]", "[[1 2] [3 4] [1 2]]"),
    # Drop
    ("0", "_", "[]", "[]"), ("10", "_", "[]", "[]"), ("1", "_", "[1]", "[]"),
    ("1", "_", "[1 2 3]", "[2 3]"), ("3", "_", "[1 2 3]", "[]"), ("4", "_", "[1 2 3]", "[]"),
    ("2", "_", "[[1] [2] [3]]", "[[3]]"), ("-1", "_", "[1 2 3]", "[1 2]"), ("-5", "_", "[1 2 3]", "[]"),
    ("0", "_", '""', '""'), ("10", "_", '"a"', '""'), ("2", "_", '"abc"', '"c"'),
    ("-3", "_", '"abcdef"', '"abc"'), ("1", "_", '["a" 1 2]', "[1 2]"),
    (":foo", "_", ":{}", ":{}"), (":foo", "_", ":{[:foo bar] [:goo baz]}", ":{[:goo :baz]}"),
    (":foo", "_", ":{[:goo baz]}", ":{[:goo :baz]}"),
    # Find
    ("[]", "?", "0", "[]"), ("[0]", "?", "0", "[0]"), ("[0]", "?", "1", "[]"),
    ("[1 2 3]", "?", "2", "[1]"), ("[1 1 1]", "?", "1", "[0 1 2]"),
    ("[1 2 1 2 1 2]", "?", "2", "[1 3 5]"), ("[1 2 3]", "?", "4", "[]"),
    ("[[1] [2] [3]]", "?", "[2]", "[1]"), ("[1 1.0 2]", "?", "1", "[0 1]"),
    ("[1.0 2.0 1.0]", "?", "1", "[0 2]"), ("[1 2 3]", "?", "2.0", "[1]"),
    ("[1 2 3]", "?", ":a", "[]"), ("[[1 2] [3 4]]", "?", "[3 4]", "[1]"),
    ('["a" :a 0ca]', "?", ":a", "[1]"), ('""', "?", "0ca", "[]"), ('"a"', "?", "0ca", "[0]"),
    ('"abc"', "?", "0cb", "[1]"), ('"abcabcabc"', "?", "0cc", "[2 5 8]"),
    ('""', "?", '""', "[0]"), ('"ab"', "?", '""', "[0 1 2]"), ('""', "?", '"a"', "[]"),
    ('"aaa"', "?", '"a"', "[0 1 2]"), ('"abcabcabc"', "?", '"abc"', "[0 3 6]"),
    ('"abbbbbbbc"', "?", '"bbb"', "[1 2 3 4 5]"), (":{}", "?", ":foo", ":undefined"),
    (":{[:foo :bar]}", "?", ":foo", ":bar"), (":{[:foo :bar]}", "?", ":bar", ":undefined"),
    (":{[:foo :bar]}", "?", "123", ":undefined"), (':{[[1 2] "v"]}', "?", "[1 2]", '"v"'),
    # Split
    ("1", ":#", "[]", "[]"), ("1", ":#", "[1]", "[[1]]"), ("1", ":#", "[1 2 3]", "[[1] [2] [3]]"),
    ("2", ":#", "[1 2 3]", "[[1 2] [3]]"), ("3", ":#", "[1 2 3]", "[[1 2 3]]"),
    ("4", ":#", "[1 2 3]", "[[1 2 3]]"), ("[2]", ":#", np.arange(10), "[[0 1] [2 3] [4 5] [6 7] [8 9]]"),
    ("[2 3]", ":#", np.arange(10), "[[0 1] [2 3 4] [5 6] [7 8 9]]"), ("1", ":#", '""', "[]"),
    ("1", ":#", '"xyz"', '["x" "y" "z"]'), ("2", ":#", '"xyz"', '["xy" "z"]'),
    ("4", ":#", '"xyz"', '["xyz"]'), ("[2 3]", ":#", '"abcdefghijk"', '["ab" "cde" "fg" "hij" "k"]'),
    ("2", ":#", '[1 "a" :b]', '[[1 "a"] [:b]]'), ("1", ":#", "[[1 2] [3 4]]", "[[[1 2]] [[3 4]]]"),
    # Cut
    ("[]", ":_", "[]", "[[]]"), ("[]", ":_", "[1 2 3]", "[[1 2 3]]"), ("0", ":_", "[]", "[[]]"),
    ("0", ":_", "[1]", "[[] [1]]"), ("1", ":_", "[1]", "[[1] []]"), ("[0 0]", ":_", "[]", "[[] []]"),
    ("[0 0 0]", ":_", "[]", "[[] [] []]"), ("[0 1]", ":_", "[1]", "[[] [1] []]"),
    ("[10]", ":_", np.arange(10), "[[0 1 2 3 4 5 6 7 8 9] []]"),
    ("[1 4 7]", ":_", np.arange(10), "[[0] [1 2 3] [4 5 6] [7 8 9]]"),
    (np.arange(6), ":_", np.arange(5), "[[] [0] [1] [2] [3] [4] []]"),
    ("[5]", ":_", np.arange(10), "[[0 1 2 3 4] [5 6 7 8 9]]"),
    ("[]", ":_", '""', '[""]'), ("0", ":_", '""', '[""]'), ("[0 0]", ":_", '""', '["" ""]'),
    ("[]", ":_", '"abc"', '["abc"]'), ("[0 0]", ":_", '"a"', '["" "" "a"]'),
    ("[0 1]", ":_", '"a"', '["" "a" ""]'), ("[1 3 5]", ":_", '"abcdef"', '["a" "bc" "de" "f"]'),
    ("1", ":_", '[1 "a" :b]', '[[1] ["a" :b]]'),
    # Amend
    ("[]", ":=", "[]", "[]"), ("[]", ":=", "[99]", "[]"), ("[1]", ":=", "[2 0]", "[2]"),
    ("[1 2 3]", ":=", "[9]", "[1 2 3]"), ("[1 2 3]", ":=", "[9 0]", "[9 2 3]"),
    ("[1 2 3]", ":=", "[9 0 1 2]", "[9 9 9]"), ("[1 2 3]", ":=", "[9 1 1]", "[1 9 3]"),
    ("[1 [2] 3]", ":=", "[[9] 1]", "[1 [9] 3]"), ("[1 [2 3] 3]", ":=", "[[9 9] 1]", "[1 [9 9] 3]"),
    ("[1 2 3]", ":=", "[9 2 0]", "[1 2 9]"), ("[1 2 3]", ":=", "[9 -1]", "[1 2 3]"),
    ("[1 2 3]", ":=", "[9 1 -1]", "[1 9 3]"), ("[1 2 3]", ":=", "[1.5 0]", "[1.5 2 3]"),
    ("[1 2 3]", ":=", "[:x 2]", "[1 2 :x]"), ("[[1 2] [3 4]]", ":=", "[[9 9] 0]", "[[9 9] [3 4]]"),
    ("[[1 2] [3 4]]", ":=", "[0 1]", "[[1 2] 0]"), ('[1 :a]', ":=", "[2 1]", "[1 2]"),
    ('""', ":=", "[]", '""'), ('""', ":=", "[1]", '""'), ('"x"', ":=", "[0c0 0]", '"0"'),
    ('"abc"', ":=", "[0c_]", '"abc"'), ('"abc"', ":=", "[0c_ 0 1]", '"__c"'),
    ('"abc"', ":=", "[0cx 2 0]", '"xbx"'), ('"abcabc"', ":=", '["__" 0 4]', '"__ca__"'),
    ('"abcabc"', ":=", '["xyz" 0 3]', '"xyzxyz"'), ('"abx"', ":=", '["cde" 2]', '"abcde"'),
    ('"abc"', ":=", '["def" 3]', '"abcdef"'), ('"abc"', ":=", '["xyz" 1 0]', '"xyzz"'),
    ('"abc"', ":=", '["" 3]', '"abc"'), ('"-----"', ":=", "[0cx 1 3]", '"-x-x-"'),
    # Amend-in-Depth
    ("[1 2 3]", ":-", "[9 0]", "[9 2 3]"), ("[1 2 3]", ":-", "[9 2]", "[1 2 9]"),
    ("[[1 2] [3 4]]", ":-", "[9 0 0]", "[[9 2] [3 4]]"), ("[[1 2] [3 4]]", ":-", "[9 1 0]", "[[1 2] [9 4]]"),
    ("[[1 2] [3 4]]", ":-", "[42 0 1]", "[[1 42] [3 4]]"), ("[[[0]]]", ":-", "[1 0 0 0]", "[[[1]]]"),
    ("[[[0 1] [2 3]] [[4 5] [6 7]]]", ":-", "[:x 1 0 1]", "[[[0 1] [2 3]] [[4 :x] [6 7]]]"),
    ("[[[0 1] [2 3]] [[4 5] [6 7]]]", ":-", "[:x 0 0 0]", "[[[:x 1] [2 3]] [[4 5] [6 7]]]"),
    ('[[1 2] "ab"]', ":-", "[0cx 1]", "[[1 2] 0cx]"), ("[1 2 3]", ":-", "[9 -1]", "[1 2 3]"),
    ("[[1 2] [3 4]]", ":-", "[9 1 -1]", "[[1 2] [3 4]]"), ("[[1 2] [3 4]]", ":-", "[2.5 1 1]", "[[1 2] [3 2.5]]"),
    ("[1 [] 3]", ":-", "[[5 6] 1]", "[1 [5 6] 3]"), ('[1 :{[1 2]}]', ":-", "[0 1]", "[1 0]"),
    # Index-in-Depth
    ("[[1 2] [3 4]]", ":@", "[0 1]", "2"), ("[[[1]]]", ":@", "[0 0 0]", "1"),
    ("[[1 2] [3 4]]", ":@", "[1]", "[3 4]"), ("[[1 2] [3 4]]", ":@", "1", "[3 4]"),
    ('[1 [2 "ab"]]', ":@", "[1 1]", '"ab"'), ('[[1 2] [3 :x]]', ":@", "[1 1]", ":x"),
    # Rotate
    ("0", ":+", "0", "0"), ("1", ":+", "0", "0"), ("-2", ":+", "0", "0"), ("1", ":+", "[]", "[]"),
    ("1", ":+", "[1]", "[1]"), ("0", ":+", np.arange(5), "[0 1 2 3 4]"),
    ("1", ":+", np.arange(5), "[4 0 1 2 3]"), ("2", ":+", np.arange(5), "[3 4 0 1 2]"),
    ("-1", ":+", np.arange(5), "[1 2 3 4 0]"), ("-2", ":+", np.arange(5), "[2 3 4 0 1]"),
    ("5", ":+", np.arange(5), "[0 1 2 3 4]"), ("12", ":+", np.arange(5), "[3 4 0 1 2]"),
    ("-12", ":+", np.arange(5), "[2 3 4 0 1]"), ("1", ":+", '""', '""'), ("2", ":+", '"x"', '"x"'),
    ("1", ":+", '"abcdef"', '"fabcde"'), ("-2", ":+", '"abcdef"', '"cdefab"'),
    ("8", ":+", '"abcdef"', '"efabcd"'), ("-8", ":+", '"abcdef"', '"cdefab"'),
    ("1", ":+", "[[1 2] [3 4] [5 6]]", "[[5 6] [1 2] [3 4]]"), ("1", ":+", '[1 "a" :b]', '[:b 1 "a"]'),
    ("1", ":+", ":{[1 2]}", ":{[1 2]}"),
    # Reshape
    ("0", ":^", "1", "1"), ("0", ":^", "[]", "[]"), ("0", ":^", "[1 2 3]", "[1 2 3]"),
    ("0", ":^", '"foo"', '"foo"'), ("0", ":^", '""', '""'), ("1", ":^", "1", "[1]"),
    ("5", ":^", "1", "[1 1 1 1 1]"), ("[5]", ":^", "1", "[1 1 1 1 1]"), ("[1 1]", ":^", "1", "[[1]]"),
    ("[1 1 1]", ":^", "1", "[[[1]]]"), ("[2 2 2]", ":^", "1", "[[[1 1] [1 1]] [[1 1] [1 1]]]"),
    ("2", ":^", "1.5", "[1.5 1.5]"), ("2", ":^", ":a", "[:a :a]"),
    ("1", ":^", np.arange(10), "[0]"), ("[3 3]", ":^", np.arange(10), "[[0 1 2] [3 4 5] [6 7 8]]"),
    ("5", ":^", "[[1 2] [3 4]]", "[[1 2] [3 4] [1 2] [3 4] [1 2]]"),
    ("[2 2]", ":^", "[1 2 3 4]", "[[1 2] [3 4]]"), ("[3 3]", ":^", "[1 2 3 4]", "[[1 2 3] [4 1 2] [3 4 1]]"),
    ("[2 -1]", ":^", np.arange(8), "[[0 1 2 3] [4 5 6 7]]"), ("[-1 2]", ":^", np.arange(7), "[[0 1] [2 3] [4 5]]"),
    ("[2 -1]", ":^", np.arange(7), "[[0 1 2] [3 4 5]]"),
    ("[-1 3]", ":^", np.arange(10), "[[0 1 2] [3 4 5] [6 7 8] [9 0 1] [2 3 4]]"),
    ("[-1 4]", ":^", np.arange(8), "[[0 1 2 3] [4 5 6 7] [0 1 2 3] [4 5 6 7]]"),
    ("1", ":^", '"xyz"', '"x"'), ("3", ":^", '"xyz"', '"xyz"'), ("[3 3]", ":^", '"xyz"', '["xyz" "xyz" "xyz"]'),
    ("[5 2]", ":^", '"xyz"', '["xy" "zx" "yz" "xy" "zx"]'), ("[2 5]", ":^", '"xyz"', '["xyzxy" "zxyzx"]'),
    ("[2 2]", ":^", "0ca", '["aa" "aa"]'), ("3", ":^", '["ab" "cd"]', '"abc"'),
    ("[2 2]", ":^", '["ab" "cd"]', '["ab" "cd"]'), ("4", ":^", '[1 "ab" "cd"]', '[1 "abcd" 1 "abcd"]'),
    ("3", ":^", "[]", "[[] [] []]"), ("3", ":^", '[1 0ca]', "[1 0ca 1]"),
    ("[2 2]", ":^", '[0ca 1]', "[[0ca 1] [0ca 1]]"), ("2", ":^", '["ab" 1]', '["ab" 1]'),
]


@pytest.mark.parametrize("a,verb,b,want", DYAD_CASES)
def test_dyad(a, verb, b, want):
    assert dyad(verb, a, b) == want


DYAD_ERRORS = [
    # At
    ("[1 2 3]", "@", "3", "index"), ("[1 2 3]", "@", "-1", "index"), ("[]", "@", "0", "index"),
    ("[1 2 3]", "@", "[0 5]", "index"), ('"abc"', "@", "[0 [3]]", "index"),
    ("[1 2 3]", "@", "1.0", "type"), ("[1 2 3]", "@", "[0 1.0]", "type"), ("[1 2 3]", "@", ":a", "type"),
    ("1", "@", "0", "type"), (":a", "@", "0", "type"),
    ("0ca", "@", "0", "type"),
    # Take, Drop, Rotate
    ("1.0", "#", "[1 2]", "type"), ("2", "#", "1", "type"), ("2", "#", ":a", "type"),
    ("2", "#", "0ca", "type"), ("2", "#", ":{}", "type"),
    ("1.0", "_", "[1 2]", "type"), ("1", "_", "5", "type"), ("1", "_", ":a", "type"),
    ("1.0", ":+", "[1 2]", "type"), (":a", ":+", "[1 2]", "type"),
    # Find
    ('"abc"', "?", "1", "type"), ('"abc"', "?", ":a", "type"), ("1", "?", "1", "type"),
    (":a", "?", "1", "type"),
    # Split
    ("0", ":#", "[1 2]", "domain"), ("[2 0]", ":#", "[1 2]", "domain"), ("[]", ":#", "[1 2]", "domain"),
    ("1.0", ":#", "[1 2]", "type"), ("1", ":#", "5", "type"), ("-1", ":#", '"ab"', "domain"),
    # Cut
    ("1", ":_", "[]", "range"), ("[2 1]", ":_", "[1 2 3]", "range"), ("-1", ":_", "[1 2]", "range"),
    ("4", ":_", "[1 2 3]", "range"), ("1.0", ":_", "[1 2]", "type"), ("1", ":_", "5", "type"),
    # Amend
    ("[1 2 3]", ":=", "[9 2 0 1]", "range"), ("[1 2 3]", ":=", "[9 3]", "range"),
    ("[]", ":=", "[9 0]", "range"), ("[1 2 3]", ":=", "[9 -1 0]", "range"),
    ("[1 2 3]", ":=", "[9 1.0]", "type"), ('"abc"', ":=", "[1 0]", "type"),
    ('"abc"', ":=", "[:a 0]", "type"), ('"abc"', ":=", "[0cx 3]", "range"),
    ('"abc"', ":=", '["x" 4]', "range"), ('"abc"', ":=", "[0cx -1]", "range"),
    ("1", ":=", "[9 0]", "type"), ("[1 2]", ":=", "9", "type"),
    # Amend-in-Depth
    ("[[1 2] [3 4]]", ":-", "[9 1]", "range"), ("[[1 2] [3 4]]", ":-", "[[9 9] 1]", "range"),
    ("[1 2 3]", ":-", "[9 0 0]", "range"), ("[1 2 3]", ":-", "[9 3]", "range"),
    ('[1 "ab"]', ":-", "[0cx 1 0]", "range"), ('"abc"', ":-", "[0cx 0]", "type"),
    ("[]", ":-", "[1 0]", "type"), ("[1 2]", ":-", "[9]", "type"), ("[1 2]", ":-", "[9 0.0]", "type"),
    # Index-in-Depth
    ("[[1 2] [3 4]]", ":@", "[]", "type"), ("[[1 2] [3 4]]", ":@", "[0 [1]]", "type"),
    ('"abc"', ":@", "[1]", "type"), ('["ab" "cd"]', ":@", "[1 0]", "type"),
    ("[[1 2] [3 4]]", ":@", "[0 2]", "index"), ("[[1 2] [3 4]]", ":@", "[0 0 0]", "type"),
    ("[[1 2] [3 4]]", ":@", "[0 -1]", "index"),
    # Reshape
    ("[2 0]", ":^", "[1 2]", "domain"), ("-2", ":^", "[1 2]", "domain"), ("[-1 2]", ":^", "1", "domain"),
    ("-1", ":^", "[5]", "domain"), ("2.0", ":^", "[1 2]", "type"), ("[2 2.0]", ":^", "[1 2]", "type"),
    ("3", ":^", '""', "domain"), ("3", ":^", '[""]', "domain"), (":a", ":^", "1", "type"),
    # Join: a dictionary cannot be a key
    (":{}", ",", "[:{} 1]", "type"),
]


@pytest.mark.parametrize("a,verb,b,kind", DYAD_ERRORS)
def test_dyad_error(a, verb, b, kind):
    assert error_kind(DYADS[verb], a, b) == kind


# ---------------------------------------------------------------- At as Apply

def test_at_applies_functions():
    at, index_depth = DYADS["@"], DYADS[":@"]
    assert at(Fn(0, lambda: 123), []) == 123
    assert at(Fn(1, lambda x: x), make_list([456])) == 456
    assert at(Fn(2, lambda x, y: x + y), A([5, 7])) == 12
    assert at(Fn(3, lambda x, y, z: x + y + z), K("[5 7 9]")) == 21
    assert at(Fn(1, lambda x: -x), 4) == -4                       # an atom is the argument
    assert at(Fn(1, len), make_list([A([0, 1, 2])])) == 3         # f@,list
    assert at(Fn(1, lambda x: x), "abc") == "abc"                 # a string is one argument
    assert index_depth(Fn(2, lambda x, y: y + x * x), K("[2 3]")) == 7
    with pytest.raises(KlongError) as e:
        at(Fn(1, len), A([0, 1, 2]))                              # {#x}@[1 2 3]
    assert e.value.kind == "arity"


# ---------------------------------------------------------------- dictionaries and mutation

def test_join_inserts_into_a_dictionary_in_place():
    d = K(":{[1 2]}")
    assert DYADS[","](d, K("[3 4]")) is d
    assert write(d) == ":{[1 2] [3 4]}"
    assert DYADS[","](K("[1 9]"), d) is d                          # either order, replaces
    assert write(d) == ":{[1 9] [3 4]}"
    assert write(DYADS[","](K("[1 2]"), K(":{[1 0]}"))) == ":{[1 2]}"
    assert write(DYADS[","](d, K("[1 2 3]"))) == "[:{[1 9] [3 4]} 1 2 3]"   # not a pair


def test_dictionary_idiom_collects_keys():
    # D:::{};{D,x,x}'!5;s@<s::*'D --> [0 1 2 3 4]
    d = Dict()
    for i in range(5):
        DYADS[","](d, DYADS[","](i, i))
    keys = make_list([k for k, _ in d.pairs()])
    assert write(DYADS["@"](keys, MONADS["<"](keys))) == "[0 1 2 3 4]"


def test_drop_deletes_from_a_dictionary_in_place():
    d = K(":{[:foo :bar] [:goo :baz]}")
    assert DYADS["_"](S("foo"), d) is d
    assert write(d) == ":{[:goo :baz]}"
    assert DYADS["_"](S("nope"), d) is d and len(d) == 1


def test_verbs_do_not_change_their_arguments():
    a = A([0, 1, 2, 3, 4])
    lst = K('[1 "a" :b]')
    s = K("[[1 2] [3 4]]")
    DYADS[":="](a, K("[9 0 2]"))
    DYADS[":="](lst, K("[9 0]"))
    DYADS[":-"](s, K("[9 1 1]"))
    DYADS[":+"](2, a)
    MONADS["|"](lst)
    DYADS[","](a, 5)
    assert write(a) == "[0 1 2 3 4]" and write(lst) == '[1 "a" :b]' and write(s) == "[[1 2] [3 4]]"


# ---------------------------------------------------------------- representation details

def test_numeric_results_stay_arrays():
    a = A(range(10))
    array_type, int64 = backends.current().array_type, A([0]).dtype
    for r in (DYADS["#"](3, a), DYADS["#"](-13, a), DYADS["_"](2, a), DYADS[":+"](3, a),
              DYADS["@"](a, A([1, 1, 2])), DYADS[","](a, a), DYADS[","](a, 10),
              DYADS[","](-1, a), DYADS[":="](a, K("[7 1 2]")), MONADS["&"](A([1, 0, 2])),
              MONADS["^"](a), DYADS[":^"](A([2, 5]), a), MONADS["|"](a), MONADS["<"](a),
              MONADS["?"](a), DYADS["?"](a, 3), MONADS["!"](3), DYADS[":^"](3, 7)):
        assert isinstance(r, array_type) and r.dtype == int64
    assert isinstance(DYADS[":#"](5, a), array_type) and tuple(DYADS[":#"](5, a).shape) == (2, 5)
    assert type(DYADS["@"](a, 3)) is int and type(DYADS[":@"](A(range(4)).reshape(2, 2), [1, 0])) is int


def test_joining_mixed_numbers_gives_a_general_list():
    r = DYADS[","](A([0, 1]), 2.5)
    assert type(r) is list and write(r) == "[0 1 2.5]"
    big = DYADS[","](A([0, 1]), 2**70)
    assert write(big) == "[0 1 1180591620717411303424]"


def test_find_in_a_real_vector_uses_match_tolerance():
    a = A([0.3, 0.1 + 0.2, 0.31])
    assert DYADS["?"](a, 0.3).tolist() == [0, 1]
    assert DYADS["?"](A([0, 1, 2]), 2**70).tolist() == []


def test_group_and_range_of_reals_use_match():
    a = A([0.1 + 0.2, 1.0, 0.3])
    assert write(MONADS["="](a)) == "[[0 2] [1]]"
    assert write(MONADS["?"](a)) == "[0.3 1.0]"


def test_amend_in_depth_keeps_numeric_matrices_as_arrays():
    r = DYADS[":-"](A(range(4)).reshape(2, 2), K("[9 1 0]"))
    assert isinstance(r, backends.current().array_type) and r.tolist() == [[0, 1], [9, 3]]


def test_big_arrays_take_vectorised_paths():
    n = 1_000_000
    a = MONADS["!"](n)
    assert DYADS["#"](-3, a).tolist() == [n - 3, n - 2, n - 1]
    assert int(DYADS["@"](a, MONADS["|"](a))[0]) == n - 1
    assert MONADS["#"](MONADS["&"](a % 2)) == n // 2
    assert int(MONADS["|"](DYADS[":+"](1, a))[0]) == n - 2
    assert len(MONADS["?"](a % 7)) == 7 and len(MONADS["="](a % 3)) == 3
    assert DYADS["?"](a, 5).tolist() == [5]


def test_shell_grade_helper_matches_the_reference_procedure():
    # the generic path's own Shell sort and the vectorised one agree on strings with ties
    words = ["b", "a", "b", "c", "a", "b", "a", "c", "b"]
    assert ordering._shell_grade(words, False) == _reference_grade(words, False)
    assert ordering._shell_grade(words, True) == _reference_grade(words, True)
    assert MONADS["<"](make_list(words)).tolist() == _reference_grade(words, False)


# ---------------------------------------------------------------- torch: dtypes and gradients

@pytest.fixture
def torch_backend(backend):
    """The torch module, for the tests that only mean something on the torch backend."""
    if backend.name != "torch":
        pytest.skip("torch backend only")
    import torch
    return torch


def test_torch_results_are_tensors_of_the_right_dtype(torch_backend, backend):
    torch = torch_backend
    ints, reals = K("[3 1 2 1]"), K("[1.5 0.5 2.5]")
    assert ints.dtype == torch.int64 and reals.dtype == backend.float_dtype
    for r in (MONADS["!"](4), MONADS["<"](ints), MONADS[">"](reals), MONADS["^"](K("[[1 2] [3 4]]")),
              MONADS["&"](ints), DYADS["?"](ints, 1), DYADS["?"](reals, 0.5), DYADS["?"]("abcb", C("b")),
              MONADS["?"](ints), DYADS["#"](6, ints), DYADS[":^"](K("[2 2]"), 7),
              MONADS["<"](K('[1 2.5 0]'))):
        assert isinstance(r, torch.Tensor) and r.dtype == torch.int64, r
        assert r.device.type == backend.device.type
    for r in (DYADS["#"](5, reals), MONADS["|"](reals), DYADS[":+"](1, reals), MONADS["?"](reals),
              DYADS[","](reals, 4.0), DYADS[":="](reals, K("[9.0 1]")), DYADS[":^"](3, 1.5),
              DYADS["@"](reals, K("[2 0]"))):
        assert isinstance(r, torch.Tensor) and r.dtype == backend.float_dtype, r
    groups = MONADS["="](ints)
    assert all(isinstance(g, torch.Tensor) and g.dtype == torch.int64 for g in groups)
    assert write(groups) == "[[0] [1 3] [2]]"
    assert type(MONADS["*"](ints)) is int and type(DYADS["@"](reals, 1)) is float


def _leaf(torch, data):
    b = backends.current()
    return torch.tensor(data, dtype=b.float_dtype, device=b.device, requires_grad=True)


def _grad(torch, data, f, weights=None):
    """The gradient at `data` of sum(weights * f(x)) (f's result: a tensor or a list of them)."""
    x = _leaf(torch, data)
    r = f(x)
    parts = r if type(r) is list else [r]
    assert all(isinstance(p, torch.Tensor) and p.requires_grad for p in parts), r
    flat = torch.cat([p.reshape(-1) for p in parts])
    w = torch.ones_like(flat) if weights is None else torch.tensor(
        weights, dtype=flat.dtype, device=flat.device)
    (flat * w).sum().backward()
    return x.grad.tolist()


GRAD_CASES = [
    # (description, input, function of x, weights of the result or None, gradient)
    ("take", [1., 2., 3., 4.], lambda x: DYADS["#"](6, x), None, [2, 2, 1, 1]),
    ("take back", [1., 2., 3., 4.], lambda x: DYADS["#"](-2, x), None, [0, 0, 1, 1]),
    ("drop", [1., 2., 3., 4.], lambda x: DYADS["_"](1, x), None, [0, 1, 1, 1]),
    ("drop back", [1., 2., 3., 4.], lambda x: DYADS["_"](-3, x), None, [1, 0, 0, 0]),
    ("at", [1., 2., 3., 4.], lambda x: DYADS["@"](x, K("[3 3 0]")), None, [1, 0, 0, 2]),
    ("at nested", [1., 2., 3.], lambda x: DYADS["@"](x, K("[[0 1] [1 1]]")), None, [1, 3, 0]),
    ("join", [1., 2.], lambda x: DYADS[","](x, x), [1, 2, 3, 4], [4, 6]),
    ("join atom", [1., 2.], lambda x: DYADS[","](x, 5.0), [1, 2, 3], [1, 2]),
    ("atom join", [1., 2.], lambda x: DYADS[","](5.0, x), [1, 2, 3], [2, 3]),
    ("reverse", [1., 2., 3., 4.], lambda x: MONADS["|"](x), [1, 2, 3, 4], [4, 3, 2, 1]),
    ("rotate", [1., 2., 3., 4.], lambda x: DYADS[":+"](1, x), [1, 2, 3, 4], [2, 3, 4, 1]),
    ("rotate back", [1., 2., 3., 4.], lambda x: DYADS[":+"](-1, x), [1, 2, 3, 4], [4, 1, 2, 3]),
    ("reshape cycle", [1., 2., 3., 4.], lambda x: DYADS[":^"](K("[2 3]"), x), None, [2, 2, 1, 1]),
    ("reshape", [1., 2., 3., 4.], lambda x: DYADS[":^"](K("[2 2]"), x), [1, 2, 3, 4], [1, 2, 3, 4]),
    ("transpose", [[1., 2.], [3., 4.]], lambda x: MONADS["+"](x), [1, 2, 3, 4], [[1, 3], [2, 4]]),
    ("first", [1., 2., 3.], lambda x: MONADS["*"](x), None, [1, 0, 0]),
    ("first row", [[1., 2.], [3., 4.]], lambda x: MONADS["*"](x), [5, 7], [[5, 7], [0, 0]]),
    ("amend", [1., 2., 3., 4.], lambda x: DYADS[":="](x, K("[9.0 1 3]")), None, [1, 0, 1, 0]),
    ("amend in depth", [[1., 2.], [3., 4.]], lambda x: DYADS[":-"](x, K("[9.0 1 0]")), None,
     [[1, 1], [0, 1]]),
    ("index in depth", [[1., 2.], [3., 4.]], lambda x: DYADS[":@"](x, K("[1 0]")), None,
     [[0, 0], [1, 0]]),
    ("split", [1., 2., 3., 4., 5.], lambda x: DYADS[":#"](2, x), [1, 2, 3, 4, 5], [1, 2, 3, 4, 5]),
    ("split lengths", [1., 2., 3.], lambda x: DYADS[":#"](K("[1 2]"), x), [1, 2, 3], [1, 2, 3]),
    ("cut", [1., 2., 3.], lambda x: DYADS[":_"](K("[1]"), x), [1, 2, 3], [1, 2, 3]),
    ("range", [1., 2., 1.], lambda x: MONADS["?"](x), [3, 5], [3, 5, 0]),
    ("list", [1., 2.], lambda x: MONADS[","](x), None, [1, 1]),
    ("take of a matrix", [[1., 2.], [3., 4.]], lambda x: DYADS["#"](3, x), None, [[2, 2], [1, 1]]),
]


@pytest.mark.parametrize("what,data,f,weights,want", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_torch_gradients_flow_through_the_verbs(torch_backend, what, data, f, weights, want):
    assert _grad(torch_backend, data, f, weights) == want


def test_torch_gradients_flow_through_a_number(torch_backend):
    torch = torch_backend
    x = _leaf(torch, [2.0, -3.0])
    s = DYADS["@"](x, 1)                    # a 0-d tensor: a number with a gradient
    assert isinstance(s, torch.Tensor) and s.ndim == 0 and s.requires_grad
    r = DYADS[":^"](3, s)                   # 3 copies of it
    assert tuple(r.shape) == (3,) and r.requires_grad
    (r.sum() + MONADS["#"](s) + MONADS[","](s).sum() + DYADS[","](s, s).sum()).backward()
    assert x.grad.tolist() == [0, 3 - 1 + 1 + 2]


def test_torch_amend_with_a_value_that_carries_a_gradient(torch_backend):
    torch = torch_backend
    x = _leaf(torch, [1.0, 2.0])
    v = _leaf(torch, 5.0)
    r = DYADS[":="](x, make_list([v, 0]))
    assert write(r) == "[5.0 2.0]"
    r.sum().backward()
    assert x.grad.tolist() == [0, 1] and v.grad.item() == 1


def test_torch_keeps_the_argument_unchanged_when_amending(torch_backend):
    x = _leaf(torch_backend, [1.0, 2.0, 3.0])
    DYADS[":="](x, K("[9.0 0 2]"))
    DYADS[":-"](x.detach().reshape(3, 1), K("[9.0 0 0]"))
    assert x.tolist() == [1.0, 2.0, 3.0]


def test_at_looks_into_a_dictionary_as_an_extension():
    # the reference refuses d@k; the torch guide reads .export's dictionary with info@"graph"
    assert dyad("@", ":{[1 2] [3 4]}", "3") == "4"
    assert dyad("@", ":{[1 2]}", "5") == ":undefined"
    assert dyad("@", ':{["lr" 0.5]}', '"lr"') == "0.5"


@pytest.mark.parametrize("src, printed", [
    ("0,0.5+!3", "[0 0.5 1.5 2.5]"), ("(0.5+!2),0", "[0.5 1.5 0]"),
    ("(!2),0.5*!2", "[0 1 0.0 0.5]"), ("(0.5*!2),!2", "[0.0 0.5 0 1]"),
    ("*0,0.5+!2", "0"), ("*|(0.5+!2),3", "3"), ("1.5,[1 2]", "[1.5 1 2]"),
    ("[1 2],1.5", "[1 2 1.5]"), ("(0,0.5+!2)+1", "[1 1.5 2.5]"), ("0.0,0.5+!2", "[0.0 0.5 1.5]"),
])
def test_integers_joined_to_reals_keep_their_kinds(backend, src, printed):
    from klong import KlongInterpreter
    assert write(KlongInterpreter(backend=backend.name).run(src)) == printed


@pytest.mark.parametrize("src, printed", [
    ('[2 5 7]:_"hello world"', '["he" "llo" " w" "orld"]'),
    ('[0 0 11]:_"hello world"', '["" "" "hello world" ""]'),
    ("x::[5 9];(x@0),(x@1)", "[5 9]"),
    ("(1,2),(1.5,2.5)", "[1 2 1.5 2.5]"),
    ("(9223372036854775807,1),(9223372036854775808,1)",
     "[9223372036854775807 1 9223372036854775808 1]"),
    ('{x~|x}\'["abba" "abc" "" "a"]', "[1 0 1 1]"),
    ("v::0.5*!4;s::0,v;(|s),#|s", "[1.5 1.0 0.5 0.0 0 5]"),
])
def test_cut_of_a_text_at_join_of_two_numbers_and_reverse(backend, src, printed):
    assert write(KlongInterpreter(backend=backend.name).run(src)) == printed


@pytest.mark.parametrize("src, message", [
    ('[5 2 7]:_"hello world"', 'range error: cut [[5 2 7] "hello world"]: index 2 out of order or outside 0..11'),
    ('[2 5 12]:_"hello world"', 'range error: cut [[2 5 12] "hello world"]: index 12 out of order or outside 0..11'),
    ("x::[5 9];x@2", "index error: at [[5 9] 2]: index 2 out of range 0..1"),
])
def test_cut_of_a_text_and_at_fail_naming_the_index(backend, src, message):
    with pytest.raises(KlongError) as info:
        KlongInterpreter(backend=backend.name)(src)
    assert str(info.value) == message


# ---------------------------------------------------------------- List and Join of arrays
# (the array-to-array paths a step of a loop takes: ,r and (x#a),(,r),(x+1)_a)

@pytest.mark.parametrize("src, printed, kind", [
    (",[1.5 2.0]", "[[1.5 2.0]]", "float64"),
    (",[[1 2] [3 4]]", "[[[1 2] [3 4]]]", "int64"),
    (",[]", "[[]]", None),
    ("[[1 2] [3 4]],[[5 6]]", "[[1 2] [3 4] [5 6]]", "int64"),
    ("[[1.0 2.0]],[[3.5 4.0] [5.0 6.0]]", "[[1.0 2.0] [3.5 4.0] [5.0 6.0]]", "float64"),
    ("[1 2],[3.5 4.0]", "[1 2 3.5 4.0]", None),
    ("[[1 2]],[[5.0 6.0]]", "[[1 2] [5.0 6.0]]", None),
    ("[[1 2]],[[5 6 7]]", "[[1 2] [5 6 7]]", None),
    ("[[1 2]],[5 6 7]", "[[1 2] 5 6 7]", None),
    ("[],[1 2]", "[1 2]", "int64"),
])
def test_list_and_join_of_arrays(backend, src, printed, kind):
    k = KlongInterpreter(backend=backend.name)
    r = k.run(src)
    assert write(r) == printed
    assert (str(r.dtype).replace("torch.", "") if values.is_array(r) else None) == kind


def test_list_and_join_of_arrays_keep_the_size_guard(backend):
    k = KlongInterpreter(backend=backend.name, max_elements=12)
    k("a::[[1 2 3] [4 5 6]];b::2#,[1 2 3]")
    assert write(k.run("a,b")) == "[[1 2 3] [4 5 6] [1 2 3] [1 2 3]]"
    assert write(k.run(",a,b")) == "[[[1 2 3] [4 5 6] [1 2 3] [1 2 3]]]"
    with pytest.raises(KlongError) as info:
        k("(a,b),[[7 8 9]]")
    assert (info.value.kind, info.value.message) == (
        "range", "too many elements: 15 (the limit is 12, set by KLONG_MAX_ELEMENTS)")


def test_a_joined_array_is_a_new_array(backend):
    """v,w and ,v hold no view of their operands: writing into them leaves v and w as
    they were."""
    B = backends.current()
    v, w = A([1.0, 2.0]), A([3.0])
    joined, listed = structural.join(v, w), structural.list_(v)
    assert not B.may_share(joined, v) and not B.may_share(listed, v)
    assert write(joined) == "[1.0 2.0 3.0]" and write(listed) == "[[1.0 2.0]]"
