"""The lowering of the syntax tree to the IR (klong/compiler/lower/) and the passes over it
(klong/compiler/passes/): what each node says, the facts of function literals, the rewrites."""
import pytest

from klong import KlongInterpreter, KlongError
from klong.compiler import passes
from klong.compiler.lower import ir, lower
from klong.compiler.syntax.parser import parse

from conftest import BACKENDS  # noqa: E402


@pytest.fixture
def k():
    return KlongInterpreter()


def lowered(k, text, run_passes=False):
    chunk = lower(parse(text), k.engine)
    return passes.run(chunk) if run_passes else chunk


def test_names_resolve_to_locals_by_depth_and_globals_by_key(k):
    chunk = lowered(k, "f::{[a];a::x;{a+x+g}}")
    outer = chunk.body.value
    assert isinstance(chunk.body, ir.SetGlobal) and chunk.body.keys == ["f"]
    assert isinstance(outer.body[0], ir.SetLocal) and outer.body[0].depth == 0
    inner = outer.body[1]
    reads = {(n.name, getattr(n, "depth", None)) for n in ir.walk(inner)
             if isinstance(n, (ir.Local, ir.Global))}
    assert reads == {("a", 1), ("x", 0), ("g", None)}


def test_facts_say_what_a_literal_assigns_and_reads(k):
    chunk = lowered(k, "f::{[a];a::1;{a::x}(2);g::h(x);.f}")
    inner, outer = chunk.lambdas
    assert outer.facts.effects                 # g is a global
    assert outer.facts.reads == {"h"}
    assert outer.facts.names_self
    assert inner.facts.effects                 # a belongs to the literal around it
    assert not inner.facts.names_self
    pure = lowered(k, "p::{[t];t::x*2;t+1}").body.value
    assert not pure.facts.effects


def test_a_module_renames_the_globals_it_defines(k):
    k(".module(:m)")
    try:
        chunk = lowered(k, "v::1")
    finally:
        k(".module(0)")
    assert chunk.body.keys == ["v`m", "v"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_constants_are_on_the_backend_and_labels_settled(backend):
    t = KlongInterpreter(backend=backend)
    chunk = lowered(t, "[1 2 3]+1")
    assert isinstance(chunk.body.left.value, t.backend.array_type)   # a torch.Tensor on torch
    assert chunk.body.label == "plus"
    assert lowered(t, "+/!3").body.label == "plus over"


@pytest.mark.parametrize("text, message", [(":>1", ":> has no monadic form"),
                                           ("1\u02d92", "\u02d9 has no dyadic form")])
def test_a_verb_without_the_form_used_is_a_syntax_error_when_lowered(k, text, message):
    tree = parse(text)            # the parser accepts it: the lowering knows the verbs
    with pytest.raises(KlongError) as e:
        lower(tree, k.engine)
    assert e.value.kind == "syntax" and message in str(e.value)


def test_differentiation_knows_variable_mode(k):
    d = lowered(k, "f:>p").body
    assert isinstance(d, ir.Differentiate) and d.op == ":>" and d.variable == "p"
    assert lowered(k, "f:>[1 2]").body.variable is None


@pytest.mark.parametrize("text, dyad_op, elementwise, dot", [
    ("{x+y}", "+", False, False),
    ("{y+x}", None, False, False),
    ("{x*2+1}", None, True, False),
    ("{+/x*y}", None, False, True),
    ("{+/y*x}", None, False, True),
    ("{+/x*x}", None, False, False),
])
def test_passes_settle_the_shortcut_facts(k, text, dyad_op, elementwise, dot):
    fn = lowered(k, text, run_passes=True).body
    assert (fn.facts.dyad_op, fn.facts.elementwise, fn.facts.dot) == (dyad_op, elementwise, dot)


@pytest.mark.parametrize("text, form", [
    ("{:[x>0;x;-x]}", ir.Batched),     # the element-wise Whole first (below), then the batch
    ("{[r];r::x;r*r}", ir.Batched),
    ("{+/x*u}", ir.Batched),        # RowsDot first (below), the batch where it declines
    ("{x{+/x*y}:/m}", ir.RowsProduct),
    ("{x f:/m}", ir.RowsProduct),
    ("{x,1}", ir.Batched),
    ("{[s];s::+/x;x-s%#x}", ir.Batched),
    ("{x,\"a\"}", None),
    ("{.f(x)}", None),
    ("{g(x)}", ir.Batched),           # what g holds decides as it runs (verbs/batched.py)
    ("{a::x;a}", None),
    ("{?x}", None),
])
def test_passes_find_whole_array_forms(k, text, form):
    fn = lowered(k, text, run_passes=True).body
    assert (type(fn.whole) if fn.whole is not None else None) is form


@pytest.mark.parametrize("text", ["{:[x>0;x;-x]}", "{[r];r::x;r*r}", "{x*x}"])
def test_an_element_wise_form_is_tried_before_the_batch(k, text):
    """An element-wise monad keeps its Whole, tried first; its batched body is what a call
    of it in another batched body runs (`{sq(x)-1}'m`, LambdaFacts.batched)."""
    fn = lowered(k, text, run_passes=True).body
    assert type(fn.whole.first) is ir.Whole and fn.facts.batched


def test_a_dot_with_a_name_is_tried_before_the_batch(k):
    """{+/x*u}: the matrix-vector product where u is a vector; where it is not (a matrix,
    `{+/x*w}'m`), the batched body."""
    fn = lowered(k, "{+/x*u}", run_passes=True).body
    assert type(fn.whole.first) is ir.RowsDot


def test_the_element_wise_form_is_decided_in_the_pass(k):
    """The IR says what the whole form evaluates: the renderers decide nothing."""
    fn = lowered(k, "{[r];r::x;:[r>a;r*2;0]}", run_passes=True).body
    # tried first; the batched form (passes/batching.py) where `a` is not a number
    assert isinstance(fn.whole, ir.Batched) and isinstance(fn.whole.first, ir.Whole)
    select = fn.whole.first.expr
    assert isinstance(select, ir.Select)
    (test, then), = select.clauses
    assert isinstance(test, ir.Map) and test.op == ">"
    assert isinstance(test.args[0], ir.Elements)        # r copies x: the array too
    assert isinstance(test.args[1], ir.Scalar) and test.args[1].read.name == "a"
    assert then.op == "*" and select.otherwise.value == 0
    # a constant that is not a number has no element-wise form
    assert lowered(k, "{x+\"a\"}", run_passes=True).body.whole is None


def test_a_fold_form_for_x_plus_g_of_y(k):
    fn = lowered(k, "{x+y^2}", run_passes=True).body
    assert fn.facts.fold_op == "+" and isinstance(fn.whole, ir.Whole)
    expr = fn.whole.expr                 # y^2, y being the array
    assert isinstance(expr, ir.Map) and expr.op == "^"
    assert isinstance(expr.args[0], ir.Elements) and expr.args[1].value == 2
    assert lowered(k, "{x+x^2}", run_passes=True).body.facts.fold_op is None


def test_loops_of_literals_and_sums_of_products_are_rewritten(k):
    assert isinstance(lowered(k, "{x<5}{x+1}:~0", True).body, ir.While)
    assert isinstance(lowered(k, "{x%2}:~1", True).body, ir.Converge)
    assert isinstance(lowered(k, "3{x*2}:*1", True).body, ir.Iterate)
    assert isinstance(lowered(k, "+/a*b", True).body, ir.SumOfProducts)
    assert isinstance(lowered(k, "{x<5}{x+1}\\~0", True).body, ir.While)
    assert lowered(k, "{x<5}{x+1}\\~0", True).body.scan
    assert isinstance(lowered(k, "{x%2}\\~1", True).body, ir.Converge)
    assert isinstance(lowered(k, "3{x*2}\\*1", True).body, ir.Iterate)
    # a literal whose locals are each set before any statement reads them runs inline
    assert isinstance(lowered(k, "{[a];a::x;a+1}:~1", True).body, ir.Converge)
    # one that may read a local before setting it, keeps it in a literal of its own, or
    # names itself is called, not inlined
    assert isinstance(lowered(k, "{[a];a::a,x;a+1}:~1", True).body, ir.Monad)
    assert isinstance(lowered(k, "{[a];:[x;a::1;0];a+1}:~1", True).body, ir.Monad)
    assert isinstance(lowered(k, "{[a];a::x;{a}}:~1", True).body, ir.Monad)
    assert isinstance(lowered(k, "{.f;x}:~1", True).body, ir.Monad)


def marked(chunk):
    """The labels of the verbs the numbers pass marked, in source order."""
    nodes = [n for n in _everything(chunk) if isinstance(n, (ir.Monad, ir.Dyad)) and n.numbers]
    return sorted((n.line, n.column, n.label) for n in nodes)


def _everything(node):
    yield node
    for c in ir.children(node):
        yield from _everything(c)


def test_a_loop_variable_that_stays_an_integer_needs_no_type_tests(k):
    chunk = lowered(k, "{x<10000}{x+1}:~0", True)
    assert [label for _, _, label in marked(chunk)] == ["less", "plus"]
    assert k("{x<10000}{x+1}:~0") == 10000


def test_a_loop_variable_that_changes_kind_is_not_assumed(k):
    chunk = lowered(k, "{x<10}{x%2}:~1", True)          # % is not a scalar form
    assert marked(chunk) == []
    chunk = lowered(k, "{x<10}{x+0.5}:~1", True)        # integer, then real
    assert marked(chunk) == []
    assert k("{x<10}{x+0.5}:~1") == 10.0


def test_parameters_are_not_assumed_and_constants_are_known(k):
    assert marked(lowered(k, "{x+1}", True)) == []
    assert marked(lowered(k, "{[a];a::1;a+1}", True)) == []
    assert [m[2] for m in marked(lowered(k, "3{x*2}:*1", True))] == ["times"]
    assert [m[2] for m in marked(lowered(k, "{1+2*3}", True))] == ["plus", "times"]


def test_a_function_calling_itself_with_integers_gets_an_integer_body(k):
    fib = lowered(k, "fib::{:[x<2;x;fib(x-1)+fib(x-2)]}", True).body.value
    body = fib.integer_body
    assert fib.integer_key == "fib"
    calls = [n for s in body for n in _everything(s) if isinstance(n, ir.Call)]
    assert len(calls) == 2 and all(c.to_self for c in calls)
    # every verb is on known integers there, the sum of the two calls included
    verbs = [n for s in body for n in _everything(s) if isinstance(n, (ir.Monad, ir.Dyad))]
    assert verbs and all(v.numbers for v in verbs)
    assert not any(v.numbers for v in _everything(fib) if isinstance(v, (ir.Monad, ir.Dyad)))


def test_an_integer_body_needs_a_call_of_itself_it_can_trust(k):
    assert lowered(k, "g::{x+1}", True).body.value.integer_body is None
    # .p is read: the global h might be another function by the time it is called
    assert lowered(k, "h::{.p(x);h(x-1)}", True).body.value.integer_body is None
    # through .f the call is always to itself
    f = lowered(k, "f::{:[x<2;1;x*.f(x-1)]}", True).body.value
    assert f.integer_body is not None and f.integer_key is None
    anon = lowered(k, "{:[x<2;1;x*.f(x-1)]}", True).body
    assert anon.integer_body is not None and anon.integer_key is None


@pytest.mark.parametrize("codegen", [True, False])
def test_a_function_value_shares_its_literals_facts(codegen):
    """One record of a lambda's facts, from lowering to the running function."""
    k = KlongInterpreter(codegen=codegen)
    k("g::{x*2};f::{g(x)+y}")
    facts = k.globals["f"].facts
    assert (facts.arity, facts.source, facts.name) == (2, "{g(x)+y}", "f")
    assert facts.reads == {"g"} and not facts.effects and facts.globals is k.globals
    assert k.globals["g"].facts.elementwise
    k("h::{a::x}")
    assert k.globals["h"].facts.effects


def test_facts_not_known_say_a_function_has_effects():
    from klong.runtime.functions import LambdaFacts
    unknown = LambdaFacts(1)
    assert unknown.effects and unknown.globals is None and unknown.label() == "{...}"


def test_the_engine_says_what_a_function_reads(k):
    """What nn.py asks to carry a layer's function with the globals it needs."""
    k("w::3;g::{x*w};f::{{g(x)}(x)+y}")
    assert k.engine.facts(k.globals["f"]).reads == {"g"}
    assert k.engine.facts(k.globals["g"]).reads == {"w"}
    assert k.engine.facts(k.globals["w"]) is None


def test_the_registry_says_how_the_differentiation_operators_are_applied(k):
    """No symbol is special-cased: the verb's entry says which operand is the point."""
    from klong.verbs import VERBS
    assert VERBS[":>"].host_dyad.point == "right" and VERBS["\u2207"].host_dyad.point == "left"
    assert VERBS["\u2202"].host_dyad.point is None
    assert lowered(k, "p\u2207f").body.variable == "p"
    assert lowered(k, "p\u2202f").body.variable is None
    assert k("\u02d93.0") == 3.0
    assert abs(k("{x^2}:>3.0") - 6.0) < 1e-6       # finite differences on numpy


class _Around:
    """Surroundings that are no interpreter: what lowering may ask, and nothing else."""
    globals = {}

    def global_key(self, name):
        return name + "`m"

    def assignment_keys(self, name, top_level):
        return [name + "`m", name] if top_level else [name]

    def constant(self, value):
        return ("on the backend", value)

    def allows_elements(self, n):
        return True


def test_lowering_asks_its_surroundings_only():
    chunk = lower(parse("a::b+1;{c::x}"), _Around())
    assign, fn = chunk.body.exprs
    assert assign.keys == ["a`m", "a"]
    assert assign.value.left.key == "b`m" and assign.value.right.value == ("on the backend", 1)
    assert fn.body[0].keys == ["c"] and fn.facts.globals is _Around.globals


# ---------------------------------------------------------------- joins of integer constants

def test_a_join_of_integer_constants_is_lowered_as_its_vector(k):
    # (the sieve's s:=0,0,1 in a loop: the vector made once, not two joins at every run)
    for text, ints in (("0,0,1", [0, 0, 1]), ("[1 2],3", [1, 2, 3]),
                       ("1,[2 3],4,5", [1, 2, 3, 4, 5])):
        node = lowered(k, text).body
        assert isinstance(node, ir.Const) and node.value.tolist() == ints
        assert str(node.value.dtype) == "int64"
    # a pair is left as written (Join makes it without the size guard; a,k,v is a JoinEntry)
    assert isinstance(lowered(k, "0,1").body, ir.Dyad)
    # not all integers of int64, or not constants: the joins
    for text in ("0,0,99999999999999999999", "0,0,1.5", "0,0,x", '0,0,"a"', "0,0,0c1"):
        assert isinstance(lowered(k, text).body, ir.Dyad), text


def test_a_join_of_constants_over_the_size_guard_is_left_to_fail_as_join_does():
    k = KlongInterpreter(max_elements=3)
    node = lowered(k, "1,[2 3],4").body
    assert isinstance(node, ir.Dyad) and isinstance(node.right, ir.Const)   # [2 3],4 fits
    with pytest.raises(KlongError, match=r"join \[1 \[2 3 4\]\]: too many elements: 4"):
        k("1,[2 3],4")
    k = KlongInterpreter(max_elements=2)
    with pytest.raises(KlongError, match=r"join \[0 \[0 1\]\]: too many elements: 3"):
        k("{x,0,0,1}(5)")
    k = KlongInterpreter(memory_limit="16")
    assert isinstance(lowered(k, "0,0,1").body, ir.Dyad)
    with pytest.raises(KlongError, match="not enough memory allowed"):
        k("0,0,1")


@pytest.mark.parametrize("text, shown", [
    ("0,0,1", "[0 0 1]"), ("s::5#,1;s::s:=0,0,1;s", "[0 0 1 1 1]"),
    ("{x,0,0,1}(5)", "[5 0 0 1]"), ("a::0,0,1;b::a:=[9 0];a,b", "[0 0 1 9 0 1]"),
    ("{[s];s::x#,7;s::s:=0,0,1;s::s:=5,2;s}(3)", "[0 0 5]")])
def test_a_folded_join_gives_what_join_gives(km, text, shown):
    from klong.runtime.display import write
    assert write(km(text)) == shown
