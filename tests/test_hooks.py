"""interp.register_hook(name, fn): fn sees every value assigned to a variable of that name,
global or local, in generated code and in closures alike."""
import warnings

import numpy as np
import pytest

from klong import KlongInterpreter
from conftest import BACKENDS

MODES = [(b, cg) for b in BACKENDS for cg in (True, False)]


@pytest.fixture(params=MODES, ids=[f"{b}-{'codegen' if cg else 'closures'}" for b, cg in MODES])
def ki(request):
    backend, codegen = request.param
    return KlongInterpreter(backend=backend, device="cpu" if backend == "torch" else None,
                            codegen=codegen)


def plain(v):
    return v.tolist() if hasattr(v, "tolist") else v


def test_a_hook_sees_globals_and_locals(ki):
    ki("f::{[hidden]; hidden::x*2; hidden+1}")
    seen = []
    ki.register_hook("hidden", seen.append)
    assert ki("f(3)") == 7
    ki("f([1 2]); hidden::5; g::{hidden::x}; g(9)")
    assert [plain(v) for v in seen] == [6, [2, 4], 5, 9]
    ki("{[hidden]; hidden::x}'!3")             # a local in a function run by Each
    assert [plain(v) for v in seen[4:]] == [0, 1, 2]
    # over as many numbers as this, torch runs that Each through torch.vmap, in both
    # evaluators: one call with every sample's value (over three, the loop costs less)
    ki("{[hidden]; hidden::x}'!64")
    each = [list(range(64))] if ki.backend.name == "torch" else list(range(64))
    assert [plain(v) for v in seen[7:]] == each
    ki("other::1")
    assert len(seen) == 7 + len(each)


def test_a_hook_sees_each_row_of_a_batched_each(ki):
    # Each over the rows of a matrix (or the numbers of a vector) may run its body once for
    # all rows (verbs/batched.py): not while a hook is registered, which sees every row's
    # value, as the loop assigns it
    seen = []
    ki.register_hook("h", seen.append)
    assert plain(ki("{[h]; h::x-1; h*2}'[[1 2] [3 4]]")) == [[0, 2], [4, 6]]
    assert [plain(v) for v in seen] == [[0, 1], [2, 3]]
    del seen[:]
    ki.remove_hook("h")
    assert plain(ki("{[h]; h::x-1; h*2}'[[1 2] [3 4]]")) == [[0, 2], [4, 6]]
    assert seen == []


def test_the_value_is_as_python_sees_it(ki):
    seen = []
    ki.register_hook("h", seen.append)
    ki('h::[1.5 2.5]; h::"ab"; h::[1 [2]]')
    array_type = np.ndarray if ki.backend.name == "numpy" else __import__("torch").Tensor
    assert isinstance(seen[0], array_type) and seen[0].tolist() == [1.5, 2.5]
    assert seen[1] == "ab"
    assert isinstance(seen[2], np.ndarray) and seen[2].dtype == object


def test_remove_hook(ki):
    a, b = [], []
    ki.register_hook("v", a.append)
    ki.register_hook("v", b.append)
    ki("v::1")
    ki.remove_hook("v", a.append)
    ki("v::2")
    ki.remove_hook("v")
    ki("v::3")
    assert (a, b) == ([1], [1, 2])
    assert not ki.value_hooks
    with pytest.raises(KeyError):
        ki.remove_hook("v")


def test_a_raising_hook_is_reported_once_and_the_program_goes_on(ki):
    def broken(v):
        raise ValueError("no thanks")
    ki.register_hook("w", broken)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert ki("w::1; w::2; {[w]; w::x}(3); w+10") == 12
    messages = [str(c.message) for c in caught]
    assert len(messages) == 1
    assert "broken on w raised ValueError: no thanks" in messages[0]


def test_hooks_belong_to_their_interpreter():
    one, two = KlongInterpreter(), KlongInterpreter()
    seen = []
    one.register_hook("z", seen.append)
    two("z::1")
    one("z::2")
    assert seen == [2]


def test_hooks_see_a_model_train(kt):
    """A hidden layer watched while a Klong training loop runs on torch."""
    torch = pytest.importorskip("torch")
    kt('.bkf("tanh"); X::[0.0 0.5 1.0]; w::0.3')
    kt("net::{[hidden]; hidden::tanh(w*x); +/hidden}")
    kt("loss::{(net(X)-1)^2}; step::{w::w-0.1*loss:>w}")
    seen = []
    kt.register_hook("hidden", seen.append)
    kt("step'!3")
    assert seen and all(isinstance(v, torch.Tensor) and v.shape == (3,) for v in seen)


def test_bad_registrations():
    k = KlongInterpreter()
    with pytest.raises(TypeError):
        k.register_hook("x", 3)
    with pytest.raises(TypeError):
        k.register_hook("", print)


def test_a_hook_inside_a_klong_layer_sees_the_whole_batch(kt):
    torch = pytest.importorskip("torch")
    from klong.nn import KlongLayer
    kt("f::{[h]; h::x*y; +/h}")
    layer = KlongLayer(kt, "f", 3)
    seen = []
    kt.register_hook("h", seen.append)
    x = torch.ones(5, 3, dtype=torch.float64)
    layer(x)
    layer.use_vmap = False
    layer(x)
    expected = layer.weights[0].detach().expand(5, 3)
    assert torch.equal(seen[0].detach(), expected)           # batched: once, stacked
    assert len(seen) == 6 and all(torch.equal(s.detach(), expected[0]) for s in seen[1:])
