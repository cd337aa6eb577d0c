"""The lowest layers of klong import one way (docs: errors -> backends -> context and limits
-> values): every import counted, those inside functions too, so that none can hide a
circle."""
import ast
from pathlib import Path

import pytest

KLONG = Path(__file__).resolve().parent.parent / "klong"

# what each low module may import of klong (besides its own package's modules)
ALLOWED = {
    "errors": set(),
    "backends": {"errors"},
    "context": {"backends"},
    "limits": {"backends", "context", "errors"},
    "values": {"backends", "context", "errors", "limits"},
}


def _module(path):
    parts = list(path.relative_to(KLONG.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def klong_imports(path):
    """The klong modules `path` imports anywhere in it, as their first name under klong
    (klong.backends.base -> "backends")."""
    here = _module(path)
    package = here if path.name == "__init__.py" else here[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name.split(".") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = base + (node.module.split(".") if node.module else [])
            targets = [module + [alias.name] for alias in node.names] if not node.module \
                else [module]
        else:
            continue
        for target in targets:
            if target[0] == "klong" and len(target) > 1:
                found.add(target[1])
    return found


def files_of(name):
    path = KLONG / name
    return sorted(path.rglob("*.py")) if path.is_dir() else [path.with_suffix(".py")]


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_low_layers_import_only_what_is_below_them(name):
    for path in files_of(name):
        wrong = klong_imports(path) - ALLOWED[name] - {name}
        assert not wrong, f"{path.relative_to(KLONG.parent)} imports klong.{sorted(wrong)}"


def test_the_check_sees_imports():
    """The reader finds relative, absolute and in-function imports."""
    assert klong_imports(KLONG / "limits.py") == {"backends", "context", "errors"}
    assert klong_imports(KLONG / "backends" / "numeric_autograd.py") == {"errors"}
    assert klong_imports(KLONG / "backends" / "__init__.py") == {"backends"}
    assert "values" in klong_imports(KLONG / "cli.py")     # inside a function there


# the stages a chunk goes through, in order: each imports only the stages before it, and
# nothing of the ways in above them
PIPELINE = ["syntax", "lower", "passes", "render", "engine"]
WAYS_IN = {"interpreter", "cli", "repl", "replcommands", "kernel", "magics", "nn", "data",
           "completion", "highlight", "richdisplay"}


@pytest.mark.parametrize("stage", PIPELINE)
def test_the_pipeline_imports_one_way(stage):
    later = set(PIPELINE[PIPELINE.index(stage) + 1:]) | WAYS_IN
    for path in files_of(stage):
        wrong = klong_imports(path) & later
        assert not wrong, f"{path.relative_to(KLONG.parent)} imports klong.{sorted(wrong)}"


def test_below_the_pipeline_nothing_imports_it():
    stages = set(PIPELINE[1:])
    for path in sorted(KLONG.rglob("*.py")):
        name = _module(path)[1] if len(_module(path)) > 1 else "klong"
        if name in stages or name in WAYS_IN or name in ("klong", "__main__"):
            continue
        wrong = klong_imports(path) & stages
        assert not wrong, f"{path.relative_to(KLONG.parent)} imports klong.{sorted(wrong)}"


def test_the_package_has_no_import_circle():
    graph = {}
    for path in sorted(KLONG.rglob("*.py")):
        parts = _module(path)
        name = parts[1] if len(parts) > 1 else "klong"
        graph.setdefault(name, set()).update(klong_imports(path) - {name})
    done, path = set(), []

    def visit(name):
        if name in path:
            raise AssertionError("import circle: " + " -> ".join(path[path.index(name):] + [name]))
        if name in done or name not in graph:
            return
        path.append(name)
        for other in sorted(graph[name]):
            visit(other)
        path.pop()
        done.add(name)
    for name in sorted(graph):
        visit(name)
