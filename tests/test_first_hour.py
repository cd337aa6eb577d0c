"""What a new user meets in the first hour at the terminal, each once reported wrong:
help that lists only defined names and every defined one, syntax errors at the end of a
file on its last line, KLONG_STYLE that a script does not care about, the blank of 0c  in
error messages, and the variables only kgpy defines."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from klong import KlongError, KlongInterpreter
from klong.frontends import helptable

ROOT = Path(__file__).resolve().parent.parent
KGPY = ROOT / "kgpy"
KGPY_ONLY = {".os.argv", ".os.env", ".system"}       # kgpy defines them (system.md A.2)
INSIDE_FUNCTIONS = {".f"}


def kgpy(*args, cwd=None, **env):
    full = dict(os.environ, PYTHONPATH=str(ROOT), **env)
    full.pop("KLONG_BACKEND", None)
    return subprocess.run([sys.executable, str(KGPY), *args], capture_output=True, text=True,
                          cwd=cwd, env=full, timeout=120)


def test_help_lists_what_is_defined_and_defines_what_it_lists(backend):
    k = KlongInterpreter(backend=backend)
    defined = {name for name in k.globals if name.startswith(".")}
    listed = {topic for topic in helptable.HELP if topic.startswith(".")}
    assert sorted(defined - listed) == []
    assert sorted(listed - defined) == sorted(KGPY_ONLY | INSIDE_FUNCTIONS)
    for name in (".rank", ".world", ".allsum", ".allmean", ".allgather", ".bcast",
                 ".barrier", ".allgrad", ".p0", ".plot", ".hist", ".imshow"):
        assert helptable.lookup(name).startswith(name), name


def test_kgpy_defines_its_own_variables(tmp_path):
    (tmp_path / "p.kg").write_text('.p(.os.argv);.p(.os.env?"KLONG_TEST_VALUE");.p(.system)\n')
    r = kgpy("p.kg", "--", "a", "b", cwd=tmp_path, KLONG_TEST_VALUE="seen")
    assert (r.returncode, r.stdout, r.stderr) == (0, "[a b]\nseen\n:{}\n", "")
    r = kgpy("-e", "(#.os.argv),#.system")
    assert r.stdout == "[0 0]\n"


@pytest.mark.parametrize("source, line, caret_line", [
    ("a::1\nb::(1+\n", 2, "b::(1+"),
    ("a::1\nb::(1+", 2, "b::(1+"),
    ("a::1\nb::{x+1\n\n\n", 2, "b::{x+1"),
    ("a::1\nb::1+\n", 2, "b::1+"),
])
def test_a_syntax_error_at_the_end_of_a_file_is_on_its_last_line(tmp_path, source, line,
                                                                  caret_line):
    (tmp_path / "two.kg").write_text(source)
    r = kgpy("two.kg", cwd=tmp_path)
    assert r.returncode == 1
    head, text, caret = r.stderr.splitlines()
    assert head.startswith(f"two.kg:{line}: syntax error")
    assert text == caret_line and caret == " " * len(caret_line) + "^"
    k = KlongInterpreter()
    with pytest.raises(KlongError) as info:
        k.run(source)
    assert info.value.line == line


def test_a_bad_style_does_not_stop_a_script(tmp_path):
    (tmp_path / "ok.kg").write_text(".p(6*7)\n")
    r = kgpy("ok.kg", cwd=tmp_path, KLONG_STYLE="nosuch")
    assert (r.returncode, r.stdout, r.stderr) == (0, "42\n", "")
    r = kgpy("--style", "nosuch", "ok.kg", cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, "42\n", "")
    r = kgpy("-e", "1+1", KLONG_STYLE="nosuch")
    assert (r.returncode, r.stdout) == (0, "2\n")


def test_a_bad_style_at_the_prompt_is_one_warning(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm", HOME=str(tmp_path),
               KLONG_HISTORY=str(tmp_path / "history"), PROMPT_TOOLKIT_NO_CPR="1",
               KLONG_STYLE="nosuch")
    child = pexpect.spawn(sys.executable, [str(KGPY)], env=env, cwd=str(tmp_path),
                          dimensions=(30, 120), encoding="utf-8", timeout=30)
    child.expect_exact("?>")
    warning = [line for line in child.before.splitlines() if "nosuch" in line]
    assert warning == ["kgpy: unknown style 'nosuch': ansi, none, or a pygments style "
                       "(abap, algol, algol_nu, arduino, autumn, borland ...); "
                       "using the default colours"]
    child.send("6*7\r")
    child.expect(r"42\r\n")
    child.expect_exact("?>")
    child.send("\x04")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("src, message", [
    ("0c +1", "type error: plus [0c  1]: number expected"),       # kg: [0c  1]
    ("1+0c ", "type error: plus [1 0c ]: number expected"),
    ("0c +0c ", "type error: plus [0c  0c ]: number expected"),
])
def test_the_blank_character_shows_in_error_messages(kerr, src, message):
    assert str(kerr(src)) == message
