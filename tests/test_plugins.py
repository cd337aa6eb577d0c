"""Backends as plugins: packages that declare an entry point in the group `klong.backends`
are found by name everywhere a backend is named; a broken one is a one-line error that
leaves the built-in backends working."""
import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import klong.backends as kb
from klong import KlongInterpreter
from klong.errors import KlongBackendError

ROOT = Path(__file__).resolve().parent.parent
KGPY = ROOT / "kgpy"

GOOD_MODULE = '''
from klong.backends import NumpyBackend

class TinyBackend(NumpyBackend):
    name = "tiny"
'''


def install_fake(folder, dist, entries, module=None):
    """A package 'installed' in `folder` (its dist-info: what pip writes), importable once
    `folder` is on sys.path: entries maps backend names to entry-point values."""
    info = folder / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    lines = "".join(f"{name} = {value}\n" for name, value in entries.items())
    (info / "entry_points.txt").write_text(f"[klong.backends]\n{lines}")
    if module is not None:
        (folder / f"{module[0]}.py").write_text(module[1])


@pytest.fixture
def plugins(tmp_path, monkeypatch):
    """Fake installed packages: one good, one whose module is missing, one naming a class
    that is no backend, one whose backend fails to start."""
    install_fake(tmp_path, "tiny-backend", {"tiny": "tiny_mod:TinyBackend"},
                 ("tiny_mod", GOOD_MODULE))
    install_fake(tmp_path, "broken-pkg", {"broken": "no_such_module_here:Backend"})
    install_fake(tmp_path, "odd-pkg", {"odd": "os.path:join"})
    install_fake(tmp_path, "crashy-pkg", {"crashy": "crashy_mod:Crashy"},
                 ("crashy_mod", "from klong.backends import Backend\n"
                                "class Crashy(Backend):\n"
                                "    array_type = type('CrashyArray', (), {})\n"
                                "    def __init__(self, device=None):\n"
                                "        raise RuntimeError('no accelerator today')\n"))
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    return tmp_path


def test_a_plugin_is_listed_and_found_by_name(plugins):
    assert {"numpy", "tiny", "broken", "odd", "crashy"} <= set(kb.list_backends())
    k = KlongInterpreter(backend="tiny")
    assert type(k.backend).__name__ == "TinyBackend" and k.backend.name == "tiny"
    assert k("+/!10") == 45


@pytest.mark.parametrize("name, message", [
    ("broken", "backend 'broken' from package 'broken-pkg' failed to load: "
               "ModuleNotFoundError: No module named 'no_such_module_here'"),
    ("odd", "backend 'odd' from package 'odd-pkg' is not a klong.backends.Backend subclass"),
    ("crashy", "backend 'crashy' from package 'crashy-pkg' failed to start: "
               "RuntimeError: no accelerator today"),
])
def test_a_broken_plugin_is_one_line_and_the_built_ins_still_work(plugins, name, message):
    with pytest.raises(KlongBackendError) as info:
        KlongInterpreter(backend=name)
    text = str(info.value)
    assert message in text and "\n" not in text
    assert KlongInterpreter()("1+1") == 2
    assert KlongInterpreter(backend="tiny")("2*3") == 6


def test_an_unknown_name_lists_the_plugins(plugins):
    with pytest.raises(KlongBackendError, match="available: numpy.*tiny"):
        KlongInterpreter(backend="nonesuch")


def test_entry_points_are_read_through_importlib_metadata(monkeypatch):
    """The lookup is importlib.metadata's: a fake entry point stands for an installed one."""
    ep = importlib.metadata.EntryPoint(name="fakenp", value="klong.backends:NumpyBackend",
                                       group="klong.backends")
    seen = []

    def entry_points(group=None):
        seen.append(group)
        return [ep] if group == "klong.backends" else []
    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    assert "fakenp" in kb.list_backends()
    assert KlongInterpreter(backend="fakenp")("!3").tolist() == [0, 1, 2]
    assert set(seen) == {"klong.backends"}


def test_metadata_that_cannot_be_read_leaves_the_built_ins(monkeypatch):
    def entry_points(group=None):
        raise ValueError("corrupt metadata")
    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    assert kb.list_backends()[0] == "numpy"
    assert KlongInterpreter()("1+1") == 2


def kgpy(*args, extra_path=None, env=None):
    full_env = dict(os.environ)
    full_env.pop("KLONG_BACKEND", None)
    full_env["PYTHONPATH"] = os.pathsep.join(p for p in (str(extra_path or ""), str(ROOT)) if p)
    full_env.update(env or {})
    return subprocess.run([sys.executable, str(KGPY), *args], capture_output=True, text=True,
                          env=full_env, timeout=120)


@pytest.mark.slow
def test_kgpy_and_klong_backend_find_a_plugin(plugins):
    r = kgpy("--backend", "tiny", "-e", "+/!10", extra_path=plugins)
    assert (r.returncode, r.stdout) == (0, "45\n")
    r = kgpy("-e", "2*3", extra_path=plugins, env={"KLONG_BACKEND": "tiny"})
    assert (r.returncode, r.stdout) == (0, "6\n")
    r = kgpy("--backend", "broken", "-e", "1", extra_path=plugins)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert r.stderr.strip().count("\n") == 0 and "broken-pkg" in r.stderr
    r = kgpy("-e", "1+1", extra_path=plugins)                  # the default is untouched
    assert (r.returncode, r.stdout) == (0, "2\n")


# -- the example package, examples/backend_plugin (CI installs it)

def npcount_installed():
    return "npcount" in {ep.name for ep in importlib.metadata.entry_points(group="klong.backends")}


needs_npcount = pytest.mark.skipif(not npcount_installed(), reason=(
    "the example backend is not installed: pip install -e examples/backend_plugin"))


@needs_npcount
def test_the_example_plugin_is_listed_and_counts():
    assert "npcount" in kb.list_backends()
    k = KlongInterpreter(backend="npcount")
    assert k.backend.name == "npcount" and k.backend.made == 0
    assert k("!3").tolist() == [0, 1, 2] and repr(k.backend) == "npcount backend (cpu, 0 arrays made)"
    assert k("+/[1 2 3]*2") == 12
    assert k.backend.made > 0
    assert KlongInterpreter(backend="npcount").backend.made == 0     # per interpreter


@needs_npcount
@pytest.mark.slow
def test_the_example_plugin_from_kgpy():
    r = kgpy("--backend", "npcount", "-e", "+/[1 2 3]*2")          # as docs/backends.md
    assert (r.returncode, r.stdout) == (0, "12\n")
    r = kgpy("--backend", "npcount", "-e", "1.5*!4")
    assert (r.returncode, r.stdout) == (0, "[0.0 1.5 3.0 4.5]\n")


def test_backend_classes_are_public_and_import_no_torch():
    code = ("import sys, klong, klong.backends as kb\n"
            "assert 'torch' not in sys.modules\n"
            "assert issubclass(kb.NumpyBackend, kb.Backend)\n"
            "assert 'torch' not in sys.modules\n"
            "print(kb.Backend.__doc__.split(chr(10))[0])\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("The contract of a backend")
    torch = pytest.importorskip("torch")
    assert kb.TorchBackend.array_type is torch.Tensor and issubclass(kb.TorchBackend, kb.Backend)


@pytest.mark.slow
def test_the_example_plugin_installs_from_its_folder(tmp_path):
    """pip installs examples/backend_plugin (a copy: the build leaves files behind) and
    kgpy then finds its backend by name. Built with this environment's setuptools (the test
    extra brings it and wheel), which may be as old as a new virtual environment's."""
    source = tmp_path / "src"
    shutil.copytree(ROOT / "examples" / "backend_plugin", source,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    site = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                        "--no-build-isolation", "--target", str(site), str(source)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    code = ("import klong_npcount, klong.backends as kb\n"
            "print(klong_npcount.__file__.startswith(%r), 'npcount' in kb.list_backends())\n"
            % str(site))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": f"{site}{os.pathsep}{ROOT}"}, timeout=60)
    assert r.stdout == "True True\n", r.stderr
    r = kgpy("--backend", "npcount", "-e", "+/!4", extra_path=site)
    assert (r.returncode, r.stdout) == (0, "6\n")
