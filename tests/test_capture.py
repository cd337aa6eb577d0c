"""Capture and replay of Klong functions on torch (klong/runtime/capture.py): a function
called again and again replays its recorded tensor operations, and gives the same bits as
the ordinary evaluation (KLONG_CAPTURE=0), guards and fallbacks included."""
import re

import pytest

from klong import KlongInterpreter

# what replays compute, whatever the machine's load (conftest.py)
pytestmark = pytest.mark.usefixtures("capture_untimed")

torch = pytest.importorskip("torch")
from klong.backends import torch_capture  # noqa: E402

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

# matrix products through Each over the rows (a body torch.vmap batches)
MLP = """.bkf("tanh")
X::((([16 4]:^!64)!7)%7)-0.5
Y::(+/'X)%4
W1::0.1*(([8 4]:^!32)!5)-2
B1::0.01*!8
W2::0.1*(!8)-4
B2::0.0
loss::{[h];h::tanh({B1+x{+/x*y}:/W1}'X);(+/((B2+{+/x*W2}'h)-Y)^2)%16}
step::{[g];g::loss:>[W1 B1 W2 B2];W1::W1-0.1*g@0;B1::B1-0.1*g@1;W2::W2-0.1*g@2;B2::B2-0.1*g@3}"""

QUADRATIC = """a::[3.0 -2.0 0.5]
p::[0.0 0.0 0.0]
f::{+/(x-a)^2}
step::{p::p-0.1*f:>p}"""


def run(setup, call, steps, capture, names, codegen=True):
    k = KlongInterpreter(backend="torch", device="cpu", capture=capture, codegen=codegen)
    k(setup)
    results = [k.run(call) for _ in range(steps)]
    return k, results, [k.globals[n] for n in names]


def assert_same(a, b):
    assert type(a) is type(b)
    if hasattr(a, "facts"):             # a function: each interpreter has its own
        assert repr(a) == repr(b)
        return
    if isinstance(a, torch.Tensor):
        assert a.dtype == b.dtype and a.shape == b.shape
        if a.is_floating_point():       # bit for bit: NaN where NaN, the signs of zeros
            assert torch.equal(a.isnan(), b.isnan()) and torch.equal(a.signbit(), b.signbit())
            assert torch.equal(a.nan_to_num(0.0), b.nan_to_num(0.0))
        else:
            assert torch.equal(a, b)
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
    (MLP, ["W1", "B1", "W2", "B2"], "step"),
])
@pytest.mark.parametrize("codegen", [True, False])
def test_25_steps_bit_identical(setup, names, replayed, codegen):
    on, results_on, params_on = run(setup, "step()", 25, True, names, codegen)
    off, results_off, params_off = run(setup, "step()", 25, False, names, codegen)
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


@pytest.mark.parametrize("codegen", [True, False])
def test_dictionaries_joined_in_place_are_never_captured(codegen):
    # a join to a dictionary changes it in place: recording a call would repeat it
    k = KlongInterpreter(backend="torch", device="cpu", codegen=codegen)
    assert k("d:::{};{d,x,:[:_d?x;1;1+d?x]}'[3 1 3 3 2];d?3") == 3
    k("l::[1],,:{};f::{(l@1),x,1+x;x}")
    for i in (1, 2, 3, 1):
        k(f"f({i})")
    assert k("(l@1)?1") == 2
    assert "f: not captured: it reads l, which holds a dictionary" in k.capture.explain()


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


def test_descent_over_an_each_replays():
    """{x;...}: a parameter whose value is never used is no input; the literal evaluated
    again on the next run replays at once (its records are the literal's)."""
    setup, src = "f::{((x-3)^2)+1}", "p::0.0;{x;p::p-0.1*f:>p}'!50;p"
    on = KlongInterpreter(backend="torch", device="cpu")
    off = KlongInterpreter(backend="torch", device="cpu", capture=False)
    for k in (on, off):
        k(setup)
    assert [on(src) for _ in range(3)] == [off(src) for _ in range(3)]
    assert "{x;p::p-0.1*f:>p}: captured, 1 variant(s), 146 replays" in on.capture.explain()


def test_random_numbers_and_output_are_never_captured(tmp_path):
    k = KlongInterpreter(backend="torch", device="cpu", seed=3)
    path = str(tmp_path / "out.txt").replace("\\", "/")
    k(f'r::0.0;f::{{r::r+.rn()}};g::{{[c];c::.oc("{path}");.w(r);.cc(c)}}')
    for _ in range(4):
        k("f()")
        k("g()")
    report = k.capture.explain()
    assert "f: not captured: it calls .rn, which has effects" in report
    assert "g: not captured: it calls .oc, which has effects" in report \
        or "g: not captured: it calls .w, which has effects" in report \
        or "g: not captured: it calls .cc, which has effects" in report
    again = KlongInterpreter(backend="torch", device="cpu", seed=3, capture=False)
    again("r::0.0;f::{r::r+.rn()}")
    for _ in range(4):
        again("f()")
    assert k["r"] == again["r"]


def test_explain_says_what_and_why():
    k = KlongInterpreter(backend="torch", device="cpu")
    k("a::[1.0 2.0];f::{+/a*x};g::{[q];q::{x+1};q(x)}")
    assert k.capture.explain() == "capture: on\nno function has been called twice yet"
    k("f(2.0)")
    assert k.capture.explain() == "capture: on"  + "\nno function has been called twice yet"
    k("f(2.0)")
    k("f(2.0)")
    assert k.capture.explain().splitlines()[1] == "f: captured, 1 variant(s), 0 replays"
    k("fib::{:[x<2;x;fib(x-1)+fib(x-2)]};h::{.f}")
    report = k.capture.explain().splitlines()
    assert "fib: not captured: it calls itself" in report
    assert "h: not captured: it reads .f" in report
    k.capture.set_enabled(False)
    assert k.capture.explain().splitlines()[0] == "capture: off"


def test_repl_command_and_options(capsys):
    from klong.frontends.replcommands import run_command

    class Session:
        def __init__(self, interp):
            self.interp = interp

        def error(self, text):
            print("error:", text)

    k = KlongInterpreter(backend="torch", device="cpu")
    session = Session(k)
    run_command(session, "]o")
    assert "capture: on" in capsys.readouterr().out
    run_command(session, "]c off")
    assert capsys.readouterr().out.startswith("capture: off")
    assert k.capture.enabled is False
    run_command(session, "]c on")
    assert capsys.readouterr().out.startswith("capture: on")
    run_command(session, "]c sideways")
    assert capsys.readouterr().out == "error: ]c: on, off, or nothing (what was captured, and why not)\n"
    n = KlongInterpreter(backend="numpy")
    run_command(Session(n), "]o")
    assert "capture" not in capsys.readouterr().out     # (numpy has none)


def test_kgpy_no_capture():
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "klong", "--backend", "torch", "--device", "cpu",
                        "--no-capture", "-e", "1+1"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "2"


def test_remembered_magnitudes_are_checked_again():
    """A big integer array's magnitude is remembered for its lifetime; a record checks the
    magnitude of the array it is given, so a product that leaves int64 is exact."""
    k = steps_both("a::!100\nf::{a*a}", ["f()"] * 4 + ["a::4000000000+!100"] + ["f()"] * 2)
    assert k("*|f()") == (4000000099) ** 2


def test_a_step_inside_an_each_over_rows():
    """A captured function called from a body that torch.vmap batches runs as usual."""
    steps_both(".bkf(\"tanh\")\nW::[0.5 -0.25 1.0]\ng::{tanh(x*W)}\nm::[3 3]:^0.1*!9",
               ["g(1.0)"] * 4 + ["g'm"] * 3 + ["+/g'm"] * 3)


def replay_source(k, name):
    return k.capture.records[k.globals[name].facts].source()


def test_an_each_torch_vmap_batches_replays_as_its_operations():
    """The body of an Each that torch.vmap batches is replayed as the operations vmap ran
    for it (on whole tensors), not through vmap again: the same bits over 25 steps (the
    test above) and no vmap left in the record."""
    on, _, _ = run(MLP, "step()", 4, True, [])
    source = replay_source(on, "step")
    assert "def v" not in source and "mm(" not in source      # no body, no vmap call
    names = {getattr(v, "__name__", "") for v in
             on.capture.records[on.globals["step"].facts].variants[0].replay.__globals__.values()}
    assert "_vmap" not in names


# a loss summing more than 64 terms, of an odd count: Klong's order halves the terms
# (the odd one set aside) before the running sum
LONG_SUM = """X::(!131)%13
Y::3.0+2.0*X
w::0.0
b::0.0
loss::{(+/((b+w*X)-Y)^2)%#X}
step::{[g];g::loss:>[w b];w::w-0.001*g@0;b::b-0.001*g@1}"""


@pytest.mark.parametrize("codegen", [True, False])
def test_a_long_sum_replays_bit_identical(codegen):
    on, results_on, params_on = run(LONG_SUM, "step()", 25, True, ["w", "b"], codegen)
    off, results_off, params_off = run(LONG_SUM, "step()", 25, False, ["w", "b"], codegen)
    for a, b in zip(params_on + results_on, params_off + results_off):
        assert_same(a, b)
    assert "step: captured, 1 variant(s), 21 replays" in on.capture.explain()


def test_a_long_sum_differentiated_replays_its_fold_as_one_step():
    """The sum in Klong's order of a vector being differentiated (torch's sum the graph's
    step holding it) is one call of the record, numpy's steps on the CPU, not torch's
    slices and additions one by one: the same bits as the ordinary evaluation."""
    setup = "f::{+/x^2};v::0.001*!100000"
    on, results_on, _ = run(setup, "f:>v", 2, True, [])      # (the second call recorded)
    names = [getattr(v, "__name__", "") for v in
             on.capture.records[on.globals["f"].facts].variants[0].replay.__globals__.values()]
    assert "_sum_values" in names and "narrow" not in names and "add" not in names
    results_on += [on.run("f:>v") for _ in range(4)]
    off, results_off, _ = run(setup, "f:>v", 6, False, [])
    for a, b in zip(results_on, results_off):
        assert_same(a, b)
    assert on("+/v^2") == off("+/v^2")


def test_a_global_given_back_as_it_is():
    """A function whose result is a global's real, untouched, replays it (it was once
    recorded without the global among its inputs)."""
    k = steps_both("c::1.0\nf::{c}\nd::{c::c+1.0;c}",
                   ["f()", "f()", "d()", "f()", "d()", "d()", "f()", "f()", "d()", "f()",
                    "d()", "f()"])
    report = k.capture.explain()
    assert "f: captured, 1 variant(s), 3 replays" in report
    assert "d: captured, 1 variant(s), 1 replays" in report
    assert k("f()") == 6.0


def test_a_line_run_again_is_read_as_before():
    """k(line) again skips looking for the end of the chunk (a step called again and
    again); results, errors and comment blocks are as the first time."""
    from klong import KlongError
    k = KlongInterpreter(backend="numpy")
    for _ in range(3):
        assert k("1+1") == 2
        assert k("") is None
        with pytest.raises(KlongError, match="^syntax error: missing operand$"):
            k("(1+")
        with pytest.raises(KlongError, match="undelimited comment: no line starts with 'end'"):
            k('.comment("end")')
        assert k('.comment("end")\nx\nend\n3') == 3
    assert "1+1" in k.complete_lines and "(1+" not in k.complete_lines


def _calls(k, name, wanted):
    """Whether the replay of the function `name` calls a function named `wanted`."""
    replay = k.capture.records[k.globals[name].facts].variants[0].replay
    source = replay_source(k, name)
    return any(f"{const}(" in source for const, v in replay.__globals__.items()
               if getattr(v, "__name__", "") == wanted)


@pytest.mark.parametrize("setup", [LINREG, MLP, ".bkf(\"tanh\")\n" + TANH])
def test_a_gradient_replays_as_its_backward_operations(setup):
    """`:>` of a scalar loss replays as the operations autograd's engine ran for its
    backward, one after another: the forward builds no graph (no requires_grad_) and no
    engine runs (the bits over 25 steps are checked above)."""
    on, _, _ = run(setup, "step()", 8, True, [])
    assert not _calls(on, "step", "run_backward") and not _calls(on, "step", "grad")
    # nothing is differentiated in the replay: a tensor detached is the tensor itself,
    # the leaves `:>` made included (their flag, set in place while recording, is not set
    # in the replay) and the tensors that held Klong's sums
    replay = on.capture.records[on.globals["step"].facts].variants[0].replay
    source = replay_source(on, "step")
    detaches = sum(source.count(f"{const}(") for const, v in replay.__globals__.items()
                   if getattr(v, "__name__", "") == "detach")
    assert detaches == 0, source
    assert not _calls(on, "step", "requires_grad_")
    assert re.search(r"step: captured, 1 variant\(s\), [1-9]", on.capture.explain())


# a gradient of a gradient: the inner one keeps its graph (create_graph), so the record
# calls the engine as the ordinary evaluation does
SECOND = """p::[1.0 2.0]
g::{+/x^3}
h::{+/g:>x}
step::{p::p-0.01*h:>p}"""


@pytest.mark.parametrize("codegen", [True, False])
def test_a_gradient_of_a_gradient_keeps_the_engine(codegen):
    on, results_on, params_on = run(SECOND, "step()", 25, True, ["p"], codegen)
    off, results_off, params_off = run(SECOND, "step()", 25, False, ["p"], codegen)
    for a, b in zip(params_on + results_on, params_off + results_off):
        assert_same(a, b)
    report = on.capture.explain()
    if "step: captured" in report:
        assert _calls(on, "step", "grad") or _calls(on, "step", "run_backward")


# the loss compiled by torch's compiler (aot_eager: a graph of its own forward and backward,
# quick to compile), differentiated with respect to the globals it reads
COMPILED = MLP + """
lx::{[h];h::tanh({B1+x{+/x*y}:/W1}'x);(+/((B2+{+/x*W2}'h)-Y)^2)%16}
cl::.compilex(lx;X;:{["backend" "aot_eager"]})
cstep::{[g];g::{cl(X)}:>[W1 B1 W2 B2];W1::W1-0.1*g@0;B1::B1-0.1*g@1;W2::W2-0.1*g@2;B2::B2-0.1*g@3}"""


@pytest.mark.parametrize("codegen", [True, False])
def test_a_step_calling_a_compiled_function_replays(codegen):
    """A compiled function is read as the function it compiles (no effects: capture goes
    on); its call is one step of the record, outside the recording, the globals `:>`
    bound given to it in the replay; the engine takes the gradient (the compiled backward
    shows no operations). 12 steps leave the same bits as with capture off."""
    names = ["W1", "B1", "W2", "B2"]
    on, results_on, params_on = run(COMPILED, "cstep()", 12, True, names, codegen)
    off, results_off, params_off = run(COMPILED, "cstep()", 12, False, names, codegen)
    for a, b in zip(params_on + results_on, params_off + results_off):
        assert_same(a, b)
    assert re.search(r"cstep: captured, 1 variant\(s\), [1-9]", on.capture.explain()), \
        on.capture.explain()
    source = on.globals["cstep"].run.records.source()
    assert "BOUND(" in source and ("'W1', " in source)
    assert _calls(on, "cstep", "grad") or _calls(on, "cstep", "run_backward")


def test_a_compiled_function_with_effects_is_not_captured(capsys):
    k = KlongInterpreter(backend="torch", device="cpu")
    k("""f::{.p(x);x*2.0}
cf::.compilex(f;[1.0 2.0];:{["backend" "eager"]})
step::{cf([1.0 2.0])}""")
    for _ in range(4):
        k("step()")
    assert "step: not captured: it calls .p, which has effects" in k.capture.explain()
    assert capsys.readouterr().out == "[1.0 2.0]\n" * 5


# Y%2.0 comes from data alone: a later call takes it from the call before while Y is the
# same tensor, unchanged
HELD = """X::[1.0 2.0 3.0 4.0 5.0]
Y::[6.0 10.0 14.0 18.0 22.0]
w::0.0
loss::{(+/((w*X)-(Y%2.0))^2)%#X}
step::{w::w-0.02*loss:>w}"""


@pytest.mark.parametrize("codegen", [True, False])
def test_what_comes_from_unchanged_data_is_kept(codegen):
    calls = ["step()"] * 6 + ["Y::Y:=30.0,2"] + ["step()"] * 3 + ["Y::Y:=7.0,0,1"] \
        + ["step()"] * 3 + ["Y::[2.0 4.0 6.0 8.0 10.0]"] + ["step()"] * 3 + ["in place"] \
        + ["step()"] * 3
    ks = [KlongInterpreter(backend="torch", device="cpu", capture=c, codegen=codegen)
          for c in (True, False)]
    for k in ks:
        k(HELD)
    for call in calls:
        if call == "in place":      # changed by Python, in place: the same tensor
            for k in ks:
                k.globals["Y"].mul_(2.0)
            continue
        assert_same(*(k.run(call) for k in ks))
        assert_same(ks[0].globals["w"], ks[1].globals["w"])
    assert "HOLD" in replay_source(ks[0], "step")
    assert "step: captured, 1 variant(s), 14 replays" in ks[0].capture.explain()


def test_an_each_over_rows_with_a_constant_in_its_body():
    """A vmapped body reading a constant of its own and a global: replayed as vmap's
    operations, the same bits as the ordinary evaluation, with new data too."""
    # (16 rows: the fewest over which Each traces its function with vmap)
    k = steps_both(".bkf(\"tanh\")\nm::[16 3]:^0.02*!48\nW::[3 3]:^0.5-0.1*!9\n"
                   "f::{+/+/tanh({[0.5 1.0 2.0]+x{+/x*y}:/W}'m)}\ng::{W::W*1.5;f()}",
                   ["g()"] * 6 + ["m::[16 3]:^0.03*!48"] + ["g()"] * 3)
    assert "g: captured, 1 variant(s), 5 replays" in k.capture.explain()
    source = replay_source(k, "g")
    assert "def v" not in source and "HOLD" in source


def test_a_zero_divisor_falls_back():
    """A division's test for zero divisors replays as one test (all of the divisor
    non-zero); a zero (or a negative zero) divisor takes the ordinary evaluation, as a NaN
    does not."""
    k = steps_both("d::[1.0 2.0 4.0]\nf::{x%d}",
                   ["f(3.0)"] * 5 + ["d::[1.0 0.0 4.0]"] + ["f(3.0)"] * 3
                   + ["d::[1.0 -0.0 4.0]"] + ["f(3.0)"] * 2
                   + ["d::[1.0 2.0],(1.0e308*10.0)-1.0e308*10.0"] + ["f(3.0)"] * 4
                   + ["d::[2.0 2.0 2.0]"] + ["f(3.0)"] * 2)
    assert "all(" not in replay_source(k, "f")        # (a name of the namespace)
    namespace = k.capture.records[k.globals["f"].facts].variants[0].replay.__globals__
    assert torch_capture._none_zero in namespace.values()


def test_a_rows_first_zero_falls_back():
    """A running sum of rows (torch's starts from 0.0) is guarded on the rows' first
    elements: a row of -0.0 sums to -0.0 only in the ordinary evaluation's fold, which the
    replay gives the call back to."""
    k = steps_both("s::1.0\nstep::{s::s-1.0;{+/x}'[[-1.0 -0.0] [1.0 2.0] [0.5 -0.0]]*s}",
                   ["step()"] * 5 + ["s::1.0"] + ["step()"] * 3)
    assert k.capture.records[k.globals["step"].facts].replays > 0


@pytest.mark.parametrize("src", [
    "+/[[-0.0 1.0] [-0.0 2.0]]", "*/[[-0.0 1.0] [2.0 -3.0] [0.5 0.5]]",
    "|/[[1.0 2.0] [3.0 -1.0] [0.0 5.0]]", "&/[[1.0 2.0] [3.0 -1.0]]",
    "+/[[-0.0 1.0] [-0.0 2.0] [-0.0 3.0] [-0.0 4.0] [-0.0 5.0]]",
    "{+/x}'[[-0.0 -0.0 -0.0] [1.0 2.0 3.0]]", "+/[1.0e308 1.0e308 -1.0e308]"])
def test_a_few_rows_folded_as_on_numpy(src):
    """A sum or product of a few rows on torch's CPU (one operation a row, from the first:
    a softmax's classes) gives numpy's bits, signs of zeros and overflows included."""
    import numpy as np
    got, want = (KlongInterpreter(backend=b)(src) for b in ("torch", "numpy"))
    got = got.cpu().numpy() if isinstance(got, torch.Tensor) else np.asarray(got)
    want = np.asarray(want)
    assert got.dtype == want.dtype and np.array_equal(got, want) \
        and np.array_equal(np.signbit(got), np.signbit(want)), (got, want)


def test_none_zero_is_all():
    """The replay's guard on zeros says what bool(t.all()) says, on numpy's view of CPU
    memory or torch's own test: NaN is not zero, -0.0 is, views and other dtypes alike."""
    nan, inf = float("nan"), float("inf")
    cases = [torch.tensor([1.0, nan, -inf]), torch.tensor([1.0, -0.0]), torch.tensor(0.0),
             torch.tensor(-2.5), torch.tensor([[1.0, 0.0], [2.0, 3.0]]).t()[1],
             torch.tensor([[1.0, 0.0], [2.0, 3.0]]).t()[0], torch.tensor([3, 0, 1]),
             torch.tensor([3, 2], dtype=torch.int32), torch.tensor([True, False]),
             torch.tensor([1.0, 2.0], dtype=torch.float32),
             torch.tensor([1.0, 0.0], dtype=torch.bfloat16),
             torch.tensor([1.0, 2.0], requires_grad=True), torch.zeros(0)]
    for t in cases:
        assert bool(torch_capture._none_zero(t)) is bool(t.all()), t


def test_the_tests_one_test_replaced_are_not_replayed():
    """A softmax step: the rows divided by their sums, then a result freed early (a
    `del` before a copy of its own is taken, which names the tests too): the tests for
    zero divisors that the one test of the divisor replaced are not computed again at
    each replay."""
    k = steps_both(".bkf(\"exp\")\nX::[[0.5 -0.25] [1.0 0.0] [0.25 0.75]]\nXT::+X\n"
                   "Y::[[1 0] [0 1] [1 0]]\nW::[[0.1 0.2] [0.3 -0.1]]\n"
                   "f::{[p];p::{x%+/x}'exp({x{+/x*y}:/W}'X);"
                   "W::W-0.1*({x{+/x*y}:/XT}'+p-Y)%3}", ["f()"] * 5)
    source = replay_source(k, "f")
    namespace = k.capture.records[k.globals["f"].facts].variants[0].replay.__globals__
    unused = [name for name, value in namespace.items()
              if value is torch.Tensor.any or value is torch.Tensor.__eq__]
    assert unused and not any(name + "(" in source for name in unused)


SIEVE = ("sieve::{[s n];n::x;s::n#,1;s::s:=0,0,1;"
         "{(x*x)<n}{:[s@x;s::s:=0,(x*x)+x*!1+((n-1)-x*x):%x;0];x+1}:~2;&s}")


def test_an_update_in_place_is_replayed_in_place():
    """An in-place Amend records as a clone and a write: the replay writes the tensor that
    it made itself and holds nowhere else (OWN), without the copy; a tensor an argument,
    a global, a view or a later read holds is copied, as the ordinary evaluation copies it."""
    k = steps_both(SIEVE + "\na::!100\nf::{[s];s::x;s::s:=0,1;s}\ng::{[s];s::x+0;s::s:=0,1;s}"
                   "\nh::{[s t];s::x+0;t::2_s;s::s:=0,3;t,s}\nG::!100\nu::{G::G:=0,5;+/G}",
                   ["sieve(200)"] * 5 + ["f(a)"] * 5 + ["g(a)"] * 5 + ["h(a)"] * 5
                   + ["a"] + ["u()"] * 5 + ["G"])
    report = k.capture.explain()
    for name in ("sieve", "f", "g", "h"):
        assert f"{name}: captured, 1 variant(s), 1 replays" in report
    # (a global written in place is already changed when the recording starts from it)
    assert "u: not captured: the recorded evaluation gave other bits" in report
    assert "OWN(" in k.globals["sieve"].run.records.source()
    assert k("#sieve(200)") == 46 and k("+/a") == 4950 and k("+/G") == 4950 - 5


def test_a_replay_keeps_the_tensors_it_does_not_own():
    """Replaying a function that copies its argument to write it leaves the argument as it
    was, and gives each call's own result."""
    k = KlongInterpreter(backend="torch", device="cpu")
    k("f::{[s];s::x;s::s:=0,1;s}\na::!100")
    results = [k("f(a)") for _ in range(6)]
    assert k("+/a") == 4950
    assert all(int(r.sum()) == 4949 for r in results)
    assert len({id(r) for r in results}) == 6


def test_a_record_learns_only_what_it_made_itself():
    """What is known of the arrays made before a recording (a bound, indices known to be a
    progression) is not taken for granted by the record: a global of the same shape but
    other elements gets what the ordinary evaluation gives; what the recorded evaluation
    learns of its own arrays holds in every replay (the sieve's Amends are slices)."""
    k = steps_both("I::2*!70\nf::{(200#,0):=7,I}\ng::{(200#,0):=7,3*!x}",
                   ["f()"] * 5 + ["I::(!69),100"] + ["f()"] * 4 + ["+/f()"]
                   + ["g(60)"] * 5 + ["+/g(60)"])
    assert k("+/f()") == 7 * 70 and k("+/g(60)") == 7 * 60
    assert "captured" in k.capture.explain()
    source = k.globals["g"].run.records.source()
    assert "slice(0, 178, 3), 7)" in source
    assert "OWN(" in source             # (200#,0) is a copy of its own: no copy made


def test_a_replay_slower_than_the_evaluation_is_dropped(monkeypatch):
    """Capture must never cost time: the checked replays are timed beside the evaluations
    they are checked with, and a record whose replay is far slower is dropped (here made
    slow on purpose), leaving the function to its ordinary evaluation."""
    import time
    from klong.runtime import capture
    monkeypatch.undo()          # (the module's capture_untimed: this test is of the timing)
    k = KlongInterpreter(backend="torch", device="cpu")
    k("a::[1.0 2.0];f::{+/a*x}")
    k("f(2.0)")
    k("f(2.0)")                                 # recorded
    records = k.capture.records[k.globals["f"].facts]
    variant = records.variants[0]
    fast = variant.replay

    def slow(*args):            # (busy: the timing is of this thread's processor time)
        end = time.thread_time() + 3 * capture.SLACK
        while time.thread_time() < end:
            pass
        return fast(*args)
    variant.replay = slow
    assert [k("f(2.0)") for _ in range(capture.VERIFIED)] == [6.0] * capture.VERIFIED
    assert records.variants == []
    assert "f: not captured: its replay took" in k.capture.explain()
    assert k("f(3.0)") == 9.0


def test_a_loop_too_long_to_record_runs_as_usual():
    """A recording that passes MAX_LINES operations stops following them at once (a loop
    over data run through, here an Each with an effect on a local), and the function
    keeps its ordinary evaluation."""
    from klong.backends import torch_capture
    body = "{[s];s::0.0;{s::s+x}'x;s}"
    data = f"v::1.0+(!{torch_capture.MAX_LINES + 10})%7"
    k = KlongInterpreter(backend="torch", device="cpu")
    k("f::" + body)
    k(data)
    results = [k("f(v)") for _ in range(4)]
    assert f"f: not captured: more than {torch_capture.MAX_LINES} operations" \
        in k.capture.explain()
    plain = KlongInterpreter(backend="torch", device="cpu", capture=False)
    plain(data)
    assert results == [plain(body + "(v)")] * 4


def test_a_step_with_rows_batched():
    """A step whose Each over the rows of a matrix is batched (klong/verbs/batched.py),
    reading a global in its body: recorded and replayed, the same bits, with new data too."""
    k = steps_both("m::[32 4]:^0.1*!128\np::[0.0 0.0 0.0 0.0]\n"
                   "step::{p::p+0.01*+/{(x*1.0+p)-(+/x)%#x}'m}",
                   ["step()"] * 6 + ["m::[32 4]:^0.3*!128"] + ["step()"] * 3)
    assert "step: captured, 1 variant(s)" in k.capture.explain()


@pytest.mark.parametrize("body", ["{*x?|/x}'m", "{+/x*w}'m", "{+/x*!#x}'m", "{x-|/x}'m",
                                  "{+/1_x}'m", "{(x@0)-x@1}'m", "{4#|x}'m"])
def test_a_step_with_row_idioms_batched(body):
    """The row idioms whose rules take numpy's steps on torch's memory (the first match,
    sums of products, |/, views of the rows) take torch's while a step is recorded: the
    step is captured, and gives the same bits."""
    k = steps_both("m::[32 4]:^0.1*!128\nw::[4 3]:^0.5*!12\np::0.0\n"
                   f"step::{{p::p+0.01*+/,{body}}}",
                   ["step()"] * 6 + ["m::[32 4]:^0.3*!128"] + ["step()"] * 3)
    assert "step: captured, 1 variant(s)" in k.capture.explain()


def test_a_result_computed_from_unchanged_data_after_a_guard():
    """The operations on data the step does not write are held from call to call; the
    result among them is found as used when the recorded lines end with a guard (an
    integer product's overflow checks)."""
    k = steps_both("n::[3 4]\nf::{n*n}", ["f()"] * 5 + ["n::[5 6]"] + ["f()"] * 3)
    assert "f: captured, 2 variant(s)" in k.capture.explain()



def test_a_loop_tests_the_element_it_indexes_itself():
    """The sieve's `:[s@x;...]` records the element read and its truth, not a comparison of
    it with 0 between them (values.is_true of a number held as a 0-d tensor: one library
    call less at every step of the loop)."""
    import re
    k = KlongInterpreter(backend="torch", device="cpu")
    k(SIEVE)
    for _ in range(5):
        assert k("#sieve(30)") == 10
    lines = k.globals["sieve"].run.records.source().split("\n")
    tested = []
    for before, line in zip(lines, lines[1:]):
        truth = re.fullmatch(r"\s*if K\d+\((s\d+)\) != (True|False): return None", line)
        if truth:
            read = re.fullmatch(rf"\s*{truth.group(1)} = K\d+\(s\d+, (\d+)\)", before)
            tested.append(read and int(read.group(1)))
    assert tested == [2, 3, 4, 5]


@pytest.mark.parametrize("value, truth", [(float("nan"), True), (-0.0, False), (0.0, False),
                                          (0, False), (-3, True), (0.25, True)])
def test_the_truth_of_a_number_held_as_a_tensor(value, truth):
    from klong.runtime.values import is_true
    import numpy as np
    assert is_true(torch.tensor(value)) is truth
    assert bool(is_true(np.array(value))) is truth


def test_text_written_from_a_tensor_replays():
    """Format of a vector reads its numbers out with the library's own tolist, which the
    recorder follows (a copy to numpy first made the record fail): a function writing the
    fields of a line is captured, and a changed number is a guard that fails."""
    setup = "v::[1 -2 30]\nf::{,/{($x),\",\"}'v}\ng::{,/{$x}'v}"
    k = steps_both(setup, ["f()", "g()"] * 5 + ["v::[1 -2 31]"] + ["f()", "g()"] * 4)
    assert k.run("f()") == "1,-2,31," and k.run("g()") == "1-231"
    report = k.capture.explain()
    assert "f: captured, 2 variant(s)" in report and "g: captured, 2 variant(s)" in report


def test_text_written_from_reals_is_never_replayed_stale():
    """Reals read out of a tensor are followed as numbers, but the text written from them
    is not guarded: Format of reals stays with the ordinary evaluation, and a changed real
    is written anew."""
    setup = "v::[1.5 -2.25 3.0]\nf::{,/{($x),\",\"}'v}\ng::{$'v}\nh::{{$x}'v*2}"
    calls = ["f()", "g()", "h()"] * 4
    k = steps_both(setup, calls + ["v::[1.5 -2.25 3.000001]"] + calls)
    assert k.run("f()") == "1.5,-2.25,3.000001,"
