"""Capture and replay of Klong functions on torch (klong/runtime/capture.py): a function
called again and again replays its recorded tensor operations, and gives the same bits as
the ordinary evaluation (KLONG_CAPTURE=0), guards and fallbacks included."""
import pytest

from klong import KlongInterpreter

torch = pytest.importorskip("torch")

LINREG = """X::[1.0 2.0 3.0 4.0 5.0]
Y::[3.0 5.0 7.0 9.0 11.0]
w::0.0
b::0.0
loss::{(+/((b+w*X)-Y)^2)%#X}
step::{[g];g::loss:>[w b];w::w-0.02*g@0;b::b-0.02*g@1}"""

# a vector of weights, a real bias, a tanh inside
TANH = """X::[0.5 -1.0 2.0 0.25]
Y::[1.0 0.0 -1.0 0.5]
v::[0.1 0.2 0.3 0.4]
c::0.5
loss::{+/(tanh(c+v*X)-Y)^2}
step::{[g];g::loss:>[v c];v::v-0.05*g@0;c::c-0.05*g@1}"""

QUADRATIC = """a::[3.0 -2.0 0.5]
p::[0.0 0.0 0.0]
f::{+/(x-a)^2}
step::{p::p-0.1*f:>p}"""


def run(setup, call, steps, capture, names):
    k = KlongInterpreter(backend="torch", device="cpu", capture=capture)
    k(setup)
    results = [k.run(call) for _ in range(steps)]
    return k, results, [k.globals[n] for n in names]


def assert_same(a, b):
    assert type(a) is type(b)
    if hasattr(a, "facts"):             # a function: each interpreter has its own
        assert repr(a) == repr(b)
        return
    if isinstance(a, torch.Tensor):
        assert a.dtype == b.dtype and a.shape == b.shape and torch.equal(a, b)
    elif isinstance(a, list):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y)
    else:
        assert a == b


@pytest.mark.parametrize("setup, names, replayed", [
    (LINREG, ["w", "b"], "step"),
    (".bkf(\"tanh\")\n" + TANH, ["v", "c"], "step"),
    (QUADRATIC, ["p"], "step"),
])
def test_25_steps_bit_identical(setup, names, replayed):
    on, results_on, params_on = run(setup, "step()", 25, True, names)
    off, results_off, params_off = run(setup, "step()", 25, False, names)
    for a, b in zip(params_on + results_on, params_off + results_off):
        assert_same(a, b)
    report = on.capture.explain().splitlines()
    assert report[0] == "capture: on"
    # 25 calls: one ordinary, one recorded, two replays checked against the ordinary
    assert f"{replayed}: captured, 1 variant(s), 21 replays" in report
    assert off.capture.explain().splitlines()[0] == "capture: off"


def steps_both(setup, calls):
    """Run the same calls with capture on and off; every result and global the same."""
    ks = [KlongInterpreter(backend="torch", device="cpu", capture=c) for c in (True, False)]
    for k in ks:
        k(setup)
    for call in calls:
        a, b = (k.run(call) for k in ks)
        assert_same(a, b)
    for name in ks[1].globals:
        if not name.startswith("."):
            x, y = ks[0].globals[name], ks[1].globals[name]
            if isinstance(x, (torch.Tensor, float, int, list)):
                assert_same(x, y)
    return ks[0]


def test_shape_change_falls_back():
    k = steps_both(LINREG, ["step()"] * 5 + ["X::[1.0 2.0 3.0];Y::[2.0 4.0 6.0]"]
                   + ["step()"] * 5)
    assert "step: captured, 2 variant(s)" in k.capture.explain()


def test_dtype_change_falls_back():
    k = steps_both(LINREG, ["step()"] * 5 + ["X::[1 2 3 4 5]"] + ["step()"] * 5)
    assert "step: captured, 2 variant(s)" in k.capture.explain()


def test_rebound_function_falls_back():
    steps_both(LINREG, ["step()"] * 5 + ["loss::{(+/((b+w*X)-Y)^2)%2*#X}"] + ["step()"] * 5)


def test_other_branch_falls_back():
    setup = LINREG + "\nf::{:[w>1.0;w*2.0;w+1.0]}"
    k = steps_both(setup, ["f()"] * 4 + ["w::5.0"] + ["f()"] * 4 + ["w::0.5"] + ["f()"] * 3)
    assert "f: captured, 2 variant(s)" in k.capture.explain()


def test_integer_overflow_falls_back():
    setup = "n::3\nf::{n*n}"
    steps_both(setup, ["f()"] * 4 + ["n::4000000000"] + ["f()"] * 3
               + ["n::4000000000000"] + ["f()"] * 3)


def test_printing_is_never_captured(capsys):
    k = KlongInterpreter(backend="torch", device="cpu")
    k("w::1.0;f::{.p(w);w::w*2.0}")
    for _ in range(4):
        k("f()")
    assert capsys.readouterr().out == "1.0\n2.0\n4.0\n8.0\n"
    assert "f: not captured: it calls .p, which has effects" in k.capture.explain()


def test_switched_off_by_the_environment(monkeypatch):
    monkeypatch.setenv("KLONG_CAPTURE", "0")
    k = KlongInterpreter(backend="torch", device="cpu")
    assert k.capture.enabled is False
    monkeypatch.setenv("KLONG_CAPTURE", "1")
    assert KlongInterpreter(backend="torch", device="cpu").capture.enabled is True


def test_numpy_has_no_capture():
    k = KlongInterpreter(backend="numpy")
    assert k.capture.enabled is False
    assert k.capture.explain() == "capture: not available on the numpy backend"
