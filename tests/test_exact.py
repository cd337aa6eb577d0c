"""One answer in every mode: the same printed value and element type on numpy and torch,
through generated code and through closures (codegen=False).

The `kw` fixture here runs each test in all four modes; `kind` gives the element type of an
array result ('i', 'f', 'o', ...) and, for reals, the dtype's name.
"""
import pytest

from klong import KlongError, KlongInterpreter
from klong.display import write
from conftest import BACKENDS, TORCH_DEVICE

MODES = [(b, c) for b in BACKENDS for c in (True, False)]


@pytest.fixture(params=MODES, ids=[f"{b}-{'codegen' if c else 'closures'}" for b, c in MODES])
def k(request):
    backend, codegen = request.param
    return KlongInterpreter(backend=backend, codegen=codegen,
                            device=TORCH_DEVICE if backend == "torch" else None)


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
    from klong import kinds
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
