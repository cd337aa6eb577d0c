"""The embedding API (system.md B.3, B.4): results of k(src), k[name] get/set/del, Python
callables called from Klong, Klong functions called from Python, lazy torch import."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import klong
from klong import KlongError, KlongInterpreter
from klong.runtime.display import write
from conftest import host  # noqa: E402


# ---------------------------------------------------------------- k(src) results

def test_public_surface():
    assert klong.KlongInterpreter is KlongInterpreter
    assert klong.KlongError is KlongError
    assert isinstance(klong.__version__, str)
    assert issubclass(KlongError, Exception)


def test_help_of_the_package_says_what_it_is_and_where_to_start():
    import doctest
    doc = klong.__doc__
    assert doc.startswith("klong: the Klong array language in Python")
    for start in ("KlongInterpreter", "kgpy", "python -m klong.kernel install", "docs/"):
        assert start in doc
    result = doctest.testmod(klong, verbose=False, report=False)     # its example runs
    assert (result.failed, result.attempted) == (0, 5)


def test_interpreter_docstring_names_every_dtype():
    from klong.backends import DTYPES
    for dtype in DTYPES:
        assert f'"{dtype}"' in KlongInterpreter.__doc__, dtype


@pytest.mark.parametrize("src, value", [
    ("1+1", 2),
    ("a::5", 5),
    ("1;2;3", 3),
    ("2^100", 2 ** 100),
    ("-7", -7),
])
def test_integer_results(k, src, value):
    v = k(src)
    assert v == value
    assert isinstance(v, (int, np.integer))


def test_real_results(k):
    v = k("1.5")
    assert v == 1.5 and isinstance(v, (float, np.floating))
    assert k("4%2") == 2.0 and isinstance(k("4%2"), (float, np.floating))


def test_string_result(k):
    assert k('"abc"') == "abc"
    assert type(k('"abc"')) is str
    assert k('""') == ""
    assert k('"say ""hi"""') == 'say "hi"'


def test_char_and_symbol_results(k):
    c = k("0cx")
    assert isinstance(c, str) and str(c) == "x"
    s = k(":foo")
    assert isinstance(s, str) and str(s) == "foo"
    from klong.runtime.display import write
    assert write(s) == ":foo" and write(c) == "0cx"


def test_list_results_are_numpy_arrays(k):
    v = k("[1 2 3]")          # a numpy array, or a tensor on the torch backend
    assert isinstance(v, k.backend.array_type) and v.tolist() == [1, 2, 3]
    assert str(v.dtype).endswith("int64")
    v = k("[1.5 2.5]")
    assert isinstance(v, k.backend.array_type) and v.tolist() == [1.5, 2.5]
    assert str(v.dtype).endswith("float64")
    v = k("!5")
    assert str(v.dtype).endswith("int64") and v.tolist() == [0, 1, 2, 3, 4]
    v = k("[]")
    assert isinstance(v, np.ndarray) and v.size == 0 and v.dtype == np.float64


def test_mixed_and_nested_lists(k):
    v = k('[1 "a"]')
    assert isinstance(v, np.ndarray) and v.dtype == object
    assert v[0] == 1 and v[1] == "a"
    v = k('["a" "bc"]')
    assert v.dtype == object and list(v) == ["a", "bc"]
    v = k("[[1 2] [3]]")
    assert v.dtype == object and v[0].tolist() == [1, 2] and v[1].tolist() == [3]
    v = k("[[1 2] [3 4]]")
    assert host(v).tolist() == [[1, 2], [3, 4]]


def test_dict_results(k):
    assert k(":{[1 2]}") == {1: 2}
    assert k(":{}") == {}
    d = k(':{["a" [1 2]] [3 "b"]}')
    assert set(d) == {"a", 3}
    assert d["a"].tolist() == [1, 2] and d[3] == "b"


def test_empty_program_is_none(k):
    assert k("") is None
    assert k("   ") is None
    assert k(':"only a comment"') is None


def test_function_results_are_callable(k):
    f = k("{x*2}")
    assert callable(f)
    assert f(5) == 10


def test_errors_raise_klong_error(k):
    with pytest.raises(KlongError) as info:
        k("nosuch")
    assert info.value.kind == "undefined"
    assert "nosuch" in str(info.value)


def test_exit_raises_system_exit(k):
    with pytest.raises(SystemExit) as info:
        k(".x(1)")
    assert info.value.code == 1


def test_interpreters_are_independent():
    a, b = KlongInterpreter(), KlongInterpreter()
    a("v::1")
    b("v::2")
    assert a["v"] == 1 and b["v"] == 2
    with pytest.raises(KeyError):
        KlongInterpreter()["v"]


# ---------------------------------------------------------------- k[name] get / set / del

def test_get_values(k):
    k("a::5;b::[1 2];c::\"s\";d:::{[1 2]}")
    assert k["a"] == 5
    assert k["b"].tolist() == [1, 2]
    assert k["c"] == "s"
    assert k["d"] == {1: 2}
    assert k[".e"] == 1e-18


def test_get_missing_is_key_error(k):
    with pytest.raises(KeyError):
        k["nosuch"]


@pytest.mark.parametrize("value, src, printed", [
    (5, "v+1", "6"),
    (2.5, "v*2", "5.0"),
    (True, "v+1", "2"),
    ("hello", "#v", "5"),
    ("hello", "v", '"hello"'),
    ([1, 2, 3], "+/v", "6"),
    ((1, 2), "v", "[1 2]"),
    ([1, "a", [2, 3]], "v", '[1 "a" [2 3]]'),
    (np.arange(5), "+/v", "10"),
    (np.array([0.5, 1.5]), "v", "[0.5 1.5]"),
    (np.array([[1, 2], [3, 4]]), "v@1", "[3 4]"),
    (np.int64(3), "v+1", "4"),
    ({"a": 1, "b": [1, 2]}, 'v?"b"', "[1 2]"),
    ({1: {"y": 2}}, '(v?1)?"y"', "2"),
])
def test_set_values(k, kw, value, src, printed):
    k["v"] = value
    assert kw(src) == printed


def test_set_overrides_and_delete(k):
    k("a::1")
    k["a"] = 2
    assert k("a") == 2
    del k["a"]
    assert "a" not in k
    with pytest.raises(KlongError) as info:
        k("a")
    assert info.value.kind == "undefined"


def test_set_klong_values_round_trip(k):
    k["s"] = k(":foo")
    assert k("s~:foo") == 1
    k["c"] = k("0cx")
    assert k("c~0cx") == 1
    k["f"] = k("{x+1}")
    assert k("f(1)") == 2


# ---------------------------------------------------------------- bad values from Python

@pytest.mark.parametrize("source, message", [
    (1, "Klong source is text (str), not int"),
    (None, "Klong source is text (str), not NoneType"),
    (["1"], "Klong source is text (str), not list"),
    (b"1+1", "Klong source is text (str), not bytes: decode it first"),
])
def test_source_is_text(k, source, message):
    for run in (k, k.run, k.run_chunk):
        with pytest.raises(TypeError) as info:
            run(source)
        assert str(info.value) == message
    assert k("1+1") == 2


@pytest.mark.parametrize("name, error, message", [
    (None, TypeError, "a Klong variable is named by a str, not NoneType"),
    (1, TypeError, "a Klong variable is named by a str, not int"),
    ("", ValueError, "not a Klong name: ''"),
    ("a b", ValueError, "not a Klong name: 'a b'"),
    ("1a", ValueError, "not a Klong name: '1a'"),
    ("a`b`c", ValueError, "not a Klong name: 'a`b`c'"),
])
def test_a_variable_set_from_python_needs_a_klong_name(k, name, error, message):
    before = dict(k.globals)
    with pytest.raises(error) as info:
        k[name] = 1
    assert str(info.value) == message
    assert k.globals == before
    for good in ("a", "A1", ".v", "a.b"):
        k[good] = 7
        assert k(good) == 7


def test_a_list_or_dict_that_holds_itself_is_refused(k, kw):
    loop = [1, 2]
    loop.append(loop)
    ring = {"a": 1}
    ring["b"] = [ring]
    for value, kind in ((loop, "list"), (ring, "dict")):
        with pytest.raises(KlongError) as info:
            k["v"] = value
        assert str(info.value) == f"type error: a {kind} that holds itself has no Klong value"
    assert "v" not in k
    shared = [1, 2]
    k["v"] = [shared, (shared,), {"s": shared}]        # held twice, but not in itself
    assert kw("v") == '[[1 2] [[1 2]] :{["s" [1 2]]}]'


def test_unsigned_integers_beyond_int64_stay_exact(k, kw):
    k["u"] = np.array([2**64 - 1, 1], dtype=np.uint64)
    assert kw("u") == "[18446744073709551615 1]"
    assert kw("u+1") == "[18446744073709551616 2]"
    k["m"] = np.array([[2**63, 0], [1, 2]], dtype=np.uint64)
    assert kw("m") == "[[9223372036854775808 0] [1 2]]"
    k["s"] = np.array([5, 1], dtype=np.uint64)         # within int64: an array as before
    assert kw("s") == "[5 1]" and isinstance(k.run("s"), k.backend.array_type)


def test_complex_arrays_are_refused(k):
    with pytest.raises(KlongError) as info:
        k["c"] = np.array([1 + 2j, 3])
    assert str(info.value) == ("type error: an array of complex128 elements is not a Klong "
                               "list: Klong has no complex numbers")
    assert "c" not in k


def test_torch_tensors_of_complex_and_unsigned_64_bit_elements(kt):
    import torch
    with pytest.raises(KlongError) as info:
        kt["c"] = torch.tensor([1 + 2j, 3])
    assert str(info.value) == ("type error: an array of torch.complex64 elements is not a "
                               "Klong list: Klong has no complex numbers")
    kt["u"] = torch.tensor([2**64 - 1, 1], dtype=torch.uint64)
    assert write(kt.run("u")) == "[18446744073709551615 1]"
    kt["u"] = torch.tensor([3, 1], dtype=torch.uint64)
    assert write(kt.run("u")) == "[3 1]"


# ---------------------------------------------------------------- Python callables in Klong

def test_python_triad(k):
    k["f"] = lambda x, y, z: x * 1000 + y - z
    assert k("f(3;10;20)") == 2990


def test_python_nilad(k, kw):
    k["z0"] = lambda: 7
    assert k("z0()") == 7
    assert kw("z0") == ":nilad"


def test_python_arity_by_position(k, kw):
    k["g"] = lambda a, b: a - b          # names other than x, y, z
    assert k("g(10;3)") == 7
    assert k("10 g 3") == 7
    assert kw("g(;1)'[5 6]") == "[4 5]"
    assert kw("g") == ":dyad"
    k["h"] = lambda a: a
    assert kw("h") == ":monad"
    k["t"] = lambda a, b, c: [a, b, c]
    assert kw("t") == ":triad"
    assert kw("t(1;2;3)") == "[1 2 3]"


def test_python_callable_with_adverbs(k, kw):
    k["sq"] = lambda x: x * x
    assert kw("sq'[1 2 3]") == "[1 4 9]"
    k["add"] = lambda x, y: x + y
    assert kw("add/[1 2 3 4]") == "10"
    assert kw("add\\[1 2 3]") == "[1 3 6]"


def test_python_callable_receives_python_values(k):
    seen = []

    def spy(x):
        seen.append(x)
        return 0
    k["spy"] = spy
    k('spy("abc");spy([1 2]);spy(:{[1 2]});spy(1.5)')
    assert seen[0] == "abc"
    assert isinstance(seen[1], k.backend.array_type) and seen[1].tolist() == [1, 2]
    assert seen[2] == {1: 2}
    assert seen[3] == 1.5


def test_python_callable_results_converted(k, kw):
    k["mk"] = lambda: [1, 2, 3]
    assert kw("mk()") == "[1 2 3]"
    k["md"] = lambda: {"a": 1}
    assert kw('md()?"a"') == "1"
    k["mn"] = lambda: np.array([1.5, 2.0])
    assert kw("mn()") == "[1.5 2.0]"


def test_python_callable_klong_parameter(k):
    k["kk"] = lambda x, klong: klong("1+1") + x
    assert k("kk(5)") == 7


def test_python_callable_wrong_arity(k):
    k["one"] = lambda x: x
    with pytest.raises(KlongError) as info:
        k("one(1;2)")
    assert info.value.kind == "arity"


def test_python_exception_becomes_klong_error(k):
    k["bad"] = lambda x: 1 / 0
    with pytest.raises(KlongError):
        k("bad(1)")
    assert k("1+1") == 2


# ---------------------------------------------------------------- Klong functions from Python

def test_call_klong_function(k):
    k("sq::{x*x}")
    assert k["sq"](4) == 16
    assert k["sq"](np.array([1, 2])).tolist() == [1, 4]
    k("n::{42}")
    assert k["n"]() == 42
    k("add::{x+y}")
    assert k["add"](1, 2) == 3
    k("t::{x,y,z}")
    assert k["t"](1, 2, 3).tolist() == [1, 2, 3]
    k("f::{(x*1000)+y-z}")
    assert k["f"](3, 10, 20) == 2990


def test_call_klong_function_with_python_values(k):
    k("g::{x,y}")
    assert k["g"]("a", "b") == "ab"
    assert k["g"](1, [2, 3]).tolist() == [1, 2, 3]
    k("ln::{#x}")
    assert k["ln"]("hello") == 5
    assert k["ln"]([1, 2, 3]) == 3


def test_call_projection_from_python(k):
    k("p::{x-y}(;1)")
    assert k["p"](10) == 9


def test_call_klong_function_errors(k):
    k("add::{x+y}")
    with pytest.raises(KlongError) as info:
        k["add"](1)
    assert info.value.kind == "arity"
    k("bad::{x+\"a\"}")
    with pytest.raises(KlongError) as info:
        k["bad"](1)
    assert info.value.kind == "type"


def test_python_and_klong_calling_each_other(k):
    k("kf::{x*10}")
    kf = k["kf"]
    k["pf"] = lambda x: kf(x) + 1
    assert k("pf(4)") == 41


# ---------------------------------------------------------------- lazy imports

def test_import_does_not_import_torch(tmp_path, repo_root):
    # a stand-in torch package shadows any real one: importing it would be recorded
    fake = tmp_path / "fake"
    (fake / "torch").mkdir(parents=True)
    (fake / "torch" / "__init__.py").write_text("IMPORTED = True\n")
    code = textwrap.dedent("""
        import sys
        import klong
        k = klong.KlongInterpreter()
        assert k("+/!10") == 45
        print("torch" in sys.modules)
    """)
    env = {"PYTHONPATH": f"{fake}:{repo_root}", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


# ---------------------------------------------------------------- a line run again

AGAIN = ['1+2', '.comment("end")', 'f::{x%0}', 'f(1)', '{x+y}(1)', 'a::1', 'a',
         'undefinedname', '1:^"a"', "{x@2}'[[1 2 3] [4 5 6]]", "{x@5}'[[1 2 3] [4 5 6]]"]


def _ran(k, line):
    try:
        return "value", write(k(line))
    except KlongError as e:
        return "error", e.kind, str(e), e.line, e.filename, k.pending_comment


@pytest.mark.parametrize("codegen", [True, False])
def test_a_line_run_again_gives_what_it_gave_the_first_time(codegen):
    """k(line) called again runs the code kept for the line at once (KlongInterpreter.
    _run_kept): its value, or its error with the same line, the comment it opens left
    unclosed and the module it opens, as the first run gave them."""
    k = KlongInterpreter(codegen=codegen)
    for line in AGAIN:
        first = _ran(k, line)
        assert _ran(k, line) == first, line
        assert _ran(k, line) == first, line
    k("g::0")
    k(".module(:m)")
    assert [_ran(k, line) for line in ("g::1", "g", "g", "g::1")] == [("value", "1")] * 4
    k(".module(0)")
    assert [_ran(k, line) for line in ("g", "g")] == [("value", "1")] * 2
    assert _ran(k, '.comment("end")') == ("error", "syntax", "syntax error: undelimited "
                                          "comment: no line starts with 'end'", 1, None, None)
