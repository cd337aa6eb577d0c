"""The Klong AST. Every node carries the line and column where it starts."""
from typing import Any, List, Optional

from ...runtime.records import field, record

PARAMS = ("x", "y", "z")        # a function literal's parameters, as it reads them


@record
class Node:
    line: int = field(default=0, kw_only=True, compare=False)
    column: int = field(default=0, kw_only=True, compare=False)


@record
class Const(Node):
    value: Any


@record
class DictLit(Node):
    pairs: list          # (key, value) constants; each evaluation builds a fresh dictionary


@record
class Name(Node):
    name: str


@record
class Apply(Node):
    """f(a;b): a call, or a projection when some argument slots are empty (None)."""
    fn: Node
    args: List[Optional[Node]]

    @property
    def is_projection(self):
        return any(a is None for a in self.args)


@record
class Lambda(Node):
    """A function literal. `outer_params` are the names among x, y, z that an enclosing
    function declares local: here they name that variable, not a parameter."""
    body: List[Node]
    locals: List[str]
    arity: int
    outer_params: List[str] = field(default_factory=list, kw_only=True)
    span: Any = field(default=None, compare=False)      # (start, end) offsets in the chunk
    source: Optional[str] = field(default=None, compare=False)   # its text, braces included


@record
class Cond(Node):
    clauses: List[tuple]      # (predicate, consequent) pairs
    otherwise: Node


@record
class Seq(Node):
    exprs: List[Node]


@record
class Verb(Node):
    """A verb: an operator symbol (op) or a function-valued node (fn), plus its adverbs."""
    op: Optional[str]
    fn: Optional[Node]
    adverbs: List[str]


@record
class Monad(Node):
    verb: Verb
    arg: Node


@record
class Dyad(Node):
    verb: Verb
    left: Node
    right: Node


def children(n):
    """The nodes directly below `n` (a function literal's: its statements)."""
    if isinstance(n, Apply):
        return [a for a in (n.fn, *n.args) if a is not None]
    if isinstance(n, Seq):
        return n.exprs
    if isinstance(n, Cond):
        return [x for pair in n.clauses for x in pair] + [n.otherwise]
    if isinstance(n, Monad):
        return [n.verb, n.arg]
    if isinstance(n, Dyad):
        return [n.verb, n.left, n.right]
    if isinstance(n, Verb):
        return [n.fn] if n.fn is not None else []
    if isinstance(n, Lambda):
        return n.body
    return []


def walk(node, enter=True, children=children, literal=Lambda):
    """`node` and every node below it, not entering the function literals nested in it (they
    are given, not their insides); `node` itself, a literal, is entered unless not `enter`.
    With the `children` and `literal` class of another tree it walks that one (the IR)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, literal) and (n is not node or not enter):
            continue
        stack.extend(children(n))
