"""The interactive REPL (system.md B.5, language.md 9.1): driven through a pseudo-terminal
with pexpect for what needs a terminal (prompt_toolkit line editing, history, completion,
Ctrl-C), and directly or through pipes for the rest (]-commands in the plain loop, the
completer, the pygments lexer, the help table)."""
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from klong import KlongInterpreter, __version__
from klong import helptable
from klong.replcommands import Session

ROOT = Path(__file__).resolve().parent.parent
KGPY = ROOT / "kgpy"
TIMEOUT = 30            # seconds for one expected piece of output; CI machines are slow

UP = "\x1b[A"
CTRL_D = "\x04"


# ---------------------------------------------------------------- helpers

def _env(tmp_path, history=None):
    env = dict(os.environ)
    for name in ("KLONG_BACKEND", "KLONG_DEVICE", "KLONGPATH"):
        env.pop(name, None)
    env.update(TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", PYTHONPATH=str(ROOT),
               HOME=str(tmp_path),
               KLONG_HISTORY=str(history if history is not None else tmp_path / "history"))
    return env


def spawn(tmp_path, *args, history=None):
    """kgpy in a pseudo-terminal, its first prompt already read."""
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, [str(KGPY), *args], env=_env(tmp_path, history),
                          cwd=str(tmp_path), dimensions=(30, 120), encoding="utf-8",
                          timeout=TIMEOUT)
    child.expect_exact("?>")
    return child


def enter(child, line, expected):
    """Type `line` and Enter; wait for `expected` (a regex that the echoed input cannot
    match) and then for the next prompt."""
    child.send(line + "\r")
    child.expect(expected)
    child.expect_exact("?>")


def finish(child, keys=CTRL_D):
    """Leave the REPL with `keys`; returns the exit status."""
    import pexpect
    child.send(keys)
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def kgpy_piped(stdin, cwd=None, env=None):
    full_env = dict(os.environ)
    for name in ("KLONG_BACKEND", "KLONG_DEVICE"):
        full_env.pop(name, None)
    full_env["PYTHONPATH"] = str(ROOT)
    if env:
        full_env.update(env)
    return subprocess.run([sys.executable, str(KGPY)], input=stdin, capture_output=True,
                          text=True, cwd=cwd, env=full_env, timeout=120)


# ---------------------------------------------------------------- the REPL in a terminal

def test_banner_and_evaluation(tmp_path):
    child = spawn(tmp_path)
    banner = child.before
    assert f"klong {__version__}" in banner
    assert "numpy" in banner and "cpu" in banner
    enter(child, "a::6*7", r"42\r\n")
    enter(child, "it+1", r"43\r\n")
    enter(child, '.p("printed")', r"printed\r\n")
    assert finish(child) == 0


def test_multiline_input(tmp_path):
    child = spawn(tmp_path)
    child.send("{x*\r")
    child.expect_exact("..")                     # continuation prompt, nothing evaluated
    enter(child, "1000}(7)", r"7000\r\n")
    child.send("[1 2\r")
    enter(child, "3]", r"\[1 2 3\]\r\n")
    child.send(":[1;\r")
    enter(child, "7*9;0]", r"63\r\n")
    child.send('"one\r')
    enter(child, 'two"', r'"one\r?\ntwo"\r\n')
    assert finish(child) == 0


def test_error_keeps_earlier_variables(tmp_path):
    child = spawn(tmp_path)
    enter(child, "qq::5*11", r"55\r\n")
    enter(child, "nosuch(1)", "undefined")
    enter(child, "1+", "syntax")
    enter(child, "qq+1", r"56\r\n")
    assert finish(child) == 0


def test_commands(tmp_path):
    (tmp_path / "lib.kg").write_text("triple::{3*x}\n")
    child = spawn(tmp_path)
    enter(child, "]h +", r"Transpose[^\r\n]*\r\n[^\r\n]*Plus")
    enter(child, "]b", r"backend: numpy\s+device: cpu")
    enter(child, "]T:3 +/!1000", r"total: \S+ per: \S+")
    enter(child, "]l " + str(tmp_path / "lib.kg"), r"\r\n")
    enter(child, "triple(1234)", r"3702\r\n")
    enter(child, "]zz", "unknown command")
    assert finish(child, "]q\r") == 0


def test_ctrl_c_interrupts_evaluation_and_clears_input(tmp_path):
    child = spawn(tmp_path)
    enter(child, "keep::6*7", r"42\r\n")
    child.send("{x+1}:~0\r")                     # never converges
    time.sleep(1.5)
    child.sendintr()
    child.expect("interrupted")
    child.expect_exact("?>")
    enter(child, "keep*2", r"84\r\n")
    child.send("abc")                            # Ctrl-C while typing drops the line
    time.sleep(0.5)
    child.sendintr()
    child.expect_exact("?>")
    enter(child, "keep+1", r"43\r\n")
    assert finish(child) == 0


def test_exit_status_of_x(tmp_path):
    child = spawn(tmp_path)
    assert finish(child, ".x(1)\r") == 1


def test_history_across_sessions(tmp_path):
    history = tmp_path / "hist"
    child = spawn(tmp_path, history=history)
    enter(child, "7*191", r"1337\r\n")
    assert finish(child) == 0
    assert "7*191" in history.read_text()
    child = spawn(tmp_path, history=history)
    time.sleep(0.5)                              # history loads in the background
    child.send(UP)
    child.expect_exact("7*191")
    child.send("\r")
    child.expect(r"1337\r\n")
    child.expect_exact("?>")
    assert finish(child) == 0


def test_tab_completion(tmp_path):
    child = spawn(tmp_path)
    enter(child, "verylongname::5", r"5\r\n")
    child.send("verylo\t")
    child.expect_exact("verylongname")
    enter(child, "*3", r"15\r\n")
    child.send("3\\nabla\t")
    child.expect_exact("\u2207")
    enter(child, "{x^2}", r"6\.0000\d*\r\n")
    child.send("[1 2]\\part\t")
    child.expect_exact("\u2202")
    enter(child, "{x^2}", r"\[\[2\.0\d* 0\.0\] \[0\.0 4\.0\d*\]\]\r\n")
    assert finish(child) == 0


def test_torch_backend_banner(tmp_path):
    pytest.importorskip("torch")
    child = spawn(tmp_path, "--backend", "torch", "--device", "cpu")
    assert "backend: torch" in child.before and "device: cpu" in child.before
    enter(child, "]b", r"backend: torch\s+device: cpu")
    enter(child, "+/!10", r"45\r\n")
    assert finish(child) == 0


# ---------------------------------------------------------------- piped input: the plain loop

def test_piped_quit_stops_reading():
    r = kgpy_piped("1\n]q\n2\n")
    assert (r.stdout, r.stderr, r.returncode) == ("1\n", "", 0)


def test_piped_help():
    r = kgpy_piped("]h +\n]h .l\n]h\n")
    assert r.returncode == 0, r.stderr
    assert "Transpose" in r.stdout and "Plus" in r.stdout
    assert "Load" in r.stdout
    assert "Verbs:" in r.stdout and "System functions:" in r.stdout


def test_piped_backend_and_timing():
    r = kgpy_piped("]b\n]T +/!100\n]T:5 +/!100\n")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "backend: numpy  device: cpu"
    times = [re.fullmatch(r"total: (\S+) per: (\S+)", line) for line in lines[1:3]]
    assert all(times), lines
    total, per = (float(x) for x in times[1].groups())
    assert per == pytest.approx(total / 5, rel=1e-3)


def test_piped_load_with_blanks(tmp_path):
    (tmp_path / "lib.kg").write_text("triple::{3*x}\n")
    r = kgpy_piped("]l   lib  \ntriple(5)\n]l nosuch\n", cwd=tmp_path)
    assert r.stdout == "15\n"
    assert "does not exist" in r.stderr
    assert r.returncode == 1


def test_piped_shell_and_listing(tmp_path):
    for name in ("b.kg", "a.kg", "notes.txt"):
        (tmp_path / name).write_text("")
    r = kgpy_piped("]! echo shell-ok\n]i .\n", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("shell-ok\n")
    listing = r.stdout.split("\n", 1)[1].split()
    assert listing == ["a.kg", "b.kg"]


def test_piped_listing_defaults_to_klongpath(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "util.kg").write_text("")
    r = kgpy_piped("]i\n", cwd=tmp_path, env={"KLONGPATH": f"{tmp_path / 'lib'}:."})
    assert r.stdout.split() == ["util.kg"]


def test_piped_unknown_command():
    r = kgpy_piped("]zz\n1+1\n")
    assert r.stdout == "2\n"
    assert "unknown command" in r.stderr and "]zz" in r.stderr
    assert r.returncode == 1


def test_commands_only_where_a_chunk_starts():
    r = kgpy_piped('"a\n]q\n"\n.comment("END")\n]q\nEND\n6*7\n')
    assert r.returncode == 0, r.stderr
    assert r.stdout == '"a\n]q\n"\n"END"\n42\n'


def test_piped_unfinished_chunk_is_reported():
    r = kgpy_piped("1+1\n{x+\n")
    assert r.stdout == "2\n"
    assert "syntax" in r.stderr
    assert r.returncode == 1


# ---------------------------------------------------------------- pieces, without a terminal

def test_session_wants_more():
    session = Session(KlongInterpreter())
    for text in ("{x+", "[1 2", '"abc', ":[1;2", "f(1;", "a::1\n{x"):
        assert session.wants_more(text), text
    for text in ("{x+1}", "1+", "]h {", "]q", "", '"a""b"', "{x+\n1}"):
        assert not session.wants_more(text), text


def test_completer():
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document
    from klong.repl import KlongCompleter

    interp = KlongInterpreter()
    interp("verylongname::1;veryshort::2")
    completer = KlongCompleter(interp)

    def texts(before):
        doc = Document(before, len(before))
        return [c.text for c in completer.get_completions(doc, CompleteEvent())]

    assert texts("1+verylo") == ["verylongname"]
    assert texts("very") == ["verylongname", "veryshort"]
    assert {".p", ".pc", ".py"} <= set(texts(".p"))
    assert texts("]") == ["]h", "]a", "]l", "]!", "]T", "]i", "]b", "]q"]
    assert texts("]h .com") == [".comment", ".compile", ".compilex"]
    assert texts("\\na") == ["\u2207"]
    assert texts("x\\partial") == ["\u2202"]
    assert texts("1.") == [] and texts("0x1F") == []


def test_history_path(monkeypatch, tmp_path):
    from klong.repl import history_path
    monkeypatch.setenv("KLONG_HISTORY", str(tmp_path / "h"))
    assert history_path() == str(tmp_path / "h")
    monkeypatch.setenv("KLONG_HISTORY", "")
    assert history_path() is None
    monkeypatch.delenv("KLONG_HISTORY")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert history_path() == str(tmp_path / ".klong_history")


def test_pygments_lexer_tokens():
    from pygments.token import Comment, Keyword, Name, Number, Operator, String
    from klong.highlight import KlongLexer

    source = 'sq::{x*x};v::[1 -2 foo];.p(+/sq\'!10):[v;0cx;"a""b"] :"note" :sym 2.5'
    tokens = [(t, v) for t, v in KlongLexer().get_tokens(source) if v.strip()]
    kinds = dict((v, t) for t, v in reversed(tokens))
    assert kinds["sq"] is Name.Function
    assert kinds["::"] in Operator and kinds["*"] in Operator and kinds["!"] in Operator
    assert kinds["x"] in Name
    assert kinds["-2"] in Number and kinds["10"] in Number and kinds["2.5"] is Number.Float
    assert kinds["foo"] is String.Symbol and kinds[":sym"] is String.Symbol
    assert kinds[".p"] is Name.Builtin
    assert kinds["/"] is Name.Attribute and kinds["'"] is Name.Attribute
    assert kinds[":["] in Keyword
    assert kinds["0cx"] is String.Char
    assert kinds['""'] in String
    assert kinds[":\""] in Comment
    assert "".join(v for _, v in KlongLexer().get_tokens(source)).rstrip("\n") == source
    assert all("Error" not in str(t) for t, _ in tokens)


def test_pygments_finds_the_lexer():
    import pygments.lexers
    from pygments.util import ClassNotFound
    try:
        lexer = pygments.lexers.get_lexer_by_name("klong")
    except ClassNotFound:
        pytest.fail("the pygments plugin entry point is missing: run pip install -e .")
    assert type(lexer).__name__ == "KlongLexer"
    assert type(pygments.lexers.get_lexer_for_filename("prog.kg")).__name__ == "KlongLexer"


VERB_MONADS = "@ , ! # < > = * + - _ ~ $ ? % | ^ & :# :_".split()
VERB_DYADS = VERB_MONADS + ":= :- :: :$ :@ :% :+ :^".split()
ADVERBS = ["'", "/", "\\", ":'", ":\\", ":/", ":~", ":*", "\\~", "\\*"]
SYSTEM_NAMES = (".ac .cc .comment .d .df .E .fc .fl .ic .l .mi .module .oc .p .pc .r .rl .rn "
                ".rs .sys .tc .w .x .rls .bkd .bkp .strict .unsafe .jacobian .gradcheck "
                ".compile .compilex .cmodes .export .py .pyf .pyc .pya .bkf "
                ".a .cin .cout .cerr .cols .e .edit .f .fastpow .h .helpdb it "
                ".os.argv .os.env .system").split()


def test_help_table_covers_the_language():
    for verb in VERB_MONADS:
        assert f"{verb}a" in helptable.HELP[verb], verb
    for verb in VERB_DYADS:
        assert f"a{verb}b" in helptable.HELP[verb], verb
    for adverb in ADVERBS:
        assert f"f{adverb}a" in helptable.HELP[adverb] or f" f{adverb}b" in \
            helptable.HELP[adverb], adverb
    for name in SYSTEM_NAMES + [":>", "\u2207", "\u2202", "\u02d9"]:
        assert name in helptable.HELP, name
    assert helptable.lookup("l") == helptable.HELP[".l"]
    assert helptable.lookup("nosuch") is None
    assert "/" in helptable.apropos("over")
