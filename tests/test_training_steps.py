"""The training steps of tests/benchmarks/training_models.py (logistic regression, a tanh net,
ridge regression, an autoencoder; each `step` takes its gradient with `:>`) on torch: 25
steps with the capture and replay of runtime/capture.py leave the very same parameters, to
the bit, as 25 steps evaluated the ordinary way, and the loss goes down."""
import importlib.util
from pathlib import Path

import pytest

from klong import KlongInterpreter

# what replays compute, whatever the machine's load (conftest.py)
pytestmark = pytest.mark.usefixtures("capture_untimed")

torch = pytest.importorskip("torch")

_spec = importlib.util.spec_from_file_location(
    "training_models", Path(__file__).resolve().parent / "benchmarks" / "training_models.py")
training_models = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(training_models)
MODELS = training_models.MODELS

STEPS = 25


def train(model, capture):
    """The loss before, the loss after STEPS steps, the parameters, and the interpreter."""
    k = KlongInterpreter(backend="torch", device="cpu", capture=capture)
    training_models.load(k, model)
    before = k("loss()")
    for _ in range(STEPS):
        k("step()")
    return before, k("loss()"), [k[name] for name in model.params], k


def same_bits(a, b):
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a, b)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("name", list(MODELS))
def test_capture_on_and_off_give_the_same_parameters(name):
    model = MODELS[name]
    before_on, after_on, params_on, k_on = train(model, True)
    before_off, after_off, params_off, k_off = train(model, False)
    for param, on, off in zip(model.params, params_on, params_off):
        assert same_bits(on, off), f"{name}: {param} differs with capture on and off"
    assert before_on == before_off and after_on == after_off
    assert after_on < 0.5 * before_on, f"{name}: loss {before_on} -> {after_on}"
    # the step was replayed, so the comparison above compared replays with evaluation
    assert any(line.startswith("step: captured") for line in k_on.capture.explain().splitlines()), \
        k_on.capture.explain()
    assert k_off.capture.explain().splitlines()[0] == "capture: off"
