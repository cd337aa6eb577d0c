"""The IPython extension (klong.magics), through IPython's own test shell: %load_ext klong,
%klong lines giving Python values, %%klong cells sharing one interpreter, Python variables
in (-i) and out (-o), errors as Klong reports."""
import sys

import pytest

pytest.importorskip("IPython")

from IPython.testing.globalipapp import get_ipython  # noqa: E402
from IPython.utils.capture import capture_output  # noqa: E402

from klong.magics import parse_flags  # noqa: E402


@pytest.fixture(scope="module")
def ip():
    shell = get_ipython()
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


def test_cells_share_one_interpreter(ip):
    with capture_output() as out:
        ip.run_cell_magic("klong", "", "shared::100\nsq::{x*x}\nsq(3)")
    assert out.stdout == "9\n"                             # the last value, as the REPL shows it
    assert ip.run_line_magic("klong", "shared+sq(2)") == 104


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


def test_errors_are_klong_reports(ip):
    with capture_output() as out:
        value = ip.run_line_magic("klong", "1+")
    assert value is None
    assert out.stderr == "syntax error: missing operand\n1+\n  ^\n"
    with capture_output() as out:
        ip.run_cell_magic("klong", "", "ok::1\nnosuch\nok::2")
    assert "undefined" in out.stderr and "Traceback" not in out.stderr
    assert ip.run_line_magic("klong", "ok") == 1           # the cell stopped at its error
    with capture_output() as out:
        ip.run_cell_magic("klong", "-i missing", "1")
    assert "no Python variable missing" in out.stderr


def test_long_values_and_transcripts(ip):
    with capture_output() as out:
        ip.run_cell_magic("klong", "", "!5000")
    assert out.stdout == "[0 1 2 ... 4997 4998 4999]  (5000 elements)\n"
    with capture_output() as out:
        ip.run_cell_magic("klong", "", "?> p::6*7\n42\n?> p+1\n43")
    assert out.stdout == "43\n"


def test_no_variable_expansion(ip):
    ip.user_ns["x"] = 1000
    assert list(ip.run_line_magic("klong", "{x+1}'[1 2]")) == [2, 3]


def test_parse_flags():
    assert parse_flags("-i a,b -o c +/a") == (["a", "b"], ["c"], "+/a")
    assert parse_flags("--input a --output b") == (["a"], ["b"], "")
    assert parse_flags("-1+2") == ([], [], "-1+2")
