"""klong.nn.KlongLayer: a Klong function as a torch module, with torch's own gradients."""
import copy
import io
import subprocess
import sys
import warnings

import pytest

torch = pytest.importorskip("torch")
from torch import nn  # noqa: E402

from klong import KlongError, KlongInterpreter  # noqa: E402
from klong.nn import COMPILE_WARNING, KlongLayer, klong_sum  # noqa: E402

F64 = torch.float64


def interp(dtype="float64"):
    k = KlongInterpreter(backend="torch", device="cpu", dtype=dtype)
    k('.bkf("tanh")')
    k("lin::{(+/x*y@0)+y@1}")                      # a linear unit: weights [w b]
    k("hid::{tanh(+/(+y)*x)}")                     # a tanh layer: y is a matrix, one row a unit
    return k


class Twin(nn.Module):
    """The same two layers written in torch, batched, summing with klong_sum where the
    Klong functions sum with +/."""

    def __init__(self, hidden, w, b):
        super().__init__()
        self.hidden = nn.Parameter(hidden.detach().clone())
        self.w = nn.Parameter(w.detach().clone())
        self.b = nn.Parameter(b.detach().clone())

    def forward(self, x):
        h = torch.tanh(klong_sum(x[:, None, :] * self.hidden, -1))
        return klong_sum(h * self.w, -1) + self.b


def model_and_twin(k, width=3, units=4, use_vmap=True):
    torch.manual_seed(1)
    model = nn.Sequential(KlongLayer(k, "hid", (units, width), use_vmap=use_vmap),
                          KlongLayer(k, "lin", [(units,), ()], use_vmap=use_vmap))
    twin = Twin(model[0].weights[0], *model[1].weights)
    return model, twin


def data(n=64, width=3, dtype=F64):
    g = torch.Generator().manual_seed(7)
    x = torch.randn(n, width, dtype=dtype, generator=g)
    return x, torch.sin(x.sum(1))


def bits(model, twin):
    """Whether the parameters and their gradients of the two are equal, to the bit."""
    pairs = list(zip(model.parameters(), twin.parameters()))
    return all(torch.equal(a, b) and torch.equal(a.grad, b.grad) for a, b in pairs)


@pytest.mark.parametrize("use_vmap", [True, False], ids=["vmap", "one-at-a-time"])
@pytest.mark.parametrize("width", [3, 300])
def test_forward_and_gradients_equal_a_torch_twin_to_the_bit(use_vmap, width):
    model, twin = model_and_twin(interp(), width, use_vmap=use_vmap)
    x, t = data(64, width)
    out, expected = model(x), twin(x)
    assert out.dtype == F64 and torch.equal(out, expected)
    nn.functional.mse_loss(out, t).backward()
    nn.functional.mse_loss(expected, t).backward()
    assert bits(model, twin)
    assert model[0]._vmap_failed is False


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("width", [1, 7, 64, 65, 300, 1000])
def test_batched_and_one_at_a_time_give_the_same_bits(width, dtype):
    k = interp(dtype)
    k("dot::{+/x*y}")
    for name, shape in (("dot", width), ("hid", (5, width))):
        torch.manual_seed(width)
        batched = KlongLayer(k, name, shape)
        single = KlongLayer(k, name, shape, use_vmap=False)
        single.load_state_dict(batched.state_dict())
        x, _ = data(33, width, batched.weights[0].dtype)
        out = batched(x)
        assert torch.equal(out, single(x))
        with torch.no_grad():                   # and as Klong computes untracked values
            assert torch.equal(out.detach(), single(x))
        (out * x[:, :1]).sum().backward()
        (single(x) * x[:, :1]).sum().backward()
        assert torch.equal(batched.weights[0].grad, single.weights[0].grad)
        assert not batched._vmap_failed


def test_a_function_that_branches_on_data_runs_sample_by_sample():
    k = interp()
    k("relu::{:[(+/x*y)>0;+/x*y;0.0]}")
    torch.manual_seed(3)
    layer = KlongLayer(k, "relu", 300)
    w = layer.weights[0].detach().clone().requires_grad_()
    x, _ = data(10, 300)
    out = layer(x)
    expected = torch.clamp(klong_sum(x * w, -1), min=0)
    assert layer._vmap_failed
    assert torch.equal(out, expected) and (out == 0).any() and (out > 0).any()
    out.sum().backward()
    expected.sum().backward()
    assert torch.equal(layer.weights[0].grad, w.grad)


@pytest.mark.parametrize("use_vmap", [True, False], ids=["vmap", "one-at-a-time"])
@pytest.mark.parametrize("width", [3, 65, 300])
def test_trained_by_adam_and_step_lr_in_sequential_exactly_as_the_twin(use_vmap, width):
    model, twin = model_and_twin(interp(), width, use_vmap=use_vmap)
    x, t = data(64, width)
    runs = []
    for m in (model, twin):
        opt = torch.optim.Adam(m.parameters(), lr=0.05)
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
        losses = []
        for _ in range(30 if width == 3 else 5):
            opt.zero_grad()
            loss = nn.MSELoss()(m(x), t)
            loss.backward()
            opt.step()
            sched.step()
            losses.append(loss.item())
        runs.append(losses)
    assert runs[0] == runs[1]
    assert runs[0][-1] < runs[0][0] * (0.6 if width == 3 else 0.99)
    assert bits(model, twin)


def test_klong_sum_adds_in_the_order_of_klong():
    k = KlongInterpreter(backend="torch", device="cpu")
    g = torch.Generator().manual_seed(5)
    for n in (1, 2, 7, 64, 65, 127, 300, 1000):
        v = torch.randn(n, dtype=F64, generator=g) * 10 ** torch.randint(-8, 8, (n,), generator=g)
        m = torch.randn(3, n, dtype=F64, generator=g)
        k["v"], k["m"] = v, m
        assert klong_sum(v, 0).item() == k("+/v")
        assert torch.equal(klong_sum(m, -1), k("+/+m"))      # along an axis of its own
        assert torch.equal(klong_sum(m.T, 0), k("+/+m"))
    assert torch.equal(klong_sum(torch.zeros(2, 0), -1), torch.zeros(2))


def test_klong_sum_in_float32_adds_in_float32():
    k = KlongInterpreter(backend="torch", device="cpu", dtype="float32")
    v = torch.tensor([1.0, 2.0 ** -24, 2.0 ** -24, 2.0 ** -24], dtype=torch.float32)
    k["v"] = v
    assert klong_sum(v, 0).item() == 1.0 == k("+/v")    # each third term lost, in float32
    assert v.double().sum().float().item() != 1.0


def test_klong_sum_is_differentiable_under_vmap():
    x = torch.randn(4, 300, dtype=F64, requires_grad=True)
    y = torch.func.vmap(lambda r: klong_sum(r * r, 0))(x)
    assert torch.equal(y, klong_sum(x * x, -1))
    (g,) = torch.autograd.grad(y.sum(), x)
    assert torch.equal(g, 2 * x)


def test_any_optimizer_steps_the_weights():
    model, _ = model_and_twin(interp())
    x, t = data()
    for make in (lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
                 lambda p: torch.optim.RMSprop(p, lr=0.01), torch.optim.LBFGS):
        before = [p.detach().clone() for p in model.parameters()]
        opt = make(model.parameters())

        def closure():
            opt.zero_grad()
            loss = nn.MSELoss()(model(x), t)
            loss.backward()
            return loss
        opt.step(closure)
        assert all(not torch.equal(a, p) for a, p in zip(before, model.parameters()))


def test_state_dict_round_trip():
    k = interp()
    model, _ = model_and_twin(k)
    state = model.state_dict()
    assert list(state) == ["0.weights.0", "1.weights.0", "1.weights.1"]
    other = nn.Sequential(KlongLayer(k, "hid", (4, 3)), KlongLayer(k, "lin", [(4,), ()]))
    x, _ = data(8)
    assert not torch.equal(other(x), model(x))
    other.load_state_dict(state)
    assert torch.equal(other(x), model(x))


def test_torch_save_and_load_carry_the_klong_source():
    k = interp()
    model, _ = model_and_twin(k)
    x, _ = data(8)
    expected = model(x)
    buf = io.BytesIO()
    torch.save(model, buf)
    k("lin::{0}")            # the original interpreter changes: the saved layer does not
    buf.seek(0)
    loaded = torch.load(buf, weights_only=False)
    assert loaded[0].interp is not k and loaded[1].interp is not k
    assert torch.equal(loaded(x), expected)
    twin = copy.deepcopy(loaded)
    assert torch.equal(twin(x), expected)


@pytest.mark.slow
def test_a_saved_layer_loads_in_a_fresh_python(tmp_path):
    k = interp()
    k("scale::3.0; lin::{scale*(+/x*y@0)+y@1}")       # a global it reads travels too
    torch.manual_seed(4)
    layer = KlongLayer(k, "lin", [(3,), ()])
    x, _ = data(4)
    torch.save({"layer": layer, "x": x, "out": layer(x).detach()}, tmp_path / "m.pt")
    script = ("import torch, sys\n"
              f"d = torch.load({str(tmp_path / 'm.pt')!r}, weights_only=False)\n"
              "assert 'klong.interpreter' in sys.modules\n"
              "assert torch.equal(d['layer'](d['x']), d['out'])\n"
              "print('ok', d['layer'].interp.backend)\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok torch backend (cpu)")


def test_float_and_double_follow_the_weights():
    model, _ = model_and_twin(interp())
    x, _ = data(8)
    expected = model(x)
    model.float()
    assert all(p.dtype == torch.float32 for p in model.parameters())
    assert model[0].interp.backend.dtype == "float32"
    out32 = model(x.float())
    assert out32.dtype == torch.float32
    assert torch.allclose(out32.double(), expected, atol=1e-5)
    model.double()
    assert model[1].interp.backend.dtype == "float64"
    assert torch.allclose(model(x), expected, atol=1e-6)
    model.to("cpu")                         # same device and dtype: the interpreter stays
    assert model[1].interp.backend.dtype == "float64"
    with pytest.raises(KlongError, match="float16"):
        model.half()


def test_train_eval_and_no_grad():
    model, _ = model_and_twin(interp())
    x, _ = data(8)
    model.eval()
    assert not model[0].training
    with torch.no_grad():
        out = model(x)
    assert not out.requires_grad
    model.train()
    assert model[1].training and model(x).requires_grad
    assert torch.equal(model(x).detach(), out)


@pytest.mark.slow
def test_torch_compile_gives_equal_results():
    model, _ = model_and_twin(interp())
    x, _ = data(8)
    expected = model(x)
    compiled = torch.compile(model)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = compiled(x)
    assert torch.equal(out, expected)
    assert any(COMPILE_WARNING in str(w.message) for w in caught)


def test_init_a_callable_a_klong_function_or_torch_init():
    k = interp()
    k("ones::{x:^1.0}")
    assert torch.equal(KlongLayer(k, "hid", (2, 3), init="ones").weights[0],
                       torch.ones(2, 3, dtype=F64))
    layer = KlongLayer(k, "lin", [(3,), ()], init=lambda shape: torch.full(shape, 0.5))
    assert torch.equal(layer.weights[1], torch.tensor(0.5, dtype=F64))
    layer = KlongLayer(k, "hid", (2, 3), init=nn.init.zeros_)
    assert torch.equal(layer.weights[0], torch.zeros(2, 3, dtype=F64))
    assert layer.weights[0].requires_grad
    with pytest.raises(ValueError, match="shape"):
        KlongLayer(k, "hid", (2, 3), init=lambda shape: torch.zeros(3))


def test_default_init_is_a_scaled_normal_of_the_interpreters_dtype():
    k = KlongInterpreter(backend="torch", device="cpu", dtype="float32")
    k("f::{+/x*y}")
    torch.manual_seed(0)
    layer = KlongLayer(k, "f", 10000)
    w = layer.weights[0]
    assert w.dtype == torch.float32
    assert abs(w.std().item() - 0.01) < 0.001


def test_bad_uses_are_klong_errors():
    k = interp()
    with pytest.raises(KlongError, match="torch backend"):
        KlongLayer(KlongInterpreter(), "lin", 3)
    with pytest.raises(KlongError, match="not a Klong function"):
        KlongLayer(k, "nothing", 3)
    k("one::{x}")
    with pytest.raises(KlongError, match="two arguments"):
        KlongLayer(k, "one", 3)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_to_a_gpu_and_back():
    model, _ = model_and_twin(interp())
    x, _ = data(8)
    expected = model(x)
    model.to("cuda")
    assert model[0].interp.backend.device.type == "cuda"
    out = model(x.to("cuda"))
    assert out.device.type == "cuda"
    assert torch.allclose(out.cpu(), expected, rtol=1e-12, atol=0)
    model.to("cpu")
    assert torch.equal(model(x), expected)
