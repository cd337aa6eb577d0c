"""Batched forms of monads (ir.Batched): whether Each over the rows of a matrix may evaluate
a monad's body once for all rows, decided here once, from the verbs in it.

A body batches when it is made of nothing but x, numbers, names read around the literal,
its own locals assigned (at the top of a statement) before they are read, conditionals, and
verbs whose registry entry has a batching rule for the form applied (batch_monad,
batch_dyad; Over and Scan of the verbs in batching.ADVERBS), calls of a global that holds
one of the backend's element-wise math functions or a monad literal with a batched body of its
own as the body runs (that body then runs on the rows), or, called with two arguments, a
dyad literal with a batched body of its own, monads without one applied
to a value the same for every row (`!n`: the verb itself, once), and While of two literal
monads made of the same (p f:~s: every row's loop at once, the literals reading the locals
of the body around them that it assigned before; verbs/batched.py _while). Such a body has
no effects and calls nothing but pure math functions and bodies like it, so evaluating it
once on all rows does nothing the loop would not; what it gives is the loop's value or
nothing (verbs/batching.py: the rules decline at run time wherever a row's result could
differ, and then the loop runs).

A literal whose other whole form is a product (passes/wholes.py) keeps it; an element-wise
one (ir.Whole) is tried first, the batched form where it declines (a name holding a vector,
say). A dyad's
batched form (y being ("y",) in its plan) serves the dyadic Each, Each-left and Each-right:
Lambda.whole(x, y, rows), `rows` saying which of x and y hold one value per row (1: x, 2: y,
3: both). KLONG_BATCH=0 (the interpreter's `batch`) makes none.
"""
from ..lower import ir
from ...runtime import values
from ...verbs import VERBS, batching


def settle(fn):
    if fn.outer_params or "x" in fn.locals:
        return
    if fn.arity == 2:
        # x f'y, x f:\\y, x f:/y: the pairs of rows, a value with every row (a fold form,
        # {x+g(y)}, is kept as it is)
        if fn.whole is None and "y" not in fn.locals:
            found = _Plan(fn).body()
            if found is not None:
                fn.whole = ir.Batched(found[0], found[1], None, line=fn.line, column=fn.column)
                fn.facts.batched = True
        return
    if fn.arity != 1:
        return
    if fn.whole is not None and not isinstance(fn.whole, (ir.RowsDot, ir.Whole)):
        return      # a product: as it is
    # (+/x*u declines where u is not a vector, `{+/x*w}` of a matrix w: then the batch; an
    # element-wise form is tried first, and its batched body is what a call of the literal
    # in another batched body runs, `{sq(x)-1}'m`)
    found = _Plan(fn).body()
    if found is not None:
        plan, reads = found
        fn.whole = ir.Batched(plan, reads, fn.whole, line=fn.line, column=fn.column)
        fn.facts.batched = True


class _Plan:
    """The plan of one literal's body (see verbs/batching.py for what its tuples mean),
    with the nodes it reads around the literal. `reads`: the list of the literal around
    it, for a literal inside the body (an Each of it: ("each", its plan, operand)), which
    then may read globals only (the names it reads are read where the outer one is)."""

    def __init__(self, fn, reads=None, up=None):
        self.fn = fn
        self.nested = reads is not None
        self.reads = [] if reads is None else reads
        self.assigned = set()
        # the plan of the literal around, for a loop's literal (While): it reads the locals
        # that one has assigned before the loop, one value per row of the rows it runs on
        self.up = up

    def body(self):
        statements = []
        for s in self.fn.body:
            if isinstance(s, ir.SetLocal) and s.depth == 0 and s.name in self.fn.locals:
                value = self.expr(s.value)
                if value is None:
                    return None
                self.assigned.add(s.name)
                statements.append(("set", s.name, value))
            else:
                value = self.expr(s)
                if value is None:
                    return None
                statements.append(value)
        return ("seq", tuple(statements)), self.reads

    def expr(self, node):
        """`node` as a plan, or None where it does not batch."""
        if isinstance(node, ir.Const):
            v = node.value
            if type(v) in (int, float) or values.is_array(v) and v.ndim \
                    and values.array_kind(v) in ("i", "f"):
                return ("const", v)
            return None
        if isinstance(node, ir.Local) and node.depth == 0:
            if node.name == "x":
                return ("x",)
            if node.name == "y" and self.fn.arity == 2:
                return ("y",)
            return ("get", node.name) if node.name in self.assigned else None
        if isinstance(node, ir.Local) and node.depth == 1 and self.up is not None:
            return ("up", node.name) if node.name in self.up.assigned else None
        if isinstance(node, (ir.Global, ir.Local)):
            if self.nested and not isinstance(node, ir.Global):
                return None     # a local of a literal around: not readable where it runs
            self.reads.append(node)
            return ("read", len(self.reads) - 1)
        if isinstance(node, ir.Monad):
            return self._applied(node, [node.arg])
        if isinstance(node, ir.Dyad):
            return self._applied(node, [node.left, node.right])
        if isinstance(node, ir.Call) and len(node.args) == 1 and isinstance(node.fn, ir.Global):
            # f(a) of a global f: batched where f is, as the body runs, one of the backend's
            # element-wise math functions (.bkf("tanh")) or a monad literal with a batched
            # body of its own, else declined (verbs/batched.py _call)
            fn, arg = self.expr(node.fn), self.expr(node.args[0])
            return None if fn is None or arg is None else ("call", fn, arg)
        if isinstance(node, ir.Call) and len(node.args) == 2 and isinstance(node.fn, ir.Global) \
                and None not in node.args:
            # f(a;b) of a global f: batched where f holds, as the body runs, a dyad literal
            # with a batched body of its own, else declined (verbs/batched.py _call_dyad)
            fn, left, right = (self.expr(n) for n in (node.fn, *node.args))
            return None if None in (fn, left, right) else ("call2", fn, left, right)
        if isinstance(node, ir.Cond):
            clauses = tuple((self.expr(p), self.expr(c)) for p, c in node.clauses)
            otherwise = self.expr(node.otherwise)
            if otherwise is None or any(None in pair for pair in clauses):
                return None
            return ("cond", clauses, otherwise)
        return None

    def _applied(self, node, operands):
        verb = node.verb
        if len(operands) == 1 and verb.adverbs and verb.adverbs[-1] == "'":
            inner = self._each(verb)
            arg = None if inner is None else self.expr(operands[0])
            return None if arg is None else ("each", inner, arg)
        if len(operands) == 2 and tuple(verb.adverbs) == (":~",):
            return self._while(verb.fn, operands[0], operands[1])
        if verb.op is None or verb.fn is not None:
            return None
        entry = VERBS.get(verb.op)
        if entry is None:
            return None
        if verb.adverbs:
            if len(verb.adverbs) != 1 or len(operands) != 1 \
                    or verb.op not in batching.ADVERBS.get(verb.adverbs[0], ()):
                return None
            head = ("adverb", verb.adverbs[0], verb.op)
        else:
            head = ("monad" if len(operands) == 1 else "dyad", verb.op)
        args = [self.expr(n) for n in operands]
        if None in args:
            return None
        if not verb.adverbs and (entry.batch_monad if len(operands) == 1
                                 else entry.batch_dyad) is None:
            # no rule: only a monad of a plain operand (the same for every row, `!n`), which
            # the batch applies once as the loop applies it to each row (monads call nothing)
            if len(operands) != 1 or not (_plain(args[0]) or _shape_of_row(args[0])):
                return None
        return head + tuple(args)

    def _while(self, fn, predicate, start):
        """p f:~s of literal monads p and f (verbs/batched.py runs both on the rows still
        looping until none is), or None."""
        plans = []
        for literal in (predicate, fn):
            if not _loop_literal(literal):
                return None
            found = _Plan(literal, self.reads, self).body()
            if found is None:
                return None
            plans.append(found[0])
        init = self.expr(start)
        if init is None:
            return None
        return ("while", plans[0], plans[1], init, tuple(sorted(_ups(plans))))

    def _each(self, verb):
        """The plan of the monad that Each applies in the body (f of f'v), or None: a
        primitive with a batching rule, or Over or Scan of one, or a literal monad."""
        adverbs = verb.adverbs[:-1]
        if verb.fn is not None:
            fn = verb.fn
            if adverbs or not isinstance(fn, ir.Lambda) or fn.arity != 1 or fn.outer_params \
                    or "x" in fn.locals:
                return None
            found = _Plan(fn, self.reads).body()
            return None if found is None else found[0]
        entry = VERBS.get(verb.op)
        if entry is None:
            return None
        if not adverbs:
            return ("monad", verb.op, ("x",)) if entry.batch_monad is not None else None
        if len(adverbs) == 1 and verb.op in batching.ADVERBS.get(adverbs[0], ()):
            return ("adverb", adverbs[0], verb.op, ("x",))
        return None


def _loop_literal(fn):
    """A literal monad a batched loop may run: its x its own."""
    return isinstance(fn, ir.Lambda) and fn.arity == 1 and not fn.outer_params \
        and "x" not in fn.locals


def _ups(plan):
    """The names of the literal around that the plans read (("up", name))."""
    if type(plan) is not tuple and type(plan) is not list:
        return set()
    if len(plan) == 2 and plan[0] == "up":
        return {plan[1]}
    if plan and plan[0] == "while":
        return _ups(plan[3])        # (its literals read the locals of the body it is in)
    found = set()
    for p in plan:
        found |= _ups(p)
    return found


def _plain(plan):
    """Whether a plan's value is the same for every row: it reads neither x, y nor a local."""
    if type(plan) is not tuple:
        return True             # a constant's value, an index, a name
    if plan and plan[0] in ("x", "y", "get", "up"):
        return False
    return all(_plain(p) for p in plan)


def _shape_of_row(plan):
    """Whether a plan is the tally or shape of a row (`!#x`): a value the same for every row
    as it runs (the rules of # and ^ give a plain value; where one does not, the monad
    without a rule declines, batched.py)."""
    return plan[0] == "monad" and plan[1] in ("#", "^")
