"""The training steps of tests/benchmarks/training_models.py (logistic regression, a tanh net,
ridge regression, an autoencoder; each `step` takes its gradient with `:>`) on torch: 25
steps with the capture and replay of runtime/capture.py leave the very same parameters, to
the bit, as 25 steps evaluated the ordinary way, and the loss goes down."""
import importlib.util
from pathlib import Path

import pytest

from klong import KlongInterpreter
from klong.errors import KlongError

# what replays compute, whatever the machine's load (conftest.py)
pytestmark = pytest.mark.usefixtures("capture_untimed")

torch = pytest.importorskip("torch")

_spec = importlib.util.spec_from_file_location(
    "training_models", Path(__file__).resolve().parent / "benchmarks" / "training_models.py")
training_models = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(training_models)
MODELS = training_models.MODELS

STEPS = 25


def train(model, capture, device="cpu"):
    """The loss before, the loss after STEPS steps, the parameters, and the interpreter."""
    k = KlongInterpreter(backend="torch", device=device, capture=capture)
    training_models.load(k, model)
    before = k("loss()")
    for _ in range(STEPS):
        k("step()")
    return before, k("loss()"), [k[name] for name in model.params], k


def same_bits(a, b):
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a, b)
    return type(a) is type(b) and a == b


ON_CUDA = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=ON_CUDA)])
@pytest.mark.parametrize("name", list(MODELS))
def test_capture_on_and_off_give_the_same_parameters(name, device, monkeypatch):
    from klong.backends import torch_graphs
    # on a GPU the replay goes through a CUDA graph whatever a launch's time against the
    # plain replay, so that the graph is what is compared
    monkeypatch.setattr(torch_graphs.CudaGraph, "timed", False)
    model = MODELS[name]
    before_on, after_on, params_on, k_on = train(model, True, device)
    before_off, after_off, params_off, k_off = train(model, False, device)
    for param, on, off in zip(model.params, params_on, params_off):
        assert same_bits(on, off), f"{name}: {param} differs with capture on and off"
    assert before_on == before_off and after_on == after_off
    assert after_on < 0.5 * before_on, f"{name}: loss {before_on} -> {after_on}"
    # the step was replayed, so the comparison above compared replays with evaluation
    assert any(line.startswith("step: captured") for line in k_on.capture.explain().splitlines()), \
        k_on.capture.explain()
    if device == "cuda":
        assert " CUDA graph launches" in k_on.capture.explain(), k_on.capture.explain()
    assert k_off.capture.explain().splitlines()[0] == "capture: off"


# Steps with the gradient written out, or whose Each batches: 25 of them leave the same bits
# with capture on and off, batched and not (KLONG_BATCH=0's loop), generated code and closures
PER_SAMPLE_MLP = """.bkf("tanh")
N::256
X::(2*(!N)%N)-1
XY::X,'X^2
W1::0.1*(!16)-8
B1::0.1*!16
W2::0.05*(!16)-6
B2::0.0
net::{B2++/W2*tanh(B1+W1*x)}
loss::{(+/{(net(x@0)-x@1)^2}'XY)%N}
step::{[g];g::loss:>[W1 B1 W2 B2];W1::W1-0.1*g@0;B1::B1-0.1*g@1;W2::W2-0.1*g@2;B2::B2-0.1*g@3}"""

# (the residual to the fourth power: its cube, ^3, times itself)
CUBED_MLP = PER_SAMPLE_MLP.replace("{(net(x@0)-x@1)^2}'XY", "{((net(x@0)-x@1)^3)*net(x@0)-x@1}'XY") \
    .replace("-0.1*g@", "-0.01*g@")

SOFTMAX = """.bkf("exp")
X::((([256 4]:^!1024)!37)%37)-0.5
XT::+X
Y::{x=!3}'(!256)!3
W::0.01*([3 4]:^!12)-6
loss::{[p];p::{x%+/x}'exp({x{+/x*y}:/W}'X);-(+/+/Y*p)%256}
step::{[p];p::{x%+/x}'exp({x{+/x*y}:/W}'X);W::W-0.1*({x{+/x*y}:/XT}'+p-Y)%256}"""

PROGRAMS = {"per_sample_mlp": (PER_SAMPLE_MLP, ["W1", "B1", "W2", "B2"]),
            "cubed_mlp": (CUBED_MLP, ["W1", "B1", "W2", "B2"]),
            "softmax": (SOFTMAX, ["W"])}
SETTINGS = [dict(capture=False), dict(batch=False), dict(codegen=False),
            dict(batch=False, capture=False)]


def train_program(name, **settings):
    source, params = PROGRAMS[name]
    k = KlongInterpreter(backend="torch", device="cpu", **settings)
    k(source)
    before = k("loss()")
    for _ in range(STEPS):
        k("step()")
    return before, k("loss()"), [k[p] for p in params], k


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_steps_give_the_same_bits_every_way(name):
    before, after, params, k = train_program(name)
    assert after < before, f"{name}: loss {before} -> {after}"
    assert any(line.startswith("step: captured") for line in k.capture.explain().splitlines())
    for settings in SETTINGS:
        other_before, other_after, other_params, _ = train_program(name, **settings)
        assert (other_before, other_after) == (before, after), settings
        for p, a, b in zip(PROGRAMS[name][1], params, other_params):
            assert same_bits(a, b), f"{name}: {p} differs with {settings}"


@pytest.mark.parametrize("name", list(MODELS))
def test_batched_and_loop_give_the_same_parameters(name):
    # (sums of products by a vector or a matrix: the graph's step is the loop's products
    # and torch's sum of them, whose backward adds the gradient up as the loop's does)
    model = MODELS[name]
    trained = []
    for batch in (True, False):
        k = KlongInterpreter(backend="torch", device="cpu", batch=batch)
        training_models.load(k, model)
        for _ in range(STEPS):
            k("step()")
        trained.append([k[p] for p in model.params])
    for param, on, off in zip(model.params, *trained):
        assert same_bits(on, off), f"{name}: {param} differs batched and not"


def _without_vmap(k):
    def refuse(*args, **kwargs):
        raise AssertionError("torch.vmap was called")
    k.backend.vmap = refuse


@pytest.mark.parametrize("name", ["per_sample_mlp", "cubed_mlp"])
def test_the_per_sample_body_batches_when_differentiated(name):
    # the loss's Each (x@0, x@1, ^2 or ^3, a call of a literal holding a 0-d parameter)
    # runs once for all rows, itself, not through torch.vmap (which the loop needs)
    want = train_program(name, capture=False)[2]
    k = KlongInterpreter(backend="torch", device="cpu", capture=False)
    k(PROGRAMS[name][0])
    _without_vmap(k)
    for _ in range(STEPS):
        k("step()")
    for p, a in zip(PROGRAMS[name][1], want):
        assert same_bits(k[p], a), p
    loop = KlongInterpreter(backend="torch", device="cpu", capture=False, batch=False)
    loop(PROGRAMS[name][0])
    _without_vmap(loop)
    with pytest.raises(KlongError, match="torch.vmap was called"):
        loop("step()")


# The gradient of +/x*W over the rows of X, W a matrix or a vector: the library's matrix
# product's (torch's own gradient of X@W), every way of running it: its backward is two
# matrix products, not the products broadcast and summed row by row
@pytest.mark.parametrize("width", [20, None])
def test_the_gradient_by_a_weight_matrix_is_the_matrix_product(width):
    import numpy as np
    rng = np.random.default_rng(33)
    shape = (6,) if width is None else (6, width)
    x, w = rng.normal(size=(128, 6)), rng.normal(size=shape)
    c = rng.normal(size=(128,) if width is None else (128, width))
    leaf = torch.tensor(w, requires_grad=True)
    (want,) = torch.autograd.grad((torch.as_tensor(c) * (torch.as_tensor(x) @ leaf)).sum(),
                                  leaf)
    total = "+/" if width is None else "+/+/"
    for settings in [{}] + SETTINGS:
        k = KlongInterpreter(backend="torch", device="cpu", **settings)
        k["X"], k["W"], k["C"] = x, w, c
        k(f"loss::{{{total}C*{{+/x*W}}'X}};step::{{(loss:>[W])@0}}")
        for _ in range(3):      # (the second call recorded, the third replayed)
            g = k("step()")
        assert same_bits(g, want), settings
