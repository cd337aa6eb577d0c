"""A value a conditional's predicate computes, computed again by its consequent, taken from
the predicate instead: `:[:_d?x;1;1+d?x]` (counting into a dictionary) looks `d?x` up once.

Only where nothing can tell: the predicate and the consequent are made of constants,
variables read and verbs that neither call a function nor change a value (no Join, which
inserts into a dictionary, no Amend, no At or Index-in-Depth, which may call a function, no
adverb), so nothing between the two evaluations can change what the repeated expression
gives, and it gives the same value, or fails in the predicate first, as it did before.

The predicate's expression becomes Keep (its value named by `slot`), the consequent's
copies Kept. Generated code reads the predicate's temporary; closures evaluate `Kept.expr`
again, as before (they are the fallback, and keep no value between two nodes)."""
import math

from ..lower import ir

# the verbs that call nothing and change nothing
_PURE_MONADS = frozenset({"!", "#", "$", "%", "&", "*", "+", ",", "-", ":#", ":_", "<", "=",
                          ">", "?", "@", "^", "_", "|", "~"})
_PURE_DYADS = frozenset({"!", "#", "$", "%", "&", "*", "+", "-", ":#", ":$", ":%", ":+",
                         ":^", ":_", "<", "=", ">", "?", "^", "_", "|", "~"})


class Slots:
    """Numbers the kept values of one chunk."""

    def __init__(self):
        self.count = 0

    def rule(self, node):
        """The rewrite rule: the Cond `node` with its predicates' values that are computed
        again after them shared (the same node), or None where there are none."""
        if not isinstance(node, ir.Cond):
            return None
        # the parts in the order they may run: a predicate, then its consequent or the
        # parts after it
        parts = [part for clause in node.clauses for part in clause] + [node.otherwise]
        changed = False
        for i in range(0, len(parts) - 1, 2):
            if _pure(parts[i]):
                changed = self.share(parts, i) or changed
        if not changed:
            return None
        node.clauses = [(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]
        node.otherwise = parts[-1]
        return node

    def share(self, parts, i):
        """Keeps the largest verb applications of the predicate parts[i] that a part run
        after it repeats (in parts, in place): its consequent, the later predicates while
        they are pure, their consequents and the otherwise branch after pure predicates
        only (what runs between the two must not change the value). Whether any is kept."""
        later = [j for j in [i + 1] + _after(parts, i) if _pure(parts[j])]
        found = False

        def visit(n):
            nonlocal found
            if not isinstance(n, (ir.Monad, ir.Dyad)):
                return n
            # (not the predicate itself: a comparison there is tested without a value made)
            if n is not parts[i] and _shareable(n) and any(_replace(parts[j], n)[1] for j in later):
                self.count += 1
                for j in later:
                    parts[j] = _replace(parts[j], n, self.count)[0]
                found = True
                return ir.Keep(self.count, n, line=n.line, column=n.column)
            return ir.map_children(n, visit)

        parts[i] = visit(parts[i])
        return found


def _after(parts, i):
    """The parts that may run after the predicate parts[i] has given false, as long as
    every predicate before them is pure."""
    out = []
    for j in range(i + 2, len(parts), 2):
        if j == len(parts) - 1:             # the otherwise branch
            out.append(j)
            break
        if not _pure(parts[j]):
            break
        out += [j, j + 1]
    return out


def _pure(n):
    """Whether evaluating `n` calls no function and changes no value."""
    if isinstance(n, (ir.Const, ir.Local, ir.Global, ir.Kept)):
        return True
    if isinstance(n, ir.Keep):
        return _pure(n.value)
    if isinstance(n, ir.Monad):
        return n.verb.primitive and n.verb.op in _PURE_MONADS and _pure(n.arg)
    if isinstance(n, ir.Dyad):
        return n.verb.primitive and n.verb.op in _PURE_DYADS and _pure(n.left) \
            and _pure(n.right)
    if isinstance(n, ir.Cond):
        return all(_pure(p) and _pure(c) for p, c in n.clauses) and _pure(n.otherwise)
    return False


def _shareable(n):
    """A verb application whose value may be kept: no part of it is an arithmetic
    progression's (passes/progressions.py: its dyads give Progressions to each other)."""
    for m in ir.walk(n):
        if isinstance(m, ir.Dyad) and m.progression \
                or isinstance(m, ir.Monad) and m.verb.op == "!":
            return False
    return True


def _replace(n, target, slot=None):
    """(n with the nodes equal to `target` made Kept(slot), how many there were); with slot
    None, only counted, nothing replaced."""
    if _same(n, target):
        if slot is None:
            return n, 1
        return ir.Kept(slot, n, line=n.line, column=n.column), 1
    if isinstance(n, (ir.Keep, ir.Kept)):
        return n, 0
    hits = 0

    def each(c):
        nonlocal hits
        r, h = _replace(c, target, slot)
        hits += h
        return r
    if slot is None:
        for c in ir.children(n):
            each(c)
        return n, hits
    return ir.map_children(n, each), hits


def _same(a, b):
    """Whether two pure nodes always give the same value."""
    if type(a) is not type(b):
        return False
    if isinstance(a, ir.Const):
        return _same_constant(a.value, b.value)
    if isinstance(a, ir.Local):
        return (a.name, a.depth) == (b.name, b.depth)
    if isinstance(a, ir.Global):
        return a.key == b.key
    if isinstance(a, ir.Monad):
        return a.verb.primitive and b.verb.primitive and a.verb.op == b.verb.op \
            and _same(a.arg, b.arg)
    if isinstance(a, ir.Dyad):
        return a.verb.primitive and b.verb.primitive and a.verb.op == b.verb.op \
            and _same(a.left, b.left) and _same(a.right, b.right)
    return False


def _same_constant(a, b):
    if type(a) is not type(b):
        return a is b
    if type(a) is float:        # (-0.0 is not 0.0)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if type(a) in (int, str):
        return a == b
    return a is b
