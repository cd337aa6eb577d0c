"""Arrays cross between Python and Klong without a copy where the backend can use them as
they are; DLPack arrays of any library are read, shared where device and dtype allow."""
import numpy as np
import pytest

from klong import KlongInterpreter


class Foreign:
    """An array of a library klong does not know: it speaks only DLPack."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, **kwargs):
        return self.a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def ptr(a):
    return a.data_ptr() if hasattr(a, "data_ptr") else a.ctypes.data


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def test_numpy_arrays_into_a_numpy_interpreter_and_back_share_memory():
    k = KlongInterpreter()
    k("same::{x}")
    for a in (np.arange(6.0), np.arange(6), np.arange(12.0).reshape(3, 4)):
        k["a"] = a
        back = k["a"]
        assert back is a or (ptr(back) == ptr(a) and back.dtype == a.dtype)
        assert ptr(k["same"](a)) == ptr(a)


def test_a_dtype_that_must_change_is_copied():
    k = KlongInterpreter()
    a = np.arange(4, dtype=np.int32)
    k["a"] = a
    assert k["a"].dtype == np.int64 and not np.shares_memory(k["a"], a)
    k32 = KlongInterpreter(dtype="float32")
    b = np.arange(4.0)
    k32["b"] = b
    assert k32["b"].dtype == np.float32


def test_tensors_into_a_torch_interpreter_and_back_share_storage(torch):
    k = KlongInterpreter(backend="torch", device="cpu")
    k("same::{x}")
    for t in (torch.arange(6.0, dtype=torch.float64), torch.arange(6),
              torch.ones(3, 4, dtype=torch.float64)):
        k["t"] = t
        back = k["t"]
        assert back.data_ptr() == t.data_ptr() and back.dtype == t.dtype
        assert back.device == t.device
        out = k["same"](t)
        assert out.data_ptr() == t.data_ptr() and out.dtype == t.dtype
    # a tensor that carries a gradient keeps it (and its storage)
    w = torch.ones(3, dtype=torch.float64, requires_grad=True)
    k["w"] = w
    assert k["w"] is w


def test_numpy_into_torch_shares_memory_on_the_cpu(torch):
    k = KlongInterpreter(backend="torch", device="cpu")
    a = np.arange(5.0)
    k["a"] = a
    assert k["a"].data_ptr() == a.ctypes.data


def test_dlpack_arrays_are_shared_where_they_can_be(torch):
    kn = KlongInterpreter()
    kt = KlongInterpreter(backend="torch", device="cpu")
    a = np.arange(5.0)
    t = torch.arange(5.0, dtype=torch.float64)
    kn["d"] = Foreign(a)
    assert ptr(kn["d"]) == ptr(a)
    kt["d"] = Foreign(t)
    assert kt["d"].data_ptr() == t.data_ptr()
    kn["e"] = Foreign(t)                   # torch's CPU memory seen by numpy
    assert ptr(kn["e"]) == t.data_ptr()
    kt["f"] = Foreign(a)
    assert kt["f"].data_ptr() == a.ctypes.data
    assert kn("d+1").tolist() == [1.0, 2.0, 3.0, 4.0, 5.0]


def test_dlpack_arrays_of_another_dtype_are_converted(torch):
    kn = KlongInterpreter()
    kt = KlongInterpreter(backend="torch", device="cpu")
    kt["x"] = Foreign(torch.arange(3, dtype=torch.float32))
    assert kt["x"].dtype == torch.float64
    kn["b"] = Foreign(np.array([True, False]))
    assert kn["b"].dtype == np.int64 and kn("b").tolist() == [1, 0]
    kt["b"] = Foreign(torch.tensor([True, False]))
    assert kt("b").tolist() == [1, 0]
    kn["z"] = Foreign(np.array(2.5))           # 0-d: a number
    assert kn("z") == 2.5


def test_a_tensor_that_requires_grad_into_numpy_is_a_klong_error(torch):
    from klong import KlongError
    k = KlongInterpreter(backend="numpy")
    k["p"] = lambda: torch.ones(2, requires_grad=True)
    with pytest.raises(KlongError) as e:
        k("p()")
    assert e.value.kind == "type" and "require" in str(e.value)
