"""Printed forms of values (language.md section 5, system.md .p .d .w): the write form used
by the REPL and .w, the display form of .d and .p, and what those functions print."""
import numpy as np
import pytest

from klong.runtime.display import Summary, format_real, show, write
from klong.runtime.values import Char, Dict, Symbol, UNDEFINED


# ---------------------------------------------------------------- reals (5.3)

@pytest.mark.parametrize("src, printed", [
    ("1%3", "0.333333333333333"),
    ("2%3", "0.666666666666667"),
    ("1%7", "0.142857142857143"),
    ("100%3", "33.3333333333333"),
    ("4.56-1.23", "3.33"),
    ("0.1+0.2", "0.3"),
    ("2^0.5", "1.4142135623731"),
    ("1e5", "100000.0"),
    ("1e-5", "0.00001"),
    ("1e17", "100000000000000000.0"),
    ("1e18", "1.0e+18"),
    ("-1e18", "-1.0e+18"),
    ("1e-18", "0.000000000000000001"),
    ("1e-19", "1.0e-19"),
    ("1.5e-30", "1.5e-30"),
    ("-1.5e-30", "-1.5e-30"),
    ("1e100", "1.0e+100"),
    ("2.0", "2.0"),
    ("-2.5", "-2.5"),
    ("0.5", "0.5"),
    ("3.0e-7", "0.0000003"),
    ("123456789.123456789", "123456789.123457"),
    ("999999999999999999.0", "1.0e+18"),
    ("4%2", "2.0"),
    ("100.0*3", "300.0"),
    ("1.0*10^15", "1000000000000000.0"),
    ("%.e", "1.0e+18"),
    (".e", "0.000000000000000001"),
])
def test_real_printing(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("x, text", [
    (0.0, "0.0"),
    (1.0, "1.0"),
    (-1.0, "-1.0"),
    (0.1, "0.1"),
    (1 / 3, "0.333333333333333"),
    (12345.678, "12345.678"),
    (1.5e300, "1.5e+300"),
    (2.5e-300, "2.5e-300"),
    (float("inf"), "inf"),
    (float("-inf"), "-inf"),
    (float("nan"), "nan"),
    (np.float64(0.25), "0.25"),
])
def test_format_real(x, text):
    assert format_real(x) == text


def test_infinities_print_without_literal(kw):
    assert kw("1e300*1e300") == "inf"
    assert kw("-1e300*1e300") == "-inf"
    assert kw("(1e300*1e300)-(1e300*1e300)") == "nan"


@pytest.mark.parametrize("src", ["1%3", "2^0.5", "1e18", "1.5e-30", "1e-5", "1e17", "2.0",
                                 "123456789.123456789", "1e100"])
def test_real_output_reads_back_as_real(k, kw, src):
    text = kw(src)
    assert kw(text) == text
    assert kw("@" + text) == "1"
    assert isinstance(k(text), float)


def test_real_lists(kw):
    assert kw("[1.0 2.5]") == "[1.0 2.5]"
    assert kw("1.0*!3") == "[0.0 1.0 2.0]"
    assert kw("[1e18 1.5]") == "[1.0e+18 1.5]"
    assert kw("[1 2]%2") == "[0.5 1.0]"
    assert kw("[1 2.5]") == "[1 2.5]"


# ---------------------------------------------------------------- other atoms (5.1)

@pytest.mark.parametrize("src, printed", [
    ("-12", "-12"),
    ("0xff", "255"),
    ("2^64", "18446744073709551616"),
    ("0ca", "0ca"),
    ("0c ", "0c "),
    (":#65", "0cA"),
    (":foo", ":foo"),
    (":a.b", ":a.b"),
    ('"say ""hi"""', '"say ""hi"""'),
    ('""', '""'),
    ('"a b"', '"a b"'),
    ("{x}", ":monad"),
    ("{1}", ":nilad"),
    ("{x+y}", ":dyad"),
    ("{x+y+z}", ":triad"),
    ("{x+y}(1;)", ":monad"),
    ("{x+y+z}(1;;)", ":dyad"),
    ("1%0", ":undefined"),
    ("d:::{[1 2]};d?3", ":undefined"),
    (".cin", ":inchan.0"),
    (".cout", ":outchan.1"),
    (".cerr", ":outchan.2"),
])
def test_atom_printing(kw, src, printed):
    assert kw(src) == printed


# ---------------------------------------------------------------- lists and dictionaries

@pytest.mark.parametrize("src, printed", [
    ("[]", "[]"),
    ("!0", "[]"),
    ("[0ca \"b\" :c 1.0 []]", '[0ca "b" :c 1.0 []]'),
    ("[[1 2] [3 4]]", "[[1 2] [3 4]]"),
    ("[[1 2] 3]", "[[1 2] 3]"),
    ("[[] []]", "[[] []]"),
    (",[]", "[[]]"),
    (",\"\"", '[""]'),
    (",,\"a\"", '[["a"]]'),
    ("[:a :b]", "[:a :b]"),
    (":#[65 66 67]", "[0cA 0cB 0cC]"),
    ("({x}),{x+y}", "[:monad :dyad]"),
    ("[2 3]:^!6", "[[0 1 2] [3 4 5]]"),
    ("[[[1]]]", "[[[1]]]"),
    (":{}", ":{}"),
    (":{[1 2] [3 4]}", ":{[1 2] [3 4]}"),
    (":{[\"a\" [1 2]] [:b :{[1 2]}]}", ':{["a" [1 2]] [:b :{[1 2]}]}'),
    (":{[0cx \"y\"]}", ':{[0cx "y"]}'),
    ("d:::{};d,1,{x}", ":{[1 :monad]}"),
])
def test_list_and_dict_printing(kw, src, printed):
    assert kw(src) == printed


def test_nested_values_write_recursively():
    d = Dict([(Symbol("k"), ["s", Char("c"), 1.5])])
    assert write(d) == ':{[:k ["s" 0cc 1.5]]}'
    assert show(d) == ":{[:k [s c 1.5]]}"
    assert write(UNDEFINED) == ":undefined"
    assert write(np.array([1, 2, 3])) == "[1 2 3]"
    assert write(np.array([0.5, 2.0])) == "[0.5 2.0]"


# ---------------------------------------------------------------- .p / .d / .w output

@pytest.mark.parametrize("src, out", [
    (".p([1 2 3])", "[1 2 3]\n"),
    (".p(\"\")", "\n"),
    (".p([\"ab\" \"c\"])", "[ab c]\n"),
    (".p(\"say \"\"hi\"\"\")", 'say "hi"\n'),
    (".p(1)", "1\n"),
    (".p(1%3)", "0.333333333333333\n"),
    (".p({x})", ":monad\n"),
    (".p(1%0)", ":undefined\n"),
    (".p(.cout)", ":outchan.1\n"),
    (".p(:{[1 \"a\"]})", ":{[1 a]}\n"),
    (".d([1 \"a\" :b 0cx])", "[1 a :b x]"),
    (".d(:{[1 \"a\"]})", ":{[1 a]}"),
    (".d(:foo)", ":foo"),
    (".d(\"say \"\"hi\"\"\")", 'say "hi"'),
    (".d(0cx)", "x"),
    (".d(1.5)", "1.5"),
    (".d([[\"a\"] [0cb]])", "[[a] [b]]"),
    (".w(\"say \"\"hi\"\"\")", '"say ""hi"""'),
    (".w(0cx)", "0cx"),
    (".w([1 \"a\" :b [2 3]])", '[1 "a" :b [2 3]]'),
    (".w({x+y})", ":dyad"),
    (".w(1)", "1"),
    (".w(.cin)", ":inchan.0"),
    (".w(:{[\"a\" 0cb]})", ':{["a" 0cb]}'),
    (".w(1e18)", "1.0e+18"),
    (".w(1);.w(2)", "12"),
    (".d(1);.p(2);.d(3)", "12\n3"),
])
def test_print_functions_output(k, capsys, src, out):
    k.run(src)
    captured = capsys.readouterr()
    assert captured.out == out
    assert captured.err == ""


@pytest.mark.parametrize("src, value", [
    (".p([1 2 3])", "[1 2 3]"),
    (".p(\"\")", '""'),
    (".p(1)", "1"),
    (".d(1)", "1"),
    (".d(\"ab\")", '"ab"'),
    (".w(1)", "1"),
    (".w(0cx)", "0cx"),
    (".p(:foo)", ":foo"),
])
def test_print_functions_return_argument(kw, capsys, src, value):
    assert kw(src) == value
    capsys.readouterr()


def test_output_to_error_channel(k, capsys):
    k.run('.tc(.cerr);.p("oops");.tc(0);.p("fine")')
    captured = capsys.readouterr()
    assert captured.err == "oops\n"
    assert captured.out == "fine\n"


def test_output_inside_function(k, capsys):
    k.run("f::{.d(x);.d(\" \")};f'[1 2 3]")
    assert capsys.readouterr().out == "1 2 3 "


def test_output_kept_when_line_fails(k, capsys):
    with pytest.raises(Exception):
        k.run('.p("before");foo;.p("after")')
    assert capsys.readouterr().out == "before\n"


# ---------------------------------------------------------------- long values, shortened

SHORT = Summary()


@pytest.mark.parametrize("src, printed", [
    ("!1000000", "[0 1 2 ... 999997 999998 999999]  (1000000 elements)"),
    ("1.0*!2000", "[0.0 1.0 2.0 ... 1997.0 1998.0 1999.0]  (2000 elements)"),
    ("[3 2000]:^!6000", "[[0 1 2 ... 1997 1998 1999] [2000 2001 2002 ... 3997 3998 3999] "
                        "[4000 4001 4002 ... 5997 5998 5999]]  (6000 elements, shape [3 2000])"),
    ("[500 500]:^0", "[[0 0 0 ... 0 0 0] [0 0 0 ... 0 0 0] [0 0 0 ... 0 0 0] ... "
                     "[0 0 0 ... 0 0 0] [0 0 0 ... 0 0 0] [0 0 0 ... 0 0 0]]  "
                     "(250000 elements, shape [500 500])"),
    ("1,,!5000", "[1 [0 1 2 ... 4997 4998 4999]]  (2 elements)"),       # a long list inside
    ("(2000#,\"ab\"),:x", '["ab" "ab" "ab" ... "ab" "ab" :x]  (2001 elements)'),
    ("3000#\"ab\"", '"' + "ab" * 20 + "..." + "ab" * 20 + '"  (3000 characters)'),
    ("d:::{};{d,x,x*x}'!1500;d",
     ":{[0 0] [1 1] [2 4] ... [1497 2241009] [1498 2244004] [1499 2247001]}  (1500 entries)"),
])
def test_long_values_are_shortened(k, src, printed):
    assert write(k.run(src), SHORT) == printed


@pytest.mark.parametrize("src", ["!1000", "[10 100]:^!1000", '"abc"', "[1 [2 3] \"x\"]",
                                 ":{[1 2]}", "1%3", "!0"])
def test_values_up_to_the_threshold_are_whole(k, src):
    v = k.run(src)
    assert write(v, SHORT) == write(v)


def test_summary_settings(k):
    v = k.run("!20")
    assert write(v, Summary(threshold=10, edge=2)) == "[0 1 ... 18 19]  (20 elements)"
    assert show(k.run('5#,"abc"'), Summary(threshold=4, edge=1)) == "[abc ... abc]  (5 elements)"
    assert write(v) == write(v, None) == "[" + " ".join(map(str, range(20))) + "]"


def test_shortening_costs_only_what_it_prints(k, monkeypatch):
    """Printing part of a long value formats only the part printed (the work is linear in
    the output, not in the value)."""
    from klong.runtime import display
    formatted = []
    real = display.format_real
    monkeypatch.setattr(display, "format_real", lambda x: formatted.append(x) or real(x))
    assert write(k.run("1.0*!1000000"), SHORT).startswith("[0.0 1.0 2.0 ... ")
    assert len(formatted) == 6


def test_print_functions_shorten_only_at_the_prompt(k, capsys, tmp_path):
    k.run(".p(!2000)")
    assert capsys.readouterr().out == write(k.run("!2000")) + "\n"     # in full
    k.summary = SHORT                       # as the REPL sets it
    k.run(".p(!2000);.w(!2000);.d(!2000)")
    out = capsys.readouterr().out
    assert out == ("[0 1 2 ... 1997 1998 1999]  (2000 elements)\n"
                   "[0 1 2 ... 1997 1998 1999]  (2000 elements)"
                   "[0 1 2 ... 1997 1998 1999]  (2000 elements)")
    path = tmp_path / "out.txt"
    k.run(f'c::.oc("{path}");.tc(c);.w(!2000);.tc(0);.cc(c)')    # files get it whole
    assert path.read_text() == write(k.run("!2000"))


def _fifteen_digits(x):
    """The rule format_real follows, spelled out: x rounded to 15 significant digits, in
    plain notation while 1e-18 <= |x| < 1e18, with a point and a digit on either side."""
    if x == 0:
        return "0.0"
    mantissa, exponent = ("%.14e" % abs(x)).split("e")
    digits, exponent = (mantissa[0] + mantissa[2:]).rstrip("0") or "0", int(exponent)
    sign = "-" if x < 0 else ""
    if -18 <= exponent < 18:
        if exponent >= 0:
            whole = digits[:exponent + 1].ljust(exponent + 1, "0")
            return f"{sign}{whole}.{digits[exponent + 1:] or '0'}"
        return f"{sign}0.{'0' * (-exponent - 1)}{digits}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"


def test_format_real_is_the_fifteen_digit_rounding():
    """Python's shortest text is taken where it has at most 15 digits: it must be exactly
    the 15-digit rounding, for reals of every magnitude and for decimals typed by hand."""
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 2**63, 20000, dtype=np.int64).view(np.float64)
    typed = [round(v, d) for v, d in zip(rng.uniform(-1e6, 1e6, 20000).tolist(),
                                         rng.integers(0, 9, 20000).tolist())]
    scaled = rng.integers(-10**16, 10**16, 20000) / 10.0 ** rng.integers(0, 20, 20000)
    edges = [0.1, 0.30000000000000004, 1e15, 1e16 - 1, 123456789012345.6, 99999999999999.99,
             999999999999999.9, 1e-4, 9.999e-5, 1e17, 1e18, 5e-324, 1.7976931348623157e308,
             2.0 ** 53, 2.0 ** 53 + 2, -0.5, 1 / 3]
    for x in [float(v) for v in (*bits, *typed, *scaled)] + edges:
        if x == x and abs(x) != float("inf"):
            assert format_real(x) == _fifteen_digits(x), x
