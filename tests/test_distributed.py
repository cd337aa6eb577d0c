"""Data-parallel Klong: the distributed functions (.rank .world .allsum .allmean .allgather
.bcast .barrier .allgrad .p0) in a world of one on both backends, and across two processes
joined by Gloo on the CPU over the loopback address, started here the way torchrun starts
them (its environment variables) and by torchrun itself."""
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from klong import KlongError, KlongInterpreter
from klong.sysfns.distributed import average_gradients

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "distributed" / "linear_regression.kg"
OPTIMIZERS = ROOT / "examples" / "autograd"           # optimizers.py
LAUNCH_VARIABLES = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR",
                    "MASTER_PORT", "KLONG_BACKEND", "KLONG_DEVICE", "KLONG_DIST_TIMEOUT")
# the machine running the suite may be busy: generous limits, but limits
PROCESS_LIMIT_S = 240
GROUP_TIMEOUT_S = 60


def needs_torch_distributed():
    torch = pytest.importorskip("torch")
    if not torch.distributed.is_available():
        pytest.skip("this PyTorch has no torch.distributed")


# ------------------------------------------------------------------ a world of one

def test_world_of_one(kw):
    assert kw(".rank()") == "0"
    assert kw(".world()") == "1"
    assert kw(".barrier()") == "[]"


def test_reductions_alone(kw):
    assert kw(".allsum(3)") == "3"
    assert kw(".allsum(2.5)") == "2.5"
    assert kw(".allmean(3)") == "3.0"                 # a mean is real
    assert kw(".allsum([1 2 3])") == "[1 2 3]"
    assert kw(".allmean([[1 2] [3 4]])") == "[[1.0 2.0] [3.0 4.0]]"
    # a list of parts of several shapes (gradients, say): all reals when one is real
    assert kw(".allsum([[1 2] 3.5])") == "[[1.0 2.0] 3.5]"
    assert kw(".allsum([[1 2] 3])") == "[[1 2] 3]"
    assert kw(".allsum([])") == "[]"


def test_gather_and_broadcast_alone(kw):
    assert kw(".allgather(5)") == "[5]"
    assert kw(".allgather([1 2])") == "[[1 2]]"
    assert kw(".bcast([1.5 2];0)") == "[1.5 2.0]"
    assert kw(".bcast([[1 2] 3];0)") == "[[1 2] 3]"


def test_errors_alone(k):
    for source, kind, words in [
        ('.allsum("abc")', "type", ".allsum: a number"),
        (".allmean(:a)", "type", ".allmean: a number"),
        (".allgather([1 \"x\"])", "type", ".allgather: a number"),
        (".bcast(1;1)", "range", "the root must be a rank, 0 to 0"),
        (".bcast(1;-1)", "range", "the root must be a rank"),
        (".bcast(1;0.5)", "range", "the root must be a rank"),
        (".allsum(10000000000000000000000)", "range", "integers beyond 64 bits"),
        (".allgather([1 10000000000000000000000])", "range", "integers beyond 64 bits"),
    ]:
        with pytest.raises(KlongError) as info:
            k.run(source)
        assert info.value.kind == kind and words in info.value.message, source


def test_p0_prints_on_rank_zero(k, capsys):
    assert k.run('.p0("hello")') == "hello"
    assert capsys.readouterr().out == "hello\n"


def test_allgrad_is_the_gradient_alone(k):
    k.run("w::2.0;b::3.0;loss::{(w^2)+(b^2)}")
    # as Python floats: a tensor on a GPU is no numpy array (numeric on numpy: close only)
    assert np.allclose([float(g) for g in k.run(".allgrad(loss;[w b])")], [4.0, 6.0])
    assert np.allclose(float(k.run(".allgrad({x^2};3.0)")), 6.0)


def test_reals_of_the_backend_alone():
    pytest.importorskip("torch")
    k = KlongInterpreter(backend="torch", device="cpu", dtype="float32")
    mean = k.run(".allmean([1 2])")
    assert str(mean.dtype) == "torch.float32" and mean.tolist() == [1.0, 2.0]


def test_collectives_are_not_differentiated(kt):
    with pytest.raises(KlongError, match="collectives are not differentiable"):
        kt.run("{.allsum(x^2)}:>3.0")


def test_average_gradients_for_python_optimizers(k):
    k.run("w::1.0;b::[1.0 2.0];loss::{(w^2)++/b^2}")
    from klong.runtime.autograd import gradients_of
    grads = average_gradients(k, gradients_of(k, "loss", ["w", "b"]))
    assert len(grads) == 2
    assert np.allclose(float(grads[0]), 2.0)
    assert np.allclose(np.asarray(grads[1].tolist()), [2.0, 4.0])


def test_example_alone(k, capsys):
    """The data-parallel example runs in a single process, on either backend."""
    k.run(EXAMPLE.read_text(encoding="utf-8"))
    out = capsys.readouterr().out
    assert "ranks: 1" in out
    w, b = trained(out)
    assert abs(w - 3.0) < 0.01 and abs(b - 2.0) < 0.01


def test_numpy_under_torchrun_warns_once(kn, monkeypatch, capsys):
    monkeypatch.setenv("WORLD_SIZE", "2")
    assert kn.run(".world()+.world()") == 2
    assert capsys.readouterr().err.count("only the torch backend") == 1


def test_ranks_not_joined_outside_torchrun():
    """import klong and the numpy backend load no torch; the torch backend outside torchrun
    joins nothing."""
    code = ("import sys, klong\n"
            "k = klong.KlongInterpreter(); assert k.run('.allsum(.world())') == 1\n"
            "assert 'torch' not in sys.modules, 'torch imported'\n"
            "try:\n    import torch\nexcept ImportError:\n    sys.exit(0)\n"
            "from klong.backends.group import ALONE\n"
            "k = klong.KlongInterpreter(backend='torch')\n"
            "assert k.backend.group is ALONE and k.run('.world()') == 1\n"
            "assert not torch.distributed.is_initialized()\n")
    proc = subprocess.run([sys.executable, "-c", code], env=launch_env(), capture_output=True,
                          text=True, timeout=PROCESS_LIMIT_S)
    assert proc.returncode == 0, proc.stderr


def test_the_group_is_joined_by_the_first_distributed_call_not_the_constructor():
    """Under torchrun (here a world of one) making the torch backend joins no group; the
    first distributed function does."""
    needs_torch_distributed()
    code = ("import torch.distributed as dist, klong\n"
            "k = klong.KlongInterpreter(backend='torch', device='cpu')\n"
            "assert k.run('1+1') == 2 and not dist.is_initialized(), 'joined too early'\n"
            "assert k.run('.rank(),.world()').tolist() == [0, 1]\n"
            "assert dist.is_initialized() and dist.get_world_size() == 1\n")
    env = launch_env({"RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "1", "LOCAL_WORLD_SIZE": "1",
                      "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(free_port())})
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=PROCESS_LIMIT_S)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("value", ["0", "-3", "soon", "inf"])
def test_a_bad_timeout_is_refused(monkeypatch, value):
    needs_torch_distributed()
    for name, setting in [("RANK", "0"), ("LOCAL_RANK", "0"), ("WORLD_SIZE", "1"),
                          ("MASTER_ADDR", "127.0.0.1"), ("MASTER_PORT", "1"),
                          ("KLONG_DIST_TIMEOUT", value)]:
        monkeypatch.setenv(name, setting)
    with pytest.raises(KlongError, match="KLONG_DIST_TIMEOUT must be a positive number"):
        KlongInterpreter(backend="torch", device="cpu")


# ------------------------------------------------------------------ two processes

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch_env(extra=None):
    env = {k: v for k, v in os.environ.items() if k not in LAUNCH_VARIABLES}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    env["KLONG_DIST_TIMEOUT"] = str(GROUP_TIMEOUT_S)
    env.update(extra or {})
    return env


def finish(procs, limit=PROCESS_LIMIT_S):
    """(exit code, stdout, stderr) of each process, in order; a process still running at the
    limit is a failure (a hang), and every process is stopped."""
    deadline = time.monotonic() + limit
    results = []
    try:
        for p in procs:
            out, err = p.communicate(timeout=max(1, deadline - time.monotonic()))
            results.append((p.returncode, out, err))
    except subprocess.TimeoutExpired:
        for p in procs:
            p.kill()
            p.communicate()
        pytest.fail(f"the ranks did not finish within {limit} s")
    return results


def run_ranks(tmp_path, source, ranks=2, extra_env=None, limit=PROCESS_LIMIT_S, rank_env=None):
    """Run the Klong program `source` as `ranks` processes on the torch backend, each started
    with the variables torchrun sets (and those of rank_env(rank)): [(exit code, stdout,
    stderr)] by rank."""
    needs_torch_distributed()
    script = tmp_path / "program.kg"
    script.write_text(source, encoding="utf-8")
    port = str(free_port())
    procs = []
    for rank in range(ranks):
        env = launch_env({"RANK": str(rank), "LOCAL_RANK": str(rank), "WORLD_SIZE": str(ranks),
                          "LOCAL_WORLD_SIZE": str(ranks), "MASTER_ADDR": "127.0.0.1",
                          "MASTER_PORT": port, **(extra_env or {}),
                          **(rank_env(rank) if rank_env else {})})
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "klong", "--backend", "torch", "--device", "cpu", str(script)],
            cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True))
    return finish(procs, limit)


COLLECTIVES = """r::.rank()
.p(.world())
.p(.allsum(1+r))
.p(.allsum([[1 2] 3]+r))
.p(.allmean([1.0 2.0]*1+r))
.p(.allsum(4611686018427387903+r))
.p(.bcast((10*r)+!3;1))
.p(.bcast(:[r=0;[0 [1 2] 3.5];0];0))
.p(.allgather(r))
.p(.allgather([1 2]+r))
.p(.allgather(!1+r))
.p0("from rank 0")
.p(.barrier())
"""


def test_ranks_collectives(tmp_path):
    expected = ["2", "3", "[[3 5] 7]", "[1.5 3.0]",
                "9223372036854775807",             # exact: integers are summed as integers
                "[10 11 12]",                      # rank 1's list
                "[0.0 [1.0 2.0] 3.5]",             # rank 0's value, whatever rank 1 had
                "[0 1]", "[[1 2] [2 3]]",
                "[[0] [0 1]]",                     # lists of different lengths
                "from rank 0", "[]"]
    for rank, (code, out, err) in enumerate(run_ranks(tmp_path, COLLECTIVES)):
        assert code == 0, err
        assert out.splitlines() == [line for line in expected
                                    if rank == 0 or line != "from rank 0"], out


def test_integer_sums_never_wrap(k):
    from klong.sysfns.distributed import _exact_sum
    top = 2 ** 63 - 1
    b = k.backend
    rows = [b.asarray([top - 1, -5], "i"), b.asarray([1, 2], "i")]
    assert _exact_sum(rows, b).tolist() == [top, -3]
    with pytest.raises(KlongError, match="does not fit in 64 bits"):
        _exact_sum([b.asarray([top], "i"), b.asarray([1], "i")], b)
    assert _exact_sum([b.asarray([], "i")] * 2, b).tolist() == []


def test_ranks_mismatched_shapes_fail_on_every_rank(tmp_path):
    for code, out, err in run_ranks(tmp_path, "r::.rank()\n.p(.allsum(!2+r))\n.p(1)\n"):
        assert code == 1 and out == ""
        assert ("length error: .allsum: the shapes differ across ranks: "
                "rank 0 shape [2], rank 1 shape [3]") in err


def test_ranks_different_calls_fail_on_every_rank(tmp_path):
    source = "r::.rank()\n:[r=0;.allsum(1);.allgather(1)]\n.p(1)\n"
    results = run_ranks(tmp_path, source)
    for code, out, err in results:
        assert code == 1 and out == ""
        assert "the ranks called different functions: rank 0 .allsum, rank 1 .allgather" in err
    # a call refused on one rank (not numbers) fails the others at once, not at the timeout
    source = 'r::.rank()\n:[r=0;.allsum("x");.allsum(1)]\n.p(1)\n'
    (code0, _, err0), (code1, _, err1) = run_ranks(tmp_path, source)
    assert code0 == 1 and "type error: .allsum: a number" in err0
    assert code1 == 1 and "distributed error: .allsum: rank 0 could not take part" in err1
    # ranks on different real types
    results = run_ranks(tmp_path, "r::.rank()\n.p(.allsum(1.5))\n",
                        rank_env=lambda rank: {"KLONG_DTYPE": ["float64", "float32"][rank]})
    for code, out, err in results:
        assert code == 1 and out == ""
        assert ("distributed error: .allsum: the ranks compute with different reals: "
                "rank 0 float64, rank 1 float32") in err
    # so does a gradient that fails on one rank
    source = 'r::.rank()\nw::1.0\nloss::{:[r=0;w+"x";w^2]}\n.p(.allgrad(loss;[w]))\n'
    (code0, _, err0), (code1, _, err1) = run_ranks(tmp_path, source)
    assert code0 == 1 and "type error" in err0
    assert code1 == 1 and "distributed error: .allmean: rank 0 could not take part" in err1


def test_ranks_one_gone_is_an_error(tmp_path):
    source = "r::.rank()\n:[r=1;.x(0);.p(.allsum(1))]\n"
    (code0, out0, err0), (code1, _, _) = run_ranks(tmp_path, source)
    assert code1 == 0
    assert code0 == 1 and out0 == "" and "distributed error" in err0


def test_ranks_one_absent_is_a_timeout(tmp_path):
    source = 'r::.rank()\n:[r=1;.sys("sleep 14");.barrier()]\n'
    started = time.monotonic()
    (code0, _, err0), (code1, _, _) = run_ranks(tmp_path, source,
                                                extra_env={"KLONG_DIST_TIMEOUT": "8"})
    assert code0 == 1 and "distributed error" in err0
    assert code1 == 0
    assert time.monotonic() - started < PROCESS_LIMIT_S


def test_ranks_destroyed_group_is_an_error(tmp_path):
    """After the process group is gone (here destroyed by the Python program embedding
    Klong), a collective is a Klong error and the rank is still known."""
    needs_torch_distributed()
    code = ("import torch.distributed as dist\n"
            "from klong import KlongInterpreter, KlongError\n"
            "k = KlongInterpreter(backend='torch', device='cpu')\n"
            "assert k.run('.allsum(.world())') == 1 and dist.get_backend() == 'gloo'\n"
            "dist.destroy_process_group()\n"
            "assert k.run('.rank()') == 0\n"
            "try:\n    k.run('.allsum(1)')\nexcept KlongError as e:\n    print(e)\n")
    env = launch_env({"RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "1", "MASTER_ADDR": "127.0.0.1",
                      "MASTER_PORT": str(free_port())})
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=PROCESS_LIMIT_S)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "distributed error: the process group is gone\n"


# ------------------------------------------------------------------ training

def trained(out):
    """The parameters the example prints, as floats."""
    found = dict(re.findall(r"^(w|b) = (\S+)$", out, re.M))
    return float(found["w"]), float(found["b"])


def torchrun(node_options, tmp_path):
    """Start torchrun (python -m torch.distributed.run) on the example."""
    command = [sys.executable, "-m", "torch.distributed.run", *node_options,
               "-m", "klong", "--backend", "torch", "--device", "cpu", str(EXAMPLE)]
    return subprocess.Popen(command, env=launch_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path)


@pytest.mark.parametrize("nodes", ["one node", "two nodes"])
def test_ranks_two_train_as_one(tmp_path, nodes):
    """The example with two ranks, each on half of the data, ends at the parameters one
    process reaches on all of it. Two ranks on one node (--nproc_per_node=2), or on two
    "nodes": two torchrun agents meeting at a c10d rendezvous, as on two machines."""
    needs_torch_distributed()
    one = subprocess.run([sys.executable, "-m", "klong", "--backend", "torch", str(EXAMPLE)],
                         env=launch_env(), capture_output=True, text=True,
                         timeout=PROCESS_LIMIT_S)
    assert one.returncode == 0, one.stderr
    assert "ranks: 1" in one.stdout
    port = free_port()
    if nodes == "one node":
        agents = [torchrun(["--nproc_per_node=2", "--master_addr=127.0.0.1",
                            f"--master_port={port}"], tmp_path)]
    else:
        agents = [torchrun(["--nnodes=2", "--nproc_per_node=1", "--rdzv-backend=c10d",
                            f"--rdzv-endpoint=127.0.0.1:{port}", "--rdzv-id=klong-test"],
                           tmp_path) for _ in range(2)]
    results = finish(agents)
    for code, _, err in results:
        assert code == 0, err
    out = "".join(out for _, out, _ in results)
    assert out.count("ranks: 2") == 1                  # .p0: rank 0 alone prints
    w1, b1 = trained(one.stdout)
    w2, b2 = trained(out)
    assert abs(w1 - 3.0) < 0.01 and abs(b1 - 2.0) < 0.01     # it did learn the line
    assert np.allclose([w2, b2], [w1, b1], rtol=1e-10, atol=1e-12)


OPTIMIZED = """.pyf("optimizers";"DistributedAdamOptimizer")
n::64;X::(!n)%n;Y::2+3*X
k::n:%.world();mine::(k*.rank())+!k;Xs::X@mine;Ys::Y@mine
w::0.0;b::0.0
loss::{(+/((b+w*Xs)-Ys)^2)%#Xs}
opt::DistributedAdamOptimizer(klong;["w" "b"];:{["lr" 0.05]})
{x;opt(loss)}'!200
.p0("w = ",$w)
.p0("b = ",$b)
"""


def test_ranks_python_optimizer_averages(tmp_path):
    """The Python optimizers of examples/autograd average their gradients over the ranks
    (DistributedAdamOptimizer): two ranks on halves of the data take the steps of one."""
    needs_torch_distributed()
    path = os.pathsep.join([str(ROOT), str(OPTIMIZERS)])
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "program.kg").write_text(OPTIMIZED, encoding="utf-8")
    one = subprocess.run([sys.executable, "-m", "klong", "--backend", "torch", "program.kg"],
                         cwd=alone, env=launch_env({"PYTHONPATH": path}), capture_output=True,
                         text=True, timeout=PROCESS_LIMIT_S)
    assert one.returncode == 0, one.stderr
    results = run_ranks(tmp_path, OPTIMIZED, extra_env={"PYTHONPATH": path})
    for code, _, err in results:
        assert code == 0, err
    assert results[1][1] == ""
    w1, b1 = trained(one.stdout)
    w2, b2 = trained(results[0][1])
    assert 0.01 < abs(w1 - 3.0) < 1           # under way, not converged: the paths are compared
    assert np.allclose([w2, b2], [w1, b1], rtol=1e-10, atol=1e-12)
