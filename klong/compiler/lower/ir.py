"""The intermediate form (IR) a chunk of Klong is lowered to, once (lower/lower.py).

Everything a renderer needs to know is in the nodes: which variable a name is (a local so
many function literals out, or the global it names once modules have renamed it), which
verb, adverbs or call a node is, what a failure there is called, and what is known of each
function literal (`Facts`). Renderers (render/) turn the IR into something runnable one rule
per node; passes (passes/) rewrite it by rules before that. Neither reads the syntax tree.

Every node keeps the line and column of the Klong source it came from (0: none).
"""
from dataclasses import dataclass, field
from typing import Any, List, Optional

from ..syntax.ast import PARAMS
from ..syntax.ast import walk as syntax_walk


@dataclass(eq=False)
class Node:
    line: int = field(default=0, kw_only=True)
    column: int = field(default=0, kw_only=True)


# ------------------------------------------------------------------ values and names

@dataclass(eq=False)
class Const(Node):
    """A constant, already on the interpreter's backend."""
    value: Any


@dataclass(eq=False)
class DictLit(Node):
    """A dictionary literal: each evaluation builds a fresh dictionary of these pairs."""
    pairs: list


@dataclass(eq=False)
class Local(Node):
    """A variable of the function literal `depth` literals out (0: the one the name is in):
    one of its parameters x, y, z or a declared local."""
    name: str
    depth: int


@dataclass(eq=False)
class Global(Node):
    """A global variable: `key` is the name it is stored under (modules rename names)."""
    name: str
    key: str


@dataclass(eq=False)
class Self(Node):
    """.f inside a function literal: the running function itself."""


# ------------------------------------------------------------------ calls and verbs

@dataclass(eq=False)
class Call(Node):
    """fn(args...): `callee` is the Klong name the function is read from, for messages.
    `to_self` (in a Facts.integer_body only): a call of the function itself with integers,
    which goes straight to that body again."""
    fn: Node
    args: List[Node]
    callee: Optional[str] = None
    to_self: bool = False


@dataclass(eq=False)
class Project(Node):
    """fn(a;;c): a projection; the empty slots are None."""
    fn: Node
    slots: List[Optional[Node]]


@dataclass(eq=False)
class Verb(Node):
    """A verb: an operator `op` or a function-valued node `fn`, with its adverbs (the last
    one applied outermost). Its position is the operator's."""
    op: Optional[str]
    fn: Optional[Node]
    adverbs: List[str]

    @property
    def primitive(self):
        """An operator without adverbs."""
        return self.op is not None and not self.adverbs


@dataclass(eq=False)
class Monad(Node):
    """verb applied to one operand; `label` names the verb in error messages. `numbers`
    (set by passes/numbers.py): the operand is known to be a plain Python number, so the
    verb's scalar form applies without a test of its type."""
    verb: Verb
    arg: Node
    label: str = ""
    numbers: bool = False


@dataclass(eq=False)
class Dyad(Node):
    """verb applied to two operands (the right one is evaluated first); `numbers` as for
    Monad, both operands."""
    verb: Verb
    left: Node
    right: Node
    label: str = ""
    numbers: bool = False


@dataclass(eq=False)
class Differentiate(Node):
    """f:>p (op ':>'), p∇f ('∇') or p∂f ('∂'). `variable` is the global a bare name as the
    point names (variable mode, system.md B.2), else None. Positioned at the operator."""
    op: str
    left: Node
    right: Node
    variable: Optional[str] = None


# ------------------------------------------------------------------ assignment and structure

@dataclass(eq=False)
class SetLocal(Node):
    """name::value for a variable of the literal `depth` literals out."""
    name: str
    depth: int
    value: Node


@dataclass(eq=False)
class SetGlobal(Node):
    """name::value for a global, stored under every one of `keys` (a module's definitions
    also under their private names). Inside a function (`in_function`), a strict
    interpreter refuses a global that does not exist yet."""
    name: str
    keys: List[str]
    value: Node
    in_function: bool = False


@dataclass(eq=False)
class Cond(Node):
    """:[p;c;...;a]: (predicate, consequent) pairs, then what holds otherwise."""
    clauses: List[tuple]
    otherwise: Node


@dataclass(eq=False)
class Seq(Node):
    """Expressions evaluated in turn; the value is the last one's."""
    exprs: List[Node]


@dataclass(eq=False)
class Facts:
    """What is known of a function literal, for every value made from it.

    effects    it assigns something other than its own variables (a global, or a
               variable of a literal around it), here or in a literal nested in it
    reads      the globals it reads (nested literals included): functions among them may
               have effects of their own, which only the running program can tell
    names_self it reads .f (so its body cannot run inline, in the code that applies it)

    Set by the passes (passes/):
    dyad_op     '+' for {x+y}: the body is exactly x OP y, OP a numeric atomic verb
    elementwise applied to a numeric array it equals applying it to each element
    dot         it is the inner product of its arguments ({+/x*y})
    fold_op     '+' or '*' for a dyad {x+g(y)} or {x*g(y)} whose `whole` is g's
    whole       a whole-array form (Whole, RowsProduct, RowsDot) or None
    integer_body  the body again, for arguments that are all Python integers: its verbs
                marked where that makes their operands known numbers, its calls of itself
                with integers marked `to_self` (passes/numbers.py); None where that would
                gain nothing
    integer_key the global the body's calls of itself read (None: only .f): it holds this
                function for the whole call, as the function has no effects and reads
                nothing else, once the entry has checked it does
    """
    effects: bool = False
    reads: frozenset = frozenset()
    names_self: bool = False
    dyad_op: Optional[str] = None
    elementwise: bool = False
    dot: bool = False
    fold_op: Optional[str] = None
    whole: Any = None
    integer_body: Optional[list] = None
    integer_key: Optional[str] = None


@dataclass(eq=False)
class Function(Node):
    """A function literal: evaluated, it makes a function value (closing over the variables
    of the literals around it). `outer_params` are those of x, y, z that a literal around
    it declares local (there they name that variable: the literal does not take them).
    `name` is the name it is assigned to, for messages;
    `defined_as` the global key when it is assigned straight to a global (a call of that
    global inside it is a call of itself while the global still holds it)."""
    arity: int
    locals: List[str]
    body: List[Node]
    source: Optional[str] = None
    name: Optional[str] = None
    defined_as: Optional[str] = None
    outer_params: List[str] = field(default_factory=list)
    facts: Facts = field(default_factory=Facts)

    @property
    def params(self):
        return PARAMS[:self.arity]

    @property
    def variables(self):
        """Every variable the literal binds: its parameters and declared locals."""
        return list(self.params) + [n for n in self.locals if n not in self.params]


@dataclass(eq=False)
class Chunk(Node):
    """One chunk of source (a top-level line with its continuations). `functions` holds
    every function literal in it, each after the ones nested in it."""
    body: Node
    functions: List[Function] = field(default_factory=list)


# ------------------------------------------------------------------ what the passes make

@dataclass(eq=False)
class SumOfProducts(Node):
    """+/a*b: the inner product of two real vectors where the library has one, else the
    product then the sum, as written. `times` and `over` are the two verb nodes."""
    left: Node
    right: Node
    times: Verb
    over: Verb


@dataclass(eq=False)
class While(Node):
    """p f:~init with f (and p, when it is a literal) run inline as a loop: `predicate` is
    a Function run inline, or an expression giving the predicate function."""
    predicate: Node
    body: Function
    init: Node
    verb: Verb


@dataclass(eq=False)
class Converge(Node):
    """f:~init with f run inline: repeat until the result matches the previous value."""
    body: Function
    init: Node
    verb: Verb


@dataclass(eq=False)
class Iterate(Node):
    """n f:*init with f run inline n times."""
    count: Node
    body: Function
    init: Node
    verb: Verb


@dataclass(eq=False)
class Whole(Node):
    """The whole-array form of a monad whose last expression `expr` combines numbers,
    the array (read through the names `same`: x and locals that copy it) and numbers read
    from other names, with numeric atomic verbs and conditionals: evaluated on the whole
    array at once, or None where it does not give one number per element. For a dyad's
    fold form (Facts.fold_op), `same` is {'y'}: the g of {x+g(y)}."""
    same: frozenset
    expr: Node


@dataclass(eq=False)
class RowsProduct(Node):
    """The whole-array form of a monad taking a row x to its products with the rows of
    `matrix` (x{+/x*y}:/m and its spellings): x @ m^T. `dot`, when not None, is a
    function that must be an inner product at run time for this to hold."""
    same: frozenset
    matrix: Node
    dot: Optional[Node] = None


@dataclass(eq=False)
class RowsDot(Node):
    """The whole-array form of a monad {+/x*u}: the matrix-vector product x @ u."""
    same: frozenset
    vector: Node


def children(n):
    """The IR nodes directly below `n` (a Function's: its statements)."""
    if isinstance(n, Call):
        return [n.fn, *n.args]
    if isinstance(n, Project):
        return [n.fn] + [s for s in n.slots if s is not None]
    if isinstance(n, Verb):
        return [n.fn] if n.fn is not None else []
    if isinstance(n, Monad):
        return [n.verb, n.arg]
    if isinstance(n, (Dyad, Differentiate)):
        return ([n.verb] if isinstance(n, Dyad) else []) + [n.left, n.right]
    if isinstance(n, (SetLocal, SetGlobal)):
        return [n.value]
    if isinstance(n, Cond):
        return [x for pair in n.clauses for x in pair] + [n.otherwise]
    if isinstance(n, Seq):
        return n.exprs
    if isinstance(n, Function):
        return n.body
    if isinstance(n, Chunk):
        return [n.body]
    if isinstance(n, SumOfProducts):
        return [n.left, n.right]
    if isinstance(n, While):
        return [n.predicate, n.body, n.init]
    if isinstance(n, Converge):
        return [n.body, n.init]
    if isinstance(n, Iterate):
        return [n.count, n.body, n.init]
    return []


def walk(node, enter=True):
    """`node` and every node below it, not entering the Functions nested in it (they are
    given, not their insides); `node` itself, a Function, is entered unless not `enter`."""
    return syntax_walk(node, enter, children, Function)
