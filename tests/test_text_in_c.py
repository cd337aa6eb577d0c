"""Texts made in C where a piece at a time was ours (issue 35: the words of a text reversed
within 10x of Python's split and join): a text cut at every place of one character (replace
and split, verbs/structural.py's _cut_at_one_character), each of a list of strings joined
with a text (one join and one split, _each_joined) or dropped from, and Join over texts.
Every value is the one the general verbs give, on both backends, in generated code and in
closures: a text holding the mark the C paths put between pieces, cut places that are not
every place of the character, out of order or out of range, take the general path and its
errors."""
import numpy as np
import pytest

from klong import KlongError
from klong.runtime.display import write
from klong.verbs import structural

LETTERS = "a b c d e f g h i j k l m n o p q r"     # 17 spaces: more cuts than the C path needs
WORDS = '["a" ' + " ".join(f'" {c}"' for c in LETTERS.split(" ")[1:]) + "]"


def printed(k, src):
    try:
        return write(k.run(src))
    except KlongError as e:
        return "ERROR " + str(e)


CASES = [
    # cut at every space: the pieces, a leading and a trailing space, spaces side by side
    (f't::"{LETTERS}";(t?0c ):_t', WORDS),
    (f't::" {LETTERS}";#(t?0c ):_t', "19"),
    (f't::" {LETTERS}";*(t?0c ):_t', '""'),
    (f't::"{LETTERS} ";*|(t?0c ):_t', '" "'),
    (f't::"{LETTERS}  s";(-4)#(t?0c ):_t', '[" q" " r" " " " s"]'),
    (f't::"é{LETTERS}";(t?0c ):_t', '["éa"' + WORDS[4:]),
    (f't::"{LETTERS.replace(" ", "é")}";5#(t?0cé):_t', '["a" "éb" "éc" "éd" "ée"]'),
    # the text holds the mark: the slices
    (f't::"{LETTERS}",(,:#0),"s ";#\'(t?0c ):_t', "[1" + " 2" * 16 + " 4 1]"),
    # not every place of the character, or twice, or fewer than 16: the slices
    (f't::"{LETTERS}";#\'(0,t?0c ):_t', "[0 1" + " 2" * 17 + "]"),
    (f't::"{LETTERS}";#\'(1_t?0c ):_t', "[3" + " 2" * 16 + "]"),
    (f't::"{LETTERS}";#\'((t?0c ),#t):_t', "[1" + " 2" * 17 + " 0]"),
    (f't::"{LETTERS}";#\'(16#t?0c ):_t', "[1" + " 2" * 15 + " 4]"),
    ('t::"a b c d";(t?0c ):_t', '["a" " b" " c" " d"]'),
    # out of order, out of range, not integers: Cut's errors
    (f't::"{LETTERS}";((t?0c ),(t?0c )):_t',
     'ERROR range error: cut [[1 3 5 7 9 11 13 15 17 19 21 23 25 27 29 31 33 1 3 5 7 9...: '
     'index 1 out of order or outside 0..35'),
    (f't::"{LETTERS}";((t?0c ),99):_t',
     'ERROR range error: cut [[1 3 5 7 9 11 13 15 17 19 21 23 25 27 29 31 33 99] '
     '"a b ...: index 99 out of order or outside 0..35'),
    (f't::"{LETTERS}";((-1),t?0c ):_t',
     'ERROR range error: cut [[-1 1 3 5 7 9 11 13 15 17 19 21 23 25 27 29 31 33] '
     '"a b ...: index -1 out of order or outside 0..35'),
    (f't::"{LETTERS}";((t?0c )+0.0):_t',
     'ERROR type error: cut [[1.0 3.0 5.0 7.0 9.0 11.0 13.0 15.0 17.0 19.0 21.0 23.0 ...: '
     'integer or list of integers expected'),
    # a list cut: its pieces as ever
    ("#'[3 6 9 12 15 18 21 24 27 30 33 36 39 42 45 48]:_!50", "[3" + " 3" * 15 + " 2]"),
    # each joined with a text, before or after; empty strings; a character; the empty text
    ('w::["ab" "c" "" "dd"];{" ",x}\'w', '[" ab" " c" " " " dd"]'),
    ('w::["ab" "c" "" "dd"];{x,"--"}\'w', '["ab--" "c--" "--" "dd--"]'),
    ('w::["ab" "c" "" "dd"];{x,0cz}\'w', '["abz" "cz" "z" "ddz"]'),
    ('w::["ab" "c" "" "dd"];{0cz,x}\'w', '["zab" "zc" "z" "zdd"]'),
    ('w::["ab" "c" "" "dd"];{"",x}\'w', '["ab" "c" "" "dd"]'),
    ('{" ",x}\',"ab"', '[" ab"]'),
    # a string or the text joined holds the mark: the concatenations
    ('w::["ab" "c"],,(,:#0);#\'{" ",x}\'w', "[3 2 2]"),
    ('w::["ab" "c"],,(,:#0);#\'{x,"-"}\'w', "[3 2 2]"),
    ('w::["ab" "c"];#\'{((,:#0),"<"),x}\'w', "[4 3]"),
    # not all strings: each as the verb gives it
    ('w::["ab" 0cc :sym];{" ",x}\'w', '[" ab" " c" [" " :sym]]'),
    # each dropped from
    ('w::["abc" "c" "" "dd"];{1_x}\'w', '["bc" "" "" "d"]'),
    ('w::["abc" "c" "" "dd"];{2_x}\'w', '["c" "" "" ""]'),
    ('w::["abc" "c" "" "dd"];{(-1)_x}\'w', '["ab" "" "" "d"]'),
    ('w::["abc" "c" "" "dd"];{(-5)_x}\'w', '["" "" "" ""]'),
    # Join over texts: strings and characters join; a symbol among them does not
    (',/["ab" "c" "" "dd"]', '"abcdd"'),
    (',/["ab" 0cc "dd"]', '"abcdd"'),
    (',/[0ca 0cb]', '"ab"'),
    (',/["ab" :cd "e"]', '["ab" :cd "e"]'),
    (',/[]', "[]"),
    # the words of a text in reverse order (the benchmark's program)
    (f't::" ","ab c  dd {LETTERS}";,/{{" ",x}}\'|{{1_x}}\'1_(t?0c ):_t',
     '" r q p o n m l k j i h g f e d c b a dd  c ab"'),
]


@pytest.mark.parametrize("src, expected", CASES)
def test_the_value_is_the_general_verbs(km, src, expected):
    assert printed(km, src) == expected


def test_a_text_cut_at_every_place_of_one_character_is_split_in_c():
    text = " " + LETTERS
    places = np.flatnonzero(np.frombuffer(text.encode(), np.uint8) == 32)
    pieces = structural._cut_at_one_character(places, text)
    assert pieces == [""] + [" " + c for c in LETTERS.split(" ")]
    # not every space, one twice, fewer than 16, the mark in the text: the general path
    assert structural._cut_at_one_character(places[1:], text) is None
    assert structural._cut_at_one_character(np.sort(np.r_[places, places[:1]]), text) is None
    assert structural._cut_at_one_character(places[:15], text[:30]) is None
    assert structural._cut_at_one_character(places, text[:-1] + "\0") is None


def test_each_joined_is_one_join_and_one_split():
    assert structural._each_joined(" ", ["ab", "", "c"], True) == [" ab", " ", " c"]
    assert structural._each_joined("-", ["ab", "", "c"], False) == ["ab-", "-", "c-"]
    assert structural._each_joined(" ", ["a\0b", "c"], True) == [" a\0b", " c"]
    assert structural._each_joined("\0", ["a", "c"], False) == ["a\0", "c\0"]
