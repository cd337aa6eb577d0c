"""a@&m for a variable a as one node (ir.Compress, passes/loops.py): the items of a at the
mask m's 1s picked in one step where m is an integer vector of 0s and 1s as long as the
array a (verbs/structural.py, compress), else Where and At as written. Each program here is
compared with the same program where Where's result is kept in a variable first (P::&m;a@P),
which is no such node: printed value, element kind and error alike, in all four modes; and
the comparisons' shortcut (atomic.py, plain_comparison) that makes such masks; and a mask
that is a comparison (`x@&x<y`), whose truths are taken from the library where the
comparison's shortcut takes its operands (structural.compress_compared), compared with the
same where the truths are kept in a variable first."""
import pytest

from klong import KlongError
from klong.compiler import passes
from klong.compiler.lower import ir, lower
from klong.compiler.syntax.parser import parse
from klong.runtime.display import write

from conftest import MODES, MODE_IDS, interpreter_in, printed_or_error as outcome

# (a, m): a@&m both ways
CASES = [
    ("[5 3 8 1]", "[1 0 1 0]"),                      # integers
    ("[0.5 -1.25 3.0]", "[0 1 1]"),                  # reals
    ("[5 3 8 1]", "[0 0 0 0]"),                      # nothing picked: an empty list of its kind
    ("[0.5 2.5]", "[0 0]"),
    ("[5 3 8 1]", "[1 1 1 1]"),
    ("[[1 2] [3 4] [5 6]]", "[1 0 1]"),              # rows of a matrix
    ("[[1.5 2] [3 4]]", "[0 1]"),
    ("\"abcd\"", "[1 0 0 1]"),                       # a string: as written
    ("[1 \"ab\" :x 2.5]", "[0 1 1 1]"),              # a general list: as written
    ("[5 3 8]", "[2 0 1]"),                          # counts, not a mask: as written
    ("[5 3 8]", "[1 -1 1]"),                         # a negative count fails in Where
    ("[5 3 8]", "[1 0]"),                            # a shorter mask: as written
    ("[5 3]", "[1 0 1]"),                            # a longer one fails in At
    ("[5 3 8]", "[1.0 0.0 1.0]"),                    # reals fail in Where
    ("[5 3 8]", "1"),                                # an atom: as written
    ("[]", "[]"),
    ("{x*2}", "[0 1]"),                              # a function applied to the positions
    (":{[1 2] [3 4]}", "[1 1]"),                     # a dictionary: an error, as written
]


@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
def test_a_mask_picks_what_where_and_at_pick(mode):
    k = interpreter_in(mode)
    for data, mask in CASES:
        k(f"a::{data};m::{mask}")
        fused = outcome(k, "a@&m")
        fused_kind = outcome(k, "@*a@&m") if not fused.startswith("error") else ""
        written = outcome(k, "P::&m;a@P")
        written_kind = outcome(k, "@*a@P") if not written.startswith("error") else ""
        assert (fused, fused_kind) == (written, written_kind), (data, mask)


@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
def test_a_partition_by_comparisons_sorts(mode):
    """A quicksort by the partitions x@&x<y, x@&x=y, x@&x>y of the first element, on
    integers and reals, inside function literals (the node in a literal's body)."""
    k = interpreter_in(mode)
    k("qs::{:[2>#x;x;{(qs(x@&x<y)),(x@&x=y),qs(x@&x>y)}(x;x@0)]}")
    assert write(k("qs([3 1 4 1 5 9 2 6 5 3 5])")) == "[1 1 2 3 3 4 5 5 5 6 9]"
    assert write(k("qs([2.5 -1.0 2.5 0.0])")) == "[-1.0 0.0 2.5 2.5]"
    assert write(k("qs(!0)")) == "[]"


def test_the_node_is_made_for_a_variable_only():
    def nodes(src):
        chunk = passes.run(lower(parse(src), interpreter_in(MODES[0]).engine))
        bodies = [chunk.body] + [e for fn in chunk.lambdas for e in fn.body]
        return [type(n).__name__ for body in bodies for n in ir.walk(body)]
    assert "Compress" in nodes("a::[1 2];a@&a>1")
    assert "Compress" in nodes("f::{x@&x>y}")
    # another left operand is evaluated after Where: it stays as written
    assert "Compress" not in nodes("f::{x};(f([1 2]))@&[1 0]")
    assert "Compress" not in nodes("a::[1 2];a@1")


def test_an_error_in_where_is_placed_at_where(k):
    """Where's error names Where (expand), At's names At, as the verbs written apart do."""
    with pytest.raises(KlongError) as where:
        k("a::[5 3 8];a@&[1 -1 1]")
    assert "expand" in str(where.value)
    with pytest.raises(KlongError) as at:
        k("a::[5 3];a@&[1 0 1]")
    assert "at" in str(at.value) and "index" in str(at.value)


# (a, b, op, c): a@&b op c, a Compress whose mask is a comparison (structural.py,
# compress_compared: the library's truths straight from the comparison's own shortcut),
# against the same with the comparison's truths and Where's result kept first
COMPARED = [
    ("[5 3 8 1]", "a", "<", "4"),                    # integers beside an integer
    ("[5 3 8 1]", "4", ">", "a"),                    # the number on the left
    ("[0.5 -1.25 3.0]", "a", ">", "0.0"),            # reals beside a real
    ("[5 3 8 1]", "a", "<", "4.5"),                  # integers beside a real: as written
    ("[0.5 1.5]", "a", "=", "1"),                    # reals beside an integer: as written
    ("[5 3 8 1]", "a", "=", "[5 0 8 0]"),            # two vectors of one kind and length
    ("[5 3 8 1]", "a", "=", "[5.0 0 8 0]"),          # of two kinds: as written
    ("[5 3 8 1]", "a", "<", "[1 2]"),                # of two lengths: the comparison fails
    ("[5 3 8 1]", "a", "<", "99999999999999999999"),     # beyond int64: as written
    ("[5 3 8 1]", "a", ">", "9"),                    # nothing picked: an empty list
    ("[[1 2] [3 4] [5 6]]", "[1 2 3]", ">", "1"),    # rows of a matrix
    ("[5 3]", "[1 2 3]", ">", "1"),                  # a longer mask fails in At
    ("[5 3 8]", "[1 2]", ">", "0"),                  # a shorter one: as written
    ("[[1 2] [3 4]]", "[[1 2] [3 4]]", "<", "3"),    # a matrix of truths fails in Where
    ("\"abcd\"", "a", "<", "\"c\""),                 # characters: as written
    ("[1 \"ab\" :x 2.5]", "[1 0 1 0]", "=", "1"),    # a general list picked by a mask
    ("[]", "a", "<", "1"),                           # empty: as written (an error)
    ("5", "[1 0]", "=", "1"),                        # an atom picked from: as written
    (":{[1 2] [3 4]}", "[1 1]", "=", "1"),           # a dictionary: an error, as written
    ("[5 3 8]", "a", "<", "{x}"),                    # a function compared: an error
]


# (the node in the chunk, in a literal; the same with the truths and positions kept first)
FORMS = [("R::{}", "T::{};P::&T;R::a@P"),
         ("R::{{[a];a::x;{}}}(a)", "R::{{[a];a::x;T::{};P::&T;a@P}}(a)")]


@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
def test_a_comparison_picks_what_the_comparison_where_and_at_pick(mode):
    k = interpreter_in(mode)
    for data, b, op, c in COMPARED:
        for form, keeping in FORMS:
            k(f"a::{data}")
            # (an error names the literal it is in: its text, which differs, left out)
            fused = outcome(k, form.format(f"a@&{b}{op}{c}")).split(" (in {")[0]
            fused_kind = outcome(k, "@*R") if not fused.startswith("error") else ""
            written = outcome(k, keeping.format(f"{b}{op}{c}")).split(" (in {")[0]
            written_kind = outcome(k, "@*R") if not written.startswith("error") else ""
            assert (fused, fused_kind) == (written, written_kind), (form, data, b, op, c)


def test_a_failing_comparison_is_placed_at_the_comparison(k):
    with pytest.raises(KlongError) as e:
        k("a::[5 3 8];a@&a<[1 2]")
    assert e.value.kind == "length" and "less" in str(e.value)
    with pytest.raises(KlongError) as e:
        k("f::{[a];a::x;a@&a>y};f([5 3 8];[1 2])")
    assert e.value.kind == "length" and "more" in str(e.value) and "in f" in str(e.value)


def test_compress_compared_takes_what_the_comparison_shortcut_takes(k):
    import operator

    from klong.runtime.context import entered
    from klong.verbs.structural import compress_compared
    a, r = k("[5 3 8 1]"), k("[0.5 2.5]")
    with entered(k.context):
        assert write(compress_compared(a, operator.lt, a, 4)) == "[3 1]"
        assert write(compress_compared(a, operator.gt, 4, a)) == "[3 1]"
        assert write(compress_compared(a, operator.eq, a, a)) == "[5 3 8 1]"
        assert write(compress_compared(r, operator.gt, r, 1.0)) == "[2.5]"
        assert write(compress_compared(a, operator.lt, a, 0)) == "[]"
        assert compress_compared(a, operator.lt, a, 4.5) is None       # two kinds
        assert compress_compared(r, operator.lt, r, 1) is None
        assert compress_compared(a, operator.lt, a, 2 ** 64) is None    # beyond int64
        assert compress_compared(a, operator.lt, r, 1.0) is None       # another length
        assert compress_compared(5, operator.lt, a, 4) is None         # not an array
        assert compress_compared(a, operator.lt, 1, 2) is None         # numbers
