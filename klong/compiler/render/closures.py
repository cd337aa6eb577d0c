"""The IR made runnable as Python closures, one rule per node.

`render(chunk, interp)` gives a callable `run(None)` for one lowered chunk (after the
passes). Every node becomes a closure `run(fr)` once, when its chunk is read, and running a
function never looks at IR nodes again. `fr` is the frame of the running Klong function (a
dict: see functions.py; None at top level): a `Local` of depth d is read d frames up the
lexical chain (PARENT), which the IR settled when it was lowered.

A literal run inline by a loop (While, Converge, Iterate) gets a frame of its own per run,
as a call would give it, and errors leaving it name it as a call would. A function literal's
whole-array form (Lambda.whole) becomes `Lambda.whole`, made with the function value, so the
adverbs take the same shortcuts as in generated code.
"""
import functools

from ...verbs import adverbs as adv
from ...backends import has_math_function
from ...errors import KlongError, undefined, undefined_assignment
from ...runtime.functions import PARENT, SELF, Lambda, call_value, frame_runner, project
from ..lower import ir
from ...runtime.match import match
from ...runtime.values import Dict, Function, is_true, make_list
from ...verbs import VERBS
from . import common
from ...verbs import batched, inplace, structural, wholearray
from ...verbs.atomic import joined_chars
from ...verbs import progressions as later
from ..passes import progressions
from ...verbs.compiled import frame_out, shown_as_function, verb_failure
from ...verbs.forms import derived_caller, derived_forms, function_derived, op_forms, \
    sum_of_each


def render(chunk, interp):
    """The chunk (an ir.Chunk) as a closure: run(None) gives its value."""
    return Renderer(interp).render(chunk.body)


_UNSET = object()       # what a dictionary lookup gives for a missing key
_INLINE_MONAD = shown_as_function(1)    # a predicate run inline, in an error's operands


class Renderer:
    def __init__(self, interp):
        self.interp = interp

    def render(self, node):
        return getattr(self, "r_" + type(node).__name__)(node)

    # -- leaves
    def r_Const(self, node):
        value = node.value
        return lambda fr: value

    def r_DictLit(self, node):
        pairs = node.pairs
        return lambda fr: Dict(pairs)

    def r_Keep(self, node):
        return self.render(node.value)

    def r_Kept(self, node):
        # evaluated again: a closure keeps no value from one node to another
        return self.render(node.expr)

    def r_Global(self, node):
        name, key, line, column = node.name, node.key, node.line, node.column
        g = self.interp.globals

        def read_global(fr):
            value = g.get(key, _UNSET)
            if value is _UNSET:
                raise undefined(name, g, line, column, has_math_function)
            return value
        return read_global

    def r_Local(self, node):
        name, depth, line, column = node.name, node.depth, node.line, node.column

        def read_local(fr):
            try:
                return fr[name]
            except KeyError:
                raise undefined(name, None, line, column) from None
        if depth == 0:
            return read_local

        return lambda fr: read_local(frame_out(fr, depth))

    def r_Self(self, node):
        return lambda fr: fr[SELF]

    # -- structure
    def r_Seq(self, node):
        return _sequence([self.render(e) for e in node.exprs])

    def r_Cond(self, node):
        clauses = [(self.render(p), self.render(c)) for p, c in node.clauses]
        otherwise = self.render(node.otherwise)

        def run(fr):
            for pred, then in clauses:
                p = pred(fr)
                if (p != 0) if type(p) is int else is_true(p):
                    return then(fr)
            return otherwise(fr)
        return run

    def r_Lambda(self, node):
        body = _sequence([self.render(s) for s in node.body])
        facts = node.facts
        backend = self.interp.backend
        whole = self.whole_maker(node.whole)

        if whole is None:
            def make(fr):
                lam = Lambda(None, facts, None, backend)
                lam.runs(frame_runner(body, lam, fr))
                return lam
            return make

        def make_with_whole(fr):
            lam = Lambda(None, facts, whole(fr), backend)
            lam.runs(frame_runner(body, lam, fr))
            return lam
        return make_with_whole

    # -- calls
    def r_Call(self, node):
        fn = self.render(node.fn)
        args = [self.render(a) for a in node.args]
        line, column, callee = node.line, node.column, node.callee
        if len(args) == 1:
            arg = args[0]

            def run_1(fr):
                v = arg(fr)
                f = fn(fr)
                try:
                    if type(f) is Lambda and f.arity == 1:
                        return f.run(v)
                    return call_value(f, [v], callee)
                except KlongError as e:
                    raise e.located(line, column, None)
            return run_1

        def run(fr):
            values = [a(fr) for a in args]
            f = fn(fr)
            try:
                if isinstance(f, Function):       # (one Python frame less per Klong call)
                    return f.call(values)
                return call_value(f, values, callee)
            except KlongError as e:
                raise e.located(line, column, None)
        return run

    def r_Project(self, node):
        fn = self.render(node.fn)
        slots = [None if s is None else self.render(s) for s in node.slots]

        def run(fr):
            values = [None if s is None else s(fr) for s in slots]
            return project(fn(fr), values)
        return run

    # -- verbs
    def r_Monad(self, node):
        verb, arg, label = node.verb, self.render(node.arg), node.label
        line, column = verb.line, verb.column
        if verb.fn is not None:
            fn, apply = self.render(verb.fn), derived_caller(verb.adverbs, 1)
            tried = common.whole_first(verb.fn) if list(verb.adverbs) == ["'"] else None
            if tried is not None:
                # Each of a literal with a whole form (`{x@2}'m`, `{x|0.0}'m`): that form
                # first, the literal's value made only where it gives no result (as
                # pysource.py; "guarded": only on a numeric array)
                whole = self.whole_maker(verb.fn.whole)
                bare = tried == "bare"

                def run_batched(fr):
                    a = arg(fr)
                    try:
                        r = whole(fr)(a) if bare or adv.numeric(a) else None
                        return apply(fn(fr), a) if r is None else r
                    except KlongError as e:
                        raise e.at_verb(line, column, label, a)
                return run_batched

            def run_dynamic(fr):
                a = arg(fr)
                try:
                    return apply(fn(fr), a)
                except KlongError as e:
                    raise e.at_verb(line, column, label, a)
            return run_dynamic
        if verb.adverbs:
            f = derived_forms(op_forms(verb.op, self.interp.batch), verb.adverbs).monad
        else:
            f = _scalar_monad(verb.op) or common.monad(verb.op, self.interp)

        def run(fr):
            a = arg(fr)
            try:
                return f(a)
            except KlongError as e:
                raise e.at_verb(line, column, label, a)
        return run

    def r_Dyad(self, node):
        if progressions.chain_side(node) is not None:
            return self.progression(node, True)
        verb, label = node.verb, node.label
        left, right = self.render(node.left), self.render(node.right)
        line, column = verb.line, verb.column
        if verb.fn is not None:
            forms = self.dynamic_forms(verb)

            def run_dynamic(fr):
                b = right(fr)
                a = left(fr)
                try:
                    return forms(fr).dyad(a, b)
                except KlongError as e:
                    raise e.at_verb(line, column, label, [a, b])
            return run_dynamic
        if verb.adverbs:
            f = derived_forms(op_forms(verb.op, self.interp.batch), verb.adverbs).dyad
        else:
            number = isinstance(node.right, ir.Const) \
                and wholearray.is_python_number(node.right.value)
            f = _scalar_dyad(verb.op, number) or common.dyad(verb.op)
        if isinstance(node.right, ir.Const):
            if isinstance(node.left, ir.Local) and node.left.depth == 0:
                return _local_dyad_of_constant(f, node.left, node.right.value, line,
                                               column, label)
        return _dyad(f, left, right, line, column, label)

    def progression(self, node, last):
        """A marked chain of + - * around an Enumerate (passes/progressions.py), as
        pysource.py's `progression` renders it."""
        side, enumerate_ = progressions.chain_side(node)
        chained = node.left if side == "left" else node.right
        if enumerate_:
            verb, label = chained.verb, chained.label
            arg = self.render(chained.arg)
            line, column = verb.line, verb.column

            def link(fr):
                a = arg(fr)
                try:
                    return later.enumerate_later(a)
                except KlongError as e:             # (as r_Monad's)
                    raise e.at_verb(line, column, label, a)
        else:
            link = self.progression(chained, False)
        left = link if side == "left" else self.render(node.left)
        right = link if side == "right" else self.render(node.right)
        f = later.dyad(node.verb.op, node.label, last)
        return _dyad(f, left, right, node.verb.line, node.verb.column, node.label)

    def dynamic_forms(self, verb):
        """A closure giving the VerbForms of a function-valued verb at run time."""
        fn = self.render(verb.fn)
        adverbs = tuple(verb.adverbs)
        return lambda fr: function_derived(fn(fr), adverbs)

    def r_Differentiate(self, node):
        # the differentiation operators' messages say what failed: no verb is named
        return _dyad(common.differentiation(node, self.interp), self.render(node.left),
                     self.render(node.right), node.line, node.column, "")

    # -- assignment
    def r_SetLocal(self, node):
        if node.in_place:
            return self.update_local(node)
        value, name, depth = self.render(node.value), node.name, node.depth
        hooks = self.interp.value_hooks

        def set_local(fr):
            v = value(fr)
            frame_out(fr, depth)[name] = v
            if hooks:
                hooks.fire(name, v)
            return v
        return set_local

    def r_SetGlobal(self, node):
        if node.in_place:
            return self.update_global(node)
        value, name, keys = self.render(node.value), node.name, node.keys
        inside_function, line, column = node.in_function, node.line, node.column
        interp = self.interp
        g, hooks = interp.globals, interp.value_hooks

        def set_global(fr):
            v = value(fr)
            if inside_function and interp.strict and keys[0] not in g:
                raise undefined_assignment(name, line, column)
            for k in keys:
                g[k] = v
            if hooks:
                hooks.fire(name, v)
            return v
        return set_global

    def update_parts(self, dyad):
        """The right operand's closure, the update function, the op and the label of the
        Amend of an update: a marked join (passes/progressions.py) is written where it
        points, by an update of inplace.update's shape."""
        if progressions.joined(dyad):
            return (self.progression(dyad.right, False), later.update(dyad.label),
                    dyad.verb.op, dyad.label)
        return self.render(dyad.right), inplace.update, dyad.verb.op, dyad.label

    # name::name:=b (passes/updates.py): inplace.update writes the variable's array when
    # nothing holds it but the variable's slot and the local `a` here
    def update_local(self, node):
        dyad, name, depth = node.value, node.name, node.depth
        right, update, op, label = self.update_parts(dyad)
        line, column = dyad.verb.line, dyad.verb.column
        at = (dyad.left.line, dyad.left.column)
        hooks = self.interp.value_hooks

        def update_local(fr):
            b = right(fr)
            frame = frame_out(fr, depth)
            try:
                a = frame[name]
            except KeyError:
                raise undefined(name, None, *at) from None
            try:
                v = update(a, b, 2, op)
            except (KlongError, OverflowError) as e:
                raise verb_failure(e, line, column, label, [a, b]) from None
            frame[name] = v
            if hooks:
                hooks.fire(name, v)
            return v
        return update_local

    def update_global(self, node):
        dyad, name, key = node.value, node.name, node.keys[0]
        right, update, op, label = self.update_parts(dyad)
        line, column = dyad.verb.line, dyad.verb.column
        at = (dyad.left.line, dyad.left.column)
        g, hooks = self.interp.globals, self.interp.value_hooks

        def update_global(fr):
            b = right(fr)
            a = g.get(key, _UNSET)
            if a is _UNSET:
                raise undefined(name, g, *at, has_math_function)
            try:
                v = update(a, b, 2, op)
            except (KlongError, OverflowError) as e:
                raise verb_failure(e, line, column, label, [a, b]) from None
            g[key] = v
            if hooks:
                hooks.fire(name, v)
            return v
        return update_global

    # -- what the passes make
    def r_SumOfProducts(self, node):
        """+/a*b: the library's inner product of two real vectors, else the product (a
        fresh array, which the sum may overwrite) and its sum, each failing as itself."""
        left, right = self.render(node.left), self.render(node.right)
        times, over = node.times, node.over
        multiply = VERBS["*"].dyad
        plus_over = derived_forms(op_forms("+"), ["/"]).monad

        def run(fr):
            b = right(fr)
            a = left(fr)
            r = wholearray.dot(a, b)
            if r is not None:
                return r
            try:
                p = multiply(a, b)
            except KlongError as e:
                raise e.at_verb(times.line, times.column, "times", [a, b])
            try:
                r = wholearray.sum_of_product(p)
                return plus_over(p) if r is None else r
            except KlongError as e:
                raise e.at_verb(over.line, over.column, "plus over", p)
        return run

    def r_Compress(self, node):
        """a@&m: the items of a at the mask m's 1s at once (verbs/structural.py, compress),
        else Where and At as written, each failing as itself. A mask that is a comparison
        (`x@&x<y`) is first tried as the library's truths (compress_compared), as
        pysource.py's r_Compress does."""
        left = self.render(node.left)
        expand, at = common.monad("&", self.interp), common.dyad("@")
        (at_label, expand_label), at_verb, expand_verb = node.labels, node.at, node.expand
        compress = structural.compress

        def written(a, m):
            r = compress(a, m)
            if r is not None:
                return r
            positions = _placed(expand_verb, expand_label, expand, m)
            return _placed(at_verb, at_label, at, a, positions)
        compared = common.comparison(node.mask)
        if compared is None:
            mask_of = self.render(node.mask)

            def run(fr):
                m = mask_of(fr)
                return written(left(fr), m)
            return run
        first, second = self.render(compared.right), self.render(compared.left)
        op, verb, label = common.COMPARED[compared.verb.op], compared.verb, compared.label
        compare, compress_compared = common.dyad(verb.op), structural.compress_compared

        def run_compared(fr):
            c = first(fr)               # (the comparison's right operand first, as _dyad)
            b = second(fr)
            a = left(fr)
            r = compress_compared(a, op, b, c)
            if r is not None:
                return r
            return written(a, _placed(verb, label, compare, b, c))
        return run_compared

    def r_JoinedChars(self, node):
        """,/:#a: the text of the codes at once, else Char and Join-Over, each failing as
        itself."""
        arg = self.render(node.arg)
        chars = common.monad(":#", self.interp)
        join_over = derived_forms(op_forms(",", self.interp.batch), ["/"]).monad
        (chars_verb, over), (chars_label, over_label) = (node.chars, node.over), node.labels

        def run(fr):
            a = arg(fr)
            r = joined_chars(a)
            if r is not None:
                return r
            listed = _placed(chars_verb, chars_label, chars, a)
            return _placed(over, over_label, join_over, listed)
        return run

    def r_SumOfEach(self, node):
        """+/f'x: f's results summed as they come (verbs/forms.py, sum_of_each), else the
        list f'x gave summed as written, each failing as itself."""
        each = node.each
        arg, fn = self.render(each.arg), self.render(each.verb.fn)
        plus_over = derived_forms(op_forms("+", self.interp.batch), ["/"]).monad
        line, column, label = each.verb.line, each.verb.column, each.label
        over, over_label = node.over, node.label

        def run(fr):
            a = arg(fr)
            try:
                r = sum_of_each(fn(fr), a)
            except KlongError as e:
                raise e.at_verb(line, column, label, a)
            if type(r) is int or type(r) is float:
                return r
            try:
                return plus_over(r)
            except KlongError as e:
                raise e.at_verb(over.line, over.column, over_label, r)
        return run

    def r_JoinEntry(self, node):
        """a,k,v: the entry put into a dictionary a directly, else the two joins, each
        failing as itself."""
        left, key, value = self.render(node.left), self.render(node.key), self.render(node.value)
        join = common.dyad(",")
        outer, inner = node.outer, node.inner
        outer_label, inner_label = node.labels

        def run(fr):
            v = value(fr)
            k = key(fr)
            a = left(fr)
            r = structural.join_entry(a, k, v)
            if r is not None:
                return r
            pair = _placed(inner, inner_label, join, k, v)
            return _placed(outer, outer_label, join, a, pair)
        return run

    def inline(self, fn):
        """A function literal run inline by a loop: start(fr), once per run of the loop,
        gives step(v), the literal's body run on v in a frame of its own inside `fr`,
        failing as if the literal had been called."""
        body = _sequence([self.render(s) for s in fn.body])
        label = fn.facts.label()
        # a function value made in the body keeps its frame, and locals start unset
        fresh = bool(fn.locals) or any(isinstance(n, ir.Lambda) for s in fn.body
                                       for n in ir.walk(s))

        def start(fr):
            if fresh:
                def step(v):
                    try:
                        return body({"x": v, PARENT: fr})
                    except KlongError as e:
                        raise e.within(label)
                return step
            frame = {PARENT: fr}    # else nothing keeps it: one frame serves every step

            def step_in_frame(v):
                frame["x"] = v
                try:
                    return body(frame)
                except KlongError as e:
                    raise e.within(label)
            return step_in_frame
        return start

    def r_While(self, node):
        if node.scan:
            return self.scan_while(node)
        init, body = self.render(node.init), self.inline(node.body)
        line, column = node.verb.line, node.verb.column
        if node.inline_predicate:
            test = self.inline(node.predicate)

            def run_inline(fr):
                v = init(fr)
                p_step, f_step = test(fr), body(fr)
                while True:
                    p = p_step(v)
                    if not ((p != 0) if type(p) is int else is_true(p)):
                        return v
                    v = f_step(v)
            return run_inline
        predicate = self.render(node.predicate)

        def run(fr):
            v = init(fr)
            f = predicate(fr)
            step = body(fr)
            while True:
                try:
                    p = call_value(f, [v], None)
                except KlongError as e:
                    raise e.at_verb(line, column, "while")
                if not ((p != 0) if type(p) is int else is_true(p)):
                    return v
                v = step(v)
        return run

    def scan_while(self, node):
        """p f\\~b: the values of the While loop that p tests true, in a list."""
        init, body = self.render(node.init), self.inline(node.body)
        line, column = node.verb.line, node.verb.column
        if node.inline_predicate:
            test = self.inline(node.predicate)
            predicate = None
        else:
            test = None
            predicate = self.render(node.predicate)

        def run(fr):
            v = b = init(fr)
            if test is not None:
                p_step = test(fr)
                f = _INLINE_MONAD
            else:
                f = predicate(fr)

                def p_step(v):
                    try:
                        return call_value(f, [v], None)
                    except KlongError as e:     # (named as the adverb's call names it)
                        raise e.at_verb(line, column, "scan-while", [f, b])
            f_step = body(fr)
            parts, add = adv.scan_start(None)
            while True:
                p = p_step(v)
                if not ((p != 0) if type(p) is int else is_true(p)):
                    return make_list(parts)
                try:
                    add(v)
                except KlongError as e:
                    raise e.at_verb(line, column, "scan-while", [f, b])
                v = f_step(v)
        return run

    def r_Converge(self, node):
        init, body = self.render(node.init), self.inline(node.body)
        if node.scan:
            return self.scan_converge(node, init, body)

        def run(fr):
            v = init(fr)
            step = body(fr)
            while True:
                r = step(v)
                if (r == v) if type(r) is int and type(v) is int else match(r, v):
                    return r
                v = r
        return run

    @staticmethod
    def scan_converge(node, init, body):
        """f\\~a: the values of the Converge loop, in a list."""
        line, column = node.verb.line, node.verb.column

        def run(fr):
            v = b = init(fr)
            step = body(fr)
            parts, add = adv.scan_start(None)
            while True:
                try:
                    add(v)
                except KlongError as e:     # (named as the adverb's call names it)
                    raise e.at_verb(line, column, "scan-converging", b)
                r = step(v)
                if (r == v) if type(r) is int and type(v) is int else match(r, v):
                    return make_list(parts)
                v = r
        return run

    def r_Iterate(self, node):
        init, count, body = self.render(node.init), self.render(node.count), \
            self.inline(node.body)
        line, column = node.verb.line, node.verb.column
        scan = node.scan

        def run(fr):
            v = init(fr)
            n = count(fr)
            try:
                times = adv.iterations(n)
                if scan and times:
                    parts, add = adv.scan_start(times + 1)
            except KlongError as e:
                if scan:
                    raise e.at_verb(line, column, "scan-iterating", [n, v])
                raise e.at_verb(line, column, "iterate", n)
            step = body(fr)
            if not (scan and times):
                for _ in range(times):
                    v = step(v)
                return v
            b = v
            try:
                add(v)
                for _ in range(times):
                    v = step(v)
                    add(v)
            except KlongError as e:     # (named as the adverb's call names it, where the
                # error is the gathering's own: an error of the literal names the literal)
                raise e.at_verb(line, column, "scan-iterating", [n, b])
            return make_list(parts)
        return run

    # -- whole-array forms (Lambda.whole)
    def whole_maker(self, form):
        """make(fr), giving the whole-array form of a function value made in the frame fr
        (a Python function of the array, None where it declines), or None: no form."""
        if form is None:
            return None
        return getattr(self, "whole_" + type(form).__name__)(form)

    def whole_Whole(self, form):
        expr = self.elementwise(form.expr)

        def make(fr):
            outer = {PARENT: fr}        # where the literal's outer names are read

            def whole(a):
                try:
                    return wholearray.whole_result(expr(a, outer), a)
                except Exception:   # any failure (a zero divisor in a branch not taken ...)
                    return None     # means the loop, which evaluates as Klong does
            return whole
        return make

    def whole_RowsProduct(self, form):
        matrix = self.render(form.matrix)
        dot = None if form.dot is None else self.render(form.dot)

        def make(fr):
            outer = {PARENT: fr}

            def whole(a):
                try:
                    if dot is not None and not wholearray.is_dot(dot(outer)):
                        return None
                    return wholearray.rows_product(a, matrix(outer))
                except Exception:
                    return None
            return whole
        return make

    def whole_RowsDot(self, form):
        vector = self.render(form.vector)

        def make(fr):
            outer = {PARENT: fr}

            def whole(a):
                try:
                    return wholearray.rows_dot(a, vector(outer))
                except Exception:
                    return None
            return whole
        return make

    def whole_Batched(self, form):
        reads = [self.render(n) for n in form.reads]
        body = batched.compiled(form.plan)
        first = self.whole_maker(form.first)
        # hooks see each row's assignment to a local: the loop runs while any is registered
        hooks = self.interp.value_hooks if batched.assigns(form.plan) else None

        def make(fr):
            outer = {PARENT: fr}
            tried = None if first is None else first(fr)

            def whole(a, *pair, caller=None):
                if tried is not None and caller is None:
                    r = tried(a)
                    if r is not None:
                        return r
                if hooks:
                    return None
                try:
                    names = [read(outer) for read in reads]
                except Exception:       # (a name not defined: the loop says so)
                    return None
                if caller is not None:  # a call in another batched body (LambdaFacts.batched)
                    try:
                        return batched.called(body, a, names, caller, *pair[:1])
                    except Exception:   # (Declined, or a row's error: the loop's)
                        return None
                if pair:                # a dyad's: (y, rows), see passes/batching.py
                    return batched.pairs(body, a, pair[0], names, pair[1])
                return batched.each(body, a, names)
            return whole
        return make

    def elementwise(self, node):
        """f(a, outer): the node `node` of a Whole's expression evaluated on all of the
        numeric array a at once, names around the literal read from the frame `outer`; it
        raises _Declined (or anything else) where that gives no whole-array result."""
        return getattr(self, "e_" + type(node).__name__)(node)

    def e_Const(self, node):
        value = node.value
        return lambda a, outer: value

    def e_Elements(self, node):
        return lambda a, outer: a

    def e_Scalar(self, node):
        read = self.render(node.read)

        def number(a, outer):
            v = read(outer)
            if not wholearray.is_python_number(v):
                raise _Declined
            return v
        return number

    def e_Map(self, node):
        if len(node.args) == 1:
            m, arg = VERBS[node.op].monad, self.elementwise(node.args[0])
            return lambda a, outer: m(arg(a, outer))
        d = VERBS[node.op].dyad
        left, right = (self.elementwise(n) for n in node.args)

        def dyad(a, outer):
            r = right(a, outer)
            return d(left(a, outer), r)
        return dyad

    def e_Joined(self, node):
        texts, text, before = self.elementwise(node.texts), node.text, node.before
        return lambda a, outer: wholearray.joined_texts(texts(a, outer), text, before)

    def e_Select(self, node):
        """select(c, a, b), clause by clause from the last."""
        otherwise = self.elementwise(node.otherwise)
        clauses = [(self.elementwise(p), self.elementwise(c)) for p, c in reversed(node.clauses)]

        def run(a, outer):
            result = otherwise(a, outer)
            for predicate, consequent in clauses:
                choice = wholearray.mask(predicate(a, outer), a)
                if choice is None:
                    raise _Declined
                result = wholearray.select(choice, consequent(a, outer), result)
                if result is None:
                    raise _Declined
            return result
        return run


class _Declined(Exception):
    """A whole-array form gives no result for this array: the loop runs."""


def _placed(verb, label, f, *operands):
    """f(*operands), a Klong error from it (or an overflow of a scalar form) placed at the
    verb node `verb` (named `label`): the written verbs a fused node falls back on
    (Compress, JoinedChars, JoinEntry) fail as themselves."""
    try:
        return f(*operands)
    except (KlongError, OverflowError) as e:
        raise verb_failure(e, verb.line, verb.column, label,
                           operands[0] if len(operands) == 1 else list(operands)) from None


# Each verb's scalar forms are made the first time a chunk applies the verb: compiling them
# all when the module loads took a tenth of its import, a start-up cost of every run.

@functools.cache
def _scalar_monad(op):
    """The monad `op` with the verb's own expression for a plain Python number (its
    `scalar_monad`) tried first; None for a verb without one."""
    entry = VERBS.get(op)
    if entry is None or not entry.scalar_monad:
        return None
    fast = entry.scalar_monad.format(a="a")
    return eval(f"lambda a: ({fast}) if type(a) is int or type(a) is float else monad(a)",
                {"monad": entry.monad})


@functools.cache
def _scalar_dyad(op, number_right):
    """The dyad `op` with the verb's own expression for two plain Python numbers (its
    `scalar_dyad`, under its `scalar_guard`) tried first; None for a verb without one.
    `number_right`: the right operand is always one (a constant)."""
    entry = VERBS.get(op)
    if entry is None or not entry.scalar_dyad:
        return None
    test = "(type(a) is int or type(a) is float)"
    if not number_right:
        test += " and (type(b) is int or type(b) is float)"
    if entry.scalar_guard:
        test += " and " + entry.scalar_guard.format(a="a", b="b")
    fast = entry.scalar_dyad.format(a="a", b="b")
    return eval(f"lambda a, b: ({fast}) if {test} else dyad(a, b)", {"dyad": entry.dyad})


def _local_dyad_of_constant(f, local, b, line, column, label):
    """_dyad for a variable of the running literal and a constant: x+1, x<2 (read here,
    saving the calls of the two operands' closures)."""
    name, at = local.name, (local.line, local.column)

    def run(fr):
        try:
            a = fr[name]
        except KeyError:
            raise undefined(name, None, *at) from None
        try:
            return f(a, b)
        except (KlongError, OverflowError) as e:
            raise verb_failure(e, line, column, label, [a, b]) from None
    return run


def _dyad(f, left, right, line, column, label):
    """The closure applying the dyad f: right operand first, then left (language.md 3.3).
    A failure is named after `label` ("": the verb's own messages say enough)."""
    def run(fr):
        b = right(fr)
        a = left(fr)
        try:
            return f(a, b)
        except (KlongError, OverflowError) as e:
            raise verb_failure(e, line, column, label, [a, b]) from None
    return run


def _sequence(stmts):
    if len(stmts) == 1:
        return stmts[0]

    def run(fr):
        for s in stmts[:-1]:
            s(fr)
        return stmts[-1](fr)
    return run
