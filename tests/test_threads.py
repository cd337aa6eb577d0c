"""Each interpreter owns its backend: interpreters on different backends, in different
threads, with Python callbacks and errors in between, never see each other's arrays."""
import sys
import threading

import pytest

from klong import KlongError, KlongInterpreter
from klong.backends import list_backends

pytestmark = pytest.mark.skipif("torch" not in list_backends(), reason="needs torch")


def _worker(backend, rounds, barrier, failures):
    k = KlongInterpreter(backend=backend)
    array_type = k.backend.array_type
    # a Python callback that waits for the other thread: the other interpreter runs while
    # this one is inside a Klong call
    k["wait"] = lambda x: (barrier.wait(timeout=30), x)[1]
    k("sq::{x*x}")
    for i in range(rounds):
        try:
            v = k.run(f"sq(wait(!{i % 7 + 3}))")
            if not isinstance(v, array_type):
                failures.append((backend, i, type(v).__name__))
            s = k.run("+/1.5*!10")
            if s != 67.5:
                failures.append((backend, i, s))
            try:
                k.run("[1 2 3]+[1 2]")
                failures.append((backend, i, "no length error"))
            except KlongError:
                pass
        except Exception as e:          # anything else is a failure of isolation
            failures.append((backend, i, repr(e)))


def test_two_backends_in_two_threads_never_mix():
    rounds = 1500
    barrier = threading.Barrier(2)
    failures = []
    threads = [threading.Thread(target=_worker, args=(b, rounds, barrier, failures))
               for b in ("numpy", "torch")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads)
    assert failures == []


def test_a_function_called_from_another_thread_keeps_its_backend():
    kt = KlongInterpreter(backend="torch")
    kn = KlongInterpreter(backend="numpy")
    kt("tw::{2*x}")
    kn("nw::{2*x}")
    out = {}

    def run():
        out["t"] = kt["tw"]([1, 2, 3])
        out["n"] = kn["nw"]([1, 2, 3])
    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert isinstance(out["t"], kt.backend.array_type)
    assert isinstance(out["n"], kn.backend.array_type)


# ---------------------------------------------------------------- one interpreter, many threads

@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_one_interpreter_shared_by_threads_runs_one_evaluation_at_a_time(backend):
    """Differentiation perturbs (numpy) or tracks (torch) the global it differentiates by
    while it runs: another thread must never see that, nor run in between."""
    k = KlongInterpreter(backend=backend)
    k("w::1.0; nl::{(w-x)^2}; sq::{x*x}")
    k["back"] = lambda x: k["sq"](x) + k("w")     # a callback that calls k again
    sq = k["sq"]
    failures = []

    def work(t):
        try:
            for i in range(100):
                g = k("nl:>w")
                if type(g) is not float or g != 0.0:
                    failures.append(("gradient", repr(g)))
                if k["w"] != 1.0 or type(k["w"]) is not float:
                    failures.append(("w", repr(k["w"])))
                if k("back(3)") != 10.0 or sq(i) != i * i:
                    failures.append(("callback", i))
                k[f"v{t}"] = i
        except Exception as e:
            failures.append(repr(e))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)         # threads switch often: many chances to interleave
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    finally:
        sys.setswitchinterval(interval)
    assert not any(t.is_alive() for t in threads)
    assert failures == []
    assert repr(k["w"]) == "1.0"
    assert [k[f"v{t}"] for t in range(4)] == [99] * 4
