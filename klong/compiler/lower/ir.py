"""The intermediate form (IR) a chunk of Klong is lowered to, once (lower/lower.py).

Everything a renderer needs to know is in the nodes: which variable a name is (a local so
many function literals out, or the global it names once modules have renamed it), which
verb, adverbs or call a node is, what a failure there is called, and what is known of each
function literal (its `facts`). Renderers (render/) turn the IR into something runnable one
rule per node; passes (passes/) rewrite it by rules before that. Neither reads the syntax tree.

Every node keeps the line and column of the Klong source it came from (0: none).

The shape is declared once: a node class's fields made with `child()` hold the nodes below
it (a node, None, or lists and tuples of them), every other field is data. `children` and
`map_children` read that declaration, so one walker and one rewriter serve every node.
"""
from typing import Any, ClassVar, List, Optional

from ...runtime.functions import LambdaFacts
from ..syntax.ast import PARAMS
from ..syntax.ast import walk as syntax_walk
from ...runtime.records import field, record


def child(**kw):
    """A field that holds IR nodes: a node, None, or a list or tuple of them (nested)."""
    return field(metadata={"child": True}, **kw)


def node(cls):
    """An IR node class: a record class (runtime/records.py; compared by identity) whose
    CHILDREN are the names of its fields made with child()."""
    cls = record(cls, eq=False)
    cls.CHILDREN = tuple(f.name for f in cls.FIELDS if f.metadata.get("child"))
    return cls


@node
class Node:
    CHILDREN: ClassVar[tuple] = ()
    line: int = field(default=0, kw_only=True)
    column: int = field(default=0, kw_only=True)


# ------------------------------------------------------------------ values and names

@node
class Const(Node):
    """A constant, already on the interpreter's backend."""
    value: Any


@node
class DictLit(Node):
    """A dictionary literal: each evaluation builds a fresh dictionary of these pairs."""
    pairs: list


@node
class Local(Node):
    """A variable of the function literal `depth` literals out (0: the one the name is in):
    one of its parameters x, y, z or a declared local."""
    name: str
    depth: int


@node
class Global(Node):
    """A global variable: `key` is the name it is stored under (modules rename names)."""
    name: str
    key: str


@node
class Self(Node):
    """.f inside a function literal: the running function itself."""


# ------------------------------------------------------------------ calls and verbs

@node
class Call(Node):
    """fn(args...): `callee` is the Klong name the function is read from, for messages.
    `to_self` (in a Lambda.integer_body only): a call of the function itself with integers,
    which goes straight to that body again."""
    fn: Node = child()
    args: List[Node] = child()
    callee: Optional[str] = None
    to_self: bool = False


@node
class Project(Node):
    """fn(a;;c): a projection; the empty slots are None."""
    fn: Node = child()
    slots: List[Optional[Node]] = child()


@node
class Verb(Node):
    """A verb: an operator `op` or a function-valued node `fn`, with its adverbs (the last
    one applied outermost). Its position is the operator's."""
    op: Optional[str]
    fn: Optional[Node] = child()
    adverbs: List[str]

    @property
    def primitive(self):
        """An operator without adverbs."""
        return self.op is not None and not self.adverbs


@node
class Applied(Node):
    """A verb applied to operands (Monad, Dyad). `label` names the verb in error messages;
    `numbers` (set by passes/numbers.py): the operands are known to be plain Python
    numbers, so the verb's scalar form applies without a test of their types.
    `progression` (a Dyad, set by passes/progressions.py): the dyad is a chain of + - *
    around one Enumerate, made as one arithmetic progression (verbs/progressions.py)."""
    verb: Verb = child()
    label: str = field(default="", kw_only=True)
    numbers: bool = field(default=False, kw_only=True)
    progression: bool = field(default=False, kw_only=True)


@node
class Monad(Applied):
    """verb applied to one operand."""
    arg: Node = child()


@node
class Dyad(Applied):
    """verb applied to two operands (the right one is evaluated first)."""
    left: Node = child()
    right: Node = child()


@node
class Differentiate(Node):
    """f:>p (op ':>'), p∇f ('∇') or p∂f ('∂'). `variable` is the global a bare name as the
    point names (variable mode, system.md B.2), else None. Positioned at the operator."""
    op: str
    left: Node = child()
    right: Node = child()
    variable: Optional[str] = None


# ------------------------------------------------------------------ assignment and structure

@node
class SetLocal(Node):
    """name::value for a variable of the literal `depth` literals out. `in_place`: the value
    is name:=b, which may write the variable's array (passes/updates.py)."""
    name: str
    depth: int
    value: Node = child()
    in_place: bool = False


@node
class SetGlobal(Node):
    """name::value for a global, stored under every one of `keys` (a module's definitions
    also under their private names). Inside a function (`in_function`), a strict
    interpreter refuses a global that does not exist yet. `in_place`: as SetLocal's."""
    name: str
    keys: List[str]
    value: Node = child()
    in_function: bool = False
    in_place: bool = False


@node
class Cond(Node):
    """:[p;c;...;a]: (predicate, consequent) pairs, then what holds otherwise."""
    clauses: List[tuple] = child()
    otherwise: Node = child()


@node
class Seq(Node):
    """Expressions evaluated in turn; the value is the last one's."""
    exprs: List[Node] = child()


@node
class Lambda(Node):
    """A function literal (a lambda): evaluated, it makes a function value (closing over the
    variables of the literals around it) that shares its `facts` (runtime/functions.py:
    its arity, source and name, what lowering knows of its effects and reads, the shortcuts
    the passes find). `outer_params` are those of x, y, z that a literal around it declares
    local (there they name that variable: the literal does not take them). `defined_as` is
    the global key when it is assigned straight to a global (a call of that global inside
    it is a call of itself while the global still holds it).

    Set by the passes (passes/):
    whole         its whole-array form (Whole, RowsProduct, RowsDot, Batched) or None
    integer_body  the body again, for arguments that are all Python integers: its verbs
                  marked where that makes their operands known numbers, its calls of itself
                  with integers marked `to_self` (passes/numbers.py); None where that would
                  gain nothing
    integer_key   the global the body's calls of itself read (None: only .f): it holds this
                  function for the whole call, as the function has no effects and reads
                  nothing else, once the entry has checked it does
    real_body     the body again, for arguments that are all Python floats (None where it
                  would spare fewer than two type tests)
    """
    facts: LambdaFacts
    locals: List[str]
    body: List[Node] = child()
    defined_as: Optional[str] = None
    outer_params: List[str] = field(default_factory=list)
    whole: Optional[Node] = None
    integer_body: Optional[List[Node]] = None
    integer_key: Optional[str] = None
    real_body: Optional[List[Node]] = None

    @property
    def arity(self):
        return self.facts.arity

    @property
    def params(self):
        return PARAMS[:self.arity]

    @property
    def variables(self):
        """Every variable the literal binds: its parameters and declared locals."""
        return list(self.params) + [n for n in self.locals if n not in self.params]


@node
class Chunk(Node):
    """One chunk of source (a top-level line with its continuations). `lambdas` holds
    every function literal in it, each after the ones nested in it."""
    body: Node = child()
    lambdas: List[Lambda] = field(default_factory=list)


# ------------------------------------------------------------------ what the passes make

@node
class SumOfProducts(Node):
    """+/a*b: the inner product of two real vectors where the library has one, else the
    product then the sum, as written. `times` and `over` are the two verb nodes (data: they
    place errors)."""
    left: Node = child()
    right: Node = child()
    times: Verb
    over: Verb


@node
class Compress(Node):
    """a@&m for a variable a: the items of a where m is 1 in one step, where m is a mask as
    long as a (verbs/structural.py, compress), else Where and At as written. `at` and
    `expand` are the two verb nodes and `labels` their labels (data: they place errors)."""
    left: Node = child()
    mask: Node = child()
    at: Verb
    expand: Verb
    labels: tuple


@node
class SumOfEach(Node):
    """+/f'x: f's results added as they come, where they are plain numbers of one kind
    (verbs/forms.py, sum_of_each), else the Each and the sum as written. `each` is the
    Each's Monad node (its verb's fn is f, its arg x); `over` the verb of +/ and `label`
    its label (data: they place errors)."""
    each: Node = child()
    over: Verb
    label: str


@node
class JoinedChars(Node):
    """,/:#a: the text whose character codes are the integer vector a, made at once where
    they are codes of characters (verbs/atomic.py, joined_chars), else Char's list of
    characters and its Join-Over as written. `chars` and `over` are the two verb nodes and
    `labels` their labels (data: they place errors)."""
    arg: Node = child()
    chars: Verb
    over: Verb
    labels: tuple


@node
class JoinEntry(Node):
    """a,k,v where a is a variable: a dictionary in it gets the entry k,v without the pair
    k,v being made (verbs/structural.py, join_entry); any other value gets the two joins as
    written. `outer` and `inner` are the two Dyad nodes' verbs and `labels` their labels
    (data: they place errors)."""
    left: Node = child()
    key: Node = child()
    value: Node = child()
    outer: Verb
    inner: Verb
    labels: tuple


@node
class Keep(Node):
    """`value`, its value named `slot` for the Kept nodes that follow it (passes/shared.py:
    a conditional's predicate computing what its consequent computes again)."""
    slot: int
    value: Node = child()


@node
class Kept(Node):
    """The value of the Keep of the same `slot`, evaluated before this node and unchanged
    since. `expr` (data, not a child: the nodes below the Keep hold what it reads) is the
    expression itself, for a renderer that evaluates it again."""
    slot: int
    expr: Node


class Loop(Node):
    """A loop of While, Converge or Iterate whose body literal runs inline. Each has a
    `scan` field: the loop of its scanning adverb (\\~ or \\*), giving the list of the values
    the loop variable took, as that adverb does (verbs/adverbs.py)."""

    @property
    def inlined(self):
        """The literals whose bodies run inline, in the code around the loop."""
        return [self.body]


@node
class While(Loop):
    """p f:~init with f run inline as a loop. `predicate` is a literal run inline too when
    `inline_predicate` (passes/loops.py decides), else an expression giving the predicate
    function, called on each value. `verb` (not a child: its fn is `body`) places errors."""
    predicate: Node = child()
    body: Lambda = child()
    init: Node = child()
    verb: Verb
    inline_predicate: bool = False
    scan: bool = False

    @property
    def inlined(self):
        return [self.predicate, self.body] if self.inline_predicate else [self.body]


@node
class Converge(Loop):
    """f:~init with f run inline: repeat until the result matches the previous value."""
    body: Lambda = child()
    init: Node = child()
    verb: Verb
    scan: bool = False


@node
class Iterate(Loop):
    """n f:*init with f run inline n times."""
    count: Node = child()
    body: Lambda = child()
    init: Node = child()
    verb: Verb
    scan: bool = False




@node
class Whole(Node):
    """The element-wise whole-array form of a monad (or of the g of a dyad {x+g(y)} with a
    fold_op in its facts): `expr`, made of the nodes below, evaluated on the whole array at
    once, or None where it does not give one number per element (the loop then runs)."""
    expr: Node = child()


@node
class Elements(Node):
    """In a Whole: the array itself, all its elements at once (x, or y of a fold form, and
    the locals that copy it)."""


@node
class Scalar(Node):
    """In a Whole: a name read around the literal (`read`, a Global or an outer Local); it
    must hold a plain number, the same for every element, else the form gives None."""
    read: Node = child()


@node
class Map(Node):
    """In a Whole: the numeric atomic verb `op` applied to whole arrays (`args`: one or
    two), by its own implementation (the right operand evaluated first)."""
    op: str
    args: List[Node] = child()


@node
class Joined(Node):
    """In a Whole: each of the strings `texts` (Format's, one per element, or such strings
    joined already) joined to the constant text `text` (of a string or a character), after
    it, or before it where `before` (`($x),","`)."""
    text: str
    before: bool
    texts: Node = child()


@node
class Select(Node):
    """In a Whole: a conditional evaluated on every element: each predicate and branch on all
    of them, the results picked by a mask (None where the mask cannot be made)."""
    clauses: List[tuple] = child()
    otherwise: Node = child()


@node
class RowsProduct(Node):
    """The whole-array form of a monad taking a row x to its products with the rows of
    `matrix` (x{+/x*y}:/m and its spellings): x @ m^T. `dot`, when not None, is a
    function that must be an inner product at run time for this to hold."""
    matrix: Node = child()
    dot: Optional[Node] = child(default=None)


@node
class RowsDot(Node):
    """The whole-array form of a monad {+/x*u}: the matrix-vector product x @ u."""
    vector: Node = child()


@node
class Batched(Node):
    """The batched form of a monad (passes/batching.py): Each over the rows of a matrix
    evaluates its body once for all rows. `plan` is the body as data (nested tuples, read
    by verbs/batching.py, which holds the rules); the names it reads around the literal are
    `reads`, evaluated when it runs, ("read", i) in the plan. `first`: the literal's other
    whole form (a Whole), tried first, where it has one."""
    plan: tuple
    reads: List[Node] = child()
    first: Optional[Node] = child(default=None)


def children(n):
    """The IR nodes directly below `n`, in the order its fields declare them (a literal's:
    its statements)."""
    found = []
    for name in n.CHILDREN:
        _collect(getattr(n, name), found)
    return found


def _collect(value, found):
    if isinstance(value, Node):
        found.append(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _collect(v, found)


def map_children(n, f):
    """`n` with each node directly below it replaced by f(that node), in place; the lists
    and tuples holding them are made anew."""
    for name in n.CHILDREN:
        setattr(n, name, _mapped(getattr(n, name), f))
    return n


def _mapped(value, f):
    if isinstance(value, Node):
        return f(value)
    if isinstance(value, list):
        return [_mapped(v, f) for v in value]
    if isinstance(value, tuple):
        return tuple(_mapped(v, f) for v in value)
    return value


def walk(node, enter=True):
    """`node` and every node below it, not entering the Lambdas nested in it (they are
    given, not their insides); `node` itself, a Lambda, is entered unless not `enter`."""
    return syntax_walk(node, enter, children, Lambda)
