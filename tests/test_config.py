"""What a torch user configures per interpreter (settings.py, memory.py, randomness.py):
the seed and .srn, deterministic runs, memory statistics (.mem .memreset .memclear,
memory_stats), the memory limit, memory hooks, mixed precision (amp) and float16, from
Python, from the environment and from kgpy. Tests that need CUDA are skipped without it."""
import io
import os
import random
import re
import subprocess
import sys
import threading
from contextlib import redirect_stdout

import numpy as np
import pytest

from klong import KlongError, KlongInterpreter
from klong.runtime.display import write
from klong.runtime.memory import parse_size, size_text
from klong.frontends.replcommands import Session
from klong.runtime.settings import KlongOptionError

from conftest import BACKENDS, ROOT  # noqa: E402

HAS_TORCH = "torch" in BACKENDS
needs_torch = pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed")


def _cuda():
    if not HAS_TORCH:
        return False
    import torch
    return torch.cuda.is_available()


needs_cuda = pytest.mark.skipif(not _cuda(), reason="needs a CUDA device")
SETTINGS_ENV = ("KLONG_SEED", "KLONG_DETERMINISTIC", "KLONG_MEMORY_LIMIT",
                "KLONG_MEMORY_HOOK_THRESHOLD", "KLONG_AMP", "KLONG_AMP_DTYPE")


@pytest.fixture(autouse=True)
def no_settings_in_environment(monkeypatch):
    for name in SETTINGS_ENV:
        monkeypatch.delenv(name, raising=False)


def make(backend, **options):
    """An interpreter on `backend` (torch on the CPU) with the given settings."""
    return KlongInterpreter(backend=backend, device="cpu" if backend == "torch" else None,
                            **options)


DRAWS = "{x;.rn()}'!6"


# ---------------------------------------------------------------- 1. the seed

def test_a_seed_repeats_the_draws_run_after_run(backend):
    first = write(make(backend, seed=42).run(DRAWS))
    assert write(make(backend, seed=42).run(DRAWS)) == first
    assert write(make(backend, seed=43).run(DRAWS)) != first
    # one generator for .rn on both backends: the same numbers on numpy and torch
    assert write(make("numpy", seed=42).run(DRAWS)) == first


def test_without_a_seed_each_interpreter_draws_afresh(backend):
    assert write(make(backend).run(DRAWS)) != write(make(backend).run(DRAWS))
    assert make(backend).seed is None and make(backend, seed=5).seed == 5


def test_srn_reseeds_from_klong(backend):
    k = make(backend)
    assert k.run(".srn(7)") == 7
    a = write(k.run(DRAWS))
    assert write(k.run(DRAWS)) != a                 # the sequence goes on
    k.run(".srn(7)")
    assert write(k.run(DRAWS)) == a
    assert write(make(backend, seed=7).run(DRAWS)) == a
    assert k.seed == 7


@pytest.mark.parametrize("src, kind", [
    (".srn(-1)", "range"), (".srn(18446744073709551616)", "range"), (".srn(1.5)", "type"),
    ('.srn("a")', "type"), (".srn([1 2])", "type")])
def test_srn_refuses_what_is_not_a_seed(backend, src, kind):
    with pytest.raises(KlongError) as info:
        make(backend).run(src)
    assert info.value.kind == kind and "seed" in info.value.message


def test_seed_from_the_environment(backend, monkeypatch):
    monkeypatch.setenv("KLONG_SEED", "42")
    assert make(backend).seed == 42
    assert write(make(backend).run(DRAWS)) == write(make(backend, seed=42).run(DRAWS))
    assert make(backend, seed=3).seed == 3                  # the keyword wins


def test_the_global_generators_are_left_alone(backend):
    random.seed(1)
    np.random.seed(1)
    expected = (random.random(), np.random.random())
    random.seed(1)
    np.random.seed(1)
    k = make(backend, seed=9)
    k.run(DRAWS + ";.srn(3);" + DRAWS)
    assert (random.random(), np.random.random()) == expected


def test_two_seeded_interpreters_in_two_threads_repeat_their_own_numbers(backend):
    rounds = 300
    expected = {seed: [make(backend, seed=seed).run(".rn()") for _ in range(1)] for seed in (1, 2)}
    expected = {}
    for seed in (1, 2):
        k = make(backend, seed=seed)
        expected[seed] = [k.run(".rn()") for _ in range(rounds)]
    assert expected[1] != expected[2]
    barrier = threading.Barrier(2)
    got, failures = {}, []

    def draw(seed):
        try:
            k = make(backend, seed=seed)
            k["wait"] = lambda x: (barrier.wait(timeout=30), x)[1]
            # every draw waits for the other thread's: the two interleave draw by draw
            got[seed] = [k.run("wait(.rn())") for _ in range(rounds)]
        except Exception as e:
            failures.append(repr(e))
            barrier.abort()

    threads = [threading.Thread(target=draw, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not failures
    assert got == expected


@needs_torch
def test_torch_draws_through_bkf_follow_the_seed():
    import torch
    src = '.bkf(["bernoulli" "normal" "poisson"]);' \
          'bernoulli(6:^0.5),normal(4:^0.0),poisson(4:^3.0)'
    torch.manual_seed(0)
    before = torch.rand(3)
    a = write(make("torch", seed=11).run(src))
    assert write(make("torch", seed=11).run(src)) == a
    assert write(make("torch", seed=12).run(src)) != a
    k = make("torch", seed=11)
    assert write(k.run(src)) == a
    k.run(".srn(11)")                                 # re-seeds the functions already made
    assert write(k.run("bernoulli(6:^0.5),normal(4:^0.0),poisson(4:^3.0)")) == a
    # each element draws for itself (no trace that would draw once for all)
    assert len(set(k.run("{normal(x)}'4:^0.0").tolist())) == 4
    torch.manual_seed(0)
    assert torch.equal(torch.rand(3), before)         # torch's global generator untouched


@needs_torch
def test_torch_arrays_drawn_by_size_through_bkf_follow_the_seed():
    """randn(1) as KlongPy programs write it: the size is an integer (or a list of them)."""
    src = '.bkf(["randn" "rand"]);randn(3),rand(4)'
    a = write(make("torch", seed=11).run(src))
    assert write(make("torch", seed=11).run(src)) == a
    assert write(make("torch", seed=12).run(src)) != a
    k = make("torch", seed=3, dtype="float32")
    k.run('.bkf("randn")')
    assert k.run("^randn([2 3])").tolist() == [2, 3]
    assert k.run("randn(2)").dtype == k.backend.float_dtype
    # each element draws for itself (no trace that would draw once for all)
    assert len(set(k.run("{*randn(1)}'!4").tolist())) == 4


def test_arrays_filled_by_size_through_bkf(backend):
    k = make(backend)
    k.run('.bkf(["zeros" "ones"])')
    assert write(k.run("zeros(3)")) == "[0.0 0.0 0.0]"
    assert write(k.run("ones([2 2])")) == "[[1.0 1.0] [1.0 1.0]]"
    assert write(k.run("zeros(0)")) == "[]"
    for bad, error in (("zeros(-1)", "range error: zeros: a size is never negative"),
                       ("ones(1.5)", "type error: ones: a size is needed (an integer or a "
                                     "list of integers)"),
                       ("zeros(1;2)", "arity error")):
        with pytest.raises(KlongError, match=re.escape(error)):
            k.run(bad)


def test_weights_initialised_from_klong_repeat(backend):
    src = "w::{x;(.rn()-0.5)*2}'!8;w"
    assert write(make(backend, seed=5).run(src)) == write(make(backend, seed=5).run(src))


# ---------------------------------------------------------------- 2. deterministic runs

@needs_torch
def test_deterministic_holds_only_while_the_interpreter_evaluates():
    import torch
    cudnn = torch.backends.cudnn
    before = (torch.are_deterministic_algorithms_enabled(), cudnn.deterministic, cudnn.benchmark)
    assert before[0] is False
    seen = {}
    det = make("torch", deterministic=True)
    other = make("torch")
    det["look"] = lambda x: seen.setdefault("det", (torch.are_deterministic_algorithms_enabled(),
                                                    cudnn.deterministic, cudnn.benchmark)) and x
    other["look"] = lambda x: seen.setdefault("other",
                                              torch.are_deterministic_algorithms_enabled()) or x
    det.run("look(1)")
    other.run("look(1)")
    assert seen == {"det": (True, True, False), "other": False}
    assert (torch.are_deterministic_algorithms_enabled(), cudnn.deterministic,
            cudnn.benchmark) == before
    # from Python calls of its functions too, and after an error
    det.run("f::{look(x)}")
    seen.clear()
    det["f"](2)
    assert seen["det"][0] is True and not torch.are_deterministic_algorithms_enabled()
    with pytest.raises(KlongError):
        det.run("1+")
    with pytest.raises(KlongError):
        det.run("[1 2]+[1 2 3]")
    assert not torch.are_deterministic_algorithms_enabled()


@needs_torch
def test_deterministic_restores_a_setting_made_outside():
    import torch
    torch.use_deterministic_algorithms(True, warn_only=True)
    try:
        make("torch", deterministic=True).run("+/!10")
        assert torch.are_deterministic_algorithms_enabled()
        assert torch.is_deterministic_algorithms_warn_only_enabled()
    finally:
        torch.use_deterministic_algorithms(False)


@needs_torch
def test_deterministic_interpreters_overlapping_in_threads_restore_the_setting():
    import torch
    barrier = threading.Barrier(2)
    inside, failures = [], []

    def work(i):
        try:
            k = make("torch", deterministic=True)
            k["wait"] = lambda x: (barrier.wait(timeout=30), x)[1]
            for _ in range(20):
                k.run("wait(1)")
                inside.append(torch.are_deterministic_algorithms_enabled())
                k.run("+/!10")
        except Exception as e:
            failures.append(repr(e))
            barrier.abort()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not failures
    assert not torch.are_deterministic_algorithms_enabled()


TRAINING = """
w::{x;.rn()}'!4
xs::[[0.5 1.5 -2.0 0.25] [1.0 -1.0 0.5 2.0] [0.1 0.2 0.3 0.4]]
ys::[1.0 -1.0 0.5]
loss::{+/(ys-{+/x*w}'xs)^2}
g::loss:>w
w::w-0.01*g
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_deterministic_program_run_twice_is_bit_identical(backend):
    runs = []
    for _ in range(2):
        k = make(backend, deterministic=True)
        k.run(TRAINING)
        runs.append([np.asarray(k[name]) for name in ("w", "g")])
    for a, b in zip(*runs):
        assert a.tobytes() == b.tobytes()
    assert make(backend, deterministic=True).seed == 0      # deterministic seeds with 0


def test_deterministic_from_the_environment(backend, monkeypatch):
    monkeypatch.setenv("KLONG_DETERMINISTIC", "1")
    k = make(backend)
    assert k.settings.deterministic and k.seed == 0
    monkeypatch.setenv("KLONG_DETERMINISTIC", "off")
    assert not make(backend).settings.deterministic
    monkeypatch.setenv("KLONG_DETERMINISTIC", "maybe")
    with pytest.raises(KlongOptionError) as info:
        make(backend)
    assert "KLONG_DETERMINISTIC" in str(info.value) and "\n" not in str(info.value)


# ---------------------------------------------------------------- 3. memory statistics

KEYS = ["device", "allocated", "reserved", "peak", "limit", "process_peak"]


def test_mem_gives_the_figures(backend):
    k = make(backend)
    d = k.run(".mem()")
    assert write(d).startswith(':{["device" "cpu"] ["allocated" ')
    stats = k.memory_stats()
    assert list(stats) == KEYS
    base = stats["allocated"]
    k.run("a::!1000000")                       # 8 MB of int64
    stats = k.memory_stats()
    assert stats["allocated"] - base == 8_000_000
    assert stats["peak"] >= stats["allocated"] and stats["reserved"] >= stats["allocated"]
    assert stats["process_peak"] > 0 and stats["limit"] == 0
    k.run("b::a;c::a;d::[1 2],a")               # the same array held three times counts once
    assert k.memory_stats()["allocated"] - base == 8_000_000 + 8_000_016
    k.run("a::b::c::d::0")
    after = k.memory_stats()
    assert after["allocated"] == base
    assert after["peak"] >= base + 16_000_016           # the peak stays
    reset = k.run(".memreset()")
    assert reset.get("peak") == reset.get("allocated") == base
    assert k.memory_stats()["peak"] == base
    # the Klong dictionary and the Python one agree
    assert {key: k.run(".mem()").get(key) for key in KEYS} == k.memory_stats()


def test_views_count_their_buffer_once(backend):
    k = make(backend)
    base = k.memory_stats()["allocated"]
    k.run("m::[4 250]:^1.0*!1000;r::m@0;t::+m")       # rows and transposes may be views
    grown = k.memory_stats()["allocated"] - base
    assert 8000 <= grown <= 3 * 8000


def test_peak_counts_results_announced_between_checkpoints(backend):
    k = make(backend)
    k.memory_stats()                           # statistics asked for: memory is watched
    k.run(".memreset();#!1000000")             # a result not kept
    assert k.memory_stats()["peak"] >= 8_000_000


def test_memclear_collects_and_reports(backend):
    k = make(backend)
    k.run("a::!100000")
    cleared = k.run(".memclear()")
    assert cleared.get("allocated") >= 800_000


@needs_cuda
def test_cuda_statistics_are_the_allocators():
    import torch
    k = KlongInterpreter(backend="torch", device="cuda")
    k.run("a::!1000000")
    stats = k.memory_stats()
    assert stats["device"].startswith("cuda")
    assert stats["allocated"] == torch.cuda.memory_allocated(k.backend.device)
    assert stats["reserved"] >= stats["allocated"] >= 8_000_000
    assert stats["peak"] >= stats["allocated"]
    k.run("a::0;.memclear()")
    k.run(".memreset()")
    assert k.memory_stats()["peak"] == torch.cuda.memory_allocated(k.backend.device)


# ---------------------------------------------------------------- 4. the memory limit

@pytest.mark.parametrize("text, size", [
    ("4GB", 4 * 2**30), ("512 MB", 512 * 2**20), ("1.5KB", 1536), ("100", 100), ("100B", 100),
    ("2kb", 2048), ("1TB", 2**40), ("3MiB", 3 * 2**20), (4096, 4096)])
def test_sizes(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text, words", [
    ("4XB", ["unknown unit", "XB", "GB"]), ("-1GB", ["positive"]), ("-5", ["positive"]),
    ("0", ["positive"]), ("lots", ["4GB"]), ("", ["4GB"])])
def test_bad_sizes(text, words):
    with pytest.raises(ValueError) as info:
        parse_size(text)
    assert all(w in str(info.value) for w in words)


def test_size_text():
    assert [size_text(n) for n in (800, 1024, 8_000_000, 4 * 2**30)] == \
        ["800 B", "1 KB", "7.6 MB", "4 GB"]


@pytest.mark.parametrize("src", ["!200000", "200000#[1]", "&[200000]", "a,a,a,a,a,a,a",
                                 "[200 1000]:^1", "{x{+/x*y}:/m}'m"])
def test_a_result_over_the_limit_is_refused_before_it_is_made(backend, src):
    k = make(backend, memory_limit="1MB")
    k.run("a::!50000;m::+,1.0*!1000;s::5")
    with pytest.raises(KlongError) as info:
        k.run(src)
    e = info.value
    assert e.kind == "range" and "memory limit" in e.message
    assert "1 MB (1048576 bytes)" in e.message and "the result needs" in e.message
    assert "\n" not in str(e)
    # the state is kept and the interpreter goes on
    assert k.run("s+1") == 6 and k.run("#a") == 50000 and k.run("+/!100") == 4950
    assert k.memory_stats()["limit"] == 2**20


@pytest.mark.parametrize("src, needs", [
    ("(!400)*:\\!400", "times each-left [[0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21"
     "...: not enough memory allowed: the result needs 1.2 MB (1280000 bytes)"),
    ("{!400}'!400", "each [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 ...: "
     "not enough memory allowed: the result needs 1.2 MB (1280000 bytes)"),
    ("(!400){x+y+!400}'!400", "each-2 [[0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21"
     "...: not enough memory allowed: the result needs 1.2 MB (1280000 bytes)"),
    ("{x+y+!400}:'!401", "each-pair [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 "
     "...: not enough memory allowed: the result needs 1.2 MB (1280000 bytes)"),
    # parts of growing size: what the parts made so far need
    ("{!x}'!2000", "each [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 ...: "
     "not enough memory allowed: the result needs at least 1 MB (1050624 bytes)"),
    ("{x,y}\\!2000", "scan [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 ...: "
     "not enough memory allowed: the result needs at least 1 MB (1050624 bytes)"),
    ("{:[1000>#x;x,1;x]}\\~[1]", "scan-converging [1]: not enough memory allowed: the result needs at "
     "least 1 MB (1050624 bytes)"),
])
def test_the_parts_of_a_result_count_as_they_are_made(backend, src, needs):
    """Each, its kin and the scans check the limit as their parts accumulate, not once
    they all exist (the memory is not taken first)."""
    k = make(backend, memory_limit="1MB")
    with pytest.raises(KlongError) as info:
        k.run(src)
    assert str(info.value) == f"range error: {needs}, over the memory limit of 1 MB (1048576 bytes)"
    assert k.run("#{!x}'!100") == 100 and k.run("+/#'(!10)*:\\!100") == 1000


MEASURE_PEAK = """
import sys, tracemalloc
from klong import KlongError, KlongInterpreter
k = KlongInterpreter(memory_limit="16MB")
k("#(!100)*:\\\\!100")
tracemalloc.start()         # numpy's arrays are traced too
try:
    k(sys.argv[1])
except KlongError as e:
    print(e)
print(tracemalloc.get_traced_memory()[1] // 2**20)
"""


@pytest.mark.parametrize("src", ["#(!4000)*:\\!4000", "#{!4000}'!4000"])
def test_the_memory_taken_stays_near_the_limit(src):
    """Made in full, the parts would take 128 MB before the result was refused: the peak
    of the memory taken meanwhile stays within 3x the limit."""
    r = subprocess.run([sys.executable, "-c", MEASURE_PEAK, src], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT, timeout=300)
    message, peak = r.stdout.splitlines()
    assert message.endswith("not enough memory allowed: the result needs 122.1 MB "
                            "(128000000 bytes), over the memory limit of 16 MB (16777216 bytes)")
    assert int(peak) < 48, f"the peak was {peak} MB"


def test_a_huge_result_is_refused_with_a_short_message(backend):
    k = make(backend, memory_limit="1GB")
    for src, shown in (("!10^400", "about 2^1331 B"), ("!10^5000", "about 2^16612 B"),
                       ("!2^61", "about 2^64 B"), ("!2^60", "8388608 TB")):
        with pytest.raises(KlongError) as info:
            k.run(src)
        assert info.value.kind == "range" and len(str(info.value)) < 200
        assert "memory limit of 1 GB" in info.value.message and shown in info.value.message


def test_the_limit_from_the_environment(backend, monkeypatch):
    monkeypatch.setenv("KLONG_MEMORY_LIMIT", "100KB")
    k = make(backend)
    assert k.run("#!10000") == 10000                    # 80,000 bytes
    with pytest.raises(KlongError) as info:
        k.run("!20000")                                 # 160,000 bytes
    assert "(160000 bytes)" in info.value.message and "(102400 bytes)" in info.value.message


@pytest.mark.parametrize("value, words", [
    ("4XB", ["memory limit", "unknown unit 'XB'"]), ("-1GB", ["memory limit", "positive"]),
    (-3, ["positive"])])
def test_a_bad_limit_is_one_option_error(backend, value, words):
    with pytest.raises(KlongOptionError) as info:
        make(backend, memory_limit=value)
    text = str(info.value)
    assert text.startswith("option error: ") and "\n" not in text
    assert all(w in text for w in words)
    assert isinstance(info.value, ValueError) and isinstance(info.value, KlongError)


# ---------------------------------------------------------------- 5. memory hooks

def test_a_hook_hears_of_growth_and_shrinking(backend):
    k = make(backend)
    calls = []
    k.register_memory_hook(lambda device, allocated, freed: calls.append((device, allocated, freed)))
    k.run("small::!1000")                       # 8 KB: under 1 MB, not told
    assert calls == []
    k.run("a::!1000000")                        # told of all since it was registered
    assert calls == [("cpu", 8_008_000, 0)]
    k.run("a::1.0*a")                           # replaced by one of the same size: no change
    assert len(calls) == 1
    k.run("a::0")
    assert calls[-1] == ("cpu", 0, 8_000_000)
    assert k.remove_memory_hook(calls.append) is False
    assert k.remove_memory_hook(k.memory.hooks[0].fn) is True
    k.run("a::!1000000")
    assert len(calls) == 2


def test_a_hook_threshold(backend, monkeypatch):
    k = make(backend)
    calls = []

    def hook(device, allocated, freed):
        calls.append((allocated, freed))
    k.register_memory_hook(hook, threshold="10KB")
    k.run("a::!1000")                           # 8,000 bytes: under 10 KB
    assert calls == []
    k.run("b::!1000")                           # 16,000 since the hook was last told
    assert calls == [(16_000, 0)]
    k.remove_memory_hook(hook)
    monkeypatch.setenv("KLONG_MEMORY_HOOK_THRESHOLD", "1KB")
    k2 = make(backend)
    k2.register_memory_hook(hook)
    k2.run("c::!200")                           # 1,600 bytes > 1 KB
    assert calls[-1] == (1600, 0)
    k3 = make(backend, memory_hook_threshold=100)
    k3.register_memory_hook(hook)
    k3.run("d::!20")
    assert calls[-1] == (160, 0)


def test_a_hook_hears_of_calls_from_python(backend):
    k = make(backend)
    calls = []
    k.register_memory_hook(lambda *args: calls.append(args))
    k.run("grow::{a::!x;#a}")
    assert k["grow"](300000) == 300000
    assert calls == [("cpu", 2_400_000, 0)]


def test_a_failing_hook_is_reported_once_and_evaluation_goes_on(backend, capsys):
    k = make(backend)

    def broken(device, allocated, freed):
        raise ValueError("no good")
    k.register_memory_hook(broken, threshold=0)
    assert k.run("a::!1000;+/a") == 499500
    assert k.run("b::!1000;#b") == 1000
    err = capsys.readouterr().err
    assert err.count("no good") == 1 and "broken" in err and "Traceback" not in err


def test_a_hook_that_runs_klong_does_not_recurse(backend):
    k = make(backend)
    seen = []
    k.register_memory_hook(lambda *args: seen.append(k.run("z::!100;#z")), threshold=1000)
    k.run("a::!1000")
    assert seen == [100]


@needs_cuda
def test_a_hook_on_cuda():
    k = KlongInterpreter(backend="torch", device="cuda")
    calls = []
    k.register_memory_hook(lambda *args: calls.append(args))
    k.run("a::!1000000")
    device, allocated, freed = calls[-1]
    assert device.startswith("cuda") and allocated >= 8_000_000


# ---------------------------------------------------------------- 6. mixed precision

PRODUCT = "a::[[1.1 2.2 3.3] [4.4 5.5 6.6]];{x{+/x*y}:/a}'a"


@needs_torch
def test_amp_runs_matrix_products_in_reduced_precision_and_keeps_float32():
    import torch
    amp = make("torch", amp=True)
    full = make("torch", dtype="float32")
    assert amp.backend.dtype == "float32" and amp.backend.amp_dtype == "bfloat16"
    r, f = amp.run(PRODUCT), full.run(PRODUCT)
    assert r.dtype == torch.float32 == f.dtype            # the value kept: float32
    assert not torch.equal(r, f)                          # computed in bfloat16
    assert torch.allclose(r, f, rtol=2**-7)               # as bfloat16 explains
    # sums, elementwise work and integer products stay exact in float32 / int64
    for src in ("+/[1.1 2.2]*[3.3 4.4]", "+/1.1*!10", "%[3.0 7.0]",
                "b::[[300 7] [11 13]];{x{+/x*y}:/b}'b"):
        assert write(amp.run(src)) == write(full.run(src)), src
    for src in ("[1.5 2.5]", "1.5*!3", "[1 2]%3", PRODUCT, "{+/x^2}:>[1.0 2.0]"):
        assert amp.run(src).dtype == torch.float32, src
    assert not torch.is_autocast_enabled("cpu")          # only while it evaluates


@needs_torch
def test_gradients_flow_under_amp():
    import torch
    src = "w::[[0.5 0.25 0.125] [1.0 2.0 3.0]];a::[[1.1 2.2 3.3] [4.4 5.5 6.6]];" \
          "loss::{+/+/{x{+/x*y}:/w}'a};loss:>w"
    g, f = make("torch", amp=True).run(src), make("torch", dtype="float32").run(src)
    assert g.dtype == torch.float32 and g.shape == f.shape
    assert torch.allclose(g, f, rtol=2**-7)


@needs_torch
def test_amp_float16_and_autocast_of_python_functions():
    import torch
    k = make("torch", amp=True, amp_dtype="float16")
    assert k.backend.amp_dtype == "float16"
    seen = []
    k["mm"] = lambda a, b: seen.append((a @ b).dtype) or a @ b
    r = k.run("mm([[1.0 2.0] [3.0 4.0]];[[1.0 0.0] [0.0 1.0]])")
    assert seen == [torch.float16] and r.dtype == torch.float32     # kept as float32
    other = make("torch", dtype="float32")
    other["mm"] = k["mm"]
    other.run("mm([[1.0 2.0] [3.0 4.0]];[[1.0 0.0] [0.0 1.0]])")
    assert seen[-1] == torch.float32                                 # not in another interpreter


@needs_torch
def test_amp_from_the_environment(monkeypatch):
    monkeypatch.setenv("KLONG_AMP", "1")
    monkeypatch.setenv("KLONG_AMP_DTYPE", "float16")
    k = make("torch")
    assert k.backend.amp_dtype == "float16" and k.backend.dtype == "float32"


@pytest.mark.parametrize("options, words", [
    (dict(backend="numpy", amp=True), ["amp", "torch backend"]),
    (dict(backend="torch", amp=True, dtype="float64"), ["amp", "float32", "float64"]),
    (dict(backend="torch", amp=True, amp_dtype="int8"), ["int8", "bfloat16", "float16"]),
    (dict(backend="numpy", seed=-1), ["seed", "-1"]),
    (dict(backend="numpy", seed="x"), ["seed"]),
    (dict(backend="numpy", memory_hook_threshold="1XB"), ["threshold", "unknown unit"]),
])
def test_bad_settings_are_one_line_errors(options, words):
    if options["backend"] == "torch" and not HAS_TORCH:
        pytest.skip("torch is not installed")
    with pytest.raises(KlongOptionError) as info:
        KlongInterpreter(**options)
    text = str(info.value)
    assert "\n" not in text and all(w in text for w in words), text


@needs_cuda
def test_amp_on_cuda_defaults_to_float16():
    import torch
    k = KlongInterpreter(backend="torch", device="cuda", amp=True)
    assert k.backend.amp_dtype == "float16"
    assert k.run(PRODUCT).dtype == torch.float32


# ---------------------------------------------------------------- 7. float16

@needs_torch
def test_float16_on_torch():
    import torch
    k = make("torch", dtype="float16")
    assert k.backend.dtype == "float16" and "float16" in repr(k.backend)
    assert write(k.run("[1 2]%3")) == "[0.333251953125 0.66650390625]"
    for src in ("[1.0 2.0]", "1.5*!3", "(!3)+0.5", "a::[3.0 1.0 2.0];a@<a", "[1.0 2.0],3.0",
                "{+/x^2}:>[1.0 2.0]", "b::[[1.0 2.0] [3.0 4.0]];{x{+/x*y}:/b}'b"):
        assert k.run(src).dtype == torch.float16, src
    assert k.run("_[1.5 2.5]").dtype == torch.int64
    # integer products stay exact (float16 holds integers only up to 2048)
    assert write(k.run("c::[[300 7] [11 13]];{x{+/x*y}:/c}'c")) == "[[90049 3391] [3391 290]]"


def test_float16_is_refused_on_numpy_naming_its_dtypes():
    with pytest.raises(KlongError) as info:
        KlongInterpreter(backend="numpy", dtype="float16")
    assert all(w in str(info.value) for w in ("float16", "float64", "float32"))


# ---------------------------------------------------------------- kgpy and the REPL

def kgpy(*args, **env):
    full = {k: v for k, v in os.environ.items()
            if k not in ("KLONG_BACKEND", "KLONG_DEVICE", "KLONG_DTYPE") + SETTINGS_ENV}
    full["PYTHONPATH"] = str(ROOT)
    full.update(env)
    return subprocess.run([sys.executable, str(ROOT / "kgpy"), *args], capture_output=True,
                          text=True, env=full, cwd=ROOT, timeout=120)


def test_kgpy_seed_option_and_variable():
    a = kgpy("--seed", "42", "-e", DRAWS)
    assert a.returncode == 0 and a.stdout == kgpy("--seed", "42", "-e", DRAWS).stdout
    assert kgpy("-e", DRAWS, KLONG_SEED="42").stdout == a.stdout
    assert kgpy("--seed", "43", "-e", DRAWS).stdout != a.stdout
    assert write(make("numpy", seed=42).run(DRAWS)) + "\n" == a.stdout


def test_kgpy_deterministic_option_and_variable():
    a = kgpy("--deterministic", "-e", DRAWS)
    assert a.returncode == 0 and a.stdout == write(make("numpy", seed=0).run(DRAWS)) + "\n"
    assert kgpy("-e", DRAWS, KLONG_DETERMINISTIC="1").stdout == a.stdout
    if HAS_TORCH:
        src = "w::[1.0 2.0];g::{+/x^3}:>w;g"
        r = kgpy("--backend", "torch", "--device", "cpu", "--deterministic", "-e", src)
        assert r.returncode == 0 and r.stdout == "[3.0 12.0]\n", r.stderr


def test_kgpy_memory_limit_option_and_variable():
    r = kgpy("--memory-limit", "1MB", "-e", "!200000")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and "memory limit of 1 MB (1048576 bytes)" in r.stderr
    r = kgpy("-e", "!200000", KLONG_MEMORY_LIMIT="1MB")
    assert r.returncode == 1 and "memory limit of 1 MB" in r.stderr
    r = kgpy("--memory-limit", "1MB", "-e", "#!100000")
    assert r.returncode == 0 and r.stdout == "100000\n"
    r = kgpy("--memory-limit", "2GB", "-e", '.mem()?"limit"')
    assert r.stdout == f"{2 * 2**30}\n"


def test_kgpy_memory_statistics_and_hook_threshold(tmp_path):
    r = kgpy("-e", 'a::!1000000;(.mem()?"allocated")>7999999')
    assert r.returncode == 0 and r.stdout == "1\n", r.stderr
    # a hook registered from Klong through the interpreter object `klong`; it is told
    # between statements
    program = tmp_path / "hook.kg"
    program.write_text('seen::[]\nhook::{seen::seen,,y,z;0}\n'
                       '.pyc([klong "register_memory_hook"];,hook;:{})\n'
                       'a::!100\n.p(seen)\na::!1000\n.p(seen)\na::0\n.p(seen)\n')
    r = kgpy("--memory-hook-threshold", "1KB", str(program))
    # (seen, a 2-column integer array, is memory of the interpreter too: 16 bytes a row)
    assert r.returncode == 0 and r.stdout == "[]\n[[8000 0]]\n[[8000 0] [16 8000]]\n", r.stderr
    r = kgpy(str(program), KLONG_MEMORY_HOOK_THRESHOLD="100")
    assert r.stdout == "[[800 0]]\n[[800 0] [8016 800]]\n[[800 0] [8016 800] [32 8016]]\n"


@needs_torch
def test_kgpy_amp_and_float16():
    r = kgpy("--backend", "torch", "--device", "cpu", "--amp", "-e", "[1 2]%3")
    assert r.returncode == 0 and r.stdout == "[0.333333343267441 0.666666686534882]\n", r.stderr
    r = kgpy("--backend", "torch", "--device", "cpu", "-e", PRODUCT, KLONG_AMP="1")
    assert r.returncode == 0 and r.stdout == "[[16.875 38.75] [38.75 93.0]]\n", r.stderr
    r = kgpy("--backend", "torch", "--device", "cpu", "--amp", "--amp-dtype", "float16", "-e",
             PRODUCT)
    assert r.returncode == 0 and r.stdout == "[[16.9375 38.71875] [38.71875 93.1875]]\n", r.stderr
    r = kgpy("--backend", "torch", "--device", "cpu", "--dtype", "float16", "-e", "[1 2]%3")
    assert r.returncode == 0 and r.stdout == "[0.333251953125 0.66650390625]\n", r.stderr
    r = kgpy("--backend", "torch", "--device", "cpu", "-e", "[1 2]%3", KLONG_DTYPE="float16")
    assert r.stdout == "[0.333251953125 0.66650390625]\n", r.stderr


@pytest.mark.parametrize("args, env, words", [
    (["--memory-limit", "4XB"], {}, ["unknown unit 'XB'"]),
    (["--memory-limit", "-1GB"], {}, ["positive"]),
    ([], {"KLONG_MEMORY_LIMIT": "12 parsecs"}, ["KLONG_MEMORY_LIMIT"]),
    (["--seed", "-1"], {}, ["seed", "-1"]),
    ([], {"KLONG_SEED": "-7"}, ["KLONG_SEED", "-7"]),
    (["--seed", "abc"], {}, ["seed"]),
    (["--amp"], {}, ["amp", "torch"]),
    ([], {"KLONG_AMP": "1"}, ["amp", "torch"]),
    ([], {"KLONG_AMP": "perhaps"}, ["KLONG_AMP"]),
    (["--dtype", "float16"], {}, ["float16", "float64", "float32"]),
    ([], {"KLONG_DTYPE": "float16"}, ["float16", "float64", "float32"]),
    (["--memory-hook-threshold", "1QB"], {}, ["unknown unit"]),
    ([], {"KLONG_DETERMINISTIC": "2"}, ["KLONG_DETERMINISTIC"]),
])
def test_kgpy_bad_settings_are_one_line(args, env, words):
    r = kgpy(*args, "-e", "1", **env)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("kgpy: ") and r.stderr.count("\n") == 1, r.stderr
    assert "Traceback" not in r.stderr and all(w in r.stderr for w in words), r.stderr


@needs_torch
def test_kgpy_bad_amp_settings_on_torch():
    for args in (["--amp", "--dtype", "float64"], ["--amp", "--amp-dtype", "int8"]):
        r = kgpy("--backend", "torch", "--device", "cpu", *args, "-e", "1")
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "amp" in r.stderr, r.stderr


def test_kgpy_help_lists_the_settings():
    out = kgpy("--help").stdout
    for option in ("--seed", "--deterministic", "--memory-limit", "--memory-hook-threshold",
                   "--amp", "--amp-dtype", "float16", "KLONG_SEED", "KLONG_DETERMINISTIC",
                   "KLONG_MEMORY_LIMIT", "KLONG_AMP", "KLONG_AMP_DTYPE"):
        assert option in out, option


def test_repl_help_and_options_command():
    from klong.frontends import helptable
    for name in (".srn", ".mem", ".memreset", ".memclear", "]o"):
        assert name in helptable.HELP, name
    assert "seed" in helptable.lookup("rn")
    k = make("numpy", seed=4, memory_limit="2GB", deterministic=True)
    out = io.StringIO()
    with redirect_stdout(out):
        session = Session(k)
        session.feed("]o")
        session.feed("]h .mem")
    text = out.getvalue()
    assert "seed: 4" in text and "deterministic: on" in text and "memory limit: 2 GB" in text
    assert '"allocated"' in text and "peak" in text
