"""The atomic verbs (klong/verbs/atomic.py), tested directly on Klong values, on every
backend: each test runs once with numpy and once with torch as the active backend.

Expected results are written in Klong's printed (write) form, so a case checks the value and
its integer/real types at once. Most cases are the examples of verbs.md and the conformance
cases of the verbs' sections, with the Klong expression they stand for in a comment.

Test data is written with numpy (parameters are built before a backend is chosen); `on`
moves it onto the active backend before a verb sees it, and every result is checked to be
in the active backend's canonical form (`assert_canonical`).
"""
import operator

import numpy as np
import pytest

from klong import backends
from klong.backends import arrays
from klong.runtime import values
from klong.runtime.display import write
from klong.errors import KlongError
from klong.runtime.values import Char, Dict, Function, Symbol, UNDEFINED, make_list
from klong.verbs import VERBS, atomic
from klong.verbs.atomic import MONADS

# The dyads as Klong runs them (the registry's, with their shortcuts), and the general path
# alone (atomic.py's table: the same parts, no shortcut)
DYADS = {symbol: VERBS[symbol].dyad for symbol in atomic.DYADS}
GENERAL = atomic.DYADS


@pytest.fixture(autouse=True, params=["numpy", "torch"])
def backend(request):
    """Run the test with the named backend active."""
    try:
        b = backends.get_backend(request.param)
    except ValueError as e:             # torch not installed
        pytest.skip(str(e))
    with backends.using(b):
        yield b


def I(*xs):
    return np.array(xs, dtype=np.int64)


def F(*xs):
    return np.array(xs, dtype=np.float64)


def L(*xs):
    """A list in canonical form; strings stay strings."""
    return make_list(list(xs))


C = Char
S = Symbol


def on(v):
    """Test data on the active backend: numpy arrays become its arrays, inside lists too."""
    if isinstance(v, np.ndarray):
        return backends.current().asarray(v)
    if type(v) is list:
        return [on(e) for e in v]
    return v


def host(v):
    """A result with the backend's arrays as numpy arrays, for printing and comparing."""
    if values.is_array(v):
        return backends.current().to_host(v)
    if type(v) is list:
        return [host(e) for e in v]
    return v


def B():
    return backends.current()


def dtypes():
    """The active backend's integer and real array dtypes."""
    return B().asarray([0], "i").dtype, B().asarray([0.0], "f").dtype


def assert_canonical(v):
    """Results use only the value model's forms: Python scalars, int64/float64 arrays of the
    active backend, Python lists (never numpy scalars, 0-d, bool or object arrays, nor
    arrays of another backend)."""
    assert not isinstance(v, np.generic), repr(v)
    if isinstance(v, arrays.ARRAY_TYPES):
        assert B().is_array(v), (type(v), B())
        assert v.ndim >= 1 and v.dtype in dtypes(), (v.dtype, v.shape)
    elif type(v) is list:
        for e in v:
            assert_canonical(e)


def dyad(verb, a, b):
    r = DYADS[verb](on(a), on(b))
    assert_canonical(r)
    return write(host(r))


def monad(verb, a):
    r = MONADS[verb](on(a))
    assert_canonical(r)
    return write(host(r))


def error_kind(fn, *args):
    with pytest.raises(KlongError) as e:
        fn(*[on(a) for a in args])
    return e.value.kind


class F0(Function):
    arity = 1


# ---------------------------------------------------------------- tables

def test_tables_hold_every_verb():
    assert set(MONADS) == {"-", "%", "_", "~", ":#", "$"}
    assert set(GENERAL) == {"+", "-", "*", "%", ":%", "!", "^", "|", "&", "=", "<", ">", "~",
                          "$", ":$"}


# ---------------------------------------------------------------- atomic extension

@pytest.mark.parametrize("a, b, expected", [
    (1, 1, "2"),
    (L(1, I(2), 3), 1, "[2 [3] 4]"),                            # [1 [2] 3]+1
    (1, L(1, I(2), 3), "[2 [3] 4]"),
    (I(1, 2, 3), I(4, 5, 6), "[5 7 9]"),
    (np.array([[1, 2], [3, 4]]), I(10, 20), "[[11 12] [23 24]]"),  # first axis, not numpy's
    (I(10, 20), np.array([[1, 2], [3, 4]]), "[[11 12] [23 24]]"),
    (np.arange(8).reshape(2, 2, 2), I(100, 200), "[[[100 101] [102 103]] [[204 205] [206 207]]]"),
    (np.arange(8).reshape(2, 2, 2), np.array([[0, 10], [20, 30]]),
     "[[[0 1] [12 13]] [[24 25] [36 37]]]"),
    (L(I(1, 2), 3), I(10, 20), "[[11 12] 23]"),                 # Python list with an array
    (L(1, L(2, I(3, 4))), L(10, L(20, I(30, 40))), "[11 [22 [33 44]]]"),
    (np.int64(2), 3, "5"),                                      # numpy scalars are accepted
    (2, np.float64(0.5), "2.5"),
])
def test_plus_extension(a, b, expected):
    assert dyad("+", a, b) == expected


@pytest.mark.parametrize("a, b", [
    (I(1, 2), I(1, 2, 3)),
    (I(1, 2), []),                                              # [1 2]+[]
    ([], I(1, 2)),
    (L(1, I(2, 3)), L(1, I(2))),
    (np.zeros((2, 3), dtype=np.int64), np.zeros((2, 4), dtype=np.int64)),
    (np.zeros((2, 3), dtype=np.int64), np.zeros((3,), dtype=np.int64)),
    (np.zeros((2, 3), dtype=np.int64), L(1, I(1, 2))),
])
def test_length_errors(a, b):
    assert error_kind(DYADS["+"], a, b) == "length"


@pytest.mark.parametrize("a, b", [
    ([], 1), (1, []), ([], []), (np.zeros(0, dtype=np.int64), 1),
    ("abc", 1), (1, "a"), (C("a"), 1), (S("a"), 1), (1, UNDEFINED), (Dict(), 1), (F0(), 1),
    (L(1, "x"), 1), (I(1, 2), L(1, S("x"))),
])
def test_arithmetic_type_errors(a, b):
    for verb in "+-*%^|&":
        assert error_kind(DYADS[verb], a, b) == "type"
    for verb in (":%", "!"):
        assert error_kind(DYADS[verb], a, b) == "type"


def test_arguments_are_not_mutated():
    a = on(np.array([[1, 2], [3, 4]]))
    b = on(I(10, 20))
    c = on(F(1.5, -2.5))
    for verb in "+-*%^|&=<>":
        DYADS[verb](a, b)
        DYADS[verb](c, 2)
    for verb in "-%_~":
        MONADS[verb](a)
        MONADS[verb](c)
    assert a.tolist() == [[1, 2], [3, 4]] and b.tolist() == [10, 20]
    assert c.tolist() == [1.5, -2.5]


# ---------------------------------------------------------------- Plus, Minus, Times

@pytest.mark.parametrize("a, b, expected", [
    (1, 1, "2"), (456, -123, "333"), (-456, -123, "-579"), (4.56, 1.23, "5.79"),
    (-4.56, 1.23, "-3.33"), (1.23, -4.56, "-3.33"), (1, 0.5, "1.5"), (2.0, 1, "3.0"),
    (I(1, 2, 3, 4), 1, "[2 3 4 5]"), (1, I(1, 2, 3, 4), "[2 3 4 5]"),
    (I(1, 2), 0.5, "[1.5 2.5]"), (F(1.5, 2.5), I(1, 1), "[2.5 3.5]"),
    (2**62, 2**62, "9223372036854775808"),                    # scalar integers are exact
    (I(1, 2), 2**70, "[1180591620717411303425 1180591620717411303426]"),  # beyond int64
    (L(2**70, I(1)), 1, "[1180591620717411303425 [2]]"),
    (I(1, 2), 0.1, "[1.1 2.1]"), (0.1, I(1, 2), "[1.1 2.1]"),  # reals in full precision
    (I(16777217), 0.5, "[16777217.5]"), (F(0.1), I(1), "[1.1]"),
    (I(2**62), I(2**62), "[9223372036854775808]"),             # int64 arrays never wrap
])
def test_plus(a, b, expected):
    assert dyad("+", a, b) == expected


@pytest.mark.parametrize("a, b, expected", [
    (0, 1, "-1"), (456, 123, "333"), (456, -123, "579"), (-123, -456, "333"),
    (4.56, 1.23, "3.33"), (-1.23, -4.56, "3.33"), (1.23, 4.56, "-3.33"),
    (I(1, 2, 3, 4), 1, "[0 1 2 3]"), (1, I(1, 2, 3, 4), "[0 -1 -2 -3]"),
    (I(1, 2, 3), I(4, 5, 6), "[-3 -3 -3]"), (L(1, I(2), 3), 1, "[0 [1] 2]"),
])
def test_minus(a, b, expected):
    assert dyad("-", a, b) == expected


@pytest.mark.parametrize("a, b, expected", [
    (0, 1, "0"), (456, -123, "-56088"), (-456, -123, "56088"), (4.56, 1.23, "5.6088"),
    (-4.56, 1.23, "-5.6088"), (3, I(1, 2, 3, 4), "[3 6 9 12]"),
    (I(1, 2, 3), I(4, 5, 6), "[4 10 18]"),
    (L(1, I(2), 3), 3, "[3 [6] 9]"), (I(1, 2), 1.5, "[1.5 3.0]"),
    (2**40, 2**40, "1208925819614629174706176"), (L(2**70, 3), 2, "[2361183241434822606848 6]"),
])
def test_times(a, b, expected):
    assert dyad("*", a, b) == expected


def test_vector_results_keep_dtype():
    int_t, real_t = dtypes()
    a = B().arange(10)
    f = B().asarray([0.5, 1.5], "f")
    cases = [
        (DYADS["*"](a, a), int_t), (DYADS["+"](a, 1.0), real_t), (DYADS["+"](1.0, a), real_t),
        (DYADS["-"](a[:2], f), real_t), (DYADS["<"](a, 5), int_t), (DYADS["="](f, 0.5), int_t),
        (DYADS["%"](a + 1, 2), real_t), (DYADS["%"](2, a + 1), real_t), (MONADS["%"](a + 1), real_t),
        (DYADS[":%"](a, 3), int_t), (DYADS["!"](a, 3), int_t), (DYADS["!"](7, a + 1), int_t),
        (DYADS["^"](a, 2), int_t), (DYADS["^"](2, a), int_t), (DYADS["^"](a, 0.5), real_t),
        (DYADS["^"](f, 2), real_t), (DYADS["^"](2.0, a + 1), real_t),
        (DYADS["|"](a, 3), int_t), (DYADS["&"](f, 1.0), real_t),
        (MONADS["-"](a), int_t), (MONADS["-"](f), real_t), (MONADS["_"](f), int_t),
        (MONADS["~"](f), int_t),
    ]
    for r, dtype in cases:
        assert B().is_array(r) and r.dtype == dtype, (r, dtype)


@pytest.mark.parametrize("verb, op", [("+", "add"), ("-", "sub"), ("*", "mul")])
def test_the_fast_path_for_reals_agrees_with_the_general_one(verb, op):
    """+ - * take a shorter way for real arrays the library combines as they are
    (_plain_reals); the same verb built without it must give the same value, kind and bits
    for those operands, and the others must not take it."""
    from klong.verbs.atomic import _plain_reals
    general = GENERAL[verb]
    r = B().asarray([0.5, -1.25, 3.0e300, 7.0], "f")
    m = B().asarray(np.arange(6.0).reshape(3, 2) / 7, "f")
    zero_d = B().asarray(2.5, "f").reshape(())
    plain = [(r, r), (r, 1.5), (1.5, r), (m, m), (m, 0.25), (r, zero_d), (zero_d, m)]
    others = [(r, 2), (B().arange(4), r), (m, B().asarray([1.0, 2.0, 3.0], "f")),
              (zero_d, 1.5), (zero_d, zero_d), (B().asarray(np.zeros(0), "f"), 1.5),
              (r, [1.0, 2.0, 3.0, 4.0])]
    for a, b in plain:
        assert _plain_reals(a, b)
        fast, slow = DYADS[verb](a, b), general(a, b)
        assert_canonical(fast)
        assert fast.dtype == slow.dtype and np.array_equal(host(fast), host(slow))
    for a, b in others:
        assert not _plain_reals(a, b)


@pytest.mark.parametrize("verb", ["+", "-", "*"])
def test_real_arrays_of_two_ranks_take_the_fast_path_aligned(verb):
    """+ - * of real arrays of different ranks whose leading axes agree (_ranked_reals):
    aligned, then the library's operation, with the general path's value, kind and bits;
    leading axes that differ give the general path's length error."""
    from klong.verbs.atomic import _ranked_reals
    general = GENERAL[verb]
    c = B().asarray([0.5, -1.25, 3.0e300], "f")
    m = B().asarray(np.arange(6.0).reshape(3, 2) / 7, "f")
    t = B().asarray(np.arange(12.0).reshape(3, 2, 2) / 3, "f")
    for a, b in [(c, m), (m, c), (c, t), (t, m), (m, t)]:
        assert _ranked_reals(a, b)
        fast, slow = DYADS[verb](a, b), general(a, b)
        assert_canonical(fast)
        assert fast.dtype == slow.dtype and np.array_equal(host(fast), host(slow))
    for a, b in [(m, m), (c, c), (c, B().arange(3)), (m, 1.5), (m[:0], c[:0])]:
        assert not _ranked_reals(a, b)
    short = B().asarray([1.0, 2.0], "f")
    assert _ranked_reals(short, m) is False
    for fn in (DYADS[verb], general):
        with pytest.raises(KlongError) as e:
            fn(short, m)
        assert str(e.value) == "length error: lists of different lengths"


def test_the_power_shortcut_agrees_with_the_general_path():
    """A real array raised to a positive Python integer (x^2 in a loss) takes a shorter way
    (real_power): the same value, kind and bits as ^ built without it; other operands
    decline it."""
    from klong.verbs.atomic import real_power
    general = GENERAL["^"]
    r = B().asarray([0.5, -1.25, 3.0e200, 7.0, 0.0], "f")
    m = B().asarray(np.arange(6.0).reshape(3, 2) / 7 - 0.3, "f")
    for a, b in [(r, 1), (r, 2), (r, 3), (m, 2), (m, 7)]:
        fast, slow = DYADS["^"](a, b), general(a, b)
        assert real_power(a, b) is not None
        assert_canonical(fast)
        assert fast.dtype == slow.dtype and np.array_equal(host(fast), host(slow))
    for a, b in [(r, 0), (r, -1), (r, 0.5), (B().arange(3), 2), (2.0, 3),
                 (B().asarray(np.zeros(0), "f"), 2), (r, True)]:
        assert real_power(a, b) is None


@pytest.mark.parametrize("verb", ["+", "-", "*", "%", "^", "|", "&", "<", ">", "="])
def test_numbers_being_differentiated_go_straight_to_the_atom_function(verb):
    """A 0-d real carrying a gradient beside a Python number (or another such) reaches the
    atom function as it is, by the general path too: the shortcut must give the same."""
    if B().name != "torch":
        pytest.skip("numbers carry gradients on torch")
    import torch
    from klong.verbs.atomic import differentiated
    taken = differentiated(lambda a, b: "straight")
    x = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
    y = torch.tensor(-2.0, dtype=torch.float64, requires_grad=True)
    for a, b in [(x, 3), (x, 0.25), (2, x), (-0.5, x), (x, y), (x, 0), (0.0, x)]:
        assert taken(a, b) == "straight"
        r = DYADS[verb](a, b)
        for want in (_by_the_general_path(verb, a, b), GENERAL[verb](a, b)):
            if isinstance(want, torch.Tensor):
                assert isinstance(r, torch.Tensor) and r.requires_grad == want.requires_grad
                assert torch.equal(r.detach(), want.detach())
            else:
                assert r == want and type(r) is type(want)
    untracked = torch.tensor(1.5, dtype=torch.float64)
    for a, b in [(untracked, 3), (x, untracked), (x, [1, 2]), (x, B().arange(3))]:
        assert taken(a, b) is None


def _by_the_general_path(verb, a, b):
    """What DYADS[verb] gives for two numbers when no shortcut is taken: its atom function
    on the operands as _atom leaves them."""
    from klong.verbs import atomic
    num = {"+": operator.add, "-": operator.sub, "*": atomic.times, "%": atomic._divide,
           "^": atomic._power, "|": atomic._max, "&": atomic._min}.get(verb)
    if num is None:
        op = {"<": operator.lt, ">": operator.gt, "=": operator.eq}[verb]
        return 1 if op(a, b) else 0
    return num(a, b)


def test_the_registry_declares_the_shortcuts():
    """Every numeric atomic dyad takes numbers being differentiated (last); + - * and ^ have
    their own shortcut besides (+ - * two: integers, reals; % | & one: reals; ! one:
    integers; < > = one: an array beside a number of its kind, or two arrays of one kind
    and shape), and + - * % < > = one for a list of integers and reals beside reals; the
    other dyads none (they are the general path itself)."""
    declared = {s: len(v.shortcuts) for s, v in VERBS.items() if v.shortcuts}
    assert declared == {"+": 4, "-": 4, "*": 4, "^": 2, "%": 3, ":%": 1, "!": 2, "|": 2,
                        "&": 2, "<": 3, ">": 3, "=": 3}
    assert all(VERBS[s].dyad is not GENERAL[s] for s in declared)
    assert VERBS["$"].dyad is GENERAL["$"] and VERBS["~"].dyad is GENERAL["~"]


def _operands():
    """Operands of every form a dyad meets: numbers, 0-d arrays, int and real arrays of
    several shapes (empty too), nested Python lists, and what is not a number."""
    i = B().asarray([3, -1, 7, 0], "i")
    r = B().asarray([0.5, -1.25, 3.0e300, 2.0], "f")
    m = B().asarray(np.arange(8.0).reshape(4, 2) / 7 - 0.5, "f")
    zero_i, zero_r = B().asarray(5, "i").reshape(()), B().asarray(-2.5, "f").reshape(())
    empty = B().asarray(np.zeros(0), "f")
    # reals with a zero (a divisor giving :undefined), and a matrix of 4 rows of reals (paired
    # with r, a vector of its length) with a zero in it
    zeros = B().asarray([2.0, 0.0, -0.0, 1.5], "f")
    m0 = B().asarray(np.array([[1.0, 0.0], [2.0, 3.0], [-1.0, 4.0], [0.5, 0.25]]), "f")
    # lists of integers and reals (general lists), as long as r: with a zero, with an
    # integer past 2^53, with inf
    mixed = [[0, 0.5, -3, 2.0], [7, 0.0, 2, -1.25], [2**53 + 1, 0.5, 1, 2.0],
             [1, float("inf"), 2, 0.5], [1, 2.5]]
    return [3, -2, 0, 0.0, 2.5, -0.5, 2**70, zero_i, zero_r, i, r, m, empty, zeros, m0,
            [1, r[:2]], [2.5, 3], "ab", C("x"), []] + mixed


@pytest.mark.parametrize("verb", ["+", "-", "*", "^", "%", ":%", "!", "|", "&", "<", ">",
                                  "="])
def test_every_shortcut_agrees_with_the_general_path(verb):
    """For every pair of operands, the verb as Klong runs it (shortcuts first) gives what
    the general path alone gives: the same printed value and element types, or the same
    error."""
    def outcome(fn, a, b):
        try:
            r = fn(a, b)
        except KlongError as e:
            return ("error", e.kind, e.message)
        assert_canonical(r)
        kind = str(r.dtype) if values.is_array(r) else type(r).__name__
        return write(host(r)), kind

    with np.errstate(all="ignore"):
        for a in _operands():
            for b in _operands():
                assert outcome(DYADS[verb], a, b) == outcome(GENERAL[verb], a, b), (a, b)


# ---------------------------------------------------------------- Divide, Reciprocal

@pytest.mark.parametrize("a, b, expected", [
    (0, 1, "0.0"), (1, 2, "0.5"), (2, 1, "2.0"), (-1, 2.0, "-0.5"), (10, 8, "1.25"),
    (10, 2, "5.0"), (1, 1.0, "1.0"), (0, -1, "0.0"),
    (I(1, 2, 3, 4, 5), 2.0, "[0.5 1.0 1.5 2.0 2.5]"), (2.0, I(2, 4, 8, 10), "[1.0 0.5 0.25 0.2]"),
    (L(10, I(20), 30), I(1, 2, 3), "[10.0 [10.0] 10.0]"),
    (1, 0, ":undefined"), (1.0, 0.0, ":undefined"), (1, 0.0, ":undefined"), (0, 0, ":undefined"),
    (1, I(1, 0), "[1.0 :undefined]"), (I(1, 2), 0, "[:undefined :undefined]"),
    (np.array([[1, 2], [3, 4]]), I(1, 0), "[[1.0 2.0] [:undefined :undefined]]"),
    (1, 3, "0.333333333333333"),
    # reals (the shortcut's operands): by a real, of a real, pairwise, a matrix by a vector
    # of its length; a zero divisor among them gives :undefined
    (np.array([1.5, -3.0]), 2.0, "[0.75 -1.5]"), (2.0, np.array([4.0, -0.5]), "[0.5 -4.0]"),
    (np.array([1.0, 2.0]), np.array([4.0, -8.0]), "[0.25 -0.25]"),
    (np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([2.0, -4.0]), "[[0.5 1.0] [-0.75 -1.0]]"),
    (np.array([1.0, 2.0]), 0.0, "[:undefined :undefined]"),
    (np.array([1.0, 2.0]), np.array([-0.0, 2.0]), "[:undefined 1.0]"),
    (np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([0.0, 1.0]), "[[:undefined :undefined] [3.0 4.0]]"),
])
def test_divide(a, b, expected):
    assert dyad("%", a, b) == expected


def test_divide_by_zero_gives_undefined_itself():
    assert DYADS["%"](1, 0) is UNDEFINED
    assert MONADS["%"](0) is UNDEFINED


@pytest.mark.parametrize("a, expected", [
    (1, "1.0"), (2, "0.5"), (4, "0.25"), (10, "0.1"), (0.01, "100.0"), (0.5, "2.0"),
    (-1, "-1.0"), (-4, "-0.25"), (-0.1, "-10.0"), (0, ":undefined"),
    (L(1, F(-2.0), 0.5), "[1.0 [-0.5] 2.0]"), (L(1, I(-2), 0.5), "[1.0 [-0.5] 2.0]"),
    (I(1, 2, 4), "[1.0 0.5 0.25]"), (I(2, 0), "[0.5 :undefined]"),
])
def test_reciprocal(a, expected):
    assert monad("%", a) == expected


@pytest.mark.parametrize("a", [[], "x", C("x"), S("x"), UNDEFINED, L(1, "x")])
def test_reciprocal_and_negate_type_errors(a):
    assert error_kind(MONADS["%"], a) == "type"
    assert error_kind(MONADS["-"], a) == "type"


# ---------------------------------------------------------------- Integer-Divide, Remainder

@pytest.mark.parametrize("a, b, expected", [
    (0, 1, "0"), (2, 1, "2"), (1, 2, "0"), (-7, 2, "-3"), (7, -2, "-3"), (-7, -2, "3"),
    (-1, 2, "0"), (10, 8, "1"), (-2, 1, "-2"),
    (I(1, 2, 3, 4, 5), 2, "[0 1 1 2 2]"), (100, I(2, 4, 8, 10), "[50 25 12 10]"),
    (L(10, I(20), 30), I(1, 2, 3), "[10 [10] 10]"),
    (I(-7, 7, -7, 7), I(2, -2, -2, 2), "[-3 -3 3 3]"),
    (10**30, 7, "142857142857142857142857142857"),
])
def test_integer_divide(a, b, expected):
    assert dyad(":%", a, b) == expected


@pytest.mark.parametrize("a, b, expected", [
    (0, 1, "0"), (2, 1, "0"), (1, 2, "1"), (17, 5, "2"), (-17, 5, "-2"), (17, -5, "2"),
    (-17, -5, "-2"), (246, 123, "0"), (I(1, 2, 3), 2, "[1 0 1]"),
    (I(17, -17, 17, -17), I(5, 5, -5, -5), "[2 -2 2 -2]"), (L(-7, I(7)), 3, "[-1 [1]]"),
])
def test_remainder(a, b, expected):
    assert dyad("!", a, b) == expected


@pytest.mark.parametrize("a, b", [(7, -2), (-7, 2), (-7, -3), (12, 4), (0, 5)])
def test_divide_and_remainder_agree(a, b):
    q, r = DYADS[":%"](a, b), DYADS["!"](a, b)
    assert a == b * q + r
    qa, ra = DYADS[":%"](on(I(a)), on(I(b))), DYADS["!"](on(I(a)), on(I(b)))
    assert (qa.tolist(), ra.tolist()) == ([q], [r])
    assert DYADS[":%"](a, on(I(b))).tolist() == [q] and DYADS["!"](a, on(I(b))).tolist() == [r]


@pytest.mark.parametrize("verb", [":%", "!"])
@pytest.mark.parametrize("a, b, kind", [
    (1, 0, "domain"), (I(1, 2), 0, "domain"), (1, I(1, 0), "domain"),
    (7, 2.0, "type"), (1.5, 2, "type"), (F(7.0), 2, "type"), (I(7), F(2.0), "type"),
    (C("a"), 1, "type"),
])
def test_integer_division_errors(verb, a, b, kind):
    assert error_kind(DYADS[verb], a, b) == kind


# ---------------------------------------------------------------- Power

@pytest.mark.parametrize("a, b, expected", [
    (2, 8, "256"), (2, -2, "0.25"), (-2, 3, "-8"), (-2, -3, "-0.125"), (0, 0, "1"),
    (2.5, 0, "1"), (0.0, 0, "1"), (2.0, 3, "8.0"), (1, -1, "1.0"), (-1, -1, "-1.0"),
    (-1, -2, "1.0"), (0, 1, "0"), (0, -1, ":undefined"), (0.0, -2, ":undefined"),
    (1, 0.5, "1.0"), (4, 0.5, "2.0"), (2, 0.5, "1.4142135623731"), (2, 3.0, "8.0"),
    (2, 0.0, "1.0"), (0, 0.5, "0.0"), (-2, 3.0, "-8.0"),
    (-2, 0.5, ":undefined"), (-8, 1 / 3, ":undefined"), (0, -0.5, ":undefined"),
    (2, 100, "1267650600228229401496703205376"),
    (L(1, 2, I(3), 4, 5), 2, "[1 4 [9] 16 25]"), (2, L(1, 2, I(3), 4, 5), "[2 4 [8] 16 32]"),
    (I(1, 2, 3), 2, "[1 4 9]"), (2, I(0, 1, 2), "[1 2 4]"), (I(2, 3), I(3, 2), "[8 9]"),
    (I(2, 4), -1, "[0.5 0.25]"), (I(2, 0), -1, "[0.5 :undefined]"),
    (F(2.0, 3.0), 2, "[4.0 9.0]"), (F(2.0, 3.0), 0, "[1 1]"), (F(2.0, 3.0), I(0, 1), "[1 3.0]"),
    (I(4, 9), 0.5, "[2.0 3.0]"), (I(4, -9), 0.5, "[2.0 :undefined]"), (I(-2), 2.0, "[4.0]"),
    (I(2, 3), 70, "[1180591620717411303424 2503155504993241601315571986085849]"),
    (I(0, 1), 100, "[0 1]"),
])
def test_power(a, b, expected):
    assert dyad("^", a, b) == expected


def test_power_results_match_repeated_multiplication():
    assert DYADS["^"](3, 40) == 3**40
    assert DYADS["^"](on(I(3)), 39).tolist() == [3**39]


# ---------------------------------------------------------------- Max, Min

@pytest.mark.parametrize("a, b, expected", [
    (0, 1, "1"), (-123, -456, "-123"), (1.23, -4.56, "1.23"), (123, 123.1, "123.1"),
    (2, 1.5, "2"), (1.5, 2, "2"), (123, 123.0, "123"), (123.0, 123, "123.0"),
    (I(1, 2, 3, 4), 2, "[2 2 3 4]"), (2, I(1, 2, 3, 4), "[2 2 3 4]"),
    (I(1, 5, 3), I(4, 2, 6), "[4 5 6]"), (L(1, I(2), 3), 2, "[2 [2] 3]"),
    (I(1, 5, 3), F(4.0, 2.0, 6.0), "[4.0 5 6.0]"),            # each result keeps its type
    (I(5, 6), F(1.0, 2.0), "[5 6]"), (I(1, 2), F(5.0, 6.0), "[5.0 6.0]"),
    (I(1, 2), 1.0, "[1 2]"), (F(1.0, 2.0), 2, "[2 2.0]"), (F(3.0, 4.0), 2, "[3.0 4.0]"),
    (I(16777217), 16777216.0, "[16777217]"),                   # compared in full precision
    (np.array([[1, 5], [7, 2]]), I(4, 3), "[[4 5] [7 3]]"),
])
def test_max(a, b, expected):
    assert dyad("|", a, b) == expected


@pytest.mark.parametrize("a, b, expected", [
    (0, 1, "0"), (1, 1, "1"), (123, -456, "-456"), (-4.56, -1.23, "-4.56"),
    (123.1, 123, "123"), (123, 123.1, "123"), (123, 123.0, "123.0"), (1.0, 1, "1"),
    (I(1, 2, 3, 4), 2, "[1 2 2 2]"), (2, I(1, 2, 3, 4), "[1 2 2 2]"),
    (I(1, 5, 3), I(4, 2, 6), "[1 2 3]"), (L(1, I(2), 3), 2, "[1 [2] 2]"),
    (I(1, 5), F(4.0, 2.0), "[1 2.0]"), (F(1.0, 2.0), 2, "[1.0 2]"),
])
def test_min(a, b, expected):
    assert dyad("&", a, b) == expected


def _edge_reals(seed, n=400):
    """Reals with NaN, infinities, 0.0, -0.0 and repeated values among them."""
    rng = np.random.default_rng(seed)
    a = rng.choice([np.nan, np.inf, -np.inf, 0.0, -0.0, 0.25, -0.25, 1.5], n)
    return np.where(rng.random(n) < 0.5, rng.random(n) - 0.5, a)


def _bits(v):
    """The elements of reals (numpy, or Python floats) as comparable text: NaN, the sign
    of a zero."""
    return [("nan" if x != x else repr(x)) for x in np.asarray(v, dtype=float).ravel()]


@pytest.mark.parametrize("verb, pick", [("|", lambda a, b: a if a >= b else b),
                                        ("&", lambda a, b: a if a < b else b)])
def test_max_and_min_of_reals_pick_the_operand_the_comparison_picks(verb, pick):
    """Max and Min of reals go through the library's fmax and fmin, or maximum and minimum,
    where those give the element Max's a>=b (Min's a<b) picks, down to NaN and which zero;
    each result is compared with that choice made element by element."""
    a, b = _edge_reals(1), _edge_reals(2)
    numbers = [np.nan, 0.0, -0.0, 0.25, -0.25, np.inf]
    cases = [(a, b), (b, a), (a, -a), (a, a[::-1].copy())] + \
        [(a, x) for x in numbers] + [(x, a) for x in numbers]
    for x, y in cases:
        expected = [pick(p, q) for p, q in np.broadcast(x, y)]
        assert _bits(host(DYADS[verb](on(x), on(y)))) == _bits(expected), (x, y)


# ---------------------------------------------------------------- Equal, Less, More

@pytest.mark.parametrize("a, b, expected", [
    (123, 123.0, "1"), (1.23, 123, "0"), (-1.23, -1.23, "1"), (123, -123, "0"),
    (C("a"), C("a"), "1"), (C("a"), C("z"), "0"), ("", "", "1"), ("x", "x", "1"),
    ("test", "test", "1"), ("test", "tesz", "0"), ("test", "tes", "0"), ("tes", "test", "0"),
    (S("foo"), S("foo"), "1"), (S("foo"), S("fo"), "0"),
    (I(1, 2, 3), I(1, 2, 3), "[1 1 1]"), (1, I(1, 1, 1), "[1 1 1]"), (I(1, 1, 1), 2, "[0 0 0]"),
    (L(1, L(2, L(S("x")))), L(1, L(2, L(S("x")))), "[1 [1 [1]]]"),
    (L(1, L(0, L(S("x")))), L(1, L(2, L(S("x")))), "[1 [0 [1]]]"),
    (L("ab", "cd"), "ab", "[1 0]"), (I(1, 2), F(1.0, 2.5), "[1 0]"),
    ("abc", "abd", "0"),                                         # a string is one value
    (I(16777217), 16777216.0, "[0]"), (16777216.0, I(16777217), "[0]"),  # full precision
])
def test_equal(a, b, expected):
    assert dyad("=", a, b) == expected


@pytest.mark.parametrize("a, b, expected", [
    (-1, 0, "1"), (0, 0, "0"), (1, -1, "0"), (1.23, 4.56, "1"), (-4.56, -1.23, "1"),
    (123, 123.0, "0"), (123, 123.1, "1"), (123.1, 123, "0"),
    (C("a"), C("z"), "1"), (C("z"), C("a"), "0"), ("", "", "0"), ("a", "b", "1"),
    ("test", "tests", "1"), ("tests", "test", "0"), ("tesz", "test", "0"), ("test", "tesz", "1"),
    (S("fob"), S("foo"), "1"), (S("foo"), S("fooo"), "1"), (S("fooo"), S("foo"), "0"),
    (L(1, I(3), 5), L(2, I(3), 4), "[1 [0] 0]"), (I(1, 2, 3), 2, "[1 0 0]"),
    (np.array([[1, 5], [3, 4]]), I(2, 4), "[[1 0] [1 0]]"),
])
def test_less(a, b, expected):
    assert dyad("<", a, b) == expected


@pytest.mark.parametrize("a, b, expected", [
    (1, -1, "1"), (123.1, 123, "1"), (123, 123.0, "0"), (C("z"), C("a"), "1"),
    ("tests", "test", "1"), ("tesz", "test", "1"), ("test", "tesz", "0"), ("", "", "0"),
    (S("foo"), S("fooo"), "0"), (S("fooo"), S("foo"), "1"), (S("foo"), S("bar"), "1"),
    (L(1, I(3), 5), L(2, I(3), 4), "[0 [0] 1]"), (2, F(1.5, 2.5), "[1 0]"),
])
def test_more(a, b, expected):
    assert dyad(">", a, b) == expected


@pytest.mark.parametrize("verb", ["=", "<", ">"])
@pytest.mark.parametrize("a, b, kind", [
    (1, S("a"), "type"), (1, "a", "type"), ("a", C("a"), "type"), (S("a"), "a", "type"),
    (C("a"), 97, "type"), ([], [], "type"), (1, [], "type"), (UNDEFINED, UNDEFINED, "type"),
    (Dict(), Dict(), "type"), (F0(), 1, "type"), (I(1, 2), I(1, 2, 3), "length"),
    (L("a", "b"), L("a"), "length"), (I(1, 2), [], "length"),
])
def test_comparison_errors(verb, a, b, kind):
    assert error_kind(DYADS[verb], a, b) == kind


# ---------------------------------------------------------------- Match

@pytest.mark.parametrize("a, b, expected", [
    (123.0, 123, 1), (1.23, 123, 0), ("test", "tes", 0), (C("a"), C("a"), 1), (C("a"), C("b"), 0),
    (L(1, L(2, L(S("x")))), L(1, L(2, L(S("x")))), 1),
    (L(1, L(2, L(S("y")))), L(1, L(2, L(S("x")))), 0),
    (S("foo"), L(S("f"), S("o"), S("o")), 0), (I(1, 2), F(1.0, 2.0), 1), ([], "", 0),
    (UNDEFINED, UNDEFINED, 1), (I(1, 2, 3), "123", 0), (1.0, 1.0001, 0), (0.1 + 0.2, 0.3, 1),
])
def test_match(a, b, expected):
    r = DYADS["~"](on(a), on(b))
    assert r == expected and type(r) is int


def test_match_dictionaries_and_functions():
    d1 = Dict([(1, 2), (3, 4)])
    d2 = Dict([(3, 4), (1, 2)])
    assert DYADS["~"](d1, d2) == 1
    assert DYADS["~"](Dict([(1, 2)]), d1) == 0
    f = F0()
    assert DYADS["~"](f, f) == 1 and DYADS["~"](f, F0()) == 0


# ---------------------------------------------------------------- Negate, Floor, Not, Char

@pytest.mark.parametrize("a, expected", [
    (0, "0"), (1, "-1"), (-1.23, "1.23"), (1e9, "-1000000000.0"),
    (L(0, I(1), -1.23), "[0 [-1] 1.23]"), (I(1, -2), "[-1 2]"), (np.array([[1, 2]]), "[[-1 -2]]"),
])
def test_negate(a, expected):
    assert monad("-", a) == expected


@pytest.mark.parametrize("a, expected", [
    (0, "0"), (1, "1"), (1.23, "1"), (1.999, "1"), (1e9, "1000000000"), (-1, "-1"),
    (-1.23, "-2"), (-1.99, "-2"), (-1e9, "-1000000000"),
    (L(0, F(1.0, 2.2), -9.99), "[0 [1 2] -10]"), (F(1.5, -1.5), "[1 -2]"), (I(3, 4), "[3 4]"),
    (1e17, "100000000000000000"), (1e18, "1.0e+18"), (-1e20, "-1.0e+20"),
    (F(1.5, 1e20), "[1 1.0e+20]"),
    # the array's test of |a| < 1e18, made on the floors: the reals near 1e18 are whole
    (F(-0.5, 999999999999999872.0), "[-1 999999999999999872]"),
    (F(-999999999999999872.0, 2.5), "[-999999999999999872 2]"),
    (F(-1e18, 2.5), "[-1.0e+18 2]"), (F(0.5, float("inf")), "[0 inf]"),
    (F(0.5, float("nan")), "[0 nan]"),
])
def test_floor(a, expected):
    assert monad("_", a) == expected


@pytest.mark.parametrize("a", [[], "a", C("a"), S("a"), UNDEFINED, Dict()])
def test_floor_type_errors(a):
    assert error_kind(MONADS["_"], a) == "type"


@pytest.mark.parametrize("a, expected", [
    (0, "1"), (1.23, "0"), (0.0, "1"), (-1, "0"), (1e5, "0"), (S("foo"), "0"), ("", "1"),
    ("string", "0"), ([], "1"), (Dict(), "0"), (F0(), "0"), (UNDEFINED, "0"), (C("0"), "0"),
    (I(0), "[1]"), (I(1, 2, 3), "[0 0 0]"), (F(0.0, 2.0), "[1 0]"),
    (L(0, 1, [], I(2), "", "x"), "[1 0 1 [0] 1 0]"), (np.zeros(0, dtype=np.int64), "1"),
])
def test_not(a, expected):
    assert monad("~", a) == expected


@pytest.mark.parametrize("a, expected", [
    (65, "0cA"), (97, "0ca"), (I(65, 66, 67), "[0cA 0cB 0cC]"),
    (L(65, I(66), 67), "[0cA [0cB] 0cC]"), (np.array([[97, 98]]), "[[0ca 0cb]]"),
])
def test_char(a, expected):
    assert monad(":#", a) == expected


def test_char_values():
    assert MONADS[":#"](10) == Char("\n")
    assert MONADS[":#"](0) == Char("\0")
    r = MONADS[":#"](on(I(65, 66)))
    assert type(r) is list and r == [Char("A"), Char("B")]   # a list of characters, no string


@pytest.mark.parametrize("a, kind", [
    (256, "domain"), (-1, "domain"), (I(65, 300), "domain"), (65.0, "type"), ([], "type"),
    (S("a"), "type"), ("A", "type"), (F(65.0), "type"),
])
def test_char_errors(a, kind):
    assert error_kind(MONADS[":#"], a) == kind


# ---------------------------------------------------------------- Format

@pytest.mark.parametrize("a, expected", [
    (0, '"0"'), (123, '"123"'), (-1, '"-1"'), (1.23, '"1.23"'), (-1.23, '"-1.23"'),
    (S("foo"), '":foo"'), (C("x"), '"x"'), ("", '""'), ("test", '"test"'),
    (L("x", L(S("y")), 0), '["x" [":y"] "0"]'), ([], ":undefined"), (L(1, []), '["1" :undefined]'),
    (Dict(), ":undefined"), (F0(), ":undefined"), (UNDEFINED, ":undefined"),
    (I(1, 2), '["1" "2"]'), (F(0.5, 2.0), '["0.5" "2.0"]'), (1e18, '"1.0e+18"'),
    (np.array([[1, 2]]), '[["1" "2"]]'),
])
def test_format(a, expected):
    assert monad("$", a) == expected


def test_format_returns_plain_strings():
    assert type(MONADS["$"](C("x"))) is str
    assert type(MONADS["$"](S("x"))) is str


# ---------------------------------------------------------------- Format2

@pytest.mark.parametrize("a, b, expected", [
    (0, 0, '"0"'), (0, -123, '"-123"'), (0, 1.23, '"1.23"'), (10, 123, '"123       "'),
    (10, -1.23, '"-1.23     "'), (3, 123, '"123"'), (4, 123, '"123 "'), (4, -123, '"-123"'),
    (5, -123, '"-123 "'), (-10, 123, '"       123"'), (-10, -1.23, '"     -1.23"'),
    (-3, 123, '"123"'), (-4, 123, '" 123"'), (-5, -1.23, '"-1.23"'), (-6, -1.23, '" -1.23"'),
    (0, "test", '"test"'), (5, "test", '"test "'), (-5, "test", '" test"'),
    (10, "test", '"test      "'), (-10, "test", '"      test"'),
    (4, S("foo"), '":foo"'), (5, S("foo"), '":foo "'), (-5, S("foo"), '" :foo"'),
    (3, C("x"), '"x  "'), (-3, "", '"   "'),
    # real widths
    (0.0, 123.45, '"123.45"'), (3.2, 123.45, '"123.45"'), (4.2, 123.45, '" 123.45"'),
    (3.3, 123.45, '"123.450"'), (5.3, 123.45, '"  123.450"'), (0.0, -123.45, '"-123.45"'),
    (4.2, -123.45, '"-123.45"'), (5.2, -123.45, '" -123.45"'), (4.3, -123.45, '"-123.450"'),
    (6.3, -123.45, '"  -123.450"'), (5.2, 1.5, '"    1.50"'), (5.2, 3.14159, '"3.14159"'),
    (5.2, 3, '"3    "'), (5.2, "ab", '"ab   "'), (-10.0, 123, '"123       "'),
    (10.0, 1.5, '"1.5       "'), (1.2, 12.5, '"12.5"'), (2.3, 123.4, '"123.4"'),
    (0.5, 1.5, '"1.5"'), (10.12, 1.5, '"         1.500000000000"'), (5.10, 1.5, '"    1.5"'),
    (-5.2, 1.5, '"    1.50"'), (5.2, 1e20, '"1.0e+20"'),
    # atomic
    (5.2, F(1.5, 2.25), '["    1.50" "    2.25"]'),
    (L(5.2, 3.1), F(1.5, 2.25), '["    1.50" "2.25"]'),
    (3, L(1, L("ab")), '["1  " ["ab "]]'), (I(2, -2), 1, '["1 " " 1"]'),
])
def test_format2(a, b, expected):
    assert dyad("$", a, b) == expected


@pytest.mark.parametrize("a, b, kind", [
    (5, [], "type"), (5, Dict(), "type"), (5, F0(), "type"), (5, UNDEFINED, "type"),
    ("5", 1, "type"), (S("a"), 1, "type"), (I(1, 2), I(1, 2, 3), "length"),
])
def test_format2_errors(a, b, kind):
    assert error_kind(DYADS["$"], a, b) == kind


# ---------------------------------------------------------------- Form

@pytest.mark.parametrize("a, b, expected", [
    (0, "", ":undefined"), (0.0, "", ":undefined"), (S("x"), "", ":undefined"),
    (C("0"), "", ":undefined"), ("", "", '""'),
    (0, "123", "123"), (0, "-123", "-123"), (0, "+123", "123"), (0, "1.23", ":undefined"),
    (0, "1e3", ":undefined"), (0, "0x10", ":undefined"), (0, " 1", ":undefined"),
    (0, "12a", ":undefined"), (0, "-", ":undefined"),
    (0.0, "123", "123.0"), (0.0, "-123", "-123.0"), (0.0, "1.23", "1.23"), (0.0, "-1.23", "-1.23"),
    (0.0, "1e3", "1000.0"), (0.0, "1E-2", "0.01"), (0.0, ".5", "0.5"), (0.0, "1.", "1.0"),
    (0.0, "+2.5", "2.5"), (0.0, ".", ":undefined"), (0.0, "1.2.3", ":undefined"),
    (0.0, "1e", ":undefined"), (0.0, "1 ", ":undefined"), (0.0, "e5", ":undefined"),
    (C("0"), "x", "0cx"), (C("0"), "xx", ":undefined"), (C("0"), " ", "0c "),
    (S("x"), "foo", ":foo"), (S("x"), ":foo", ":foo"), (S("x"), "a.b", ":a.b"),
    (S("x"), "1abc", ":undefined"), (S("x"), "a b", ":undefined"), (S("x"), ":", ":undefined"),
    ("", "foo bar baz", '"foo bar baz"'), ([], "x y", '"x y"'), (Dict(), "z", '"z"'),
    (L(0, 0.0), L("1", "2"), "[1 2.0]"), (0, L("1", L("-2")), "[1 [-2]]"),
    (L(0, S("a")), "12", "[12 :undefined]"),
])
def test_form(a, b, expected):
    assert dyad(":$", a, b) == expected


@pytest.mark.parametrize("a, b, kind", [
    (0, 1, "type"), (0, C("1"), "type"), (0, S("a"), "type"), (0, [], "type"),
    (0, I(1, 2), "type"), ("", 1.5, "type"), (L(0, 0), L("1"), "length"),
])
def test_form_errors(a, b, kind):
    assert error_kind(DYADS[":$"], a, b) == kind


# ---------------------------------------------------------------- large data stays vectorised

def test_million_element_arithmetic():
    a = B().arange(1_000_000)
    sq = DYADS["*"](a, a)
    assert B().is_array(sq) and sq.dtype == dtypes()[0] and int(sq[-1]) == 999_999**2
    assert int(DYADS["+"](a, 1)[-1]) == 1_000_000
    assert int(DYADS["<"](a, 10).sum()) == 10


# ---------------------------------------------------------------- torch: tensors and gradients

@pytest.fixture
def torch_only(backend):
    if backend.name != "torch":
        pytest.skip("torch backend only")
    import torch
    return torch


def test_torch_results_are_tensors_of_the_backend_dtypes(torch_only):
    torch = torch_only
    i = B().asarray([1, 2, 3], "i")
    f = B().asarray([0.5, 1.5, 2.5], "f")
    assert i.dtype == torch.int64 and f.dtype == B().float_dtype
    for r, dtype in [(DYADS["+"](i, i), torch.int64), (DYADS["*"](i, 2), torch.int64),
                     (DYADS["+"](i, 0.1), B().float_dtype), (DYADS["*"](f, i), B().float_dtype),
                     (DYADS["%"](i, 3), B().float_dtype), (DYADS["<"](f, i), torch.int64),
                     (MONADS["_"](f), torch.int64), (MONADS["~"](i), torch.int64),
                     (DYADS["|"](i, 2), torch.int64), (DYADS["&"](f, 1.0), B().float_dtype)]:
        assert isinstance(r, torch.Tensor) and r.dtype == dtype and r.device == B().device
    assert DYADS["+"](i, 0.1).tolist() == [1.1, 2.1, 3.1]     # float64, not float32


def grad_number(torch, x):
    return torch.tensor(x, dtype=B().float_dtype, device=B().device, requires_grad=True)


@pytest.mark.parametrize("verb, build, expected_grad", [
    ("+", lambda x: (x, 2), 1.0),                 # d(x+2)/dx
    ("+", lambda x: (2, x), 1.0),
    ("+", lambda x: (x, x), 2.0),
    ("-", lambda x: (10, x), -1.0),
    ("*", lambda x: (x, x), 6.0),                 # 2x at x=3
    ("*", lambda x: (x, 2.5), 2.5),
    ("^", lambda x: (x, 2), 6.0),                 # 2x
    ("^", lambda x: (x, -1), -1 / 9),             # -1/x^2
    ("^", lambda x: (x, 0.5), 0.5 / 3 ** 0.5),
    ("^", lambda x: (2, x), 8 * 0.6931471805599453),  # 2^x ln 2
    ("%", lambda x: (x, 2), 0.5),
    ("%", lambda x: (1, x), -1 / 9),
    ("|", lambda x: (1, x), 1.0),                 # Max and Min return the operand chosen
    ("&", lambda x: (x, 5), 1.0),
])
def test_torch_gradient_through_dyads(torch_only, verb, build, expected_grad):
    torch = torch_only
    x = grad_number(torch, 3.0)
    r = DYADS[verb](*build(x))
    assert isinstance(r, torch.Tensor) and r.ndim == 0 and r.requires_grad
    r.backward()
    assert x.grad.item() == pytest.approx(expected_grad)


@pytest.mark.parametrize("verb, expected_value, expected_grad", [
    ("-", -3.0, -1.0), ("%", 1 / 3, -1 / 9),
])
def test_torch_gradient_through_monads(torch_only, verb, expected_value, expected_grad):
    torch = torch_only
    x = grad_number(torch, 3.0)
    r = MONADS[verb](x)
    assert isinstance(r, torch.Tensor) and r.requires_grad
    assert r.item() == pytest.approx(expected_value)
    r.backward()
    assert x.grad.item() == pytest.approx(expected_grad)


def test_torch_zero_d_tensors_combine_into_tensors(torch_only):
    torch = torch_only
    x, y = grad_number(torch, 3.0), grad_number(torch, 4.0)
    r = DYADS["+"](DYADS["*"](x, x), DYADS["*"](y, y))       # x*x + y*y
    assert isinstance(r, torch.Tensor) and r.item() == 25.0
    r.backward()
    assert (x.grad.item(), y.grad.item()) == (6.0, 8.0)


def test_torch_gradient_through_arrays(torch_only):
    torch = torch_only
    v = B().asarray([1.0, 2.0, 3.0], "f").requires_grad_()
    x = grad_number(torch, 2.0)
    r = DYADS["+"](DYADS["*"](v, v), DYADS["*"](x, v))       # v*v + x*v
    r = DYADS["%"](DYADS["^"](r, 2), 2)                       # (...)^2 % 2
    r = DYADS["-"](r, MONADS["-"](DYADS["|"](v, 1.5)))
    assert isinstance(r, torch.Tensor) and r.requires_grad
    r.sum().backward()
    w = [1.0, 2.0, 3.0]
    inner = [a * a + 2 * a for a in w]
    assert v.grad.tolist() == pytest.approx(
        [inner[k] * (2 * w[k] + 2) + (1.0 if w[k] >= 1.5 else 0.0) for k in range(3)])
    assert x.grad.item() == pytest.approx(sum(inner[k] * w[k] for k in range(3)))


def test_torch_gradient_through_atomic_extension(torch_only):
    """A nested list is walked element by element; the gradient still arrives."""
    torch = torch_only
    x = grad_number(torch, 3.0)
    r = DYADS["*"](x, [B().asarray([1.0, 2.0], "f"), 4.0])    # x*[[1.0 2.0] 4.0]
    assert type(r) is list and r[0].requires_grad and r[1].requires_grad
    (r[0].sum() + r[1]).backward()
    assert x.grad.item() == 7.0


def test_torch_text_verbs_read_gradient_numbers(torch_only):
    torch = torch_only
    x = grad_number(torch, 2.5)
    for text in (lambda: MONADS["$"](x), lambda: DYADS["$"](5, x)):
        with pytest.raises(KlongError):      # text would cut the gradient without a trace
            text()
    assert MONADS["_"](x) == 2 and type(MONADS["_"](x)) is int
    assert DYADS["="](x, 2.5) == 1 and DYADS["<"](x, 3) == 1


# Remainder and Integer-Divide of two integers, inline where the dividend is not negative and
# the divisor above 0 (their scalar forms), the verb elsewhere
@pytest.mark.parametrize("src, printed", [
    ("m::{x!y};(m(7;2)),(m(-7;2)),(m(7;-2)),(m(-7;-2)),m(0;5)", "[1 -1 1 -1 0]"),
    ("d::{x:%y};(d(7;2)),(d(-7;2)),(d(7;-2)),(d(-7;-2)),d(100000000000000000000;3)",
     "[3 -3 -3 3 33333333333333333333]"),
    ("{x!0}(5)", "domain error: remainder [5 0]: division by zero (in {x!0})"),
    ("{x:%0}(5)", "domain error: integer-divide [5 0]: division by zero (in {x:%0})"),
    ("{x!2.0}(7)", "type error: remainder [7 2.0]: integers expected (in {x!2.0})"),
    ("{x:%2}(7.5)", "type error: integer-divide [7.5 2]: integers expected (in {x:%2})"),
])
def test_remainder_and_integer_divide_of_two_numbers(backend, src, printed):
    from klong import KlongInterpreter
    from klong.errors import KlongError
    from klong.runtime.display import write
    try:
        got = write(KlongInterpreter(backend=backend.name).run(src))
    except KlongError as e:
        got = str(e)
    assert got == printed
