"""The limits of values (klong/runtime/limits.py, docs: "Numbers and limits"): integers never wrap,
reals beyond float64 in the source are errors, lists have a size guard, integers print at
any size. Every test that uses `k`/`kw`/`kerr` runs on both backends."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from klong import KlongError, KlongInterpreter, backends
from klong.runtime import values
from klong.runtime.display import show, write
from klong.runtime.limits import SWEEP, Limits, int_from_text, int_text

I64 = 2**63


def decimal_text(n):
    """A plain reference: digits by repeated division in chunks below Python's limit."""
    if n < 0:
        return "-" + decimal_text(-n)
    chunks = []
    while True:
        n, r = divmod(n, 10**1000)
        chunks.append(r)
        if not n:
            break
    return str(chunks[-1]) + "".join(str(c).zfill(1000) for c in reversed(chunks[:-1]))


# ---------------------------------------------------------------- integers never wrap

@pytest.mark.parametrize("src, expected", [
    ("*/1+!21", "51090942171709440000"),
    ("+/[9223372036854775807 1]", "9223372036854775808"),
    ("1+/[9223372036854775807]", "9223372036854775808"),
    ("{x+y}/[9223372036854775807 1]", "9223372036854775808"),
    ("+\\[9223372036854775807 1]", "[9223372036854775807 9223372036854775808]"),
    ("*\\[4294967296 4294967296 2]", "[4294967296 18446744073709551616 36893488147419103232]"),
    ("+/[[9223372036854775807 1] [1 1]]", "[9223372036854775808 2]"),
    ("*/[[4294967296 2] [4294967296 3]]", "[18446744073709551616 6]"),
    ("[4294967296 3]*[4294967296 3]", "[18446744073709551616 9]"),
    ("[4611686018427387904]+[4611686018427387904]", "[9223372036854775808]"),
    ("[-9223372036854775808 5]-[1 1]", "[-9223372036854775809 4]"),
    ("-[-9223372036854775808 5]", "[9223372036854775808 -5]"),
    ("[-9223372036854775808 6]:%[-1 2]", "[9223372036854775808 3]"),
    ("[[4611686018427387904 1] [2 3]]*2", "[[9223372036854775808 2] [4 6]]"),
    ("(!3)+9223372036854775807", "[9223372036854775807 9223372036854775808 9223372036854775809]"),
    ("[3037000500]^2", "[9223372037000250000]"),
    ("*/1+!30", "265252859812191058636308480000000"),
])
def test_integer_lists_never_wrap(kw, src, expected):
    assert kw(src) == expected


def test_results_that_fit_stay_arrays(k):
    # a bound that allows overflow makes the verb work exactly; a result that fits is
    # still one int64 array
    r = k.run("[4611686018427387904 5]+[-4611686018427387904 6]")
    assert values.is_array(r) and write(r) == "[0 11]"
    assert values.is_array(k.run("+\\!1000"))
    assert values.is_array(k.run("(!100000)*!100000"))


def test_exact_lists_take_part_in_further_work(kw):
    assert kw("a::(1+!21)*2^62;(#a),(*|a)") == "[21 96845406386975145984]"
    assert kw("+/(!3)+9223372036854775807") == "27670116110564327424"
    assert kw("(*/1+!21)%*/1+!20") == "21.0"


INT64 = st.integers(min_value=-I64, max_value=I64 - 1)
VECTORS = st.lists(st.one_of(INT64, st.integers(-5, 5)), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(a=VECTORS, b=VECTORS, op=st.sampled_from("+-*"))
def test_arithmetic_matches_python_integers(a, b, op):
    n = min(len(a), len(b))
    a, b = a[:n], b[:n]
    fn = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__}[op]
    for name in backends.list_backends()[:2]:
        k = KlongInterpreter(backend=name)
        k["a"], k["b"] = np.array(a, dtype=np.int64), np.array(b, dtype=np.int64)
        assert [int(x) for x in k(f"a{op}b")] == [fn(x, y) for x, y in zip(a, b)]
        assert int(k(f"{op}/a")) == (sum(a) if op == "+" else _fold(fn, a))


def _fold(fn, xs):
    acc = xs[0]
    for x in xs[1:]:
        acc = fn(acc, x)
    return acc


def test_integers_have_a_size_limit(kerr):
    assert kerr("40{x*x}:*3").kind == "range"                    # instead of hours
    assert kerr("2^10^9").kind == "range"
    assert kerr("*/1+!1000000").kind == "range"          # 18 million bits


def test_magnitudes_remembered_and_forgotten():
    lim = Limits()
    a = np.arange(1000)
    assert lim.magnitude(a) == 999
    assert len(lim._magnitudes) == 1
    b = np.arange(1000)
    lim.remember(b, 5)                         # what an operation's operands imply
    assert lim.magnitude(b) == 5
    c = np.arange(1000)
    lim.remember(c, 1)
    del a, b
    assert len(lim._magnitudes) == 3 and lim.magnitude(c) == 1
    lim._sweep()
    assert list(lim._magnitudes) == [id(c)]    # gone with their arrays
    assert lim._sweep_at == SWEEP
    for _ in range(3 * SWEEP):                 # arrays made and dropped: swept as they go
        lim.remember(np.arange(100), 99)
    assert len(lim._magnitudes) <= SWEEP and lim.magnitude(c) == 1
    assert lim.magnitude(np.array([-I64, 3])) == I64
    assert lim.magnitude(-7) == 7


def test_a_comparison_remembers_its_results_are_zeros_and_ones(k):
    # a count (+/x=y) then sums without scanning the comparison for its magnitude
    k("c::((!1000)!7)=3;n::~(!1000)!5")
    for name in ("c", "n"):
        v = k.globals[name]
        assert k.limits._magnitudes[id(v)][1] == 1
    assert k("+/c") == 143 and k("+/n") == 200


# ---------------------------------------------------------------- reals

@pytest.mark.parametrize("src, expected", [
    ("1e-400", "0.0"),                      # below float64's range: rounds to zero
    ("2^-1075", "0.0"),
    ("1.0e308*10", "inf"),                  # arithmetic follows IEEE 754
    ("-1.0e308*10", "-inf"),
    ("2.0^1024", "inf"),
    ('.rs("1e400")', ":undefined"),         # not a number .rs can read
    ("1.7976931348623157e308", "1.79769313486232e+308"),
])
def test_reals_at_the_edges(kw, src, expected):
    assert kw(src) == expected


@pytest.mark.parametrize("src", ["1e400", "-1e400", "[1 1e400]", '1.0:$"1e400"',
                                 "(10^400)+0.5", "{x}:>10^400"])
def test_reals_beyond_float64_are_range_errors(kerr, src):
    err = kerr(src)
    assert err.kind == "range"


def test_real_literal_error_is_located(kerr):
    err = kerr("a::1\nb::[1 2 1e999]")
    assert err.kind == "range" and err.line == 2 and err.column == 9
    assert "1e999" in err.message


# ---------------------------------------------------------------- the size guard

@pytest.mark.parametrize("src", [
    "!1000000000", "&1000000000", "&[600000000 600000000]", "1e10$123", "1000000000$1",
    '[2147483648]:^"xyz"', "[100000 100000]:^1", "1000000000#[1 2]", "(-10^400)#[1 2 3]",
    "!10^30", "(10^400):^[1 2 3]", "(2^62)#[[1 2]]",
])
def test_size_guard_stops_big_lists_at_once(backend, src):
    # a guard of its own: the default is a share of this machine's memory, and on a large
    # one a thousand million integers fit
    k = KlongInterpreter(backend=backend, max_elements=10**8)
    with pytest.raises(KlongError) as info:
        k.run(src)
    err = info.value
    assert err.kind == "range"
    assert "KLONG_MAX_ELEMENTS" in err.message


@pytest.fixture
def small(backend):
    return KlongInterpreter(backend=backend, max_elements=100)


@pytest.mark.parametrize("src", [
    "!101", "&[60 41]", "101#[1]", "[11 10]:^1", "[11 10]:^[1 2]", "(!60),!41",
    "101$1", '"x",101#"y"', "10{x,x}:*[1]", "{x+!60}'!2", "51#[[1 2]]",
    "100{x}\\*1",
])
def test_size_guard_limit_per_interpreter(small, src):
    with pytest.raises(KlongError) as info:
        small(src)
    assert info.value.kind == "range"
    assert "the limit is 100" in info.value.message


def test_size_guard_allows_up_to_the_limit(small):
    assert len(small("!100")) == 100
    assert len(small("&[60 40]")) == 100
    assert small('#100$1') == 100
    assert small("+/,/{x+!50}'!2") == 2500


def test_interpreters_have_their_own_limits(backend):
    tight = KlongInterpreter(backend=backend, max_elements=10)
    roomy = KlongInterpreter(backend=backend, max_elements=1000)
    with pytest.raises(KlongError):
        tight("!11")
    assert len(roomy("!11")) == 11


def test_limits_belong_to_the_interpreter_not_its_backend(backend):
    tight = KlongInterpreter(backend=backend, max_elements=10)
    assert tight.limits.max_elements == 10
    assert not hasattr(tight.backend, "limits")


def test_a_function_handed_to_python_keeps_its_interpreters_limits(backend):
    """Called from Python after its interpreter has returned, a Klong function still runs
    under the limits of the interpreter it came from."""
    tight = KlongInterpreter(backend=backend, max_elements=10)
    roomy = KlongInterpreter(backend=backend, max_elements=1000)
    tight("f::{!x}")
    roomy("g::{!x}")
    f, g = tight["f"], roomy["g"]
    assert len(g(11)) == 11
    with pytest.raises(KlongError, match="too many elements"):
        f(11)
    assert len(f(10)) == 10


def test_outside_any_interpreter_the_limits_are_the_defaults(monkeypatch):
    from klong.runtime import limits
    monkeypatch.setenv("KLONG_MAX_ELEMENTS", "77")
    assert limits.current().max_elements == 77
    KlongInterpreter(max_elements=5)("1+1")         # leaves nothing behind in this thread
    assert limits.current().max_elements == 77


def test_limit_from_the_environment(monkeypatch):
    monkeypatch.setenv("KLONG_MAX_ELEMENTS", "50")
    k = KlongInterpreter()
    assert k.limits.max_elements == 50
    with pytest.raises(KlongError):
        k("!51")
    monkeypatch.setenv("KLONG_MAX_ELEMENTS", "many")
    with pytest.raises(ValueError):
        KlongInterpreter()
    with pytest.raises(ValueError):
        KlongInterpreter(max_elements=0)


def test_default_limit_from_memory(monkeypatch):
    monkeypatch.delenv("KLONG_MAX_ELEMENTS", raising=False)
    assert Limits().max_elements >= 2**20


def test_kgpy_reads_the_environment():
    from test_cli import kgpy
    r = kgpy("-e", "!101", env={"KLONG_MAX_ELEMENTS": "100"})
    assert r.returncode == 1 and r.stderr.startswith("range error: enumerate 101: too many elements: 101")
    r = kgpy("-e", "1", env={"KLONG_MAX_ELEMENTS": "none"})
    assert r.returncode == 2 and "KLONG_MAX_ELEMENTS" not in r.stdout and "Traceback" not in r.stderr


# ---------------------------------------------------------------- integers as text

@pytest.mark.parametrize("n", [0, 7, -7, 10**5000, -(2**20000), 3**30000 - 1, 10**9000 + 1],
                         ids=["0", "7", "-7", "10^5000", "-2^20000", "3^30000-1", "10^9000+1"])
def test_int_text_any_size(n):
    assert int_text(n) == decimal_text(n)
    assert int_from_text(int_text(n)) == n


def test_int_from_text_signs_and_zeros():
    assert int_from_text("-000123") == -123
    assert int_from_text("+5") == 5
    assert int_from_text("0" * 5000 + "9") == 9


def test_huge_integers_in_values(kw):
    assert kw("#$2^20000") == "6021"
    assert kw("#$-2^20000") == "6022"
    assert kw("(1:$$10^5000)=10^5000") == "1"
    assert kw("#$(10^5000),1") == "2"
    assert kw("a::10^5000;#$[1],a") == "2"
    assert len(kw("," + "9" * 5000)) == 5002           # a literal of 5000 digits


def test_printing_huge_integers():
    n = 7**12000
    assert write(n) == show(n) == decimal_text(n)
    assert write([n, 1]) == f"[{decimal_text(n)} 1]"


# ---------------------------------------------------------------- printing long lists

@pytest.mark.parametrize("kind", ["i", "f"])
def test_long_vectors_print_in_chunks(kind):
    n = 65536 * 2 + 3
    a = np.arange(n, dtype=np.int64 if kind == "i" else np.float64)
    expected = "[" + " ".join(str(i) + (".0" if kind == "f" else "") for i in range(n)) + "]"
    assert write(a) == expected


def test_long_vector_on_torch():
    if "torch" not in backends.list_backends():
        pytest.skip("torch is not installed")
    k = KlongInterpreter(backend="torch")
    assert write(k.run("!70000")) == "[" + " ".join(map(str, range(70000))) + "]"
