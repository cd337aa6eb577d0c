"""The Python source render/pysource.py writes for representative chunks, compared exactly
with the files in tests/golden/ (one per chunk, named after it), and what each chunk gives
when it runs.

A change to the renderer that changes what it writes shows here as a diff of Python source.
When the change is meant, rewrite the files and read the diff before committing them:

    KLONG_GOLDEN_UPDATE=1 python3 -m pytest -q tests/test_pysource.py
"""
import os
from pathlib import Path

import pytest

from klong import KlongError, KlongInterpreter
from klong.compiler import passes
from klong.runtime.display import write
from klong.compiler.lower import lower
from klong.compiler.render import pysource
from klong.compiler.syntax.parser import parse

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("KLONG_GOLDEN_UPDATE") == "1"

# name: (the chunk, Klong that uses what it defines, what that prints)
CHUNKS = {
    # recursion: scalar fast paths, the condition fast path, the direct self-call
    "fib": ("fib::{:[x<2;x;fib(x-1)+fib(x-2)]}", "fib(15)", "610"),
    # a While of two literals inside a function: a Python loop with both bodies inline, and
    # beside it the batched form Each runs (every row's loop at once, verbs/batched.py)
    "while": ("upto::{{x<10}{x+1}:~x}", "upto'[3 12]", "[10 12]"),
    # x=0 needs no statement of its own (an elif), (#$x)>2 does (a nested if)
    "elif": ("sign::{:[x<0;-1:|x=0;0:|(#$x)>2;100;1]}", "sign'[-5 0 7 1234]", "[-1 0 1 100]"),
    # an element-wise monad: beside run, its whole-array form (mask and select)
    "whole": ("clip::{:[x>0;x*2;0]}", "clip'[-1 2 3]", "[0 4 6]"),
    # a local of the function assigned from a nested literal: nonlocal in the nested def
    "nonlocal": ("total::{[n];n::0;{n::n+x}'x;n}", "total(!5)", "10"),
    # a projection of a literal
    "projection": ("less::{x-y}(;1)", "less'[1 2 3]", "[0 1 2]"),
    # While of a literal with a local set before read, inline; At of the pair inline (numpy);
    # the batched form of pairs beside it (bs(a;)'keys)
    "pairloop": ("bs::{[a k];a::x;k::y;*{(x@0)<x@1}{[m];m::(+/x):%2;"
                 ":[(a@m)<k;(m+1),x@1;(x@0),m]}:~0,#a}", "bs(2*!50;)'[31 0 99]", "[16 0 50]"),
    # Scan-While inline: its values gathered; Remainder and Integer-Divide inline
    "scanwhile": ("col::{#{x>1}{:[x!2;1+3*x;x:%2]}\\~x}", "col'1+!10", "[0 1 7 2 5 8 16 3 19 6]"),
    # a branch for a real argument with no type tests; the power's guard of its literal
    # exponent worked out (only the range test is left)
    "reals": ("loss::{((x-3)^2)+1}", "loss(0.5),loss(1e5),loss(3)", "[7.25 9999400010.0 1]"),
}


def rendered(k, src):
    return pysource.source(passes.run(lower(parse(src), k.engine)), k)


@pytest.mark.parametrize("name", sorted(CHUNKS))
def test_source_is_the_golden_one(name):
    k = KlongInterpreter(backend="numpy", codegen=True)
    text = rendered(k, CHUNKS[name][0])
    path = GOLDEN / f"{name}.py"
    if UPDATE:
        path.write_text(text)
    assert text == path.read_text(), f"{path.name} differs (KLONG_GOLDEN_UPDATE=1 rewrites it)"


@pytest.mark.parametrize("name", sorted(CHUNKS))
@pytest.mark.parametrize("codegen", [True, False], ids=["codegen", "closures"])
def test_golden_chunks_run(name, codegen):
    chunk, use, printed = CHUNKS[name]
    k = KlongInterpreter(backend="numpy", codegen=codegen)
    k(chunk)
    assert write(k.run(use)) == printed


def test_golden_whole_form_is_the_one_each_runs():
    k = KlongInterpreter(backend="numpy", codegen=True)
    k(CHUNKS["whole"][0])
    clip = k.globals["clip"]
    assert clip.whole is not None
    assert clip.whole(k.run("[-1 2 3]")).tolist() == [0, 4, 6]


def test_rendered_functions_are_recognised_as_lambdas_running():
    """autograd finds the Lambda a Python frame runs (functions.lambda_running_in) by the
    generated function's name and file."""
    import sys

    from klong.runtime.functions import lambda_running_in
    k = KlongInterpreter(backend="numpy", codegen=True)
    seen = []

    def probe():
        frame = sys._getframe(1)
        while frame is not None and lambda_running_in(frame) is None:
            frame = frame.f_back
        seen.append(frame and lambda_running_in(frame))
        return 0
    k["probe"] = probe
    k("f::{probe()+x}")
    assert k("f(1)") == 1
    assert seen == [k.globals["f"]]


def shown_by(codegen, program, expr):
    """What expr prints after program, or its error, in a fresh interpreter."""
    k = KlongInterpreter(codegen=codegen)
    k(program)
    try:
        return write(k(expr))
    except KlongError as e:
        return str(e)


@pytest.mark.parametrize("program, expr", [
    ("f::{((x-3)^2)+1}", "f(0.5),f(1e5),f(-1e5),f(3),f(2.5),f(1e300)"),
    ("g::{(x*y)-x+y}", "g(1.5;2.5),g(1e300;1e300),g(2;3),g(2.0;3)"),
    ("h::{(x^3)-(2*x)+x^1}", "h(0.5),h(1e5),h(-2.0),h(0.0),h(-0.0)"),
    ("p::{(x^0)+(x^2)+x*3}", "p(0.0),p(2.5),p(-0.0)"),
    ("c::{:[x<y;x-y;(y-x)*2]}", "c(1.5;2.5),c(2.5;1.5),c(0.0;-0.0)"),
    # a failure inside the real branch is reported as elsewhere
    ("e::{((x*2)-1)+\"a\"}", "e(1.5)"),
])
def test_a_real_branch_gives_what_the_general_body_gives(program, expr):
    shown = [shown_by(codegen, program, expr) for codegen in (True, False)]
    assert shown[0] == shown[1]
    assert "if type(x) is float" in rendered(KlongInterpreter(codegen=True), program)


@pytest.mark.parametrize("test, folded", [
    ("(type(2) is int and 0 < 2 < 64 and -1e4 < t1 < 1e4"
     " or type(2) is float and 0 < 2 < 64 and 0 < t1 < 1e4)", "(-10000.0 < t1 < 10000.0)"),
    ("(type((-1)) is int and 0 < (-1) < 64 and -1e4 < x < 1e4"
     " or type((-1)) is float and 0 < (-1) < 64 and 0 < x < 1e4)", "(False)"),
    ("(type(0.1) is float and type(t3) is float or -0x80000000 < 0.1 < 0x80000000"
     " and -0x80000000 < t3 < 0x80000000)",
     "(type(t3) is float or -2147483648 < t3 < 2147483648)"),
    ("(type(x) is int and x >= 0)", "(type(x) is int and x >= 0)"),
])
def test_a_guard_of_a_literal_is_worked_out_when_written(test, folded):
    assert pysource._folded(test) == folded


@pytest.mark.parametrize("program, expr", [
    ("fib::{:[x<2;x;fib(x-1)+fib(x-2)]}", "fib(20)"),
    ("fib::{:[x<2;x;fib(x-1)+fib(x-2)]}", "fib(20.0)"),
    ("fib::{:[x<2;x;fib(x-1)+fib(x-2)]}", "fib'!8"),
    # the global rebound: the calls inside go to the new value, as written
    ("fib::{:[x<2;x;fib(x-1)+fib(x-2)]};g::fib;fib::{x*100}", "g(5)"),
    ("f::{:[x<2;1;x*.f(x-1)]}", "f(60)"),
    ("ack::{:[x=0;y+1;:[y=0;.f(x-1;1);.f(x-1;.f(x;y-1))]]}", "ack(2;3)"),
    # a failure inside the integer body names the function once per call, as elsewhere
    ("bad::{:[x<1;x+\"a\";bad(x-1)]}", "bad(3)"),
    ("bad::{:[x<1;x+\"a\";bad(x-1)]}", "bad(3.0)"),
])
def test_an_integer_body_gives_what_the_general_one_gives(program, expr):
    shown = [shown_by(codegen, program, expr) for codegen in (True, False)]
    assert shown[0] == shown[1]
