"""System functions and variables (system.md part A): channels and file I/O, reading,
.rs, .df, .l with KLONGPATH, .E, .sys, .x and the system variables."""
import os

import pytest

from klong import KlongError, KlongInterpreter


def q(text):
    """A Python string as a Klong string literal."""
    return '"' + str(text).replace('"', '""') + '"'


# ---------------------------------------------------------------- writing and reading files

def test_write_and_read_back(tmp_path, k, kw):
    f = tmp_path / "t.txt"
    k(f"f::{q(f)}")
    assert kw('.tc(.oc(f));.w([1 "two" 0c3]);.cc(.tc(0))') == "[]"
    assert f.read_text() == '[1 "two" 0c3]'
    assert kw(".fc(.ic(f));.r()") == '[1 "two" 0c3]'
    assert kw(".r()") == ":eof"
    assert kw(".mi(0)") == "0"


@pytest.mark.parametrize("value", [
    "42", "-7", "2.5", "1.0e+18", '"say ""hi"""', "0cx", "0c ", ":sym", "[]", '""',
    "[1 [2 [3]] \"s\" :t 0cu 4.5]", "[-5 -1.5]", ":{[1 2] [\"a\" [3 4]]}", ":{}",
])
def test_round_trip_values(tmp_path, k, kw, value):
    f = tmp_path / "rt.txt"
    k(f"f::{q(f)};v::{value}")
    k(".tc(.oc(f));.w(v);.cc(.tc(0))")
    assert f.read_text() == value
    if not value.startswith("-"):    # a negative number alone need not read back (system.md .r)
        assert kw(".fc(.ic(f));r::.r();.fc(0);r") == value
        assert kw("r~v") == "1"


def test_output_goes_to_file_not_stdout(tmp_path, k, capsys):
    f = tmp_path / "o.txt"
    k(f'.tc(.oc({q(f)}));.p("hello");.d(1);.w("x");.p("");.cc(.tc(0))')
    assert capsys.readouterr().out == ""
    assert f.read_text() == 'hello\n1"x"\n'


def test_tc_returns_previous_channel(tmp_path, kw):
    f = tmp_path / "o.txt"
    assert kw(f".tc(.oc({q(f)}))") == ":outchan.1"
    assert kw(".tc(0)").startswith(":outchan.")


def test_fc_returns_previous_channel(tmp_path, kw):
    f = tmp_path / "i.txt"
    f.write_text("1\n")
    assert kw(f".fc(.ic({q(f)}))") == ":inchan.0"
    assert kw(".fc(0)").startswith(":inchan.")
    assert kw(".fc(0)") == ":inchan.0"


def test_oc_truncates_and_ac_appends(tmp_path, k):
    f = tmp_path / "a.txt"
    f.write_text("123")
    k(f".tc(c::.ac({q(f)}));.d(456);.cc(.tc(0))")
    assert f.read_text() == "123456"
    k(f".tc(c::.oc({q(f)}));.d(7);.cc(.tc(0))")
    assert f.read_text() == "7"


def test_r_reads_one_object_per_line(tmp_path, kw):
    f = tmp_path / "r.txt"
    f.write_text('1 2\n3\n:{[1 2]}\n"ab"\n[-5 3]\n  [1\n 2]\n1+2\n')
    kw(f".fc(.ic({q(f)}))")
    got = [kw(".r()") for _ in range(8)]
    assert got == ["1", "3", ":{[1 2]}", '"ab"', "[-5 3]", "[1 2]", "1", ":eof"]
    assert kw(".mi(0)") == "0"


def test_rl_reads_lines(tmp_path, kw):
    f = tmp_path / "l.txt"
    f.write_text("line one\nline two  \n")
    kw(f".fc(.ic({q(f)}))")
    assert kw(".rl()") == '"line one"'
    assert kw(".rl()") == '"line two  "'         # trailing blanks kept
    assert kw(".mi(0)") == "1"
    assert kw(".rl()") == '""'
    assert kw(".mi(0)") == "0"


def test_rl_last_line_without_terminator(tmp_path, kw):
    f = tmp_path / "m.txt"
    f.write_text("a\nb")
    kw(f".fc(.ic({q(f)}))")
    assert kw(".rl()") == '"a"'
    assert kw(".mi(0)") == "1"
    assert kw(".rl()") == '"b"'
    assert kw(".mi(0)") == "0"


def test_rls_reads_all_lines(tmp_path, kw):
    f = tmp_path / "l.txt"
    f.write_text("one\ntwo\n\nfour\n")
    kw(f".fc(.ic({q(f)}))")
    assert kw(".mi(0)") == "1"
    assert kw(".rls()") == '["one" "two" "" "four"]'
    assert kw(".mi(0)") == "0"


def test_rls_on_empty_file(tmp_path, kw):
    f = tmp_path / "e.txt"
    f.write_text("")
    kw(f".fc(.ic({q(f)}))")
    assert kw(".rls()") == "[]"
    assert kw(".rl()") == '""'
    assert kw(".mi(0)") == "0"


def test_copy_file_idiom(tmp_path, k, kw, capsys):
    f = tmp_path / "c.txt"
    f.write_text("one\ntwo\nthree")
    k("cat::{.mi{.p(x);.rl()}:~.rl()}")
    assert kw(f".fc(.ic({q(f)}));cat()") == '"three"'
    assert capsys.readouterr().out == "one\ntwo\n"


def test_mi_arity(kerr):
    assert kerr(".mi()").kind == "arity"
    assert kerr(".rl(1)").kind == "arity"
    assert kerr(".r(1)").kind == "arity"


def test_channel_errors(tmp_path, k, kerr):
    assert kerr(f".ic({q(tmp_path / 'missing.txt')})").kind == "io"
    assert kerr(f".oc({q(tmp_path / 'no' / 'dir.txt')})").kind == "io"
    assert kerr(".fc(.cout)").kind == "type"
    assert kerr(".tc(.cin)").kind == "type"
    assert kerr(".cc(5)").kind == "type"
    assert kerr(".ic(5)").kind == "type"


def test_close_channel(tmp_path, k, kw, kerr):
    f = tmp_path / "o.txt"
    assert kw(f"c::.oc({q(f)});.cc(c)") == "[]"
    assert kw(".cc(c)") == "[]"                     # closing twice does nothing
    assert kw(".cc(.cout)") == "[]"                 # standard channels stay open
    assert kerr(f"c::.oc({q(f)});.tc(c);.cc(c);.w(1)").kind == "io"
    assert kw(".tc(0)").startswith(":outchan.")    # hands back the closed channel


def test_flush(kw):
    assert kw(".fl()") == "[]"


# ---------------------------------------------------------------- .rs

@pytest.mark.parametrize("text, printed", [
    ("[1 2 3]", "[1 2 3]"),
    ('"abc"', '"abc"'),
    ("1.5e3", "1500.0"),
    (":foo", ":foo"),
    ("  12  ", "12"),
    ("[-5]", "[-5]"),
    (":{[1 2]}", ":{[1 2]}"),
    ("0cx", "0cx"),
    ('[1 "a" :b 0cx 2.5 [3]]', '[1 "a" :b 0cx 2.5 [3]]'),
])
def test_read_string(kw, text, printed):
    assert kw(f".rs({q(text)})") == printed


@pytest.mark.parametrize("text, printed, kind", [
    # lists of integers are read by the array library in one call: the same values,
    # 64-bit where they fit and Python integers beyond
    ("[1 -2\t3\n007 -0]", "[1 -2 3 7 0]", "int"),
    ("[123456789012345678 -123456789012345678]",
     "[123456789012345678 -123456789012345678]", "int"),
    ("[9223372036854775807 -9223372036854775808]",
     "[9223372036854775807 -9223372036854775808]", "int"),
    ("[9223372036854775808 1]", "[9223372036854775808 1]", "list"),
    ("[1 99999999999999999999999999]", "[1 99999999999999999999999999]", "list"),
    ("[1-2 3]", "[1 -2 3]", "int"),
    ("[1 2.5]", "[1 2.5]", "list"),
])
def test_read_string_integer_lists(k, kw, text, printed, kind):
    assert kw(f"v::.rs({q(text)})") == printed
    assert kw("v") == kw(text)                       # as the same literal in a program
    value = k.run("v")                               # the Klong value, not converted
    if kind == "int":
        assert str(value.dtype).endswith("int64")
    else:
        assert type(value) is list


@pytest.mark.parametrize("text", ["[- 1]", "[--1]", "[1 2", "[1 2]]"])
def test_read_string_not_a_list_of_numbers(k, text):
    assert k(f":_.rs({q(text)})") == 1


def test_read_string_inverts_write(tmp_path, k, kw):
    f = tmp_path / "w.txt"
    k('v::[1 2.5 "x" 0cy :z [[]] :{[1 [2]]} -3]')
    k(f"f::{q(f)};.tc(.oc(f));.w(v);.cc(.tc(0))")
    assert kw(".fc(.ic(f));t::.rl();.fc(0);.rs(t)~v") == "1"
    assert kw("t") == q('[1 2.5 "x" 0cy :z [[]] :{[1 [2]]} -3]')


def test_read_string_needs_a_string(kerr):
    assert kerr(".rs(5)").kind == "type"


@pytest.mark.parametrize("text", ["", "   "])
def test_read_string_empty(k, text):
    assert k(f":_.rs({q(text)})") == 1


# ---------------------------------------------------------------- .df

def test_delete_file(tmp_path, kw, kerr):
    f = tmp_path / "out.txt"
    f.write_text("x")
    assert kw(f".df({q(f)})") == q(f)
    assert not f.exists()
    assert kerr(f".df({q(f)})").kind == "io"
    assert kerr(f".df({q(tmp_path)})").kind == "io"


# ---------------------------------------------------------------- .l and KLONGPATH

@pytest.fixture
def libdir(tmp_path):
    d = tmp_path / "kp"
    d.mkdir()
    (d / "mylib.kg").write_text("sq::{x*x}\nsq(7)\n")
    (d / "empty.kg").write_text("")
    (d / "plain").write_text("plain::1\n2\n")
    (d / "mod.kg").write_text('.comment("EOC")\nlibrary doc "\nEOC\n'
                              ".module(:mod)\nhidden::5\nshow::{hidden}\n.module(0)\n")
    return d


def test_load_through_klongpath(libdir, monkeypatch, in_tmp):
    monkeypatch.setenv("KLONGPATH", str(libdir))
    k = KlongInterpreter()
    assert k('.l("mylib")') == 49
    assert k("sq(3)") == 9
    assert k('.l("mylib.kg")') == 49
    assert k('.l("plain")') == 2
    assert k('.l("empty")').size == 0


def test_load_module_library(libdir, monkeypatch, in_tmp):
    monkeypatch.setenv("KLONGPATH", str(libdir))
    k = KlongInterpreter()
    k('.l("mod")')
    assert k("show()") == 5
    k("hidden::0")
    assert k("show()") == 5


def test_load_search_order(libdir, tmp_path, monkeypatch, in_tmp):
    other = tmp_path / "other"
    other.mkdir()
    (other / "mylib.kg").write_text("1000\n")
    monkeypatch.setenv("KLONGPATH", f"::{other}:{libdir}:")
    k = KlongInterpreter()
    assert k('.l("mylib")') == 1000


def test_load_no_current_dir_fallback(libdir, monkeypatch, in_tmp, kerr):
    (in_tmp / "here.kg").write_text("cwd::1\n")
    monkeypatch.setenv("KLONGPATH", str(libdir))
    k = KlongInterpreter()
    with pytest.raises(Exception) as info:
        k('.l("here")')
    assert getattr(info.value, "kind", None) == "io"
    assert k('.l("./here")') == 1


def test_load_empty_klongpath(libdir, monkeypatch, in_tmp):
    monkeypatch.setenv("KLONGPATH", "")
    k = KlongInterpreter()
    with pytest.raises(Exception) as info:
        k('.l("mylib")')
    assert getattr(info.value, "kind", None) == "io"


def test_load_default_klongpath(monkeypatch, in_tmp):
    monkeypatch.delenv("KLONGPATH", raising=False)
    (in_tmp / "lib").mkdir()
    (in_tmp / "lib" / "lf.kg").write_text("lf::42\n")
    (in_tmp / "here.kg").write_text("here::1\n")
    k = KlongInterpreter()
    assert k('.l("here")') == 1
    assert k('.l("lf")') == 42
    assert k("lf") == 42


def test_load_absolute_path(libdir):
    k = KlongInterpreter()
    assert k(f'.l({q(libdir / "mylib")})') == 49


def test_load_runs_at_global_level(libdir, monkeypatch, in_tmp):
    monkeypatch.setenv("KLONGPATH", str(libdir))
    k = KlongInterpreter()
    assert k('g::{[sq];.l("mylib");0};g()') == 0
    assert k("sq(4)") == 16


def test_load_errors(libdir, monkeypatch, in_tmp, tmp_path):
    (libdir / "bad.kg").write_text("ok::1\nfoo\nnever::1\n")
    monkeypatch.setenv("KLONGPATH", str(libdir))
    k = KlongInterpreter()
    for src, kind in [('.l("nope")', "io"), (".l(5)", "type"), ('.l("bad")', "undefined")]:
        with pytest.raises(Exception) as info:
            k(src)
        assert getattr(info.value, "kind", None) == kind
    assert k("ok") == 1
    assert "never" not in k


# ---------------------------------------------------------------- .E

@pytest.mark.parametrize("src, printed", [
    ('.E("1+2")', "3"),
    ('.E("a::123");a', "123"),
    ('.E("f::{x*3}");f(2)', "6"),
    ('.E("1;2")', "2"),
    ('.E("")', ":eof"),
    ('q::0;{[q];q::1;.E("q")}()', "0"),
    ('{[q];q::1;.E("q::5");q}()', "1"),
    ('{[q];q::1;.E("q::5");q}();q', "5"),
])
def test_eval(kw, src, printed):
    assert kw(src) == printed


def test_eval_errors_propagate(kerr):
    assert kerr('.E("1+")').kind == "syntax"
    assert kerr('.E("nosuch")').kind == "undefined"
    assert kerr(".E(5)").kind == "type"


# ---------------------------------------------------------------- .sys, .x

@pytest.mark.parametrize("cmd, status", [("true", "0"), ("false", "256"), ("exit 3", "768")])
def test_sys_status(kw, cmd, status):
    assert kw(f".sys({q(cmd)})") == status


def test_sys_uses_shell(tmp_path, kw):
    f = tmp_path / "s.txt"
    assert kw(f'.sys("echo hi > {f}")') == "0"
    assert f.read_text() == "hi\n"


@pytest.mark.parametrize("arg, code", [("0", 0), ("3", 1), ('""', 0), ("[]", 0), ("1", 1),
                                       (":foo", 1)])
def test_exit(k, arg, code):
    with pytest.raises(SystemExit) as info:
        k(f".x({arg})")
    assert info.value.code == code


# ---------------------------------------------------------------- system variables (A.2)

@pytest.mark.parametrize("src, printed", [
    (".a", "[]"),
    (".h", ":unix"),
    (".e", "0.000000000000000001"),
    ("(1+.e)=1", "1"),
    ("%.e", "1.0e+18"),
    (".f", "[]"),
    (".cin", ":inchan.0"),
    (".cout", ":outchan.1"),
    (".cerr", ":outchan.2"),
    (".helpdb", "[]"),
    (".pc()>0", "1"),
    ("@.pc()", "1"),
    ("r::.rn();(r<1)&~r<0", "1"),
])
def test_system_variables(kw, src, printed):
    assert kw(src) == printed


def test_cols(kw):
    assert kw(".cols") == "80"


def test_system_names_present_in_fresh_interpreter(k):
    for name in (".p", ".d", ".w", ".ic", ".oc", ".ac", ".fc", ".tc", ".cc", ".r", ".rl",
                 ".rls", ".mi", ".rs", ".l", ".E", ".df", ".sys", ".x", ".a", ".e", ".h"):
        assert name in k, name


def test_long_list_round_trip(tmp_path, k, kw):
    # suite regression case: a long line must read back whole
    k(f"a::!8192;f::{q(tmp_path / 'test.tmp')}")
    k(".tc(.oc(f));.w(a);.cc(.tc(0))")
    assert kw(".fc(.ic(f));r::.r();.fc(0);r~a") == "1"


# ---------------------------------------------------------------- encodings of input

def test_channels_read_latin1_and_utf8(tmp_path, kw):
    f = tmp_path / "mixed.txt"
    f.write_bytes('"caf\u00e9"\n'.encode("utf-8") + b'"\xb1 1"\n' + b"last \xd7 line\n")
    kw(f".fc(.ic({q(f)}))")
    assert kw(".r()") == '"caf\u00e9"'
    assert kw(".r()") == '"\u00b1 1"'
    assert kw(".rl()") == '"last \u00d7 line"'
    kw(f".fc(.ic({q(f)}))")
    assert kw("#.rls()") == "3"


def test_load_latin1_file(tmp_path, k):
    f = tmp_path / "old.kg"
    f.write_bytes(b':"\xa9 1990"\ns::"\xe9t\xe9"\n#s\n')
    assert k(f".l({q(f)})") == 3
    assert k("s") == "\u00e9t\u00e9"


# ---------------------------------------------------------------- .comment leaves no state

def test_failed_chunk_with_comment_leaves_no_comment_open(k):
    with pytest.raises(KlongError):
        k('.comment("END");1+"a"')
    assert k("1+1") == 2


def test_comment_without_end_marker_names_its_line(k):
    with pytest.raises(KlongError) as info:
        k('a::1\n.comment("END")\nnot klong " at all\n')
    assert info.value.line == 2 and "END" in info.value.message
    assert k("a") == 1 and k("2+2") == 4


def test_comment_in_a_loaded_file_does_not_reach_the_caller(tmp_path, k):
    f = tmp_path / "c.kg"
    f.write_text('.comment("END")\nskipped\nEND\nv::1\n')
    assert k(f'.l({q(f)});v+1') == 2


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_a_backend_function_gives_inf_and_nan_without_a_warning(backend):
    """numpy warns of log(0.0) and 1%0.0 on standard error; torch does not: a Klong program
    gets the same -inf, inf and nan on both, and nothing printed beside them."""
    import warnings
    pytest.importorskip(backend)
    k = KlongInterpreter(backend=backend)
    k('.bkf(["log" "reciprocal" "sqrt"])')
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert [str(k(src)) for src in ("log(0.0)", "sqrt(-1.0)")] == ["-inf", "nan"]
        assert k("reciprocal([0.0 -0.0])").tolist() == [float("inf"), float("-inf")]
