"""Rewrites of applications: loops of function literals run inline, +/a*b, +/f'x, a@&m and
,/:#a."""
from ..lower import ir
from .shapes import plus_over_times


def inlinable(fn):
    """A monadic literal whose body can run inline, in the code that applies it: it does not
    name itself (.f), and its locals, fresh in every call, need no fresh start at every step
    (_set_before_read)."""
    return isinstance(fn, ir.Lambda) and fn.arity == 1 and not fn.outer_params \
        and not fn.facts.names_self and (not fn.locals or _set_before_read(fn))


def _set_before_read(fn):
    """Each local of the literal `fn` is assigned by a statement of its body, at its top,
    before any statement reads it, and no literal nested in the body can keep it: run inline,
    a step then never sees what the step before left in it ({[m];m::(+/x):%2;...})."""
    if any(n in fn.params for n in fn.locals):
        return False
    own = set(fn.locals)
    assigned = set()
    for statement in fn.body:
        for n in ir.walk(statement):
            if isinstance(n, ir.Lambda):
                return False
            if isinstance(n, ir.Local) and n.depth == 0 and n.name in own \
                    and n.name not in assigned:
                return False
        if isinstance(statement, ir.SetLocal) and statement.depth == 0:
            assigned.add(statement.name)
    return True


# (the node's class, its one adverb) -> the loop it becomes, given the node, the literal f
# run inline and the node's position; the scanning adverbs' loops collect every value
_LOOPS = {
    (ir.Dyad, ":~"): lambda n, f, at: ir.While(n.left, f, n.right, n.verb, inlinable(n.left), **at),
    (ir.Monad, ":~"): lambda n, f, at: ir.Converge(f, n.arg, n.verb, **at),
    (ir.Dyad, ":*"): lambda n, f, at: ir.Iterate(n.left, f, n.right, n.verb, **at),
    (ir.Dyad, "\\~"): lambda n, f, at: ir.While(n.left, f, n.right, n.verb, inlinable(n.left),
                                               scan=True, **at),
    (ir.Monad, "\\~"): lambda n, f, at: ir.Converge(f, n.arg, n.verb, scan=True, **at),
    (ir.Dyad, "\\*"): lambda n, f, at: ir.Iterate(n.left, f, n.right, n.verb, scan=True, **at),
}


def inline_loop(node):
    """While (p f:~a), Converge (f:~a) and Iterate (n f:*a) of a function literal f, and
    their scans (p f\\~a, f\\~a, n f\\*a), as a loop running f's body inline (and p's, when p
    is a literal that can run inline)."""
    if not isinstance(node, ir.Applied):
        return None
    verb = node.verb
    if len(verb.adverbs) != 1 or not inlinable(verb.fn):
        return None
    make = _LOOPS.get((type(node), verb.adverbs[0]))
    return None if make is None else make(node, verb.fn, {"line": node.line, "column": node.column})


def sum_of_products(node):
    """+/a*b as one node: the library's inner product where it gives Klong's result."""
    pair = plus_over_times(node)
    if pair is None:
        return None
    return ir.SumOfProducts(pair[0], pair[1], node.arg.verb, node.verb,
                            line=node.line, column=node.column)


def sum_of_each(node):
    """+/f'x, f a function value, as one node: its results summed as they come."""
    if isinstance(node, ir.Monad) and node.verb.op == "+" and node.verb.adverbs == ["/"]:
        each = node.arg
        if isinstance(each, ir.Monad) and each.verb.fn is not None \
                and each.verb.adverbs == ["'"]:
            return ir.SumOfEach(each, node.verb, node.label, line=node.line,
                                column=node.column)
    return None


def compress(node):
    """a@&m, a a variable, as one node: a mask's items picked at once. Only a variable: its
    value read before Where runs cannot differ from the one read after."""
    if isinstance(node, ir.Dyad) and node.verb.primitive and node.verb.op == "@" \
            and isinstance(node.left, (ir.Local, ir.Global)):
        where = node.right
        if isinstance(where, ir.Monad) and where.verb.primitive and where.verb.op == "&":
            return ir.Compress(node.left, where.arg, node.verb, where.verb,
                               (node.label, where.label), line=node.line, column=node.column)


def joined_chars(node):
    """,/:#a as one node: the text of the codes a without the list of characters made."""
    if isinstance(node, ir.Monad) and node.verb.op == "," and node.verb.adverbs == ["/"]:
        chars = node.arg
        if isinstance(chars, ir.Monad) and chars.verb.primitive and chars.verb.op == ":#":
            return ir.JoinedChars(chars.arg, chars.verb, node.verb, (chars.label, node.label),
                                  line=node.line, column=node.column)
    return None
