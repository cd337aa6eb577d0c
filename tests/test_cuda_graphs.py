"""Replay through CUDA graphs (klong/backends/torch_graphs.py): a captured step whose
operations can stay on the device replays as one graph launch, with the guards on data
checked after it, and gives the same bits as the ordinary evaluation.

Each test runs on the CPU with a stand-in for torch.cuda.CUDAGraph (it runs the graph's
body at each launch, writing its outputs into the tensors of the first run, as a graph
writes its static outputs), so that what is written for the graph is checked everywhere;
and on a CUDA device with real graphs, where there is one."""
import re
import time

import pytest

from klong import KlongInterpreter

torch = pytest.importorskip("torch")

from klong.backends import torch_graphs  # noqa: E402
from test_capture import COMPILED, LINREG, MLP, QUADRATIC, TANH, assert_same  # noqa: E402
from test_training_steps import MODELS, training_models  # noqa: E402

# what replays compute, whatever the machine's load (conftest.py)
pytestmark = pytest.mark.usefixtures("capture_untimed")


class StandInGraph:
    """CudaGraph's two calls on the CPU: capture runs the body, replay runs it again and
    copies what it gave into the tensors of the first run. Not timed against the plain
    replay (it runs the operations one by one, as the plain replay does)."""
    timed = False

    def __init__(self, device):
        self.fn = self.out = None

    def capture(self, fn):
        self.fn = fn
        self.out = fn()
        return self.out

    def replay(self):
        read, tensors = self.fn()
        self.out[0].copy_(read)
        for static, t in zip(self.out[1], tensors):
            static.copy_(t)


class FailingGraph(StandInGraph):
    def capture(self, fn):
        raise RuntimeError("operation not permitted when stream is capturing")


class SlowGraph(StandInGraph):
    """A launch that takes longer than the plain replay."""
    timed = True

    def replay(self):
        time.sleep(0.002)
        super().replay()

    def synchronize(self):
        pass


class UntimedCudaGraph(torch_graphs.CudaGraph):
    """The real graphs, kept whatever their time (these tests are about their bits)."""
    timed = False


DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def interpreter(device, capture=True, graph_class=None):
    k = KlongInterpreter(backend="torch", device=device, capture=capture)
    k.backend.capture.graphs = True
    k.backend.capture.graph_class = graph_class or (StandInGraph if device == "cpu"
                                                    else UntimedCudaGraph)
    return k


def both(device, setup, calls, graph_class=None):
    """The calls with capture (and graphs) on and with capture off: every result and every
    global the same, to the bit. The interpreter with capture on."""
    on, off = interpreter(device, True, graph_class), interpreter(device, False)
    for k in (on, off):
        k(setup)
    for call in calls:
        assert_same(on.run(call), off.run(call))
    for name, value in off.globals.items():
        if not name.startswith(".") and isinstance(value, (torch.Tensor, float, int, list)):
            assert_same(on.globals[name], value)
    return on


def launches(k, name):
    return k.globals[name].run.records.variants[0].replay.graphed.launches


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("setup, name", [(LINREG, "step"), (".bkf(\"tanh\")\n" + TANH, "step"),
                                         (QUADRATIC, "step"), (MLP, "step")])
def test_steps_through_a_graph_bit_identical(device, setup, name):
    k = both(device, setup, ["step()"] * 25)
    report = k.capture.explain()
    assert f"{name}: captured, 1 variant(s), 21 replays" in report
    # launched on the recording call, the two checked replays and the 21 replays
    assert "24 CUDA graph launches" in report
    assert launches(k, name) == 24
    assert "# through a CUDA graph:" in k.globals[name].run.records.source()


@pytest.mark.parametrize("device", DEVICES)
def test_a_step_calling_a_compiled_function_through_a_graph(device):
    """The compiled call (one step of the record, the globals `:>` bound given to it) and
    the engine's gradient run inside the graph: the same bits as capture off."""
    k = both(device, COMPILED, ["cstep()"] * 12)
    assert re.search(r"cstep: captured, 1 variant\(s\), [1-9]", k.capture.explain())
    assert launches(k, "cstep") > 0, k.capture.explain()


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("model", list(MODELS))
def test_training_models_through_a_graph(device, model):
    m = MODELS[model]
    ks = [interpreter(device, c) for c in (True, False)]
    for k in ks:
        training_models.load(k, m)
        for _ in range(25):
            k("step()")
    for param in m.params:
        assert_same(ks[0][param], ks[1][param])
    assert "CUDA graph launches" in ks[0].capture.explain()


@pytest.mark.parametrize("device", DEVICES)
def test_a_branch_on_data_checked_after_the_launch(device):
    """The comparison that chose the branch is a test the graph computes; when it comes out
    otherwise, the replay gives up and the ordinary evaluation runs (then records the other
    branch)."""
    setup = LINREG + "\nf::{:[w>1.0;w*2.0;w+1.0]}"
    k = both(device, setup, ["f()"] * 4 + ["w::5.0"] + ["f()"] * 4 + ["w::0.5"] + ["f()"] * 3)
    assert "f: captured, 2 variant(s)" in k.capture.explain()


@pytest.mark.parametrize("device", DEVICES)
def test_a_zero_divisor_checked_after_the_launch(device):
    k = both(device, "d::[1.0 2.0 4.0]\nf::{x%d}",
             ["f(3.0)"] * 5 + ["d::[1.0 0.0 4.0]"] + ["f(3.0)"] * 3
             + ["d::[1.0 -0.0 4.0]"] + ["f(3.0)"] * 2 + ["d::[2.0 2.0 2.0]"] + ["f(3.0)"] * 2)
    assert "OK.append(" in k.globals["f"].run.records.source()


@pytest.mark.parametrize("device", DEVICES)
def test_a_changed_input_is_copied_in_and_an_unchanged_one_is_not(device):
    k = both(device, "X::[1.0 2.0 3.0]\nv::[0.5 0.5 0.5]\nf::{+/X*v}",
             ["f()"] * 4 + ["X::[2.0 2.0 2.0]"] + ["f()"] * 3 + ["v::[1.0 0.0 1.0]"] + ["f()"] * 2)
    graphed = k.globals["f"].run.records.variants[0].replay.graphed
    x = k.globals["X"]
    assert any(last is x for last in graphed.last)


@pytest.mark.parametrize("device", DEVICES)
def test_integer_checks_keep_the_plain_replay(device):
    """Klong's overflow checks read integers back to the host: no graph, and the source
    says why."""
    k = both(device, "n::[3 4]\nf::{n*n}", ["f()"] * 5 + ["n::[4000000000 2]"] + ["f()"] * 3)
    source = k.globals["f"].run.records.source()
    assert "# no CUDA graph: it reads values that the graph cannot keep on the device" in source


def test_a_failed_capture_keeps_the_plain_replay():
    k = both("cpu", LINREG, ["step()"] * 8, graph_class=FailingGraph)
    report = k.capture.explain()
    assert "step: captured, 1 variant(s), 4 replays" in report
    assert "no CUDA graph: operation not permitted when stream is capturing" in report


def test_a_graph_slower_than_the_plain_replay_is_not_kept():
    k = both("cpu", LINREG, ["step()"] * 8, graph_class=SlowGraph)
    report = k.capture.explain()
    assert "step: captured, 1 variant(s), 4 replays" in report
    assert re.search(r"no CUDA graph: a launch took \d+ us, the plain replay \d+ us", report)


def test_the_report_says_graphs_are_on():
    k = interpreter("cpu")
    assert k.capture.explain().splitlines()[0] == "capture: on, CUDA graphs where a record allows"


def test_no_graphs_on_the_cpu_or_when_switched_off(monkeypatch):
    k = KlongInterpreter(backend="torch", device="cpu")
    assert k.backend.capture.graphs is False
    assert k.capture.explain().splitlines()[0] == "capture: on"
    k("f::{x*2.0};f(1.0);f(1.0);f(1.0)")
    assert "through a CUDA graph" not in k.globals["f"].run.records.source()
    monkeypatch.setenv("KLONG_CUDA_GRAPHS", "0")
    assert torch_graphs.enabled_by_default() is False
    monkeypatch.setenv("KLONG_CUDA_GRAPHS", "1")
    assert torch_graphs.enabled_by_default() is True
    if torch.cuda.is_available():
        monkeypatch.setenv("KLONG_CUDA_GRAPHS", "0")
        assert KlongInterpreter(backend="torch", device="cuda").backend.capture.graphs is False
