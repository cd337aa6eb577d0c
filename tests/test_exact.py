"""One answer in every mode: the same printed value and element type on numpy and torch,
through generated code and through closures (codegen=False).

The `kw` fixture here runs each test in all four modes; `kind` gives the element type of an
array result ('i', 'f', 'o', ...) and, for reals, the dtype's name.
"""
import pytest

from klong import KlongError, KlongInterpreter
from klong.runtime.display import write
from conftest import BACKENDS, MODES, TORCH_DEVICE



@pytest.fixture
def k(km):
    return km


@pytest.fixture
def kw(k):
    return lambda src: write(k.run(src))


def dtype_name(v):
    """'float64', 'int64', ... for an array of either library; the Python type's name else."""
    dtype = getattr(v, "dtype", None)
    return str(dtype).rsplit(".", 1)[-1] if dtype is not None else type(v).__name__


# ------------------------------------------------------------------ the element-type rule

REAL_IN_EACH = [
    # an element of an integer row (a 0-d integer array in a vectorised Each) with a real
    ("{(x@0)+0.1}'[[1 2] [3 4]]", "[1.1 3.1]"),
    ("{(x@0)%3}'[[1 2] [3 4]]", "[0.333333333333333 1.0]"),
    ("{(*x)%12}'[[4 0]]", "[0.333333333333333]"),
    ("{(x@1)-1.25}'[[2 4] [8 -1]]", "[2.75 -2.25]"),
    ("{(x@0)*1.5}'[[1 2] [3 4]]", "[1.5 4.5]"),
    ("{%x@0}'[[1 2] [3 4]]", "[1.0 0.333333333333333]"),
    ("{(x@0)^-1}'[[1 2] [3 4]]", "[1.0 0.333333333333333]"),
    ("{(x@0)^0.5}'[[1 4] [9 4]]", "[1.0 3.0]"),
    ("{x%3}'[1 2]", "[0.333333333333333 0.666666666666667]"),
]


@pytest.mark.parametrize("src, printed", REAL_IN_EACH)
def test_reals_in_each_are_float64(k, src, printed):
    v = k.run(src)
    assert write(v) == printed
    assert dtype_name(v) == "float64"


def test_a_lost_digit_does_not_carry_on(kw):
    assert kw("({(x@0)%5.4e-2}'[[3 6 11]])@0") == "55.5555555555556"


@pytest.mark.parametrize("src, printed", [
    ("{(x@0)+1}'[[1 2] [3 4]]", "[2 4]"),
    ("{(x@0)*x@1}'[[1 2] [3 4]]", "[2 12]"),
    ("{-x@0}'[[1 2] [3 4]]", "[-1 -3]"),
    ("{(x@0):%2}'[[7 2] [9 4]]", "[3 4]"),
])
def test_integers_stay_integers_in_each(k, src, printed):
    v = k.run(src)
    assert write(v) == printed
    assert dtype_name(v) == "int64"


@pytest.mark.parametrize("src, printed", [
    # an integer inside a traced Each never wraps at 64 bits, and real^0 is the integer 1
    ("{(*x)^100}'[2 -1]", "[1267650600228229401496703205376 1]"),
    ("{x*x}'{(*x)}\\_9223372036854775807", "[85070591730234615847396907784232501249]"),
    ("{100^(+/x)}'[2 -1]", "[10000 0.01]"),
    ("{2.0^(*x)}'[0 1]", "[1 2.0]"),
    ("{-15.57^(+/x)}'[4 0]", "[-58769.83214001 -1]"),
])
def test_exact_integers_in_each(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src, numpy_way", [
    ("15.89^[-15.57 15.89 0.25]", lambda np: np.power(15.89, np.array([-15.57, 15.89, 0.25]))),
    ("0.5^[0.1 0.2 0.3]", lambda np: np.power(0.5, np.array([0.1, 0.2, 0.3]))),
    # a scan of minus over the negated powers
    ("-\\-0.75^[0.1 0.2 0.3]",
     lambda np: np.subtract.accumulate(-np.power(0.75, np.array([0.1, 0.2, 0.3])))),
])
def test_real_powers_agree_to_the_last_digit(kw, src, numpy_way):
    """torch's power of reals differs from numpy's in the last place, and numpy's own differs
    between CPUs (a SIMD power where the processor has one): every mode gives numpy's answer
    on this machine, to the last digit."""
    import numpy as np
    reference = KlongInterpreter()
    reference["p"] = numpy_way(np)
    assert kw(src) == write(reference("p"))


@pytest.mark.skipif("torch" not in BACKENDS, reason="torch is not installed")
@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
@pytest.mark.parametrize("codegen", [True, False], ids=["codegen", "closures"])
def test_a_narrower_interpreter_gives_its_dtype(dtype, codegen):
    k = KlongInterpreter(backend="torch", dtype=dtype, codegen=codegen, device=TORCH_DEVICE)
    for src in ["{(x@0)+0.1}'[[1 2] [3 4]]", "{(x@0)%3}'[[1 2] [3 4]]", "{x%3}'[1 2]",
                "[1 2]%3", "{x+0.5}'[1 2]", "5%[12.21]", "[1 2]+0.5"]:
        assert dtype_name(k.run(src)) == dtype, src
    assert dtype_name(k.run("{(x@0)+1}'[[1 2] [3 4]]")) == "int64"


def test_a_float32_numpy_interpreter_gives_float32():
    k = KlongInterpreter(backend="numpy", dtype="float32")
    for src in ["{(x@0)+0.1}'[[1 2] [3 4]]", "{(x@0)%3}'[[1 2] [3 4]]", "5%[12.21]"]:
        assert dtype_name(k.run(src)) == "float32", src


def test_one_rule_decides_the_kind():
    from klong.runtime import kinds
    assert kinds.result_kind(1, 2) == "i"
    assert kinds.result_kind(1, 2.0) == "f"
    assert kinds.result_kind(1, 2, real=True) == "f"
    k = KlongInterpreter(backend="numpy")
    a = k.run("[1 2]")
    x, y = kinds.operands(a, 0.5)
    assert dtype_name(x) == "float64" and y == 0.5
    x, y = kinds.operands(a, 2)
    assert x is a and y == 2


# ------------------------------------------------------------------ correctly rounded division

@pytest.mark.parametrize("src, printed", [
    ("5%[12.21]", "[0.409500409500409]"),
    ("{[k];k::x;{k%x}'y}(5;[12.21])", "[0.409500409500409]"),
    ("%[12.21]", "[0.0819000819000819]"),
    ("5%12.21", "0.409500409500409"),
    ("{5%x}'[12.21 3.3]", "[0.409500409500409 1.51515151515152]"),
])
def test_division_is_correctly_rounded(kw, src, printed):
    assert kw(src) == printed


# ------------------------------------------------------------------ empty per-element results

def test_empty_results_of_each_are_a_list_of_empty_lists(k, kw):
    v = k.run("{x@[]}'[[1 2] [3 4]]")
    assert write(v) == "[[] []]"
    assert type(v) is list
    assert kw("{0#x}'[[1 2] [3 4]]") == "[[] []]"
    assert kw("#'{x@[]}'[[1 2] [3 4]]") == "[0 0]"
    with pytest.raises(KlongError, match="type error"):
        k.run("1+{x@[]}'[[1 2] [3 4]]")


# ------------------------------------------------------------------ one summation order

def ordered_fold(combine, xs):
    """The order of +/ and */ on reals (Backend.fold_reals), in plain Python floats."""
    aside = []
    while len(xs) > 64:
        half = len(xs) // 2
        if len(xs) % 2:
            aside.append(xs[2 * half])
        xs = [combine(x, y) for x, y in zip(xs[:half], xs[half:2 * half])]
    r = xs[0]
    for x in xs[1:]:
        r = combine(r, x)
    for x in reversed(aside):
        r = combine(r, x)
    return r


REALS = "a::{(x*1.37)-(x*x)%91.3}'!1001;b::%1+!1001"


def reals(k):
    k.run(REALS)
    return [float(x) for x in k.run("a").tolist()], [float(x) for x in k.run("b").tolist()]


def test_short_sums_fold_left_to_right(kw):
    # as Klong defines Over (and kg computes it); numpy's and torch's sums differ here
    assert kw("+/[-15.57 15.89 0.25 0.7 3.68 -4.64]") == "0.31"
    assert kw("+/[0.1 0.2 0.3]") == "0.6"


def test_sums_and_products_follow_the_one_order(k):
    import operator
    from klong.runtime.display import format_real
    a, b = reals(k)
    assert write(k.run("+/a")) == format_real(ordered_fold(operator.add, a))
    assert write(k.run("*/1+a%1e4")) == format_real(
        ordered_fold(operator.mul, [1 + x / 1e4 for x in a]))
    dot = format_real(ordered_fold(operator.add, [x * y for x, y in zip(a, b)]))
    assert write(k.run("+/a*b")) == dot
    assert write(k.run("{+/a*b}()")) == dot           # generated code's inner product
    assert write(k.run("{+/x*y}(a;b)")) == dot
    assert write(k.run("+/1.0*!10001")) == "50005000.0"


def test_sums_of_rows_follow_the_one_order(k):
    import operator
    from klong.runtime.display import format_real
    a, _ = reals(k)
    rows = [a[i:i + 3] for i in range(0, 999, 3)]
    expected = [ordered_fold(operator.add, [r[j] for r in rows]) for j in range(3)]
    assert write(k.run("+/[333 3]:^999#a")) == "[" + " ".join(map(format_real, expected)) + "]"


def test_scans_of_reals_run_left_to_right(k):
    import itertools
    import operator
    from klong.runtime.display import format_real
    a, _ = reals(k)
    assert write(k.run("*|+\\a")) == format_real(list(itertools.accumulate(a))[-1])
    assert write(k.run("*|*\\1+a%1e4")) == format_real(
        list(itertools.accumulate([1 + x / 1e4 for x in a], operator.mul))[-1])


def test_integer_sums_stay_exact(kw):
    assert kw("+/!1001") == "500500"
    assert kw("+/[9223372036854775807 1]") == "9223372036854775808"


@pytest.mark.skipif("torch" not in BACKENDS, reason="torch is not installed")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_float_reductions_agree_across_backends(dtype):
    n = KlongInterpreter(backend="numpy", dtype=dtype)
    t = KlongInterpreter(backend="torch", dtype=dtype, device=TORCH_DEVICE)
    for src in ["+/a", "*/1+a%1e4", "+/a*b", "{+/a*b}()", "+\\a", "*\\1+a%1e4", "+/40000#a",
                "+/[333 3]:^999#a", "+/%1+!100003"]:
        assert write(n.run(REALS + ";" + src)) == write(t.run(REALS + ";" + src)), src


@pytest.mark.skipif("torch" not in BACKENDS, reason="torch is not installed")
def test_a_sum_keeps_its_gradient():
    k = KlongInterpreter(backend="torch", device=TORCH_DEVICE)
    assert write(k.run("{+/x^2}:>[1.0 2.0 3.0]")) == "[2.0 4.0 6.0]"
    assert write(k.run("{+/x*x}:>1.0*!10")) == "[0.0 2.0 4.0 6.0 8.0 10.0 12.0 14.0 16.0 18.0]"


TRACKED = ["+/a", "*/1+a%1e4", "+/a*b", "{+/a*b}()", "{+/x*y}(a;b)", "+\\a", "*\\1+a%1e4",
           "+/40000#a", "+/[333 3]:^999#a", "+/+[333 3]:^999#a", "{+/x*x}'[20 100]:^a,a",
           "{x+y*y}/a", "{x+y*y}\\a"]


@pytest.mark.skipif("torch" not in BACKENDS, reason="torch is not installed")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("codegen", [True, False], ids=["codegen", "closures"])
def test_values_being_differentiated_are_summed_in_the_one_order(dtype, codegen):
    import torch
    k = KlongInterpreter(backend="torch", dtype=dtype, codegen=codegen, device=TORCH_DEVICE)
    k.run(REALS)
    a, b = k["a"], k["b"]
    for src in TRACKED:
        if dtype == "float32" and src == "{x+y*y}\\a" and not codegen:
            continue    # a loop of single reals: 64-bit numbers untracked (docs/numbers.md)
        k["a"], k["b"] = a, b
        plain = torch.as_tensor(k.run(src), dtype=a.dtype, device=a.device)
        ta, tb = a.clone().requires_grad_(), b.clone().requires_grad_()
        k["a"], k["b"] = ta, tb
        tracked = k.run(src)
        assert tracked.requires_grad and torch.equal(tracked.detach(), plain), src
        assert ta._version == 0 and torch.equal(ta.detach(), a), src    # never overwritten
        if dtype == "float64" and src != "*\\1+a%1e4":
            # and the gradient of a sum is exact: the incoming one at every element
            (g,) = torch.autograd.grad(tracked.sum(), ta)
            assert g.dtype == a.dtype and not g.isnan().any(), src
    k["a"] = a
    assert torch.equal(k.run("{+/x*x}:>a"), 2 * a)
    assert torch.equal(k.run("{+/+\\x}:>a"), torch.arange(1001, 0, -1).to(a.dtype).to(a.device))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_a_sum_of_products_is_the_fold_of_the_products_to_the_bit(backend, dtype):
    """+/a*b makes the products half at a time (Backend.sum_of_products): the same bits as
    the one order folds the whole product, at lengths odd and even, short and long."""
    import numpy as np
    from klong.backends import get_backend
    b = get_backend(backend) if dtype == "float64" else type(get_backend(backend))(None, dtype)
    rng = np.random.default_rng(7)
    for n in (1, 64, 65, 66, 129, 1001, 4097, 65537, 200001):
        x = b.asarray(rng.standard_normal(n) * 1e3, "f")
        y = b.asarray(rng.standard_normal(n), "f")
        whole = b.to_host(b.asarray(b.fold_reals("+", x * y, fresh=True), "f"))
        halves = b.to_host(b.asarray(b.sum_of_products(x, y), "f"))
        assert whole.tobytes() == halves.tobytes(), n


@pytest.mark.skipif("torch" not in BACKENDS, reason="torch is not installed")
def test_a_klong_function_under_torch_func_transforms_sums_in_the_one_order():
    import torch
    k = KlongInterpreter(backend="torch", device="cpu")
    f = k("f::{+/x*x}")
    x = torch.randn(3, 300, dtype=torch.float64, generator=torch.Generator().manual_seed(2))
    one_by_one = torch.tensor([f(r) for r in x], dtype=torch.float64)
    assert torch.equal(torch.func.vmap(f)(x), one_by_one)
    assert torch.equal(torch.func.grad(f)(x[0]), 2 * x[0])
    assert torch.equal(torch.func.vmap(torch.func.grad(f))(x), 2 * x)


@pytest.mark.skipif("torch" not in BACKENDS, reason="torch is not installed")
def test_a_float32_product_scan_being_differentiated_multiplies_in_float32():
    import torch
    k = KlongInterpreter(backend="torch", dtype="float32", device="cpu")
    v = 1 + torch.arange(300, dtype=torch.float32) / 1e3
    k["v"] = v
    plain = k.run("*\\v")
    k["v"] = w = v.clone().requires_grad_()
    tracked = k.run("*\\v")
    assert torch.equal(tracked.detach(), plain)
    (g,) = torch.autograd.grad(tracked.sum(), w)
    x = v.double().requires_grad_()
    (expected,) = torch.autograd.grad(torch.cumprod(x, 0).sum(), x)
    assert torch.allclose(g.double(), expected, rtol=1e-4)


# ------------------------------------------------------------------ as the reference (kg) does

@pytest.mark.parametrize("src, printed", [
    ("?[1 1.0 2]", "[1 1.0 2]"),                # an integer and a real are two classes
    ("?[1.0 1 2 1]", "[1.0 1 2]"),
    ("=[2 2.0]", "[[0] [1]]"),
    ("=[2 2.0 2]", "[[0 2] [1]]"),
    ("?[[1 2] [1.0 2] [1 2]]", "[[1 2] [1.0 2]]"),
    ("?[2.5 1.0 2.5]", "[2.5 1.0]"),
    ("+[[1 2] 3]", "[[1 3] [2 3]]"),            # an atom stands for a row of copies
    ("+[[] []]", "[[] []]"),
    ('+["ab" []]', '["ab" []]'),
    ("[2]{y}'\"ab\"", "[0ca]"),                 # no operand of the result's length is a string
    ("[1 2]{y}'\"abc\"", "[0ca 0cb]"),
    ("[1 2]{y}'\"ab\"", '"ab"'),
    ("[1 2 3]{y}'\"de\"", '"de"'),
    ("\"x\"{y}'\"ab\"", '"a"'),
    ("\"abc\"{y}'[0cx 0cy]", "[0cx 0cy]"),
    ("[1 2]{y}\\0cq", '[1 2 "q"]'),             # x , ,f(x;y), and ,0cq is "q"
    ("0{y}\\0cq", '[0 "q"]'),
    ("[1 2]{x,y}\\3", "[1 2 [1 2 3]]"),
    ("<{x%0}'[1]", "[0]"),                      # one element is in order, whatever it is
    (">{x%0}'[1]", "[0]"),
    ("<,:{}", "[0]"),
    ("1e-3:+0cz", "0cz"),                       # an atom or empty list is left as it is,
    ("2.5:+100", "100"),                        # whatever the count
    ("2.5:+[]", "[]"),
    ("2.5:+:{[1 2]}", ":{[1 2]}"),
])
def test_as_the_reference(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src, message", [
    ("+[[1 2] []]", "length error"),            # [] is a row of no elements
    ('"f":@0', "type error"),                   # a string has no depth to index
    ('"abc":@1', "type error"),
    ("<{x%0}'[1 2]", "type error"),
    ("1.5:+\"abc\"", "type error"),
    (":#256", "domain error"),                  # no character has that code
    (":#-1", "domain error"),
])
def test_errors_as_the_reference(k, src, message):
    with pytest.raises(KlongError, match=message):
        k.run(src)


@pytest.mark.parametrize("src", [
    "{x+y*y}/(1.1^!1000)%7",                   # Over of a dyad {x+g(y)}: left to right
    "{(y*y)+x}/(1.1^!1000)%7",
    "{x*y%2}/1+(!1000)%10000",
    "{+/x}'[20 100]:^(1.1^!2000)%7",           # sums inside a vectorised Each
    "{+/x*x}'[20 100]:^(1.1^!2000)%7",
    "{*/x}'[20 100]:^1+(!2000)%1e4",
])
def test_folds_agree_in_every_mode(src):
    printed = {write(KlongInterpreter(backend=b, codegen=c).run(src)) for b, c in MODES}
    assert len(printed) == 1, printed


def test_over_of_a_dyad_adds_left_to_right(k):
    import itertools
    from klong.runtime.display import format_real
    a, _ = reals(k)
    assert write(k.run("{x+y*y}/a")) == format_real(
        list(itertools.accumulate([a[0]] + [y * y for y in a[1:]]))[-1])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("codegen", [True, False], ids=["codegen", "closures"])
def test_integer_matrix_products_stay_exact_in_a_narrow_dtype(dtype, codegen):
    # the library's product computes in reals; only while they hold every partial sum
    k = KlongInterpreter(backend="numpy", dtype=dtype, codegen=codegen)
    src = "mm::{[a b];a::x;b::+y;{x{+/x*y}:/b}'a};m::[3 3]:^4097+!9;mm(m;m)"
    v = k.run(src)
    assert write(v) == ("[[50405406 50417700 50429994] [50442306 50454609 50466912]"
                        " [50479206 50491518 50503830]]")



def test_find_among_reals_with_an_infinity_warns_of_nothing():
    """Match's tolerance test subtracts the elements: inf - inf is NaN, silently (the loop
    of an Each over rows and the batched rule alike), and every backend finds the same."""
    import warnings
    printed = set()
    for backend in BACKENDS:
        for batch in (True, False):
            k = KlongInterpreter(backend=backend, batch=batch,
                                 device=TORCH_DEVICE if backend == "torch" else None)
            k("i::1.0e308*10.0")
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                printed.add(tuple(write(k(src)) for src in (
                    "(1.0,i,-i)?-i", "(i,2.0)?i", "{*x?|/x}'[[1.0 2.0] [3.0 4.0]],,(1.0,i)")))
    assert len(printed) == 1


SIGNED_ZEROS = [[-0.0, -0.0], [-0.0, 0.0], [0.0, -0.0], [1.0, -1.0], [-0.0],
                [-0.0, -0.0, -0.0, 1.0, -1.0], [-0.0, 2.5, -2.5, -0.0], [-0.0] * 40]


def _running(v):
    """The running sums of v from its first element, one addition a step (Klong's order
    for up to 16 terms; for 40 terms of -0.0 every order gives -0.0)."""
    out = [v[0]]
    for e in v[1:]:
        out.append(out[-1] + e)
    return out


def _signs(value):
    import numpy as np
    from klong.backends import to_host
    if isinstance(value, float):
        return bool(np.signbit(value))
    return np.signbit(np.asarray(to_host(value), dtype=float)).tolist()


@pytest.mark.parametrize("v", SIGNED_ZEROS)
def test_sums_and_scans_keep_the_sign_of_a_zero(k, v):
    """Which no printed text shows, but Python sees (and 1%x through .bkf("reciprocal")):
    a sum of nothing but -0.0 is -0.0, on every backend; torch's scan starts from +0.0."""
    import math
    k["v"] = v
    k["m"] = [v, [2.0] * len(v), v]
    running = _running(v)
    assert _signs(k.run("+\\v")) == [math.copysign(1, e) < 0 for e in running]
    assert _signs(k.run("+/v")) == (math.copysign(1, running[-1]) < 0)
    rows = [math.copysign(1, running[-1]) < 0, False, math.copysign(1, running[-1]) < 0]
    for program in ("+/'m", "{+/x}'m"):
        assert _signs(k.run(program)) == rows, program
    assert _signs(k.run("+\\'m"))[0] == [math.copysign(1, e) < 0 for e in running]
    k.run('.bkf("reciprocal")')
    assert write(k.run("reciprocal(+/[-0.0 -0.0])")) == "-inf"
