"""The IPython extension (klong.frontends.magics), through IPython's own test shell: %load_ext klong,
%klong lines giving Python values, %%klong cells sharing one interpreter, Python variables
in (-i) and out (-o), errors as Klong reports."""
import re
import sys

import pytest

pytest.importorskip("IPython")

from IPython.testing import globalipapp  # noqa: E402
from IPython.utils.capture import capture_output  # noqa: E402

from klong.frontends.magics import parse_flags  # noqa: E402


@pytest.fixture(scope="module")
def ip():
    shell = globalipapp.get_ipython()       # the module's name: the shell once it started
    shell.run_line_magic("load_ext", "klong")
    return shell


def test_import_klong_does_not_import_ipython(tmp_path, repo_root):
    import subprocess
    code = "import klong, sys; print('IPython' in sys.modules, 'torch' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=tmp_path, env={"PYTHONPATH": str(repo_root)})
    assert r.stdout.split() == ["False", "False"], r.stderr


def test_line_magic_gives_python_values(ip):
    assert ip.run_line_magic("klong", "+/!10") == 45
    assert list(ip.run_line_magic("klong", "{x*x}'!5")) == [0, 1, 4, 9, 16]
    assert ip.run_line_magic("klong", '"abc"') == "abc"
    assert ip.run_line_magic("klong", "-1+2") == -3       # Klong code, not a flag
    with capture_output() as out:
        ip.run_cell("squares = %klong {x*x}'1+!3")
    assert out.stderr == ""
    assert list(ip.user_ns["squares"]) == [1, 4, 9]


def run(ip, code):
    """Run a cell as a front end does: (result, printed output)."""
    with capture_output() as out:
        result = ip.run_cell(code)
    return result, out


def test_cells_share_one_interpreter(ip):
    result, out = run(ip, "%%klong\nshared::100\nsq::{x*x}\nsq(3)")
    assert result.success and repr(result.result) == "9"    # the last value, as the REPL shows it
    # the prompt's number is IPython's business (8.x and 9.x count a test shell's cells apart)
    assert re.fullmatch(r"Out\[\d+\]: 9\n", out.stdout), out.stdout
    assert result.result.value == 9                        # and as Python sees it
    assert ip.run_line_magic("klong", "shared+sq(2)") == 104


@pytest.mark.parametrize("ending", ["\n", "\n\n", "\n  \n\t\n", "  "])
def test_the_last_value_shows_whatever_blank_lines_follow(ip, ending):
    result, _ = run(ip, "%%klong\nv::!3\nv*2" + ending)
    assert result.success and repr(result.result) == "[0 2 4]"
    result, _ = run(ip, "%%klong\n:\"no value\"\n")
    assert result.success and result.result is None


def test_python_variables_in_and_out(ip):
    ip.user_ns["data"] = [1.5, 2.5, 3.0]
    ip.user_ns["scale"] = 2
    with capture_output() as out:
        ip.run_cell_magic("klong", "-i data,scale -o total -o doubled",
                          "total::+/data\ndoubled::scale*data")
    assert out.stderr == ""
    assert ip.user_ns["total"] == 7.0
    assert list(ip.user_ns["doubled"]) == [3.0, 5.0, 6.0]
    ip.user_ns["n"] = 4
    assert ip.run_line_magic("klong", "-i n !n") is not None
    assert list(ip.run_line_magic("klong", "-i n !n")) == [0, 1, 2, 3]


def test_klong_functions_come_out_callable(ip):
    with capture_output():
        ip.run_cell_magic("klong", "-o cube", "cube::{x^3}")
    assert ip.user_ns["cube"](3) == 27


def test_errors_fail_the_cell_with_one_line(ip):
    for code, report in [("%klong 1+", "syntax error: missing operand\n1+\n  ^\n"),
                         ("x = %klong nosuch(1)\n", "undefined error: nosuch is not defined\n"),
                         ("%%klong\nok::1\nnosuch\nok::2\n",
                          "undefined error: nosuch is not defined\n"),
                         ("%%klong -i missing\n1", "%klong: no Python variable missing\n"),
                         ("%%klong -o gone\n1", "%klong: no Klong variable gone\n")]:
        result, out = run(ip, code)
        assert not result.success                           # "Run all" stops here
        assert out.stdout + out.stderr == report            # no Python traceback
    assert ip.run_line_magic("klong", "ok") == 1           # the cell stopped at its error


def test_an_interrupt_fails_the_cell_with_one_line(ip, monkeypatch):
    from klong.frontends.replcommands import CellSession

    def interrupted(self, text):
        raise KeyboardInterrupt
    monkeypatch.setattr(CellSession, "run_cell", interrupted)
    result, out = run(ip, "%klong {x+1}:~0")
    assert not result.success and out.stdout + out.stderr == "interrupted\n"
    monkeypatch.undo()
    assert ip.run_line_magic("klong", "1+1") == 2          # and the session goes on


def test_long_values_and_transcripts(ip):
    result, _ = run(ip, "%%klong\n!5000")
    assert repr(result.result) == "[0 1 2 ... 4997 4998 4999]  (5000 elements)"
    result, _ = run(ip, "%%klong\n?> p::6*7\n42\n?> p+1\n43")
    assert repr(result.result) == "43"


@pytest.fixture
def notebook_formats(ip):
    """The shell formats values for every mime type, as in a notebook (a terminal shell
    keeps only text)."""
    formatters = ip.display_formatter.formatters
    kept = {mime: f.enabled for mime, f in formatters.items()}
    for f in formatters.values():
        f.enabled = True
    yield ip.display_formatter.format
    for mime, enabled in kept.items():
        formatters[mime].enabled = enabled


def test_rich_python_objects_show_as_themselves(ip, notebook_formats):
    from IPython.display import SVG
    ip.user_ns["pic"] = SVG("<svg xmlns='http://www.w3.org/2000/svg'><circle r='4'/></svg>")
    result, _ = run(ip, "%%klong -i pic\npic")
    assert result.result is ip.user_ns["pic"]
    data, _ = notebook_formats(result.result)
    assert "<circle" in data["image/svg+xml"]
    assert ip.run_line_magic("klong", "pic") is ip.user_ns["pic"]


def test_a_wide_matrix_is_also_a_table(ip, notebook_formats):
    result, _ = run(ip, "%%klong\n[3 30]:^!90")
    data, _ = notebook_formats(result.result)
    assert data["text/plain"].startswith("[[0 1 2 3")
    assert data["text/html"].count("<tr>") == 3 and "<td>89</td>" in data["text/html"]
    result, _ = run(ip, "%%klong\n[2 2]:^!4")
    assert "text/html" not in notebook_formats(result.result)[0]


def test_completion_after_klong(ip):
    from IPython.core.completer import provisionalcompleter
    ip.run_line_magic("klong", "verylongname::1")
    cases = [("%klong 1+verylo", ["verylongname"]),
             ("x = %klong .com", [".comment", ".compile", ".compilex"]),
             ("%%klong\na::1\n1+.com", [".comment", ".compile", ".compilex"]),
             ("%%klong -i a\nverylo", ["verylongname"])]
    with provisionalcompleter():
        for code, expected in cases:
            found = list(ip.Completer.completions(code, len(code)))
            assert [c.text for c in found] == expected, code
            typed = code[found[0].start:found[0].end]
            assert expected[0].startswith(typed) and typed
        found = list(ip.Completer.completions("import o", 8))   # Python is left alone
        assert "os" in [c.text for c in found]


def test_no_variable_expansion(ip):
    ip.user_ns["x"] = 1000
    assert list(ip.run_line_magic("klong", "{x+1}'[1 2]")) == [2, 3]


def test_parse_flags():
    assert parse_flags("-i a,b -o c +/a") == (["a", "b"], ["c"], "+/a")
    assert parse_flags("--input a --output b") == (["a"], ["b"], "")
    assert parse_flags("-1+2") == ([], [], "-1+2")


def test_an_error_gives_output_back_from_a_file(ip, tmp_path):
    """As at the prompt: after a failing cell, output .tc sent into a file comes back."""
    log = tmp_path / "log.txt"
    result, _ = run(ip, '%%%%klong\n.tc(.oc("%s"))\n.p("into the file")' % log)
    assert result.success
    result, out = run(ip, '%%klong\n1%"a"')
    assert not result.success and "output goes to .cout again" in out.stderr
    result, out = run(ip, '%%klong\n.p("on the screen")')
    assert "on the screen" in out.stdout
    assert log.read_text() == "into the file\n"
