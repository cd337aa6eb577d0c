"""How a verb with adverbs becomes a Python callable, for both renderers.

`VerbForms` holds what an adverb needs of the verb it modifies: its monadic and dyadic
forms, and the shortcuts adverbs.py may take (a reduction of the library, a whole-array form,
rows as a matrix product). `derive` applies an adverb; `function_forms` gives the forms of a
function value, its literal's facts (LambdaFacts) turned into shortcuts.
"""
from collections import deque
from functools import partial
from itertools import repeat
from typing import Callable, Optional

from . import adverbs as adv
from .. import backends
from ..backends import arrays
from ..backends.base import SEQUENTIAL_ROWS
from ..errors import KlongError
from ..runtime.functions import Lambda, Projection, call_value
from ..runtime.records import record, replace
from ..runtime.values import Dict, Function, is_atom, items, list_like
from . import DYADS, VERBS
from . import batched, batching, wholearray
from .structural import each_on_strings


@record(slots=True)
class VerbForms:
    """What an adverb needs to know of the verb it modifies: its monadic and dyadic forms,
    and optional shortcuts (see adverbs.py)."""
    monad: Callable
    dyad: Callable
    fast: Optional[str] = None
    fold: Optional[Callable] = None
    whole_monad: Optional[Callable] = None
    whole_dyad: Optional[Callable] = None
    rows: Optional[Callable] = None
    scan_fold: Optional[Callable] = None
    batch: Optional[tuple] = None       # the monad's batched plan of x (batching.py)
    batch_op: Optional[str] = None      # the primitive it is, when batching is on
    pairs: Optional[Callable] = None    # a dyad's batched form: pairs(x, y, rows), see
                                        # passes/batching.py
    strings: Optional[Callable] = None  # the monad over a list of strings, as an iterator
                                        # (with_constant_each)
    vectors: Optional[Callable] = None  # the monad over a list of non-empty vectors
                                        # (Verb.each_of_vectors)
    chars: Optional[Callable] = None    # the monad over the characters of a string
                                        # (Verb.each_of_chars)


def _no_monad(op):
    def fail(a):
        raise KlongError("syntax", f"{op} has no monadic form")
    return fail


def _no_dyad(op):
    def fail(a, b):
        raise KlongError("syntax", f"{op} has no dyadic form")
    return fail


def op_forms(op, batch=False):
    """The forms of the primitive verb `op`; `batch` (the interpreter's): Each of it, or of
    its Over or Scan, over the rows of a matrix runs once for all rows where it has a
    batching rule (batching.py)."""
    entry = VERBS[op]
    return VerbForms(entry.monad or _no_monad(op), entry.dyad or _no_dyad(op),
                     fast=entry.reduce, fold=entry.fold,
                     whole_monad=entry.monad if entry.atomic_monad else None,
                     whole_dyad=entry.dyad if entry.atomic_dyad else entry.each,
                     batch=("monad", op, ("x",)) if batch and entry.batch_monad else None,
                     batch_op=op if batch else None, vectors=entry.each_of_vectors,
                     chars=entry.each_of_chars,
                     pairs=_primitive_pairs(op) if batch and entry.batch_dyad else None)


def _primitive_pairs(op):
    """The batched form of pairs of the dyad `op` (forms.pairs): Each-Left and Each-Right of
    it over a list of numbers (`v,:\\u`) once for all of them, where its batching rule
    gives a result (else None: the loop)."""
    body = batched.compiled(("dyad", op, ("x",), ("y",)))
    join = op == ","

    def pairs(a, b, rows):
        if join:        # (a vector joined to each number: one step, at any length)
            r = batching.joined_each(a, b, True) if rows == 2 \
                else batching.joined_each(b, a, False)
            if r is not None:
                return r
        if (b if rows & 2 else a).shape[0] < _FEWEST_PAIRS:
            return None         # (the loop over so few costs less than the batch's steps)
        return batched.pairs(body, a, b, (), rows)
    return pairs


# Each-Left and Each-Right of a primitive over fewer elements than this loop
_FEWEST_PAIRS = 3


def function_forms(fn):
    """The forms of a function value. A lambda's Python function is used as it is when the
    arity fits, and its literal's facts become the adverbs' shortcuts."""
    if _is_nilad(fn):
        # our extension: a nilad under an adverb (f'!n, f/x) is called with no arguments,
        # so f'!n runs f n times, as programs written for KlongPy expect
        return VerbForms(lambda a: call_value(fn, []), lambda a, b: call_value(fn, []))
    if not isinstance(fn, Lambda):
        monad = _projected_monad(fn) or (lambda a: call_value(fn, [a]))
        return VerbForms(monad, lambda a, b: call_value(fn, [a, b]),
                         whole_monad=_projected_whole(fn))
    run = fn.run
    monad = run if fn.arity == 1 else (lambda a: fn.call([a]))
    dyad = run if fn.arity == 2 else (lambda a, b: fn.call([a, b]))
    forms = VerbForms(monad, dyad)
    facts = fn.facts
    if facts.dyad_op is not None:
        entry = VERBS[facts.dyad_op]
        forms.fast = entry.reduce
        forms.whole_dyad = entry.dyad
    if facts.dot:
        forms.rows = wholearray.rows_dot
    if facts.joins is not None:
        forms.fold = wholearray.joined(facts.joins)
    if facts.fold_op is not None and fn.whole is not None:
        forms.fold = wholearray.mapped_fold(facts.fold_op, fn.whole, running=False)
        forms.scan_fold = wholearray.mapped_fold(facts.fold_op, fn.whole, running=True)
    if fn.arity == 2 and facts.fold_op is None and fn.whole is not None:
        forms.pairs = fn.whole      # (where the literal is a verb's {x+y}, Each is the verb)
        if forms.whole_dyad is None:
            forms.whole_dyad = lambda a, b: fn.whole(a, b, 3)
    if fn.arity != 1:
        return forms
    if facts.with_constant is not None:
        forms.strings = with_constant_each(*facts.with_constant)
    if facts.elementwise and fn.whole is None:
        forms.whole_monad = monad
    elif fn.backend is not None and not fn.backend.traces:
        forms.whole_monad = fn.whole    # (no trace to try: Each over a vector asks nothing more)
    else:
        forms.whole_monad = _first_of(fn.whole, wholearray.traced_each(fn))
    return forms


def with_constant_each(op, constant, x_right):
    """For a monad {c OP x} (x_right) or {x OP c} (LambdaFacts.with_constant): the verb
    applied to each of a list of strings (words, lines), an iterator whose calls are the
    library's map's, not the literal's: its body is the verb, and as strings cannot change,
    the Each that meets an error there runs its loop again to name it as the literal would.
    Where the verb makes a string of each string at once (structural.each_on_strings), the
    list of them."""
    on_strings = each_on_strings(op, constant, x_right)
    if on_strings is not None:
        return on_strings
    verb = VERBS[op].dyad
    if verb is None:
        return None             # (no dyadic form: the literal's call says so)
    if x_right:
        return lambda elems: map(verb, repeat(constant), elems)
    return lambda elems: map(verb, elems, repeat(constant))


def _is_nilad(fn):
    """A function that takes no argument at all (a Python callable with optional
    parameters still takes them)."""
    return isinstance(fn, Function) and getattr(fn, "most", fn.arity) == 0


def _first_of(*wholes):
    """A whole-array form trying `wholes` in turn (None: none of them applies)."""
    wholes = [w for w in wholes if w is not None]
    if len(wholes) < 2:
        return wholes[0] if wholes else None

    def whole(a):
        for w in wholes:
            r = w(a)
            if r is not None:
                return r
        return None
    return whole


def _predicate(p):
    return lambda v: call_value(p, [v])


MONADIC_ADVERBS = {
    "'": lambda v, a: adv.each(v.monad, a, v.whole_monad, v.strings, v.vectors, v.chars),
    "/": lambda v, a: adv.over(v.dyad, a, v.fast, v.fold),
    "\\": lambda v, a: adv.scan(v.dyad, a, v.fast, v.scan_fold),
    ":'": lambda v, a: adv.each_pair(v.dyad, a, v.whole_dyad),
    ":~": lambda v, a: adv.converge(v.monad, a),
    "\\~": lambda v, a: adv.scan_converge(v.monad, a),
}

DYADIC_ADVERBS = {
    "'": lambda v, a, b: adv.each2(v.dyad, a, b, v.whole_dyad),
    "/": lambda v, a, b: adv.over_neutral(v.dyad, a, b, v.fast),
    "\\": lambda v, a, b: adv.scan_neutral(v.dyad, a, b, DYADS[","]),
    ":\\": lambda v, a, b: adv.each_left(v.dyad, a, b, v.rows, v.pairs),
    ":/": lambda v, a, b: adv.each_right(v.dyad, a, b, v.rows, v.pairs),
    ":~": lambda v, a, b: adv.while_(v.monad, _predicate(a), b),
    "\\~": lambda v, a, b: adv.scan_while(v.monad, _predicate(a), b),
    ":*": lambda v, a, b: adv.iterate(v.monad, a, b),
    "\\*": lambda v, a, b: adv.scan_iterate(v.monad, a, b),
}


def _wrong_context(adverb):
    def fail(*args):
        raise KlongError("syntax", f"wrong adverb context: {adverb}")
    return fail


def derive(forms, adverb):
    """The verb `forms` modified by `adverb`, as new VerbForms."""
    plan = forms.batch
    if plan is not None and adverb == "'":
        # Each over the rows of a matrix: once for all of them, where the rules allow (a
        # plan of a primitive reads no names); derived when the code is made
        body = batched.compiled(plan)
        forms = replace(forms, whole_monad=_first_of(
            forms.whole_monad, lambda a: batched.each(body, a, ())))
    m = MONADIC_ADVERBS.get(adverb)
    d = DYADIC_ADVERBS.get(adverb)
    # (partial: a call of the derived verb is one Python frame less, at every Each)
    derived = VerbForms(partial(m, forms) if m else _wrong_context(adverb),
                        partial(d, forms) if d else _wrong_context(adverb))
    if forms.batch_op in batching.ADVERBS.get(adverb, ()):
        derived.batch = ("adverb", adverb, forms.batch_op, ("x",))
    return derived


def _projected_monad(fn):
    """A lambda of two arguments with one fixed (f(a;), f(;b)), as a monad calling the
    lambda's Python function directly: what the projection's call does, without making the
    list of arguments at every element of an Each (Gauss-Jordan's {y@x}(i;)'a). None for any
    other function."""
    if not _projected_dyad(fn):
        return None
    run = fn.fn.run
    first, second = fn.slots
    if first is None:
        return lambda a: run(a, second)
    return lambda a: run(first, a)


def _projected_dyad(fn):
    """Whether fn is a lambda of two arguments with one fixed (f(a;), f(;b))."""
    return isinstance(fn, Projection) and isinstance(fn.fn, Lambda) and fn.arity == 1 \
        and len(fn.slots) == 2 == fn.fn.arity


def _projected_whole(fn):
    """The whole-array form of a projection that _projected_monad calls directly, when its
    lambda has a batched form of pairs (forms.pairs of a lambda): Each of it over the rows
    of a matrix is that form with the fixed argument the same for every row, as Each-Left
    and Each-Right apply it ({y@x}(i;)'a, a column). None for any other function."""
    if not _projected_dyad(fn) or fn.fn.whole is None or fn.fn.facts.fold_op is not None:
        return None
    pairs = fn.fn.whole
    first, second = fn.slots
    if first is None:
        return lambda a: pairs(a, second, 1)
    return lambda a: pairs(first, a, 2)


def derived_forms(forms, adverbs):
    for a in adverbs:
        forms = derive(forms, a)
    return forms


def function_derived(fn, adverbs):
    """The function value fn modified by `adverbs`, as VerbForms. A lambda's are made once
    and kept on it: they depend only on its literal and its whole form (a recursion such as
    {:[@x;x;+/.f'x}} derives them at every call)."""
    if not isinstance(fn, Lambda):
        return derived_forms(function_forms(fn), adverbs)
    kept = fn.derived
    if kept is None:
        kept = fn.derived = {}
    key = adverbs if type(adverbs) is tuple else tuple(adverbs)
    forms = kept.get(key)
    if forms is None:
        forms = kept[key] = derived_forms(function_forms(fn), adverbs)
    return forms


def derived_caller(adverbs, arity):
    """f(fn, a) or f(fn, a, b): the function value fn modified by `adverbs`, applied."""
    adverbs = tuple(adverbs)        # (the key of the kept forms, made once)
    if arity == 1:
        if tuple(adverbs) == ("'",):
            return _each_of
        return lambda fn, a: function_derived(fn, adverbs).monad(a)
    if adverbs == ("'",):
        return _each2_of
    return lambda fn, a, b: function_derived(fn, adverbs).dyad(a, b)


def _each2_of(fn, a, b):
    """a fn'b. As _each_of, for a dyad literal with a batched form of pairs (what its
    forms' whole_dyad is, function_forms): that form is tried first on two numeric arrays
    of one length, and the loop runs where it declines, as adv.each2 would, without the
    forms made (a literal in an expression is a new value each time it runs)."""
    if type(fn) is Lambda and fn.arity == 2 and fn.whole is not None \
            and fn.facts.fold_op is None and fn.facts.dyad_op is None \
            and adv.numeric(a) and adv.numeric(b) and a.shape[0] == b.shape[0]:
        try:
            r = fn.whole(a, b, 3)
        except KlongError:
            r = None        # the loop raises the error as it names it (at its pair)
        return r if r is not None else adv.each2(fn.run, a, b)
    return function_derived(fn, ("'",)).dyad(a, b)


def sum_of_each(fn, a):
    """fn'a summed (+/fn'a, ir.SumOfEach): for a monadic function literal fn and a short
    list a that Each would loop over (a node of a tree of lists, {:[@x;x;+/.f'x]}), fn's
    results added from left to right where they are all integers or all reals, without
    the list of them made: the sum of so short a list is that fold (of integers exact
    either way; of reals, Backend.fold_reals adds SEQUENTIAL_ROWS or fewer from left to
    right). Elsewhere what fn'a gives, for +/ to sum as written: the caller knows it by
    its type (a sum is a Python int or float; fn'a of a list is a list)."""
    if type(fn) is Lambda and fn.arity == 1:
        if type(a) is list:
            elems = a
        elif isinstance(a, arrays.ARRAY_TYPES) and a.ndim and fn.whole is None \
                and wholearray.too_short_to_trace(a):
            elems = backends.current().items(a)
        else:
            elems = ()
        if 1 < len(elems) <= SEQUENTIAL_ROWS:
            run = fn.run
            results = [run(e) for e in elems]
            kind = type(results[0])
            if (kind is int or kind is float) and all(type(r) is kind for r in results):
                total = results[0]
                for r in results[1:]:
                    total = total + r
                return total
            return list_like(results, a)        # as Each gives them
    return _each_of(fn, a)


def each_for_effect(fn, a):
    """fn'a whose value is not read (a statement before the last of a sequence): a lambda's
    calls over the items of a list, in order, without their results gathered into a list
    in canonical form. Where Each would try a whole-array form first (the literal's own, an
    elementwise body, a trace) or `a` is a dictionary or an atom: fn'a itself."""
    if type(fn) is Lambda and fn.arity == 1 and fn.whole is None and not fn.facts.elementwise \
            and (fn.backend is None or not fn.backend.traces) \
            and not isinstance(a, Dict) and not is_atom(a):
        deque(map(fn.run, items(a)), maxlen=0)
        return None
    return _each_of(fn, a)


def _loop_only(fn, a):
    """Whether Each of the monad literal fn, which has no whole-array form, over `a` is the
    loop of fn's calls and nothing else (its forms would give no shortcut that applies): fn
    is not element-wise nor {c OP x}, and no trace is tried (`a` is no numeric array, or
    too short to trace, or the backend does not trace)."""
    facts = fn.facts
    return not facts.elementwise and facts.with_constant is None \
        and (not adv.numeric(a) or not backends.current().traces
             or wholearray.too_short_to_trace(a))


def _each_of(fn, a):
    """fn'a. A literal in an expression is a new value each time the expression runs, and
    making its forms costs more than a batched Each of a small matrix: for a monad with a
    whole-array form, that form is tried first, and the forms are made only where it
    declines (what they would do next: a trace of fn, then the loop); for one without,
    the loop at once where the forms would do nothing else (`{($x),","}'x` in a body)."""
    if type(fn) is Lambda and fn.arity == 1:
        if fn.whole is None:
            if _loop_only(fn, a):
                return adv.each(fn.run, a)
        elif adv.numeric(a):
            r = fn.whole(a)
            if r is not None:
                return r
            return adv.each(fn.run, a, wholearray.traced_each(fn))
    if type(fn) is Projection and adv.numeric(a):
        # a projection is made anew each time its expression runs (safe(x;)'!n): its
        # batched form of pairs first, the forms made only where it declines
        whole = _projected_whole(fn)
        if whole is not None:
            r = whole(a)
            return r if r is not None else adv.each(_projected_monad(fn), a)
    return function_derived(fn, ("'",)).monad(a)
