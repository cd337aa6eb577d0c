"""Shared fixtures for the klong test suite.

`k`      a fresh KlongInterpreter for each test, once per backend (numpy, and torch when it
         is installed): every test that uses it runs on both.
`backend` the name of that backend.
`kw`     kw(src) runs Klong source in that interpreter and returns the printed (write) form of
         the value, e.g. kw("1+!3") == "[1 2 3]". Printed forms are exact and also check the
         integer/real distinction, so most tests compare them.
`kerr`   kerr(src) runs source that must fail and returns the KlongError it raised.

Slow tests (those that start processes, compile with torch, or run every example) are
marked `slow` here, in SLOW_TESTS, so that `python -m pytest -m "not slow"` gives a quick
run while working; a plain `python -m pytest` runs everything.
"""
import fnmatch
import os
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:          # run the checkout without installing it
    sys.path.insert(0, str(ROOT))

from klong import KlongError, KlongInterpreter  # noqa: E402
from klong.runtime.display import write  # noqa: E402


from klong.backends import list_backends  # noqa: E402

# test ids (fnmatch patterns) marked slow
SLOW_TESTS = [
    "tests/test_examples.py::*",              # every example program, on both backends
    "tests/test_compile_export.py::*",        # torch.compile and torch.export
    "tests/test_capture.py::test_a_step_calling_a_compiled_function*",    # torch.compile
    "tests/test_cuda_graphs.py::test_a_step_calling_a_compiled_function*",
    "tests/test_kernel.py::*",                # a Jupyter kernel process
    "tests/test_cli.py::*",                   # each starts kgpy
    "tests/test_config.py::test_kgpy_*",      # kgpy with settings
    "tests/test_repl.py::test_terminal_*",    # kgpy in a pseudo-terminal
    "tests/test_repl.py::test_piped_*",       # kgpy reading a pipe
    "tests/test_backends.py::test_kgpy_*",
    "tests/test_autograd.py::test_custom_gradients_example*",   # examples/autograd programs
    "tests/test_autograd.py::test_anomaly_example",
    "tests/test_docs.py::test_console_block*",
    "tests/test_docs.py::test_mkdocs_build",
    "tests/test_distributed.py::test_ranks_*",  # processes joined by torch.distributed
    "tests/test_plot.py::test_example_notebook_*",   # a notebook run in a kernel process
    "tests/test_plot.py::test_without_matplotlib_*",
    "tests/test_plot.py::test_matplotlib_is_imported_*",
    "tests/test_first_hour.py::test_a_*",       # each starts kgpy
    "tests/test_first_hour.py::test_kgpy_*",
    "tests/test_differential.py::test_examples_agree_in_every_mode",   # every example, 4 modes
]


# a docs example that calls one of these runs torch.compile
COMPILING = (".compile", ".export", ".graph")


def _slow(item):
    if any(fnmatch.fnmatchcase(item.nodeid, pattern) for pattern in SLOW_TESTS):
        return True
    block = getattr(item, "callspec", None) and item.callspec.params.get("block")
    return any(name in line for line in getattr(block, "lines", ()) for name in COMPILING)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if _slow(item):
            item.add_marker(pytest.mark.slow)

BACKENDS = [b for b in ("numpy", "torch") if b in list_backends()]


def _torch_device():
    """The device of the torch interpreters: KLONG_DEVICE when it names one that is here
    (`KLONG_DEVICE=cuda python -m pytest` runs on the GPU where there is one, on the CPU
    otherwise), else torch's best. The kgpy processes that tests start get the same."""
    wanted = os.environ.get("KLONG_DEVICE")
    if not wanted or "torch" not in BACKENDS:
        return None
    from klong.backends.torch_backend import pick_device
    try:
        device = str(pick_device(wanted))
    except ValueError:
        device = "cpu"
    os.environ["KLONG_DEVICE"] = device
    return device


TORCH_DEVICE = _torch_device()


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param


@pytest.fixture
def k(backend):
    return KlongInterpreter(backend=backend, device=TORCH_DEVICE if backend == "torch" else None)


# Every backend, with generated code and with closures: the four must agree to the last digit
MODES = [(b, codegen) for b in BACKENDS for codegen in (True, False)]
MODE_IDS = [f"{b}-{'codegen' if codegen else 'closures'}" for b, codegen in MODES]


def interpreter_in(mode):
    """A fresh interpreter in one of MODES."""
    backend, codegen = mode
    return KlongInterpreter(backend=backend, codegen=codegen,
                            device=TORCH_DEVICE if backend == "torch" else None)


@pytest.fixture(params=MODES, ids=MODE_IDS)
def km(request):
    """An interpreter in each of MODES in turn."""
    return interpreter_in(request.param)


@pytest.fixture
def kt():
    """A torch interpreter (the test is skipped where torch is not installed)."""
    if "torch" not in BACKENDS:
        pytest.skip("torch is not installed")
    return KlongInterpreter(backend="torch", device=TORCH_DEVICE)


@pytest.fixture
def kn():
    """A numpy interpreter, for tests about the numpy backend alone."""
    return KlongInterpreter(backend="numpy")


def host(v):
    """A Klong number or numeric array as a float64 numpy array (0-d for a number)."""
    if hasattr(v, "detach"):                 # a torch tensor
        v = v.detach().cpu().numpy()
    return np.asarray(v, dtype=np.float64)


def printed_or_error(k, src):
    """What running src in k prints (`write` of its value), or its error as one line: the
    outcome two ways of writing one program must share."""
    try:
        return write(k.run(src))
    except KlongError as e:
        return f"error: {e}"


@pytest.fixture
def kw(k):
    def run(src):
        return write(k.run(src))
    return run


@pytest.fixture
def kerr(k):
    def run(src):
        with pytest.raises(KlongError) as info:
            k.run(src)
        return info.value
    return run


@pytest.fixture
def repo_root():
    return ROOT


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Run the test with tmp_path as the current directory (for relative file names)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path



@pytest.fixture
def capture_untimed(monkeypatch):
    """Capture without its timing refusal (a checked replay far slower than the evaluation
    drops its record): tests of what a replay computes must not depend on the load of the
    machine. test_capture.py tests the refusal itself."""
    from klong.runtime import capture
    monkeypatch.setattr(capture, "SLACK", 3600.0)
