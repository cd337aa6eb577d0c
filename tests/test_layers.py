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
