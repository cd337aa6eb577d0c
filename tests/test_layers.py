"""The package's rooms import one way (docs/architecture.md): errors -> backends -> runtime ->
verbs -> compiler -> sysfns -> interpreter -> the ways in. Every import is counted, those
inside functions too, so that none can hide a circle."""
import ast
from pathlib import Path

import pytest

KLONG = Path(__file__).resolve().parent.parent / "klong"

# the rooms from the bottom up: each may import only the rooms before it (and itself)
ROOMS = ["errors", "backends", "runtime", "verbs", "compiler", "sysfns", "interpreter"]
# above them all, importing anything below: the ways in and the public face
TOP = {"frontends", "nn", "data", "kernel", "__init__", "__main__"}
# inside the runtime, the lowest modules import one way too (errors -> backends -> context
# and limits -> values): who is running is recorded in backends, so none needs context
RUNTIME_LOW = {
    "context": set(),
    "mixed": set(),
    "limits": {"mixed"},
    "values": {"limits", "mixed"},
}
# the compiler's stages, in the order a chunk goes through them
STAGES = ["syntax", "lower", "passes", "render", "engine"]
# what may import the syntax tree's node classes: the compiler's front only
TREE_READERS = ("compiler/syntax/", "compiler/lower/")


def _parts(path):
    parts = list(path.relative_to(KLONG.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def klong_imports(path, depth=1):
    """The klong modules `path` imports anywhere in it, as their first `depth` names under
    klong (depth 1: klong.runtime.values -> "runtime"; depth 2: ("runtime", "values"))."""
    here = _parts(path)
    package = here if path.name == "__init__.py" else here[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name.split(".") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = base + (node.module.split(".") if node.module else [])
            targets = [module + [alias.name] for alias in node.names]
        else:
            continue
        for target in targets:
            if target[0] == "klong" and len(target) > depth:
                found.add(target[1] if depth == 1 else tuple(target[1:depth + 1]))
    return found


def room_of(path):
    parts = _parts(path)
    return parts[1] if len(parts) > 1 else "__init__"


def files_of(room):
    path = KLONG / room
    return sorted(path.rglob("*.py")) if path.is_dir() else [path.with_suffix(".py")]


def test_the_check_sees_imports():
    """The reader finds relative, absolute and in-function imports."""
    assert klong_imports(KLONG / "runtime" / "values.py") == {"backends", "runtime", "errors"}
    assert klong_imports(KLONG / "backends" / "numeric_autograd.py") == {"errors"}
    assert klong_imports(KLONG / "backends" / "__init__.py") == {"backends"}
    assert "runtime" in klong_imports(KLONG / "frontends" / "cli.py")     # in a function


def test_every_module_is_in_a_room():
    loose = {p.stem for p in KLONG.glob("*.py")}
    assert loose <= set(ROOMS) | TOP, sorted(loose - set(ROOMS) - TOP)
    assert len(loose) <= 8, sorted(loose)
    folders = {p.name for p in KLONG.iterdir() if p.is_dir() and any(p.rglob("*.py"))}
    assert folders <= set(ROOMS) | TOP, sorted(folders - set(ROOMS) - TOP)


@pytest.mark.parametrize("room", ROOMS)
def test_rooms_import_only_the_rooms_below_them(room):
    allowed = set(ROOMS[:ROOMS.index(room) + 1])
    for path in files_of(room):
        wrong = klong_imports(path) - allowed
        assert not wrong, f"{path.relative_to(KLONG.parent)} imports klong.{sorted(wrong)}"


@pytest.mark.parametrize("name", sorted(RUNTIME_LOW))
def test_the_lowest_runtime_modules_import_one_way(name):
    path = KLONG / "runtime" / f"{name}.py"
    inside = {m for room, m in klong_imports(path, depth=2) if room == "runtime"}
    wrong = inside - RUNTIME_LOW[name]
    assert not wrong, f"runtime/{name}.py imports klong.runtime.{sorted(wrong)}"


@pytest.mark.parametrize("stage", STAGES)
def test_the_compiler_stages_import_one_way(stage):
    later = set(STAGES[STAGES.index(stage) + 1:])
    for path in files_of(f"compiler/{stage}"):
        inside = {m for room, m in klong_imports(path, depth=2) if room == "compiler"}
        wrong = inside & later
        assert not wrong, f"{path.relative_to(KLONG.parent)} imports klong.compiler.{sorted(wrong)}"


def test_only_the_compilers_front_reads_the_syntax_tree():
    for path in sorted(KLONG.rglob("*.py")):
        rel = path.relative_to(KLONG).as_posix()
        if rel.startswith(TREE_READERS):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.split(".")[-1] == "ast" and "syntax" in node.module:
                raise AssertionError(f"{rel} imports the syntax tree's nodes")
            if isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.endswith("syntax") and any(a.name == "ast" for a in node.names):
                raise AssertionError(f"{rel} imports the syntax tree's nodes")


def test_the_package_has_no_import_circle():
    graph = {}
    for path in sorted(KLONG.rglob("*.py")):
        parts = _parts(path)[1:]
        name = ".".join(parts[:2]) if parts[:1] == ["compiler"] else (parts[0] if parts else "klong")
        found = set()
        for target in klong_imports(path, depth=2) | {(t,) for t in klong_imports(path)}:
            found.add(".".join(target) if target[0] == "compiler" and len(target) > 1
                      else target[0])
        graph.setdefault(name, set()).update(found - {name, "compiler"})
    done, stack = set(), []

    def visit(name):
        if name in stack:
            raise AssertionError("import circle: " + " -> ".join(stack[stack.index(name):] + [name]))
        if name in done or name not in graph:
            return
        stack.append(name)
        for other in sorted(graph[name]):
            visit(other)
        stack.pop()
        done.add(name)
    for name in sorted(graph):
        visit(name)
