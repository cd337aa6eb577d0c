"""klong.data.KlongDataset: Klong data served to a torch DataLoader; .pyiter: Python
iterables (a DataLoader) walked from Klong."""
import pickle

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from torch.utils.data import DataLoader  # noqa: E402

from klong import KlongError, KlongInterpreter  # noqa: E402
from klong.data import KlongDataset  # noqa: E402
from conftest import BACKENDS  # noqa: E402


@pytest.fixture(params=BACKENDS)
def k(request):
    return KlongInterpreter(backend=request.param,
                            device="cpu" if request.param == "torch" else None)


def test_a_list_of_samples(k):
    ds = KlongDataset(k, "X::(!100)%100; {x,x^2}'X")
    assert len(ds) == 100
    assert torch.equal(ds[3], torch.tensor([0.03, 0.03 ** 2], dtype=torch.float64))
    assert torch.equal(ds[-1], ds[99])
    with pytest.raises(IndexError):
        ds[100]


def test_rows_share_the_klong_arrays_memory(k):
    ds = KlongDataset(k, "M::[2 3]:^!6")
    m = k["M"]
    ptr = m.data_ptr() if hasattr(m, "data_ptr") else m.ctypes.data
    assert ds.samples.data_ptr() == ptr
    assert ds[1].tolist() == [3, 4, 5] and ds[1].dtype == torch.int64


def test_a_general_list_gives_tuples_and_numbers(k):
    ds = KlongDataset(k, '[[1.5 "a"] [[1 2] :b]]')
    assert ds[0] == (1.5, "a")
    first, second = ds[1]
    assert first.tolist() == [1, 2] and second == "b"


def test_a_dictionary_of_columns(k):
    ds = KlongDataset(k, "X::(!10)%10; d:::{}; d,:x,,X; d,:y,,1+2*X; d")
    assert len(ds) == 10
    sample = ds[4]
    assert set(sample) == {"x", "y"}
    assert sample["x"].item() == 0.4 and sample["y"].item() == 1 + 2 * 0.4


def test_columns_of_different_lengths_and_bad_data_are_klong_errors(k):
    with pytest.raises(KlongError, match="differ in length"):
        KlongDataset(k, "d:::{}; d,:x,,!3; d,:y,,!4; d")
    with pytest.raises(KlongError, match="list of samples"):
        KlongDataset(k, "3")


def test_a_dataloader_batches_and_shuffles(k):
    ds = KlongDataset(k, "X::(!100)%100; d:::{}; d,:x,,X; d,:y,,3*X; d")
    torch.manual_seed(0)
    batches = list(DataLoader(ds, batch_size=32, shuffle=True))
    assert [len(b["x"]) for b in batches] == [32, 32, 32, 4]
    xs = torch.cat([b["x"] for b in batches])
    assert sorted(xs.tolist()) == sorted(ds.columns["x"].tolist())
    assert xs.tolist() != ds.columns["x"].tolist()           # shuffled
    assert all(torch.equal(b["y"], 3 * b["x"]) for b in batches)


def test_the_dataset_pickles_without_its_interpreter(k):
    ds = KlongDataset(k, "{x,x}'!5")
    again = pickle.loads(pickle.dumps(ds))
    assert torch.equal(again[2], ds[2])


def test_a_dataloader_feeds_a_klong_layer():
    from klong.nn import KlongLayer
    k = KlongInterpreter(backend="torch", device="cpu")
    k("X::(!200)%100; Y::1+3*X")              # y = 3x + 1
    k("lin::{(x*y@0)+y@1}")
    ds = KlongDataset(k, "d:::{}; d,:x,,X; d,:y,,Y; d")
    torch.manual_seed(0)
    layer = KlongLayer(k, "lin", [(), ()])
    opt = torch.optim.Adam(layer.parameters(), lr=0.1)
    losses = []
    for _ in range(30):
        for batch in DataLoader(ds, batch_size=32, shuffle=True):
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(layer(batch["x"]), batch["y"])
            loss.backward()
            opt.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0] / 10
    assert abs(layer.weights[0].item() - 3) < 0.3 and abs(layer.weights[1].item() - 1) < 0.3


def test_pyiter_walks_a_dataloader_from_klong(k):
    k["loader"] = DataLoader(KlongDataset(k, "!10"), batch_size=4)
    assert k("{+/x}'.pyiter(loader)").tolist() == [6, 22, 17]
    assert k("#.pyiter(:loader)") == 3              # a symbol names the variable
    k["gen"] = (i * i for i in range(4))
    assert k(".pyiter(gen)").tolist() == [0, 1, 4, 9]
    assert k(".pyiter(gen)").tolist() == []         # one pass, as Python's iterators
    assert k(".pyiter([1 2])").tolist() == [1, 2]
    with pytest.raises(KlongError, match="not a Python iterable"):
        k(".pyiter(1)")


def test_pyiter_reports_a_failing_iterable(k):
    def broken():
        yield 1
        raise RuntimeError("disk gone")
    k["it"] = broken()
    with pytest.raises(KlongError, match="RuntimeError: disk gone"):
        k(".pyiter(it)")


def test_numpy_backend_data_reaches_torch_without_a_copy():
    k = KlongInterpreter()
    ds = KlongDataset(k, "X::[1.0 2.0 3.0]; {x}'X")
    assert ds[0] == 1.0           # numbers stay numbers; the DataLoader makes tensors
    ds = KlongDataset(k, "X")
    assert ds.samples.data_ptr() == k["X"].ctypes.data
    assert isinstance(k["X"], np.ndarray)
