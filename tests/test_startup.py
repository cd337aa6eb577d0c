"""What kgpy imports to start (issue 33): `kgpy -e 1` loads neither the optional libraries
(torch, the prompt's prompt_toolkit and pygments, IPython, lark, matplotlib) nor the parts
of klong and of Python's library that only some programs need; they are imported where they
are used. Each check runs kgpy's main in a fresh Python and reads its sys.modules (no timing:
bench_startup.py measures the time)."""
import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# kgpy's main in a fresh process, then the names of the modules it has imported
_PROGRAM = """
import json, sys
sys.argv = ["kgpy"] + json.loads(sys.argv[1])
from klong.frontends.cli import main
status = main()
sys.stdout.flush()
print(json.dumps([status, sorted(sys.modules)]))
"""

# never imported by a run that does not use them: the optional libraries ...
OPTIONAL_LIBRARIES = ["torch", "prompt_toolkit", "pygments", "IPython", "lark", "matplotlib",
                      "graphviz", "klong.backends.torch_backend"]
# ... Python's modules that cost start-up time and serve one function each (the
# suggestion of an undefined name, .py's module names, .graph's search for dot, integers
# of thousands of digits), and dataclasses (records.py makes klong's record classes) ...
DEFERRED_STDLIB = ["difflib", "hashlib", "shutil", "bz2", "lzma", "decimal", "dataclasses"]
# ... and klong's parts that a chunk without a function literal, or the prompt, needs
DEFERRED_KLONG = ["klong.compiler.render.pysource", "klong.compiler.passes.numbers",
                  "klong.compiler.passes.facts", "klong.compiler.passes.wholes",
                  "klong.compiler.passes.batching", "klong.frontends.repl",
                  "klong.frontends.highlight", "klong.frontends.completion",
                  "klong.frontends.helptable", "klong.sysfns.graph"]


def run_main(*args, env=None):
    """(the lines kgpy printed, its exit status, the modules imported)."""
    full_env = dict(os.environ)
    full_env.pop("KLONG_BACKEND", None)
    full_env["PYTHONPATH"] = str(ROOT)
    full_env.update(env or {})
    r = subprocess.run([sys.executable, "-c", _PROGRAM, json.dumps(list(args))],
                       capture_output=True, text=True, env=full_env, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    *printed, last = r.stdout.splitlines()
    status, modules = json.loads(last)
    return printed, status, set(modules)


@functools.lru_cache(maxsize=None)
def imported_by_python():
    """The modules a Python of this environment has imported before any program runs (its
    site may bring some: a Python 3.12 environment was seen to import shutil at start)."""
    program = "import json, sys; print(json.dumps(sorted(sys.modules)))"
    r = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                       timeout=120, cwd=ROOT)
    return frozenset(json.loads(r.stdout))


def test_kgpy_e_1_imports_only_what_it_needs():
    printed, status, modules = run_main("-e", "1")
    assert (printed, status) == (["1"], 0)
    for name in OPTIONAL_LIBRARIES + DEFERRED_STDLIB + DEFERRED_KLONG:
        assert name not in modules - imported_by_python(), f"kgpy -e 1 imports {name}"


def test_the_deferred_parts_load_when_a_program_needs_them():
    """A function literal brings the code generator and the passes; an undefined name the
    suggestion's difflib: imported where they are used, the results as before."""
    printed, status, modules = run_main("-e", "{x*2}'!3")
    assert (printed, status) == (["[0 2 4]"], 0)
    assert "klong.compiler.passes.numbers" in modules
    # the code generator, unless closures were asked for (KLONG_CODEGEN=0)
    codegen = os.environ.get("KLONG_CODEGEN", "1").strip().lower() not in ("0", "false", "no", "off")
    assert ("klong.compiler.render.pysource" in modules) == codegen
    printed, status, modules = run_main("-e", "prnt")
    assert (printed, status) == ([], 1)
    assert "difflib" in modules
    assert "torch" not in modules


def test_the_torch_backend_is_imported_only_when_asked_for():
    pytest.importorskip("torch")
    printed, status, modules = run_main("--backend", "torch", "-e", "1+1")
    assert (printed, status) == (["2"], 0)
    assert "torch" in modules and "klong.backends.torch_backend" in modules
    for name in ["prompt_toolkit", "pygments", "IPython", "lark"]:
        assert name not in modules - imported_by_python()


@pytest.mark.parametrize("columns", ["50", "120"])
def test_help_is_as_wide_as_the_terminal(columns):
    """The option parser's formatters are made with a fixed width while the options are added
    (cli.py, so that shutil is not imported); help asks the terminal's width as before."""
    env = dict(os.environ, COLUMNS=columns, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, str(ROOT / "kgpy"), "--help"], capture_output=True,
                       text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    width = int(columns) - 2            # argparse leaves two columns free
    assert max(len(line) for line in lines) <= width
    usage = [line for line in lines if line.startswith("usage: kgpy")][0]
    assert len(usage) > width - 30      # filled to the width, not cut at 80
