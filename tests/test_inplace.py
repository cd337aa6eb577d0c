"""`name::name:=b` writes the variable's array in place when nothing else holds it
(klong/verbs/inplace.py, passes/updates.py): the results are those of a copy, on both
backends and in both evaluators, and a value anyone else holds (another variable, a list, an
argument, a projection, a dictionary, a caller in Python) never changes."""
import numpy as np
import pytest

from klong import KlongError, KlongInterpreter
from klong.backends import get_backend, list_backends
from klong.compiler import passes
from klong.compiler.lower import lower
from klong.compiler.render import pysource
from klong.compiler.syntax.parser import parse
from klong.runtime.display import write

BACKENDS = [b for b in ("numpy", "torch") if b in list_backends()]
MODES = [(b, codegen) for b in BACKENDS for codegen in (True, False)]
needs_torch = pytest.mark.skipif("torch" not in BACKENDS, reason="needs torch")

SIEVE = ("sieve::{[s n];n::x;s::n:^1;s::s:=0,0,1;"
         "{(x*x)<n}{:[s@x;s::s:=0,(x*x)+x*!1+((n-1)-x*x):%x;0];x+1}:~2;&s}")


def interp(mode):
    backend, codegen = mode
    return KlongInterpreter(backend=backend, codegen=codegen)


def shown(k, src):
    return write(k(src))


@pytest.fixture(params=MODES, ids=lambda m: f"{m[0]}-{'codegen' if m[1] else 'closures'}")
def k(request):
    return interp(request.param)


# ---------------------------------------------------------------- results

def test_the_sieve_gives_the_primes(k):
    k(SIEVE)
    assert shown(k, "sieve(60)") == "[2 3 5 7 11 13 17 19 23 29 31 37 41 43 47 53 59]"
    assert shown(k, "#sieve(10000)") == "1229"
    assert shown(k, "sieve(10000)@1228") == "9973"


def test_a_global_sieve_at_top_level(k):
    k("n::50;s::n:^1;s::s:=0,0,1")
    k("{(x*x)<n}{:[s@x;s::s:=0,(x*x)+x*!1+((n-1)-x*x):%x;0];x+1}:~2")
    assert shown(k, "&s") == "[2 3 5 7 11 13 17 19 23 29 31 37 41 43 47]"


@pytest.mark.parametrize("src, expected", [
    ("s::!10;s::s:=0,[1 3 5 7];s", "[0 0 2 0 4 0 6 0 8 9]"),        # a progression
    ("s::!10;s::s:=0,2+3*!3;s", "[0 1 0 3 4 0 6 7 0 9]"),
    ("s::!10;s::s:=0,[1 2 5 9];s", "[0 0 0 3 4 0 6 7 8 0]"),        # not one
    ("s::!5;s::s:=9,[1 1 3];s", "[0 9 2 9 4]"),                     # a repeated index
    ("s::!5;s::s:=9,[2 0];s", "[0 1 9 3 4]"),                       # the last one behind
    ("s::!5;s::s:=9,[2];s", "[0 1 9 3 4]"),
    ("s::!5;s::s:=[9];s", "[0 1 2 3 4]"),
    ("s::!5;s::s:=1.5,1;s", "[0 1.5 2 3 4]"),                       # a real: a new list
    ("s::0.5*!4;s::s:=2.0,[0 3];s", "[2.0 0.5 1.0 2.0]"),
    ("s::!5;s::s:=:a,0;s", "[a 1 2 3 4]"),
    ("s::[3 2]:^!6;t::s;s::s:=(,[9 9]),1;(,s),,t", "[[[0 1] [9 9] [4 5]] [[0 1] [2 3] [4 5]]]"),
    ('s::"abc";s::s:=0cx,1;s', '"axc"'),
    ("s::[1 [2] 3];s::s:=9,1;s", "[1 9 3]"),
])
def test_amend_gives_what_a_copy_gives(k, src, expected):
    assert shown(k, src) == expected


# ---------------------------------------------------------------- a second reference

SECOND_REFERENCE = [
    ("global", "s::!5;t::s;s::s:=9,1;s,t", "[0 9 2 3 4 0 1 2 3 4]"),
    ("local", "{[s t];s::!5;t::s;s::s:=9,1;s,t}()", "[0 9 2 3 4 0 1 2 3 4]"),
    ("global in a local", "{[s];s::!5;t::s;s::s:=9,1;s,t}()", "[0 9 2 3 4 0 1 2 3 4]"),
    ("in a list", "s::!5;l::(,s),,[7];s::s:=9,1;s,*l", "[0 9 2 3 4 0 1 2 3 4]"),
    ("in a local list", "{[s l];s::!5;l::(,s),,[7];s::s:=9,1;s,*l}()",
     "[0 9 2 3 4 0 1 2 3 4]"),
    ("an argument", "f::{[s];s::x;s::s:=9,1;s};a::!5;f(a),a", "[0 9 2 3 4 0 1 2 3 4]"),
    ("an argument, global", "f::{s::x;s::s:=9,1;s};a::!5;f(a),a", "[0 9 2 3 4 0 1 2 3 4]"),
    ("a projection", "s::!5;p::{x,y}(s;);s::s:=9,1;s,p(7)", "[0 9 2 3 4 0 1 2 3 4 7]"),
    ("a projection of a local", "{[s p];s::!5;p::{x,y}(s;);s::s:=9,1;s,p(7)}()",
     "[0 9 2 3 4 0 1 2 3 4 7]"),
    ("a dictionary", "s::!5;d:::{};d,(,:a),,s;s::s:=9,1;s,d?:a", "[0 9 2 3 4 0 1 2 3 4]"),
    ("each collects it", "{[s];s::!3;{s::s:=(10+x),x}'!3}()",
     "[[10 1 2] [10 11 2] [10 11 12]]"),
    ("scan keeps each", "s::!3;r::{s::s:=(10+y),y;s}\\[0 1 2];(r@1),r@2", "[0 11 2 0 11 12]"),
    ("a loop's value", "s::!3;r::{x<2}{s::s:=(10+x),x;x+1}:~0;s,r", "[10 11 2 2]"),
    ("a function's value", "s::!3;f::{s::s:=(10+x),x};a::f(0);b::f(1);a,b",
     "[10 1 2 10 11 2]"),
    ("the value stored in itself", "s::!3;s::s:=(,s),1;(s@1),s@0", "[0 1 2 0]"),
    ("from an inner function", "{[s t];s::!3;t::s;{s::s:=9,x}(1);s,t}()", "[0 9 2 0 1 2]"),
    ("read before, used after", "s::!3;(s::s:=9,0),s", "[9 1 2 0 1 2]"),
    ("read before, used after, local", "{[s];s::!3;(s::s:=9,0),s}()", "[9 1 2 0 1 2]"),
]


@pytest.mark.parametrize("name, src, expected", SECOND_REFERENCE,
                         ids=[c[0] for c in SECOND_REFERENCE])
def test_a_value_held_elsewhere_is_not_changed(k, name, src, expected):
    assert shown(k, src) == expected


def test_a_failed_amend_leaves_the_value_as_it_was(k):
    k("s::!5")
    for src, error in [
            ("s::s:=9,[1 7]", "range error: amend [[0 1 2 3 4] [9 1 7]]: index 7 out of range 0..4"),
            ("s::s:=9,[3 1 2]", "range error: amend [[0 1 2 3 4] [9 3 1 2]]: index 1 out of order"),
            ("s::s:=9,1.0", "type error: amend [[0 1 2 3 4] [9 1.0]]: indices must be integers")]:
        with pytest.raises(KlongError) as e:
            k(src)
        assert str(e.value) == error
        assert shown(k, "s") == "[0 1 2 3 4]"
    k("f::{[s];s::x;s::s:=9,[0 5];s}")
    with pytest.raises(KlongError) as e:
        k("f(s)")
    assert str(e.value) == ("range error: amend [[0 1 2 3 4] [9 0 5]]: index 5 out of range "
                            "0..4 (in f)")
    assert shown(k, "s") == "[0 1 2 3 4]"


# ---------------------------------------------------------------- values from Python

def _array(backend, values):
    if backend == "torch":
        import torch
        return torch.tensor(values)
    return np.array(values)


def test_an_array_a_python_caller_holds_is_not_changed(k):
    data = _array(k.backend.name, [0, 1, 2, 3])
    k["s"] = data
    assert shown(k, "s::s:=9,1;s") == "[0 9 2 3]"
    assert data.tolist() == [0, 1, 2, 3]
    k["get"] = lambda: data                 # a Python function keeps returning it
    assert shown(k, "u::get();u::u:=7,0;u") == "[7 1 2 3]"
    assert shown(k, "{[u];u::get();u::u:=7,0;u}()") == "[7 1 2 3]"
    assert data.tolist() == [0, 1, 2, 3]


def test_a_view_of_a_python_array_is_not_written(k):
    data = _array(k.backend.name, list(range(8)))
    k["s"] = data[2:6]
    assert shown(k, "s::s:=9,1;s") == "[2 9 4 5]"
    assert data.tolist() == list(range(8))


def test_a_read_only_array_is_copied():
    k = KlongInterpreter(backend="numpy")
    a = np.arange(4)
    a.flags.writeable = False
    k["s"] = a
    del a
    assert shown(k, "s::s:=9,0;s") == "[9 1 2 3]"


# ---------------------------------------------------------------- it is done in place

def _ids_of_s(k, src):
    """The identities of the successive values of `s` (held by no one but the list of
    ids: a hook that kept the values would make them shared)."""
    ids = []
    k.register_hook("s", lambda v: ids.append(id(v)))
    k(src)
    return ids


@pytest.mark.parametrize("src", [
    "s::!10;s::s:=0,1;s::s:=0,2;s::s:=0,3;0",
    "{[s];s::!10;s::s:=0,1;s::s:=0,2;s::s:=0,3;0}()",
    "{[s];s::!10;{x<5}{:[x>1;s::s:=0,x;0];x+1}:~0;0}()",
    "s::!10;{x<5}{:[x>1;s::s:=0,x;0];x+1}:~0;0",
    "{[s];s::!10;{s::s:=0,x;0}'[3 4 5];0}()",
    "{[s];s::10:^1;{(x*x)<10}{:[s@x;s::s:=0,(x*x)+x*!1+(9-x*x):%x;0];x+1}:~2;0}()",
])
def test_an_array_held_once_is_written_in_place(k, src):
    ids = _ids_of_s(k, src)
    assert len(ids) >= 3
    assert len(set(ids)) == 1, ids          # the array first assigned, updated every time


@needs_torch
def test_the_torch_backend_refuses_shared_tensors():
    import torch
    B = get_backend("torch")
    t = torch.arange(5)
    assert B.writable_alone(t)
    view = t[1:]
    assert not B.writable_alone(t) and not B.writable_alone(view)
    del view
    assert B.writable_alone(t)
    alias = t.detach()
    assert not B.writable_alone(t)
    del alias
    assert not B.writable_alone(torch.from_numpy(np.arange(3)))
    w = torch.ones(3, dtype=torch.float64, requires_grad=True)
    saved = torch.zeros(3, dtype=torch.float64)
    loss = (w * saved).sum()            # autograd keeps `saved` for the backward pass
    assert not B.writable_alone(saved) and not B.writable_alone(w)
    del loss


def test_the_numpy_backend_refuses_shared_arrays():
    B = get_backend("numpy")
    a = np.arange(5)
    assert B.writable_alone(a)
    assert not B.writable_alone(a[1:])
    assert not B.writable_alone(np.frombuffer(b"abcdefgh", dtype=np.int64))
    a.flags.writeable = False
    assert not B.writable_alone(a)


def test_a_remembered_magnitude_follows_the_write(k):
    """Integer overflow checks remember an array's largest magnitude; a write in place must
    not leave a bound that the new elements exceed."""
    big = "4611686018427387904"
    k(f"s::!100;x::+/s*s;s::s:={big},5")
    k(f"u::!100;w::u:={big},5")         # the same values, by a copy
    assert shown(k, "s*s") == shown(k, "w*w")
    assert shown(k, "s@5") == big


# ---------------------------------------------------------------- what the pass marks

def _rendered(src):
    k = KlongInterpreter(backend="numpy")
    return pysource.source(passes.run(lower(parse(src), k.engine)), k)


@pytest.mark.parametrize("src, marked", [
    ("f::{[s];s::!3;s::s:=1,0}", True),
    ("s::s:=1,0", True),
    ("f::{[s t];s::!3;t::s:=1,0}", False),          # another variable
    ("f::{[s];s::!3;s::s:-1,0}", False),            # Amend-in-Depth
    ("f::{[s];s::!3;s::(s:=1,0)}", True),
    ("f::{[s];s::!3;s::s:=1,s@0}", True),           # the right operand may read it
    ("f::{[s];s::!3;{s::s:=1,0}()}", True),         # a local of the literal around
    ("f::{[s];s::!3;{[s];s::!2;s::s:=1,0}()}", True),
])
def test_the_pass_marks_name_name_amend_only(src, marked):
    assert ("UPDATE(" in _rendered(src)) == marked


# ---------------------------------------------------------------- an entry joined to a dictionary

# d,k,v with d a variable (passes/updates.py: ir.JoinEntry): a dictionary gets the entry
# without the pair k,v being made; anything else gets the two joins as written.

@pytest.mark.parametrize("src, expected", [
    ("d:::{};{d,x,:[:_d?x;1;1+d?x]}'[3 1 3 3 2];d", ":{[3 3] [1 1] [2 1]}"),
    ("d:::{};d,1,2.0;d,2.5,3;d,1.0,7;d,(2^70),1;d", ":{[1 2.0] [2.5 3] [1.0 7] [1180591620717411303424 1]}"),
    ("d:::{};d,1,2;d,1,5;(d?1),#d", "[5 1]"),
    ("{[d];d:::{};d,x,y;d}(4;5)", ":{[4 5]}"),
    ("d:::{};d,:a,1;d,\"ab\",2;d,0cx,0cy;d", ':{[:a 1] ["ab" 2]}'),   # 0cx,0cy: "xy"
    ("d:::{};d,(1,2),3", "[:{} 1 2 3]"),                      # a list joined, not an entry
    ("d:::{};d,1,[2 3]", "[:{} 1 2 3]"),
    ("q::[1 2];q,3,4", "[1 2 3 4]"),
    ("q::[1 2];q,3,4.5", "[1 2 3 4.5]"),
    ("q::\"ab\";q,0cc,0cd", '"abcd"'),
    ("{[q];q::[1.5];q,x,y}(2.5;3.5)", "[1.5 2.5 3.5]"),
    ("q::1;q,1,{q::2;x}(3)", "[2 1 3]"),                        # the variable is read last
])
def test_joining_an_entry_gives_what_the_two_joins_give(k, src, expected):
    assert write(k.run(src)) == expected          # (run: the value as Klong holds it)


def test_a_failed_join_of_an_entry_names_the_join_that_failed():
    limit = "too many elements: 11 (the limit is 10, set by KLONG_MAX_ELEMENTS)"
    for backend, codegen in MODES:
        k = KlongInterpreter(backend=backend, codegen=codegen, max_elements=10)
        k("q::!9;f::{q,x,y}")
        for src, error in [
                ("q,1,2", "range error: join [[0 1 2 3 4 5 6 7 8] [1 2]]: " + limit),
                ("f(1;2)", "range error: join [[0 1 2 3 4 5 6 7 8] [1 2]]: " + limit + " (in f)"),
                ("q,1,!10", "range error: join [1 [0 1 2 3 4 5 6 7 8 9]]: " + limit),
                ("r,1,2", "undefined error: r is not defined")]:
            with pytest.raises(KlongError) as e:
                k(src)
            assert str(e.value) == error


@pytest.mark.parametrize("src, joined", [
    ("f::{[d];d:::{};d,x,1}", True),
    ("d,x,1", True),
    ("f::{[d];d:::{};{d,x,1}'x}", True),        # a local of the literal around
    ("f::{x,y,1}", True),
    ("f::{(x,y),1}", False),                    # not a pair on the right
    ("f::{(d::x),y,1}", False),                 # not a variable on the left
])
def test_the_pass_joins_an_entry_to_a_variable_only(src, joined):
    assert ("JOIN_ENTRY(" in _rendered(src)) == joined


# ---------------------------------------------------------------- indices made as a progression

@pytest.mark.parametrize("src, expected", [
    ("(12#,0):=7,3+2*!4", "[0 0 0 7 0 7 0 7 0 7 0 0]"),
    ("(100#,0):=7,3+2*!70", "range error: amend [[0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
                            "0 0 0 0 0 0...: index 101 out of range 0..99"),
    ("+/(200#,0):=7,(!70)*2", "490"),
    ("+/(200#,0):=7,2*!70", "490"),
    ("+/(200#,0):=7,(!70)+1", "490"),
    ("+/(200#,0):=7,1+!70", "490"),
    ("+/(200#,0):=7,(!70)*0", "7"),                 # one index, many times
    ("(200#,0):=7,3-2*!70", "range error: amend [[0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
                            "0 0 0 0 0 0 0...: index 1 out of order"),
    ("(200#,0):=7,(!70)-1", "range error: amend [[0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
                            "0 0 0 0 0 0 0...: index -1 out of order"),
    ("+/(200#,0):=7,(!70)-(-1)", "490"),
    ("+/(200#,0):=7,((!70),3)", "490"),            # the last index behind: never reached
    ("(200#,0):=7,((!70),3,80)", "range error: amend [[0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
                              "0 0 0 0 0 0 0...: index 3 out of order"),
    ("(8#,0):=7.5,2*!3", "[7.5 0 7.5 0 7.5 0 0 0]"),
    ("+/(200#,0):=7.5,2*!70", "525.0"),
    ("s::!100;s::s:=0,50;(200#,0):=7,s", "range error: amend [[0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
                                         "0 0 0 0 0 0 0 0 0 0 0 0 0...: index 0 out of order"),
])
def test_amend_at_indices_made_as_a_progression(k, src, expected):
    """Enumerate, an integer plus, minus or times one, and a value joined before one are
    known progressions (limits.Limits.progression): Amend writes at them as a slice without
    reading them; an array written in place is no longer one."""
    try:
        got = shown(k, src)
    except KlongError as e:
        got = str(e)
    assert got[:len(expected)] == expected


def test_the_progressions_known():
    from klong.runtime.context import entered
    from klong.verbs import VERBS
    k = KlongInterpreter(backend="numpy")
    enum, join = VERBS["!"].monad, VERBS[","].dyad
    times, plus, minus = VERBS["*"].dyad, VERBS["+"].dyad, VERBS["-"].dyad
    with entered(k.context):
        known = k.limits.progression
        e = enum(100)
        assert known(e) == (0, 1, 0)
        assert known(times(3, e)) == (0, 3, 0) and known(times(e, -2)) == (0, -2, 0)
        assert known(plus(e, 5)) == (5, 1, 0) and known(minus(5, e)) == (5, -1, 0)
        assert known(minus(plus(3, times(7, e)), 2)) == (1, 7, 0)
        assert known(join(9, plus(4, e))) == (4, 1, 1)
        assert known(join(plus(4, e), 9)) is None           # joined after: not one
        assert known(join(9, join(9, e))) is None           # one skip at most
        assert known(times(e, e)) is None and known(plus(1.5, e)) is None
        assert known(enum(10)) is None                      # small: not remembered
