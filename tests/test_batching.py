"""Each over the rows of a matrix evaluated once for all rows (verbs/batched.py, with the rules
of verbs/batching.py, decided by compiler/passes/batching.py) gives exactly what the loop
gives: the same written value, the same element type all the way down, the same error (kind,
message, line), on numpy and torch, through generated code and closures. Each program runs
in an interpreter that batches and in one that loops (batch=False, as KLONG_BATCH=0 makes
it), and for the programs that should batch, the test also checks that the batched
evaluation gave the result (not the loop after a decline)."""
import gc
import os
import sys

import pytest

from klong import KlongError, KlongInterpreter
from klong.backends import list_backends
from klong.runtime.display import write
from klong.verbs import batched as evaluation
from klong.verbs import batching as rules

from conftest import host
from differential.harness import outcome, signature

BACKENDS = [b for b in ("numpy", "torch") if b in list_backends()]
MODES = [(b, c) for b in BACKENDS for c in (True, False)]

SETUP = """
r::[[1.5 2.25 -3.0 0.5] [0.1 0.2 0.3 0.7] [-1.0 -2.0 -3.5 4.0]]
i::[[3 1 2 5] [0 -4 7 1] [9 9 -2 3]]
one::[[0.1 0.2 0.3]]
big::[[4611686018427387904 4611686018427387904] [1 2]]
huge::[[9007199254740993 0] [1 2]]
rag::[[1 2 3] [4 5]]
q::[3 130]:^(!390)%7.0
u::[1 2 3 4]
c::10
t::[[3 1 2 3 1] [2 2 2 2 2] [5 -1 5 0 5]]
z::[[0.0 -0.0 1.0] [-0.0 0.0 -1.0]]
nm::[3 3]:^[1.0 0.5 2.0 3.0 1.0 0.0 2.0 1.0],(1.0e308*10)-1.0e308*10
fv::[1.5 -2.0 0.25]
iv::[3 -1 7]
w::[0.5 1.0 2.0 4.0]
hv::[4611686018427387904 1]
d3::[2 3 4]:^(!24)%7.0
i3::[2 3 4]:^(!24)-11
gg::[40 16]:^(((((!640)*7919)!1009)-504)%7.0)*10.0^(!640)!9
nn::[3 3]:^[1.0 2.0 3.0 3.0 1.0],((1.0e308*10)-1.0e308*10),[5.0 4.0 6.0]
zz::[[-0.0 -0.0 -0.0] [0.0 -0.0 -0.0] [-0.0 1.0 -1.0] [1.0e308 1.0e308 -1.0e308]]
"""

# (program, batched): batched says whether the batched evaluation gives the result (True),
# declines so that the loop runs (False), or is not asked (None: the matrix is not one)
PROGRAMS = [
    # Over and Scan along each row
    ("+/'r", True), ("+/'i", True), ("*/'r", True), ("*/'i", True), ("|/'r", True),
    ("&/'i", True), ("-/'r", True), ("-/'i", True), ("+\\'r", True), ("+\\'i", True),
    ("*\\'r", True), ("|\\'i", True), ("&\\'r", True), ("+/'q", True), ("*/'q", True),
    ("+\\'q", True), ("{+/x}'q", True),
    # first, last, reverse, tally, index, join
    ("*'r", True), ("*'i", True), ("|'r", True), ("#'i", True), ("{*|x}'r", True),
    ("{x@2}'i", True), ("{x@[3 0 0]}'r", True), ("{x,0.0}'r", True), ("{0,x}'i", True),
    ("{x,x}'r", True), ("{(*x),*|x}'i", True), ("{#x}'r", True),
    # atomic verbs around them
    ("{x-(+/x)%#x}'r", True), ("{x-(+/x)%#x}'i", True), ("{+/x>0}'r", True),
    ("{(+/x)%#x}'i", True), ("{%+/x}'i", True), ("{_(+/x)%3}'r", True), ("{~x}'i", None),
    ("{x=|x}'i", True), ("{x!3}'i", None), ("{x:%2}'i", None), ("{(|/x)-&/x}'r", True),
    ("{x*u}'i", True), ("{(+/x)+c}'i", True), ("{[s];s::+/x;x%s}'r", True),
    ("{[s];s::+/x;s*s}'i", True), ("{[v];v::x;{x-v}'i}([1 2 3 4])", True),
    ("{[v];v::x;{(+/x)*v}'r}(2)", True), ("{x+nope}'i", None), ("{(+/x)+nope}'i", False),
    # match: Match's tolerance for reals, shapes, numbers against arrays
    ("{x~[0 -4 7 1]}'i", True), ("{x~|x}'r", True), ("{(*x)~3}'i", True), ("{x~1}'i", True),
    ("{x~[1 2]}'i", True), ("{(x*3)~x+x+x}'r", True), ("{(+/x)~1.25}'r", True),
    ("{(*x)~1}'[[1.0 2.0] [1.00000000000000001 3.0]]", True),
    ("{(*x)~9007199254740993.0}'[[9007199254740993 0] [1 2]]", False),
    # conditionals: a mask over the rows
    ("{:[(+/x)>0;1;-1]}'r", True), ("{:[(*x)>1;x;-x]}'i", True),
    ("{:[(*x)>1;+/x:|(*x)>0;0;-1]}'i", True), ("{:[c>5;+/x;*x]}'i", True),
    ("{:[(*x)>1;x;0.0]}'i", False),                  # a mixed list in the loop
    ("{:[(*x)=0;0;(+/x)%*x]}'i", False),             # a branch not taken divides by 0
    # a predicate of numbers other than 0 and 1 (any but 0 is true, not -0.0): rows of
    # numbers, of lists, and plain numbers chosen (Backend.select_nonzero)
    ("{:[(*x)!4;*x;10+*x]}'i", True), ("{:[(*x)-3;x;|x]}'i", True),
    ("{:[(x@2)+3.0;x;-x]}'r", True), ("{:[(*x)*-0.0;1;2]}'r", True),
    ("{:[(*x)-2;(*x),1;0,*x]}'t", True),
    ("{:[(*x)*x@1;1.5;2.5]}'[[0.0 5.0] [-0.0 1.0] [2.0 3.0] [0.5 -1.0]]", True),
    # integers that leave int64, or reals that Python divides exactly
    ("+/'big", False), ("*/'big", False), ("+\\'big", False), ("{x*x}'big", None),
    ("{(+/x)*4611686018427387904}'i", False), ("{(+/x)%3}'huge", True),
    # the library's power is not Python's on numbers: the verb itself on each row's numbers
    ("{(+/x*x)^0.5}'r", True), ("{(+/x*x)^0.5}'q", True), ("{(*x)^2}'i", True),
    ("{(*x)^0.5}'i", True), ("{(*x)^0}'r", True), ("{%*x}'big", True),
    ("{(*x)^-1}'i", False),                          # 0^-1 is :undefined: a mixed list
    ("{(*x)^0.5}'r", False),                         # (-1.0)^0.5 likewise
    ("{(*x)^3}'big", False),                         # beyond int64
    # a real power of one number per row: C's pow for every row at once, as Python's a**b
    ("{(+/x*x)^1.7}'q", True), ("{(*|x)^0.3}'q", True), ("{2.5^*x}'r", True),
    ("{(*x)^*|x}'q", True), ("{(1+*x)^-0.5}'q", True), ("{(*x)^2.0}'r", True),
    ("{(*x)^-0.5}'q", False),                        # 0^-0.5 is :undefined
    ("{(-+/x)^0.5}'r", False),                       # a negative base: :undefined
    ("{(*|x)^1.0e300}'q", False),                    # Python's OverflowError, an infinity
    ("{(1.0e-300*+/x)^2.5}'q", False),               # below the normal reals: a range error
    ("{(*x)^3}'r", None),                            # traced where Each traces (torch)
    # grade and sort along each row: the reference's order of ties, which zero first
    ("<'i", True), (">'r", True), ("<'t", True), (">'t", True), ("{x@<x}'t", True),
    ("{x@>x}'t", True), ("{x@<x}'r", True), ("<'z", True), (">'z", True),
    ("{x@<x}'z", True), ("{x@>x}'z", True), ("<'one", True), ("<'[[5] [3]]", True),
    ("{*x@>x}'i", True), ("{x@<x}'big", True), ("{(<x)@<x}'t", True),
    # the last element, without reversing
    ("{*|x}'i", True), ("{*|x}'d3", True), ("{*|*x}'i", True), ("{*|x}'one", True),
    # the first of a grade: the library's argmax or argmin where the extreme is alone
    ("{*>x}'r", True), ("{*<x}'i", True), ("{*>x}'[[1 2 2] [3 3 1] [0 5 1]]", True),
    ("{*>x}'[[1.0 0.0] [2.0 0.0]]", True), ("{*<x}'z", True), ("{*>x}'t", True),
    ("{*<x}'nm", False), ("{*<*x}'i", False), ("{*>x}'d3", False),
    ("<'nm", False),                                 # where a NaN goes: the library's
    ("{<*x}'i", False),                              # grade of a number: an error
    # an Each inside the body: its body on the elements of every row at once
    ("{{x*2}'x}'d3", True), ("{+/'x}'d3", True), ("{*'x}'i3", True), ("{|'x}'r", None),
    ("{{x-(+/x)%#x}'x}'d3", True), ("{{x*2}'x}'r", True), ("{{x+c}'x}'i3", True),
    ("{{(+/x*x)^0.5}'x}'d3", True), ("{|\\'x}'i3", True), ("{{x@<x}'x}'i3", True),
    ("{{x,1}'x}'i3", True), ("{{#x}'x}'d3", True), ("{+/{x*x}'x}'i", True),
    ("{{+/'x}'x}'[2 2 2 2]:^!16", True), ("{{:[x>0;x;0]}'x}'i", True),
    ("{{x%0}'x}'i3", False),                         # a row's error: the loop raises it
    ("{{3}'x}'d3", False),                           # a nilad: called with no argument
    ("{{x@9}'x}'i3", False), ("{{x}'*x}'i", False),  # an error; Each of a number
    # a local of the literal around: the outer Each loops (each row's inner Each, over a
    # vector with v the same for all its numbers, batches: hence None, not False)
    ("{[v];v::x;{x+v}'x}'i", None),
    # dyadic Each, Each-left, Each-right of a dyad literal: the pairs at once
    ("r{(+/x)*y}'[1 2 3]", True), ("i{x,y}'i", True), ("r{:[(+/x)>0;x;y]}'r", True),
    ("i{x@y}'[0 1 2]", True), ("r{(+/x)^y}'[0.5 1.5 2.0]", True), ("u{x-(+/y)%#y}:\\r", True),
    ("r{[s];s::x+y;s*s}'r", True), ("u{x*y}:\\i", True), ("u{x-+/y}:/r", True),
    ("r{x%+/y}:/u", True), ("3{x+y}:\\i", True), ("[1 2 3]{x+y}'[4 5 6]", None),
    ("i{(+/x)-+/y}'|i", True), ("r{x-y}'i", None), ("r{x}'i", None), ("r{x+y}:/3", None),
    ("i{x@y}'[0 1 9]", False),                       # a row's error: the loop's
    ("r{x*y}'[1 2]", False),                         # lengths that differ
    ("r{x+nope}'r", None), ("r{(+/x)+nope}'[1 2 3]", False),
    ("[]{x+y}'[]", None), ("i{x@y}'[0 1.5 2]", False),
    # rows that are matrices
    ("+/'d3", True), ("*'i3", True), ("{x*2}'d3", None), ("{(+/x)%#x}'d3", True),
    ("{x@1}'i3", True), ("{1:+x}'i3", True), ("{2#x}'d3", True), ("|'i3", True),
    # take and drop by a constant
    ("{2#x}'i", True), ("{(-2)#x}'r", True), ("{9#x}'t", True), ("{(-9)#x}'r", True),
    ("{4#x}'i", True), ("{+/3#x}'r", True), ("{1_x}'i", True), ("{(-1)_x}'r", True),
    ("{+/2_x}'r", True), ("{#2_x}'t", True), ("{(-9)_x}'i", False), ("{4_x}'i", False),
    ("{0#x}'i", False), ("{2.0#x}'i", False), ("{(*x)#x}'i", False),
    ("{2#*x}'i", False), ("{1_*x}'i", False),
    # rotate by a constant
    ("{1:+x}'i", True), ("{(-5):+x}'r", True), ("{(4:+x)+0}'i", True), ("{(*|1:+x)-*x}'t", True),
    ("{1.5:+*x}'i", True), ("{1.5:+x}'i", False), ("{(*x):+x}'i", False),
    # shape: a constant of the batch
    ("{^x}'i", True), ("^'one", True), ("{^*x}'i", True), ("{(^x),#x}'r", True),
    # a value the same for every row, repeated for them (an empty one: the loop)
    ("{2#[1 2 3]}'i", None), ("{1.5}'r", None), ("{u}'i", None), ("{(^x)+3}'i", True), ("{(^x)+u}'i", False),
    ("{0#[1 2]}'i", False),
    ("{4611686018427387904*4}'i", False),
    # find: as many matches in every row
    ("{x?9}'[[9 1 9] [2 9 9]]", True), ("{x?*x}'[[1.0 2.0 1.0] [3.0 3.0 0.0]]", True),
    ("{x?2}'[[2 2.0] [2.0 2]]", None), ("{x?2.0}'[[2 1] [1 2]]", True),
    ("{x?1}'i", False), ("{x?*x}'t", False), ("{x?0.5}'r", False),
    ("{x?99999999999999999999}'i", False),
    # which zero a maximum keeps: where a -0.0 is among them (of zeros all 0.0, any)
    ("|/'[[0.0 -0.0] [1.0 2.0]]", False), ("&\\'[[0.0 -0.0] [1.0 2.0]]", False),
    ("|/'[[0.0 0.0] [1.0 0.0] [-1.0 0.0]]", True), ("&/'[[0.0 0.0] [1.0 0.0] [-1.0 0.0]]", True),
    ("|\\'[[0.0 0.0] [1.0 0.0] [-1.0 0.0]]", True),
    # errors a row raises: the loop raises them
    ("{x@7}'i", False), ("{x@-1}'r", False), ("{x+[1 2]}'i", False),
    ("{(+/x)@0}'i", False),
    # the numbers of a vector as rows (each a number, as a row's sum is)
    ("{x*w}'fv", True), ("{x*w}'iv", True), ("{x+u}'iv", True), ("{w-x}'fv", True),
    ("{x,w}'fv", None), ("{(x*w),x}'iv", None), ("{:[x>0;x*w;-w]}'fv", True),
    ("{+/x*w}'iv", None), ("{x*hv}'iv", False), ("{x*hv}'[1 2]", False),
    ("{#x}'fv", False), ("{x@0}'iv", False), ("{*x}'fv", None), ("{x*w}'[]", None),
    ("{x%w}'iv", True), ("{(x*w)^2}'fv", True),
    # a monad without a rule, of a value the same for every row: applied once
    ("{1.0*x=!4}'u", True), ("{x=!c}'iv", True), ("{x*!#w}'fv", True), ("{x+!4}'i", True),
    ("{x*!-1}'u", False),                            # an error: the loop raises it
    ("{x*!x}'u", False), ("{x+&[1 1 0 1 1]}'i", True), ("{x-(,1.5),2.5}'fv", True),
    # sums and products of rows of reals, each row left to right (the library's sum along
    # a row adds in another order: gg's rows differ in their last digits then); rows of
    # -0.0 sum to -0.0; Max and Min of reals by the library's fmax and fmin
    ("+/'gg", True), ("*/'gg", True), ("{+/x*x}'gg", True), ("{(+/x)%#x}'gg", True),
    ("{x-(+/x)%#x}'gg", True), ("+/'zz", True), ("*/'zz", True), ("{%+/x}'zz", False),
    ("{+/x|-x}'gg", True), ("{+/x|-x}'zz", True), ("{(x|-0.25)&0.25}'r", None),
    ("{(x|-0.25)&0.25}'z", None), ("{+/(x|-0.5)&0.5}'gg", True), ("{(+/x)|0.5}'r", True),
    ("{(x&|x)|-0.0}'z", True), ("{0.25|x}'r", None),
    # the first of a grade where a NaN is the extreme: the grade declines
    ("{*>x}'nn", False), ("{*<x}'nn", False), ("{*<x}'|nn", False),
    # + - * % of reals by the library's operation, a plain list beside the rows as it is
    ("{x-*x}'gg", True), ("{x%+/x}'gg", True), ("{x*fv}'d3", True), ("{x%*x}'z", False),
    # a real power of one number per row: a negative base to an infinite power is :undefined
    ("{(-1.0)^+/x}'[[1.0e308 1.0e308] [1.0 1.0]]", False), ("{(+/x*x*x)^1.5}'gg", False),
    ("{(*x)^+/x}'[[-1.0 1.0e308 1.0e308] [2.0 1.0 1.0]]", False), ("{(+/x*x)^0.5}'gg", True),
    ("{x-w}'gg", False), ("{(+/x)-w}'d3", True), ("{x*(+/'x)+0.5}'d3", True),
    # not a matrix, or no rule: the loop
    ("+/'rag", None), ("{#x}'rag", None), ("+/'[]", None), ("{+/x}'[]", None),
    ("+/'[[] [] []]", None), ("{+/x}'[[] []]", None), ("+/'one", True),
    ("{x-(+/x)%#x}'one", True), ("{x,\"a\"}'i", None), ("{?x}'i", None), ("+/'!3", None), ("{+/x}'[1.5 2.5]", None),
    # a vector read around the literal, times each number (an outer product), and Each of a
    # projection (a column, a row's element plus a fixed vector), as Gauss-Jordan's pivot
    ("{[w];w::x@1;{x*w}'x@0}'[[[1.0 -2.0] [0.5 3.0 4.0]]]", None), ("{x*u}'[1.0 -2.5 0.5]", True),
    ("{x*u}'[1 -2 4611686018427387904]", False), ("{y@x}(2;)'r", True), ("{y@x}(4;)'i", False),
    ("{(y@x)+u}(0;)'i", True),
    # a column picked straight from the matrix (batched._direct_pairs), or the loop's error
    ("{x@y}(;3)'i", True), ("{y@x}(0;)'t", True), ("{y@x}(-1;)'i", False),
    ("{y@x}(1.0;)'r", False), ("{x@y}(;4)'r", False), ("{y@x}(1;)'d3", None), ("{y%x}(0.0;)'r", False), ("{y%x}(2.0;)'r", True),
]


@pytest.fixture(params=MODES, ids=[f"{b}-{'codegen' if c else 'closures'}" for b, c in MODES])
def mode(request):
    return request.param


def watch_batched(monkeypatch, record):
    """record(result, n) for each result the batched evaluation gives: a run's (as
    _results stacks it), a matrix's part picked straight from it (_direct's and
    _direct_pairs's picks) and a vector joined to each number (batching.joined_each)."""
    results, direct = evaluation._results, evaluation._direct
    direct_pairs = evaluation._direct_pairs

    def stacked(r, n):
        found = results(r, n)
        record(found, n)
        return found

    def watched(plan):
        pick = direct(plan)
        if pick is None:
            return None

        def picked(a):
            r = pick(a)
            if r is not None:
                record(r, a.shape[0])
            return r
        return picked

    def watched_pairs(plan):
        pick = direct_pairs(plan)
        if pick is None:
            return None

        def picked(a, b, rows):
            r = pick(a, b, rows)
            if r is not None:
                record(r, r.shape[0])
            return r
        return picked
    joined = rules.joined_each

    def joined_watched(fixed, each, before):
        r = joined(fixed, each, before)
        if r is not None:
            record(r, each.shape[0])
        return r
    monkeypatch.setattr(evaluation, "_results", stacked)
    monkeypatch.setattr(evaluation, "_direct", watched)
    monkeypatch.setattr(evaluation, "_direct_pairs", watched_pairs)
    monkeypatch.setattr(rules, "joined_each", joined_watched)


def interpreter(mode, batch):
    backend, codegen = mode
    k = KlongInterpreter(backend=backend, codegen=codegen, batch=batch)
    k(SETUP)
    return k


@pytest.mark.parametrize("program, batched", PROGRAMS, ids=[p for p, _ in PROGRAMS])
def test_batched_rows_give_the_loops_outcome(mode, program, batched, monkeypatch):
    looped = outcome(interpreter(mode, False), program)
    gave = []
    watch_batched(monkeypatch, lambda r, n: gave.append(r))
    assert outcome(interpreter(mode, True), program) == looped
    if batched is True:
        assert gave, "the batched evaluation gave no result"
    elif batched is False:
        assert not gave, "the batched evaluation should have declined"


def test_a_batched_result_is_exact_and_its_element_type_is_kept(mode):
    k = interpreter(mode, True)
    assert write(k("{x-(+/x)%#x}'i")) == \
        "[[0.25 -1.75 -0.75 2.25] [-1.0 -5.0 6.0 0.0] [4.25 4.25 -6.75 -1.75]]"
    assert signature(k("+/'i")) == "Li"
    assert write(k("+/'big")) == "[9223372036854775808 3]"


def test_switching_batching_off(monkeypatch):
    """KLONG_BATCH=0 (read when an interpreter is made) and batch=False run the loop."""
    monkeypatch.setenv("KLONG_BATCH", "0")
    assert KlongInterpreter().batch is False
    assert KlongInterpreter(batch=True).batch is True
    monkeypatch.setenv("KLONG_BATCH", "1")
    assert KlongInterpreter().batch is True
    assert KlongInterpreter(batch=False).batch is False
    k = KlongInterpreter(batch=False)
    k("f::{x-(+/x)%#x}")
    assert k.globals["f"].whole is None
    k = KlongInterpreter(batch=True)
    k("f::{x-(+/x)%#x}")
    assert k.globals["f"].whole is not None


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_row_of_negative_zeros_sums_to_negative_zero(backend):
    """The sign of a zero sum, which no printed text shows: the batched sum of each row is
    the sum of that row alone, -0.0 where it holds nothing but -0.0 (the library's sums
    start from 0.0)."""
    import numpy as np
    k = KlongInterpreter(backend=backend, batch=True)
    k(SETUP)
    alone = [np.signbit(float(k(f"+/zz@{i}"))) for i in range(4)]
    assert alone == [True, False, False, False]
    for program in ("+/'zz", "{+/x}'zz"):
        sums = k(program)
        sums = sums.cpu() if hasattr(sums, "cpu") else sums      # (a tensor on a GPU)
        assert list(np.signbit(np.asarray(sums, dtype=float))) == alone, program


def test_a_batched_body_names_its_rows_failure_like_the_loop(mode):
    """The loop's error, with its position and the function it passed through."""
    for batch in (True, False):
        k = interpreter(mode, batch)
        with pytest.raises(KlongError) as e:
            k("f::{x@4}\nf'i")
        assert (e.value.kind, e.value.message) == ("index", "index 4 out of range 0..3")
        assert "f" in str(e.value)


@pytest.mark.skipif("torch" not in BACKENDS, reason="needs torch")
def test_differentiated_rows_give_the_loops_values():
    """Under :> the rows are tracked: a body of the rules that only take torch's steps on
    them batches (the gradient flows through those steps), any other declines and the
    loop's gradient is the result; the same gradients either way."""
    k = KlongInterpreter(backend="torch", batch=True)
    k("w::[1.0 2.0 3.0];m::[[1.0 2.0 3.0] [4.0 5.0 6.0]]")
    batched = write(k("{+/+/{x*w}'m}:>w"))
    loop = KlongInterpreter(backend="torch", batch=False)
    loop("w::[1.0 2.0 3.0];m::[[1.0 2.0 3.0] [4.0 5.0 6.0]]")
    assert batched == write(loop("{+/+/{x*w}'m}:>w")) == "[5.0 7.0 9.0]"
    program = "{+/,/(w{(x*y)-+/y}:\\m),m{x*(+/y)}'w}:>w"
    assert write(k(program)) == write(loop(program)) == "[11.0 22.0 9.0]"
    program = "{+/,/{x*y}(w;)'m}:>w"      # a projection's fixed argument differentiated
    assert write(k(program)) == write(loop(program)) == "[5.0 7.0 9.0]"



def test_a_narrow_real_interpreter_runs_the_loop(monkeypatch):
    """In a float32 interpreter a row's single reals are 64-bit (docs/numbers.md): the
    batch, in float32 throughout, could differ in the last digit, so the loop runs."""
    program = "{((+/x)%3)%7}'r"
    looped = KlongInterpreter(dtype="float32", batch=False)
    looped(SETUP)
    gave = []
    watch_batched(monkeypatch, lambda r, n: gave.append(1))
    k = KlongInterpreter(dtype="float32", batch=True)
    k(SETUP)
    assert outcome(k, program) == outcome(looped, program)
    assert not gave


def _calls(k, program):
    """The Python calls (functions and builtins) that running `program` makes; with the
    garbage collector off, whose callbacks (hypothesis installs one) are not the program's
    and come whenever a collection happens to fall inside the run."""
    count = [0]

    def profile(frame, event, arg):
        if event in ("call", "c_call"):
            count[0] += 1
    collecting = gc.isenabled()
    gc.disable()
    sys.setprofile(profile)
    try:
        k(program)
    finally:
        sys.setprofile(None)
        if collecting:
            gc.enable()
    return count[0]


@pytest.mark.parametrize("program", ["+/'m", "{x-(+/x)%#x}'m", "{(+/x*x)^0.5}'m", "{x@<x}'m",
                                     "{:[(+/x)>0;1;-1]}'m", "{x%+/x}'m", "+\\'m", "{*>x}'m"])
def test_a_batched_body_costs_the_same_calls_for_any_number_of_rows(mode, program, monkeypatch):
    """Batched, Each makes as many Python calls for 100,000 rows as for 1,000: each an
    array operation over all rows, so that the cost grows with the rows as the library's
    does (the loop makes some for every row)."""
    gave = []
    watch_batched(monkeypatch, lambda r, n: gave.append(n))
    counts = []
    for rows in (1000, 10000, 100000):
        k = KlongInterpreter(backend=mode[0], codegen=mode[1], batch=True)
        k(f"m::[{rows} 8]:^((!{8 * rows})!13)%7.0")
        k(program)                          # (made and cached once)
        counts.append(_calls(k, program))
    assert gave == [1000, 1000, 10000, 10000, 100000, 100000]
    assert counts[0] == counts[1] == counts[2]


# Row idioms of bench_independent (issue 32): Where counted or of equal counts, Enumerate of a
# row's tally, a row times a matrix, Find of a row's own value. Their own list and setup, so
# that they read apart from the table above.
GAP_SETUP = SETUP + """
mw::[4 3]:^(!12)%5.0
mi::[4 3]:^(!12)-5
cw::[[1 0 2] [0 3 0]]
m3::[3 2]:^[1.0 2.0 -1.0 0.5 0.0 3.0]
mz::[3 2]:^[0.0 -0.0 -0.0 0.0 1.0 -1.0]
zz::[[0.0 -0.0 0.0] [-0.0 -0.0 1.0]]
wide::[3 70]:^(!210)%7.0
ww::[70 2]:^(!140)%3.0
gw::[16 3]:^(((!48)*7919)!1009)%7.0
gv::((!16)*7919)!1009
nw::[3 2]:^[1.0 -2.0 0.5 1.0e308 -1.0 3.0]
fin::[2 3]:^(1.0e308*10),[2.0 2.0 1.0 2.0 5.0]
near::[[1.000000000000015 1.0] [1.0 2.0]]
close::[[0.1 0.30000000000000004 0.3] [0.3 0.30000000000000004 1.0]]
"""

GAPS = [
    # Where: counted (#&), or the positions where every row has as many of them
    ("{#&x>0}'r", True), ("{#&x>0}'i", True), ("{#&x}'cw", True), ("{#&x=*x}'t", True),
    ("{&x}'cw", True), ("{&x>0}'[[1.0 -1.0 2.0] [-1.0 3.0 4.0]]", True), ("{+/&x}'cw", True),
    ("{&x>0}'r", False),                             # ragged: the loop's list of lists
    ("{&x<-9}'i", False), ("{#&x<-9}'i", True),     # no positions; none counted
    ("{#&x}'[[1 -1] [2 0]]", False), ("{#&x}'r", False),    # the loop's errors
    ("{#&x}'big", False), ("{#&x}'iv", False),
    # Enumerate of a row's tally: one vector for every row
    ("{+/x*!#x}'r", True), ("{+/x*!#x}'i", True), ("{!#x}'i", True), ("{x-!#x}'d3", True),
    ("{x*!#x}'fv", False),                           # the tally of a number: the loop
    # a row times a matrix, folded along the row as the loop folds it
    ("{+/x*mw}'r", True), ("{+/x*mw}'i", True), ("{+/x*mi}'i", True), ("{+/x*mi}'r", True),
    ("{+/mw*x}'r", True), ("{+/x*m3}'nm", True), ("{+/x*mz}'zz", True), ("{+/x*m3}'zz", True),
    ("{+/x*ww}'wide", True), ("{+/x*mw}'[[1 2 3 4]]", True), ("{+/(2*x)*mw}'r", True),
    ("{+/x*mw}'one", False),                         # lengths that differ: the loop's error
    ("{+/x*mw}'d3", False), ("{+/x*[[1 2] [3 4]]}'[[1 2] [3 4]]", True),
    # +/ of a comparison: each row's count of its 1s (a plain operand broadcast, not copied)
    ("{+/u=x}'!5", True), ("{+/x=*x}'t", True), ("{+/x<u}'[2 3]", True), ("{+/x>0}'d3", True),
    ("{+/x=1}'fv", True), ("{+/u=x}'[1.0 2.5]", True),
    ("{+/x*w}'r", None),                             # a vector: the matrix-vector product
    # take of a reversed row: only the elements taken are reversed
    ("{4#|x}'r", True), ("{(-3)#|x}'i", True), ("{4#|x}'d3", True), ("{1#|x}'t", True),
    ("{9#|x}'i", True), ("{0#|x}'i", False), ("{2#|*x}'i", False), ("{(*x)#|x}'i", False),
    # Find of a row's own value
    ("{*x?|/x}'r", True), ("{*x?|/x}'[[3 1 2] [0 5 1]]", True),
    ("{*x?|/x}'i", True), ("{*x?&/x}'t", True),     # found twice: the first of them
]

# Row idioms made faster (issue 32, second round): the first place Find gives, without the
# others (near elements first, then Match's test where they do not settle it); sums of
# products with a vector or a matrix, folded column by column; views of the rows (the
# result a copy: an Amend in place leaves the matrix as it was); Max and Min with a zero
ROW_INDEX = [
    ("{*x?|/x}'gg", True), ("{*x?&/x}'gg", True), ("{*x?*|x}'r", True), ("{*x?*x}'i", True),
    ("{*x?0.3}'close", True), ("{*x?1.0}'near", True), ("{*x?2.0}'fin", True),
    ("{*x?2}'fin", True), ("{*x?0.5}'r", False), ("{*x?3}'i", False),
    ("{*x?|/x}'nn", None), ("{*x?99999999999999999999}'r", False), ("{*x?x}'r", False),
    ("{*x?|/x}'[[1.9999999999999998 2.0] [5.0 4.999999999999999]]", True),
    ("{*x?|/x}'[[0.0 -1.0] [-3.0 -3.0000000000000004]]", True), ("{*x?|/x}'fin", True),
    ("{*x?|/x}'[2 3]:^(-1.0e308*10),[5.0 1.0 2.0 5.0 5.0]", True), ("{*x?|/x}'zz", None),
    ("{*x?|/x}'[[1.0e-310 0.0] [-1.0e-310 -2.0e-310]]", True), ("{*(1_x)?|/x}'r", None),
    ("{+/x*!#x}'gg", True), ("{+/x*!#x}'zz", True), ("{+/x*!#x}'nm", True),
    ("{+/x*1.5*!#x}'i", True), ("{+/x*0.1*!#x}'i", True), ("{+/x*0.5*!#x}'huge", True),
    ("{+/x*gv}'gg", None), ("{+/x*[1 2 3 4]}'r", None), ("{+/x*[0.5 1.5 -2.0 4.0]}'i", None),
    ("{+/x*!#x}'wide", True), ("{+/(!#x)*x}'gg", True), ("{+/x*[1 2 3]}'r", False),
    ("{+/x*gw}'gg", True), ("{+/gw*x}'gg", True), ("{+/x*nw}'nm", True), ("{+/x*gw}'i", False),
    ("{+/x*(16;3)#!48}'gg", None), ("{+/x*[[1 2] [3 4] [5 6] [7 8]]}'r", True),
    ("{+/1_x}'gg", True), ("{(1_x)-(-1)_x}'r", True), ("{x-*x}'gg", True),
    ("{(x@0)-x@1}'r", True), ("{1_x}'r", True), ("{2#x}'i", True), ("{*x}'r", True),
    ("{x}'r", None), ("{|x}'r", True), ("{*|x}'gg", True), ("{2#|x}'r", True),
    ("q::{1_x}'r;q::q:=(,[9.0 9.0 9.0]),0;(q@0),r@0", True),
    ("q::{x+0}'i;q::q:=(,[9 9 9 9]),0;(q@0),i@0", None),
    ("q::{|x}'r;q::q:=(,[9.0 9.0 9.0 9.0]),0;(q@0),r@0", True),
    ("q::{x@1}'i;q::q:=99,0;q,i@0", True),
    ("{x|0.0}'r", None), ("{x&0.0}'gg", None), ("{x|0.0}'zz", None), ("{x&-0.0}'z", None),
    ("{+/x|0.0}'gg", True), ("{x|0.0}'nn", None),
]


# +/v=x of a row's number x and a plain integer vector v (a histogram): one tally of v's
# values; keys outside v's values count 0; a span too wide for a tally, reals, a list per row
# or the vector as the rows: the comparisons and their sums
TALLY_SETUP = SETUP + """
hv::[3 -2 5 5 0 3 3 -2 3]
wv::[0 4611686018427387904 1 1]
"""

TALLIES = [
    ("{+/hv=x}'(-4)+!12", True), ("{+/x=hv}'[5 3 99 -7]", True), ("{+/hv=x}'[3]", True),
    ("{+/hv=x}'[3.0 5.0]", True), ("{+/wv=x}'[1 0 4611686018427387904]", True),
    ("{+/(hv*1.0)=x}'[3 5]", True), ("{+/hv=x}'i", None), ("{+/x=3}'i", True),
    ("{+/hv=x}'[-9223372036854775808 3]", True), ("{+/(1_hv)=x}'!3", True),
    ("b::_(!1000)%50.0;{+/b=x}'!20", True), ("{+/hv=x}'big", False),
]


@pytest.mark.parametrize("program, batched", TALLIES, ids=[p for p, _ in TALLIES])
def test_counts_of_equal_numbers_give_the_loops_outcome(mode, program, batched, monkeypatch):
    _batched_beside_the_loop(*mode, TALLY_SETUP, program, batched, monkeypatch)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_histogram_counts_each_bin(backend, monkeypatch):
    k = KlongInterpreter(backend=backend)
    k("hist::{[b];b::_x*y;{+/b=x}'!y};v::(!40)%40.0")
    tallied = []
    tally = evaluation._tally
    monkeypatch.setattr(evaluation, "_tally", lambda *a: tallied.append(tally(*a)) or tallied[-1])
    assert write(k("hist(v;8)")) == "[5 5 5 5 5 5 5 5]"
    assert len(tallied) == 1 and tallied[0] is not None         # one tally, no comparisons
    assert write(k("{+/[0 99999]=x}'!3")) == "[1 0 0]"
    assert tallied[-1] is None                                  # too wide a span
    assert write(k("{+/[3 -2 5 5 0 3 3]=x}'(-3)+!10")) == "[0 1 0 1 0 0 3 0 2 0]"
    assert write(k("{+/[7 7 1]=x}'[7 100 -100 1]")) == "[2 0 0 1]"


@pytest.mark.parametrize("program, batched", ROW_INDEX, ids=[p for p, _ in ROW_INDEX])
def test_faster_row_idioms_give_the_loops_outcome(mode, program, batched, monkeypatch):
    _batched_beside_the_loop(*mode, GAP_SETUP, program, batched, monkeypatch)


@pytest.mark.parametrize("backend", BACKENDS)
def test_max_and_min_with_a_zero_keep_the_verbs_zero(backend):
    """x|0.0 of a list (the library's fmax where no element is a zero) gives, element by
    element, the zero Max gives each number alone: 0.0 for a negative x and a NaN, -0.0 for
    x|-0.0; a list holding a zero keeps it where the verb does."""
    import numpy as np
    k = KlongInterpreter(backend=backend)
    k("v::[1.5 -2.0 3.0 -0.5],(1.0e308*10)-1.0e308*10;z::[0.0 -0.0 -1.0 2.0]")
    for program in ("v|0.0", "v|-0.0", "v&0.0", "v&-0.0", "z|0.0", "z|-0.0", "z&0.0",
                    "z&-0.0", "0.0|v", "-0.0&z"):
        whole = host(k(program))
        one = [float(k(program.replace("v", f"(v@{i})").replace("z", f"(z@{i})")))
               for i in range(len(whole))]
        assert [(np.signbit(a), str(a)) for a in whole] == \
            [(np.signbit(a), str(a)) for a in one], program


def _batched_beside_the_loop(backend, codegen, setup, program, batched, monkeypatch):
    """`program` after `setup` gives the loop's outcome batched; `batched` (True, False or
    None: either) says whether the batched evaluation gave the result or declined."""
    def run(batch):
        k = KlongInterpreter(backend=backend, codegen=codegen, batch=batch)
        k(setup)
        # (ample: these programs end, but a loop of small steps on a loaded GPU machine
        # took more than the harness's default 2 s)
        return outcome(k, program, seconds=60)
    looped = run(False)
    gave = []
    watch_batched(monkeypatch, lambda r, n: gave.append(1))
    assert run(True) == looped
    if batched is True:
        assert gave, "the batched evaluation gave no result"
    elif batched is False:
        assert not gave, "the batched evaluation should have declined"


@pytest.mark.parametrize("program, batched", GAPS, ids=[p for p, _ in GAPS])
def test_row_idioms_give_the_loops_outcome(mode, program, batched, monkeypatch):
    _batched_beside_the_loop(*mode, GAP_SETUP, program, batched, monkeypatch)


# Torch rows beside the loop: a global tensor or an array constant read in the body, an
# overflow or an error in a row (the batch declines: the loop says what happens), pairs.
TORCH_SETUP = SETUP + """
u::[1.0 2.0 3.0 4.0]
v::[1 2 3 4]
g::{x@4}
"""

TORCH_ROWS = [
    ("{x-(+/x)%#x}'r", True), ("{:[(+/x)>0;1;-1]}'r", True), ("{x%+/x}'r", True),
    ("{x-u}'r", True), ("{+/x-v}'i", True), ("{x*u}'i", True),     # globals read
    ("{x+[1 2 3 4]}'i", True), ("{x*[0.5 1.5 2.5 3.5]}'r", True),  # the literal's constants
    ("{(x*x)-+/x}'big", False), ("{+/x}'big", False), ("{(x*x*x)-+/x}'i", True),  # int64
    ("g'i", False), ("{x@4}'r", False), ("{x%(+/x)-+/x}'i", False),  # a row's error, x%0
    ("r{x-+/y}'r", True), ("i{+/(x-y)^2}'r", True), ("u{x*+/y}:\\r", True),  # pairs
]


@pytest.mark.skipif("torch" not in BACKENDS, reason="needs torch")
@pytest.mark.parametrize("codegen", [True, False], ids=["codegen", "closures"])
@pytest.mark.parametrize("program, batched", TORCH_ROWS, ids=[p for p, _ in TORCH_ROWS])
def test_torch_rows_give_the_loops_outcome(codegen, program, batched, monkeypatch):
    _batched_beside_the_loop("torch", codegen, TORCH_SETUP, program, batched, monkeypatch)


@pytest.mark.skipif("torch" not in BACKENDS, reason="needs torch")
def test_differentiated_rows_give_the_loops_gradient():
    """Under :> (rows tracked, or a name read in the body) the loop's gradient."""
    ks = [KlongInterpreter(backend="torch", batch=batch) for batch in (True, False)]
    for k in ks:
        k("w::[1.0 2.0 3.0];m::[[1.0 2.0 3.0] [4.0 5.0 6.0]]")
    for program in ("{+/+/{(x*w)-+/x}'m}:>w", "{+/+/{x-(+/x)%#x}'m*x}:>2.0",
                    "{+/+/{(x*x)-(+/x)%#x}'m*x}:>1.5"):
        assert write(ks[0](program)) == write(ks[1](program))
    assert write(ks[0]("{+/+/{(x*x)-(+/x)%#x}'m*x}:>1.5")) == "252.0"


# The rules give views of the rows (a column, the first or last few, the rows reversed), and
# a batched result may be one (issue 32: a column is m[:, 2], no copy). Klong's values are
# immutable: an Amend in place (verbs/inplace.py) writes only an array that owns its memory
# and that no view holds, so amending the result leaves the matrix as it was, and amending
# the matrix leaves the result, globals and locals alike, as the loop's copies would.
VIEWS = ["{x@2}'m", "{1_x}'m", "{2#x}'m", "*'m", "{*x}'m", "{*|x}'m", "{|x}'m", "{4#|x}'m",
         "{(-2)_x}'m", "{(x@0)-x@1}'m", "{x@[3 0]}'m", "|'m", "{{x@2}(x)}'m"]
VIEW_AMENDS = [
    # the result amended: the matrix as it was
    "m::[3 4]:^1.5*!12;q::{view};q::q:=(q@1),0;(,q),,m",
    "{[m q];m::[3 4]:^1.5*!12;q::{view};q::q:=(q@1),0;(,q),,m}()",
    # the matrix amended: the result as it was
    "m::[3 4]:^1.5*!12;q::{view};m::m:=(,[9.0 9.0 9.0 9.0]),0;(,q),,m",
    "{[m q];m::[3 4]:^1.5*!12;q::{view};m::m:=(,[9.0 9.0 9.0 9.0]),0;(,q),,m}()",
    "m::[3 4]:^!12;q::{view};m::m:=(,[9 9 9 9]),0;(,q),,m",
    "{[m q];m::[3 4]:^!12;q::{view};m::m:=(,[9 9 9 9]),0;(,q),,m}()",
]


# Issue 32, third round: the idioms above with their edges, each beside the loop: an index
# out of range (the loop's error, with its message), a real or negative index, one column,
# integers and reals, no rows; *x?|/x from argmax where the largest is the only element
# within Match's tolerance of itself (else the steps before: a near element, a tie, 0.0
# beside -0.0, an infinity or NaN); +/x*w and +/x*!#x folded as columns.
EDGES_SETUP = SETUP + """
one1::[[1.5] [2.5] [-0.5]]
ione::[[3] [-1] [7]]
tie::[[3.0 1.0 3.0] [0.5 2.0 2.0]]
nb::[[1.0 1.0000000000000002 0.5] [0.25 2.0 1.9999999999999998]]
neg::[[-1.0 -2.0 -0.5] [-5.0 -0.25 -7.0]]
ninf::[2 3]:^(-1.0e308*10),[2.0 1.0 0.5 -3.0],-1.0e308*10
pinf::[2 3]:^(1.0e308*10),[2.0 1.0 0.5 -3.0 4.0]
nan::[2 3]:^[1.0 2.0],((1.0e308*10)-1.0e308*10),[4.0 5.0 6.0]
zs::[[0.0 -0.0 -1.0] [-0.0 -1.0 -2.0] [-3.0 0.0 -1.0]]
em::0#,[1.0 2.0 3.0]
wi::[[1 2] [3 4] [5 6] [7 8]]
"""

EDGES = [
    ("{x@2}'r", True), ("{x@2}'i", True), ("{x@4}'r", False), ("{x@-1}'i", False),
    ("{x@2.0}'r", False), ("{x@0}'one1", True), ("{x@1}'one1", False), ("{x@0}'ione", True),
    ("{x@2}'em", None), ("{x@2}'[]", None), ("{x@2}'gg", True), ("{x@15}'gg", True),
    ("{(x@0)-x@1}'r", True), ("{(x@0)-x@1}'i", True), ("{(x@0)-x@4}'r", False),
    ("{(x@0)-x@1}'one1", False), ("{(x@0)-x@1}'big", None),
    ("{4#|x}'r", True), ("{4#|x}'i", True), ("{4#|x}'gg", True), ("{4#|x}'one1", True),
    ("{2#|x}'ione", True), ("{(-2)#|x}'r", True), ("{4#|x}'em", None),
    ("*'r", True), ("*'one1", True), ("*'ione", True), ("*'em", None),
    ("#'r", True), ("#'one1", True), ("#'em", None), ("#'gg", True),
    ("{*>x}'r", True), ("{*<x}'i", True), ("{*>x}'tie", True), ("{*<x}'one1", True),
    ("{x@<x}'i", True), ("{x@<x}'tie", True), ("{x@>x}'r", True), ("{x@<x}'ione", True),
    ("{x@>x}'i", True), ("{x@<x}'one1", True), ("{x@<x}'zs", None), ("{x@>x}'z", None),
    ("{x@<x}'nan", None), ("{x@<x}'ninf", True), ("{x@<x}'em", None), ("{x@<x}'gg", True),
    ("{(|x)@<|x}'i", True), ("{x@<1_x}'i", True), ("{(1_x)@>1_x}'tie", True),
    ("{x@<x}'big", True), ("{x@<x}'d3", None),
    ("{+/(x>-0.1)&x<0.1}'r", True), ("{+/(x>-0.1)&x<0.1}'gg", True),
    ("{+/(x>1)&x<5}'i", True), ("{+/(x>1)|x<0}'i", True), ("{+/(x>1)&x}'i", True),
    ("{+/(x=1)|(x>2)&x<5}'i", True), ("{+/(x>0.5)&x<0.1}'one1", True),
    ("{+/(x>0)&x<9}'big", True), ("{+/(x>-0.1)&x<0.1}'em", None),
    ("{*x?|/x}'r", True), ("{*x?|/x}'i", True), ("{*x?|/x}'t", True), ("{*x?|/x}'tie", True),
    ("{*x?|/x}'nb", True), ("{*x?|/x}'neg", True), ("{*x?|/x}'ninf", None),
    ("{*x?|/x}'pinf", None), ("{*x?|/x}'nan", None), ("{*x?|/x}'zs", None),
    ("{*x?|/x}'one1", True), ("{*x?|/x}'ione", True), ("{*x?|/x}'big", True),
    ("{*x?|/x}'gg", True), ("{*x?|/x}'em", None), ("{*x?&/x}'r", True),
    ("{+/x*!#x}'r", True), ("{+/x*!#x}'one1", True), ("{+/x*!#x}'gg", True),
    ("{+/x*!#x}'zs", True), ("{+/x*!#x}'i", None), ("{+/x*w}'r", None),
    ("{+/x*wi}'r", True), ("{+/x*wi}'i", None), ("{+/x*[[0.5]]}'one1", True),
    ("{+/x*[0.5]}'one1", None), ("{+/x*wi}'nm", None), ("{+/x*w}'em", None),
]


@pytest.mark.parametrize("program, batched", EDGES, ids=[p for p, _ in EDGES])
def test_row_idioms_at_their_edges_give_the_loops_outcome(mode, program, batched,
                                                          monkeypatch):
    _batched_beside_the_loop(*mode, EDGES_SETUP, program, batched, monkeypatch)


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("template", VIEW_AMENDS, ids=range(len(VIEW_AMENDS)))
def test_amending_a_batched_view_or_its_matrix_changes_only_that_one(mode, view, template,
                                                                       monkeypatch):
    program = template.replace("{view}", view)
    _batched_beside_the_loop(*mode, SETUP, program, None, monkeypatch)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_column_of_the_rows_is_a_view_and_amends_stay_apart(backend, monkeypatch):
    """{x@2}'m is a view of m (no copy); the Amend of m that follows is not made in place
    while the view holds m, and one of a matrix that nothing else holds is."""
    from klong.verbs import structural
    k = KlongInterpreter(backend=backend, batch=True)
    k("m::[3 4]:^1.5*!12")
    v = k("{x@2}'m")
    base = v.base if backend == "numpy" else v._base
    assert base is not None
    amended = structural.amend
    written = []

    def spy(a, b, in_place=False):          # (called only for an Amend in place)
        written.append(in_place)
        return amended(a, b, in_place=in_place)
    monkeypatch.setattr(structural, "amend", spy)
    assert write(k("q::{x@2}'m;m::m:=(,[9.0 9.0 9.0 9.0]),0;q,m@0")) == \
        "[3.0 9.0 15.0 9.0 9.0 9.0 9.0]"
    assert written == []                    # (the view q holds m: a copy amended)
    assert write(k("q::0;m::m:=(,[7.0 7.0 7.0 7.0]),1;m@1")) == "[7.0 7.0 7.0 7.0]"
    assert written == [True]                # (nothing holds m now: written in place)
    assert write(k("q::{x@2}'m;q::q:=99.0,0;q,m@0")) == "[99.0 7.0 15.0 9.0 9.0 9.0 9.0]"
    assert written == [True]                # (q is a view: a copy amended)



# A While of literals in a batched body (verbs/batched.py _while): every row's loop at once,
# in lock step, the rows whose predicate is false set aside; rows that end at different
# steps, a state that is a list, locals of the body around read by the loop's literals
# (a While inside a While's body reads the one around it), the pairs of a projected dyad
# (binary search, bs(v;)'keys). The loop runs where a row's result would differ in kind
# or shape (a mixed list), an integer leaves int64, a row fails, or the predicate is a list.
WHILE_SETUP = """
v::[1 3 5 7 9 11 13]
lim::50
bs::{[a k];a::x;k::y;*{(x@0)<x@1}{[m];m::(+/x):%2;:[(a@m)<k;(m+1),x@1;(x@0),m]}:~0,#a}
p::{x<100}
"""

WHILES = [
    ("{{x<100}{x*2}:~x}'[1 3 7 50 200]", True), ("{{x<100}{x*2.5}:~x}'[1 3 7 50]", True),
    ("{{x<100.0}{x+x}:~x}'[0.5 3.0 99.0]", True), ("{{x<lim}{x*3}:~x}'[1 2 4 60]", True),
    ("bs(v;)'[0 1 2 6 7 13 14 100]", True), ("bs(v;)'[4]", True), ("bs(v;)'[]", None),
    ("bs(v*1.5;)'[0 1 2 6 7 13 14 100]", True), ("bs(v;)'[1.5 7.0 20.0]", True),
    ("{[s];s::x*3;{x<s}{x+1}:~0}'[2 5 0]", True), ("[1 2 3]{[t];t::y;{x<t}{x+1}:~x}'[5 6 2]", True),
    ("{[s];s::x;{(#x)>5}{x,s}:~[0]}'[1 2]", True), ("{[s];s::x;{(#x)<3}{x,s}:~[0]}'[1 2]", True),
    ("{[s];s::x;{0}{x+s}:~0}'[1 2]", None),         # a nilad predicate ("{{x<100}{x*2}:~x+1}'u", True),
    ("{[s];s::x;{x<s}{[t];t::x;x+{x<t}{x+1}:~0}:~1}'[5 9 1]", True),
    ("{{(*x)<20}{x+1,2}:~x,0}'[3 8 30]", True), ("{*{(*x)<9}{(x@1),+/x}:~0,x}'[1 2 3]", True),
    # rows of pairs ending at many different steps (Euclid's gcd), gathered back in place
    ("[12 7 0 100 35 81 64]{*{0<x@1}{(x@1),(x@0)!x@1}:~x,y}'[18 21 5 75 0 27 1]", True),
    ("{{(*x)<50}{((*x)+x@1),(x@0)}:~x,1}'[1 2 3 40 49 50 7]", True),
    ("{{x<10}{x+0.5}:~x}'[20 3]", False),           # an integer and a real: a mixed list
    ("{{x<9223372036854775807}{x*2}:~x}'[1 3]", False),     # beyond int64: big integers
    ("{{x<10}{x@1}:~x}'[1 2]", False),              # a row's error: the loop raises it
    ("{{x<10}{x+10%x-3}:~x}'[4 3]", False),         # a division by zero in a row
    ("{{(#x)<3}{x,x}:~x}'[1 2]", False),            # a list as the predicate's value
    ("{{x<100}{x*2}\\~x}'[1 3]", None), ("{p{x*2}:~x}'[1 3]", None),
    ("{{x<10}{x+nope}:~x}'[1 2]", False), ("{[s];s::x;{x<s}{x+1}:~s-3}'[5 9 1]", True),
    # a row whose loop never ends, where its own run never gets to it (a branch not taken;
    # an earlier row's error after its loop): past batched.WHILE_STEPS, the loop decides
    ("{:[x>10;{x<100}{x*2}:~x;x]}'[20 0]", False), ("{[r];r::{x<100}{x*2}:~x;r@5}'[1 0]", False),
    # locals of the loop's predicate and of its body, set afresh at every step of every row
    # (each step's run starts with none: _while)
    ("{{[t];t::x*2;t<50}{[u];u::x+1;u*2}:~x}'[1 3 30 0]", True),
    ("{*{[t];t::(x@0)+x@1;t<40}{[u];u::x@1;u,(x@0)+u}:~x,1}'[1 2 50]", True),
]


@pytest.mark.parametrize("program, batched", WHILES, ids=[p for p, _ in WHILES])
def test_a_while_in_a_batched_body_gives_the_loops_outcome(mode, program, batched, monkeypatch):
    _batched_beside_the_loop(*mode, SETUP + WHILE_SETUP, program, batched, monkeypatch)


def test_a_batched_while_gives_each_rows_value(mode):
    k = interpreter(mode, True)
    k(WHILE_SETUP)
    assert write(k("bs(v;)'[0 1 2 6 7 13 14 100]")) == "[0 0 1 3 3 6 7 7]"
    assert write(k("{[s];s::x;{x<s}{[t];t::x;x+{x<t}{x+1}:~0}:~1}'[5 9 1]")) == "[8 16 1]"
    assert write(k("{{x<100}{x*2.5}:~x}'[1 3 7 50]")) == "[244.140625 117.1875 109.375 125.0]"
    assert write(k("[12 7 0 100 35 81 64]{*{0<x@1}{(x@1),(x@0)!x@1}:~x,y}'[18 21 5 75 0 27 1]")) \
        == "[6 7 5 25 35 27 1]"
    assert write(k("{{(*x)<50}{((*x)+x@1),(x@0)}:~x,1}'[1 2 3 40 49 50 7]")) == \
        "[[55 34] [55 34] [76 47] [81 41] [50 49] [50 1] [61 38]]"
    assert write(k("{{[t];t::x*2;t<50}{[u];u::x+1;u*2}:~x}'[1 3 30 0]")) == "[46 38 30 30]"
    assert write(k("{*{[t];t::(x@0)+x@1;t<40}{[u];u::x@1;u,(x@0)+u}:~x,1}'[1 2 50]")) == \
        "[21 18 50]"


# The bounds of Rows' integers (batching.Rows.bounds), carried from rule to rule and from
# step to step of a batched While: the checks they settle scan nothing, and where they do
# not settle them (an integer that may leave int64, a dividend that may be negative, an
# index that may be out of range) the rules decide as before. Rows that end at different
# steps, an overflow to big integers in the last step of some rows (a product by a negative
# number: both ends of the bounds), truncated quotients of negative dividends, remainders,
# Max and Min, sums of pairs, an index out of range after some steps.
BOUNDED_WHILES = [
    ("{{x<4000000000000000000}{(x*2)+1}:~x}'[1 5 1000000000000]", True),
    ("{{x<5000000000000000000}{(x*2)+1}:~x}'[1 5 3000000000000000000]", True),  # int64's top
    ("{{x<8000000000000000000}{(x*2)+1}:~x}'[1 5 7]", False),        # big integers
    ("{{(x<4000000000000000000)&x>-4000000000000000000}{x*-3}:~x}'[1 -2 5]", True),
    ("{{(x<5000000000000000000)&x>-5000000000000000000}{x*-3}:~x}'[1 -2 5]", False),
    ("{{(*x)<100}{((*x)+x@1),(x@0)}:~x,1}'[1 2 3]", True),
    ("{{(*x)<1000000000000000000000}{((*x)+x@1),(x@0)}:~x,1}'[1 2 3]", False),
    ("{{x>-3}{(x-7):%2}:~x}'[10 3 100]", True),          # -9:%2 is -4, not numpy's -5
    ("{*{(x@1)<12}{((((x@0)*7)+3)!11),(x@1)+1}:~x,0}'[1 2 3]", True),
    ("{{x>3}{(x+5)!(x-2)}:~x}'[7 40 9]", True),
    ("{{x<100}{(x*3)|x+50}:~x}'[1 2]", True), ("{{x<100}{(x*3)&x+50}:~x}'[1 2 90]", True),
    ("{{x<1000}{(x*2)-(x-1)}:~x}'[1 -5 998]", True),
    ("{{(x@0)<x@1}{((x@0)+1),(x@1)-1}:~x,20}'[0 5 19 30]", True),
    ("{{x<40}{x+|/w@(x!12),0}:~x}'[0 1 5]", True),
    ("{{x<20}{x+w@x}:~x}'[0 1]", False),                 # an index out of range, later
    ("bs(w;)'[0 1 6 12 13]", True), ("bs(-w;)'[0 -1]", True),
    # bounds known from a plain start and comparisons (one verb a statement: a tree of
    # them is fused.py's): a dividend that turns negative in one row (-7:%2 is -3), a
    # product of two Rows of either sign beyond int64 in one row, both from their bounds
    ("{[k];k::x;{x>-3}{[c d];c::k<1;d::x-8;(d+c):%2}:~10}'[0 1]", True),
    ("{[k c s];k::x;c::k<2;s::3100000001*c;*|{(*x)<1}{[t];t::1-x@1;((*x)+1),t*x@1}:~0,1-s}'[0 5]",
     False),
]

BOUNDED_SETUP = "w::1+!12\n"


@pytest.mark.parametrize("program, batched", BOUNDED_WHILES, ids=[p for p, _ in BOUNDED_WHILES])
def test_bounds_carried_through_a_batched_while_give_the_loops_outcome(mode, program, batched,
                                                                       monkeypatch):
    _batched_beside_the_loop(*mode, SETUP + WHILE_SETUP + BOUNDED_SETUP, program, batched,
                             monkeypatch)


def test_bounds_carried_through_a_batched_while_give_each_rows_value(mode):
    k = interpreter(mode, True)
    k(WHILE_SETUP + BOUNDED_SETUP)
    assert write(k("{{x>-3}{(x-7):%2}:~x}'[10 3 100]")) == "[-3 -4 -3]"
    assert write(k("{{x<5000000000000000000}{(x*2)+1}:~x}'[1 5 3000000000000000000]")) == \
        "[9223372036854775807 6917529027641081855 6000000000000000001]"
    assert write(k("{{(*x)<100}{((*x)+x@1),(x@0)}:~x,1}'[1 2 3]")) == \
        "[[144 89] [144 89] [123 76]]"
    assert write(k("{*{(x@1)<12}{((((x@0)*7)+3)!11),(x@1)+1}:~x,0}'[1 2 3]")) == "[7 1 6]"
    assert write(k("{[k];k::x;{x>-3}{[c d];c::k<1;d::x-8;(d+c):%2}:~10}'[0 1]")) == "[-3 -3]"
    assert write(k("{[k c s];k::x;c::k<2;s::3100000001*c;"
                   "*|{(*x)<1}{[t];t::1-x@1;((*x)+1),t*x@1}:~0,1-s}'[0 5]")) \
        == "[-9610000003100000000 0]"


# The rules of atomic dyads applied straight to operands of one kind (batching._direct):
# comparisons, + - * exact on integers within int64, Integer-Divide and Remainder of
# naturals, integer Max and Min; where they do not apply (a negative dividend, a real beside
# an integer, a real Max), the rule's general path; and Each of a projection of a dyad
# with a batched form of pairs, tried before its forms are made (safe(x;)'!n), the loop
# where it declines
DIRECT_SETUP = """
safe::{[d];d::(#x)-!#x;~|/(x=y)|(x=y+d)|x=y-d}
at::{x@y}
"""

DIRECT = [
    ("{(x:%2),*|x}'[[4 7] [9 0]]", True), ("{(x!3),*|x}'[[4 7] [9 0]]", True),
    ("{(x:%2),*|x}'[[4 -7] [9 0]]", True), ("{(x!-3),*|x}'[[4 7] [9 0]]", True), ("{x:%0}'[[4 7] [9 0]]", False), ("{x!0}'[[4 7] [9 0]]", False),
    ("{(x<[3 1]),(x=[4 0]),(x>2),x|[5 1]}'[[4 7] [9 0]]", True),
    ("{(x&[5 1]),(x|-1),x&9}'[[4 7] [9 0]]", True), ("{(x<2.5),*|x}'[[4 7] [9 0]]", True),
    ("{(x+x),(x*3),(x-9223372036854775799),*|x}'[[4 7] [-8 0]]", True),
    ("{(x+x),(x-9223372036854775807),*|x}'[[4 7] [-9 0]]", False),     # beyond int64
    ("{x*4611686018427387904}'[[1 2] [3 4]]", False), ("{x+[1 2 3]}'[[4 7] [9 0]]", False),
    ("{((x+0.5)*x-1.5),*|x}'[[4.0 7.0] [9.0 0.0]]", True), ("{x|0.5}'[[4.0 -0.0] [9.0 0.0]]", None),
    ("{x<[[1 2] [3 4]]}'[[4 7] [9 0]]", True), ("{x=[1 2]}'[1 2 3]", True),
    ("safe([0 2];)'!5", True), ("safe([1 3 0];)'!4", True), ("at([1 2 3];)'[0 2 1]", True),
    ("at([1 2 3];)'[0 5]", False), ("at(;1)'[[1 2] [3 4]]", True), ("at(;5)'[[1 2] [3 4]]", False),
]


@pytest.mark.parametrize("program, batched", DIRECT, ids=[p for p, _ in DIRECT])
def test_direct_rules_and_projections_give_the_loops_outcome(mode, program, batched, monkeypatch):
    _batched_beside_the_loop(*mode, SETUP + DIRECT_SETUP, program, batched, monkeypatch)


def test_direct_rules_give_each_rows_value(mode):
    k = interpreter(mode, True)
    k(DIRECT_SETUP)
    assert write(k("{(x:%2),(x!3),(x<[5 1]),x|[5 1]}'[[4 7] [9 0]]")) == \
        "[[2 3 1 1 1 0 5 7] [4 0 0 0 0 1 9 1]]"
    assert write(k("safe([0 2];)'!5")) == "[0 0 0 0 1]"
    assert write(k("{(x+x),x*3}'[[4 7] [-9 0]]")) == "[[8 14 12 21] [-18 0 -27 0]]"


# A global holding one of the backend's element-wise math functions (.bkf) called in the
# body: all rows at once; a Klong function, or a draw of random numbers, the loop calls
CALL_SETUP = SETUP + """
.bkf(["tanh" "exp" "sqrt"])
sq::{x*x}
W::[4 3]:^(!12)%12.0
B::[0.5 -0.25 1.0]
lin::{B++/x*W}
fst::{*x}
"""

CALLS = [
    ("{tanh(x)}'r", True), ("{exp(+/x)}'r", True), ("{+/exp(x*w)}'r", True),
    ("{tanh(B++/x*W)}'r", True), ("{tanh(x)}'i", True), ("{sqrt(x*x)}'r", True),
    ("{sq(x)}'r", True), ("{normal(x)}'r", False), ("{tanh(x)}'rag", None),
]


@pytest.mark.parametrize("program, batched", CALLS, ids=[p for p, _ in CALLS])
def test_element_wise_functions_batch(mode, program, batched, monkeypatch):
    setup = CALL_SETUP
    if "normal" in program:
        if mode[0] != "torch":
            pytest.skip("numpy has no normal of x")
        setup += '.bkf("normal");.srn(5)'
    _batched_beside_the_loop(*mode, setup, program, batched, monkeypatch)


@pytest.mark.skipif("torch" not in BACKENDS, reason="needs torch")
@pytest.mark.parametrize("codegen", [True, False])
@pytest.mark.parametrize("program, batched", [
    ("{+/{fst(x*w)}'r}:>w", False), ("{+/{sq(x*w)}'r}:>w", True),
    ("{+/{*lin(x)}'r}:>W", False), ("{+/{+/lin(x)}'r}:>W", True),
])
def test_a_called_literal_not_the_graphs_declines_differentiated(codegen, program, batched,
                                                                 monkeypatch):
    """Under :> a called literal whose body takes a step that is not the graph's (First)
    declines where what it runs on is tracked, and so does one whose tracked result a
    caller's step that is not the graph's would take: the loop's gradient; one made of the
    graph's steps, called from one, runs batched."""
    _batched_beside_the_loop("torch", codegen, CALL_SETUP, program, batched, monkeypatch)


# A global holding a monad literal with a batched body of its own (LambdaFacts.batched),
# called in a batched body: its body on the rows, the names it reads read as it reads them;
# one that may have effects (it prints, it assigns a global), calls itself, is a dyad, or
# has no batched body declines, and so does a call whose body a row's error stops
LITERAL_SETUP = CALL_SETUP + """
sq1::{sq(x)-1}
net::{c++/w*tanh(c+w*x)}
one::{x%(+/x)-4}
loud::{.p(x);x*x}
bump::{n::n+1;x*x}
down::{:[(*x)<0;x;down(x-1)]}
two::{x*y}
cnt::{#x}
n::0
k::2.0
kx::{x*k}
"""

LITERALS = [
    ("{sq(x)-1}'r", True), ("{sq(x)-1}'i", True), ("{sq1(x)+1}'r", True),
    ("{sq(sq(x))}'i", True), ("{net(x@0)}'r", True), ("{+/net(x)}'r", True),
    ("{kx(x)}'r", True), ("{cnt(x)}'i", True), ("{sq(3)+x}'i", True),
    ("{one(x)}'i", False), ("{loud(x)}'r", False), ("{bump(x)}'r", False),
    ("{down(x)}'i", False), ("{two(x)}'r", False), ("{sq(x)}'rag", None),
    ("{sq(x)}'big", False),
]


@pytest.mark.parametrize("program, batched", LITERALS, ids=[p for p, _ in LITERALS])
def test_calls_of_literals_batch(mode, program, batched, monkeypatch):
    _batched_beside_the_loop(*mode, LITERAL_SETUP, program, batched, monkeypatch)


# A global holding a dyad literal with a batched body of its own, called with two arguments
# in a batched body: its body on the rows (x, y or both one value per row); one that calls
# itself, has effects or stops at a row's error declines
DYAD_SETUP = LITERAL_SETUP + """
gcd::{*{0<x@1}{(x@1),(x@0)!x@1}:~x,y}
idx::{x@y}
dn::{:[y<0;x;dn(x;y-1)]}
mix::{(x*k)+y}
lp::{.p(x);x+y}
"""

DYAD_CALLS = [
    ("{two(x;x)}'r", True), ("{two(x;3)}'i", True), ("{two(2;x)}'r", True),
    ("{+/two(x;x)}'r", True), ("u{two(x;y)}'u", True), ("{mix(x;x)}'r", True),
    ("{two(x;x)}'big", False), ("{two(x;x)}'hv", None),
    ("[12 17 100 0 7]{gcd(x;y)}'[18 5 75 9 0]", True), ("{gcd(x;6)}'[4 9 35 0]", True),
    ("{idx(x;9)}'i", False), ("{idx(x;1)}'i", True), ("{dn(x;2)}'i", False),
    ("{lp(x;1)}'r", False), ("{two(x;x)}'rag", None), ("{sq(two(x;2))}'r", True),
]


@pytest.mark.parametrize("program, batched", DYAD_CALLS, ids=[p for p, _ in DYAD_CALLS])
def test_calls_of_dyad_literals_batch(mode, program, batched, monkeypatch):
    _batched_beside_the_loop(*mode, DYAD_SETUP, program, batched, monkeypatch)


@pytest.mark.skipif("torch" not in BACKENDS, reason="needs torch")
@pytest.mark.parametrize("codegen", [True, False])
@pytest.mark.parametrize("program, batched", [
    ("{+/{two(x;w)}'r}:>w", True), ("{+/{idx(x*w;0)}'r}:>w", False),
])
def test_a_called_dyad_literal_differentiated(codegen, program, batched, monkeypatch):
    _batched_beside_the_loop("torch", codegen, DYAD_SETUP, program, batched, monkeypatch)


def test_a_called_literal_is_read_as_it_is_called(mode, monkeypatch, capsys):
    """The global called is read at every Each, and the names its body reads as it reads
    them: a literal redefined, or a global it reads assigned, between two Eachs gives the
    new one's rows; one redefined with effects declines and prints once per row."""
    k = interpreter(mode, True)
    k(LITERAL_SETUP)
    gave = []
    watch_batched(monkeypatch, lambda r, n: gave.append(1))
    assert write(k("{kx(x)+1}'u")) == "[3.0 5.0 7.0 9.0]"
    k("k::3")
    assert write(k("{kx(x)+1}'u")) == "[4 7 10 13]"
    k("kx::{x-k}")
    assert write(k("{kx(x)+1}'u")) == "[-1 0 1 2]"
    assert len(gave) == 3
    k("kx::{.d(x);x}")
    capsys.readouterr()
    assert write(k("{kx(x)+1}'u")) == "[2 3 4 5]"
    assert len(gave) == 3 and capsys.readouterr().out == "1234"


@pytest.mark.skipif("torch" not in BACKENDS, reason="needs torch")
@pytest.mark.parametrize("program", [
    "{(+/+/{tanh(B++/x*W)}'r)}:>B", "{+/+/{(x*w)-+/x}'r}:>w", "{+/{+/(x*w)-x}'r}:>w",
    "{+/+/{exp(B++/x*W)%3}'r}:>W", "{+/{|/x*w}'r}:>w", "{+/+/{tanh(lin(x))}'r}:>W",
    "{+/+/{lin(x)*2}'r}:>B",
])
def test_differentiated_rows_batch_through_the_graph(program, monkeypatch):
    """A tracked body of sums of products, + - * %, Max and Min and element-wise functions
    runs batched under :> (the library's product is the step of the graph, holding Klong's
    sums): the loop's loss to the bit, its gradient to rounding, and capture's replay of
    the same steps the same bits as the evaluation it recorded."""
    def run(batch, capture=True):
        k = KlongInterpreter(backend="torch", batch=batch, capture=capture)
        k(CALL_SETUP)
        return k
    loss = program[1:program.index("}:>")]
    looped, batched = run(False), run(True)
    assert write(batched(loss)) == write(looped(loss))
    gave = []
    watch_batched(monkeypatch, lambda r, n: gave.append(1))
    got = batched(program)
    assert gave, "the batched evaluation gave no result"
    want = looped(program)
    assert got.shape == want.shape
    assert abs(got - want).max() <= 1e-12 * max(1.0, float(abs(want).max()))
    step = f"g::0;s::{{g::{program};0}}"
    on, off = run(True), run(True, capture=False)
    for k in (on, off):
        k(step)
        for _ in range(7):
            k("s()")
    assert " 3 replays" in on.capture.explain()
    assert write(on("g")) == write(off("g"))

# Issue 35's n-queens and binary search: atomic dyads of one kind applied straight to the
# library's operation (batching.direct_rows: rows beside rows, a number, a plain array;
# rows of other kinds, shapes or an integer past int64 take the rule's general steps),
# an element of each row by a constant index (batched._element), and Each-Left and
# Each-Right of a primitive over three or more numbers once for all of them (forms.py
# _primitive_pairs; the loop where the rule declines or the list is shorter), a plain
# vector joined to each number of its kind at any length (batching.joined_each), each
# beside the loop
QUEENS_SETUP = """
safe::{[d];d::(#x)-!#x;~|/(x=y)|(x=y+d)|x=y-d}
q::{:[n=#x;1;0+/q'x,:\\&safe(x;)'!n]}
nq::{n::x;+/{q(,x)}'!n}
"""

QUEENS = [
    ("{x-|x}'i", True), ("{(x=|x)+x<|x}'r", True), ("{(x+1.5)-*x}'i", True), ("{(x*2)+*x}'r", True),
    ("{x+9223372036854775808}'i", False), ("{[1 2 3]-x}'[4 5]", True),
    ("{x*[0.5 1.5]}'[1.0 2.0]", True), ("{x*[0.5 1.5]}'[1 2]", True),
    ("{x-[1 2 3 4]}'i", True), ("{[1 2 3 4]<x}'i", True), ("{x+[1 2 3]}'i3", True),
    ("{x+[9223372036854775807 0 0 0]}'i", False), ("{x=[1.5 2 3 4]}'i", None),
    ("{(x@0)+x@3}'i", True), ("{x@4}'i", False), ("{x@0}'iv", False), ("{(x@1)*2}'i3", True),
    ("[1 2],:\\[3 4 5]", True), ("[1 2],:\\[3 4]", True), ("[1.5 2.5],:\\[1 2 3]", False),
    ("[[1 2] [3 4]],:\\[5 6 7]", False), ("[3 4 5],:/[1 2]", True), ("[1 2],:/[3 4 5]", True),
    ("[1 2],:\\[7]", True), ("[1.5],:/[2.5]", True), ("[1 2],:\\[1.5]", False),
    ("[1 2 3]+:\\[10 20 30]", True), ("[1 2 3]-:/[10 20 30]", True), ("5-:\\[1 2 3]", True),
    ("0,:\\[1 2 3]", True), ("[1.5 2.5]*:\\[1.0 2.0 4.0]", True), ("[1 2 3]@:\\[0 1 5]", False),
    ("[1 2]+:\\[[1 2 3] [4 5 6] [7 8 9]]", False), ("[9223372036854775807 0]+:\\[1 2 3]", False),
    ("\"ab\",:\\\"cde\"", None), ("[1 2],:\\[]", None), ("[1 2 3]=:/[3 2 1]", True),
    ("safe([0 2];)'!5", True), ("safe([0.0 2.0];)'[0 1.5 4]", None), ("nq'[1 2 3 4 5 6]", None),
    # |/ and &/ of each row inside a tree of integer verbs (fused.py): of a row's vector, of
    # a row's number (itself), of truths, beside vectors after, of a plain vector (the
    # verb's, once), of one-element rows, past int64 (the verbs' steps)
    ("{~|/x=3}'i", True), ("{&/(x>0)|x=-4}'i", True), ("{(|/x<3)+|/x}'i", True),
    ("{(|/x)+x}'i", True), ("{x-&/x}'i", True), ("{|/(x*2)-1}'[1 2 3]", True),
    ("{~&/[1 2 3]=x}'[1 2 3]", True), ("{x+|/[4 5 6]=5}'[1 2]", True),
    ("{(|/x=1)+(&/x)*2}'[[1] [2]]", True), ("{|/x+9223372036854775800}'i", None),
    ("{(&/x<0)=|/x>[1 2 3 4]}'i", True), ("{~|/(x=y)|x=y+1}'[[1 2] [3 4]]", None),
    # an arithmetic result past int64 under a comparison (not under |, & or an over)
    ("{[d];d::#x;(((x*y)+9223372036854775800)<0)+d}([1 2];)'[10 1]", None),
    ("{[d];d::#x;((x*y)=4611686018427387904)+d}([1 2];)'[4611686018427387904 1]", None),
]


@pytest.mark.parametrize("program, batched", QUEENS, ids=[p for p, _ in QUEENS])
def test_queens_paths_give_the_loops_outcome(mode, program, batched, monkeypatch):
    _batched_beside_the_loop(*mode, SETUP + QUEENS_SETUP, program, batched, monkeypatch)


def test_queens_paths_give_each_rows_value(mode):
    k = interpreter(mode, True)
    k(QUEENS_SETUP)
    assert write(k("nq'[1 2 3 4 5 6 7]")) == "[1 0 0 2 10 4 40]"
    assert write(k("[1 2],:\\[3 4 5]")) == "[[1 2 3] [1 2 4] [1 2 5]]"
    assert signature(k("[1 2],:\\[3 4 5]")) == "LLi"
    assert write(k("[1 2],:/[3 4 5]")) == "[[3 1 2] [4 1 2] [5 1 2]]"
    assert write(k("{(x@0)+x@3}'i")) == "[8 1 12]"
    assert write(k("[1 2],:\\[3]")) == "[[1 2 3]]" and signature(k("[1 2],:\\[3]")) == "LLi"
    assert write(k("[1.5],:/[2.5 0.5]")) == "[[2.5 1.5] [0.5 1.5]]"
    assert write(k("{~|/x=3}'i")) == "[0 1 0]" and write(k("{(|/x)+x}'i")) == \
        "[[8 6 7 10] [7 3 14 8] [18 18 7 12]]"
    assert write(k("{(|/x=1)+(&/x)*2}'[[1] [2]]")) == "[3 4]"
    assert write(k("{[d];d::#x;(((x*y)+9223372036854775800)<0)+d}([1 2];)'[10 1]")) == \
        "[[2 2] [2 2]]"
    assert write(k("{[1 2 3]-x}'[4 5]")) == "[[-3 -2 -1] [-4 -3 -2]]"
    assert write(k("{x+9223372036854775808}'[[1 2] [3 4]]")) == \
        "[[9223372036854775809 9223372036854775810] [9223372036854775811 9223372036854775812]]"
    with pytest.raises(KlongError) as e:
        k("[1 2 3]@:\\[0 1 5]")
    assert (e.value.kind, e.value.message) == ("index", "index 5 out of range 0..2")
    with pytest.raises(KlongError) as e:
        k("[1 2]+:\\[[1 2 3] [4 5 6] [7 8 9]]")
    assert (e.value.kind, e.value.message) == ("length", "lists of different lengths")


def test_a_vector_joined_to_each_number_is_laid_out_by_rows():
    """numpy lays a joined matrix out as its parts, column-major where one is a row
    broadcast to every row (v,:\\u): its rows, read as vectors after (the next level of a
    search), lie in order only row-major."""
    k = KlongInterpreter(backend="numpy", batch=True)
    for src in ("[1 2],:\\[3 4]", "[1 2],:\\[3 4 5]", "[1 2],:/[3 4 5]"):
        assert k(src).flags.c_contiguous, src


def test_each_of_a_literal_that_batches_makes_its_value_only_for_the_loop(monkeypatch):
    """Generated code calls a literal's batched form before it makes the literal's value
    (`{x@2}'m`): the value is made only where that form gives no result, and the loop
    then gives what it gives (its value, its error)."""
    from klong.runtime.functions import Lambda
    made = []
    init = Lambda.__init__

    def making(self, *args, **kwargs):
        made.append(self)
        init(self, *args, **kwargs)
    monkeypatch.setattr(Lambda, "__init__", making)
    k = KlongInterpreter(codegen=True, batch=True)
    k("m::[3 4]:^1.5*!12")
    assert write(k("{x@2}'m")) == "[3.0 9.0 15.0]" and made == []
    assert write(k("{x@0}'[[1 2] [3]]")) == "[1 3]" and len(made) == 1
    with pytest.raises(KlongError) as e:
        k("{x@4}'m")
    assert str(e.value) == "index error: at [[0.0 1.5 3.0 4.5] 4]: index 4 out of range 0..3 (in {x@4})"
    assert len(made) == 2


# A dyad literal's Each over the pairs of two lists (issue 32, third round): its batched
# form of pairs first, the loop where it declines (an error in a pair, lengths that differ,
# a mixed result), and the forms of the literal made only when neither is tried
PAIR_ROWS = [
    ("r{+/(x-y)^2}'i", True), ("gg{+/(x-y)^2}'gg", True), ("r{(x*y)+1}'r", True),
    ("zz{+/(x-y)^2}'z", True), ("nm{+/(x-y)^2}'nm", True), ("i{(x*y)-x}'i", True),
    ("big{x+y}'big", False), ("i{x%y}'i", None), ("zz{x|y}'z", None),
    ("r{x-y}'t", None), ("r{x-y}'one", None), ("r{:[(+/x)>0;x;y]}'i", None),
    ("fv{x*y}'iv", None), ("r{x*y}'[]", None), ("r{x+y}'3", None), ("i{x:%y}'i", None),
    ("[[1 2] [3 4]]{x+y}'[[1 2] [3 4 5]]", None), ("i{x@y}'[[0 1] [2 3] [1 1]]", None),
    ("r{x,y}'i", None), ("gg{+/x*y}'gg", None), ("r{x-y}'r", None),
]


@pytest.mark.parametrize("program, batched", PAIR_ROWS, ids=[p for p, _ in PAIR_ROWS])
def test_each_of_a_dyad_literal_over_pairs_gives_the_loops_outcome(mode, program, batched,
                                                                  monkeypatch):
    _batched_beside_the_loop(*mode, GAP_SETUP, program, batched, monkeypatch)


@pytest.mark.parametrize("backend", BACKENDS)
def test_each_of_a_dyad_literal_makes_its_forms_only_for_the_loop(backend, monkeypatch):
    """`a{...}'b` of a literal in an expression (a new value each time it runs) gives its
    batched form's result without the literal's forms made; they are made where the
    batched form declines, and the loop then gives its value or its error. (Generated code:
    the closures, the fallback, make the forms first, as their other dyads do.)"""
    from klong.verbs import forms
    made = []
    function_forms = forms.function_forms
    monkeypatch.setattr(forms, "function_forms",
                        lambda fn: made.append(fn) or function_forms(fn))
    k = KlongInterpreter(backend=backend, batch=True, codegen=True)
    k("a::[[1.5 2.0] [3.0 -1.0]];b::[[0.5 1.0] [1.0 1.0]]")
    assert write(k("a{+/(x-y)^2}'b")) == "[2.0 8.0]" and made == []
    k("q::[[1 2] [3 4]]{x%y}'[[1 0] [2 4]]")        # (a mixed list: declined)
    assert write(k("(q@1),(q@0)@0")) == "[1.5 1.0 1.0]" and k(":_(q@0)@1") == 1
    assert len(made) == 1
    with pytest.raises(KlongError):
        k("a{x-y}'[[1.0 2.0 3.0] [4.0 5.0 6.0]]")


# Arithmetic of a row's elements at constant places (+ - * of x@i and real constants,
# batched._column_arithmetic): the library's operations on whole columns of a matrix of
# reals, each the loop's operation on the row's Python floats; integers (their checks) by
# the rules' run, a place outside the rows or a row too short by the loop (its error), an
# overflow to an infinity and a NaN as the loop gives them, silently
COLUMN_SETUP = SETUP + """
ov::[[1.0e308 -1.0e308 2.0] [1.5 0.0 -0.0] [-0.0 -0.0 3.0]]
"""

COLUMNS = [
    ("{(x@0)-x@1}'r", True), ("{(x@0)-x@1}'i", True), ("{(x@3)*x@0}'r", True),
    ("{(2*x@1)+x@2}'r", True), ("{(x@0)+0.5*x@3}'r", True), ("{(x@2)-1}'r", True),
    ("{((x@0)-x@1)*(x@2)+x@3}'r", True), ("{(x@1)-x@1}'zz", True), ("{(x@0)+x@1}'z", True),
    ("{(x@0)*(x@1)*10}'ov", True), ("{((x@0)*10)-(x@1)*10}'ov", True), ("{(x@0)+x@2}'nm", True),
    ("{(x@0)*9007199254740993}'r", True),                # (an integer no real holds: the rules)
    ("{(x@0)-x@4}'r", False), ("{(x@0)-x@1}'rag", None),   # a place outside: the loop's error
    ("{(x@0)-x@1}'[[1.5 2.0] [3.0]]", None), ("{(x@0)-x@1}'fv", None),
    ("{(x@0)+x@1}'big", False), ("{(x@0)+x@1}'d3", None), ("{(x@0)-x@1}'one", True),
]


@pytest.mark.parametrize("program, batched", COLUMNS, ids=[p for p, _ in COLUMNS])
def test_arithmetic_of_a_rows_elements_gives_the_loops_outcome(mode, program, batched,
                                                               monkeypatch):
    _batched_beside_the_loop(*mode, COLUMN_SETUP, program, batched, monkeypatch)


def test_arithmetic_of_a_rows_elements_gives_each_rows_value(mode, recwarn, monkeypatch):
    """... from the columns of a matrix of reals, without a batched run of the body."""
    k = interpreter(mode, True)
    k(COLUMN_SETUP)
    runs = []
    run = evaluation._Run
    monkeypatch.setattr(evaluation, "_Run", lambda *a, **kw: runs.append(1) or run(*a, **kw))
    assert write(k("{(x@0)-x@1}'r")) == "[-0.75 -0.1 1.0]"
    assert write(k("{(2*x@1)+x@3}'r")) == "[5.0 1.1 0.0]"
    assert write(k("{(x@0)*(x@1)*10}'ov")) == "[-inf 0.0 0.0]"
    assert write(k("{((x@0)*10)-(x@1)*10}'ov")) == "[inf 15.0 0.0]"
    assert runs == []
    assert write(k("{(x@0)-x@1}'i")) == "[2 4 0]" and signature(k("{(x@0)-x@1}'i")) == "Li"
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


# Each of a literal with an element-wise whole form (`{x|0.0}'m`) tries that form before the
# literal's value is made, only on a numeric array (as verbs/forms.py _each_of tries it): the
# value made only where the form gives no result, and the loop's outcome everywhere
WHOLE_FIRST = [
    ("{x|0.0}'r", None), ("{x*x}'i", None), ("{(2*x)-1}'r", None), ("{x|0.0}'zz", None),
    ("{x|0.0}'\"abc\"", None), ("{x*x}'rag", None), ("{x*x}'!0", None), ("{x*x}'big", None),
    ("{x%0}'i", None), ("{x+nope}'r", None), ("{x*x}'[]", None), ("{x|0.0}'fv", None),
]


@pytest.mark.parametrize("program, batched", WHOLE_FIRST, ids=[p for p, _ in WHOLE_FIRST])
def test_each_of_an_element_wise_literal_gives_the_loops_outcome(mode, program, batched,
                                                                 monkeypatch):
    _batched_beside_the_loop(*mode, COLUMN_SETUP, program, batched, monkeypatch)


@pytest.mark.parametrize("mode", MODES, ids=[f"{b}-{'codegen' if c else 'closures'}"
                                             for b, c in MODES])
def test_each_of_an_element_wise_literal_makes_its_value_only_for_the_loop(mode,
                                                                           monkeypatch):
    """`{x|0.0}'m` of a literal in an expression (a new value each time it runs) gives its
    whole form's result without the literal's value made; it is made where the form gives
    none (a list of strings), and the loop then gives its value or its error."""
    from klong.runtime import functions
    made = []
    init = functions.Lambda.__init__

    def counted(self, *args, **kwargs):
        made.append(1)
        init(self, *args, **kwargs)
    monkeypatch.setattr(functions.Lambda, "__init__", counted)
    k = interpreter(mode, True)
    made.clear()
    assert write(k("{x|0.0}'r")) == \
        "[[1.5 2.25 0.0 0.5] [0.1 0.2 0.3 0.7] [0.0 0.0 0.0 4.0]]" and made == []
    assert write(k("{x*x}'[1 2 3]")) == "[1 4 9]" and made == []
    assert write(k("#'{x,x}'[\"ab\" \"c\"]")) == "[4 2]" and len(made) == 1
    with pytest.raises(KlongError):
        k("{x|0.0}'\"abc\"")
