"""Differentiation (system.md B.2): f:>p, p∇f, ∇f, p∂f, .jacobian, .hessian, .gradcheck and
the Python helper klong.runtime.autograd.gradients_of.

Tests that use the `k` fixture run on both backends. On torch gradients are exact (reverse
mode) and are checked to 1e-12; on numpy they are central differences and are checked to
1e-6. `∇` is numeric on both backends, which the test on 3∇{x^2} pins down to the digit.
"""
import math
import subprocess
import sys

import numpy as np
import pytest

from klong import KlongError, KlongInterpreter
from klong.runtime.autograd import gradients_of
from klong.backends import list_backends

from conftest import BACKENDS, ROOT, host  # noqa: E402

HAS_TORCH = "torch" in list_backends()
needs_torch = pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed")

TOL = {"numpy": 1e-6, "torch": 1e-12}


def check(k, src, expected, tol=None):
    """Run src in k; the value must have the shape of `expected` and be within the backend's
    tolerance of it. Returns the raw value."""
    value = k.run(src)
    tol = TOL[k.backend.name] if tol is None else tol
    got = host(value)
    want = np.asarray(expected, dtype=np.float64)
    assert got.shape == want.shape, f"{src}: shape {got.shape}, expected {want.shape}"
    assert np.allclose(got, want, rtol=0, atol=tol), f"{src}: got {got}, expected {want}"
    return value


def is_real_result(k, value):
    """Gradients are real: a Python float for a scalar point, a real array otherwise."""
    if isinstance(value, float):
        return True
    return isinstance(value, k.backend.array_type) and k.backend.kind(value) == "f"


# ------------------------------------------------------------------ f:>p at points

@pytest.mark.parametrize("src, expected", [
    ("{x^2}:>3", 6.0),                          # integer point promoted to a real
    ("{x^2}:>3.0", 6.0),
    ("{x^2}:>1.5", 3.0),
    ("{x^3}:>2.0", 12.0),
    ("{x*x*x}:>2", 12.0),
    ("{+/x^2}:>[1 2 3]", [2.0, 4.0, 6.0]),
    ("{+/x^2}:>[1.0 2.0 3.0]", [2.0, 4.0, 6.0]),
    ("{(x@0)*x@1}:>[2 3]", [3.0, 2.0]),
    ("{+/+/x^2}:>[[1 2] [3 4]]", [[2.0, 4.0], [6.0, 8.0]]),
    ("{+/,/x^2}:>[[1 2] [3 4]]", [[2.0, 4.0], [6.0, 8.0]]),
])
def test_gradient_at_points(k, src, expected):
    value = check(k, src, expected)
    assert is_real_result(k, value)


def test_scalar_point_gives_a_number(k):
    value = k.run("{x^2}:>3")
    assert isinstance(value, float)


def test_array_point_gives_array_shaped_like_point(k):
    value = k.run("{+/x^2}:>[1 2 3]")
    assert isinstance(value, k.backend.array_type)
    assert tuple(value.shape) == (3,)
    m = k.run("{+/+/x^3}:>[[1 2 3] [4 5 6]]")
    assert tuple(m.shape) == (2, 3)
    assert np.allclose(host(m), 3 * np.arange(1, 7).reshape(2, 3) ** 2, atol=TOL[k.backend.name])


def test_point_from_a_variable_and_an_expression(k):
    k("v::[1 2 3]")
    check(k, "{+/x^2}:>v", [2.0, 4.0, 6.0])
    check(k, "{+/x^2}:>1+!3", [2.0, 4.0, 6.0])
    check(k, "{x^2}:>(1+2)", 6.0)


@needs_torch
def test_torch_gradient_is_float64_and_detached(kt):
    import torch
    g = kt.run("{+/x^2}:>[1 2 3]")
    assert isinstance(g, torch.Tensor)
    assert g.dtype == torch.float64
    assert not g.requires_grad
    v = kt.run("v::[1.0 2.0];{+/x^3}:>v")
    assert not v.requires_grad and not kt.globals["v"].requires_grad


def test_numpy_gradient_is_float64(kn):
    g = kn.run("{+/x^2}:>[1 2 3]")
    assert isinstance(g, np.ndarray) and g.dtype == np.float64


# ------------------------------------------------------------------ through the language

SETUP = "sq::{x*x};add::{x+y};pw::{x^y}"

FLOW = [
    # arithmetic
    ("{+/x*x+1}:>[1 2 3]", [3.0, 5.0, 7.0]),
    ("{+/x-2*x}:>[1 2 3]", [-1.0, -1.0, -1.0]),
    ("{+/x%2}:>[1 2]", [0.5, 0.5]),
    ("{+/2%x}:>[1 2]", [-2.0, -0.5]),
    ("{(x*3)+x%4}:>2.0", 3.25),
    # power (both operands)
    ("{x^0.5}:>4.0", 0.25),
    ("{2^x}:>3.0", 8 * math.log(2)),
    ("{x^x}:>2.0", 4 * (math.log(2) + 1)),
    # negate, reciprocal
    ("{+/-x^2}:>[1 2]", [-2.0, -4.0]),
    ("{-x}:>5.0", -1.0),
    ("{+/%x}:>[1 2 4]", [-1.0, -0.25, -0.0625]),
    ("{+/1%x}:>[1 2 4]", [-1.0, -0.25, -0.0625]),
    # max / min (away from ties)
    ("{+/x|2}:>[1 3 4]", [0.0, 1.0, 1.0]),
    ("{+/x&2}:>[1 3 4]", [1.0, 0.0, 0.0]),
    ("{|/x}:>[1 5 3]", [0.0, 1.0, 0.0]),
    ("{&/x}:>[1 5 3]", [1.0, 0.0, 0.0]),
    ("{(x^2)|3}:>2.0", 4.0),
    # take, drop
    ("{+/(2#x)^2}:>[1 2 3]", [2.0, 4.0, 0.0]),
    ("{+/5#x}:>[1 2 3]", [2.0, 2.0, 1.0]),
    ("{+/(1_x)^2}:>[1 2 3]", [0.0, 4.0, 6.0]),
    ("{+/((-1)_x)^2}:>[1 2 3]", [2.0, 4.0, 0.0]),
    # index @, first
    ("{(x@1)^2}:>[1 2 3]", [0.0, 4.0, 0.0]),
    ("{+/(x@[0 2])^2}:>[1 2 3]", [2.0, 0.0, 6.0]),
    ("{+/(x^2)@[0 0 2]}:>[1 2 3]", [4.0, 0.0, 6.0]),
    ("{(*x)^2}:>[3 1 2]", [6.0, 0.0, 0.0]),
    ("{+/(x@<x)*[1 2 3]}:>[3 1 2]", [3.0, 1.0, 2.0]),
    # join
    ("{+/(x,x)^2}:>[1 2]", [4.0, 8.0]),
    ("{+/(x,3)^2}:>[1 2]", [2.0, 4.0]),
    ("{+/(3,x)*[1 2 3]}:>[1 2]", [2.0, 3.0]),
    # reshape, transpose, reverse, rotate
    ("{+/+/([2 2]:^x)^2}:>[1 2 3 4]", [2.0, 4.0, 6.0, 8.0]),
    ("{+/,/[3 2]:^x}:>[1 2]", [3.0, 3.0]),
    ("{+/+/(+[2 2]:^x)*[[1 2] [3 4]]}:>[1 2 3 4]", [1.0, 3.0, 2.0, 4.0]),
    ("{+/(|x)*[1 2 3]}:>[1 2 3]", [3.0, 2.0, 1.0]),
    ("{+/(1:+x)*[1 2 3]}:>[1 2 3]", [2.0, 3.0, 1.0]),
    ("{+/((-1):+x)*[1 2 3]}:>[1 2 3]", [3.0, 1.0, 2.0]),
    # each, each2
    ("{+/{x^2}'x}:>[1 2 3]", [2.0, 4.0, 6.0]),
    ("{+/x{x*y}'[1 2 3]}:>[1 2 3]", [1.0, 2.0, 3.0]),
    ("{+/x*'[1 2 3]}:>[1 2 3]", [1.0, 2.0, 3.0]),
    # over, scan
    ("{+/x}:>[1 2 3]", [1.0, 1.0, 1.0]),
    ("{*/x}:>[1 2 3]", [6.0, 3.0, 2.0]),
    ("{{x+y}/x^2}:>[1 2 3]", [2.0, 4.0, 6.0]),
    ("{0{x+y*y}/x}:>[1 2 3]", [2.0, 4.0, 6.0]),
    ("{+/+\\x}:>[1 2 3]", [3.0, 2.0, 1.0]),
    ("{+/{x*y}\\x}:>[1 2 3]", [9.0, 4.0, 2.0]),
    # converge (Newton's square root of x: derivative 1/(2*sqrt x)), while, iterate
    ("{[a];a::x;{(x+a%x)%2}:~a}:>4.0", 0.25),
    ("{{x>1}{x%2}:~x}:>6.0", 0.125),
    ("{3{x*x}:*x}:>1.5", 8 * 1.5 ** 7),
    ("{+/3{x*2}:*x}:>[1 2]", [8.0, 8.0]),
    # conditionals
    ("{:[x>0;x^2;-x]}:>3.0", 6.0),
    ("{:[x>0;x^2;-x]}:>-3.0", -1.0),
    ("{+/{:[x>2;x*x;3*x]}'x}:>[1 4]", [3.0, 8.0]),
    # user functions, projections, locals
    ("{sq(x)+1}:>4.0", 8.0),
    ("{sq(sq(x))}:>2.0", 32.0),
    ("{add(3;x)^2}:>1.0", 8.0),
    ("add(3;):>1.0", 1.0),
    ("pw(;3):>2.0", 12.0),
    ("pw(2;):>3.0", 8 * math.log(2)),
    ("{[a];a::x*2;a^2}:>3.0", 24.0),
    ("{[a b];a::x*2;b::a+1;a*b}:>3.0", 26.0),
    ("{[a];a::x;+/{x*a}'[1 2]}:>3.0", 3.0),
]


@pytest.mark.parametrize("src, expected", FLOW)
def test_gradient_flows_through(k, src, expected):
    k(SETUP)
    check(k, src, expected)


def test_python_callable_as_function_operand(k):
    k["pf"] = lambda x: x * x
    check(k, "pf:>3.0", 6.0)
    check(k, "{pf(x)+x}:>3.0", 7.0)


# ------------------------------------------------------------------ parameter lists

def test_parameter_list_spec_example(k):
    check(k, "w::2.0;b::3.0;loss::{(w^2)+(b^2)};loss:>[w b]", [4.0, 6.0])
    assert k("w") == 2.0 and k("b") == 3.0


def test_parameter_list_shapes_values_and_restoring(k):
    W = np.array([[1.0, 2.0], [3.0, 4.0]])
    v = np.array([1.0, -1.0])
    c = 0.5
    k("W::[[1.0 2.0] [3.0 4.0]];v::[1.0 -1.0];c::0.5;L::{+/+/(v+c*W)^2}")
    r = v[:, None] + c * W                           # the matrix the loss squares
    want_W = 2 * c * r
    want_v = 2 * r.sum(axis=1)
    want_c = 2 * (W * r).sum()
    g = k.run("g::L:>[W v c]")
    assert len(g) == 3
    check(k, "g@0", want_W)
    check(k, "g@1", want_v)
    check(k, "g@2", want_c)
    assert tuple(k.run("g@0").shape) == (2, 2)
    assert tuple(k.run("g@1").shape) == (2,)
    assert isinstance(k.run("g@2"), float)
    # the variables are what they were, and not tracked
    assert np.array_equal(host(k.run("W")), W)
    assert np.array_equal(host(k.run("v")), v)
    assert k("c") == 0.5
    for name in ("W", "v"):
        assert not getattr(k.globals[name], "requires_grad", False)


def test_single_name_list_gives_one_element_list(k):
    g = k.run("w::2.0;loss::{w^3};loss:>[w]")
    assert len(g) == 1
    check(k, "(loss:>[w])@0", 12.0)


def test_integer_variable_is_differentiated_as_real_and_kept(k):
    check(k, "w::3;{w^2}:>[w]", [6.0])
    assert k("w") == 3 and isinstance(k("w"), int)


def test_parameter_list_restores_after_mutation_and_error(k):
    check(k, "m::2.0;bump::{m::m+1;m^2};bump:>[m]", [6.0])
    assert k("m") == 2.0
    k("w::3.0;bad::{w*[1 2]}")
    with pytest.raises(KlongError):
        k("bad:>[w]")
    assert k("w") == 3.0


def test_parameter_list_undefined_name(k):
    k("loss::{1}")
    with pytest.raises(KlongError):
        k("loss:>[nosuch]")
    with pytest.raises(KlongError):
        k("loss:>nosuch")


# ------------------------------------------------------------------ bare-variable mode

def test_bare_variable_with_a_monad(k):
    check(k, "c::0.5;{x^2}:>c", 1.0)
    assert k("c") == 0.5


def test_bare_variable_with_a_nilad(k):
    check(k, "u::3.0;{u^2}:>u", 6.0)
    assert k("u") == 3.0
    check(k, "w::2.0;b::3.0;loss::{(w^2)+(b^2)};loss:>w", 4.0)
    check(k, "loss:>b", 6.0)
    check(k, "p::2.0;q::5.0;{p*q}:>q", 2.0)
    assert k("q") == 5.0 and k("p") == 2.0


def test_bare_variable_shape_follows_the_variable(k):
    value = check(k, "M::[[1.0 2.0] [3.0 4.0]];{+/+/M^2}:>M", [[2.0, 4.0], [6.0, 8.0]])
    assert tuple(value.shape) == (2, 2)
    assert np.array_equal(host(k.run("M")), [[1.0, 2.0], [3.0, 4.0]])


# ------------------------------------------------------------------ higher order, hessian

def test_second_derivative_spec_example(k):
    check(k, "f::{x^2};{f:>x}:>3.0", 2.0)


def test_second_derivative_of_cube(k):
    value = check(k, "f::{x^3};{f:>x}:>2.0", 12.0)
    assert isinstance(value, float)


@needs_torch
def test_higher_orders_are_exact_on_torch(kt):
    kt("f::{x^3};df::{f:>x};ddf::{df:>x}")
    assert kt("df(2.0)") == 12.0
    assert kt("df:>2.0") == 12.0
    assert kt("ddf:>2.0") == 6.0
    assert kt("{ddf:>x}:>2.0") == 0.0
    check(kt, "{+/{f:>x}'x}:>[1.0 2.0]", [6.0, 12.0])


def test_third_derivative_numeric(kn):
    check(kn, "f::{x^3};df::{f:>x};ddf::{df:>x};ddf:>2.0", 6.0)


def test_second_derivative_through_gradient_function(k):
    check(k, "g::∇{x^3};{g(x)}:>2.0", 12.0)


@pytest.mark.parametrize("src, expected", [
    (".hessian({x^3};2.0)", 12.0),
    (".hessian({x^3};2)", 12.0),
    (".hessian({+/x^3};[1.0 2.0])", [[6.0, 0.0], [0.0, 12.0]]),
    (".hessian({((x@0)^2)*x@1};[1.0 2.0])", [[4.0, 2.0], [2.0, 0.0]]),
    (".hessian({+/x^2};[1 2 3])", 2 * np.eye(3)),
])
def test_hessian(k, src, expected):
    check(k, src, expected)


# ------------------------------------------------------------------ p∇f (always numeric)

def test_nabla_is_numeric_on_every_backend(k):
    # exact autograd would give 6.0; central differences with h=1e-6 give these digits
    value = k.run("3∇{x^2}")
    assert abs(value - 6.000000000838668) < 1e-12


def test_nabla_variable_mode_and_restoring(k):
    check(k, "q::5.0;q∇{q^2}", 10.0, tol=1e-6)
    assert k("q") == 5.0
    value = check(k, "v::[1.0 2.0];v∇{+/x^2}", [2.0, 4.0], tol=1e-6)
    assert tuple(value.shape) == (2,)
    assert np.array_equal(host(k.run("v")), [1.0, 2.0])


@pytest.mark.parametrize("src, expected", [
    ("[1 2 3]∇{+/x^2}", [2.0, 4.0, 6.0]),
    ("(1+2)∇{x^2}", 6.0),
    ("[[1 2] [3 4]]∇{+/+/x^2}", [[2.0, 4.0], [6.0, 8.0]]),
    ("3∇{x^2}", 6.0),
])
def test_nabla_points(k, src, expected):
    check(k, src, expected, tol=1e-6)


def test_nabla_high_power(k):
    value = k.run("2∇{x^10}")
    assert abs(value - 5120.0) < 5120.0 * 1e-6


def test_nabla_integer_point_gives_real(k):
    assert isinstance(k.run("3∇{x^2}"), float)
    assert k.backend.kind(k.run("[1 2]∇{+/x^2}")) == "f"


# ------------------------------------------------------------------ ∇f

def test_gradient_function(k):
    check(k, "g::∇{x^2};g(3.0)", 6.0)
    check(k, "h::∇{+/x^3};h([1 2])", [3.0, 12.0])


@needs_torch
def test_gradient_function_called_from_python(kt):
    kt("g::∇{x^3};h::∇{+/x^3}")
    assert kt["g"](2.0) == 12.0
    assert host(kt["h"]([1.0, 2.0])).tolist() == [3.0, 12.0]


def test_gradient_function_called_from_python_numpy(kn):
    kn("g::∇{x^3};h::∇{+/x^3}")
    assert abs(kn["g"](2.0) - 12.0) < 1e-6
    assert np.allclose(host(kn["h"]([1.0, 2.0])), [3.0, 12.0], atol=1e-6)


def test_gradient_function_through_bkf(k):
    check(k, '.bkf("sin");h::∇{sin(x)+x*x};h(3.14)', 2 * 3.14 + math.cos(3.14))


def test_gradient_function_needs_a_function(k):
    with pytest.raises(KlongError):
        k("∇3")


# ------------------------------------------------------------------ p∂f and .jacobian

JACOBIANS = [
    ("[1 2]∂{x^2}", [[2.0, 0.0], [0.0, 4.0]]),                       # vector -> vector
    ("[2 3]∂{((x@0)*x@1),(x@0)+x@1}", [[3.0, 2.0], [1.0, 1.0]]),
    ("[1 2 3]∂{+/x^2}", [2.0, 4.0, 6.0]),                          # vector -> scalar
    ("3∂{x^3}", 27.0),                                             # scalar -> scalar
    ("2∂{x,x^2}", [1.0, 4.0]),                                     # scalar -> vector
    ("[1 2]∂{[1 2 3]*+/x^2}", [[2.0, 4.0], [4.0, 8.0], [6.0, 12.0]]),  # 3 x 2
    ("[[1 2] [3 4]]∂{+/+/x^2}", [[2.0, 4.0], [6.0, 8.0]]),
    (".jacobian({x^2};[1 2])", [[2.0, 0.0], [0.0, 4.0]]),
    (".jacobian({(x@0)+x};[1 2])", [[2.0, 0.0], [1.0, 1.0]]),
    (".jacobian({x^3};2.0)", 12.0),
    (".jacobian({+/x^2};[1 2 3])", [2.0, 4.0, 6.0]),
]


@pytest.mark.parametrize("src, expected", JACOBIANS)
def test_jacobian(k, src, expected):
    value = check(k, src, expected)
    if np.ndim(expected) == 0:
        assert isinstance(value, float)


def test_jacobian_of_matrix_function_has_four_axes(k):
    value = k.run("[[1 2] [3 4]]∂{x^2}")
    assert tuple(value.shape) == (2, 2, 2, 2)
    want = np.zeros((2, 2, 2, 2))
    for i in range(2):
        for j in range(2):
            want[i, j, i, j] = 2 * (2 * i + j + 1)
    assert np.allclose(host(value), want, atol=TOL[k.backend.name])


def test_jacobian_with_variable_point(k):
    check(k, "p::[1.0 2.0];p∂{x^2}", [[2.0, 0.0], [0.0, 4.0]])


def test_jacobian_parameter_list(k):
    k("w::[1.0 2.0];b::0.5")
    j = k.run("J::[w b]∂{w*b}")
    assert len(j) == 2
    check(k, "J@0", [[0.5, 0.0], [0.0, 0.5]])
    check(k, "J@1", [1.0, 2.0])
    assert np.array_equal(host(k.run("w")), [1.0, 2.0]) and k("b") == 0.5


def test_jacobian_parameter_list_scalar_loss(k):
    k("w::2.0;b::[1.0 3.0];loss::{(w^2)++/b^2}")
    check(k, "([w b]∂loss)@0", 4.0)
    check(k, "([w b]∂loss)@1", [2.0, 6.0])
    assert k("w") == 2.0


@needs_torch
def test_jacobian_reports_a_broken_chain_as_gradients_do(kt):
    # no silent switch to numbers: ∂ agrees with :> (give the function a derivative instead)
    for src in ('.pyf("numpy";"sin");1.0∂{sin(x)}', '.pyf("numpy";"sin");{sin(x)}:>1.0'):
        with pytest.raises(KlongError) as info:
            kt(src)
        assert "autograd chain broken" in str(info.value)
    check(kt, '.pyf("numpy";"sin");1.0∂.numgrad(sin)', math.cos(1.0), tol=1e-6)


# ------------------------------------------------------------------ .gradcheck

@needs_torch
@pytest.mark.parametrize("src", [
    ".gradcheck({x^2};3.0)",
    ".gradcheck({+/x^2};[1.0 2.0 3.0])",
    ".gradcheck({x^2};[1.0 2.0])",
    ".gradcheck({x^2};3)",
    ".gradcheck({x^2};[[1.0 2.0] [3.0 4.0]])",
    '.bkf(["sin" "exp"]);.gradcheck({sin(x)*exp(x)};0.5)',
])
def test_gradcheck_agrees(kt, src):
    value = kt.run(src)
    assert value == 1 and isinstance(value, int)


@needs_torch
def test_gradcheck_disagrees_gives_zero(kt):
    # floor jumps inside the numeric step; autograd sees its derivative as 0
    assert kt.run(".gradcheck({x+_x};0.9999995)") == 0
    assert kt.run(".gradcheck({+/x+_x};[0.5 0.9999995])") == 0


@needs_torch
def test_gradcheck_errors_on_torch(kt):
    with pytest.raises(KlongError):
        kt(".gradcheck(3;3)")
    with pytest.raises(KlongError):
        kt('.gradcheck({x^2};"a")')


def test_gradcheck_needs_torch(kn):
    with pytest.raises(KlongError) as info:
        kn(".gradcheck({x^2};3.0)")
    assert "torch" in str(info.value)


# ------------------------------------------------------------------ constants, errors

@pytest.mark.parametrize("src, expected", [
    ("{3}:>2.0", 0.0),
    ("{3}:>[1 2]", [0.0, 0.0]),
    ("{0*x}:>2.0", 0.0),
    ("{3+0*x}:>2.0", 0.0),
    ("{+/3+0*x}:>[1 2]", [0.0, 0.0]),
    ("{#x}:>[1 2 3]", [0.0, 0.0, 0.0]),
    ("2∂{3}", 0.0),
    ("[1 2]∂{3}", [0.0, 0.0]),
    ("[1 2]∂{0*x}", [[0.0, 0.0], [0.0, 0.0]]),
])
def test_constant_functions_have_zero_gradient(k, src, expected):
    check(k, src, expected)


def test_constant_function_numeric_gradient(k):
    assert k("2∇{3}") == 0.0
    check(k, "[1 2]∇{5}", [0.0, 0.0], tol=0)


@pytest.mark.parametrize("src", [
    "{x^2}:>[1 2 3]",
    "{x}:>[1 2]",
    "{+/x^2}:>[[1 2] [3 4]]",
    "[1 2]∇{x}",
    "g::∇{x^3};g([1 2])",
    "w::1.0;L::{[1.0 2.0]*w};L:>[w]",
    "w::1.0;L::{[1.0 2.0]*w};L:>w",
])
def test_non_scalar_loss_is_an_error(k, src):
    with pytest.raises(KlongError) as info:
        k(src)
    assert "scalar" in str(info.value)


@pytest.mark.parametrize("src", [
    '{x}:>"abc"',
    '{x}:>[1 "a"]',
    "3:>{x}",
    "{x^2}∇3",
])
def test_bad_operands_are_errors(k, src):
    with pytest.raises(KlongError):
        k(src)


@pytest.mark.parametrize("src", ["{x^2}:>10^400", ".jacobian({x^2};10^400)",
                                 ".hessian({x^2};10^400)", "{+/x}:>(10^400),1"])
def test_a_point_too_large_for_a_real_is_a_range_error(kerr, src):
    assert kerr(src).kind == "range"


@needs_torch
def test_broken_autograd_chain_is_an_error(kt):
    # a Python function that turns the tensor into a float: no gradient can flow
    kt["msq"] = lambda x: math.sqrt(x)
    with pytest.raises(KlongError):
        kt("{msq(x)}:>4.0")
    with pytest.raises(KlongError):
        kt('.pyf("numpy";"sin");{sin(x)}:>1.0')


def test_python_functions_are_fine_on_numpy(kn):
    kn["msq"] = lambda x: math.sqrt(x)
    check(kn, "{msq(x)}:>4.0", 0.25)


# ------------------------------------------------------------------ training

TRAIN_SETUP = "w::1.0;b::0.0;X::[1 2 3];Y::[3 5 7];loss::{(+/((w*X)+b-Y)^2)%3}"


def test_training_idiom(k):
    k(TRAIN_SETUP)
    k("step::{[g];g::loss:>[w b];w::w-0.05*g@0;b::b-0.05*g@1;x}")
    k("step'!2000")
    assert abs(k("w") - 2.0) < 1e-6
    assert abs(k("b") - 1.0) < 1e-6
    assert k("loss()") < 1e-12


def test_training_idiom_literal(kn):
    # system.md B.2 applies the nilad step with each (step'!2000): a nilad under an adverb
    # is called without arguments (our extension, docs/programs.md)
    kn(TRAIN_SETUP)
    kn("step::{[g];g::loss:>[w b];w::w-0.05*g@0;b::b-0.05*g@1;0}")
    kn("step'!2000")
    assert abs(kn("w") - 2.0) < 1e-3 and abs(kn("b") - 1.0) < 1e-3


def test_gradient_descent_with_bare_variable(k):
    k("f::{((x-3)^2)+1};p::0.0;{x;p::p-0.1*f:>p}'!200")
    assert abs(k("p") - 3.0) < 1e-6


def test_a_variable_real_point_is_differentiated_as_any_point(k):
    """`f:>p` of a variable holding a real (a descent step; numpy takes a shorter road to
    the differences there) gives the bits of the general road (taken under .anomaly), binds
    p to each point f is evaluated at, and restores p, after an error too."""
    k("p::2.0;f::{(x*x)+p};g::{(x^3)-2*x}")
    fast = [k("f:>p"), k("g:>p")]
    k(".anomaly(1)")
    assert [k("f:>p"), k("g:>p")] == fast
    k(".anomaly(0)")
    assert abs(fast[0] - 5.0) < TOL[k.backend.name]       # p moves with x: d(x*x+x) = 5
    assert k("p") == 2.0
    k("p::2.5;h::{:[x>2.5;x+\"a\";x*x]};e::{x+\"a\"}")   # (h fails at a point past p)
    for failing in ["h:>p", "e:>p"] if k.backend.name == "numpy" else ["e:>p"]:
        with pytest.raises(KlongError):
            k(failing)
        assert k("p") == 2.5


def test_a_variable_real_point_off_the_common_road(k):
    """The descent step's road written out for its first try goes back to the general one
    where an evaluation fails (a root near the edge of its domain: a smaller step) or
    gives a one-element list, with the general road's bits and the same evaluations."""
    k("n::0;r::{n::n+1;x^0.5};s::{n::n+1;,(x*x)-1};t::{n::n+1;x*x}")
    cases = [("p::0.000001", "r:>p"), ("p::1.5", "s:>p"), ("p::1.5", "t:>p")]
    fast = []
    for point, grad in cases:
        k(point)
        k("n::0")
        fast.append((k(grad), k("n"), k("p")))
    k(".anomaly(1)")
    for (point, grad), want in zip(cases, fast):
        k(point)
        k("n::0")
        assert (k(grad), k("n"), k("p")) == want
    k(".anomaly(0)")
    assert fast[2][1] == (5 if k.backend.name == "numpy" else 1)
    assert abs(fast[1][0] - 3.0) < TOL[k.backend.name]


# ------------------------------------------------------------------ gradients_of (Python)

def test_gradients_of_values_and_types(k):
    k("w::2.0;b::3.0;loss::{(w^2)+(b^2)}")
    g = gradients_of(k, "loss", ["w", "b"])
    assert isinstance(g, list) and len(g) == 2
    tol = TOL[k.backend.name]
    assert abs(float(g[0]) - 4.0) < tol and abs(float(g[1]) - 6.0) < tol
    assert k["w"] == 2.0 and k["b"] == 3.0


def test_gradients_of_accepts_a_function_value_and_arrays(k):
    k("V::[1.0 2.0];l2::{+/V^2}")
    g = gradients_of(k, k.globals["l2"], ["V"])
    assert len(g) == 1
    assert isinstance(g[0], k.backend.array_type)
    assert np.allclose(host(g[0]), [2.0, 4.0], atol=TOL[k.backend.name])
    assert np.array_equal(host(k["V"]), [1.0, 2.0])


def test_gradients_of_trains_from_python(k):
    k(TRAIN_SETUP)
    for _ in range(2000):
        gw, gb = gradients_of(k, "loss", ["w", "b"])
        k["w"] = k["w"] - 0.05 * gw
        k["b"] = k["b"] - 0.05 * gb
    assert abs(float(k["w"]) - 2.0) < 1e-6
    assert abs(float(k["b"]) - 1.0) < 1e-6


def test_gradients_of_works_outside_klong_code(k):
    # called from plain Python with no Klong code running, on the interpreter's backend
    k("M::[[1.0 2.0] [3.0 4.0]];lm::{+/+/M^3}")
    (g,) = gradients_of(k, "lm", ["M"])
    assert isinstance(g, k.backend.array_type)
    assert np.allclose(host(g), 3 * np.array([[1.0, 4.0], [9.0, 16.0]]), atol=1e-5)


# ------------------------------------------------------------------ nested gradients

NESTED = [
    # an inner gradient of a function that captures the outer variable
    ("{[s];s::x;{(x-s)^2}:>2.0}:>1.0", -2.0),
    ("{[s];s::x;{s*x^3}:>2.0}:>1.0", 12.0),
    ("{[s];s::x;.hessian({s*x^3};2.0)}:>1.0", 12.0),
    ("{[s];s::x;+/,/[1.0 2.0]∂{s*x^2}}:>1.0", 6.0),
    ("w::1.0;{[s];s::x;loss::{s*w^3};(loss:>[w])@0}:>2.0", 3.0),
    # an inner gradient at a point the outer one tracks: a fresh variable, still connected
    ("{[s];s::x;s*{x*s}:>s}:>1.0", 2.0),
    ("{[s];s::x;{s*x^3}:>x}:>1.0", 9.0),
    ("{[s];s::x;{s*x^3}:>x}:>2.0", 36.0),
    ("{[s];s::x;(∇{s*x^3})(x)}:>1.0", 9.0),
    ("{+/{[s];s::x;{s*x^2}:>x}'x}:>[1.0 2.0]", [4.0, 8.0]),
]


@pytest.mark.parametrize("src, expected", NESTED)
def test_nested_gradients(k, src, expected):
    check(k, src, expected)


@pytest.mark.parametrize("fn", ["{[s];s::x;{s*x^3}:>x}", "{[s];s::x;s*{x*s}:>s}",
                                "{[s];s::x;{(x-s)^2}:>2.0}"])
def test_nested_gradient_agrees_with_central_differences(k, fn):
    exact = k(f"{fn}:>1.5")
    numeric = k(f"1.5∇{fn}")
    assert abs(exact - numeric) < 1e-6


@needs_torch
def test_gradcheck_of_a_nested_gradient(kt):
    assert kt(".gradcheck({[s];s::x;{s*x^3}:>x};1.0)") == 1
    assert kt(".gradcheck({[s];s::x;s*{x*s}:>s};1.5)") == 1


@needs_torch
def test_top_level_gradients_carry_no_graph(kt):
    g = kt.run("df::{{+/x^3}:>x};df([1.0 2.0])")
    assert not g.requires_grad
    assert not kt.run("{+/{[s];s::x;{s*x^3}:>x}'x}:>[1.0 2.0]").requires_grad


# ------------------------------------------------------------------ names, text, edges

def test_a_name_given_twice_gets_the_same_gradient(k):
    check(k, "w::2.0;{w^2}:>[w w]", [4.0, 4.0])
    check(k, "w::2.0;b::1.0;{(w^2)+3*b}:>[w b w]", [4.0, 3.0, 4.0])
    j = k.run("w::2.0;[w w]∂{w^2}")
    assert [float(host(v)) for v in j] == pytest.approx([4.0, 4.0], abs=TOL[k.backend.name])
    assert k("w") == 2.0


@needs_torch
def test_text_made_from_a_differentiated_value_is_an_error(kt, capsys):
    for src in ("{.rs($x)}:>2.0", "{.rs(10.3$x)}:>2.0", "{+/.rs(\"[\",($x),\"]\")}:>[1.0 2.0]"):
        with pytest.raises(KlongError) as info:
            kt(src)
        assert "autograd chain broken" in str(info.value)
    assert kt("{.p(x);x^2}:>3.0") == 6.0           # printing is fine
    assert capsys.readouterr().out.strip().endswith("3.0")


def test_text_round_trip_on_numpy_is_differentiated_numerically(kn):
    check(kn, "{.rs($x)}:>2.0", 1.0)


@pytest.mark.parametrize("src", ["{x^0.5}:>0.0", "{+/x^0.5}:>[0.0 1.0]", "0.0∂{x^0.5}",
                                 "{x^1000}:>10.0", "0.0∇{x^0.5}"])
def test_no_finite_gradient_is_a_domain_error(k, src):
    with pytest.raises(KlongError) as info:
        k(src)
    assert info.value.kind == "domain" and "no finite gradient" in str(info.value)


@pytest.mark.parametrize("point", ["1e-7", "1e-3", "0.5"])
def test_gradient_near_the_edge_of_the_domain(k, point):
    x = float(point)
    value = k(f"{{x^0.5}}:>{point}")
    assert abs(value - 0.5 / math.sqrt(x)) < 1e-6 * max(1.0, 0.5 / math.sqrt(x))


@pytest.mark.parametrize("src, expected", [
    ("{0.0++/x}:>[]", []),
    ("{+/x}:>[]", []),
    ("e::[];{0.0++/e}:>[e]", [[]]),
])
def test_empty_point_has_an_empty_gradient(kw, src, expected):
    assert kw(src) == ("[[]]" if expected == [[]] else "[]")


@needs_torch
def test_python_math_agrees_between_jacobian_and_gradient(kt):
    kt('.py("math")')
    for src in ("4.0∂{sqrt(x)}", "{sqrt(x)}:>4.0"):
        with pytest.raises(KlongError) as info:
            kt(src)
        assert "autograd chain broken" in str(info.value)


# ------------------------------------------------------------------ custom derivatives

def msqrt(x):
    return math.sqrt(x)


msqrt.grad = lambda x: 0.5 / math.sqrt(x)


def hypot(x, y):
    return math.hypot(x, y)


hypot.grad = lambda x, y: [x / math.hypot(x, y), y / math.hypot(x, y)]


def test_python_function_with_a_derivative(k):
    k["msqrt"] = msqrt
    k["hyp"] = hypot
    check(k, "msqrt:>4.0", 0.25)
    check(k, "{msqrt(x)*x}:>4.0", 3.0)
    check(k, "{+/{msqrt(x)}'x}:>[4.0 9.0]", [0.25, 1 / 6])
    check(k, "{hyp(x;4.0)}:>3.0", 0.6)
    check(k, "{hyp(x;x)}:>1.0", math.sqrt(2))
    assert k("msqrt(9.0)") == 3.0


@needs_torch
def test_the_attached_derivative_is_the_one_used(kt):
    def double(x):
        return float(x) * 2              # not torch-aware

    double.grad = lambda x: 7.0          # deliberately not 2: shows which derivative runs
    kt["double"] = double
    assert kt("double:>1.0") == 7.0
    kt["msqrt"] = msqrt
    assert kt(".gradcheck(msqrt;4.0)") == 1
    with pytest.raises(KlongError) as info:     # math has no second derivative to offer
        kt("{msqrt:>x}:>4.0")
    assert "autograd chain broken" in str(info.value)


CUBE_MODULE = '''
import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x ** 2
'''


@needs_torch
def test_autograd_function_subclass_through_pyf(kt, tmp_path):
    path = tmp_path / "klong_test_cubes.py"
    path.write_text(CUBE_MODULE)
    kt(f'.pyf("{path}";"Cube")')
    assert kt("Cube(2.0)") == 8.0
    assert kt("Cube:>2.0") == 12.0
    check(kt, "{+/Cube(x)}:>[1.0 2.0]", [3.0, 12.0])
    assert kt("{Cube:>x}:>2.0") == 12.0          # its backward is torch code: differentiable
    assert kt(".gradcheck(Cube;1.5)") == 1


def test_customgrad(k):
    k("cube::.customgrad({x^3};{3*x^2})")
    check(k, "cube(2.0)", 8.0)
    check(k, "cube:>2.0", 12.0)
    check(k, "{cube(x)*x}:>2.0", 32.0)
    check(k, "{+/cube(x)}:>[1.0 2.0]", [3.0, 12.0])
    check(k, "{cube:>x}:>2.0", 12.0)
    k("mul::.customgrad({x*y};{y,x})")
    check(k, "{mul(x;3.0)}:>2.0", 3.0)
    check(k, "{mul(3.0;x)}:>2.0", 3.0)
    check(k, "{mul(x;x)}:>2.0", 4.0)


@needs_torch
def test_customgrad_derivative_is_used_on_torch(kt):
    # a straight-through estimator: rounding forward, the identity's derivative backward
    kt("ste::.customgrad({_x+0.5};{1})")
    assert kt("ste(2.7)") == 3
    assert kt("ste:>2.7") == 1.0
    check(kt, "{+/ste(x)*[1.0 2.0]}:>[0.2 1.7]", [1.0, 2.0])
    assert kt("cube::.customgrad({x^3};{3*x^2});.gradcheck(cube;1.5)") == 1
    # a derivative given as the whole Jacobian (shape of f(x), then shape of x)
    kt("dbl::.customgrad({x*2};{2.0*[[1 0] [0 1]]})")
    check(kt, "{+/dbl(x)*[1.0 10.0]}:>[1.0 2.0]", [2.0, 20.0])
    with pytest.raises(KlongError) as info:
        kt("bad::.customgrad({x*2};{[1.0 2.0 3.0]});{+/bad(x)}:>[1.0 2.0]")
    assert info.value.kind == "length"


def test_numeric_derivative_on_both_backends(k):
    k('.py("math");ns::.numgrad(sqrt);na::.numgrad(atan2)')
    check(k, "ns:>4.0", 0.25, tol=1e-6)
    check(k, "{ns(x)*x}:>4.0", 3.0, tol=1e-6)
    check(k, "{+/{ns(x)}'x}:>[4.0 9.0]", [0.25, 1 / 6], tol=1e-6)
    check(k, "{na(x;4.0)}:>3.0", 0.16, tol=1e-6)
    check(k, "4.0∂ns", 0.25, tol=1e-6)


@needs_torch
def test_numeric_derivative_within_a_millionth_of_exact(kt):
    kt('.py("math");ns::.numgrad(sqrt)')
    for x in (0.5, 1.0, 4.0, 9.0, 100.0):
        assert abs(kt(f"ns:>{x}") - kt(f"{{x^0.5}}:>{x}")) < 1e-6
    assert kt(".gradcheck(ns;4.0)") == 1
    with pytest.raises(KlongError) as info:         # central differences are first order
        kt("{ns:>x}:>4.0")
    assert "autograd chain broken" in str(info.value)


@pytest.mark.parametrize("src, kind", [
    (".customgrad(3;{x})", "type"),
    (".customgrad({x};3)", "type"),
    (".customgrad({x*y};{x})", "arity"),
    (".numgrad(3)", "type"),
])
def test_custom_derivative_errors(kerr, src, kind):
    assert kerr(src).kind == kind


# ------------------------------------------------------------------ anomaly detection

@needs_torch
def test_anomaly_names_the_klong_function(kt):
    import torch
    kt("root::{x^0.5};damped::{root(x)*0}")
    with pytest.raises(KlongError) as info:
        kt("damped:>0.0")
    assert "no finite gradient" in str(info.value) and ".anomaly" in str(info.value)
    assert kt(".anomaly(1)") == 0
    with pytest.raises(KlongError) as info:
        kt("damped:>0.0")
    assert info.value.kind == "domain"
    assert "NaN" in str(info.value) and "in root" in str(info.value)
    with pytest.raises(KlongError) as info:
        kt("{(x^0.5)*0}:>0.0")
    assert "anonymous function" in str(info.value)
    assert kt("{x^3}:>2.0") == 12.0                 # exact gradients are unchanged
    assert kt(".anomaly(0)") == 1
    assert not torch.is_anomaly_enabled()
    with pytest.raises(KlongError) as info:
        kt("damped:>0.0")
    assert "in root" not in str(info.value)


def test_anomaly_switch_on_numpy(kn):
    assert kn(".anomaly(1)") == 0
    check(kn, "{x^3}:>2.0", 12.0)
    assert kn(".anomaly(0)") == 1


# ------------------------------------------------------------------ .gradcheck precision

@needs_torch
def test_gradcheck_needs_float64(kt):
    import torch
    kt.backend.float_dtype = torch.float32     # an interpreter computing in float32
    kt.backend._dtypes["f"] = torch.float32
    with pytest.raises(KlongError) as info:
        kt(".gradcheck({x^2};3.0)")
    assert "float64" in str(info.value) and "float32" in str(info.value)


# ------------------------------------------------------------------ the examples

EXAMPLES = ROOT / "examples" / "autograd"


def _run(args, cwd):
    proc = subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          timeout=600, cwd=cwd)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout.splitlines()


@pytest.mark.parametrize("backend", BACKENDS)
def test_custom_gradients_example(backend):
    out = _run([str(ROOT / "kgpy"), "--backend", backend, "custom_gradients.kg"], EXAMPLES)
    assert out == ["d/dx erf(x)^2 at 0.5: 0.914812", "d/dx norm(x;4) at 3: 0.6",
                   "softplus'(0) = 0.5", "softplus'(2) = 0.880797",
                   "second derivative at 0 = 0.25", "lgamma'(3) = 0.922784",
                   "minimum at -0.211", "slope there: 0.0"]


@needs_torch
def test_anomaly_example():
    out = _run([str(EXAMPLES / "anomaly.py")], ROOT)
    assert out[0].startswith(".anomaly(0): domain error: no finite gradient")
    assert out[1] == (".anomaly(1): domain error: NaN in the gradient: the backward of pow "
                      "(PowBackward0) in root gave NaN")
    assert out[2].startswith("with an epsilon: [0.0, 0.4999")
