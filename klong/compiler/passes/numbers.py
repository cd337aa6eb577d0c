"""Where a value is known to be a plain Python number, a verb's scalar form needs no test
of its operands' types (Monad.numbers, Dyad.numbers).

Known are integer and real constants, the results of scalar forms on known numbers, and
the variable of a loop of a function literal (While, Converge, Iterate) when its first value
is a known number and the literal's body keeps it the same kind: the loop in
`{x<10000}{x+1}:~0` then runs on Python integers with no test at all. A variable assigned
anywhere in the code that reads it is never assumed to keep its kind.

A function literal whose parameters are used that way gets a second body for integer
arguments (`integer_entry`, Lambda.integer_body): there its parameters are known integers,
and a call of itself with integers (through `.f`, or the global it is defined under when
it has no effects and reads no other global) gives what that body gives, an integer when
every branch does. `fib::{:[x<2;x;fib(x-1)+fib(x-2)]}` then runs without a type test.

Likewise a literal whose parameters feed two or more scalar forms gets a body for real
arguments (`real_entry`, Lambda.real_body): a loss like `{((x-3)^2)+1}`, called with a
Python float at each step of a numeric descent, then tests its argument's type once.
"""
from ..lower import ir
from ...verbs import VERBS
from .rewrite import copied

INT, REAL = "int", "real"

# the kind of a scalar form's result from its operands' kinds (all known)
_SAME = lambda kinds: INT if all(k == INT for k in kinds) else REAL   # noqa: E731
_RESULT = {
    ("+", 2): _SAME, ("-", 2): _SAME, ("*", 2): _SAME, ("|", 2): _SAME, ("&", 2): _SAME,
    ("<", 2): lambda kinds: INT, (">", 2): lambda kinds: INT, ("=", 2): lambda kinds: INT,
    ("-", 1): _SAME, ("~", 1): lambda kinds: INT,
    ("^", 2): "power",
}
_POWER = _RESULT[("^", 2)]


def _power_rule(operands):
    """x^n is a real for a real x and a constant integer n > 0, in the scalar form's range
    or not (x^0 is the integer 1, 0.0^-1 undefined): the rule where n is such a constant."""
    exponent = operands[0]              # (a dyad's operands come right one first)
    if isinstance(exponent, ir.Const) and type(exponent.value) is int and exponent.value > 0:
        return lambda kinds: REAL if kinds[1] == REAL else None
    return None


def settle(chunk):
    """Mark the verbs applied to known numbers in `chunk` (after the loop rewrites)."""
    _Kinds({}).kind(chunk)


class _Itself:
    """The function whose integer body is being written: calls of it with integers give
    `returns` (INT, or None: not known)."""
    __slots__ = ("fn", "key", "returns")

    def __init__(self, fn, key, returns):
        self.fn, self.key, self.returns = fn, key, returns

    def called_by(self, call):
        f = call.fn
        return len(call.args) == self.fn.arity and (
            isinstance(f, ir.Self) or self.key is not None and isinstance(f, ir.Global)
            and f.key == self.key)


def integer_entry(fn):
    """Give the literal `fn` its integer body where it calls itself with integers (each
    such call then goes straight to that body, past the entry's test of the arguments)."""
    if fn.arity == 0:
        return
    facts = fn.facts
    key = fn.defined_as if fn.defined_as is not None and not facts.effects \
        and facts.reads <= {fn.defined_as} else None
    known = {p: INT for p in fn.params}
    probe = _Probe(known, _Itself(fn, key, INT))
    returns = INT if probe.statements(fn.body) == INT else None
    body = [copied(s) for s in fn.body]
    marker = _Kinds(known, _Itself(fn, key, returns))
    marker.statements(body)
    calls = [n for s in body for n in ir.walk(s, enter=False)
             if isinstance(n, ir.Call) and n.to_self]
    if calls:
        fn.integer_body = body
        fn.integer_key = key if any(isinstance(c.fn, ir.Global) for c in calls) else None


def real_entry(fn):
    """Give the literal `fn` its body for real arguments where that spares at least two
    tests of an operand's type (one is what the entry's own test costs), and where no
    literal inside it would be written out twice."""
    if fn.arity == 0 or any(isinstance(n, ir.Lambda) for s in fn.body for n in ir.walk(s)):
        return                  # (a literal inside would be written out twice)
    body = [copied(s) for s in fn.body]
    marker = _Counted({p: REAL for p in fn.params})
    marker.statements(body)
    if marker.marked >= 2:
        fn.real_body = body


def _assigned(fn):
    """The names a literal's own body assigns to its variables, nested literals included."""
    names = set()
    stack = [(s, 0) for s in fn.body]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, ir.SetLocal) and node.depth == depth:
            names.add(node.name)
        inner = depth + 1 if isinstance(node, ir.Lambda) else depth
        stack.extend((c, inner) for c in ir.children(node))
    return names


class _Kinds:
    """The kinds of the variables of the code being looked at: {name: INT or REAL}; and
    `itself`, the function whose integer body this is (or None)."""

    def __init__(self, known, itself=None):
        self.known = known
        self.itself = itself

    def kind(self, node):
        """The kind of `node`'s value when it is a known number, else None; marks the
        verbs below it on the way."""
        method = getattr(self, "k_" + type(node).__name__, None)
        if method is not None:
            return method(node)
        for child in ir.children(node):
            self.kind(child)
        return None

    def k_Const(self, node):
        t = type(node.value)
        return INT if t is int else REAL if t is float else None

    def k_Local(self, node):
        return self.known.get(node.name) if node.depth == 0 else None

    def k_Keep(self, node):
        return self.kind(node.value)

    def k_Lambda(self, node):
        _Kinds({}).body(node)           # its parameters could be anything
        return None

    def body(self, fn):
        self.statements(fn.body)

    def statements(self, stmts):
        """Mark the statements; the kind of the last one's value."""
        kind = None
        for s in stmts:
            kind = self.kind(s)
        return kind

    def k_Call(self, node):
        self.kind(node.fn)
        kinds = [self.kind(a) for a in node.args]
        if self.itself is not None and all(k == INT for k in kinds) \
                and self.itself.called_by(node):
            self.mark_self_call(node)
            return self.itself.returns
        return None

    def mark_self_call(self, node):
        node.to_self = True

    def mark_numbers(self, node):
        node.numbers = True

    def k_Monad(self, node):
        return self.applied(node, [node.arg])

    def k_Dyad(self, node):
        return self.applied(node, [node.right, node.left])

    def applied(self, node, operands):
        self.kind(node.verb)
        kinds = [self.kind(o) for o in operands]
        rule = _RESULT.get((node.verb.op, len(operands))) if node.verb.primitive else None
        if rule is _POWER:
            rule = _power_rule(operands)
        if rule is None or None in kinds or not _scalar_form(node):
            return None
        self.mark_numbers(node)
        return rule(kinds)

    def k_Cond(self, node):
        kinds = set()
        for predicate, consequent in node.clauses:
            self.kind(predicate)
            kinds.add(self.kind(consequent))
        kinds.add(self.kind(node.otherwise))
        return kinds.pop() if len(kinds) == 1 else None

    def k_Seq(self, node):
        kinds = [self.kind(e) for e in node.exprs]
        return kinds[-1]

    # loops of literals run inline: their parameter is the loop's variable
    def k_While(self, node):
        start = self.kind(node.init)
        kind = self.loop(node.body, start)
        if node.inline_predicate:
            self.inline(node.predicate, kind)
        else:
            self.kind(node.predicate)
        return None if node.scan else kind

    def k_Converge(self, node):
        kind = self.loop(node.body, self.kind(node.init))
        return None if node.scan else kind     # (a scan gives a list)

    def k_Iterate(self, node):
        self.kind(node.count)
        kind = self.loop(node.body, self.kind(node.init))
        return None if node.scan else kind

    def loop(self, body, start):
        """The kind the loop variable keeps (None: not known) once `body` is marked."""
        kind = start
        if kind is not None and self.inline_kind(body, kind) != kind:
            kind = None
        self.inline(body, kind)
        return kind

    def inline_kind(self, fn, kind):
        """What the literal `fn` gives, run inline with x of `kind` (marking nothing)."""
        probe = _Probe({"x": kind} if "x" not in _assigned(fn) else {}, self.itself)
        for s in fn.body[:-1]:
            probe.kind(s)
        return probe.kind(fn.body[-1])

    def inline(self, fn, kind):
        known = {"x": kind} if kind is not None and "x" not in _assigned(fn) else {}
        _Kinds(known, self.itself).body(fn)


class _Counted(_Kinds):
    """Marks, counting the verbs marked (nested literals' not included: their own bodies
    are marked apart)."""

    def __init__(self, known):
        super().__init__(known)
        self.marked = 0

    def mark_numbers(self, node):
        node.numbers = True
        self.marked += 1


class _Probe(_Kinds):
    """Kinds without marking: for asking what a loop's body would give."""

    def k_Lambda(self, node):
        return None

    def inline(self, fn, kind):
        pass

    def mark_self_call(self, node):
        pass

    def mark_numbers(self, node):
        pass


def _scalar_form(node):
    entry = VERBS.get(node.verb.op)
    if entry is None:
        return False
    return bool(entry.scalar_monad if isinstance(node, ir.Monad) else entry.scalar_dyad)
