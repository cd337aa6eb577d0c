"""Errors (language.md section 8): every failure is a KlongError with a kind; the state
before the failing statement is kept; no Python exception other than KlongError escapes."""
import os
import sys

import pytest

from klong import KlongError, KlongInterpreter
from klong.runtime.display import shown
from klong.errors import MESSAGE_WIDTH, SHOWN_WIDTH, from_python


@pytest.mark.parametrize("src, kind", [
    # syntax
    ("3 4", "syntax"),
    ("f::{x};f 2", "syntax"),
    ("f::{x};f[1 2]", "syntax"),
    ("(1;2)", "syntax"),
    (":[1;2]", "syntax"),
    ("1..2", "syntax"),
    ('"abc', "syntax"),
    (':"abc', "syntax"),
    ("[1 2", "syntax"),
    (":{[1 2]", "syntax"),
    ("{}", "syntax"),
    ("f::{x+y};f(;)", "syntax"),
    ("{x::1}", "syntax"),
    ("f::{x};1 f (2)", "syntax"),
    (":{[1 2 3]}", "syntax"),
    ("1+", "syntax"),
    ("{x+}", "syntax"),
    ("f(1;2;3;4)", "syntax"),
    ("0c", "syntax"),
    # undefined
    ("foo", "undefined"),
    ("foo(1)", "undefined"),
    ("{[a];a}()", "undefined"),
    ("1+nosuch", "undefined"),
    # arity
    ("{x}(1;2)", "arity"),
    ("{#x}@[1 2 3]", "arity"),
    ("{x+y}(1)", "arity"),
    ("{x}/[1 2 3]", "arity"),
    (".p(1;2)", "arity"),
    # type
    ('"a"+1', "type"),
    ('"abc"+1', "type"),
    ("a::5;a(1)", "type"),
    ("1.5{x}:*2", "type"),
    ("5@1", "type"),
    ("d:::{};d,[:{} 1]", "type"),
    # length
    ("[1 2]+[1 2 3]", "length"),
    ("[1 2 3]*[1 2]", "length"),
    # index / range
    ("[1 2]@5", "index"),
    ('"abc"@10', "index"),
    ("[1 2 3]:=[9 5]", "range"),
    (":#300", "domain"),
    # domain
    ("!-1", "domain"),
    # module
    (".module(0)", "module"),
    # I/O
    ('.ic("/nonexistent/file/x")', "io"),
    # recursion
    ("f::{f(x+1)};f(0)", "recursion"),
])
def test_error_kinds(kerr, src, kind):
    err = kerr(src)
    assert err.kind == kind
    assert err.message
    assert "\n" not in err.message


def test_index_or_range_family(kerr):
    # the spec's "range / index" kind: either name is acceptable
    assert kerr("[1 2]@-1").kind in ("index", "range")
    assert kerr("[[1 2]]:@[0 5]").kind in ("index", "range")


def test_not_errors(kw):
    assert kw("1%0") == ":undefined"
    assert kw("d:::{[1 2]};d?5") == ":undefined"
    assert kw("|5") == "5"
    assert kw("*5") == "5"
    assert kw(",:'5") == "5"


# ---------------------------------------------------------------- state after an error

def test_state_kept_after_error(k):
    with pytest.raises(KlongError) as info:
        k("a::1;foo;b::2")
    assert info.value.kind == "undefined"
    assert k["a"] == 1
    assert "b" not in k
    with pytest.raises(KeyError):
        k["b"]


def test_globals_survive_every_error_kind(k):
    k("keep::[1 2 3];f::{x*2};d:::{[1 2]}")
    for bad in ["3 4", "foo", "{x}(1;2)", '"a"+1', "[1 2]+[1 2 3]", "[1 2]@5",
                "rr::{rr(x+1)};rr(0)", "!-1", ".module(0)"]:
        with pytest.raises(KlongError):
            k(bad)
    assert k("keep") .tolist() == [1, 2, 3]
    assert k("f(21)") == 42
    assert k("d?1") == 2


def test_assignment_inside_failing_function_kept(k):
    with pytest.raises(KlongError):
        k("g::{a::x;foo};g(5)")
    assert k["a"] == 5


def test_dictionary_mutation_kept_after_error(k):
    k("d:::{}")
    with pytest.raises(KlongError):
        k("d,[1 2];foo;d,[3 4]")
    assert k("#d") == 1


def test_output_before_error_kept(k, capsys):
    with pytest.raises(KlongError):
        k('.p("one");[1 2]+[1 2 3];.p("two")')
    assert capsys.readouterr().out == "one\n"


def test_locals_restored_after_error(k):
    k("a::1")
    with pytest.raises(KlongError):
        k("{[a];a::2;foo}()")
    assert k["a"] == 1


def test_module_state_after_error(k):
    # an error inside an open module closes it: no module is left open, none nests
    k(".module(:m)")
    with pytest.raises(KlongError) as info:
        k("foo")
    assert "module m closed" in info.value.message
    with pytest.raises(KlongError, match="no module is open"):
        k(".module(0)")
    assert k(".module(:n);.module(0)") == 0


def test_interpreter_usable_after_recursion_error(k):
    with pytest.raises(KlongError) as info:
        k("f::{f(x+1)};f(0)")
    assert info.value.kind == "recursion"
    assert k("{:[x<2;x;.f(x-1)+.f(x-2)]}(15)") == 610
    assert k("+/!100") == 4950


def test_deep_but_finite_recursion(k):
    assert k("f::{:[x=0;0;1+f(x-1)]};f(1000)") == 1000


def test_the_recursion_limit_is_given_back():
    """Deep Klong recursion raises Python's recursion limit only while it runs: the program
    embedding klong keeps its own, after a value, an error, a nested call and a callback."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(1500)
    try:
        k = KlongInterpreter()
        assert sys.getrecursionlimit() == 1500
        k["limit"] = lambda: sys.getrecursionlimit()
        assert k("f::{:[x=0;0;1+f(x-1)]};f(1000)") == 1000
        assert sys.getrecursionlimit() == 1500
        assert k("limit()") == 12000                # raised while Klong runs
        assert k["f"](900) == 900
        assert sys.getrecursionlimit() == 1500
        k["inner"] = lambda x: k["f"](x) + k("f(10)")
        assert k("inner(800)") == 810
        with pytest.raises(KlongError) as info:
            k("g::{g(x+1)};g(0)")
        assert info.value.kind == "recursion"
        assert sys.getrecursionlimit() == 1500
    finally:
        sys.setrecursionlimit(before)


def test_error_located_on_line(k):
    with pytest.raises(KlongError) as info:
        k.run("a::1\nb::2\nnosuch\nc::3")
    err = info.value
    assert err.kind == "undefined" and err.line == 3
    assert "c" not in k and k["b"] == 2


def test_error_str(kerr):
    err = kerr("foo")
    assert "undefined" in str(err)
    assert "foo" in str(err)


# ---------------------------------------------------------------- nothing else escapes

BAD_INPUTS = [
    # section 8 examples
    "3 4", "f 2", "f[1 2]", "(1;2)", ":[1;2]", "1..2", '"abc', ':"abc', "[1 2", "{}", "f(;)",
    "{x::1}", "1 f (2)", "+/\\x", ":{[1 2 3]}", "foo", "{[a];a}()", "{x}(1;2)", "{#x}@[1 2 3]",
    '"a"+1', "a::5;a(1)", "1.5{x}:*2", "[1 2]+[1 2 3]", "[1 2]@5", "!-1", ":#300",
    ".module(0)", "f::{f(x+1)};f(0)",
    # other unsuitable values
    "1+", "{x+}", "foo(1)", '"abc"+1', '"abc"@10', ")", "}", "]", ":|", ":=", "@", "1:a",
    "a::1;a:2", "{x}:(1", "(1", "{1", ":[1;2;3", "[1 2]@1.5", "[1 2]@\"a\"", ":{[1 2]}@1",
    "0c0@1", "{x}@[]", "3:@[1]", "[1.5]:^!4", "1.5_[1 2]", "1.5#[1 2]", "5:_[1 2]", "%\"a\"",
    "_\"a\"", "!1.5", "&-1", "<5", "=5", "?5", "(1%0)+1", "\"abc\":$5", "[]:#5", "7:%0",
    ".E(5)", ".rs(5)", ".l(5)", ".ic(5)", ".fc(5)", ".tc(5)", ".cc(5)", ".module(5)",
    ".comment(5)", ".p()", ".x(1;2)", "{x}'", "'", "/", "1 ` 2", "f::+", "0c", "1e", "0x",
    "{x}(1)(2)", "(f)(1)", "x'", "1{x}", "{[a b]", "{[1];1}()",
]


@pytest.mark.parametrize("src", BAD_INPUTS)
def test_only_klong_errors_escape(src):
    k = KlongInterpreter()
    try:
        k(src)
    except KlongError as e:
        assert e.kind and e.kind != "internal", (src, e.kind, e.message)
        assert isinstance(e.message, str) and "\n" not in e.message


# ---------------------------------------------------------------- the proper kind, never "internal"

@pytest.mark.parametrize("src, kind", [
    ("_!0", "type"),                         # an empty array is [], no number
    (":#!0", "type"),
    ("-!0", "type"),
    ('"xyz"$!0', "type"),
    ("(!0)=!0", "type"),
    ("a::1.0;8:>a", "type"),                 # the operands of :> swapped
    ("{x^2}:>10^400", "range"),              # a point no real can hold
    (".jacobian({x^2};10^400)", "range"),
    ("!10^30", "range"),                     # more elements than the size guard allows
    ("(-10^400)#[1 2 3]", "range"),
    ("(10^400):^[1 2 3]", "range"),
    ("(10^400)+0.5", "range"),
    ("1e400", "range"),                      # a real literal beyond float64 (docs: numbers)
    ('1.0:$"1e400"', "range"),
    ("40{x*x}:*3", "range"),                 # an integer of more than MAX_INT_BITS bits
    ("2^10^9", "range"),
])
def test_proper_kind_for_former_internal_errors(kerr, src, kind):
    err = kerr(src)
    assert err.kind == kind, err.message
    assert len(err.message.splitlines()) == 1


def test_empty_array_is_an_atom_for_atomic_verbs(kw):
    assert kw("$!0") == ":undefined"         # as $[]
    assert kw("~!0") == "1"


def test_nesting_deeper_than_arrays_allow(kw):
    # numpy arrays have at most 64 axes; deeper lists are lists of arrays on every backend
    assert kw("65{,x}:*1") == "[" * 65 + "1" + "]" * 65
    assert kw("*65{,x}:*[1 2]") == "[" * 65 + "1 2" + "]" * 65
    assert kw("(70#[1]):^7") == "[" * 70 + "7" + "]" * 70


def test_write_to_a_full_device_is_an_io_error(k):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    k('c::.oc("/dev/full");.tc(c)')
    with pytest.raises(KlongError) as info:
        k(".d(!100000);.fl()")
    assert info.value.kind == "io"
    k(".tc(0)")
    assert k("1+1") == 2


def test_python_machine_errors_are_klong_errors():
    assert from_python(OverflowError("x")).kind == "range"
    assert from_python(MemoryError()).kind == "range"
    err = from_python(OSError(28, "No space left on device"))
    assert err.kind == "io" and err.message == "No space left on device"
    assert from_python(UnicodeDecodeError("utf-8", b"\xe9", 0, 1, "invalid")).kind == "io"
    assert from_python(ValueError("x")) is None          # a bug: stays "internal"


# ---------------------------------------------------------------- one line

@pytest.mark.parametrize("src", [
    "v[[1 2][3 4]]", "^[[]][4 5[[1 2][3 4]]]", "1:\n2", "a:\n", "1+[[1 2] [3 4]] 5",
    '"abc" [[1 2][3 4]]',
])
def test_syntax_messages_are_one_line(kerr, src):
    err = kerr(src)
    assert err.kind == "syntax"
    assert len(err.message.splitlines()) == 1 and err.message == err.message.strip()
    assert "array(" not in err.message
    assert len(err.report().splitlines()) == 3          # message, source line, caret


def test_report_lines_stay_three_with_odd_blanks(kerr):
    err = kerr("1\r+\t)")
    lines = err.report().splitlines()
    assert len(lines) == 3 and lines[1] == "1 + )" and lines[2] == "    ^"


@pytest.mark.parametrize("src, lines", [
    ("\x04", ["syntax error: unexpected character '\\x04'", "\\x04", "^"]),
    ("1+\x07+2", ["syntax error: unexpected character '\\x07'", "1+\\x07+2", "  ^"]),
    ("\x01+\x04", ["syntax error: unexpected character '\\x01'", "\\x01+\\x04", "^"]),
    ("a::1;\x00", ["syntax error: unexpected character '\\x00'", "a::1;\\x00", "     ^"]),
])
def test_a_control_character_is_shown_escaped_with_the_caret_under_it(kerr, src, lines):
    assert kerr(src).report().splitlines() == lines


def test_caret_moves_past_escaped_characters_before_it(kerr):
    # the stray character is in a string, where it is allowed; the error comes after it
    report = kerr('"a\x04b" 1').report().splitlines()
    assert report[1:] == ['"a\\x04b" 1', "         ^"]     # under the 1


def test_the_source_line_is_taken_from_the_chunk_once():
    err = KlongError("type", "x", line=3).in_chunk("a\nb\nc\nd", line_offset=1)
    assert err.source_line == "b"
    assert err.in_chunk("other\nlines\nhere", line_offset=1).source_line == "b"  # kept
    assert KlongError("type", "x", line=9).in_chunk("a\nb").source_line is None
    assert KlongError("type", "x", line=1).in_chunk("a\nb", line_offset=3).source_line is None


@pytest.mark.parametrize("codegen", [True, False])
@pytest.mark.parametrize("src, message", [
    ("sqrt(4)", 'sqrt is not defined (the backend has it: import it with .bkf("sqrt"), '
                'or write x^0.5)'),
    ("exp(1)", 'exp is not defined (the backend has it: import it with .bkf("exp"))'),
    ("{tanh(x)}(0)", 'tanh is not defined (the backend has it: import it with .bkf("tanh"))'),
    ("size", "size is not defined"),          # numpy's size is no elementwise function
    ("sqr::2;sqrr", "sqrr is not defined (did you mean sqr?)"),
])
def test_a_backend_math_function_not_imported_points_to_bkf(backend, codegen, src, message):
    k = KlongInterpreter(backend=backend, codegen=codegen)
    with pytest.raises(KlongError) as e:
        k(src)
    assert (e.value.kind, e.value.message) == ("undefined", message)
    k('.bkf("sqrt")')
    assert k("sqrt(4)") == 2.0


def test_unexpected_token_is_shown_as_written(kerr):
    assert kerr("^[[]][4 5[[1 2][3 4]]]").message == "unexpected [4 5[[1 2][3 4]]]"


def test_message_made_one_line_whoever_raises():
    err = KlongError("type", "first\nsecond\r\n  third\u2028fourth")
    assert err.message == "first second third fourth"
    assert str(err) == "type error: first second third fourth"
    long = KlongError("type", "x" * 1000)
    assert len(long.message) == MESSAGE_WIDTH and long.message.endswith("...")


def test_values_in_messages_are_short_written_forms():
    import numpy as np
    assert shown(np.array([[1, 2], [3, 4]])) == "[[1 2] [3 4]]"
    assert shown("a\nb") == '"a b"'
    text = shown(np.arange(1000))
    assert len(text) == SHOWN_WIDTH and text.endswith("...")


def test_long_source_line_cut_around_the_caret(kerr):
    src = "1+" * 200 + ")" + "1+" * 200 + "1"
    err = kerr(src)
    assert err.column == 401
    report = err.report().splitlines()
    assert len(report) == 3
    assert len(report[1]) <= 100 and report[1].startswith("...") and report[1].endswith("...")
    assert report[1][report[2].index("^")] == ")"


# ---------------------------------------------------------------- kgpy survives any value

def run_kgpy(*args, **options):
    from test_cli import kgpy
    return kgpy(*args, **options)


@pytest.mark.parametrize("expr, rc, out, err", [
    ("-x", 1, "", "undefined error: x is not defined\n"),     # not taken for an option
    ("-[]", 1, "", "type error: negate []: number expected\n"),
    ("--1", 0, "1\n", ""),
    ("-1", 0, "-1\n", ""),
])
def test_expression_may_start_with_a_minus(expr, rc, out, err):
    r = run_kgpy("-e", expr)
    assert (r.returncode, r.stdout, r.stderr) == (rc, out, err)


def test_program_arguments_after_the_file_stay_the_programs(tmp_path):
    script = tmp_path / "args.kg"
    script.write_text(".p(.a)\n")
    r = run_kgpy(str(script), "-e", "-x")
    assert r.stdout == '[-e -x]\n' and r.returncode == 0


@pytest.mark.parametrize("expr, digits", [("10^5000", 5001), ("2^20000", 6021)])
def test_huge_integers_print(expr, digits):
    r = run_kgpy("-e", expr)
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.strip()) == digits
    r = run_kgpy("-e", f".p({expr});1")
    assert r.returncode == 0 and len(r.stdout.split("\n")[0]) == digits


def test_piped_session_survives_a_huge_value():
    r = run_kgpy(stdin="a::7\n10^5000\n3^9999\na+1\n")
    lines = r.stdout.splitlines()
    assert lines[1] == "1" + "0" * 5000 and len(lines[2]) == 4771        # 3^9999
    assert lines[-1] == "8" and r.returncode == 0 and "Traceback" not in r.stderr


def test_prompt_prints_inside_the_error_guard(capsys):
    from klong.frontends.replcommands import Session
    k = KlongInterpreter()
    session = Session(k)
    session.feed("x::10^5000")
    assert capsys.readouterr().out == "1" + "0" * 5000 + "\n"
    assert k("x=10^5000") == 1


def test_prompt_survives_a_value_that_fails_to_print(capsys, monkeypatch):
    from klong.frontends.replcommands import Session
    k = KlongInterpreter()
    session = Session(k)
    monkeypatch.setattr(Session, "show", lambda self, value: 1 / 0)
    session.feed("a::5")
    monkeypatch.undo()
    assert session.failed and "internal error: ZeroDivisionError" in capsys.readouterr().err
    session.feed("a+1")
    assert capsys.readouterr().out == "6\n"


def test_script_that_is_not_utf8_gives_no_traceback(tmp_path):
    script = tmp_path / "latin.kg"
    script.write_bytes(b'.p("caf\xe9")\n')
    r = run_kgpy(str(script))
    assert "Traceback" not in r.stderr
    assert r.stderr.count("\n") <= 1


def test_printing_to_a_full_device(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    import subprocess
    import sys
    from test_cli import KGPY, ROOT
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, str(KGPY), "-e", "1+1"], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=120,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 1
    assert r.stderr.startswith("io error: ") and "Traceback" not in r.stderr


def test_klong_functions_called_from_python_raise_only_klong_errors(monkeypatch):
    k = KlongInterpreter()
    k("f::{x+1}")
    f = k["f"]
    assert f(1) == 2
    with pytest.raises(KlongError) as info:
        f("a")
    assert info.value.kind == "type"

    def broken(self, args):
        raise MemoryError()
    monkeypatch.setattr(type(k.globals["f"]), "call", broken)
    with pytest.raises(KlongError) as info:
        f(1)
    assert info.value.kind == "range" and info.value.message == "out of memory"


def test_dictionary_with_nested_list_keys_reaches_python(k):
    assert k(':{[[[]] 2]}') == {((),): 2}
    assert k(':{[[[1 2] [3 4]] 5] [[1 [2 3]] 6]}') == {((1, 2), (3, 4)): 5, (1, (2, 3)): 6}


@pytest.mark.parametrize("exc", [
    MemoryError(),
    # torch's words for an allocation that failed, on the CPU and on CUDA (found by fuzz.py
    # under a memory limit: {(#x)<51000}{1,x}\~1)
    RuntimeError("[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't "
                 "allocate memory: you tried to allocate 237936 bytes. Error code 12"),
    RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB"),
])
def test_failed_allocations_are_range_errors(exc):
    from klong.errors import as_klong_error
    assert str(as_klong_error(exc)) == "range error: out of memory"
    assert as_klong_error(RuntimeError("something else")).kind == "internal"
