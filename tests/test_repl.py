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
from klong.frontends import helptable
from klong.runtime.display import write
from klong.frontends.replcommands import Session

ROOT = Path(__file__).resolve().parent.parent
KGPY = ROOT / "kgpy"
TIMEOUT = 30            # seconds for one expected piece of output; CI machines are slow

UP = "\x1b[A"
CTRL_D = "\x04"


# ---------------------------------------------------------------- helpers

def _env(tmp_path, history=None, cpr=True, colours=False):
    env = dict(os.environ)
    for name in ("KLONG_BACKEND", "KLONG_DEVICE", "KLONGPATH", "KLONG_STYLE", "NO_COLOR",
                 "PROMPT_TOOLKIT_NO_CPR"):
        env.pop(name, None)
    env.update(TERM="xterm", PYTHONPATH=str(ROOT), HOME=str(tmp_path),
               KLONG_HISTORY=str(history if history is not None else tmp_path / "history"))
    if cpr:       # pexpect does not answer cursor-position requests: don't send them
        env["PROMPT_TOOLKIT_NO_CPR"] = "1"
    if not colours:                 # typed text echoed without colour codes in between
        env["KLONG_STYLE"] = "none"
    return env


def spawn(tmp_path, *args, history=None, cpr=True, colours=False):
    """kgpy in a pseudo-terminal, its first prompt already read. cpr=False: as a terminal
    that never answers cursor-position requests; colours: the default style."""
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, [str(KGPY), *args], env=_env(tmp_path, history, cpr, colours),
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

def test_terminal_banner_and_evaluation(tmp_path):
    child = spawn(tmp_path)
    banner = child.before
    assert f"klong {__version__}" in banner
    assert "numpy" in banner and "cpu" in banner
    enter(child, "a::6*7", r"42\r\n")
    enter(child, "it+1", r"43\r\n")
    enter(child, '.p("printed")', r"printed\r\n")
    assert finish(child) == 0


def test_terminal_multiline_input(tmp_path):
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


def test_terminal_error_keeps_earlier_variables(tmp_path):
    child = spawn(tmp_path)
    enter(child, "qq::5*11", r"55\r\n")
    enter(child, "nosuch(1)", "undefined")
    enter(child, "1+", "syntax")
    enter(child, "qq+1", r"56\r\n")
    assert finish(child) == 0


def test_terminal_commands(tmp_path):
    (tmp_path / "lib.kg").write_text("triple::{3*x}\n")
    child = spawn(tmp_path)
    enter(child, "]h +", r"Transpose[^\r\n]*\r\n[^\r\n]*Plus")
    enter(child, "]b", r"backend: numpy\s+device: cpu")
    enter(child, "]T:3 +/!1000", r"\S+ \S?s ± \S+ \S?s per loop")
    enter(child, "]l " + str(tmp_path / "lib.kg"), r"\r\n")
    enter(child, "triple(1234)", r"3702\r\n")
    enter(child, "]zz", "unknown command")
    assert finish(child, "]q\r") == 0


def test_terminal_ctrl_c_interrupts_evaluation_and_clears_input(tmp_path):
    child = spawn(tmp_path)
    enter(child, "keep::6*7", r"42\r\n")
    child.send('.p("running");{x+1}:~0\r')       # never converges
    child.expect(r"running\r\n")                # evaluating now, however slow the machine
    child.sendintr()
    child.expect("interrupted")
    child.expect_exact("?>")
    enter(child, "keep*2", r"84\r\n")
    child.send("abc")                            # Ctrl-C while typing drops the line
    child.expect_exact("abc")
    child.sendintr()
    child.expect_exact("?>")
    enter(child, "keep+1", r"43\r\n")
    assert finish(child) == 0


def test_terminal_ctrl_c_returns_output_from_a_file_to_the_screen(tmp_path):
    child = spawn(tmp_path)
    out = tmp_path / "out.txt"
    child.send('.tc(.oc("out.txt"));.p("running");.fl();{x+1}:~0\r')
    deadline = time.monotonic() + TIMEOUT
    while not (out.exists() and out.read_text() == "running\n"):    # evaluating now
        assert time.monotonic() < deadline, "the evaluation did not start"
        time.sleep(0.05)
    child.sendintr()
    child.expect("interrupted")
    child.expect_exact("output goes to .cout again (.tc had chosen :outchan.3)")
    child.expect_exact("?>")
    enter(child, '.p("after")', r"after\r\n")
    assert finish(child) == 0
    assert out.read_text() == "running\n"


def test_terminal_ctrl_c_right_after_enter(tmp_path):
    """A terminal that does not answer cursor-position requests keeps prompt_toolkit in raw
    mode for a second after Enter: a Ctrl-C then is a key, not a signal. It must still stop
    the evaluation."""
    child = spawn(tmp_path, cpr=False)
    enter(child, "keep::6*7", r"42\r\n")
    child.send("{x+1}:~0\r")
    child.sendintr()
    child.expect("interrupted")
    child.expect_exact("?>")
    enter(child, "keep*2", r"84\r\n")
    assert finish(child) == 0


def test_terminal_exit_status_of_x(tmp_path):
    child = spawn(tmp_path)
    assert finish(child, ".x(1)\r") == 1


def test_terminal_history_across_sessions(tmp_path):
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


def test_terminal_tab_completion(tmp_path):
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


def test_terminal_torch_backend_banner(tmp_path):
    pytest.importorskip("torch")
    child = spawn(tmp_path, "--backend", "torch", "--device", "cpu")
    assert "backend: torch" in child.before and "device: cpu" in child.before
    enter(child, "]b", r"backend: torch\s+device: cpu")
    enter(child, "+/!10", r"45\r\n")
    assert finish(child) == 0


def test_terminal_long_values_are_shortened(tmp_path):
    child = spawn(tmp_path)
    assert "]p full" in child.before                      # the banner says how to see all
    enter(child, "m::[1000 1000]:^!1000000",
          r"\[\[0 1 2 \.\.\. 997 998 999\] \[1000 1001 1002 [^\r\n]{0,300}"
          r"\(1000000 elements, shape \[1000 1000\]\)\r\n")
    enter(child, ".p(!2000)", r"0 1 2 \.\.\. 1997 1998 1999\]?  \(2000 elements\)\r\n")
    enter(child, "#m", r"1000\r\n")                      # the value itself is whole
    enter(child, "]p full", r"printed in full")
    enter(child, "!1200", r"1197 1198 1199\]\r\n")
    assert "..." not in child.before
    assert finish(child) == 0


def test_terminal_full_option(tmp_path):
    child = spawn(tmp_path, "--full")
    enter(child, "!1200", r"1197 1198 1199\]\r\n")
    assert "..." not in child.before
    enter(child, "]p", r"printed in full")
    assert finish(child) == 0


def test_terminal_paste_of_a_transcript(tmp_path):
    child = spawn(tmp_path)
    pasted = "?> a::[3 1 4 1 5]\n[3 1 4 1 5]\n?> f::{x+\n1}\n:monad\n?> f(+/a)\n15\n"
    child.send("\x1b[200~" + pasted + "\x1b[201~")     # a bracketed paste
    child.expect_exact("+/a")                            # in the buffer, without prompts
    child.send("\r")
    child.expect(r"\[3 1 4 1 5\]\r\n")
    child.expect(r":monad\r\n")
    child.expect(r"15\r\n")
    child.expect_exact("?>")
    assert "error" not in child.before
    enter(child, "f(1)", r"2\r\n")
    assert finish(child) == 0


def test_terminal_colours(tmp_path):
    child = spawn(tmp_path, colours=True)
    child.send("x+12\r")
    child.expect(r"\x1b\[0;1mx\x1b\[0;33m\+\x1b\[0;36m12")    # bold x, yellow +, cyan 12
    child.expect_exact("?>")
    enter(child, "nosuch", r"\x1b\[31mundefined error[^\r]*\x1b\[0m")  # errors in red
    assert finish(child) == 0
    child = spawn(tmp_path, "--style", "none", colours=True)
    child.send("x+12\r")
    child.expect_exact("?>")
    child.send("nosuch\r")
    child.expect(r"undefined error")
    assert "\x1b[31m" not in child.before and "\x1b[0;36m" not in child.before
    assert finish(child) == 0


def test_terminal_suggests_from_history(tmp_path):
    history = tmp_path / "hist"
    history.write_text("\n# 2024-01-01 00:00:00\n+suggestedname::77\n")
    child = spawn(tmp_path, history=history)
    child.send("sugg")
    child.send("\x1b[C")                                # Right arrow takes the suggestion
    child.send("\r")
    child.expect(r"77\r\n")
    child.expect_exact("?>")
    assert finish(child) == 0


# ---------------------------------------------------------------- piped input: the plain loop

def test_piped_quit_stops_reading():
    r = kgpy_piped("1\n]q\n2\n")
    assert (r.stdout, r.stderr, r.returncode) == ("1\n", "", 0)


def test_piped_error_returns_output_from_a_file_to_the_screen(tmp_path):
    """After an error, what .tc sent into a file comes back to .cout, said in one line:
    later output does not vanish into the file."""
    r = kgpy_piped('.tc(.oc("out.txt"))\n.p("one")\n1+"a"\n.p("two")\n.tc(.cerr)\n'
                   '.p("three")\n2+"b"\n.p("four")\n', cwd=tmp_path)
    assert r.stdout == ':outchan.1\n"one"\ntwo\n"two"\n:outchan.1\n"three"\n"four"\n'
    assert r.stderr == ('type error: plus [1 "a"]: number expected\n'
                        "output goes to .cout again (.tc had chosen :outchan.3)\n"
                        "three\n"          # .cerr is not a file: it stays chosen
                        'type error: plus [2 "b"]: number expected\n'
                        "four\n")
    assert (tmp_path / "out.txt").read_text() == "one\n"


def test_piped_help():
    r = kgpy_piped("]h +\n]h .l\n]h\n")
    assert r.returncode == 0, r.stderr
    assert "Transpose" in r.stdout and "Plus" in r.stdout
    assert "Load" in r.stdout
    assert "Verbs:" in r.stdout and "System functions:" in r.stdout


def test_piped_backend_and_timing():
    r = kgpy_piped("]b\n]T:5 +/!100\n")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "backend: numpy  device: cpu"
    assert re.fullmatch(r"\d\S* (ns|µs|ms|s) ± \d\S* (ns|µs|ms|s) per loop "
                        r"\(mean ± std\. dev\. of \d runs, 5 loops each\)", lines[1]), lines


def test_piped_timing_chooses_the_loops():
    r = kgpy_piped("]T +/!100\n]T\n]T:x 1\n")
    line = r.stdout.splitlines()[0]
    m = re.fullmatch(r"\S+ (ns|µs|ms|s) ± \S+ (ns|µs|ms|s) per loop "
                     r"\(mean ± std\. dev\. of 7 runs, (\d+) loops each\)", line)
    assert m, line
    loops = int(m.group(3))
    assert loops >= 10 and str(loops)[0] in "125" and set(str(loops)[1:]) <= {"0"}
    assert "an expression to time is needed" in r.stderr
    assert "must be a positive integer" in r.stderr


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


def test_piped_commands_only_where_a_chunk_starts():
    r = kgpy_piped('"a\n]q\n"\n.comment("END")\n]q\nEND\n6*7\n')
    assert r.returncode == 0, r.stderr
    assert r.stdout == '"a\n]q\n"\n"END"\n42\n'


def test_piped_unfinished_chunk_is_reported():
    r = kgpy_piped("1+1\n{x+\n")
    assert r.stdout == "2\n"
    assert "syntax" in r.stderr
    assert r.returncode == 1


def test_piped_help_by_name_and_all():
    r = kgpy_piped("]h Define\n]h grade-up\n]hall\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.startswith("a::b Define: store the value")
    assert "<a   Grade-Up" in out
    for key, text in helptable.HELP.items():             # ]hall: every text
        assert text in out, key


def test_piped_apropos_shows_the_matching_line():
    r = kgpy_piped("]a sum\n")
    lines = r.stdout.splitlines()
    assert "+  a+b  Plus: sum; atomic." in lines
    assert not any("Transpose" in line for line in lines)


def test_piped_backend_argument():
    r = kgpy_piped("]b torch\n]b numpy\n")
    assert "kgpy --backend torch" in r.stderr and "KLONG_BACKEND=torch" in r.stderr
    assert r.stdout == "backend: numpy  device: cpu\n"
    assert r.returncode == 1


def test_piped_input_prints_in_full_and_p_switches():
    r = kgpy_piped("!1200\n]p on\n!1200\n]p 5\n!7\n]p full\n!1200\n]p wrong\n")
    lines = r.stdout.splitlines()
    assert lines[0] == write(KlongInterpreter().run("!1200"))   # piped input is scripting
    assert lines[2] == "[0 1 2 ... 1197 1198 1199]  (1200 elements)"
    assert lines[4] == "[0 1 2 ... 4 5 6]  (7 elements)"
    assert lines[6].endswith(" 1199]") and "..." not in lines[6]
    assert "]p: full, on or a number" in r.stderr


def test_piped_transcript(tmp_path):
    r = kgpy_piped("]t log.txt\na::6*7\nnosuch\n.p(\"out\")\n]t\n1+1\n", cwd=tmp_path)
    assert r.stdout.startswith("transcript to log.txt\n")
    assert (tmp_path / "log.txt").read_text() == (
        "\ta::6*7\n42\n\tnosuch\nundefined error: nosuch is not defined\n"
        '\t.p("out")\n"out"\n')
    r = kgpy_piped("]t\n]t /nonexistent/dir/log\n", cwd=tmp_path)
    assert "no transcript is open" in r.stderr and "cannot open" in r.stderr


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
    from klong.frontends.repl import KlongCompleter

    interp = KlongInterpreter()
    interp("verylongname::1;veryshort::2")
    completer = KlongCompleter(interp)

    def texts(before):
        doc = Document(before, len(before))
        return [c.text for c in completer.get_completions(doc, CompleteEvent())]

    assert texts("1+verylo") == ["verylongname"]
    assert texts("very") == ["verylongname", "veryshort"]
    assert {".p", ".pc", ".py"} <= set(texts(".p"))
    assert texts("]") == ["]h", "]a", "]t", "]l", "]!", "]T", "]i", "]b", "]p", "]q"]
    assert texts("]h .com") == [".comment", ".compile", ".compilex"]
    assert texts("\\na") == ["\u2207"]
    assert texts("x\\partial") == ["\u2202"]
    assert texts("1.") == [] and texts("0x1F") == []


def test_history_path(monkeypatch, tmp_path):
    from klong.frontends.repl import history_path
    monkeypatch.setenv("KLONG_HISTORY", str(tmp_path / "h"))
    assert history_path() == str(tmp_path / "h")
    monkeypatch.setenv("KLONG_HISTORY", "")
    assert history_path() is None
    monkeypatch.delenv("KLONG_HISTORY")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert history_path() == str(tmp_path / ".klong_history")


def test_pygments_lexer_tokens():
    from pygments.token import Comment, Keyword, Name, Number, Operator, String
    from klong.frontends.highlight import KlongLexer

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


# ---------------------------------------------------------------- pasting, timing, colours

def test_strip_transcript():
    from klong.frontends.replcommands import strip_transcript
    needs_more = KlongInterpreter.needs_more
    session = "?> 2*3+4\n14\n?> f::{x+\n1}\n:monad\n?> f(1)\n2\n"
    assert strip_transcript(session, needs_more) == "2*3+4\nf::{x+\n1}\nf(1)"
    terminal = "?> g::{x*\n.. 2}\n:monad\n?>\n?> g(4)\n8"      # continuation prompts
    assert strip_transcript(terminal, needs_more) == "g::{x*\n2}\n\ng(4)"
    assert strip_transcript("  \n?> 1\n1", needs_more) == "1"
    for plain in ("a::1\n?> 2", "1+1", '"?> not a prompt"', ""):
        assert strip_transcript(plain, needs_more) == plain


def test_docs_copy_button_copies_the_input():
    """The mkdocs hook gives each Klong session block the input alone to copy."""
    import html
    import importlib.util
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import BashSessionLexer
    from klong.frontends.highlight import KlongLexer
    spec = importlib.util.spec_from_file_location("klong_copy",
                                                  ROOT / "docs" / "_hooks" / "klong_copy.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    session = '?> a::"<b>"\n"<b>"\n?> f::{x,\n a}\n:monad\n?> f("c")\n"c<b>"\n'
    page = "<p>text</p>" + highlight(session, KlongLexer(), HtmlFormatter(wrapcode=True))
    shell = highlight("$ kgpy -e 1\n1\n", BashSessionLexer(), HtmlFormatter(wrapcode=True))
    out = hook.on_page_content(page + shell, None, None, None)
    copies = re.findall(r'data-copy="([^"]*)"', out)
    assert [html.unescape(c) for c in copies] == ['a::"<b>"\nf::{x,\n a}\nf("c")']
    assert out.count("<code>") == 2 and shell in out


def test_time_units():
    from klong.frontends.replcommands import time_text, timing_report
    assert time_text(2.5) == "2.5 s"
    assert time_text(0.0123) == "12.3 ms"
    assert time_text(4.56e-6) == "4.56 µs"
    assert time_text(7.1e-8) == "71 ns"
    assert timing_report([1e-3, 1.2e-3, 0.8e-3], 100) == (
        "1 ms ± 200 µs per loop (mean ± std. dev. of 3 runs, 100 loops each)")
    assert timing_report([2.0], 1) == "2 s per loop (1 run, 1 loop)"


def test_measure_grows_the_loops_and_repeats():
    from klong.frontends.replcommands import measure
    asked = []

    def run(count):                     # a fake clock: each loop takes 1 ms
        asked.append(count)
        return count * 1e-3

    per_loop, loops = measure(run)
    assert asked[:9] == [1, 2, 5, 10, 20, 50, 100, 200, 200]
    assert loops == 200 and len(per_loop) == 7 and all(t == 1e-3 for t in per_loop)
    asked.clear()
    per_loop, loops = measure(lambda n: asked.append(n) or 4.0 * n)   # slow: 4 s a loop
    assert loops == 1 and len(per_loop) == 2                          # within ~10 s
    per_loop, loops = measure(lambda n: 1e-3 * n, loops=3)
    assert loops == 3 and len(per_loop) == 7


def test_styles():
    from prompt_toolkit.styles import BaseStyle
    from klong.frontends.highlight import ANSI_STYLE, check_style
    from klong.frontends.repl import prompt_style
    from pygments.token import Name, Number, Operator
    assert check_style(None) is None and check_style("ansi") is None
    assert check_style("monokai") is None and check_style("none") is None
    assert "unknown style 'nosuch'" in check_style("nosuch")
    assert "navy" not in str(ANSI_STYLE) and ANSI_STYLE[Name.Variable] == "bold"
    assert ANSI_STYLE[Number] != ANSI_STYLE[Operator]
    assert all(part.startswith("ansi") or part in ("bold", "italic", "")
               for value in ANSI_STYLE.values() for part in value.split() or [""])
    assert isinstance(prompt_style("ansi"), BaseStyle)
    assert isinstance(prompt_style("monokai"), BaseStyle)
    assert prompt_style("none") is None


def test_transcript_highlighting():
    """Prompts and output are marked, so that the docs' copy button leaves them out."""
    from pygments.token import Generic, Name
    from klong.frontends.highlight import KlongLexer
    text = "?> f::{x+\n1}\n:monad\n?> f(2)\n3\n"
    tokens = list(KlongLexer().get_tokens(text))
    assert "".join(v for _, v in tokens) == text
    assert [v for t, v in tokens if t is Generic.Prompt] == ["?> ", "?> "]
    assert [v for t, v in tokens if t is Generic.Output] == [":monad\n", "3\n"]
    assert (Name.Function, "f") in tokens and (Name.Variable, "x") in tokens


def test_completion_of_paths_and_commands(tmp_path, monkeypatch):
    from klong.frontends.completion import complete
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "util.kg").write_text("")
    (tmp_path / "lister.kg").write_text("")
    interp = KlongInterpreter()

    def texts(before):
        return [m.text for m in complete(interp, before)]

    assert texts("]l li") == ["lib/", "lister.kg"]
    assert texts("]l lib/u") == ["util.kg"]
    assert texts("]i li") == ["lib/"]
    assert texts("]t li") == ["lib/", "lister.kg"]
    assert texts("a::1\n]h .co") == [".comment", ".compile", ".compilex", ".cout", ".cols"]
    assert texts("[1\n]") == []                          # closes a list: not a command


def test_inspect():
    from klong.frontends.completion import inspect
    interp = KlongInterpreter()
    interp("sq::{x*x};data::!3000")
    assert inspect(interp, "1+2", 1).startswith("+a   Transpose")
    assert inspect(interp, "a:=b", 2).startswith("a:=b Amend")
    assert inspect(interp, ".p(1)", 1).startswith(".p(x)")
    assert inspect(interp, "]T 1+1", 1).startswith("]T expr")
    assert inspect(interp, "sq(2)", 1) == "sq: :monad"
    from klong.runtime.display import Summary
    assert inspect(interp, "data", 2, Summary()).endswith("(3000 elements)")
    assert inspect(interp, "   ", 1) is None
