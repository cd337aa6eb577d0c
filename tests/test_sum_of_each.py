"""+/f'x as one node (ir.SumOfEach, passes/loops.py): f's results added from left to right as
they come, where they are plain numbers of one kind and the list is short (verbs/forms.py,
sum_of_each), else the Each and the sum as written. Each program here is compared with the
same program where the Each's list is kept in a variable and summed from there (L::f'x;
+/L), which is no such node: printed value, element kind and error alike, in all four modes."""
import pytest

from klong.compiler import passes
from klong.compiler.lower import ir, lower
from klong.compiler.syntax.parser import parse

from conftest import MODES, MODE_IDS, interpreter_in, printed_or_error as outcome

DEFINITIONS = "sm::{:[@x;x;+/sm'x]};sq::{x*x};pr::{.d(x);x}"

# (the list, f): f'the list is summed both ways
CASES = [
    ("[1 [2 3] [4.5 [6]]]", "sm"),                   # a tree of lists, reals and integers
    ("[[1 2 3] [4 5 6] [7 8 9]]", "sm"),             # a regular tree: a matrix
    ("[1 2 3]", "sq"),
    ("[1.5 2.25 -0.5]", "sq"),
    ("[1 2.5 3]", "{x}"),                            # integers and reals: as written
    ("[9223372036854775807 1]", "{x}"),              # past int64: exact
    ("[0.1 0.2 0.3 0.4 0.5 0.6 0.7]", "{x*1.1}"),    # the order of the additions shows
    ("[1e308 1e308 -1e308]", "{x}"),                 # inf on the way, as left to right
    ("[1e16 1.0 1.0 -1e16]", "sm"),                  # 0.0 left to right, 2.0 otherwise
    ("[-0.0 -0.0]", "{x*1.0}"),
    ("0.1*!64", "sm"),                               # the longest list summed as it comes
    ("0.1*!65", "sm"),                               # one more: as written
    ("!64", "{x*0.1}"),                              # f elementwise: Each batches, as written
    ("[[1 2] [3 4]]", "{x}"),                        # rows: summed as written
    ("\"abc\"", "{x,x}"),                            # strings: +/ fails as written
    ("[1 2]", "{x+\"a\"}"),                          # f fails: as f fails
    ("[1 2]", "{x%0}"),
    ("[1 2 3]", "pr"),                               # f's effects once each, in order
    ("5", "sq"),                                     # an atom: f of it
    ("[]", "sq"),
    (",7", "sq"),
]


@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
def test_summed_as_it_comes_gives_what_the_list_summed_gives(mode, capsys):
    k = interpreter_in(mode)
    k(DEFINITIONS)
    for data, f in CASES:
        fused = outcome(k, f"+/{f}'{data}")
        fused_out = capsys.readouterr().out
        written = outcome(k, f"L::{f}'{data};+/L")
        written_out = capsys.readouterr().out
        assert (fused, fused_out) == (written, written_out), (data, f)


def test_the_node_is_made_for_a_function_value_under_each():
    def nodes(src):
        chunk = passes.run(lower(parse(src), interpreter_in(MODES[0]).engine))
        return [type(n).__name__ for n in ir.walk(chunk.body)]
    assert "SumOfEach" in nodes("f::{x};+/f'[1 2]")
    assert "SumOfEach" in nodes("+/{x*x}'[1 2]")
    assert "SumOfEach" not in nodes("+/[1 2]")
    assert "SumOfEach" not in nodes("+/'[[1 2] [3 4]]")
