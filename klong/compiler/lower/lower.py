"""The syntax tree lowered to the IR (ir.py): the one place that reads the tree for meaning.

Names are resolved here, statically: a parameter or declared local of a function literal
around the name becomes a `Local` so many literals out, anything else a `Global` under the
name modules give it (language.md 6.5). Constants are put on the interpreter's backend, the
verbs' error labels are settled, and each function literal gets its facts: whether it has
effects, which globals it reads, whether it names itself.

A chunk is lowered for one interpreter, when it is about to run: what lowering needs of it
(which key a global is stored under, constants on its backend) it asks through
`Surroundings`, which the engine gives (compiler/engine.py).
"""
from typing import Protocol

from ...verbs import adverbs as adv
from ...errors import KlongError
from ..syntax import ast
from ...runtime.functions import LambdaFacts
from ...runtime.limits import INT64_MAX, INT64_MIN
from ...runtime.values import array_kind, is_array
from ... import backends
from ...verbs import VERBS
from . import ir
from .scope import Scope


class Surroundings(Protocol):
    """What lowering needs of the interpreter it lowers for."""

    globals: dict       # where the globals live (a lambda's facts look its reads up there)

    def global_key(self, name):
        """The key the global `name`, read here, is stored under (modules rename names)."""

    def assignment_keys(self, name, top_level):
        """The keys an assignment of the global `name` stores its value under."""

    def constant(self, value):
        """The constant `value` of the source on the interpreter's backend."""

    def allows_elements(self, n):
        """Whether the interpreter's size guard lets a list of n elements be made."""


def lower(node, surroundings):
    """The IR of the parsed chunk `node`, for the interpreter `surroundings` speaks for."""
    return Lowering(surroundings).chunk(node)


def verb_label(verb, arity):
    """How an error message names a verb node: 'times', 'plus over', 'f each' ..."""
    words = []
    for a in reversed(verb.adverbs):          # the last adverb is applied outermost
        words.append(adv.NAMES.get(a, (a, a))[arity - 1] or a)
        arity = (adv.MONADIC_USE if arity == 1 else adv.DYADIC_USE).get(a, arity)
    if verb.op is not None:
        entry = VERBS.get(verb.op)
        base = entry.name(arity) if entry else verb.op
    else:
        base = verb.fn.name if isinstance(verb.fn, ast.Name) else None
    return " ".join(([base] if base else []) + words[::-1]) or "call"


def _joined_ints(node):
    """The integers of a join of integer constants that fit int64 (0,0,1 or [1 2],3), as a
    list, or None for any other node: such a join is its constant vector, made once when
    lowered instead of at every run (where the size guard allows it, as Join would)."""
    if isinstance(node, ast.Const):
        v = node.value
        if type(v) is int:
            return [v] if INT64_MIN <= v <= INT64_MAX else None
        if is_array(v) and v.ndim == 1 and v.shape[0] and array_kind(v) == "i":
            return v.tolist()
        return None
    if isinstance(node, ast.Dyad) and node.verb.op == "," and not node.verb.adverbs:
        right = _joined_ints(node.right)
        left = _joined_ints(node.left) if right is not None else None
        return None if left is None else left + right
    return None


def _at(node):
    return {"line": node.line, "column": node.column}


class _Literal:
    """A function literal being lowered: its scope and the facts gathered so far."""
    __slots__ = ("scope", "effects", "reads", "names_self", "outer", "param_reads")

    def __init__(self, scope):
        self.scope = scope
        self.effects = False
        self.outer = False
        self.param_reads = {}       # x, y, z -> how often the literal's body reads it
        self.reads = set()
        self.names_self = False


class Lowering:
    def __init__(self, surroundings):
        self.surroundings = surroundings
        self.literals = []          # the function literals around the node, outermost first
        self.lambdas = []           # every one lowered, each after those nested in it

    def chunk(self, node):
        return ir.Chunk(self.lower(node), self.lambdas, **_at(node))

    def lower(self, node):
        return getattr(self, "l_" + type(node).__name__)(node)

    @property
    def in_function(self):
        return bool(self.literals)

    def resolve(self, name):
        """(depth, name) for a variable of a literal around here, or (None, the global)."""
        depth = self.literals[-1].scope.depth_of(name) if self.literals else None
        return (depth, name) if depth is not None else (None, self.surroundings.global_key(name))

    # -- leaves
    def l_Const(self, node):
        return ir.Const(self.surroundings.constant(node.value), **_at(node))

    def l_DictLit(self, node):
        constant = self.surroundings.constant
        pairs = [(constant(k), constant(v)) for k, v in node.pairs]
        return ir.DictLit(pairs, **_at(node))

    def l_Name(self, node):
        if node.name == ".f":
            if not self.in_function:
                return ir.Const([], **_at(node))
            self.literals[-1].names_self = True
            return ir.Self(**_at(node))
        depth, key = self.resolve(node.name)
        if depth is None:
            for literal in self.literals:
                literal.reads.add(key)
            return ir.Global(node.name, key, **_at(node))
        for literal in self.literals[len(self.literals) - depth:] if depth else ():
            literal.outer = True        # reads a variable of a literal around it
        if key in ("x", "y", "z"):
            owner = self.literals[len(self.literals) - 1 - depth].param_reads
            owner[key] = owner.get(key, 0) + 1
        return ir.Local(key, depth, **_at(node))

    # -- calls
    def l_Apply(self, node):
        fn = self.lower(node.fn)
        if node.is_projection:
            slots = [None if a is None else self.lower(a) for a in node.args]
            return ir.Project(fn, slots, **_at(node))
        args = [self.lower(a) for a in node.args]
        callee = node.fn.name if isinstance(node.fn, ast.Name) else None
        return ir.Call(fn, args, callee, **_at(node))

    def verb(self, verb, arity):
        """The IR verb of a verb node applied to `arity` operands: an operator must have
        that form (a compile-time syntax error otherwise)."""
        op = verb.op
        if op is not None and not verb.adverbs:
            entry = VERBS.get(op)
            if arity == 1 and (entry is None or entry.monad is None and entry.host_monad is None):
                raise KlongError("syntax", f"{op} has no monadic form", verb.line, verb.column)
            if arity == 2 and (entry is None or entry.dyad is None):
                raise KlongError("syntax", f"{op} has no dyadic form", verb.line, verb.column)
        fn = self.lower(verb.fn) if verb.fn is not None else None
        return ir.Verb(op, fn, list(verb.adverbs), **_at(verb))

    def l_Monad(self, node):
        verb = self.verb(node.verb, 1)
        return ir.Monad(verb, self.lower(node.arg), label=verb_label(node.verb, 1), **_at(node))

    def l_Dyad(self, node):
        verb = node.verb
        if verb.op == "::" and not verb.adverbs:
            return self.assignment(node)
        entry = VERBS.get(verb.op) if verb.op is not None and not verb.adverbs else None
        if entry is not None and entry.host_dyad is not None:
            return self.differentiation(node, entry.host_dyad)
        if verb.op == "," and not verb.adverbs:
            ints = _joined_ints(node)
            # (a pair is left as written: Join makes it unguarded, and a,k,v is a JoinEntry)
            if ints is not None and len(ints) > 2 and self.surroundings.allows_elements(len(ints)):
                return ir.Const(self.surroundings.constant(backends.HOST.asarray(ints, "i")),
                                **_at(node))
        lowered = self.verb(verb, 2)
        return ir.Dyad(lowered, self.lower(node.left), self.lower(node.right),
                       label=verb_label(verb, 2), **_at(node))

    def differentiation(self, node, host):
        """f:>p, p∇f and p∂f, applied as the registry's HostForm `host` says. A bare global
        name as its point selects variable mode (system.md B.2)."""
        point = getattr(node, host.point) if host.point is not None else None
        variable = None
        if isinstance(point, ast.Name) and point.name != ".f":
            depth, key = self.resolve(point.name)
            if depth is None:
                variable = key
        return ir.Differentiate(node.verb.op, self.lower(node.left), self.lower(node.right),
                                variable, **_at(node.verb))

    # -- structure
    def l_Seq(self, node):
        return ir.Seq([self.lower(e) for e in node.exprs], **_at(node))

    def l_Cond(self, node):
        clauses = [(self.lower(p), self.lower(c)) for p, c in node.clauses]
        return ir.Cond(clauses, self.lower(node.otherwise), **_at(node))

    def l_Lambda(self, node, name=None, defined_as=None):
        outer = self.literals[-1].scope if self.literals else None
        literal = _Literal(Scope(outer, node))
        self.literals.append(literal)
        try:
            body = [self.lower(s) for s in node.body]
        finally:
            self.literals.pop()
        # a parameter read only as a statement whose value is dropped ({x;...}) is unused
        dropped = [s.name for s in node.body[:-1] if isinstance(s, ast.Name)]
        unused = tuple(i for i, p in enumerate(("x", "y", "z")[:node.arity])
                       if literal.param_reads.get(p, 0) == dropped.count(p))
        facts = LambdaFacts(node.arity, node.source, name, effects=literal.effects,
                            reads=frozenset(literal.reads), names_self=literal.names_self,
                            outer=literal.outer, unused=unused,
                            globals=self.surroundings.globals)
        fn = ir.Lambda(facts, list(node.locals), body, defined_as, list(node.outer_params),
                       **_at(node))
        self.lambdas.append(fn)
        return fn

    # -- assignment
    def assignment(self, node):
        name = node.left.name
        if isinstance(node.right, ast.Lambda):
            depth, key = self.resolve(name)
            value = self.l_Lambda(node.right, name, key if depth is None else None)
        else:
            value = self.lower(node.right)
        depth, key = self.resolve(name) if self.in_function else (None, None)
        if depth is not None:
            # a variable of a literal around this one: an effect of the literals in between
            for literal in self.literals[len(self.literals) - depth:]:
                literal.effects = literal.outer = True
            return ir.SetLocal(key, depth, value, **_at(node))
        for literal in self.literals:
            literal.effects = True
        keys = self.surroundings.assignment_keys(name, top_level=not self.in_function)
        return ir.SetGlobal(name, keys, value, self.in_function, **_at(node))
