"""Real programs: the forms Klong's own library uses (loaded through KLONGPATH), and the idioms
of the torch and autograd guide typed as a user would. Each library form is written here in a
small file of our own; the values were checked against the reference interpreter."""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from klong import KlongError, KlongInterpreter
from klong.runtime.display import write
from klong.backends import list_backends

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KGPY = os.path.join(ROOT, "kgpy")


@pytest.fixture
def lib(tmp_path, monkeypatch):
    """A library folder on KLONGPATH; lib(name, text) writes name.kg there (bytes are
    written as they are, to test encodings)."""
    folder = tmp_path / "lib"
    folder.mkdir()
    monkeypatch.setenv("KLONGPATH", str(folder))

    def write_file(name, text):
        data = text if isinstance(text, bytes) else textwrap.dedent(text).lstrip("\n").encode("utf-8")
        (folder / f"{name}.kg").write_bytes(data)
        return folder / f"{name}.kg"
    return write_file


# the torch parameter of a test, skipped where torch is not installed
TORCH = pytest.param("torch", marks=pytest.mark.skipif(
    "torch" not in list_backends(), reason="torch is not installed"))


def kgpy(*args, stdin=None, cwd=None, env=None):
    environment = dict(os.environ, PYTHONPATH=ROOT, **(env or {}))
    return subprocess.run([sys.executable, KGPY, *args], input=stdin, capture_output=True,
                          text=True, timeout=300, cwd=cwd, env=environment)


# ---------------------------------------------------------------- library forms

def test_locals_named_like_parameters(lib, k):
    # math.kg: asin::{[y];y::x;regf({sin(x)-y};0;1-.e)}
    lib("inv", """
        .module(:inv)
        solve::{[lo hi m];lo::x;hi::y;{x;(hi-lo)>1.0e-9}{m::(lo+hi)%2;
                :[F(m)<0;lo::m;hi::m];m}:~0;lo}
        F::{x}
        root::{[y];y::x;F::{(x*x)-y};solve(0;y+1)}
        .module(0)
    """)
    k('.l("inv")')
    assert abs(k("root(2)") - 2 ** 0.5) < 1e-6
    assert k("{[y];y::x;y+1}(3)") == 4


@pytest.mark.parametrize("src, printed", [
    ("{[y];y::x;{x+y}}(5)", ":monad"),           # y is the enclosing local, not a parameter
    ("{[y];y::x;{x+y}'[1 2]}(5)", "[6 7]"),
    ("{[z];z::x;{x+y+z}(1;2)}(5)", "8"),
    ("{[x];x::5;{x}}()", ":nilad"),
    ("{[x];x::1;{x::2}();x}()", "2"),              # assigning it is no read-only parameter
    ("{[y];y::1;{y+z}(1;2;3)}()", "4"),
    ("{[y];y::10;{[y];y::5;{y}()}()}()", "5"),
    ("{[y];y::10;{{y}()}()}()", "10"),
    ("{[x];x::2;y+x}(1;2)", "4"),
    ("{[x];x::10;{x+y}/[1 2 3]}()", "13"),
])
def test_x_y_z_declared_local(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src", ["{[x];x::2;y}(1)", "{[x];x::5;{x+1}(1)}()", "{[y];y}()"])
def test_x_y_z_declared_local_errors(kerr, src):
    assert kerr(src).kind in ("arity", "undefined")


@pytest.mark.parametrize("src", [
    "{[pad,dlt];pad::1;dlt::2;pad+dlt}()",                      # edt.kg
    "{[a1;neq];a1::1;neq::2;a1+neq}()",                        # eigenv.kg
    "{[a, b];a::1;b::2;a+b}()",
    "{[a ;b];a::1;b::2;a+b}()",
    "{[a;;b];a::1;b::2;a+b}()",
])
def test_local_lists_separated_by_semicolons_or_commas(kw, src):
    assert kw(src) == "3"


def test_bracket_after_brace_that_is_no_local_list(kw, kerr):
    assert kw("{[1 2]}()") == "[1 2]"
    assert kw("{[a b]}()") == "[:a :b]"
    assert kerr("{[a;b]}()").kind == "syntax"          # no statement follows: a list literal


def test_latin1_library_file(lib, k):
    # nstat.kg holds a Latin-1 byte; UTF-8 is tried first, then Latin-1
    lib("stats", b':"mean of a data set \xd7 its size"\nmu::{(+/x)%#x}\nsign::"\xb1"\n')
    k('.l("stats")')
    assert k("mu([1 2 3 6])") == 3.0
    assert k("sign") == "\u00b1"
    lib("utf", ':"caf\u00e9"\nword::"caf\u00e9"\n')
    k('.l("utf")')
    assert k("#word") == 4


def test_library_with_modules_help_and_comment_blocks(lib, k):
    lib("help", """
        .helpdb::[]
        help.add::{:[.helpdb?*x;1;.helpdb::.helpdb,x]}
    """)
    lib("geom", """
        :"geometry"
        .comment("*****")
        area(x)   area of a circle of radius x
        anything " unbalanced [ here
        *****
        .l("help")
        .module(:geom)
        pi::3.14159
        sq::{x*x}
        area::{pi*sq(x)}
        .module(0)
        help.add([["area(x)" "area of a circle"]])
    """)
    k('.l("geom")')
    assert abs(k("area(2)") - 12.56636) < 1e-9
    assert k("#.helpdb") == 1
    k("sq::{0}")                          # redefining sq outside does not change the module
    assert abs(k("area(1)") - 3.14159) < 1e-9


def test_error_in_a_library_function_names_its_file(lib, tmp_path):
    path = lib("risky", """
        ok::{x+1}

        bad::{x+"a"}
    """)
    caller = tmp_path / "caller.kg"
    caller.write_text('.l("risky")\nok(1)\nbad(1)\n')
    proc = kgpy(str(caller), env={"KLONGPATH": str(path.parent)})
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"{path}:3: type error"), proc.stderr


def test_error_in_library_function_called_from_python(lib, k):
    path = lib("risky", "ok::{x+1}\nbad::{x+\"a\"}\n")
    k('.l("risky")')
    with pytest.raises(KlongError) as info:
        k("bad(1)")
    assert info.value.filename == str(path) and info.value.line == 2


# ---------------------------------------------------------------- modules are never left open

def test_error_inside_a_module_file_closes_the_module(lib, k):
    lib("broken", """
        .module(:broken)
        helper::{x*2}
        shared::1
        boom
        .module(0)
    """)
    k("shared::0")
    with pytest.raises(KlongError) as info:
        k('.l("broken")')
    assert "module broken closed" in info.value.message
    assert k("shared") == 0                        # globals from before are untouched
    assert "helper" not in k and "helper`broken" not in k
    k(".module(:other);v::1;.module(0)")          # no "nested module"
    k("w::2")
    assert "w`broken" not in k and k("w") == 2   # new globals are not captured


def test_error_typed_while_a_module_is_open(k):
    k(".module(:m)")
    k("a::1")
    with pytest.raises(KlongError):
        k("1+\"x\"")
    assert "a" not in k and "a`m" not in k
    k("b::2")
    assert "b`m" not in k


def test_module_can_be_loaded_again_after_an_error(lib, k):
    path = lib("twice", ".module(:twice)\nf::{x+1}\ng::{f(x)*2}\nh::{oops(x)}\n.module(0)\n")
    k('.l("twice")')
    with pytest.raises(KlongError):
        k("h(1)")                      # an error after the module was closed changes nothing
    assert k("g(1)") == 4
    path.write_text(".module(:twice)\nf::{x+1}\n1+\"a\"\n.module(0)\n")
    with pytest.raises(KlongError):
        k('.l("twice")')
    assert k("g(1)") == 4 and k("f(1)") == 2
    k('.module(:twice);.module(0)')


# ---------------------------------------------------------------- the guide's idioms

def test_nilad_under_adverbs(kw):
    # our extension: f'!n with a nilad f calls it n times (KlongPy programs rely on it)
    assert kw("n::0;{n::n+1}'!5;n") == "5"
    assert kw("n::0;step::{n::n+2};step'!3;n") == "6"
    assert kw("{7}'!3") == "[7 7 7]"
    assert kw("{7}/!4") == "7"
    assert kw("c::0;{c::c+1}'[];c") == "0"
    assert kw("w::10.0;lr::0.1;loss::{w^2};{w::w-(lr*2*w)}'!50;w<0.001") == "1"


GUIDE_SESSION = """\
f::{x^2}         :" Define f(x) = x^2
f:>3             :" Compute f'(3) = 6.0
w::10.0
loss::{w^2}
lr::0.1
{w::w-(lr*loss:>w)}'!50
w<0.001          :" Close to 0
"""


@pytest.mark.parametrize("backend", ["numpy", TORCH])
def test_trailing_comments_typed_at_the_prompt(tmp_path, backend):
    proc = kgpy("--backend", backend, stdin=GUIDE_SESSION, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.split()
    assert lines[:2] == [":monad", "6.0" if backend == "torch" else "6.00000000000037"]
    assert lines[-1] == "1"


def test_trailing_comment_in_a_file_keeps_klongs_rule(tmp_path):
    script = tmp_path / "guide.kg"
    script.write_text(GUIDE_SESSION)
    proc = kgpy(str(script), cwd=tmp_path)
    assert proc.returncode == 1
    assert "the comment opened on line 1 ends on this line" in proc.stderr, proc.stderr
    assert proc.stderr.startswith(f"{script}:2:")


def test_comment_rules_in_the_interpreter(k):
    # run(): a comment ends at the next quote, even lines later
    assert write(k.run(':"one\ntwo" 5')) == "5"
    # run_chunk() is typed input: an open comment ends with its line
    assert write(k.run_chunk('3 :" three')) == "3"
    assert k.needs_more('a::1 :" open') is False
    assert k.needs_more('a::"open') is True


GUIDE_OPTIMIZER = """\
:" Import the optimizer class
.pyf("optimizers";"SGDOptimizer")
w::10.0
loss::{w^2}
opt::SGDOptimizer(klong;["w"];:{["lr" 0.1]})
{opt(loss)}'!50
sgd::w<0.001
.pyf("optimizers";"AdamOptimizer")
w::1.0;b::0.0
X::[1 2 3];Y::[3 5 7]
loss::{(+/((w*X)+b-Y)^2)%3}
opt::AdamOptimizer(klong;["w" "b"];:{["lr" 0.1]})
{opt(loss)}'!500
sgd,(((w-2)^2)+(b-1)^2)<0.0001
"""


@pytest.mark.parametrize("backend", ["numpy", TORCH])
def test_guide_optimizers_from_the_current_folder(tmp_path, backend):
    shutil.copy(os.path.join(ROOT, "examples", "autograd", "optimizers.py"), tmp_path)
    proc = kgpy("--backend", backend, stdin=GUIDE_OPTIMIZER, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "[1 1]", proc.stdout


def test_malformed_dictionary_is_a_clear_error(kerr):
    err = kerr(':{["lr" 0.01 "momentum" 0.9]}')
    assert err.kind == "syntax" and "malformed dictionary entry: 4 elements" in err.message


def test_klong_is_the_interpreter(k):
    seen = []
    k["grab"] = lambda interp: seen.append(interp) or 1
    assert k("grab(klong)") == 1
    assert seen == [k]
    assert k('klong("1+2")') == 3


def test_piped_latin1_input(tmp_path):
    proc = subprocess.run([sys.executable, KGPY], input=b's::"\xe9t\xe9"\n#s\n',
                          capture_output=True, timeout=120, cwd=tmp_path,
                          env=dict(os.environ, PYTHONPATH=ROOT))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode("utf-8").split() == ['"\u00e9t\u00e9"', "3"]


def test_session_reads_chunks_line_by_line(k, capsys):
    from klong.frontends.replcommands import Session
    session = Session(k)
    for line in ["a::[1 2", "3 4]   :\" four numbers", "{x+", "1}'a  :\" plus one", "+/a"]:
        session.feed(line)
    assert capsys.readouterr().out.split("\n")[:3] == ["[1 2 3 4]", "[2 3 4 5]", "10"]
    assert not session.failed and session.pending == ""
