"""A value a conditional's predicate computes and a part run after it computes again, taken
from the predicate (passes/shared.py): `:[:_d?x;1;1+d?x]` looks `d?x` up once. The results
in every mode, the generated code's single lookup, and the places where something run in
between could change the value, which are left as written."""
import pytest

from klong import KlongInterpreter
from klong.backends import list_backends
from klong.compiler import passes
from klong.compiler.lower import ir, lower
from klong.compiler.passes import shared
from klong.compiler.render import pysource
from klong.compiler.syntax.parser import parse
from klong.runtime.display import write

BACKENDS = [b for b in ("numpy", "torch") if b in list_backends()]
MODES = [(b, codegen) for b in BACKENDS for codegen in (True, False)]

COUNT = "cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d}"

PROGRAMS = [
    (COUNT + ";cnt([3 1 3 3 2 1])", ":{[3 3] [1 2] [2 1]}"),
    (COUNT + ";cnt(\"abca\")", ":{[0ca 2] [0cb 1] [0cc 1]}"),
    (COUNT + ";cnt(,5)", ":{[5 1]}"),
    # the later predicates and the otherwise branch read it too
    ("d:::{[5 1] [6 2] [7 3]};f::{:[(d?x)>2;0:|(d?x)>1;1+d?x;2*d?x]};f'[5 6 7]", "[2 3 0]"),
    # a real, a string, a list kept
    ("g::{:[(x%2)>1;x%2;-x%2]};g'[1 5]", "[-0.5 2.5]"),
    ("h::{:[#x?0ca;*x?0ca;-1]};h'[\"bab\" \"bbb\"]", "[1 -1]"),
    ("j::{:[(#x,y)>3;(x,y)@2;#x,y]};j([1 2];[3 4]),j([1];[2])", "[3 2]"),
]

# something run between the two evaluations may change the value: both lookups are made
UNSHARED = [
    # the second predicate joins an entry to d before the otherwise branch looks again
    ("d:::{[1 1]};f::{:[(d?x)>5;0:|((d,x,9)?x)>100;1;d?x]};f(1)", "9"),
    # a function called in the consequent changes d before its lookup
    ("d:::{[1 1]};set::{d,x,7;0};f::{:[(d?x)>0;(d?x)+set(x);0]};f(1)", "7"),
    # an assignment in the consequent
    ("f::{[a];a::x;:[(a+1)>0;(a+1)+a::5;0]};f(1)", "11"),
]


def shown(backend, codegen, program):
    k = KlongInterpreter(backend=backend, codegen=codegen)
    return write(k.run(program))


@pytest.mark.parametrize("backend, codegen", MODES)
@pytest.mark.parametrize("program, expected", PROGRAMS + UNSHARED)
def test_results_are_the_verbs_own(backend, codegen, program, expected):
    assert shown(backend, codegen, program) == expected


def chunk_of(src):
    k = KlongInterpreter()
    return passes.run(lower(parse(src), k.engine), k.batch), k


def nodes(chunk, kind):
    return [n for root in [chunk.body, *chunk.lambdas] for n in ir.walk(root)
            if isinstance(n, kind)]


def test_the_count_looks_its_key_up_once():
    chunk, k = chunk_of(COUNT)
    kept, reads = nodes(chunk, ir.Keep), nodes(chunk, ir.Kept)
    assert len(kept) == 1 and len(reads) == 1 and kept[0].slot == reads[0].slot
    assert kept[0].value.verb.op == "?"
    source = pysource.source(chunk, k)
    assert source.count(".table.get(x, NO_ENTRY)") == 1
    assert "(1 + t2)" in source         # the predicate's temporary, read again


def test_the_predicate_itself_is_not_kept():
    # a comparison predicate is tested without its value made: only its parts are kept
    chunk, _ = chunk_of("f::{:[(x+1)<y;(x+1);y]}")
    [kept] = nodes(chunk, ir.Keep)
    assert kept.value.verb.op == "+"


@pytest.mark.parametrize("program", [p for p, _ in UNSHARED])
def test_nothing_is_kept_where_something_between_could_change_it(program):
    chunk, _ = chunk_of(program)
    assert nodes(chunk, ir.Keep) == [] and nodes(chunk, ir.Kept) == []


def test_constants_are_the_same_only_when_they_are_one_value():
    same = shared._same
    assert same(ir.Const(2), ir.Const(2)) and same(ir.Const(0.5), ir.Const(0.5))
    assert not same(ir.Const(0.0), ir.Const(-0.0))      # (equal, yet not one value)
    assert not same(ir.Const(1), ir.Const(1.0)) and not same(ir.Const("a"), ir.Const("b"))


def test_a_progression_is_not_kept():
    # its dyads hand Progressions to each other (passes/progressions.py)
    chunk, _ = chunk_of("f::{:[(#2*!x)>1;2*!x;0]}")
    assert nodes(chunk, ir.Keep) == []
    assert shown("numpy", True, "f::{:[(#2*!x)>1;2*!x;0]};f(3)") == "[0 2 4]"
