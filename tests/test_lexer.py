"""Lexemes (language.md section 2): numbers, characters, strings, names, symbols, comments,
list and dictionary literals, and the tricky cases of the lexer checklist (2.11)."""
import numpy as np
import pytest

from klong import KlongError
from klong.compiler.syntax.lexer import tokenize
from klong.runtime.values import Char, Symbol


def kinds(src):
    return [t.type for t in tokenize(src)]


def values(src):
    return [t.value for t in tokenize(src)]


# ---------------------------------------------------------------- numbers (2.2)

@pytest.mark.parametrize("src, printed", [
    ("0", "0"),
    ("123", "123"),
    ("007", "7"),
    ("1.", "1.0"),
    ("1.5", "1.5"),
    ("1.50", "1.5"),
    ("1.5e-3", "0.0015"),
    ("1e+5", "100000.0"),
    ("1e5", "100000.0"),
    ("2e0", "2.0"),
    ("1.25e2", "125.0"),
    ("0XFF", "255"),
    ("0xff", "255"),
    ("0xcafe", "51966"),
    ("0x1F", "31"),
    ("0X1f", "31"),
    ("0b101", "5"),
    ("0B11", "3"),
    ("0o777", "511"),
    ("0O17", "15"),
    (":1", "1"),
    (":1+1", "2"),
    ("12345678901234567890", "12345678901234567890"),
])
def test_number_literals(kw, src, printed):
    assert kw(src) == printed


def test_integer_and_real_types():
    assert values("42") == [42] and type(values("42")[0]) is int
    assert type(values("42.")[0]) is float
    assert type(values("1e5")[0]) is float
    assert type(values("0x10")[0]) is int


@pytest.mark.parametrize("src", ["1..2", "1e", "2exp", "1e5e", "1.2.3", "1e+"])
def test_invalid_numbers(kerr, src):
    err = kerr(src)
    assert err.kind == "syntax"
    assert "number" in err.message


@pytest.mark.parametrize("src", ["0x", "0b2", "0o8"])
def test_prefix_without_digits_is_a_syntax_error(kerr, src):
    assert kerr(src).kind == "syntax"


def test_invalid_number_position(kerr):
    err = kerr("a::1+1..2")
    assert (err.line, err.column) == (1, 6)


def test_dot_five_is_a_name(k, kw, kerr):
    assert kinds(".5") == ["NAME"]
    assert kerr(".5").kind == "undefined"


def test_letter_other_than_e_ends_a_number():
    toks = tokenize("0f[1 2 3]")
    assert [t.type for t in toks] == ["CONST", "NAME", "CONST"]
    assert toks[0].value == 0 and toks[1].value == "f"
    assert toks[2].value.tolist() == [1, 2, 3]


def test_digit_cannot_start_a_name():
    toks = tokenize("1A1")
    assert [(t.type, t.value) for t in toks] == [("CONST", 1), ("NAME", "A1")]


# ---------------------------------------------------------------- the minus sign (2.2)

@pytest.mark.parametrize("src, printed", [
    ("[1 -2]", "[1 -2]"),
    ("[-1 -2.5]", "[-1 -2.5]"),
    ("1-1", "0"),
    ("a::5; a-1", "4"),
    ("a::5; a -1", "4"),
    ("a::5; a - 1", "4"),
    ("1 -1", "0"),
    ("-1", "-1"),
    ("-1+2", "-3"),
    ("456+-123", "333"),
    ("@-1", "1"),
    ("(-3)_\"abcdef\"", '"abc"'),
    ("a::-1;a", "-1"),
    ("[2 -1]:^!8", "[[0 1 2 3] [4 5 6 7]]"),
])
def test_minus_sign(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src", ["a-1", "a -1", "a - 1"])
def test_minus_after_operand_is_a_verb(src):
    assert [(t.type, t.value) for t in tokenize(src)] == [
        ("NAME", "a"), ("VERB", "-"), ("CONST", 1)]


def test_minus_at_start_is_a_separate_verb():
    assert [(t.type, t.value) for t in tokenize("-1+2")] == [
        ("VERB", "-"), ("CONST", 1), ("VERB", "+"), ("CONST", 2)]


def test_negative_literal_in_list_is_one_token():
    toks = tokenize("[2 -1]:^!8")
    assert [t.type for t in toks] == ["CONST", "VERB", "VERB", "CONST"]
    assert toks[0].value.tolist() == [2, -1]
    assert toks[1].value == ":^"


# ---------------------------------------------------------------- characters (2.3)

@pytest.mark.parametrize("src, char", [
    ("0ca", "a"), ("0c0", "0"), ("0c ", " "), ('0c"', '"'), ("0c;", ";"),
    ("0c]", "]"), ("0c[", "["), ("0c:", ":"), ("0C{", "{"),
])
def test_character_literals(src, char):
    (tok,) = tokenize(src)
    assert tok.type == "CONST"
    assert isinstance(tok.value, Char) and str(tok.value) == char


@pytest.mark.parametrize("src, printed", [
    ("0ca", "0ca"), ("0c ", "0c "), ('0c"', '0c"'), ("0c]", "0c]"),
    ("[0cx0cy]", "[0cx 0cy]"), ("[0c] 0c[]", "[0c] 0c[]"),
    (":#10", "0c\n"),
])
def test_character_printing(kw, src, printed):
    assert kw(src) == printed


def test_char_at_end_of_input_is_an_error(kerr):
    assert kerr("0c").kind == "syntax"


# ---------------------------------------------------------------- strings (2.4)

@pytest.mark.parametrize("src, printed", [
    ('""', '""'),
    ('"abc"', '"abc"'),
    ('"say ""hi"""', '"say ""hi"""'),
    ('"a""b"', '"a""b"'),
    (',0c"', '""""'),
    ('"a;b]:[c"', '"a;b]:[c"'),
    ('":""not a comment"""', '":""not a comment"""'),
])
def test_string_literals(kw, src, printed):
    assert kw(src) == printed


def test_string_token_values():
    assert values('"a""b"') == ['a"b']
    assert values('""') == [""]


def test_string_lengths(kw):
    assert kw('#"say ""hi"""') == "8"
    assert kw('#""') == "0"
    assert kw('#"a""b"') == "3"


def test_string_holds_newline(kw):
    assert kw('s::"x\ny";#s') == "3"


def test_unterminated_string(kerr):
    err = kerr('"abc')
    assert err.kind == "syntax" and "string" in err.message


def test_string_is_not_a_list_of_chars(kw):
    assert kw('"abc"~[0ca 0cb 0cc]') == "0"
    assert kw(",0cx") == '"x"'


# ---------------------------------------------------------------- names and symbols (2.5, 2.6)

@pytest.mark.parametrize("name", ["foo", "F00F", "a1b2", "a.b", "X.", "x.y.z"])
def test_names_are_one_token(name):
    assert [(t.type, t.value) for t in tokenize(name)] == [("NAME", name)]


def test_dotted_system_names():
    assert [(t.type, t.value) for t in tokenize(".p(1)")][0] == ("NAME", ".p")


def test_underscore_is_not_a_name_character():
    assert [(t.type, t.value) for t in tokenize("a_b")] == [
        ("NAME", "a"), ("VERB", "_"), ("NAME", "b")]


def test_dotted_names_evaluate(kw):
    assert kw("a.b::7; a.b+1") == "8"
    assert kw("a::1;a.b::2;a.b") == "2"


def test_names_are_case_sensitive(kw):
    assert kw("foo::1;Foo::2;foo,Foo") == "[1 2]"


@pytest.mark.parametrize("src, printed", [
    (":foo", ":foo"),
    (":x.y", ":x.y"),
    (":a1", ":a1"),
    ("[a b]", "[:a :b]"),
    ("[:a b]", "[:a :b]"),
    (":test~*[test]", "1"),
    ("A:::foobar;A", ":foobar"),
])
def test_symbols(kw, src, printed):
    assert kw(src) == printed


def test_symbol_token():
    (tok,) = tokenize(":foo")
    assert isinstance(tok.value, Symbol) and str(tok.value) == "foo"


# ---------------------------------------------------------------- comments (2.1)

def test_comment_is_whitespace(kw):
    assert kw('1+:"first operand done" 2') == "3"


def test_comment_with_doubled_quotes(kw):
    assert kw(':"say ""hi"" first" 5') == "5"
    assert tokenize(':"c""d"') == []


def test_comment_inside_list_literal(kw):
    assert kw('[1 :"two" 3]') == "[1 3]"


def test_comment_only_source_has_no_value(k):
    assert k.run(':"nothing"') is None


def test_unterminated_comment(kerr):
    assert kerr(':"abc').kind == "syntax"


# ---------------------------------------------------------------- shift character (2.7)

@pytest.mark.parametrize("src, expected", [
    ("a:::b", [("NAME", "a"), ("VERB", "::"), ("CONST", "b")]),
    ("a:-1", [("NAME", "a"), ("VERB", ":-"), ("CONST", 1)]),
    ("a::-1", [("NAME", "a"), ("VERB", "::"), ("VERB", "-"), ("CONST", 1)]),
    ("x:~y", [("NAME", "x"), ("ADVERB", ":~"), ("NAME", "y")]),
    ("f\\~x", [("NAME", "f"), ("ADVERB", "\\~"), ("NAME", "x")]),
    ("f\\*x", [("NAME", "f"), ("ADVERB", "\\*"), ("NAME", "x")]),
    ("f\\x", [("NAME", "f"), ("ADVERB", "\\"), ("NAME", "x")]),
    ("f/x", [("NAME", "f"), ("ADVERB", "/"), ("NAME", "x")]),
    ("f:'x", [("NAME", "f"), ("ADVERB", ":'"), ("NAME", "x")]),
    ("f:*x", [("NAME", "f"), ("ADVERB", ":*"), ("NAME", "x")]),
    ("a:=b", [("NAME", "a"), ("VERB", ":="), ("NAME", "b")]),
    ("a:#b", [("NAME", "a"), ("VERB", ":#"), ("NAME", "b")]),
    ("a:@b", [("NAME", "a"), ("VERB", ":@"), ("NAME", "b")]),
    (":1", [("CONST", 1)]),
])
def test_two_character_tokens(src, expected):
    got = [(t.type, t.value if not isinstance(t.value, Symbol) else str(t.value))
           for t in tokenize(src)]
    assert got == expected


def test_symbol_after_assignment_is_a_symbol():
    toks = tokenize("a:::b")
    assert isinstance(toks[2].value, Symbol)


def test_conditional_tokens():
    assert kinds(":[1;2:|3;4;5]") == [
        "COND", "CONST", "SEMI", "CONST", "ELSEIF", "CONST", "SEMI", "CONST", "SEMI",
        "CONST", "RBRACK"]


def test_old_style_argument_list_token():
    assert kinds("{x}:(1)") == ["LBRACE", "NAME", "RBRACE", "LPAR", "CONST", "RPAR"]


def test_dictionary_literal_after_assignment():
    toks = tokenize("d:::{}")
    assert [t.type for t in toks] == ["NAME", "VERB", "DICT"]


# ---------------------------------------------------------------- list and dict literals (2.9)

@pytest.mark.parametrize("src, printed", [
    ("[]", "[]"),
    ("[1 2 3]", "[1 2 3]"),
    ("[1 2.5 \"a\" 0cb :c [3]]", '[1 2.5 "a" 0cb :c [3]]'),
    ("[[1 2] [3 [4 []]]]", "[[1 2] [3 [4 []]]]"),
    ("[ 1   2\t3 ]", "[1 2 3]"),
    ("[1\n2\n3]", "[1 2 3]"),
    ("[:{[1 2]} 3]", "[:{[1 2]} 3]"),
    ("[1 -2 [-3]]", "[1 -2 [-3]]"),
    ("[0x10 0b11 1e2]", "[16 3 100.0]"),
    ("[\"a\" \"\" \"b\"\"c\"]", '["a" "" "b""c"]'),
    (":{}", ":{}"),
    (":{[1 2] [3 4]}", ":{[1 2] [3 4]}"),
    (":{[a 1] [\"b\" [2 3]]}", ':{[:a 1] ["b" [2 3]]}'),
    (":{[[1 2] :{[3 4]}]}", ":{[[1 2] :{[3 4]}]}"),
    (":{[-1 -2]}", ":{[-1 -2]}"),
])
def test_literals(kw, src, printed):
    assert kw(src) == printed


def test_list_literal_is_one_token():
    (tok,) = tokenize("[1 [2 3] \"x\" y]")
    assert tok.type == "CONST"


def test_list_literal_keeps_element_types(kw):
    assert kw("@'[1 2.5 \"a\"]") == "[1 1 0]"
    assert kw("[1 2.5]") == "[1 2.5]"


def test_list_literal_does_not_compute(kw):
    # a name in a list literal is a symbol, not a variable
    assert kw("a::5;[a]") == "[:a]"


@pytest.mark.parametrize("src", [":{[1 2 3]}", ":{[a]}", ":{1}", ":{[1 2]", "[1 2", "[[1]"])
def test_malformed_literals(kerr, src):
    assert kerr(src).kind == "syntax"


def test_locals_list_token():
    assert kinds("{[a b];a}") == ["LBRACE", "CONST", "SEMI", "NAME", "RBRACE"]


# ---------------------------------------------------------------- checklist leftovers (2.11)

def test_function_literal_between_operands(kw):
    assert kinds("0{x,y}[1 2 3]") == [
        "CONST", "LBRACE", "NAME", "VERB", "NAME", "RBRACE", "CONST"]
    assert kw("0{x,y}[1 2 3]") == "[0 1 2 3]"


def test_big_integers(kw):
    assert kw("2^100") == "1267650600228229401496703205376"


def test_token_positions():
    toks = tokenize("ab + 12\n  cd")
    assert [(t.line, t.column) for t in toks] == [(1, 1), (1, 4), (1, 6), (2, 3)]


def test_unknown_character(kerr):
    assert kerr("1 ` 2").kind == "syntax"


# ---------------------------------------------------------------- interactive comments

def test_comment_typed_at_the_prompt_ends_with_its_line():
    # the REPL's rule: an unclosed comment ends at the end of its input line
    assert kinds_lc('f::{x^2}   :" square\nf(3)') == [
        "NAME", "VERB", "LBRACE", "NAME", "VERB", "CONST", "RBRACE", "NAME", "LPAR", "CONST",
        "RPAR"]
    # a comment closed on its line ends at its quote, as always
    assert kinds_lc(':"one" 1 :"two" 2') == ["CONST", "CONST"]
    assert kinds_lc(':"a""b" 1') == ["CONST"]


def test_comment_in_source_runs_to_the_next_quote():
    assert kinds(':" two\nlines" 1') == ["CONST"]


def kinds_lc(src):
    return [t.type for t in tokenize(src, line_comments=True)]


# ---------------------------------------------------------------- locals lists

@pytest.mark.parametrize("src", ["{[a;b];a}", "{[a,b];a}", "{[a , b ; c];a}", "{[a b];a}"])
def test_locals_lists_with_separators(src):
    toks = tokenize(src)
    assert toks[1].type == "CONST" and all(isinstance(s, Symbol) for s in toks[1].value)
    assert toks[2].type == "SEMI"


@pytest.mark.parametrize("src", ["[a;b]", "{[a;b]}", "{[a;1];a}", "x{[a;b];a}"])
def test_separators_elsewhere_are_no_list(kerr, src):
    # outside a function's first statement a list literal holds constants only
    with pytest.raises(KlongError):
        tokenize(src) if src != "x{[a;b];a}" else _parse(src)


def _parse(src):
    from klong.compiler.syntax.parser import parse
    return parse(src)


# ---------------------------------------------------------------- plain number lists

@pytest.mark.parametrize("src", [
    "[1 2 3]", "[-1 0 007 -0]", "[ 1\n 2\t3 ]", "[1.5 2. -0.25 1e3 2.5e-3 1.e+2]",
    "[1 2.5]", "[1e5 2]", "[99999999999999999999 1]", "[1-2]", "[1 -2]", "[.5]", "[-.5]",
    "[+5]", "[1e 2]", "[1.2.3]", "[5e]", "[0x10 1]", "[0c1]", "[1 :\"c\" 2]", "[1e400 1.0]",
    "[-]", "[1 - 2]", "[123456789012345678]", "[1234567890123456789]",
])
def test_plain_number_lists_read_as_the_general_path_reads_them(src):
    from klong.compiler.syntax import lexer as lx
    fast = _read(src)
    original, lx.Lexer._plain_numbers = lx.Lexer._plain_numbers, lambda self, start: None
    try:
        slow = _read(src)
    finally:
        lx.Lexer._plain_numbers = original
    assert repr(fast) == repr(slow)
    if isinstance(slow, np.ndarray):
        assert isinstance(fast, np.ndarray) and fast.dtype == slow.dtype


def _read(src):
    try:
        value = tokenize(src)[0].value
    except KlongError as e:
        return ("error", e.message)
    return value if isinstance(value, np.ndarray) else ("other", repr(value))


def test_long_line_positions():
    src = "+".join(["1"] * 20000) + "\n;2"
    toks = tokenize(src)
    assert (toks[-1].line, toks[-1].column) == (2, 2)
    assert (toks[-3].line, toks[-3].column) == (1, 39999)


# ---------------------------------------------------------------- where chunks end

# how each token changes the bracket depth, for the lexer's side of the comparison
OPENERS = {"LPAR": 1, "LBRACE": 1, "COND": 1, "RPAR": -1, "RBRACE": -1, "RBRACK": -1}


def _lexer_says_more(text, line_comments):
    """The definition Continuation follows: the text ends inside a bracket, a string, a
    comment, a list or a dictionary. None for text that is wrong before it ends (more
    closing brackets than opening ones, a lexical error): there the two may disagree on
    where the chunk ends, and either way its error is reported."""
    from klong.compiler.syntax.lexer import Incomplete, Lexer
    depth = 0
    try:
        for tok in Lexer(text, line_comments=line_comments).tokens():
            depth += OPENERS.get(tok.type, 0)
            if depth < 0:
                return None
        return depth > 0
    except Incomplete as e:
        return None if e.message == "unexpected end after :" else True
    except KlongError:
        return None


def _continuation_says_more(text, line_comments):
    from klong.compiler.syntax.lexer import Continuation
    reading = Continuation(line_comments)
    complete = True
    for line in text.split("\n"):
        complete = reading.feed(line)
    return not complete


@pytest.mark.parametrize("line_comments", [False, True])
@pytest.mark.parametrize("text", [
    "{x+", "{x+\ny}", '"abc', '"a""b"', '"a\n""b', ':"c', ':"c\nd"', "::\"x\"", "a:0c\"",
    "0c[", "0c00c", "0cx0c", "[1 2\n3]", ":[1;2;3]", "f(1;\n2)", "a0c[", "0x0c[", "(1", ")", "1)(", "x:\"c\"\n[",
    '[1 "]" 2', "0c", ":{[1 2]\n}", "{x}:(1)", ".comment(\"x\")", "1e0c[",
])
def test_continuation_agrees_with_the_lexer(text, line_comments):
    expected = _lexer_says_more(text, line_comments)
    if expected is not None:
        assert _continuation_says_more(text, line_comments) == expected


ALPHABET = '[](){}:;"0cx1 \n-,e.\'/\\~*|'


@pytest.mark.parametrize("line_comments", [False, True])
def test_continuation_agrees_with_the_lexer_on_any_text(line_comments):
    from hypothesis import given, settings, strategies as st

    @settings(max_examples=2000, deadline=None)
    @given(st.text(alphabet=ALPHABET, max_size=30))
    def check(text):
        expected = _lexer_says_more(text, line_comments)
        if expected is not None:
            assert _continuation_says_more(text, line_comments) == expected

    check()
