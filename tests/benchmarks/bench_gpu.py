"""Training steps on a CUDA device beside eager torch on the same device (pytest-benchmark;
skipped where there is no CUDA). Run through ratios.py, or:

    python3 -m pytest tests/benchmarks/bench_gpu.py --benchmark-only

The steps are bench_core.py's (linear regression, the MLP with matrix products, the same
loss through `.compile`, the softmax step, the per-sample MLP) and the independent training
steps of training_models.py (logistic regression, a tanh net, ridge, an autoencoder); the
Klong side runs with capture and replay through CUDA graphs (klong/backends/torch_graphs.py),
and once more with the graphs off (KLONG_CUDA_GRAPHS=0's setting), each beside the same eager
torch step. Both sides synchronise the device before the clock is read.
"""
import pytest

from bench_core import (LINREG, MLP, MLP_COMPILED, MLP_MATRIX, SOFTMAX, _linreg, _mlp_batched,
                        _mlp_matrix, _softmax, on_fresh_stack, torch)
from bench_independent import eager
from klong import KlongError, KlongInterpreter
from training_models import MODELS, load

pytestmark = pytest.mark.skipif(torch is None or not torch.cuda.is_available(),
                                reason="no CUDA device")

DEVICE = "cuda"

# name -> (title, Klong setup (text, or a function of the interpreter), the call, the eager
# baseline (a function of the backend's name giving the step), the goal)
STEPS = {
    "linreg": ("linear-regression step", LINREG, "step()", _linreg, 0.5),
    "mlp_matrix": ("MLP step with matrix products", MLP_MATRIX, "step()", _mlp_matrix, 1.0),
    "mlp_compiled": ("the MLP step, loss through `.compile`", MLP_COMPILED, "cstep()",
                     _mlp_matrix, 0.8),
    "softmax": ("softmax-regression step", SOFTMAX, "step()", _softmax, 1.0),
    "mlp_per_sample": ("per-sample MLP step with `'`", MLP, "step()", _mlp_batched, 1.1),
}
STEPS.update({
    f"ind_{name}": (model.title, lambda k, model=model: load(k, model), "step()",
                    lambda _, name=name: eager(name, DEVICE)[0], 1.0)
    for name, model in MODELS.items()})
FORMS = {"": True, "_nographs": False}       # group suffix -> CUDA graphs on


def _group(name, suffix):
    return f"gpu_{name}{suffix}[cuda]"


# for ratios.py: group -> (title, backend, baseline label, goal)
ROWS = {_group(name, suffix): (title + ("" if graphs else ", CUDA graphs off"), "torch (cuda)",
                               "eager torch on cuda", goal if graphs else None)
        for name, (title, _, _, _, goal) in STEPS.items() for suffix, graphs in FORMS.items()}


def synchronised(fn):
    def run():
        fn()
        torch.cuda.synchronize()
    return run


@pytest.mark.parametrize("name, suffix, side", [
    pytest.param(name, suffix, side, id=f"{name}{suffix}-{side}")
    for name in STEPS for suffix in FORMS for side in ("klong", "baseline")])
@on_fresh_stack
def test_gpu_step(benchmark, name, suffix, side):
    title, setup, call, baseline, goal = STEPS[name]
    benchmark.group = _group(name, suffix)
    if side == "baseline":
        with torch.device(DEVICE):
            step = baseline("torch")
        step()
        benchmark(synchronised(step))
        return
    k = KlongInterpreter(backend="torch", device=DEVICE)
    k.backend.capture.graphs = FORMS[suffix]
    try:
        setup(k) if callable(setup) else k(setup)
    except KlongError as e:
        pytest.skip(f"cannot set up here: {e}")
    for _ in range(4):           # recorded, then the checked replays
        k(call)
    benchmark.extra_info["capture"] = k.capture.explain()
    benchmark(synchronised(lambda: k(call)))
