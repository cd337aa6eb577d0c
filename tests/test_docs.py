"""The documentation is tested: every Klong example in docs/*.md runs and prints what the page
says it prints, and the site builds.

A Klong example is a fenced block opened with ```klong. Inside it, a line starting with "?> "
is typed at the prompt (lines that continue an open bracket follow it, as at the REPL); the
lines after it, up to the next "?> ", are what the REPL shows: whatever the input printed
(.p, .d, .w) followed by the value in readable form, or the error report when it fails. Each
block runs in a fresh interpreter on the numpy backend, in an empty directory. A block whose
fence line mentions torch (```klong title="torch backend") runs on the torch backend on the
CPU and is skipped when torch is not installed.

Python examples (```pycon blocks, >>> prompts) run as doctests, each block in its own
namespace. Shell examples (```console blocks) run each "$ " line that runs kgpy, from the
repository root, and compare its output (stdout and stderr together).
"""
import contextlib
import doctest
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from klong import KlongInterpreter, KlongError
from klong.runtime.display import write

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PROMPT = "?> "
MIN_EXAMPLES = 150

FENCE_OPEN = re.compile(r"^(?P<indent>\s*)(?P<ticks>`{3,})(?P<info>[^`]*)$")


class Block:
    def __init__(self, page, line, lang, info, lines):
        self.page, self.line, self.lang, self.info, self.lines = page, line, lang, info, lines

    @property
    def torch(self):
        return bool(re.search(r"\btorch\b", self.info))

    @property
    def id(self):
        return f"{self.page}:{self.line}"


def fenced_blocks(path):
    """Every fenced code block of a markdown page (indented ones too, as inside admonitions),
    with its language, the rest of its fence line and its lines, indentation removed."""
    blocks = []
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        m = FENCE_OPEN.match(lines[i])
        if not m:
            i += 1
            continue
        indent, ticks = m.group("indent"), m.group("ticks")
        info = m.group("info").strip()
        lang, _, rest = info.partition(" ")
        start = i + 1
        i += 1
        body = []
        while i < len(lines) and lines[i].strip() != ticks:
            line = lines[i]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            i += 1
        blocks.append(Block(path.name, start, lang, rest, body))
        i += 1
    return blocks


def klong_examples(block):
    """The (input, expected output) pairs of a Klong block. An input is a "?> " line together
    with the lines that continue it while a bracket, string or comment is open."""
    examples = []
    lines = block.lines
    i = 0
    while i < len(lines) and not lines[i].startswith(PROMPT):
        assert not lines[i].strip(), f"{block.id}: text before the first prompt: {lines[i]!r}"
        i += 1
    while i < len(lines):
        source = lines[i][len(PROMPT):]
        i += 1
        while KlongInterpreter.needs_more(source) and i < len(lines):
            source += "\n" + lines[i]
            i += 1
        expected = []
        while i < len(lines) and not lines[i].startswith(PROMPT):
            expected.append(lines[i])
            i += 1
        while expected and not expected[-1].strip():
            expected.pop()
        examples.append((source, "\n".join(expected)))
    return examples


def all_blocks(lang):
    return [b for page in sorted(DOCS.glob("*.md")) for b in fenced_blocks(page) if b.lang == lang]


KLONG_BLOCKS = all_blocks("klong")
PYCON_BLOCKS = all_blocks("pycon")
RUNS_KGPY = re.compile(r"^\$ (?:kgpy\b|[^|]*\| *kgpy\b)")
CONSOLE_BLOCKS = [b for b in all_blocks("console") if any(RUNS_KGPY.match(line) for line in b.lines)]


def run_example(interp, source):
    """What the REPL would show for one input: printed output, then the value (if any) in
    readable form, or the error report."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            value = interp.run(source)
        except KlongError as e:
            value = None
            out.write(e.report() + "\n")
    text = out.getvalue()
    if value is not None:
        text += write(value) + "\n"
    return text.rstrip("\n")


def make_interpreter(block):
    if block.torch:
        pytest.importorskip("torch")
        return KlongInterpreter(backend="torch", device="cpu")
    return KlongInterpreter(backend="numpy")


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """An empty working directory and the default library path, so that file examples
    neither depend on nor touch anything outside."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KLONGPATH", raising=False)
    return tmp_path


def test_enough_examples():
    count = sum(len(klong_examples(b)) for b in KLONG_BLOCKS)
    assert count >= MIN_EXAMPLES, f"only {count} Klong examples in docs/"


def test_pages_exist():
    names = {p.name for p in DOCS.glob("*.md")}
    for page in ["index.md", "language.md", "verbs.md", "system.md", "autograd.md",
                 "python.md", "repl.md"]:
        assert page in names


@pytest.mark.parametrize("block", KLONG_BLOCKS, ids=[b.id for b in KLONG_BLOCKS])
def test_klong_block(block, sandbox):
    interp = make_interpreter(block)
    examples = klong_examples(block)
    assert examples, f"{block.id}: a klong block without a ?> prompt"
    for source, expected in examples:
        got = run_example(interp, source)
        assert got == expected, (
            f"{block.id}: ?> {source}\n--- page says:\n{expected}\n--- interpreter shows:\n{got}")


@pytest.mark.parametrize("block", PYCON_BLOCKS, ids=[b.id for b in PYCON_BLOCKS])
def test_python_block(block, sandbox):
    if block.torch:
        pytest.importorskip("torch")
    text = "\n".join(block.lines) + "\n"
    test = doctest.DocTestParser().get_doctest(text, {}, block.id, block.page, block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    out = io.StringIO()
    runner.run(test, out=out.write)
    assert runner.failures == 0, out.getvalue()


def console_commands(block):
    """The (command, expected output) pairs of a console block."""
    commands = []
    for line in block.lines:
        if line.startswith("$ "):
            commands.append([line[2:], []])
        elif commands:
            commands[-1][1].append(line)
    return [(c, "\n".join(out).rstrip("\n")) for c, out in commands]


@pytest.fixture
def kgpy_on_path(tmp_path, monkeypatch):
    """`kgpy` runs this checkout with this Python, whatever is installed."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "kgpy"
    script = ROOT / "kgpy"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{script}" "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    for name in ("KLONG_BACKEND", "KLONG_DEVICE", "KLONGPATH"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("block", CONSOLE_BLOCKS, ids=[b.id for b in CONSOLE_BLOCKS])
def test_console_block(block, kgpy_on_path):
    if block.torch:
        pytest.importorskip("torch")
    for command, expected in console_commands(block):
        if not RUNS_KGPY.match("$ " + command):
            continue              # pip install and the like
        result = subprocess.run(command, shell=True, cwd=ROOT, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                timeout=120)
        got = result.stdout.rstrip("\n")
        assert got == expected, (
            f"{block.id}: $ {command}\n--- page says:\n{expected}\n--- output:\n{got}")


def test_nav_lists_every_page():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in DOCS.glob("*.md"):
        assert page.name in config, f"{page.name} is missing from nav in mkdocs.yml"


def test_mkdocs_build(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
         "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "site" / "index.html").is_file()


# ------------------------------------------------ pages whose other blocks are checked too

IPYTHON_BLOCKS = all_blocks("ipython")


def ipython_examples(block):
    """(cell, expected output) of an ipython block: "In [n]: " opens a cell, "   ...: "
    continues it; what follows is its output ("Out[n]: value" or printed text)."""
    examples = []
    for line in block.lines:
        m = re.match(r"^In \[\d+\]: ?(.*)$", line)
        more = re.match(r"^ +\.\.\.: ?(.*)$", line)
        if m:
            examples.append([m.group(1), []])
        elif more and examples and not examples[-1][1]:
            examples[-1][0] += "\n" + more.group(1)
        elif examples and line.strip():
            examples[-1][1].append(line)
    return [(cell, "\n".join(out)) for cell, out in examples]


@pytest.mark.parametrize("block", IPYTHON_BLOCKS, ids=[b.id for b in IPYTHON_BLOCKS])
def test_ipython_block(block, sandbox):
    """notebooks.md's IPython sessions, run in IPython's test shell: each cell's result (an
    Out line) or printed output is what the page shows."""
    pytest.importorskip("IPython")
    from IPython.testing import globalipapp
    from IPython.utils.capture import capture_output
    ip = globalipapp.get_ipython()          # the module's name: the shell once it started
    ip.run_line_magic("reset", "-f")
    for cell, expected in ipython_examples(block):
        with capture_output() as out:
            result = ip.run_cell(cell)
        assert result.success, (block.id, cell, out.stdout)
        shown = re.sub(r"^Out\[\d+\]: ", "", expected)
        if expected.startswith("Out["):
            got = ip.display_formatter.format(result.result)[0]["text/plain"]
        else:
            got = out.stdout.rstrip("\n")
        assert got == shown, f"{block.id}: {cell}\n--- page says:\n{shown}\n--- got:\n{got}"


def test_repl_page_banner_is_the_real_one():
    from klong.frontends.repl import banner
    [block] = [b for b in fenced_blocks(DOCS / "repl.md") if b.lang == "text"
               and b.lines and b.lines[0].startswith("klong ")]
    assert "\n".join(block.lines[:2]) == banner(KlongInterpreter(backend="numpy", device="cpu"))
    interp = KlongInterpreter(backend="numpy")
    session = Block("repl.md", block.line, "klong", "", block.lines[2:])
    for source, expected in klong_examples(session):
        assert run_example(interp, source) == expected


def page(name):
    return (DOCS / name).read_text(encoding="utf-8")


def test_stated_values_are_what_runs():
    """Values that pages state in prose or tables, beside what the code gives."""
    from klong.runtime import limits
    k = KlongInterpreter(backend="numpy")
    assert f"written `{write(k('.e'))}`" in page("system.md")
    assert f"one element for every {limits.BYTES_PER_ELEMENT} bytes" in page("numbers.md")
    assert "never fewer than 1,048,576 (2^20)" in page("numbers.md")
    saved = os.environ.pop(limits.ENV_MAX_ELEMENTS, None)
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(limits, "_available_memory", lambda: 1000)
            assert limits.default_max_elements() == 2**20
            mp.setattr(limits, "_available_memory", lambda: 2**40)
            assert limits.default_max_elements() == 2**40 // 64
            mp.setenv(limits.ENV_MAX_ELEMENTS, "77")
            assert KlongInterpreter().limits.max_elements == 77
            mp.setenv(limits.ENV_MAX_ELEMENTS, "many")
            with pytest.raises(ValueError):
                KlongInterpreter()
    finally:
        if saved is not None:
            os.environ[limits.ENV_MAX_ELEMENTS] = saved
    # the page on the whole implementation says what runs by default: generated code
    assert "compiles it to Python code" in page("index.md")
    assert "closures" not in page("index.md").split("compiles it to Python code")[0]


@pytest.mark.parametrize("name", [".rls", ".strict", ".unsafe", ".bkp", ".bkd"])
def test_extensions_are_marked_as_extensions(name):
    from klong.frontends import helptable
    assert "(extension)" in helptable.HELP[name]
    paragraphs = page("system.md").split("\n\n")
    assert any(f"`{name}" in p and "extension" in p for p in paragraphs), name


def test_notebook_page_install_is_from_the_checkout():
    text = page("notebooks.md")
    assert "pip install -e '.[jupyter" in text and "pip install 'klong[" not in text


if __name__ == "__main__":
    # python tests/test_docs.py [page.md ...]: show each example's actual output (a help when
    # writing pages).
    pages = sys.argv[1:] or sorted(p.name for p in DOCS.glob("*.md"))
    for page in pages:
        for block in fenced_blocks(DOCS / Path(page).name):
            if block.lang != "klong":
                continue
            here = os.getcwd()
            scratch = tempfile.mkdtemp(prefix="klong-docs-")
            os.chdir(scratch)
            try:
                interp = (KlongInterpreter(backend="torch", device="cpu") if block.torch
                          else KlongInterpreter(backend="numpy"))
                for source, expected in klong_examples(block):
                    got = run_example(interp, source)
                    mark = "  " if got == expected else "!!"
                    print(f"{mark} {block.id} ?> {source}")
                    if got != expected:
                        print("   page: " + expected.replace("\n", "\n         "))
                    print("   got:  " + got.replace("\n", "\n         "))
            finally:
                os.chdir(here)
                shutil.rmtree(scratch, ignore_errors=True)
