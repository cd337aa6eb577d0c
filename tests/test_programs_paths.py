"""The paths issue 35's recursive and looping programs take in a batched body (n-queens'
`safe`, a binary search by While): a tree of integer element-wise verbs run as one node
(verbs/fused.py) and the verbs' own nodes where its checks do not pass, the bounds of +/
and of :% and ! remembered, numpy's join of rows. Exact printed values and errors in every
mode (both backends, both renderers), the same as the loop gives (KLONG_BATCH=0)."""
import pytest

from klong import KlongError, KlongInterpreter
from klong.runtime.display import write

from conftest import BACKENDS, MODES, interpreter_in

SAFE = "safe::{[d];d::(#x)-!#x;~|/(x=y)|(x=y+d)|x=y-d}"
QUEENS = SAFE + ";q::{:[n=#x;1;0+/q'x,:\\&safe(x;)'!n]};nq::{n::x;+/{q(,x)}'!n}"
SEARCH = ("bs::{[a k];a::x;k::y;*{(x@0)<x@1}{[m];m::(+/x):%2;"
          ":[(a@m)<k;(m+1),x@1;(x@0),m]}:~0,#a}")

CASES = [
    # n-queens: the fused test of a partial placement against every column at once
    (SAFE + ";safe([1 3 0];)'!4", "[0 0 1 0]"),
    (QUEENS + ";nq'[1 4 5 6]", "[1 2 10 4]"),
    (QUEENS + ";nq(7)", "40"),
    # fused trees: a vector per row, a number per row beside a plain vector, Not
    ("{(x+1)*x-2}'[[1 2] [3 4]]", "[[-2 0] [4 10]]"),
    ("v::[1 5 9];{(x<v)&(v-x)>2}'[0 4 8]", "[[0 1 1] [0 0 1] [0 0 0]]"),
    ("{~(x=1)|x=2}'[1 2 3]", "[0 0 1]"),
    ("{(x=*x)&x>0}'[[1 2 1] [0 3 0]]", "[[1 0 1] [0 0 0]]"),
    ("{x*y-1}:'[[1 2] [3 4] [5 6]]", "[[2 6] [12 20]]"),
    ("+/{(x*3)-x+1}'!100", "9800"),
    # comparisons kept as truths: read by arithmetic, by a comparison, by | & beside
    # integers, Not of them, the result's bound remembered (100 rows)
    ("v::[1 2 3];{((x=v)+x)*2}'[1 2]", "[[4 2 2] [4 6 4]]"),
    ("v::[1 2 3];{(x>v)=(x<v+1)}'[1 2 3]", "[[0 0 0] [0 0 0] [0 0 0]]"),
    ("v::[1 2 3];{(x>v)|x-v+5}'[1 9]", "[[0 0 0] [3 2 1]]"),
    ("v::[1 2 3];{(x>v)&x<v+2}'[1 2 3]", "[[0 0 0] [1 0 0] [0 1 0]]"),
    ("v::[0 1];+/+/{(x>v)&x<v+50}'!100", "98"), ("v::[0 1];+/+/{~(x>v)|x=v}'!100", "1"),
    # &/ and |/ of integers and of truths, Not of an and, | & of integers beside truths,
    # rows of numbers alone (a small batch's Python integers, fused.SMALL_BATCH)
    ("{(&/x)+~&/x>1}'[[3 1 2] [5 6 7]]", "[2 5]"), ("{(|/x-1)*~x=2}'[2 5]", "[0 4]"),
    ("v::[4 -2];{(x&v)-(x|v)*x<v}'[1 3 -5]", "[[-3 -2] [-1 -2] [-9 -3]]"),
    ("{~(x>0)&x<3}'[[0 1 2] [3 2 1]]", "[[1 0 0] [1 0 0]]"),
    ("{|/(x*x)-3}'[[1 -4] [2 0]]", "[13 1]"),
    # one element; two plain numbers in the tree (the verb's own Python integers)
    ("{(x=1)|x>2}'[3]", "[1]"), ("{(x+1)*2}'!1", "[2]"), ("{(x=1)|(2=2)}'[1 0]", "[1 1]"),
    # beyond int64 (the bound of a product or a sum): the verbs' nodes, Python integers
    ("{(x*x)+1}'[3037000500 2]", "[9223372037000250001 5]"),
    ("{(x+x)-x}'[9223372036854775807 1]", "[9223372036854775807 1]"),
    ("{(x=0)|x<0}'[-9223372036854775808 0 5]", "[1 1 0]"),
    ("{(x-1)|x}'[-9223372036854775808 0]", "[-9223372036854775808 0]"),
    # reals, integers beside reals: the verbs' nodes
    ("{(x+1)*x}'[1.5 2.0]", "[3.75 6.0]"),
    ("v::[0.5 1.5];{(x+v)*x}'[1.0 2.0]", "[[1.5 2.5] [5.0 7.0]]"),
    ("v::[0.5 1.5];{(x+v)*x}'[1 2]", "[[1.5 2.5] [5.0 7.0]]"), ("{(x<1.5)|x=1}'[1 2 0]", "[1 0 1]"),
    # an empty vector, lists of two lengths: the loop's errors
    ("v::!0;{(x=v)|x<v}'[1 2]",
     "type error: less [1 []]: operands of different kinds (in {(x=v)|x<v})"),
    ("v::[1 2 3];{(x+v)*2}'[[1 2] [3 4]]",
     "length error: plus [[1 2] [1 2 3]]: lists of different lengths (in {(x+v)*2})"),
    # binary search by While in lock step: a few keys, a hundred (bounds remembered)
    (SEARCH + ";bs(2*!50;)'[31 0 99]", "[16 0 50]"),
    (SEARCH + ";a::3*!1000;q::(7*!100)!3001;(+/bs(a;)'q),bs(a;)'[0 2998 2999 -5]",
     "[11583 0 1000 1000 0]"),
    (SEARCH + ";bs([5];)'[1 5 9]", "[0 0 1]"), (SEARCH + ";bs(!0;)'[1 2]", "[0 0]"),
    # +/ of rows, :% and ! of naturals: their results' bounds remembered, and read
    ("s::{((+/x):%2)+1}'[100 2]:^!200;(#s),(+/s),s@99", "[100 10000 199]"),
    ("+/{((+/x):%2)+1}'[100 2]:^4611686018427387904+!200", "461168601842738800400"),
    ("+/{(x!7)+1}'!100", "395"),
    ("+/{(x:%3)*x}'4611686018427387904+!100", "708921597751955147280204759012317701411"),
    ("{(+/x):%0}'[70 2]:^!140",
     "domain error: integer-divide [1 0]: division by zero (in {(+/x):%0})"),
    # a list's elements picked by an index vector (word frequencies' w@*'g), its errors
    ("w::[\"ab\" \"cd\" \"ef\"];w@[2 0 1 0]", "[ef ab cd ab]"),
    ("w::[\"ab\" 1 \"cd\"];w@[2 2 1 0]", "[cd cd 1 ab]"),
    ("w::[\"ab\" \"cd\"];w@[0 2]", "index error: at [[\"ab\" \"cd\"] [0 2]]: index 2 out of range 0..1"),
    # a row joined to rows, numbers to rows (numpy's join along the second axis)
    ("{x,1+x}'[[1 2] [3 4]]", "[[1 2 2 3] [3 4 4 5]]"), ("{(*x),x}'[[1.5 2.5] [3.5 4.5]]",
                                                         "[[1.5 1.5 2.5] [3.5 3.5 4.5]]"),
]


def run(k, src):
    try:
        return write(k(src))
    except KlongError as e:
        return str(e)


def kind_of(k, src):
    """The element type of the result ('i', 'f', or a Python type's name)."""
    try:
        v = k(src)
    except KlongError:
        return "error"
    dtype = getattr(v, "dtype", None)
    return str(dtype) if dtype is not None else type(v).__name__


@pytest.mark.parametrize("mode", MODES, ids=[f"{b}-{c}" for b, c in MODES])
@pytest.mark.parametrize("src, printed", CASES)
def test_printed_in_every_mode(mode, src, printed):
    assert run(interpreter_in(mode), src) == printed


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("src, printed", CASES)
def test_the_loop_gives_the_same(backend, src, printed):
    loop = KlongInterpreter(backend=backend, batch=False)
    assert run(loop, src) == printed
    batched = KlongInterpreter(backend=backend)
    # (torch's element types are named as torch names them; the kinds must agree)
    assert kind_of(batched, src).replace("torch.", "") == kind_of(loop, src).replace("torch.", "")


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_fused_node_runs(backend):
    # these trees are one fused node whose fast path gives the result (not the verbs'
    # nodes after a declined check); reals take the verbs' nodes
    from klong.verbs import fused
    taken = []
    fast = fused._fast

    def watched(*args):
        r = fast(*args)
        taken.append(r is not None)
        return r
    fused._fast = watched
    try:
        k = KlongInterpreter(backend=backend)
        assert run(k, SAFE + ";safe([1 3 0];)'!4") == "[0 0 1 0]"
        assert run(k, "v::[1 2 3];{((x=v)+x)*2}'[1 2]") == "[[4 2 2] [4 6 4]]"
        assert run(k, "v::[0.5 1.5];{(x+v)*x}'[1.0 2.0]") == "[[1.5 2.5] [5.0 7.0]]"
    finally:
        fused._fast = fast
    assert taken == [True, True, False]


@pytest.mark.parametrize("mode", MODES, ids=[f"{b}-{c}" for b, c in MODES])
@pytest.mark.parametrize("small", [0, 10 ** 9], ids=["library", "python"])
@pytest.mark.parametrize("src, printed", CASES)
def test_both_ways_of_a_fused_node_give_the_same(mode, small, src, printed, monkeypatch):
    # a fused node computes a small batch on Python's integers (fused.SMALL_BATCH), a
    # larger one by the library's operations: each way gives the verbs' values and errors
    from klong.verbs import fused
    monkeypatch.setattr(fused, "SMALL_BATCH", small)
    k = interpreter_in(mode)
    assert run(k, src) == printed
    assert kind_of(k, src).replace("torch.", "") == \
        kind_of(KlongInterpreter(backend=mode[0], batch=False), src).replace("torch.", "")
