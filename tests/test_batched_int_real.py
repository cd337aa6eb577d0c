"""The batching rule of + - * on integer rows and one real (`{1.0*x=!n}'!n`, Gauss-Jordan's
identity matrix): the rows made reals and the library's operation applied, as the verb's
array form does it, without the verb run on the stacked rows (verbs/batching.py)."""
import pytest

from klong import KlongInterpreter
from klong.backends import list_backends
from klong.runtime.display import write
from klong.verbs import batching

BACKENDS = [b for b in ("numpy", "torch") if b in list_backends()]
MODES = [(b, codegen) for b in BACKENDS for codegen in (True, False)]

PROGRAMS = [
    ("n::3;{1.0*x=!n}'!n", "[[1.0 0.0 0.0] [0.0 1.0 0.0] [0.0 0.0 1.0]]"),
    ("{x*0.5}'[[1 2] [3 4]]", "[[0.5 1.0] [1.5 2.0]]"),
    ("{2.5-x}'[[1 2] [3 4]]", "[[1.5 0.5] [-0.5 -1.5]]"),
    ("{(x+1)+0.25}'[[1 2] [3 4]]", "[[2.25 3.25] [4.25 5.25]]"),
    ("{x*1.0}'[[9007199254740993 1] [-9007199254740993 0]]",
     "[[9007199254740990.0 1.0] [-9007199254740990.0 0.0]]"),
    ("{x%2.0}'[[1 2] [3 4]]", "[[0.5 1.0] [1.5 2.0]]"),
]


@pytest.mark.parametrize("backend, codegen", MODES)
@pytest.mark.parametrize("program, expected", PROGRAMS)
def test_results_are_the_loops(backend, codegen, program, expected):
    k = KlongInterpreter(backend=backend, codegen=codegen)
    assert write(k.run(program)) == expected
    loop = KlongInterpreter(backend=backend, codegen=codegen, batch=False)
    assert write(loop.run(program)) == expected


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_rows_are_not_stacked_for_the_verb(backend, monkeypatch):
    stacked = []
    real = batching._stacked
    monkeypatch.setattr(batching, "_stacked", lambda a, n: stacked.append(a) or real(a, n))
    k = KlongInterpreter(backend=backend)
    assert write(k("n::4;+/+/{1.0*x=!n}'!n")) == "4.0"
    assert write(k("{0.5-x}'[[1 2] [3 4]]")) == "[[-0.5 -1.5] [-2.5 -3.5]]"
    assert stacked == []
    # (a division is the verb's own: its rule stacks the rows)
    assert write(k("{x%2.0}'[[1 2] [3 4]]")) == "[[0.5 1.0] [1.5 2.0]]"
