#!/usr/bin/env python3
"""Build tests/differential/corpus.jsonl, the programs every mode must agree on.

Four sources, in this order:
  - the conformance cases (value and display files of the conformance suite): each case's
    setup and expression as one program, identical programs once;
  - programs written by hand (HANDWRITTEN: disagreements found before, kept fixed; ROW_WISE:
    Each over the rows of a matrix, batched or not; IN_PLACE: Amend into the variable it
    reads, written in place or not; INDEPENDENT: the shortcuts made for issue 35's programs;
    ARRAYS_PROGRAMS: tallies, floors and progressions, issue 35's second round;
    SMALL_PROGRAMS: the paths of issue 35's small programs, third round; EXTREME_ROWS:
    the first place of each row's extreme and each row's grade, issue 32; QUEENS_RUN:
    n-queens at the library's pace, issue 35; MARGINS: texts made in C and joins of integer
    constants lowered, issue 35's margins; SECOND_ROUND: the second round of independent
    programs, issue 35; BOUNDED_WHILES: batched Whiles whose steps' checks the bounds of
    their integers settle, issue 35; COMPRESSED: a@&m picked at once, and comparisons
    beside a number of their kind, issue 35; TEXTS: the text and integer paths of the
    second independent set, issue 35; ROW_IDIOMS: Each of a dyad literal over pairs
    and row idioms, issue 32's third round; GRADIENT_STEPS: training steps replayed with
    their backward as operations, issue 33, each backend compared with itself;
    SMALL_ARRAYS: the text of codes checked in one step and joins to short vectors, issue
    35's smallest sizes; SCALARS: the small-value paths of issue 35's independent
    programs; ROW_COLUMNS: arithmetic of a row's elements from whole columns and
    element-wise literals tried first, issue 32's fourth round; TAKEN_ROWS: rows taken at
    positions and batched Whiles whose rows end apart, issue 35; ROWS_BY_MATRIX: each row
    times a matrix, summed, issue 32's fifth round; REPLAY_GUARDS: steps whose replay's
    guards on a zero (a divisor, a scan's first row) fail after they were captured, issue
    33; TEXT_FIELDS: Format's text joined to a constant text, issue 35;
    ROW_SCANS: running sums of rows from a zero and the first match in each row,
    issue 32's sixth round;
    PICKED_SMALL: columns picked at once, small fused batches on Python's integers and
    a list's elements picked by an index vector, issue 35; CHOSEN_STEPS: batched
    conditionals whose predicate gives numbers other than 0 and 1, and batched Whiles whose
    literals have locals of their own, issue 35; ROW_FOLDS: row folds and their zeros,
    issue 32);
  - every Klong program under examples/, run whole (stored by path, read at test time);
  - programs from generate.py with a fixed seed.

A program that runs longer than --max-seconds in some mode is left out (the corpus must
stay quick), and so is one that reaches outside the interpreter or is random by design
(see harness.UNSAFE). The corpus is data the project owns: the test never reads the
conformance files, so a fresh checkout runs it.

    python3 tests/differential/build_corpus.py [--conformance DIR] [--generated 1800 --seed 20]
"""
import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE.parent))

from differential import generate, harness  # noqa: E402

CONFORMANCE_FILES = ("nmh.jsonl", "display.jsonl")
# examples whose backends are compared only with themselves, and why
WITHIN_BACKEND = {
    "examples/autograd/gradcheck.kg": ".gradcheck needs torch's autograd",
    "examples/autograd/compile_export.kg": ".compilex and .export need torch",
    "examples/distributed/linear_regression.kg": "trained by gradients, numeric on numpy and "
    "exact on torch (docs/autograd.md): the parameters differ in their last bits",
    "examples/torch/klong_loop.kg": "trains a torch model, whose parameters only a torch "
    "interpreter takes in",
}


# Issue 33: training steps whose gradient a replay computes as the operations of its
# backward (torch_capture.py _joint), or through the engine where it cannot (a gradient of
# a gradient, a Max with a number): called often enough in one run to be replayed. Their
# gradients are numeric on numpy and exact on torch, so each backend is compared with
# itself, and capture on with capture off (the captured mode). (Not sums of products over
# rows: batched, their gradient is the library's matrix product, docs/numbers.md)
GRADIENT_STEPS = [
    "X::[1.0 2.0 3.0 4.0 5.0];Y::[3.0 5.0 7.0 9.0 11.0];w::0.0;b::0.0;loss::{(+/((b+w*X)-Y)^2)%#X};step::{[g];g::loss:>[w b];w::w-0.02*g@0;b::b-0.02*g@1};{x;step()}'!8;w,b",
    ".bkf(\"tanh\");X::[0.5 -1.0 2.0 0.25];Y::[1.0 0.0 -1.0 0.5];v::[0.1 0.2 0.3 0.4];c::0.5;loss::{+/(tanh(c+v*X)-Y)^2};step::{[g];g::loss:>[v c];v::v-0.05*g@0;c::c-0.05*g@1};{x;step()}'!8;v,c",
    ".bkf([\"exp\" \"log\"]);X::[[0.5 1.0] [-1.0 0.25] [2.0 -0.5] [0.0 1.5]];Y::[1.0 0.0 1.0 0.0];W::[0.0 0.0];B::0.0;loss::{[p];p::%1+exp(-B+{+/x*W}'X);-(+/(Y*log(p))+(1-Y)*log(1-p))%#Y};step::{[g];g::loss:>[W B];W::W-0.5*g@0;B::B-0.5*g@1};{x;step()}'!7;W,B",
    "a::[3.0 -2.0 0.5];p::[0.0 0.0 0.0];f::{+/(x-a)^2};step::{p::p-0.1*f:>p};{x;step()}'!9;p",
    "p::[1.0 2.0];g::{+/x^3};h::{+/g:>x};step::{p::p-0.01*h:>p};{x;step()}'!7;p",
    "X::(!20)%7;Y::3.0+2.0*X;w::0.0;b::0.0;L::0.01;loss::{[r];r::(b+w*X)-Y;((+/r*r)%#Y)+L*w*w};step::{[g];g::loss:>[w b];w::w-0.01*g@0;b::b-0.01*g@1};{x;step()}'!8;w,b",
    ".bkf(\"exp\");X::[[0.5 -0.5] [1.0 0.25] [-0.75 0.5]];W::[[0.1 0.2] [0.0 -0.1] [0.3 0.0]];Y::[[1.0 0.0 0.0] [0.0 1.0 0.0] [0.0 0.0 1.0]];loss::{[e p];e::exp({x{+/x*y}:/W}'X);p::{x%+/x}'e;+/+/(p-Y)^2};step::{W::W-0.2*loss:>W};{x;step()}'!7;W",
    "X::[1.0 -2.0 3.0 -4.0];m::0.5;loss::{+/(X-m)|0.0};step::{m::m+0.1*loss:>m};{x;step()}'!7;m",
    "X::[1.0 2.0 4.0];s::1.0;loss::{+/((X%s)-2.0)^2};step::{s::s-0.05*loss:>s};{x;step()}'!8;s",
    "w::[0.5 -0.25];loss::{[v];v::w*w;:[(+/v)>0.1;+/v;0.0]};step::{w::w-0.2*loss:>w};{x;step()}'!9;w",
    "X::[1.0 2.0 3.0];w::1.0;loss::{(+/X*w)^2};step::{[g];g::loss:>w;w::w-0.001*g;g};r::{x;step()}'!8;r,w",
]
GRADIENT_WHY = "gradients: numeric on numpy, exact on torch (docs/autograd.md)"


# Programs written by hand: disagreements once found, kept so that they stay fixed.
HANDWRITTEN = [
    "{(x@0)+0.1}'[[1 2] [3 4]]", "{(x@0)%3}'[[1 2] [3 4]]", "{(*x)%12}'[[4 0]]",
    "{(x@1)-1.25}'[[2 4] [8 -1]]", "({(x@0)%5.4e-2}'[[3 6 11]])@0", "1+{x@[]}'[[1 2] [3 4]]",
    "5%[12.21]", "{[k];k::x;{k%x}'y}(5;[12.21])", "+/[-15.57 15.89 0.25 0.7 3.68 -4.64]",
    "a::%1+!100;b::%2+!100;(+/a*b),{+/a*b}()",
    "*/[1.1 1.2 1.3 1.4 1.5]", "+\\[0.1 0.2 0.3 0.4 0.5]", "?[1 1.0 2]", "=[2 2.0]",
    "+[[1 2] []]", '"f":@0', "[2]{y}'\"ab\"", "[1 2]{y}\\0cq", "<{x%0}'[1]",
    "{x%3}'[1 2 3]", "{(x@0)*0.5}'[[1 2] [3 4]]", "{(+/x)%#x}'[[1 2] [3 4 5]]",
    "{(*x)^100}'[2 4 8 -1]", "{100^(+/x)}'[2 4 8 -1]", "{x*x}'{(*x)}\\_9223372036854775807",
    "{1e10+(x@0)}'[[2 4] [8 -1]]", "{%x}/-/{1e10^(*x)}'!5", "{-1^(+/x)}'[2 4 8 -1]",
    "15.89^[-15.57 15.89 0.25 0.7 3.68 -4.64]", "{2.0^(*x)}'[0 1 0 1]", "0.5^[0.1 0.2 0.3]",
    "a::[[1 2] [3 4]];f::{[a b];a::-\\!5;b::x;a&0.0};f'f'a", "{-15.57^(+/x)}'[4 0]",
    "1.5:+\"abc\"", "2.5:+100", ":#256", "(({x}'-1):-5^[1e10 1e-10])", "5^[1e10 1e-10]",
    # integer bodies and loops on known numbers (passes/numbers.py)
    "fib::{:[x<2;x;fib(x-1)+fib(x-2)]};fib'!12",
    "fib::{:[x<2;x;fib(x-1)+fib(x-2)]};(fib(10.0)),fib(2.5)",
    "f::{:[x<2;1;x*.f(x-1)]};(f(25)),f(30)",
    "ack::{:[x=0;y+1;:[y=0;.f(x-1;1);.f(x-1;.f(x;y-1))]]};ack(2;3)",
    "g::{:[x<1;x+\"a\";g(x-1)]};g(3)",
    "h::{:[x<1;0;h(x-1)+x%2]};h(5)",
    "fib::{:[x<2;x;fib(x-1)+fib(x-2)]};k::fib;fib::{x*100};k(5)",
    "{x<100}{x*3}:~1",
    "{x<10}{x+0.5}:~1",
    "3{x*x}:*2",
    "{x<1000000000000}{x*x}:~3",
    "{x>0}{x-1}:~10.5",
    "m::{:[x>y;x;y]};{x<50}{m(x;x+7)}:~1",
    "{x<\"a\"}{x+1}:~1",
]

# Row-wise programs: Each over the rows of a matrix, which runs once for all rows where the
# body's verbs have batching rules (klong/verbs/batching.py); the harness runs every
# program with an Each with the loop as well (harness.LOOP_MODES)
R = "r::[[1.5 2.25 -3.0 0.5] [0.1 0.2 0.3 0.7] [-1.0 -2.0 -3.5 4.0]];"
I = "i::[[3 1 2 5] [0 -4 7 1] [9 9 -2 3]];"
T = "t::[[3 1 2 3 1] [2 2 2 2 2] [5 -1 5 0 5]];"
Z = "z::[[0.0 -0.0 1.0] [-0.0 0.0 -1.0]];"
ROW_WISE = [
    R + "+/'r", I + "+/'i", R + "*/'r", I + "*/'i", R + "|/'r", I + "&/'i", R + "-/'r",
    I + "-/'i", R + "+\\'r", I + "+\\'i", R + "*\\'r", I + "|\\'i", R + "&\\'r",
    "q::[3 130]:^(!390)%7.0;(+/'q),*/'q", "q::[2 70]:^(!140)%3.0;+\\'q",
    R + "*'r", I + "*'i", R + "|'r", I + "#'i", R + "{*|x}'r", I + "{x@2}'i",
    R + "{x@[3 0 0]}'r", R + "{x,0.0}'r", I + "{0,x}'i", R + "{x,x}'r", I + "{(*x),*|x}'i",
    R + "{x-(+/x)%#x}'r", I + "{x-(+/x)%#x}'i", R + "{+/x>0}'r", I + "{(+/x)%#x}'i",
    I + "{%+/x}'i", R + "{_(+/x)%3}'r", I + "{x=|x}'i", R + "{(|/x)-&/x}'r",
    I + "u::[1 2 3 4];{x*u}'i", I + "c::10;{(+/x)+c}'i", R + "{[s];s::+/x;x%s}'r",
    R + "{:[(+/x)>0;1;-1]}'r", I + "{:[(*x)>1;x;-x]}'i", I + "{:[(*x)>1;+/x:|(*x)>0;0;-1]}'i",
    I + "{:[(*x)>1;x;0.0]}'i", I + "{:[(*x)=0;0;(+/x)%*x]}'i",
    "b::[[4611686018427387904 4611686018427387904] [1 2]];(+/'b),(*/'b),+\\'b",
    I + "{(+/x)*4611686018427387904}'i", "{(+/x)%3}'[[9007199254740993 0] [1 2]]",
    R + "{(+/x*x)^0.5}'r", "|/'[[0.0 -0.0] [1.0 2.0]]", "&\\'[[0.0 -0.0] [-0.0 0.0]]",
    I + "{x@7}'i", R + "{x@-1}'r", I + "{x+[1 2]}'i", I + "f::{x@4};f'i",
    "+/'[[1 2 3] [4 5]]", "+/'[]", "{+/x}'[[] []]", "+/'[[0.1 0.2 0.3]]",
    "{x-(+/x)%#x}'[[0.1 0.2 0.3]]", I + "{x@<x}'i", I + "{x,\"a\"}'i",
    I + "({x~[0 -4 7 1]}'i),({x~|x}'i),({(*x)~3}'i),{x~[1 2]}'i", R + "{(x*3)~x+x+x}'r",
    "{(*x)~1}'[[1.0 2.0] [1.00000000000000001 3.0]]",
    # stage 2: grade and sort (ties, both zeros, NaN), take, drop, rotate, shape, find, and
    # verbs on one number per row (^ as the loop computes it)
    T + "(<'t),(>'t),({x@<x}'t),{x@>x}'t", Z + "(<'z),(>'z),({x@<x}'z),{x@>x}'z",
    R + "({x@<x}'r),({*x@>x}'r),{(<x)@<x}'r", "<'[[5] [3]]",
    "nm::[3 3]:^[1.0 0.5 2.0 3.0 1.0 0.0 2.0 1.0],(1.0e308*10)-1.0e308*10;<'nm",
    I + "{<*x}'i", I + "({2#x}'i),({(-2)#x}'i),({9#x}'i),{(-9)#x}'i", R + "{+/3#x}'r",
    I + "({1_x}'i),({(-1)_x}'i),{+/2_x}'i", I + "{4_x}'i", I + "{2.0#x}'i", I + "{0#x}'i",
    I + "({1:+x}'i),({(-5):+x}'i),{4:+x}'i", R + "{1.5:+*x}'r", I + "{1.5:+x}'i",
    I + "({^x}'i),{^*x}'i", "{x?9}'[[9 1 9] [2 9 9]]", "{x?*x}'[[1.0 2.0 1.0] [3.0 3.0 0.0]]",
    I + "{x?1}'i", "{x?2.0}'[[2 1] [1 2]]", R + "({(+/x*x)^0.5}'r),{(*x)^0}'r",
    I + "({(*x)^2}'i),{(*x)^0.5}'i", I + "{(*x)^-1}'i", R + "{(*x)^0.5}'r",
    "q::[3 130]:^(!390)%7.0;{(+/x*x)^0.5}'q",
    # stage 3: a real power of one number per row (C's pow for all rows), row-wise idioms
    "q::[3 130]:^(!390)%7.0;({(+/x*x)^1.7}'q),({(*|x)^0.3}'q),({(*x)^*|x}'q),{(1+*x)^-0.5}'q",
    "r::[[1.5 2.25 -3.0 0.5] [0.1 0.2 0.3 0.7] [-1.0 -2.0 -3.5 4.0]];({2.5^*x}'r),({(*x)^2.0}'r),{(*x)^3}'r",
    "q::[3 130]:^(!390)%7.0;{(*x)^-0.5}'q",
    "r::[[1.5 2.25 -3.0 0.5] [0.1 0.2 0.3 0.7] [-1.0 -2.0 -3.5 4.0]];{(-+/x)^0.5}'r",
    "q::[3 130]:^(!390)%7.0;({(*|x)^1.0e300}'q),{(1.0e-300*+/x)^2.5}'q",
    "p::[4 5]:^1+(!20)%3.0;({x%+/x}'p),({*>x}'p),({+/x*x}'p),{(+/x*x*x)^1.5}'p",
    # an Each inside the body; dyadic Each, Each-left, Each-right
    "t::[2 3 4]:^(!24)%7.0;({{x*2}'x}'t),({+/'x}'t),({{x-(+/x)%#x}'x}'t),{{(+/x*x)^0.5}'x}'t",
    "t::[2 3 4]:^(!24)-11;c::10;({*'x}'t),({|\\'x}'t),({{x@<x}'x}'t),({{x+c}'x}'t),{{x,1}'x}'t",
    "t::[2 3 4]:^(!24)-11;{{x@9}'x}'t",
    "i::[[3 1 2 5] [0 -4 7 1] [9 9 -2 3]];({+/{x*x}'x}'i),{{:[x>0;x;0]}'x}'i",
    "r::[[1.5 2.25 -3.0 0.5] [0.1 0.2 0.3 0.7] [-1.0 -2.0 -3.5 4.0]];(r{(+/x)*y}'[1 2 3]),(r{:[(+/x)>0;x;y]}'r),r{(+/x)^y}'[0.5 1.5 2.0]",
    "i::[[3 1 2 5] [0 -4 7 1] [9 9 -2 3]];(i{x,y}'i),(i{x@y}'[0 1 2]),([1 2 3 4]{x*y}:\\i),3{x+y}:\\i",
    "r::[[1.5 2.25 -3.0 0.5] [0.1 0.2 0.3 0.7] [-1.0 -2.0 -3.5 4.0]];u::[1 2 3 4];(u{x-(+/y)%#y}:\\r),(u{x-+/y}:/r),r{x%+/y}:/u",
    "i::[[3 1 2 5] [0 -4 7 1] [9 9 -2 3]];i{x@y}'[0 1 9]",
    "r::[[1.5 2.25 -3.0 0.5] [0.1 0.2 0.3 0.7] [-1.0 -2.0 -3.5 4.0]];r{x*y}'[1 2]",
    # the first of a grade (argmax, argmin), the last element
    "t::[[3 1 2 3 1] [2 2 2 2 2] [5 -1 5 0 5]];({*>x}'t),({*<x}'t),({*>x}'[[1.0 0.0] [2.0 0.0]]),{*<x}'[[0.0 -0.0 1.0] [-0.0 0.0 -1.0]]",
    "d::[2 3 4]:^(!24)%7.0;({*|x}'d),({*|*x}'d),{*|x}'[[0.1 0.2 0.3]]",
    # stage 4: sums and products of rows of reals left to right (rows whose order matters,
    # rows of -0.0), Max and Min of reals by fmax and fmin, the first of a grade beside a
    # NaN, + - * % of reals with a list read around the literal, powers of whole numbers
    "g::[40 16]:^(((((!640)*7919)!1009)-504)%7.0)*10.0^(!640)!9;(+/'g),(*/'g),({+/x*x}'g),{(+/x)%#x}'g",
    "g::[40 16]:^(((((!640)*7919)!1009)-504)%7.0)*10.0^(!640)!9;({x-(+/x)%#x}'g),({x%+/x}'g),{x-*x}'g",
    "z::[[-0.0 -0.0 -0.0] [0.0 -0.0 -0.0] [-0.0 1.0 -1.0] [1.0e308 1.0e308 -1.0e308]];(+/'z),(*/'z),({+/x|-x}'z),{(x&|x)|-0.0}'z",
    R + "({(x|-0.25)&0.25}'r),({0.25|x}'r),({(+/x)|0.5}'r),({+/x|-x}'r),{x&-0.0}'r",
    "n::[3 3]:^[1.0 2.0 3.0 3.0 1.0],((1.0e308*10)-1.0e308*10),[5.0 4.0 6.0];({*>x}'n),({*<x}'n),({x|0.5}'n),{0.5&x}'n",
    "d::[2 3 4]:^(!24)%7.0;w::[0.5 1.0 2.0 4.0];({(+/x)-w}'d),({x*(+/'x)+0.5}'d),{x%1+(+/'x)}'d",
    "{(-1.0)^+/x}'[[1.0e308 1.0e308] [1.0 1.0]]",
]


# Amend of a variable into itself, name::name:=b, which writes the array in place when
# nothing else holds it (klong/verbs/inplace.py): sieves, and values kept elsewhere first
SIEVE = ("sieve::{[s n];n::x;s::n:^1;s::s:=0,0,1;"
         "{(x*x)<n}{:[s@x;s::s:=0,(x*x)+x*!1+((n-1)-x*x):%x;0];x+1}:~2;&s};")

# Row idioms of bench_independent (issue 32): Where counted, Enumerate of a row's tally, a
# row times a matrix, +/ of a comparison, Find of a row's own value
ROW_GAPS = [
    "r::[[1.5 -2.25 3.0 0.5] [0.1 -0.2 0.3 -0.7] [-1.0 -2.0 -3.5 4.0]];({#&x>0}'r),({#&x<0}'r),{#&x<-9}'r",
    "c::[[1 0 2] [0 3 0]];({&x}'c),({#&x}'c),({+/&x}'c),{&x>0}'[[1.0 -1.0 2.0] [-1.0 3.0 4.0]]",
    "({&x>0}'[[1.0 -1.0 2.0] [-1.0 3.0 -4.0]]),({#&x}'[[1 -1] [2 0]])",
    "r::[[1.5 -2.25 3.0 0.5] [0.1 -0.2 0.3 -0.7]];i::[[3 1 2 5] [0 -4 7 1]];({+/x*!#x}'r),({+/x*!#x}'i),{!#x}'i",
    "w::[4 3]:^(!12)%5.0;r::[[1.5 -2.25 3.0 0.5] [0.1 -0.2 0.3 -0.7]];({+/x*w}'r),({+/w*x}'r),{+/x*w}'[[1 2 3 4] [5 6 7 8]]",
    "z::[[0.0 -0.0 0.0] [-0.0 -0.0 1.0]];w::[3 2]:^[0.0 -0.0 -0.0 0.0 1.0 -1.0];{+/x*w}'z",
    "a::[3 70]:^(!210)%7.0;w::[70 2]:^(!140)%3.0;{+/x*w}'a",
    "b::(!1000)!7;({+/b=x}'!9),({+/x=*x}'[[3 1 3] [2 2 2]]),{+/x<[1 2 3]}'[2 3]",
    "r::[[1.5 -2.25 3.0 0.5] [0.1 -0.2 0.3 -0.7]];({*x?|/x}'r),({x@2}'r),({4#|x}'r),({(x@0)-x@1}'r),{x|0.0}'r",
]

# Row idioms made faster (issue 32, second round): the first place Find gives (near elements
# first, Match's test where they do not settle it), sums of products with a vector or a
# matrix folded column by column, views of the rows copied into the result, |/ and &/ of
# short rows, Max and Min with a zero, integer halves
ROW_INDEX = [
    "g::[6 16]:^(((((!96)*7919)!1009)-504)%7.0)*10.0^(!96)!9;({*x?|/x}'g),({*x?&/x}'g),{*x?*|x}'g",
    "({*x?0.3}'[[0.1 0.30000000000000004 0.3] [0.3 0.30000000000000004 1.0]]),({*x?1.0}'[[1.000000000000015 1.0] [1.0 2.0]]),{*x?2}'[2 3]:^(1.0e308*10),[2.0 2.0 1.0 2.0 5.0]",
    "({*x?|/x}'[[3 1 3] [0 5 5]]),({*x?0.5}'[[0.5 1.0] [1.0 2.0]]),{*x?3}'[[3 1] [0 4]]",
    "g::[6 16]:^(((((!96)*7919)!1009)-504)%7.0)*10.0^(!96)!9;({+/x*!#x}'g),({+/(!#x)*x}'g),{+/x*!#x}'[[0.0 -0.0 -0.0] [-0.0 -0.0 1.0]]",
    "g::[6 16]:^(((((!96)*7919)!1009)-504)%7.0)*10.0^(!96)!9;w::[16 3]:^(((!48)*7919)!1009)%7.0;({+/x*w}'g),{+/w*x}'g",
    "n::[3 3]:^[1.0 0.5 2.0 3.0 1.0 0.0 2.0 1.0],(1.0e308*10)-1.0e308*10;w::[3 2]:^[1.0 -2.0 0.5 1.0e308 -1.0 3.0];({+/x*w}'n),{+/x*!#x}'n",
    "r::[[1.5 -2.25 3.0 0.5] [0.1 -0.2 0.3 -0.7]];q::{1_x}'r;q::q:=(,[9.0 9.0 9.0]),0;(q@0),(r@0),({(1_x)-(-1)_x}'r),({x-*x}'r),({2#x}'r),{*|x}'r",
    "g::[6 16]:^(((((!96)*7919)!1009)-504)%7.0)*10.0^(!96)!9;({|/x}'g),({&/x}'g),({x-|/x}'g),({|/x*x}'g),{+/1_x}'g",
    "v::[1.5 -2.0 3.0 -0.5],(1.0e308*10)-1.0e308*10;(v|0.0),(v&0.0),(v|-0.0),({x|0.0}'[[1.0 -1.0] [0.0 -0.0]]),{+/x|0.0}'[[1.0 -1.0] [2.0 -3.0]]",
    "i::[[3 1 2 5] [0 -4 7 1] [9 9 -2 3]];({x:%2}'i),({(+/x):%#x}'i),(i:%3),([7 -7 0 9]:%-2),[7 0 9]:%[2 3 4]",
    "({*x?|/x}'[[1.9999999999999998 2.0] [5.0 4.999999999999999]]),({*x?|/x}'[[0.0 -1.0] [-3.0 -3.0000000000000004]]),{*x?|/x}'[[1.0e-310 0.0] [-1.0e-310 -2.0e-310]]",
]

IN_PLACE = [
    SIEVE + "sieve(200)", SIEVE + "(#sieve(5000)),sieve(2)",
    "n::300;s::n:^1;s::s:=0,0,1;{(x*x)<n}{:[s@x;s::s:=0,(x*x)+x*!1+((n-1)-x*x):%x;0];x+1}:~2;&s",
    "s::50:^1;sv::{{(x*x)<50}{:[s@x;s::s:=0,(x*x)+x*!1+(49-x*x):%x;0];x+1}:~2};sv();&s",
    "{[s t];s::30:^1;t::s;{(x*x)<30}{:[s@x;s::s:=0,(x*x)+x*!1+(29-x*x):%x;0];x+1}:~2;(&s),&t}()",
    "s::!5;t::s;s::s:=9,1;s,t", "{[s t];s::!5;t::s;s::s:=9,1;s,t}()",
    "s::!5;l::(,s),,[7];s::s:=9,1;s,*l", "f::{[s];s::x;s::s:=9,1;s};a::!5;f(a),a",
    "s::!5;p::{x,y}(s;);s::s:=9,1;s,p(7)", "{[s p];s::!5;p::{x,y}(s;);s::s:=9,1;s,p(7)}()",
    "s::!5;d:::{};d,(,:a),,s;s::s:=9,1;s,d?:a", "{[s];s::!3;{s::s:=(10+x),x}'!3}()",
    "s::!3;r::{s::s:=(10+y),y;s}\\[0 1 2];(r@1),r@2", "s::!3;(s::s:=9,0),s",
    "{[s];s::!3;(s::s:=9,0),s}()", "s::!3;s::s:=(,s),1;(s@1),s@0",
    "s::!10;s::s:=0,2+3*!3;s", "s::!5;s::s:=9,[2 0];s", "s::!5;s::s:=1.5,1;s",
    "s::0.5*!4;s::s:=2.0,[0 3];s", "s::[3 2]:^!6;t::s;s::s:=(,[9 9]),1;(s@1),t@1",
    "s::!5;s::s:=9,[3 1 2]", "{[s];s::!5;s::s:=9,[0 5]}()",
    "s::!100;x::+/s*s;s::s:=4611686018427387904,5;s*s",
]

# Long lists of reals with a few integers (0,+\x), held compactly (runtime/mixed.py): the
# verbs that keep that form, and the others that see the general list
MIXED = [
    "ms::{[s q m];s::0,+\\x;q::0,+\\x*x;m::((y_s)-(-y)_s)%y;(,m),,(((y_q)-(-y)_q)%y)-m*m};ms((!80)%7;10)",
    "v::1.5+!70;s::0,v,0;t::s;s::s:=7,1;(3#s),(3#t),((-2)#s+1),(#s),(^s),(@s),*s",
    "v::0.5*!66;s::0,v;((s=0)@!3),((s<1)@!3),((s%2)@!3),(3#s-1),(3#1-s),(3#s*2.0),(s~0,v),#10_s",
    "v::%1+!70;s::0,v;u::v,0;(s~u),(+/s),(3#<s),(3#>u),(s?0),({x*2}'3#s),*=s",
    "{[s];s::0,x;(1_s)-(-1)_s}'2#,0.25*!70",
    "f::{0,x};(3#f(1.5+!70)),(3#f(2.5+!70)),(3#f(3.5+!70)),3#f(4.5+!70)",
    "s::(2^53),(0.5*!70),-7;(3#s),((-2)#s+1),((-2)#s*3),(#s)",
    # +/ of the compact list: one running sum, as the general list adds
    "v::0.1*!70;(+/0,v),(+/(3,v),7),(+/1,2,v),+/(v,5),v",
    "v::1e16,(64#1.0),-1e16;(+/0,v),+/v",
    # +/f'x over short lists: summed as the results come
    "sm::{:[@x;x;+/sm'x]};(sm([1 [2 3] [4.5 [6]]])),(sm([[1 2 3] [4 5 6]])),sm(1e16,(3#1.0),-1e16)",
    "(+/{x}'[1 2.5 3]),(+/{x*x}'[9223372036854775807 2]),+/{x%2}'[[1 2] [3 4]]",
]


# Each-Pair of an atomic dyad or of a lambda with a whole-array form, run once on the list
# without its last and without its first item; Flip of atoms and one list; While of a pair
PAIRS = [
    "(=:'[1 1 2 2 3]),(+:'[9223372036854775807 1 2]),*:'[4000000000 4000000000 3]",
    "(%:'[1 2 0 4]),(-:'[1 2.5 3]),(^:'[2 3 70]),^:'[2 -1 3]",
    "({x*y}:'[9223372036854775807 2 1]),({x<y}:'[3 1 2 5]),{x%y}:'[1 0 2]",
    "(+:'[[1 2] [3 4] [5 6]]),(=:'[[1 2] [1 2] [5 6]]),{x-y}:'[[1 2] [3 4]]",
    "(-:'[]),(-:'[5]),(=:'\"aabb\"),(+:'[1 [2] 3]),,:'[1 2 3]",
    "f::{~=:'x};f(!5),f([1 1 2 2])",
    "!:'[7 0 2]",
    "{x:%y}:'[7 0 1]",
    "(+(!3),,!3),(+[[1 2] 3 [4 5]]),(+[1.5 [2.0 3.0] 4.5]),(+[1 [2 3] 4.5]),+[1 [2.0 3.0] 4]",
    "(+[9223372036854775808 [1 2]]),(+[1 [1 2] :a]),t::+(!300),,!300;(^t),+/+/t",
    "+[[1 2] 3 [4]]",
    "({(x@0)<x@1}{(1+x@0),x@1}:~0,1000),({(x@0)<x@1}{((x@0)+0.5),x@1}:~0.0,3.0),{(x@1)<10^20}{(x@1),(x@0)+x@1}:~0,1",
    "v::!20;(v@0),(v@16),(v@19),((0.5*!20)@17),{(x@0)<3}{(1+x@0),x@1}\\~0,7",
]


# Independent programs (issue 35) and the shortcuts made for them: loops of literals run
# inline (the scans of While, Converge and Iterate; literals with locals set before read),
# Remainder and Integer-Divide inline on natural operands, Each of {c OP x} over strings,
# Cut of a text, At of a vector and Join of two numbers
INDEPENDENT = [
    "col::{#{x>1}{:[x!2;1+3*x;x:%2]}\\~x};col'1+!30",
    "({x>1}{:[x!2;1+3*x;x:%2]}\\~27),({x:%2}\\~100),{:[x>10;x;x*2]}\\~1",
    "(3{x*2}\\*1.5),(0{x+1}\\*5),3{x,x}\\*[1]",
    "({#x}{1_x}\\~\"hello\"),{1_x}\\~[1 2 3]",
    "f::{x<3};(f{x+1}\\~0),f{x+1}\\~1.5",
    "({[a];a::x*2;:[a>100;x;a]}\\~1),({x<100}{[a];a::x*2;a+1}\\~1),5{[a];a::x*2;a+1}\\*1",
    "({x<100}{[a];a::x*2;a+1}:~1),({[a];a::x*2;:[a>100;x;a]}:~1),5{[a];a::x*2;a+1}:*1",
    "bs::{[a k];a::x;k::y;*{(x@0)<x@1}{[m];m::(+/x):%2;:[(a@m)<k;(m+1),x@1;(x@0),m]}:~0,#a};"
    "bs(2*!50;31),bs(2*!50;0),bs(2*!50;99),bs(!100;37)",
    "{x<3}{[a];a::{x+1};a(x)}:~1",
    "1{x+1}\\~1",
    "2.5{x+1}\\*1",
    "{x>1}{:[x!2;1+3*x;x:%2]}\\~7.0",
    "{x+\"a\"}\\~1",
    "m::{x!y};d::{x:%y};(m(7;2)),(m(-7;2)),(m(7;-2)),(m(-7;-2)),(m(0;5)),(d(7;2)),(d(-7;2)),"
    "(d(7;-2)),(d(-7;-2)),d(100000000000000000000;3)",
    "{x!0}(5)",
    "{x:%2}(7.5)",
    "words::{[t];t::\" \",x;{1_x}'1_(t?0c ):_t};rev::{[w];w::|words(x);(*w),,/{\" \",x}'1_w};"
    "(words(\"the cat  sat\")),,rev(\"a bc def\")",
    "({x,0c.}'[\"abc\" \"de\" \"f\"]),({2#x}'[\"abc\" \"de\" \"\"]),{3:^x}'[\"ab\" \"c\"]",
    "{x@1}'[\"abc\" \"de\" \"f\"]",
    "{1_x}'[\"abc\" 1 \"f\"]",
    "([2 5 7]:_\"hello world\"),([0 0 11]:_\"hello world\"),[11]:_\"hello world\"",
    "[5 2 7]:_\"hello world\"",
    "x::[5 9];(x@0),(x@1),(1,2),(1.5,2.5),(9223372036854775807,1),(9223372036854775808,1)",
    "x::[5 9];x@2",
]

# Issue 35's programs at the library's pace: a histogram's counts from one tally (+/v=x over
# the rows of a number), the floor of reals, chains of + - * around an Enumerate made as one
# progression (and a number joined before one), with every way out of them: reals, big
# integers, errors at each verb of the chain, and effects among the operands.
ARRAYS_PROGRAMS = [
    "hist::{[b];b::_x*y;{+/b=x}'!y};hist((!40)%40.0;8)",
    "v::[3 -2 5 5 0 3 3];({+/v=x}'(-3)+!10),({+/x=v}'[5 3 99]),{+/v=x}'[1.0 3.0]",
    "{+/[0 99999]=x}'!3",
    "v::[3 -2 5];({+/v=x}'[-9223372036854775808 5]),{+/(v*1.0)=x}'[3 5]",
    "{+/[1 2]=x}'[[1 2] [2 2]]",
    "_[0.5 -0.5 1.0e17 -2.5],_[0.5 1.0e18],_[0.5 -1.0e18],_[0.5 -999999999999999872.0]",
    "_[0.5 1.0e300],_(1.0e308*10)", "_[]",
    "sieve::{[s n];n::x;s::n#,1;s::s:=0,0,1;"
    "{(x*x)<n}{:[s@x;s::s:=0,(x*x)+x*!1+((n-1)-x*x):%x;0];x+1}:~2;&s};sieve(200)",
    "({3+2*!x}(5)),({(!x)-2}(3)),({2-!x}(3)),({0*!x}(4)),({(!x)*2}(1)),(2*!3),(!3)-1",
    "({0.5*!x}(3)),({x+2*!y}(1.5;3)),{(x*!4)+0.5}(2)",
    "({(!x)*9223372036854775807}(3)),{(!x)*4611686018427387904}(3)",
    "({-9223372036854775807-!x}(3)),{(3*!x)-9223372036854775807}(2)",
    "{x+2*!y}(99999999999999999999;3)",
    "({(1+!x)*(2+!x)}(3)),({(!x)+!x}(3)),+/3+2*!1000",
    "{2+!x}(0)", "{2*!x}(2.5)", "{2*!x}(-1)", "{\"a\"*!x}(3)", "{[3 4]+!x}(3)",
    "{3+x*!4}(:undefined)", "{1+2*!x}(100000000000)",
    "q::0;r::{q::7;(q::8)+2*!x}(3);r,q",
    "({s::!10;s::s:=99,3+2*!x;s}(3)),{s::!10;s::s:=99,3+2*!x;s}(4)",
    "(0,2*!3),(1.5,2*!3),((0,2*!3),1),([1 2],2*!3),((2*!3),0)",
    "(99999999999999999999,2*!3),\"a\",2*!3",
    "({s::!10;s::s:=7,x+x*!y;s}(2;4)),{s::!10;s::s:=7.5,x+x*!y;s}(2;4)",
    "{s::!10;s::s:=7,x+x*!y;s}(2;5)", "{s::!10;s::s:=7,x-x*!y;s}(8;4)",
    "({x,!y}(3;4)),({x,!y}(3;0)),({x,y*!3}(1;2)),(,2*!3),0,!0",
    "{(x,y)*!3}(1;2)", "{0,3+!x}(0)", "{d:::{};d,x,2*!3}(1)",
    # an update in place at a joined progression: written at its places, or Amend decides
    "({[s];s::10#,1;s::s:=0,3+2*!x;s}(4)),({[s];s::10#,1;s::s:=0,3-2*!x;s}(2)),"
    "{[s];s::10#,1;s::s:=0,9+2*!x;s}(1)",
    "{[s];s::10#,1;s::s:=0,3+2*!x;s}(5)", "{[s];s::10#,1;s::s:=0,(-1)+2*!x;s}(2)",
    "({[s];s::10#,1.5;s::s:=0,3+2*!x;s}(3)),{[s];s::10#,1;s::s:=0.5,3+2*!x;s}(3)",
    "{[s t];s::10#,1;t::s;s::s:=0,3+2*!x;s,t}(3)", "{[s];s::\"abcdef\";s::s:=0,1+!x;s}(2)",
    "g::10#,1;h::g;{g::g:=0,x+x*!3;g}(2);g,h", "g::10#,1;{g::g:=0,x+x*!y;g}(2;9)",
    "{[s];s::[[1 2] [3 4] [5 6]];s::s:=0,!x;s}(2)",
    "{[s];s::10#,1;s::s:=99999999999999999999,!x;s}(2)", "{[s];s::10#,1;s::s:=0,3+2*!x;s}(-1)",
]


# Programs over words and dictionaries (issue 35's count_dict, reverse_words, wordfreq): a
# dictionary's table read and written by generated code, the undefined test inline, strings
# reversed, measured, compared and joined inline, Each of a constant joined to or dropped
# from each string, Cut of a text, Join over texts, Group of words, First of a vector, a
# word paired with its count; with the operands that take the general verbs beside them.
STRINGS_PROGRAMS = [
    "cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d};c::cnt([3 1 3 2 3 1]);"
    "(c?3),(c?1),(c?2),(:_c?7),#c",
    "cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d};(cnt([1.5 2.5 1.5])),cnt(\"abca\")",
    "cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d};(cnt([:a :b :a])),cnt([\"ab\" \"cd\" \"ab\"])",
    "cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d};c::cnt([1 2 1]);c,1.0,5;c,(:#1),7;"
    "(c?1),(c?2),(c?1.0),(c?:#1),{x}'c",
    "f::{[d];d:::{};{d,x,x*0.5}'x;d};g::{[d];d:::{};{d,x,(x*10000000000)^2}'x;d};"
    "h::{[d];d:::{};{d,x,\"v\"}'x;d};(f([2 4])?4),(g([2])?2),(h([2 4])?4),f([2 4])",
    "e:::{};f::{[d];d::x;{d,x,1}'y;d};g::f(e;[5 6]);(#e),(e?5),g?6",
    "f::{(x@y),x@z};d:::{[1 10] [\"a\" 20]};(f(d;1;\"a\")),(f([7 8 9];0;2)),(f(:{[1 10]};2;5))",
    "f::{x?y};g::{x@y};(f(:{[1 10]};[1])),g(:{[1 10]};[1])",
    "f::{x?y};f(5;1)",
    "f::{:_x};g::{:[:_x;\"u\";\"d\"]};(f(:{}?1)),(f(0)),(f([])),(f(\"\")),(g(:{}?1)),g(1)",
    "f::{|x};g::{#x};(f(\"abc\")),(f(\"\")),(f([1 2 3])),(f(:{[1 2]})),(g(\"abc\")),(g(\"\")),"
    "(g([1 2])),g(5)",
    "f::{x~y};(f(\"ab\";\"ab\")),(f(\"ab\";\"ba\")),(f(\"a\";0ca)),(f([1 2];[1 2])),(f(\"\";[])),"
    "f(\"ab\";:ab)",
    "f::{x,y};(,f(\"ab\";\"cd\")),(,f(\"ab\";1)),(,f(1;\"ab\")),(,f(\"ab\";2.5)),(,f(\"ab\";0cc)),"
    "(,f(\"ab\";:s)),(,f(\"\";\"\")),,f(\"ab\";[1 2])",
    "pal::{+/{x~|x}'x};(pal([\"aba\" \"ab\" \"c\" \"\"])),{\" \",x}(0cx),{\" \",x}([1 2])",
    "({\" \",x}'[\"ab\" \"c\" \"\"]),({x,\"!\"}'[\"ab\" \"c\"]),({x,0cx}'[\"ab\" \"c\"]),"
    "{0cx,x}'[\"ab\" \"c\"]",
    "({1_x}'[\"abc\" \"d\" \"\"]),({(-1)_x}'[\"abc\" \"d\" \"\"]),({5_x}'[\"abc\" \"d\"]),"
    "({(-5)_x}'[\"abc\" \"d\"]),{0_x}'[\"abc\" \"d\"]",
    "({\" \",x}'[\"ab\" :s]),({\" \",x}'[\"ab\" 1]),({x,1}'[\"ab\" \"c\"]),({1,x}'[\"ab\" \"c\"]),"
    "{\" \",x}'\"abc\"",
    "{1_x}'[\"abc\" 0cd]",
    "w::[\"ab\" \"cd\"];v::{\" \",x}'w;u::{1_x}'w;w,v,u",
    "words::{[t];t::\" \",x;{1_x}'1_(t?0c ):_t};rev::{[w];w::|words(x);(*w),,/{\" \",x}'1_w};"
    "(,words(\"ab c  def\")),(,rev(\"ab c def\")),(,rev(\"one\")),,rev(\"x  y\")",
    "f::{x:_y};(f([1 3];\"abcdef\")),(f([0 0 2];\"abc\")),(f([];\"abc\")),(f(3;\"abcdef\")),"
    "(f([1 6];\"abcdef\")),(f([1 3];[1 2 3 4 5])),f([1 3];[1 \"a\" 2 3 :b])",
    "f::{x:_y};f([3 1];\"abcdef\")",
    "f::{x:_y};f([1 7];\"abcdef\")",
    "f::{,/x};(,f([\"ab\" \"cd\" \"\"])),(,f([\"ab\" 0cx \"c\"])),(,f([\"ab\" 1])),"
    "(,f([\"ab\" :s])),(,f([[1 2] [3]])),(,f(\"abc\")),,f([\"ab\"])",
    "wf::{[w g];w::(1+(-1)_x?0c ):_x;g::=w;(w@*'g),'#'g};wf(\"a b a c b a \")",
    "f::{=x};(f([\"b\" \"a\" \"b\" \"c\"])),(f([1 2 1 3 3])),f([\"b\" 1 \"b\" 1.0])",
    "f::{*x};(f([[1 2] 3])),(f(\"ab\")),(f(7)),(f(!0)),(f(\"\")),(f([1.5 2])),"
    "{*'x}([[5 6] [7] [8 9 10]])",
    "f::{x,'y};(f([\"a\" \"b\"];[1 2])),f([\"a\" \"b\"];[1.5 2.5])",
    "f::{[s];s::0;{s::s+x}'x;s};g::{[s];s::0;{s::s+x@1}'x;s};h::{[s];s::\"\";{s::s,x}'x;s};"
    "(f([1 2 3])),(f(5)),(g(:{[1 2] [3 4]})),(h(\"abc\")),f([])",
    "g::{x+y};f::{[s];s::0;{x*2}'x;{x%0}'x;g(1;)'x;{s::s+#x}'[\"ab\" \"c\"];s};f([1 2 3])",
    "s::0;f::{{s::s+x;:[x=2;x@5;0]}'x;0};f([1 2 3])",
]


# Loops at the library's pace (issue 35): Each of a body holding a While of literals, every
# row's loop at once in lock step (a binary search of many keys, rows ending at different
# steps, a list as the state, locals of the body around read by the loop, a While in a
# While), and where the loop must run (a mixed or ragged result, int64 left, a row's error);
# the batching rules of comparisons, + - * and integer Max/Min on one kind of number; a
# projection's Each (n-queens)
LOOPS_PROGRAMS = [
    "bs::{[a k];a::x;k::y;*{(x@0)<x@1}{[m];m::(+/x):%2;:[(a@m)<k;(m+1),x@1;(x@0),m]}:~0,#a};"
    "v::1+2*!40;(bs(v;)'[0 1 2 40 41 79 80 200]),bs(v*0.5;)'[0.0 3.3 19.5 40.0]",
    "{{x<100}{x*2}:~x}'[1 3 7 50 200]",
    "{{x<100}{x*2.5}:~x}'[1 3 7 50]",
    "{[s];s::x*3;{x<s}{x+1}:~0}'[2 5 0 9]",
    "[1 2 3]{[t];t::y;{x<t}{x+1}:~x}'[5 6 2]",
    "{[s];s::x;{x<s}{[t];t::x;x+{x<t}{x+1}:~0}:~1}'[5 9 1]",
    "{{(*x)<20}{x+1,2}:~x,0}'[3 8 30]",
    "{*{(*x)<9}{(x@1),+/x}:~0,x}'[1 2 3]",
    "{[s];s::x;{(#x)<3}{x,s}:~[0]}'[1 2]",
    "{{x<10}{x+0.5}:~x}'[20 3]",
    "{{x<9223372036854775807}{x*2}:~x}'[1 3]",
    "{{x<10}{x+10%x-3}:~x}'[4 3]",
    "{{x<10}{x@1}:~x}'[1 2]",
    "{{(#x)<3}{x,x}:~x}'[1 2]",
    "safe::{[d];d::(#x)-!#x;~|/(x=y)|(x=y+d)|x=y-d};q::{:[n=#x;1;0+/q'x,:\\&safe(x;)'!n]};"
    "nq::{n::x;+/{q(,x)}'!n};(nq'!6),safe([0 2 4];)'!5",
    "{(x<[3 1 2]),(x=[1 1 1]),(x>2.5),x|[0 5 1]}'[[1 2 3] [3 2 1]]",
    "{(x+[1 2 3]),(x*x),x-9223372036854775807}'[[1 2 3] [-3 -2 -1]]",
    "{x*4611686018427387904}'[[1 2] [3 4]]",
    "{(x<2.5),(x&[0.5 -0.0 2.0])}'[[1.0 2.0 3.0] [0.0 -0.0 4.0]]",
    "{x<[1 2]}'[[1 2 3] [3 2 1]]",
    "{:[x>10;{x<100}{x*2}:~x;x]}'[20 0]",
    "{[r];r::{x<100}{x*2}:~x;r@5}'[1 0]",
]

# n-queens and binary search (issue 35): Each of a projection over a few columns (the batched
# pairs of safe), Each-Left and Each-Right of a primitive over a list of numbers (a plain
# vector joined to each), an element of each row by a constant index, the batched While
QUEENS_PROGRAMS = [
    "safe::{[d];d::(#x)-!#x;~|/(x=y)|(x=y+d)|x=y-d};q::{:[n=#x;1;0+/q'x,:\\&safe(x;)'!n]};"
    "nq::{n::x;+/{q(,x)}'!n};(nq'[1 2 3 4 5 6]),safe([0 2];)'!5",
    "safe::{[d];d::(#x)-!#x;~|/(x=y)|(x=y+d)|x=y-d};(safe([1 3 0];)'!4),safe([0.0 2.0];)'[0 1.5 4]",
    "([1 2],:\\[3 4 5]),[1 2],:\\[3 4]",
    "[3 4 5],:/[1 2]",
    "[1.5 2.5],:\\[1 2 3]",
    "([1 2 3]+:\\[10 20 30]),([1 2 3]-:/[10 20 30]),([1 2 3]<:\\[0 2 4]),[1 2 3]=:/[3 2 1]",
    "5-:\\[1 2 3]",
    "0,:\\[1 2 3]",
    "[1.5 2.5]*:\\[1.0 2.0 4.0]",
    "[1 2 3]@:\\[0 1 5]",
    "[1 2]+:\\[[1 2 3] [4 5 6] [7 8 9]]",
    "[9223372036854775807 0]+:\\[1 2 3]",
    "({(x@0)+x@3}'[[3 1 2 5] [0 -4 7 1]]),{x@1}'[[1.5 2.5] [3.5 4.5] [0.0 1.0]]",
    "{x@4}'[[1 2] [3 4]]",
    "({x-[1 2 3 4]}'[[3 1 2 5] [0 -4 7 1]]),{[1 2 3 4]<x}'[[3 1 2 5] [0 -4 7 1]]",
    "({x*[0.5 1.5]}'[1 2 3]),{[0.5 1.5]-x}'[1.0 2.5]",
    "{x+[9223372036854775807 0]}'[[1 2] [3 4]]",
    "{[1 2 3]-x}'[4 5]",
    "bs::{[a k];a::x;k::y;*{(x@0)<x@1}{[m];m::(+/x):%2;:[(a@m)<k;(m+1),x@1;(x@0),m]}:~0,#a};"
    "v::3*!100;bs(v;)'[0 1 2 3 150 297 298 299 1000 -5]",
]


# the verbs and batched forms on small arrays that issue 35's programs call per step
# (Gauss-Jordan's pivot, the queens' rules): real Divide, List and Join of arrays, Each of
# a lambda reading a vector, Each of a projection
COST_PROGRAMS = [
    "gj::{[a n];n::#x;a::x,'{1.0*x=!n}'!n;{[r];r::a@x;r::r%r@x;a::a-{x*r}'{y@x}(x;)'a;"
    "a::(x#a),(,r),(x+1)_a}'!n;{n_x}'a};gj([[4.0 1.0 2.0] [1.0 5.0 1.0] [2.0 1.0 6.0]])",
    "([1.5 -3.0 0.25]%2.0),(2.0%[4.0 -0.5 8.0]),([1.0 2.0]%[4.0 -8.0])",
    "([1.5 -3.0]%0.0),(1.0%[2.0 0.0 -0.0]),([3.0 0.0]%[0.0 2.0])",
    "([[1.0 2.0] [3.0 4.0]]%[2.0 -4.0]),([[1.0 2.0] [3.0 4.0]]%[0.0 1.0])",
    "([2.0 4.0]%[[1.0 2.0] [4.0 0.5]]),([6 3]%[2.0 4.0]),([1.0 2.0]%[2 0])",
    "(,[1.0 2.0]),(,[1 2]),(,[[1 2] [3 4]]),(,[]),(,\"ab\"),,0c1",
    "#,[[1 2] [3 4]]",
    "([[1 2] [3 4]],[[5 6]]),([[1.0 2.0]],[[3.5 4.0]]),([1 2],[3.5 4.0])",
    "([[1 2] [3 4]],[[5.0 6.0]]),([[1 2]],[5 6 7]),([[1 2]],[[5 6 7]])",
    "([],[1 2]),([1 2],[]),([[1 2]],[]),([1 0],[1.5])",
    "r::[1.0 2.0 3.0];{x*r}'[1.0 -2.0 0.5]",
    "r::[1 2 3];({x*r}'[1 -2 5]),{x*r}'[4611686018427387904 2]",
    "r::[1 2 3];{x*r}'[1.0 2.0]",
    "a::[[1.0 2.0 3.0] [4.0 5.0 6.0]];({y@x}(2;)'a),({y@x}(0;)'a),{x@y}(;1)'a",
    "a::[[1 2 3] [4 5 6]];({y@x}(1;)'a),{y@x}(3;)'a",
    "{y+x}(2;)'[[1 2] [3 4]]",
    "{y%x}(0.0;)'[[1.0 2.0] [3.0 4.0]]",
    "f::{[r];r::x;{x*r}'[1.0 2.0]};f'[[1.0 2.0] [3.0 4.0]]",
]

# the row idioms issue 32 made cheaper on torch: scans along the rows, joins and rotations
# of rows, reals beside integers that convert exactly, a real power by one number; rows of
# NaN, infinities and -0.0, one column, zero rows
TORCH_ROWS = [
    "m::[[1.5 2.25 -3.0 0.5] [0.1 0.2 0.3 0.7] [-1.0 -2.0 -3.5 4.0]];"
    "(+\\'m),(*\\'m),(|\\'m),&\\'m",
    "i::[[3 1 2 5] [0 -4 7 1] [9 9 -2 3]];(+\\'i),(*\\'i),(|\\'i),&\\'i",
    "n::(1.0e308*10)-1.0e308*10;f::[[1.0 2.0 3.0]],,(1.0e308*10),(-1.0e308*10),n;"
    "(+\\'f),(*\\'f),(|\\'f),(&\\'f),(+/'f),*/'f",
    "z::[[-0.0 -0.0] [0.0 -0.0] [1.0e308 1.0e308]];(+\\'z),(+/'z),(*\\'z),{|\\x}'z",
    "b::[[4611686018427387904 4611686018427387904] [1 2]];+\\'b",
    "m::[[1.5 2.25 -3.0 0.5] [0.1 0.2 0.3 0.7]];({x,0.0}'m),({0.0,x}'m),({(+/x),x}'m),{x,0}'m",
    "i::[[3 1 2 5] [0 -4 7 1]];({x,x}'i),({x,0}'i),({1:+x}'i),({-1:+x}'i),({9:+x}'i),{0:+x}'i",
    "c::[[1.5] [-2.0] [0.0]];(+\\'c),({x,0.0}'c),({1:+x}'c),({(+/x)%#x}'c),+/'c",
    "e::0#,[1.0 2.0];(+\\'e),({x,0.0}'e),({1:+x}'e),({(+/x)%#x}'e),#'e",
    "m::[[1.5 2.25 -3.0 0.5] [0.1 0.2 0.3 0.7] [-1.0 -2.0 -3.5 4.0]];"
    "({(+/x)%#x}'m),({x-(+/x)%#x}'m),({(+/x)>0}'m),({(+/x)+1}'m),{:[(+/x)>0;1;-1]}'m",
    "m::[[1.5 2.25] [0.1 0.2]];({(+/x)%0}'m),({(+/x)>9007199254740993}'m),"
    "{x+9007199254740993}'m",
    "p::[[0.5 1.0 2.0] [0.0 4.0 9.0] [1.0e-200 1.0e-200 1.0]];({(+/x*x)^0.5}'p),"
    "({(+/x)^1.5}'p),({(+/x)^-0.5}'p),({(*x)^-1.0}'p),({(*x)^0.0}'p),{(*x)^400.0}'p",
    "m::[[1.5 -2.25] [-0.1 0.2]];({(+/x)^0.5}'m),({(*x)^2.0}'m),({(*x)^-3.0}'m),"
    "{(*x)^((1.0e308*10)-1.0e308*10)}'m",
]

# issue 32's row idioms on torch, second round: Max and Min of reals by fmax and fmin
# (NaN, infinities, -0.0 beside 0.0), one number per row beside each row's array on either
# side, a conditional choosing between two plain numbers of one kind (or not)
TORCH_ROWS2 = [
    "n::(1.0e308*10)-1.0e308*10;m::[[1.5 -0.1 0.3] [-0.0 0.0 0.25]],,(1.0e308*10),n,-0.5;"
    "({(x|-0.25)&0.25}'m),({x|0.0}'m),({x&-0.0}'m),({x|n}'m),({x|-x}'m),{+/x|-x}'m",
    "m::[[1.5 -0.1 0.3] [-0.0 0.0 0.25]];((m|-0.25)&0.25),(m|0.0),(m&m),({(x|1)&4}'[[0 3 9]])",
    "m::[[1.5 2.25 -3.0] [0.1 0.2 0.3] [-0.0 -0.0 -0.0]];({x-(+/x)%#x}'m),({((+/x)%#x)-x}'m),"
    "({x*+/x}'m),({x-*x}'m),({(*x)+x}'m),{x%+/x}'m",
    "i::[[3 1 2] [0 -4 7] [9 9 -2]];({(+/x)-x}'i),({x*|/x}'i),({x=*x}'i),({(*x)<x}'i),"
    "{x-|/|/x}'[2 2 2]:^!8",
    "b::[[4611686018427387904 4611686018427387904] [1 2]];({x+|/x}'b),{(|/x)*x}'b",
    "m::[[1.5 2.25 -3.0] [0.1 0.2 0.3] [-1.0 -0.0 0.5]];({:[(+/x)>0;1;-1]}'m),"
    "({:[(+/x)>0;1.5;-0.0]}'m),({:[(*x)>0;(1.0e308*10);-1.0]}'m),"
    "({:[(+/x)>0;9223372036854775807;-9223372036854775808]}'m),{:[(*x)>0;x;0.5*x]}'m",
    "m::[[1.5 2.25] [-0.1 -0.2]];({:[(+/x)>0;1;-1.0]}'m),({:[(+/x)>0;9223372036854775808;0]}'m),"
    "{:[(+/x)>0;1:|(+/x)>1;2;3]}'m",
    "i::[[3 1 2] [0 -4 7]];({:[(+/x)>5;1;-1]}'i),(*/'[[1.5 -2.0] [0.5 0.5]]),+/'[[0.1 0.2 0.3]]",    "z::[[-0.0 1.0] [2.0 -0.0]];w::[[-0.0 0.0] [1.0 2.0]];(|/'z),(&/'z),(|/'w),(&/'w),"
    "({x-|/x}'z),({x-&/x}'z),({x-|/x}'[[-0.0 -1.0] [-2.0 -0.0]]),|/'[[0.0 0.0] [1.0 -0.0]]",    "m::[[1.5 2.25 -3.0] [0.1 0.2 0.3] [-1.0 4.0 0.5]];e::m,[[1.0 -1.0 0.0] [-0.0 2.0 3.0]];"
    "({x%+/x}'m),({(+/x)%x}'m),({x%*x}'m),({(x%+/x)-x%|/x}'m),({x%+/x}'e),({x%*x}'e),"
    "{x%|/|/x}'[2 2 2]:^1+!8",
]

# Issue 32 on torch, third round: Max and Min of two arrays by the library's maximum and
# minimum where their result holds no NaN and no zero (else fmax and fmin, or the verb's
# steps), powers by a number, pairs of rows of one length, row sums and products
TORCH_ROWS3 = [
    "n::(1.0e308*10)-1.0e308*10;g::[[1.0 -2.0 3.0] [0.5 -0.5 2.0]],,(n,0.5,-0.0);"
    "h::[[0.5 -3.0 3.0] [1.0 0.25 -0.0]],,(2.0,n,0.0);(g|h),(g&h),(h|g),(h&g),(g{x|y}'h),"
    "(g{x&y}'h),(h{x|y}'g),({x|-x}'g),({x&-x}'g),({+/x|-x}'g),{+/x&-x}'g",
    "m::[[1.5 2.25 -3.0] [0.1 0.2 0.3] [-1.0 4.0 0.5]];({x|-x}'m),({+/x|-x}'m),"
    "({(x*x)&1+x*x}'m),(m{x|y}'m-1),(m{x&y}'m-1),((m*m)|m),{+/x&-x}'m",
    "z::[[0.0 -0.0 1.0] [-0.0 -0.0 2.0]];({x|-x}'z),({x&-x}'z),(z|-z),(z&-z),"
    "({+/x|-x}'z),(z{x|y}'|'z),z{x&y}'|'z",
    "m::[[1.5 2.25 -3.0] [0.1 0.2 0.3] [-1.0 4.0 0.5]];n::m-0.25;({x^2}'m),(m{+/(x-y)^2}'n),"
    "(m{(x-y)^2}'n),(m^2),({(+/(x-(+/x)%#x)^2)%#x}'m),{(+/x*x)^0.5}'m",
    "i::(1.0e308*10);n::i-i;f::[[1.0 2.0 3.0] [4.0 5.0 6.0]],,(i,(-i),n);"
    "({x^2}'f),(f{+/(x-y)^2}'|'f),(f^3),(+/'f),*/'f",
    "m::[[1.5 2.25 -3.0] [0.1 0.2 0.3] [-1.0 4.0 0.5]];(m{+/x-y}'2#m),(m{x*y}'m),"
    "(+/'m),(*/'m),(+/'[[-0.0 -0.0] [0.0 -0.0]]),*/'[[-0.0 1.0] [2.0 -0.0]]",
]

# Issue 35's small programs, third round: Take of a one-item list, Where of integers, a
# sieve's progression steps, a real array beside an integer, Floor's range, a dictionary of
# numbers handed to Python, matrix products by hand
SMALL_PROGRAMS = [
    "(5#,1),((-4)#,1),(3#,2.5),(7#[1 2 3]),(-7)#[1 2 3]",
    "(3#,[1 2]),((-2)#,[1.5 2]),(3#,\"ab\"),(3#,0cx),(1#,7),0#,7",
    "s::5#,1;t::s;s::s:=0,2;s,t",
    "{[s];s::x#,1;s::s:=0,0,1;s::s:=0,4,6;(&s),s}(8)",
    "(&[0 1 1 0 1]),(&[2 0 1]),(&[0 0]),(&1),&(!70)!3",
    "&[0 -1]",
    SIEVE + "(#sieve(10000)),sieve(100)",
    "({x-!3}(5)),({(!3)-x}(5)),({0,x-2*!3}(5)),({x,2*!3}(1.5)),{\"a\",x-!3}(1)",
    "({9223372036854775807-!x}(3)),({(!x)-9223372036854775807}(3)),{x*!3}(4611686018427387904)",
    "{x-!3}(:undefined)",
    "v::[0.25 0.5 0.75];(v*20),(20*v),(v+3),(3+v),(v-3),(3-v),([[0.5 1.5] [2.5 3.5]]-2)",
    "([0.5 1.5]*9223372036854775807),([0.5 1.5]*9223372036854775808),(1.0e308*[1.0 2.0])*10",
    "(_[1.5 -2.5 0.0 -0.0 1e17]),(_[1.5 1e18]),(_[1.5 -1e18]),(_(1.0e308*[10.0 1.0])),"
    "_[1.5],(1.0e308*10)-1.0e308*10",
    "hist::{[b];b::_x*y;{+/b=x}'!y};hist([0.05 0.5 0.55 0.99 0.0 0.999];20)",
    "mm::{[t];t::+y;{[r];r::x;{+/r*x}'t}'x};(mm([[1.5 2.0] [0.5 1.0]];[[2.0 0.0] [1.0 4.0]])),"
    "mm([[1 2] [3 4]];[[5 6] [7 8]])",
    "cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d};cnt([1 2 1 3 1 2.5 2.5])",
    "s::!10;t::s;s::s:=9,[1 3 3 5];u::s;s::s:=8,[2 4 6 8];(s::s:=7,[9 8]),t,u",
    "s::!10;s::s:=1.5,[2 4];(s:=9,[0 1 2 3 4 5 6 7 8]),s:=9,[7]",
    "s::!10;s::s:=9,[3 1 2]", "s::!10;s::s:=9,[2 4 6 10]", "s::!10;s::s:=9,[-1 4]",
    "(0,[1 2]),([1 2],0),(5,!3),((!3),5),(9223372036854775807,[1 2]),[1 2],-9223372036854775808",
    "(9223372036854775808,[1 2]),([1 2],-9223372036854775809),(1.5,[1 2]),(1,[1.5 2.5]),[1.5],1",
    "s::!100;v::0,2+3*!30;s::s:=7,1_v;(+/s),(0,!0),(!0),0",
]

# Calls of a global holding a monad literal in a batched body (verbs/batched.py _call): its
# own batched body on the rows where it has one and no effects; one that prints, assigns a
# global, calls itself, is a dyad or whose row fails declines (the loop)
CALL_PROGRAMS = [
    "sq::{x*x};m::[[1 2 3] [4 5 6]];({sq(x)-1}'m),({sq(sq(x))}'[1.5 2.5]),{sq(3)+x}'m",
    "sq::{x*x};h::{sq(x)+k};k::0.5;m::[[1.0 2.0] [3.0 4.0]];a::{h(x)*2}'m;k::1;a,{h(x)*2}'m",
    ".bkf(\"tanh\");w::[0.5 -1.0 2.0];net::{0.1++/w*tanh(0.2+w*x)};{net(x@0)-x@1}'[[0.5 1.0] [1.5 -2.0]]",
    "p::{.d(x);x*2};m::[[1 2] [3 4]];{p(x)+1}'m",
    "n::0;b::{n::n+1;x*x};m::[[1 2] [3 4]];({b(x)}'m),n",
    "d::{:[(*x)<0;x;d(x-1)]};{d(x)}'[[1 2] [3 4]]",
    "t::{x*y};{t(x)}'[[1 2] [3 4]]",
    "o::{x%(+/x)-4};{o(x)}'[[3 1] [2 2] [0 1]]",
    "f::{x+1};m::[[1 2] [3 4]];a::{f(x)*2}'m;f::{x-1};a,{f(x)*2}'m",
]


# The paths of issue 35's n-queens and binary search in a batched body (verbs/fused.py: a
# tree of integer element-wise verbs as one node, and the verbs' nodes where its checks do
# not pass: reals, bounds beyond int64, empty and unequal lists; the bounds of +/ and of :%
# and ! remembered; numpy's join of rows)
PROGRAM_PATHS = [
    "safe::{[d];d::(#x)-!#x;~|/(x=y)|(x=y+d)|x=y-d};q::{:[n=#x;1;0+/q'x,:\\&safe(x;)'!n]};nq::{n::x;+/{q(,x)}'!n};(safe([1 3 0];)'!4),nq'[1 4 5 6]",
    "v::[1 5 9];({(x+1)*x-2}'[[1 2] [3 4]]),({(x<v)&(v-x)>2}'[0 4 8]),({~(x=1)|x=2}'[1 2 3]),{(x=*x)&x>0}'[[1 2 1] [0 3 0]]",
    "({(x=1)|x>2}'[3]),({(x+1)*2}'!1),({(x=1)|(2=2)}'[1 0]),{x*y-1}:'[[1 2] [3 4] [5 6]]",
    "({(x*x)+1}'[3037000500 2]),({(x+x)-x}'[9223372036854775807 1]),({(x=0)|x<0}'[-9223372036854775808 0 5]),{(x-1)|x}'[-9223372036854775808 0]",
    "v::[0.5 1.5];({(x+1)*x}'[1.5 2.0]),({(x<1.5)|x=1}'[1 2 0]),({(x+v)*x}'[1.0 2.0]),{(x+v)*x}'[1 2]",
    "v::!0;{(x=v)|x<v}'[1 2]",
    "v::[1 2 3];{(x+v)*2}'[[1 2] [3 4]]",
    "bs::{[a k];a::x;k::y;*{(x@0)<x@1}{[m];m::(+/x):%2;:[(a@m)<k;(m+1),x@1;(x@0),m]}:~0,#a};a::3*!1000;q::(7*!100)!3001;(+/bs(a;)'q),(bs(a;)'[0 2998 2999 -5]),(bs([5];)'[1 5 9]),bs(!0;)'[1 2]",
    "s::{((+/x):%2)+1}'[100 2]:^!200;(#s),(+/s),(s@99),(+/{((+/x):%2)+1}'[100 2]:^4611686018427387904+!200),(+/{(x!7)+1}'!100),+/{(x:%3)*x}'4611686018427387904+!100",
    "{(+/x):%0}'[70 2]:^!140",
    "({x,1+x}'[[1 2] [3 4]]),{(*x),x}'[[1.5 2.5] [3.5 4.5]]",
    "v::[1 2 3];w::[0 1];({((x=v)+x)*2}'[1 2]),({(x>v)=(x<v+1)}'[1 2 3]),({(x>v)|x-v+5}'[1 9]),({(x>v)&x<v+2}'[1 2 3]),(+/+/{(x>w)&x<w+50}'!100),+/+/{~(x>w)|x=w}'!100",
]


# Issue 35, real programs at the library's pace (second round): a conditional's predicate
# value kept for the parts after it (passes/shared.py), and where it must not be
PROGRAM_PATHS2 = [
    "cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d};(,cnt([3 1 3 3 2 1])),(,cnt(\"abca\")),,cnt(,0)",
    "d:::{[5 1] [6 2] [7 3]};f::{:[(d?x)>2;0:|(d?x)>1;1+d?x;2*d?x]};f'[5 6 7]",
    "d:::{[1 1]};f::{:[(d?x)>5;0:|((d,x,9)?x)>100;1;d?x]};g::{[a];a::x;:[(a+1)>0;(a+1)+a::5;0]};f(1),g(1)",
    "h::{:[#x?0ca;*x?0ca;-1]};j::{:[(#x,y)>3;(x,y)@2;#x,y]};(h'[\"bab\" \"bbb\"]),j([1 2];[3 4]),j([1];[2])",
    # the truth of an element read in a loop (values.is_true), called often enough to be
    # captured on torch
    "sieve::{[s n];n::x;s::n#,1;s::s:=0,0,1;{(x*x)<n}{:[s@x;s::s:=0,(x*x)+x*!1+((n-1)-x*x):%x;0];x+1}:~2;&s};(#'sieve'[2 3 30 30 30 30 100]),sieve(50)",
    "t::{:[x@y;1;0]};u::{:[x@1;1;0]};(t([0 1 2];)'[0 1 2]),(t([0.0 -0.0 0.5];)'[0 1 2]),u'[[0 1] [2 0]]",
    # integer rows and one real, batched (Gauss-Jordan's identity matrix)
    "n::4;(,{1.0*x=!n}'!n),(,{2.5-x}'[[1 2] [3 4]]),(,{(x+1)*-0.5}'[[0 -1] [3 4]]),,{x*1.0}'[[9007199254740993 1] [-9007199254740993 0]]",
    "gj::{[a n];n::#x;a::x,'{1.0*x=!n}'!n;{[r];r::a@x;r::r%r@x;a::a-{x*r}'{y@x}(x;)'a;a::(x#a),(,r),(x+1)_a}'!n;{n_x}'a};gj([[4.0 1.0 0.5] [1.0 3.0 0.25] [0.5 0.25 2.0]])",
]


# Row idioms of issue 32, third round: results that are views of the rows (a column, the
# first or last few, reversed), with an Amend of the view or of the matrix after them;
# *x?|/x from argmax (ties, near elements, infinities, zeros: the steps before); sums of
# products folded as columns; the edges (one column, no rows, an index out of range)
NUMROWS = [
    "m::[3 4]:^1.5*!12;q::{x@2}'m;m::m:=(,[9.0 9.0 9.0 9.0]),0;q,m@0",
    "m::[3 4]:^!12;q::{4#|x}'m;q::q:=(,[7 7 7 7]),1;(,m),,q",
    "{[m q];m::[3 4]:^1.5*!12;q::{1_x}'m;m::m:=(,[9.0 9.0 9.0 9.0]),2;(,q),,m}()",
    "m::[3 4]:^0.5*!12;q::*'m;r::|'m;q::q:=-1.0,0;m::m:=(,[0.0 0.0 0.0 0.0]),1;(,q),(,r),,m",
    "r::[[1.5 -2.25 3.0 0.5] [0.1 -0.2 0.3 -0.7]];({x@3}'r),({(x@0)-x@1}'r),({2#|x}'r),(*'r),#'r",
    "({x@0}'[[1.5] [2.5]]),({*x?|/x}'[[1.5] [2.5]]),({+/x*!#x}'[[1.5] [2.5]]),{4#|x}'[[1] [2]]",
    "({x@2}'0#,[1.0 2.0 3.0]),({*x?|/x}'0#,[1.0 2.0 3.0]),#'0#,[1 2]",
    "{x@4}'[[1.5 2.5 3.5 4.5] [1.0 2.0 3.0 4.0]]",
    "{(x@0)-x@4}'[[1 2 3 4] [5 6 7 8]]",
    "({*x?|/x}'[[3.0 1.0 3.0] [0.5 2.0 2.0]]),({*x?|/x}'[[1.0 1.0000000000000002 0.5] [0.25 2.0 1.9999999999999998]]),{*x?|/x}'[[3 1 3] [0 5 5] [-2 -1 -1]]",
    "({*x?|/x}'[2 3]:^(-1.0e308*10),[2.0 1.0 0.5 -3.0],-1.0e308*10),({*x?|/x}'[[0.0 -0.0 -1.0] [-3.0 0.0 -1.0]]),{*x?|/x}'[[-1.0 -2.0 -0.5] [-5.0 -0.25 -7.0]]",
    "g::[6 16]:^(((((!96)*7919)!1009)-504)%7.0)*10.0^(!96)!9;w::[16 3]:^(((!48)*7919)!1009)%7.0;({*x?|/x}'g),({+/x*!#x}'g),({+/x*w}'g),({x@15}'g),{4#|x}'g",
    "i::[[3 1 2 5] [0 -4 7 1] [9 9 -2 3]];({*>x}'i),({*<x}'i),({x@<x}'i),({+/(x>1)&x<5}'i),{*x?|/x}'i",
    "({x@<x}'[[3.0 1.0 2.0] [0.5 -0.5 0.5]]),({x@>x}'[[3 1 2] [5 5 -1]]),({(|x)@<|x}'[[2 1] [1 2]]),{x@<x}'[[0.0 -0.0 1.0] [1.0 0.0 -0.0]]",
]


# Row idioms of issue 32, fourth round (numpy side): parts of each row picked straight from
# the matrix (a column, the first, the last, the last few reversed, the tally) beside the
# same parts of matrices of one row, one column, three axes, none; sums of products by the
# positions, a vector and a matrix (-0.0, integers beyond int64); the first place of a
# row's extreme with ties, NaN and -0.0
NUMROWS2 = [
    "m::[3 4]:^[1.5 -2.25 3.0 0.5 0.1 -0.2 0.3 -0.7 -1.0 -2.0 -3.5 4.0];({x@2}'m),({x@0}'m),(*'m),({*|x}'m),#'m",
    "m::[3 4]:^!12;({4#|x}'m),({2#|x}'m),({(-2)#|x}'m),{1#|x}'m",
    "({x@0}'[[1.5] [2.5]]),(*'[[1] [2]]),(#'[[1.5] [2.5]]),({*|x}'[[1.5 2.5 3.5]]),{x@2}'[[1.5 2.5 3.5]]",
    "m::[2 3 2]:^!12;({x@1}'m),(*'m),(#'m),{*|x}'m",
    "({x@2}'0#,[1.0 2.0 3.0]),(#'0#,[1 2]),(*'0#,[1.0 2.0]),{4#|x}'0#,[1 2 3 4]",
    "{x@4}'[[1.5 2.5 3.5 4.5] [1.0 2.0 3.0 4.0]]",
    "{x@3}'[3 3]:^!9",
    "m::[3 4]:^0.5*!12;q::{x@1}'m;r::{4#|x}'m;m::m:=(,[9.0 9.0 9.0 9.0]),0;(,q),(,r),,m",
    "m::[3 4]:^[1.5 -2.25 3.0 0.5 0.1 -0.2 0.3 -0.7 -1.0 -2.0 -3.5 4.0];w::[4 2]:^[0.5 1.0 2.0 -1.0 0.25 4.0 -0.5 2.0];({+/x*!#x}'m),({+/x*w}'m),{+/x*w}'[[3 1 2 5] [0 -4 7 1]]",
    "m::[1 3]:^[1.5 2.5 3.5];c::[3 1]:^[1.5 2.5 -0.5];({+/x*!#x}'m),({+/x*!#x}'c),({+/x*[2.0]}'c),m,c",
    "z::[[0.0 -0.0 -1.0] [-0.0 0.0 -1.0] [-0.0 -0.0 -0.0]];({+/x*[1.0 1.0 1.0]}'z),({+/x*!#x}'z),{+/x*[3 2]:^-0.0}'z",
    "b::[[4611686018427387904 4611686018427387904] [1 2]];({+/x*[4 4]}'b),({+/x*[4.0 4.0]}'b),{+/x*!#x}'b",
    "g::[30 40]:^(((((!1200)*7919)!1009)-504)%7.0)*10.0^(!1200)!9;v::[40 5]:^(((!200)*104729)!997)%13.0;({+/x*v}'g),{+/x*!#x}'g",
    "t::[[1.0 3.0 3.0 2.0] [2.0 2.0 1.0 0.0] [5.0 -1.0 5.0 0.0]];({*>x}'t),({*<x}'t),{*x?|/x}'t",
    "n::[2 3]:^[1.0 2.0],((1.0e308*10)-1.0e308*10),[0.5 -1.0 3.0];({*>x}'n),({*<x}'n),{x@2}'n",
    "z::[[0.0 -0.0 -1.0] [-0.0 0.0 -1.0]];({*>x}'z),({*<x}'z),({*x?|/x}'z),{*x?&/x}'z",
    "m::[3 4]:^[1.5 -2.25 3.0 0.5 0.1 -0.2 0.3 -0.7 -1.0 -2.0 -3.5 4.0];({(x|-0.25)&0.25}'m),(<'[[3 1 2 5] [0 -4 7 1]]),{*x?|/x}'m",
]


# The first place of each row's extreme and the grade of each row (issue 32): ties of
# integers and reals (the reference's Shell order), infinities, -0.0 beside 0.0, NaN, one
# column, int64's extremes, many tied rows, 40 columns, near ties within Match's tolerance.
EXTREME_ROWS = [
    "t::[[3 1 3 2] [0 0 0 0] [5 -1 5 -1] [2 7 7 7]];({*>x}'t),({*<x}'t),({*x?|/x}'t),(<'t),>'t",
    "r::[[0.5 2.0 2.0 -1.0] [1.5 -3.0 1.5 -3.0] [4.0 3.0 2.0 1.0]];({*>x}'r),({*<x}'r),({*x?|/x}'r),(<'r),>'r",
    "f::[3 3]:^(1.0e308*10),[1.0],(1.0e308*10),(-1.0e308*10),(-1.0e308*10),[0.0 2.0 -1.0],-1.0e308*10;({*>x}'f),({*<x}'f),({*x?|/x}'f),(<'f),>'f",
    "z::[[0.0 -0.0 -1.0] [-0.0 0.0 0.0] [-0.0 -1.0 -0.0] [1.0 -0.0 0.0]];({*>x}'z),({*<x}'z),({*x?|/x}'z),(<'z),>'z",
    "n::[3 3]:^[1.0],((1.0e308*10)-1.0e308*10),[2.0],((1.0e308*10)-1.0e308*10),((1.0e308*10)-1.0e308*10),[0.5 3.0 1.0 2.0];({*>x}'n),({*<x}'n),<'n",
    "c::[[2.5] [-0.5] [0.0]];i::[[4] [-2] [0]];({*>x}'c),({*<x}'i),({*x?|/x}'c),(<'c),>'i",
    "e::[[9223372036854775807 -9223372036854775808 0 9223372036854775807] [-1 -9223372036854775808 -9223372036854775808 5]];({*>x}'e),({*<x}'e),(<'e),>'e",
    "t::[60 16]:^((!960)*7919)!5;(<'t),(>'t),({*>x}'t),{*<x}'t",
    "g::[12 40]:^((!480)*7919)!7;(<'g),>'g",
    "m::[50 16]:^(((!800)*7919)!1009)%7.0;({*>x}'m),({*<x}'m),({*x?|/x}'m),(<'m),>'m",
    "m::[[1.0 1.0000000000000002 0.5] [0.25 2.0 1.9999999999999998] [3.0 -1.0 2.0]];({*x?|/x}'m),({*>x}'m),{*<x}'m",
    "b::[20 8]:^((((!160)*7919)!3)-1)*4611686018427387904;(<'b),(>'b),{*>x}'b",
]

# The second round of issue 35's independent programs (bench_independent.py, ind2_...) and
# the paths they found: the codes of a string at once (#'s), calls of dyad literals in
# batched bodies, Where of a mask
SECOND_ROUND = [
    'rot::{[c s];c::#\'x;s::c>96;,/:#(c*~s)+s*97+(c-84)!26};rot("hello world the quick fox")',
    '(#\'"abc"),(#\'""),(#\'"a"),{+/#\'x}\'["ab" "c" ""]',
    'lf::{[g];g::=x;(x@*\'g),\'#\'g};lf("mississippi banana")',
    "top::{x@y#>x};top([3.5 1.0 4.0 1.0 5.5 9.0 2.0 6.5];3)",
    "ds::{+/({x>0}{x:%10}\\~x)!10};ds'1+!40",
    "pas::{(x-1){(0,x)+x,0}\\*,1};(*|pas(70)),#pas(5)",
    "ema::{[a];a::y;{(a*y)+(1-a)*x}\\x};ema([1.0 2.0 3.0 4.0 -1.5];0.125)",
    'line::{(-1)_,/{($x),","}\'x};csv::{,/{line(x),:#10}\'x};csv([[1 2 3] [40 -5 6]])',
    'lev::{[a];a::#\'x;*|{[t];t::(1+*x),(1+1_x)&((-1)_x)+~a=y;(!#t)+&\\t-!#t}/(,!1+#x),#\'y};(lev("kitten";"sitting")),lev("flaw";"lawn")',
    "qs::{:[2>#x;x;{(qs(x@&x<y)),(x@&x=y),qs(x@&x>y)}(x;x@0)]};qs([3 1 4 1 5 9 2 6 5 3 5])",
    "gcd::{*{0<x@1}{(x@1),(x@0)!x@1}:~x,y};[12 17 100 0 7]{gcd(x;y)}'[18 5 75 9 0]",
    "gcd::{*{0<x@1}{(x@1),(x@0)!x@1}:~x,y};({gcd(x;6)}'[4 9 35 0]),[12 18]gcd'[8 27]",
    "two::{x*y};r::[[1.5 2.0] [-3.0 0.5]];({two(x;x)}'r),({two(x;3)}'r),[1 2]{two(x;y)}'[3 4]",
    "two::{x*y};b::[[4611686018427387904 4611686018427387904] [1 2]];{two(x;x)}'b",
    "idx::{x@y};i::[[3 1 2] [0 -4 7]];({idx(x;1)}'i),{idx(x;9)}'i",
    "dn::{:[y<0;x;dn(x;y-1)]};i::[[3 1] [0 -4]];{dn(x;2)}'i",
    "mix::{(x*k)+y};k::2.0;r::[[1 2] [3 4]];{mix(x;x)}'r",
    "(&[0 1 1 0 1]),(&[]),(&0),(&1),(&[2 0 1]),&(!5)<3",
]


# Issue 35's n-queens at the library's pace: |/ and &/ of each row inside a tree of integer
# verbs (verbs/fused.py: of vectors, of a row's number, of truths, of a plain vector, of
# one-element rows, past int64, of reals), a vector joined to each number at any length
# (batching.joined_each), a short mask's positions
QUEENS_RUN = [
    "safe::{[d];d::(#x)-!#x;~|/(x=y)|(x=y+d)|x=y-d};q::{:[n=#x;1;0+/q'x,:\\&safe(x;)'!n]};"
    "nq::{n::x;+/{q(,x)}'!n};nq'[1 4 5 6]",
    "i::[[3 1 2 5] [0 -4 7 1] [9 9 -2 3]];({~|/x=3}'i),({&/(x>0)|x=-4}'i),({(|/x<3)+|/x}'i)",
    "i::[[3 1 2 5] [0 -4 7 1]];({(|/x)+x}'i),({x-&/x}'i),{(&/x<0)=|/x>[1 2 3 4]}'i",
    "({|/(x*2)-1}'[1 2 3]),({~&/[1 2 3]=x}'[1 2 3]),{x+|/[4 5 6]=5}'[1 2]",
    "({(|/x=1)+(&/x)*2}'[[1] [2]]),{|/x+9223372036854775800}'[[1 2] [3 4]]",
    "sf::{[d];d::(#x)-!#x;~|/(x=y)|(x=y+d)|x=y-d};(sf([0.0 2.0];)'[0 1.5 4]),sf([0 2];)'!5",
    "sf::{~&/(x<y)|x=y};(sf([1 5 3];)'[2 5 0 9]),sf([4];)'[4 5]",
    "sf::{|/x=y};sf([];)'[1 2]",
    "([1 2],:\\[3]),([1 2],:\\[3 4]),([3 4 5],:/[1 2]),([1.5],:/[2.5 0.5]),[1 2],:\\[1.5]",
    "r::[1 2],:\\[3 4];(r@0),(r@1),(+/r),(&[0 1 1 0]),(&[2 0 1]),(&[0 0 0]),&[1]",
    "sf::{[d];d::#x;(((x*y)+9223372036854775800)<0)+d};(sf([1 2];)'[10 1]),,sf([-1 2];)'[10 1]",
]


# Texts made in C and joins of integer constants lowered as vectors (issue 35's margins): a
# text cut at every place of one character (leading, trailing and doubled places, a
# character beyond Latin-1, the mark in the text, places that are not all of them), each of
# a list of strings joined with a text or dropped from, Join over texts, and 0,0,1 amended
# in and out of loops, beside a join over the size guard's reach.
MARGINS = [
    't::" a b  c d e f g h i j k l m n o p q r s ";w::(t?0c ):_t;(#w),(#\'w),#,/w',
    't::"é b é c é d é e é f é g é h é i é j é k é l é m é n é o é p é q";(t?0cé):_t',
    't::"a b c d e f g h i j k l m n o p q r",(,:#0)," s";#\'(t?0c ):_t',
    't::"a b c d e f g h i j k l m n o p q r s";(#\'(1_t?0c ):_t),(#\'(0,t?0c ):_t),#\'((t?0c ),#t):_t',
    'words::{[t];t::" ",x;{1_x}\'1_(t?0c ):_t};rev::{[w];w::|words(x);(*w),,/{" ",x}\'1_w};'
    'rev("ab c  dd e f g h i j k l m n o p q r s t u")',
    'w::["ab" "c" "" "dd"],,(,:#0);(#\'{" ",x}\'w),(#\'{x,"--"}\'w),(#\'{x,0cz}\'w),#\'{0cz,x}\'w',
    'w::["abc" "c" "" "dd" "efgh"];({1_x}\'w),({(-2)_x}\'w),({9_x}\'w),{"",x}\'w',
    '(,/["ab" 0cc "" "dd"]),(,/[0ca 0cb]),,/["ab" :cd "e"]',
    'sieve::{[s n];n::x;s::n#,1;s::s:=0,0,1;{(x*x)<n}{:[s@x;s::s:=0,(x*x)+x*!1+((n-1)-x*x):%x;0];x+1}:~2;&s};'
    'sieve(100)',
    'f::{[s];s::x#,7;{s::s:=0,0,1,2;s::s:=5,3}\'!3;s};(f(6)),(0,0,1),([1 2],3),1,[2 3],4,5',
    'a::0,0,1;b::a:=[9 0];c::{x,0,0,1}(5);a,b,c',
    'hist::{[b];b::_x*y;{+/b=x}\'!y};hist([0.05 0.5 0.51 0.99 0.0 0.25 0.75 0.5];4)',
    'cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}\'x;d};c::cnt([3 1 3 2 3 1 0 0 9]);(c?3),(c?0),(c?9),#c',
    'gj::{[a n];n::#x;a::x,\'{1.0*x=!n}\'!n;'
    '{[r];r::a@x;r::r%r@x;a::a-{x*r}\'{y@x}(x;)\'a;a::(x#a),(,r),(x+1)_a}\'!n;{n_x}\'a};'
    'gj([[4.0 1.0 0.0] [1.0 3.0 1.0] [0.0 1.0 2.0]])',
]

# Batched Whiles whose rows carry the bounds of their integers from step to step (issue 35,
# the binary search): rows ending at different steps, int64's top reached, big integers in
# some rows' last step, quotients of dividends that turn negative, remainders, Max and Min,
# products of Rows of either sign, indices in and out of range, pairs.
# Issue 35's second independent set, the paths its text and integer programs found: Join-Over
# of Char of integers at once, codes and remainders with their bounds, Remainder of integers
# by an int, Each of a literal made at each call, big integers in Python lists paired
TEXTS = [
    "rot::{[c s];c::#'x;s::c>96;,/:#(c*~s)+s*97+(c-84)!26};rot(\"the quick brown fox \",150#\"ab z\")",
    "rot::{[c s];c::#'x;s::c>96;,/:#(c*~s)+s*97+(c-84)!26};(rot(\"a\")),rot(\"\")",
    "f::{,/:#x};(f([72 105 32 200 255 0])),(f(,72)),f(72)",
    "f::{,/:#x};(@f(,72)),(f([72 105])~\"Hi\"),(:#[72 105])~\"Hi\"",
    "f::{,/:#x};f([])", "f::{,/:#x};f([72 256])", "f::{,/:#x};f([-1 72])",
    "f::{,/:#x};f([72 105.0])", "f::{,/:#x};f([[72 105] [73 74]])", "f::{,/:#x};f(:#[72 105])",
    "f::{,/:#x};#f(100#!256)", ",/:#[72 105]", ",/:#,72", "{,/:#x+1}'[[71 104] [72 73]]",
    "f::{,/:#(x-1)!256};f(!300)",
    "line::{(-1)_,/{($x),\",\"}'x};csv::{,/{line(x),:#10}'x};csv([[1 -2 3] [40 50 -600]])",
    "line::{(-1)_,/{($x),\",\"}'x};csv::{,/{line(x),:#10}'x};csv(30 3#!1000)",
    "f::{{x*2}'x};f(\"ab\")", "f::{{x,x}'x};f(\"ab\")", "f::{{x+1}'x};f(:{[1 2]})",
    "f::{{x+1}'x};(f([1 2 3])),f(!0)", "f::{{x,1.5}'x};f(2 3#!6)",
    "pas::{(x-1){(0,x)+x,0}\\*,1};r::pas(75);(+/*|r),(#r),(*|r)@37",
    "pas::{(x-1){(0,x)+x,0}\\*,1};*|pas(70)",
    "f::{x+y};(f([10000000000000000000 2];[1 2])),f([10000000000000000000 2];[1 2.5])",
    "f::{x-y};(f([10000000000000000000 2];3)),f(3;[10000000000000000000 2])",
    "f::{x*y};f([10000000000000000000 2];[10000000000000000000 2])",
    "f::{x!y};(f([10000000000000000001 -7];3)),f([10000000000000000001 -7];-3)",
    "f::{x%y};f([10000000000000000000 2];[4 0])",
    "f::{x+y};f([10000000000000000000 2];\"ab\")",
    "f::{x+y};f([10000000000000000000 2];[1 2 3])",
    "ds::{+/({x>0}{x:%10}\\~x)!10};ds'1+!200",
    "f::{(x!10)+x!-7};f([-23 15 9 0 9223372036854775807])", "f::{x!0};f([1 2])",
    "f::{(x!3)*4611686018427387903};f(!70)", "f::{(#'x)*4611686018427387903};f(70#\"ab\")",
    "c::#'200#\"z\";(c*c*c*c*c*c*c*c*c)@0",
]


BOUNDED_WHILES = [
    "bs::{[a k];a::x;k::y;*{(x@0)<x@1}{[m];m::(+/x):%2;:[(a@m)<k;(m+1),x@1;(x@0),m]}:~0,#a};"
    "v::(!1000)*3;(bs(v;)'[0 1 2 3 1500 2997 2998 3000 -5]),bs(-|v;)'[-3000 0 5]",
    "bs::{[a k];a::x;k::y;*{(x@0)<x@1}{[m];m::(+/x):%2;:[(a@m)<k;(m+1),x@1;(x@0),m]}:~0,#a};"
    "bs([0.5 1.5 2.5 2.5 9.0];)'[0.0 1.5 2.5 2.6 100.0]",
    "{{x<4000000000000000000}{(x*2)+1}:~x}'[1 5 1000000000000]",
    "{{x<5000000000000000000}{(x*2)+1}:~x}'[1 5 3000000000000000000]",
    "{{x<8000000000000000000}{(x*2)+1}:~x}'[1 5 7]",
    "{{(x<5000000000000000000)&x>-5000000000000000000}{x*-3}:~x}'[1 -2 5]",
    "{{(*x)<1000000000000000000000}{((*x)+x@1),(x@0)}:~x,1}'[1 2 3]",
    "{{x>-3}{(x-7):%2}:~x}'[10 3 100]",
    "{*{(x@1)<12}{((((x@0)*7)+3)!11),(x@1)+1}:~x,0}'[1 2 3]",
    "{{x>3}{(x+5)!(x-2)}:~x}'[7 40 9]",
    "({{x<100}{(x*3)|x+50}:~x}'[1 2]),{{x<100}{(x*3)&x+50}:~x}'[1 2 90]",
    "{{(x@0)<x@1}{((x@0)+1),(x@1)-1}:~x,20}'[0 5 19 30]",
    "w::1+!12;({{x<40}{x+|/w@(x!12),0}:~x}'[0 1 5]),{{x<20}{x+w@x}:~x}'[0 1]",
    "{[k];k::x;{x>-3}{[c d];c::k<1;d::x-8;(d+c):%2}:~10}'[0 1 2]",
    "{[k c s];k::x;c::k<2;s::3100000001*c;*|{(*x)<1}{[t];t::1-x@1;((*x)+1),t*x@1}:~0,1-s}'[0 5]",
    "{[k c s];k::x;c::k<2;s::3000000000*c;*|{(*x)<1}{[t];t::1-x@1;((*x)+1),t*x@1}:~0,1-s}'[0 5]",
    "{[s];s::x;{(+/x)<s}{x,(+/x):%2}:~1,2}'[10 100 1000]",
]

COMPRESSED = [
    "qs::{:[2>#x;x;{(qs(x@&x<y)),(x@&x=y),qs(x@&x>y)}(x;x@0)]};(qs([9 2 7 2 0 5 5 1 8])),qs(|!12)",
    "qs::{:[2>#x;x;{(qs(x@&x<y)),(x@&x=y),qs(x@&x>y)}(x;x@0)]};qs([2.5 -1.0 2.5 0.0 1e300])",
    "a::[5 3 8 1];m::[1 0 1 0];(a@&m),(a@&0*m),(a@&1+0*m)",
    "a::[[1 2] [3 4] [5 6]];(a@&[1 0 1]),a@&[0 0 0]",
    'a::"abcd";(a@&[1 0 0 1]),a@&[2 0 1 0]',
    "a::[5 3 8];(a@&[2 0 1]),a@&[1 0]",
    "a::[5 3 8];a@&[1 -1 1]",
    "a::[5 3];a@&[1 0 1]",
    "f::{x*2};f@&[0 1 1]",
    "v::!12;(v<5),(v=3),(5>v),(v>v-1),(0.5*v)<2.5",
    "v::[1 2 3];(v<9223372036854775807),(v<99999999999999999999),(v=2.0),v<1.5",
    "v::[[1 2] [3 4]];(v<v),(v=v+0),v>2",
]


# Row idioms (issue 32, third round): Each of a dyad literal over pairs of rows, its batched
# form tried before the literal's forms are made (a decline, an error, a mixed result: the
# loop); a row's products by !#x folded by torch's scan; the first place of a row's largest
# the small-value paths of issue 35's independent programs (sv-): a@&m of a comparison taken
# from the library's truths, and integer trees of a batched body run as one compiled program
SCALARS = [
    "a::[5 3 8 1];(a@&a<4),(a@&4>a),(a@&a=a),(a@&a>9),a@&a=[5 0 8 0]",
    "a::[0.5 -1.25 3.0];(a@&a>0.0),(a@&a<1),(a@&a=[0.5 0 3]),a@&3>a",
    "a::[5 3 8 1];(a@&a<4.5),(a@&a<99999999999999999999),a@&a=[5.0 0 8 0]",
    "a::[[1 2] [3 4] [5 6]];(a@&[1 2 3]>1),a@&[1 2 3]<0",
    "a::[5 3];a@&[1 2 3]>1",
    "a::[5 3 8 1];a@&a<[1 2]",
    'a::"abcd";(a@&a<"c"),a@&[1 0 1 0]=1',
    "f::{[a];a::x;a@&a<y};(f([5 3 8 1];4)),(f([5 3 8 1];4.5)),f([0.5 2.5];1.0)",
    "f::{[a];a::x;a@&a>y};f([5 3 8];[1 2])",
    "qs::{:[2>#x;x;{(qs(x@&x<y)),(x@&x=y),qs(x@&x>y)}(x;x@0)]};(qs([3 1.5 2 1.5 0])),qs(|!40)",
    "safe::{[d];d::(#x)-!#x;~|/(x=y)|(x=y+d)|x=y-d};(safe([1 3 0];)'!4),safe([0];)'!3",
    "v::[1 2 3];({((x=v)+x)*2}'[1 2]),{(x*x)-x}'[[1 2] [3 4]]",
    "({(x>2)&x<5}'[[1 5 3] [4 2 6]]),({~(x=0)|x>3}'[1 0 5]),{|/(x*3)+1}'[[1 2] [3 4]]",
    "({&/(x-1)*2}'[[4 2] [9 1]]),{(x*x)+1}'[[3037000500 2] [1 2]]",
    "{(x*x)-3037000500*3037000500}'[[3037000500 2] [1 -3037000500]]",
    "nq::{n::x;+/{q(,x)}'!n};safe::{[d];d::(#x)-!#x;~|/(x=y)|(x=y+d)|x=y-d};"
    "q::{:[n=#x;1;0+/q'x,:\\&safe(x;)'!n]};(nq(5)),nq(6)",
]

ROW_IDIOMS = [
    "a::[3 4]:^(!12)%7.0;b::[3 4]:^((!12)*3)%5.0;(a{+/(x-y)^2}'b),a{(x*y)+1}'|a",
    "a::[[1 2] [3 4]];(a{x%y}'[[1 0] [2 4]]),a{x:%y}'[[1 2] [3 5]]",
    "a::[[1.0 2.0] [3.0 4.0]];a{x-y}'[[1.0 2.0 3.0] [4.0 5.0 6.0]]",
    "z::[[0.0 -0.0 1.0] [-0.0 -0.0 -0.0]];(z{+/(x-y)^2}'z),({+/x*!#x}'z),z{x|y}'|z",
    "g::[5 16]:^(((!80)*7919)!1009)%7.0;({+/x*!#x}'g),({*x?|/x}'g),g{+/(x-y)^2}'|g",
    "g::[4 3]:^[1.0 3.0 3.0000000000000004 2.0 2.0 1.0 0.0 -1.0 -1.0 5.0 5.0 4.999999999999999];"
    "({*x?|/x}'g),{+/x*1.5*!#x}'g",
    "([1 2 3]{x*y}'[4.5 5.5 6.5]),[[1 2] [3 4]]{x,y}'[[5] [6]]",
    "i::[[3 1 2 5] [0 -4 7 1]];i{x:%y}'i",
    "i::[[3 1 2 5] [0 -4 7 1] [9 9 -2 3]];({+/x*1.5*!#x}'i),{+/x*0.1*!#x}'i",
    "n::[2 3]:^[1.0 2.0 3.0],(1.0e308*10)-1.0e308*10,[5.0 4.0];(n{+/(x-y)^2}'n),{*x?|/x}'n",
]

# Arithmetic of a row's elements at constant places from whole columns, Each of an
# element-wise literal tried before its value is made, rows reversed (issue 32, fourth round)
ROW_COLUMNS = [
    "m::[4 3]:^(((!12)*7919)!1009)%7.0;({(x@0)-x@1}'m),({(2*x@1)+x@2}'m),"
    "{((x@0)-x@1)*(x@2)+0.5}'m",
    "z::[[0.0 -0.0 1.0] [-0.0 -0.0 -0.0] [1.0e308 -1.0e308 2.0]];({(x@0)-x@1}'z),"
    "({(x@0)*(x@1)*10}'z),{((x@0)*10)+(x@1)*10}'z",
    "i::[[3 1 2 5] [0 -4 7 1]];({(x@0)-x@1}'i),({(x@3)*x@0}'i),{(x@0)*9007199254740993}'i",
    "i::[[3 1 2 5] [0 -4 7 1]];{(x@0)-x@4}'1.0*i",
    "n::[2 3]:^[1.0 2.0 3.0],(1.0e308*10)-1.0e308*10,[5.0 4.0];({(x@0)+x@2}'n),"
    "({x|0.0}'n),{x&-0.0}'n",
    "r::[[1.5 -0.0 -3.0] [0.0 0.25 -0.5]];({x|0.0}'r),({(2*x)-1}'r),({4#|x}'r),{-2#|x}'r",
    "{x|0.0}'\"abc\"",
    "({x*x}'[[1 2] [3]]),{x*x}'[[3037000500 2] [3 4]]",
    "m::[3 4]:^!12;({|x}'m),({2#|x}'m),({7#|x}'m),{(x@0)-x@1}'1.0*m",
    "({(x@0)-x@1}'[[1.5 2.0] [3.0]]),{(x@1)-x@0}'[1.5 2.0]",
]

# each row times a matrix, summed (`{+/x*w}'m`: torch's own products, numpy's fold of them),
# issue 32's fifth round: zeros of both signs, NaN and infinities, integers on either side
ROWS_BY_MATRIX = [
    "m::[5 3]:^(((!15)*7919)!1009)%7.0;w::[3 2]:^[1.5 -0.0 2.0 0.25 -3.0 0.5];{+/x*w}'m",
    "m::[[-0.0 -0.0] [1.0 -2.0] [0.0 -0.0]];w::[[0.0 -0.0 1.0] [0.0 0.0 2.0]];{+/x*w}'m",
    "m::[4 3]:^(!12)%3.0;w::[3 2]:^[1 -2 3 0 5 -1];{+/x*w}'m",
    "n::(1.0e308*10)-1.0e308*10;m::[[1.0 2.0] [0.5 -0.5]],,(1.0e308*10),n;"
    "w::[[1.0 -1.0 0.0] [2.0 0.5 -0.0]];{+/x*w}'m",
    "m::[3 2]:^!6;w::[[0.5 1.5] [2.0 -0.0]];({+/x*w}'m),{+/x*!#x}'1.0*m",
    "m::[2 3]:^1.0e308,(!5)%4.0;w::[3 2]:^1.0e308,!5;{+/x*w}'m",
]


TAKEN_ROWS = [
    "[12 7 0 100 35 81 64 -9]{*{0<x@1}{(x@1),(x@0)!x@1}:~x,y}'[18 21 5 75 0 27 1 6]",
    "[12 7 0 100]{*{0<x@1}{(x@1),(x@0)!x@1}:~x,y}'[18 21 5 -75]",
    "{{(*x)<50}{((*x)+x@1),(x@0)}:~x,1}'[1 2 3 40 49 50 7 0]",
    "{{(*x)<9.5}{((*x)+x@1),(x@0)}:~x,0.5}'[1.0 2.0 0.25 9.0]",
    "{{(+/x)<30}{(x@1),(x@2),+/x}:~x,x,x}'[1 2 9 10 11 30]",
    "m::[4 3]:^!12;(m@[3 0 3]),(m@[[1] [2]]),(1.5*m)@[2 2 0]",
    "m::[2 2 2]:^!8;(m@[1 0 1]),m@[[0 0]]",
    "r::[[1 2] [3 4 5] [6]];r@[2 0 2]",
]


def conformance_programs(directory):
    seen = set()
    for name in CONFORMANCE_FILES:
        with open(Path(directory) / name, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                case = json.loads(line)
                setup = case.get("setup") or ""
                source = (setup + "\n" if setup else "") + case["expr"]
                if source not in seen:
                    seen.add(source)
                    yield case["id"], source


def example_files():
    return sorted(str(p.relative_to(harness.ROOT))
                  for p in (harness.ROOT / "examples").rglob("*.kg"))


def unsafe(source):
    return any(name + "(" in source or name + " " in source for name in harness.UNSAFE)


def quick(source, limit, tries=2):
    """True when every mode runs `source` within `limit` seconds (a second try for a mode
    that was slow once: a busy machine should not change the corpus)."""
    for mode in harness.MODES:
        for _ in range(tries):
            started = time.perf_counter()
            result = harness.outcome(harness.interpreter(mode), source, seconds=limit)
            if result != ("timeout",) and time.perf_counter() - started <= limit:
                break
        else:
            return False
    return True

# The text of codes checked and made in one step (Backend.byte_text) and a number joined
# before a short vector (issue 35's smallest sizes): codes at and past both ends of a byte,
# the extremes of int64, codes made by arithmetic; progressions short and long
SMALL_ARRAYS = [
    "f::{,/:#x};(f([0 255 104])),f(1+!200)",
    "f::{,/:#x};f([104 -9223372036854775808])", "f::{,/:#x};f([104 9223372036854775807])",
    "f::{,/:#x};f([256 104])", "f::{,/:#x};f(200#[-1 104])",
    "f::{,/:#x-y};(f([105 106];1)),f(100#[105 106];1)",
    "rot::{[c s];c::#'x;s::c>96;,/:#(c*~s)+s*97+(c-84)!26};rot(1000#\"abc xyz \")",
    "f::{,/:#(x*~s)+(s::x>96)*97+(x-84)!26};f(#'\"ab\"),f(#'500#\"zy \")",
    "pas::{(x-1){(0,x)+x,0}\\*,1};r::pas(70);(#r),(+/*|r),(r@5),,(r@69)@35",
    "v::0,3*!10;w::0,3*!100;(v@!4),(w@[99 100]),(#w),+/w",
    "v::0,!5;(v:=9,2),(0,|!3),-1,0,0,!2",
]


# A step captured while its rows held no zero, then called on rows that do: the replay's
# guards (torch_capture.py, _none_zero) give the call back to the ordinary evaluation
REPLAY_GUARDS = [
    "s::1.0;step::{s::s-1.0;{+/x}'[[-1.0 -0.0] [1.0 2.0] [0.5 -0.0]]*s};{x;step()}'!4",
    "c::2.0;step::{c::c-0.5;{x%+/x}'[[1.0 -1.0] [0.5 0.5] [2.0 1.0]]+c};{x;step()}'!5",
    ".bkf(\"exp\");X::[[0.5 -0.5] [1.0 0.25] [-0.75 0.5] [0.0 1.0]];"
    "W::[[0.1 0.2] [0.0 -0.1] [0.3 0.0]];"
    "Y::[[1.0 0.0 0.0] [0.0 1.0 0.0] [0.0 0.0 1.0] [1.0 0.0 0.0]];XT::+X;"
    "step::{[p];p::{x%+/x}'exp({x{+/x*y}:/W}'X);W::W-0.1*({x{+/x*y}:/XT}'+p-Y)%4};"
    "{x;step()}'!6;W",
    "s::3.0;step::{s::s-1.0;{x%+/x}'[[1.0 2.0] [3.0 -0.0]]*s};{x;step()}'!5",
]

# Format's text joined to a constant text, written for a whole vector at once (the fields of
# a CSV line), and text written from a vector read with the library's tolist; issue 35
TEXT_FIELDS = [
    "line::{(-1)_,/{($x),\",\"}'x};csv::{,/{line(x),:#10}'x};csv([[1 -2 3] [40 50 -600]])",
    "{($x),\",\"}'[1 -2 30]", "{\",\",$x}'[1 -2 30]", "{($x),0c,}'[1 2]", "{(0c,),$x}'[1 2]",
    "{($x*2),\"ab\"}'[1.5 2]", "{($x),\"\"}'[1 2]", "{($x),:ab}'[1 2]",
    "{($x),\",\"}'[[1 2] [3 4]]", "{($x),\",\"}'\"ab\"", "{($x),\",\"}'[]",
    "{($x%0),\",\"}'[1 2]", "{[r];r::x;($r),\",\"}'[1 2]", "{(\",\",$x),\";\"}'[1 2]",
    "{($x),\",\"}'(2^70),1", "{($x),\",\"}'[0.1 1e-5 1e20 -0.0]",
    "a::3;{($x+a),\" \"}'!4", "{($x),\",\"}'%3+!4", "v::[4 5];f::{,/{($x),\"|\"}'v};f(),f()",
    "bs::{[a k];a::x;k::y;*{(x@0)<x@1}{[m];m::(+/x):%2;:[(a@m)<k;(m+1),x@1;(x@0),m]}:~0,#a};"
    "bs(2*!50;)'[0 1 7 98 99 200 -5]",
    "ds::{+/({x>0}{x:%10}\\~x)!10};ds'1+!30",
    "pas::{(x-1){(0,x)+x,0}\\*,1};pas(8)",
    "v::[1.5 -2.25 3.0];f::{,/{($x),\",\"}'v};f();f();f();v::[1.5 -2.25 3.000001];f(),f()",
    "v::[1 -2 30];f::{,/{($x),\",\"}'v};f();f();f();v::[1 -2 31];f(),f()",
]

# Running sums of rows that start with a zero or hold none there (the zero test of the first
# elements on a tensor's memory), and the first match of a number in each row (the first
# near element of each row, by numpy's argmax of the truths), issue 32's sixth round
ROW_SCANS = [
    "z::[[-0.0 -0.0 1.0] [0.0 -0.0 2.0] [1.0 -0.0 0.0] [-0.0 0.5 -0.5]];+\\'z",
    "{+\\x}'[[0.0 1.5 -2.0] [-0.0 -0.0 3.0] [2.5 0.0 -0.0]]",
    "{(+\\x)%2.0}'[[-0.0 -0.0 1.0] [0.0 -0.0 2.0]]",
    "+\\'[3 4]:^((!12)-5)%7.0",
    "{+/+\\x}'[[1.0e300 1.0e300 -1.0e300] [0.1 0.2 0.3]]",
    "t::[[0.5 1.0 1.0 0.25] [2.0 -0.0 2.0 0.0] [0.0 -0.0 0.0 1.0] [3.0 3.0 3.0 3.0]];"
    "{*x?|/x}'t",
    "{*x?*x}'[[1.0 2.0 1.0] [0.1 0.2 0.3] [-0.0 0.0 5.0]]",
    "{*x?x@2}'[[1.0 2.0 1.0] [0.3 0.2 0.3] [5.0 0.0 -0.0]]",
    "{*x?0.5}'[[1.0 0.5 0.5] [0.5 0.2 0.3] [5.0 0.0 0.5]]",
    "{*x?*x}'[[3 1 3] [2 2 0]]",
    "{*x?1.0e-300}'[[1.0e-300 0.0] [0.0 1.0e-300]]",
    "{*x?2.0}'[[1.0 2.0] [3.0 4.0]]",
    "{*x?x@1}'[[1.0 1.0000000000000002 3.0] [2.0 2.0 2.0]]",
]


# Row folds and their zeros (TorchBackend.fold_columns' zero sums found by numpy): a row's
# max or min that is a zero beside the other zero, sums by a matrix of zeros of both signs,
# a batched While's test of each step, Find's counts, sums of rows of -0.0 (issue 32, rows2)
ROW_FOLDS = [
    "|/'[[-0.0 0.0 -1.0] [0.0 -0.0 -2.0] [1.0 -0.0 0.5]]",
    "&/'[[-0.0 0.0 1.0] [0.0 -0.0 2.0] [-1.0 -0.0 0.5]]",
    "{x-|/x}'[[-0.0 -1.0] [2.0 -0.0] [0.0 -0.0]]",
    "{x=|/x}'[[-0.0 0.0 -1.0] [3.0 3.0 1.0] [0.5 0.25 0.0]]",
    "w::[[-0.0 0.0] [-0.0 -0.0] [0.0 -0.0]];{+/x*w}'[[1.0 2.0 3.0] [-1.0 -2.0 -3.0] [0.0 0.0 0.0]]",
    "w::[[1.0 -1.0] [-1.0 1.0]];{+/x*w}'[[0.5 0.5] [-0.0 -0.0] [0.25 -0.25]]",
    "{+/x*!#x}'[[-0.0 -0.0 -0.0] [1.5 -0.5 0.25] [-1.0 0.5 0.0]]",
    "+/'[[-0.0 -0.0] [0.5 -0.5] [-0.0 0.0]]",
    "*/'[[-0.0 2.0] [0.5 -0.5] [-3.0 -0.0]]",
    "{{x<10}{x*2.0}:~x}'[1.0 0.25 3.0 0.5 12.0]", "{{x<100}{x+x}:~x}'[1 3 7 50 200]",
    "{{(x<9)&x>0}{x+2}:~x}'[1 2 3 -1 0 8]",
    "{x?0.5}'[[0.5 1.0 0.5] [0.5 0.5 2.0]]",
    "{x|0.0}'[[-0.0 0.0 -1.0] [1.0 -0.5 -0.0]]",
    "n::[[1.0 2.0] [0.0 -0.0]];n{+/(x-y)^2}'[[0.5 1.0] [-0.0 0.0]]",
]


# A column of a matrix picked by a dyad's Each at once; a fused tree of integer verbs on
# a few elements computed on Python's integers; a list's elements picked by an index
# vector (issue 35, progs-b)
PICKED_SMALL = [
    "m::[[1 2 3] [4 5 6]];({y@x}(1;)'m),({x@y}(;2)'m),{y@x}(0;)'[[1.5 2.5] [3.5 4.5]]",
    "{y@x}(3;)'[[1 2 3] [4 5 6]]", "{y@x}(-1;)'[[1 2] [3 4]]", "{x@y}(;1.0)'[[1 2] [3 4]]",
    "gj::{[a n];n::#x;a::x,'{1.0*x=!n}'!n;{[r];r::a@x;r::r%r@x;a::a-{x*r}'{y@x}(x;)'a;"
    "a::(x#a),(,r),(x+1)_a}'!n;{n_x}'a};gj([[4.0 1.0 0.5] [1.0 3.0 0.0] [0.5 0.0 2.0]])",
    "safe::{[d];d::(#x)-!#x;~|/(x=y)|(x=y+d)|x=y-d};(safe([0 2];)'!5),(safe([1 3 0];)'!4),"
    "safe([0 2 4 1 3 5];)'!8",
    "safe::{[d];d::(#x)-!#x;~|/(x=y)|(x=y+d)|x=y-d};q::{:[n=#x;1;0+/q'x,:\\&safe(x;)'!n]};"
    "nq::{n::x;+/{q(,x)}'!n};nq'[4 5 6]",
    "{(&/x)+~&/x>1}'[[3 1 2] [5 6 7]]", "{(|/x-1)*~x=2}'[2 5]",
    "v::[4 -2];{(x&v)-(x|v)*x<v}'[1 3 -5]", "{~(x>0)&x<3}'[[0 1 2] [3 2 1]]",
    "{|/(x*x)-3}'[[1 -4] [2 0]]", "{(x*x)+1}'[3037000500 2]",
    "v::[1 2 3];{((x=v)+x)*2}'[1 2]", "{~(x=1)|x=2}'[1 2 3]",
    "w::[\"ab\" \"cd\" \"ef\"];(w@[2 0 1 0]),w@!0",
    "w::[\"ab\" 1 [2 3]];w@[2 2 0]", "w::[\"ab\" \"cd\"];w@[0 2]",
]

# Batched conditionals whose predicate gives each row a number other than 0 and 1 (any
# number but 0 is true, -0.0 is not: Backend.select_nonzero), choosing numbers, lists and
# plain numbers; batched Whiles whose predicate and body have locals of their own, set
# afresh at every step, and the binary search of the independent set (issue 35)
CHOSEN_STEPS = [
    "{:[x!4;x;10+x]}'[3 0 9 8 -5]", "{:[(*x)-3;x;|x]}'[[3 1 2] [0 -4 7] [9 9 -2]]",
    "{:[(x@2)+3.0;x;-x]}'[[1.5 2.25 -3.0] [0.1 0.2 0.3] [-1.0 -2.0 -3.5]]",
    "{:[(*x)*x@1;1.5;2.5]}'[[0.0 5.0] [-0.0 1.0] [2.0 3.0] [0.5 -1.0]]",
    "{:[(*x)-2;(*x),1;0,*x]}'[[3 1] [2 2] [5 -1]]", "{:[x-2;1;-1]}'[1 2 3 2]",
    "{:[x*-0.0;x;0.5]}'[1.0 -2.0 0.0]",
    "{{[t];t::x*2;t<50}{[u];u::x+1;u*2}:~x}'[1 3 30 0]",
    "{*{[t];t::(x@0)+x@1;t<40}{[u];u::x@1;u,(x@0)+u}:~x,1}'[1 2 50]",
    "bs::{[a k];a::x;k::y;*{(x@0)<x@1}{[m];m::(+/x):%2;:[(a@m)<k;(m+1),x@1;(x@0),m]}:~0,#a};"
    "bs(2*!50;)'[0 1 2 49 50 97 98 99 100 -3]",
    "{{x>0}{x:%10}:~x}'[0 7 123 99999]", "{+/({x>0}{x:%10}\\~x)!10}'[1 19 100 9999]",
]

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--conformance", help="the directory of nmh.jsonl and display.jsonl "
                   "(without it, the conformance programs of the present corpus are kept)")
    p.add_argument("--generated", type=int, default=1800)
    p.add_argument("--seed", type=int, default=20)
    p.add_argument("--max-seconds", type=float, default=0.25)
    p.add_argument("--out", default=str(harness.CORPUS))
    args = p.parse_args(argv)

    entries, dropped = [], 0
    for mode in harness.MODES:          # the first use of a backend costs seconds
        harness.outcome(harness.interpreter(mode), "{x+1.5}'[[1 2] [3 4]]")
    if args.conformance:
        cases = conformance_programs(args.conformance)
    else:
        cases = [(e["id"], e["source"]) for e in harness.load_corpus()
                 if "source" in e and not e["id"].startswith(
                     ("gen-", "hand-", "rows-", "rowgaps-", "rowidx-", "inplace-", "pairs-",
                      "mixed-", "indep-", "arrsp-", "strsp-", "loopsp-", "costp-",
                      "trow-", "queen-", "small-", "nrow-", "call-", "rn-", "rt-", "tr2-", "pg-",
                      "pg2-", "am-", "sr-", "nq-", "mg-", "bw-", "cp-",
                      "tx-", "ri-", "jg-", "sa-", "sv-", "rw-", "px-", "rx-", "tq-", "qa-",
                      "rz-", "qb-", "qd-", "ry-"))]
    for case_id, source in cases:
        if unsafe(source) or not quick(source, args.max_seconds):
            dropped += 1
            continue
        entries.append({"id": case_id, "source": source})
    for i, source in enumerate(HANDWRITTEN):
        entries.append({"id": f"hand-{i:03d}", "source": source})
    for i, source in enumerate(ROW_WISE):
        entries.append({"id": f"rows-{i:03d}", "source": source})
    for i, source in enumerate(ROW_GAPS):
        entries.append({"id": f"rowgaps-{i:03d}", "source": source})
    for i, source in enumerate(ROW_INDEX):
        entries.append({"id": f"rowidx-{i:03d}", "source": source})
    for i, source in enumerate(IN_PLACE):
        entries.append({"id": f"inplace-{i:03d}", "source": source})
    for i, source in enumerate(PAIRS):
        entries.append({"id": f"pairs-{i:03d}", "source": source})
    for i, source in enumerate(MIXED):
        entries.append({"id": f"mixed-{i:03d}", "source": source})
    for i, source in enumerate(INDEPENDENT):
        entries.append({"id": f"indep-{i:03d}", "source": source})
    for i, source in enumerate(ARRAYS_PROGRAMS):
        entries.append({"id": f"arrsp-{i:03d}", "source": source})
    for i, source in enumerate(STRINGS_PROGRAMS):
        entries.append({"id": f"strsp-{i:03d}", "source": source})
    for i, source in enumerate(LOOPS_PROGRAMS):
        entries.append({"id": f"loopsp-{i:03d}", "source": source})
    for i, source in enumerate(COST_PROGRAMS):
        entries.append({"id": f"costp-{i:03d}", "source": source})
    for i, source in enumerate(TORCH_ROWS):
        entries.append({"id": f"trow-{i:03d}", "source": source})
    for i, source in enumerate(QUEENS_PROGRAMS):
        entries.append({"id": f"queen-{i:03d}", "source": source})
    for i, source in enumerate(SMALL_PROGRAMS):
        entries.append({"id": f"small-{i:03d}", "source": source})
    for i, source in enumerate(NUMROWS):
        entries.append({"id": f"nrow-{i:03d}", "source": source})
    for i, source in enumerate(CALL_PROGRAMS):
        entries.append({"id": f"call-{i:03d}", "source": source})
    for i, source in enumerate(NUMROWS2):
        entries.append({"id": f"rn-{i:03d}", "source": source})
    for i, source in enumerate(TORCH_ROWS2):
        entries.append({"id": f"rt-{i:03d}", "source": source})
    for i, source in enumerate(TORCH_ROWS3):
        entries.append({"id": f"tr2-{i:03d}", "source": source})
    for i, source in enumerate(PROGRAM_PATHS):
        entries.append({"id": f"pg-{i:03d}", "source": source})
    for i, source in enumerate(PROGRAM_PATHS2):
        entries.append({"id": f"pg2-{i:03d}", "source": source})
    for i, source in enumerate(EXTREME_ROWS):
        entries.append({"id": f"am-{i:03d}", "source": source})
    for i, source in enumerate(SECOND_ROUND):
        entries.append({"id": f"sr-{i:03d}", "source": source})
    for i, source in enumerate(QUEENS_RUN):
        entries.append({"id": f"nq-{i:03d}", "source": source})
    for i, source in enumerate(MARGINS):
        entries.append({"id": f"mg-{i:03d}", "source": source})
    for i, source in enumerate(BOUNDED_WHILES):
        entries.append({"id": f"bw-{i:03d}", "source": source})
    for i, source in enumerate(COMPRESSED):
        entries.append({"id": f"cp-{i:03d}", "source": source})
    for i, source in enumerate(TEXTS):
        entries.append({"id": f"tx-{i:03d}", "source": source})
    for i, source in enumerate(ROW_IDIOMS):
        entries.append({"id": f"ri-{i:03d}", "source": source})
    for i, source in enumerate(GRADIENT_STEPS):
        entries.append({"id": f"jg-{i:03d}", "source": source, "within_backend": GRADIENT_WHY})
    for i, source in enumerate(SMALL_ARRAYS):
        entries.append({"id": f"sa-{i:03d}", "source": source})
    for i, source in enumerate(SCALARS):
        entries.append({"id": f"sv-{i:03d}", "source": source})
    for i, source in enumerate(ROW_COLUMNS):
        entries.append({"id": f"rw-{i:03d}", "source": source})
    for i, source in enumerate(TAKEN_ROWS):
        entries.append({"id": f"px-{i:03d}", "source": source})
    for i, source in enumerate(ROWS_BY_MATRIX):
        entries.append({"id": f"rx-{i:03d}", "source": source})
    for i, source in enumerate(REPLAY_GUARDS):
        entries.append({"id": f"tq-{i:03d}", "source": source})
    for i, source in enumerate(TEXT_FIELDS):
        entries.append({"id": f"qa-{i:03d}", "source": source})
    for i, source in enumerate(ROW_SCANS):
        entries.append({"id": f"rz-{i:03d}", "source": source})
    for i, source in enumerate(PICKED_SMALL):
        entries.append({"id": f"qb-{i:03d}", "source": source})
    for i, source in enumerate(CHOSEN_STEPS):
        entries.append({"id": f"qd-{i:03d}", "source": source})
    for i, source in enumerate(ROW_FOLDS):
        entries.append({"id": f"ry-{i:03d}", "source": source})
    for path in example_files():
        entry = {"id": path, "file": path}
        if path in WITHIN_BACKEND:
            entry["within_backend"] = WITHIN_BACKEND[path]
        entries.append(entry)
    seen = {e.get("source") for e in entries}
    for i, source in enumerate(generate.programs(args.seed, args.generated)):
        if source in seen or unsafe(source) or not quick(source, args.max_seconds):
            dropped += 1
            continue
        seen.add(source)
        entries.append({"id": f"gen-{args.seed}-{i:05d}", "source": source})
    with open(args.out, "w", encoding="utf-8") as f:
        for entry in entries:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")
    print(f"{len(entries)} entries written to {args.out} ({dropped} left out)")


if __name__ == "__main__":
    main()
