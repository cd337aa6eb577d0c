"""Each interpreter owns its backend: interpreters on different backends, in different
threads, with Python callbacks and errors in between, never see each other's arrays."""
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
