"""The closure evaluator (render/closures.py) renders the IR after the passes, as generated
code does: function values get the same whole-array forms (so Each, Over and the matrix
spellings run as array operations in closures too), loops of function literals run inline,
and what fails inside them reads as it does in generated code."""
import pytest

from klong import KlongError, KlongInterpreter
from klong.runtime.display import write
from klong.runtime.functions import Lambda

from conftest import BACKENDS


def closures(backend="numpy"):
    return KlongInterpreter(backend=backend, codegen=False)


def shown(k, src):
    """What a person sees: the written value with its element type, or the whole error
    text (kind, verb, operands, message, the functions it passed out of) and position."""
    try:
        v = k.run(src)
        return "value", write(v), type(v).__name__, str(getattr(v, "dtype", ""))
    except KlongError as e:
        return "error", str(e), e.line, e.column


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("setup, data", [
    ("f::{:[x>0;x;-x]}", "(!7)-3"),
    ("f::{:[x>0;x;-x]}", "0.5*(!7)-3"),
    ("f::{:[x>2;x%0;:[x<0;-x;x*2]]}", "(!7)-3"),      # a branch not taken that fails
    ("f::{[r];r::x;(r*r)+a}", "!5"),                   # a copy of x, a number read
    ("f::{x*a}", "!5"),
])
def test_each_over_a_whole_form_equals_the_loop(backend, setup, data):
    k = closures(backend)
    k.run("a::3;" + setup)
    fn = k.globals["f"]
    assert isinstance(fn, Lambda) and fn.whole is not None      # rendered with its form
    with_form = shown(k, f"f'{data}")
    fn.whole = None                                               # the loop alone
    assert shown(k, f"f'{data}") == with_form
    assert with_form == shown(KlongInterpreter(backend=backend, codegen=True),
                              f"a::3;{setup};f'{data}")


def test_a_whole_form_declines_what_it_cannot_map():
    k = closures()
    k.run('f::{x*a}')
    fn = k.globals["f"]
    k.run('a::"q"')                           # not a number: the loop runs, and fails
    assert fn.whole(k.run("!3")) is None
    k.run("a::[1 2]")         # a vector: the batched form, each number times it (the loop's)
    assert write(fn.whole(k.run("!3"))) == "[[0 0] [1 2] [2 4]]" == write(k.run("f'!3"))
    k.run("a::2")
    assert write(fn.whole(k.run("!3"))) == "[0 2 4]"


def test_closures_vectorise_each_over_a_conditional():
    k = closures()
    k.run("f::{:[x>0;x;-x]}")
    calls = []
    run = k.globals["f"].run
    k.globals["f"].run = lambda x: calls.append(x) or run(x)
    assert write(k.run("f'(!5)-2")) == "[2 1 0 1 2]"
    assert calls == []                        # one array operation, no call per element


@pytest.mark.parametrize("setup, src, form", [
    ("mm::{[a b];a::x;b::+y;{x{+/x*y}:/b}'a}", "mm([[1 2] [3 4]];[[5 6] [7 8]])", "rows"),
    ("u::[1.0 2.0];f::{+/x*u}", "f'[[1.0 2.0] [3.0 4.0]]", "dot"),
    ("g::{x+(y*y)}", "g/!10", "fold"),
    ("g::{x+(y*y)}", "g\\1.5+!6", "fold"),
    ("d::{+/x*y};f::{x d:/m};m::[[1 2] [3 4]]", "f'[[1 0] [0 1]]", "rows"),
])
def test_whole_forms_of_the_other_spellings_agree(setup, src, form):
    for backend in BACKENDS:
        k = closures(backend)
        k.run(setup)
        got = shown(k, src)
        assert got == shown(KlongInterpreter(backend=backend, codegen=True), f"{setup};{src}")
        assert got[0] == "value"


def test_a_fold_form_is_set_on_the_dyad():
    k = closures()
    k.run("g::{x+(y*y)}")
    g = k.globals["g"]
    assert g.facts.fold_op == "+" and g.whole is not None
    assert write(g.whole(k.run("!4"))) == "[0 1 4 9]"


FAILING_LOOPS = [
    "{x%0}:~5",
    '{x<10}{x+"a"}:~1',
    '{x;x+"a"}:~1',
    '{{x+"a"}(x)}:~1',
    '3{x+"a"}:*1',
    '"a"{x+1}:*1',
    "3{x+1}:~1",
    'f::{x<10};f{x+"a"}:~1',
    'g::{x+"a"};{x<10}g:~1',
    '{y{x<10}{x+y+"a"}:~x}(1;2)',
    'h::{[q];q::x;{x<10}{x+"a"}:~q};h(1)',
    '{x<10}{(x+1)+y}:~1',
    "{x>0}{x-1}:~(10^400)+0.5",
    'f::{x<3}{x+1}:~x;f("a")',
    # the failing line is the predicate's: it is named too
    '{x<"a"}{x+1}:~1',
    '{{x<"a"}{x+1}:~x}:~1',
    'f::{{x<"a"}{x+1}:~x};f(1)',
]


@pytest.mark.parametrize("src", FAILING_LOOPS)
def test_errors_inside_inline_loops_read_as_in_generated_code(src):
    for backend in BACKENDS:
        got = shown(closures(backend), src)
        assert got[0] == "error"
        assert got == shown(KlongInterpreter(backend=backend, codegen=True), src)


def test_an_inline_loop_names_the_literal_it_runs():
    e = pytest.raises(KlongError, closures().run, '{x<10}{x+"a"}:~1').value
    assert str(e) == 'type error: plus [1 "a"]: number expected (in {x+"a"})'
    assert (e.line, e.column) == (1, 9)


@pytest.mark.parametrize("src, value", [
    ("{x<10000}{x+1}:~0", "10000"),
    ("{x<100}{x*2}:~1", "128"),
    ("5{x,x}:*1", "[1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1]"),
    ("{_x%2}:~100", "0"),
    ("{y{x<10}{x+y}:~x}(1;2)", None),
    ("f::{x<y}{x+1}:~0", None),
    ("+/[1 2 3]*[4 5 6]", "32"),
    ("+/[1.5 2.5]*[2.0 4.0]", "13.0"),
    ("+/[1 2]*[0.5 0.25]", "1.0"),
])
def test_inline_loops_and_sums_of_products_agree(src, value):
    got = shown(closures(), src)
    assert got == shown(KlongInterpreter(codegen=True), src)
    if value is not None:
        assert got[1] == value
