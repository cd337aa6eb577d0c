"""The AST made runnable: as Python source (codegen.py, the default) or as closures.

`Compiler.compile_chunk` gives a callable `run(None)` for one chunk. With code generation on
(the interpreter's `codegen` option, KLONG_CODEGEN=0 turns it off) the chunk becomes Python
source; otherwise the chunk is lowered to the IR (lower/), rewritten by the passes
(passes/) and rendered as Python closures (render/closures.py). Either way names are
resolved statically: a parameter or declared local becomes a lookup `depth` frames up the
lexical chain, anything else a global (renamed while a module is open, language.md 6.5).

The methods below the closure path are what codegen.py still asks of the Compiler: how a
verb with adverbs becomes a Python callable, what is known of a function literal
(lambda_info), and how the differentiation operators and the interpreter's own monads are
found.
"""
from . import passes, vectorize
from .codegen import Generator
from .errors import KlongError
from .functions import LambdaInfo
from .lower import lower, verb_label
from .render import closures
from .render.forms import derived_caller, derived_forms, op_forms
from .scope import resolve
from .syntax import ast
from .syntax.parser import has_function_literal
from .verbs import VERBS

GENERATED_CHUNKS = 1024      # compiled chunks an interpreter keeps for text it runs again


class Compiler:
    """Compiles AST nodes for one interpreter."""

    def __init__(self, interp):
        self.interp = interp
        self.compiled = {}     # id(parsed chunk) -> (chunk, codegen, its code)

    def compile_chunk(self, node):
        """The chunk as generated code or closures. Parses are shared (the parser caches
        them), and the code of a chunk depends only on it while no module renames names:
        it is kept, for text run again."""
        codegen = self.interp.codegen
        if self.interp.modules.current is not None:
            return self.generated_or_closures(node) if codegen else self.compile(node)
        entry = self.compiled.get(id(node))
        if entry is not None and entry[0] is node and entry[1] == codegen:
            return entry[2]
        code = self.generated_or_closures(node) if codegen else self.compile(node)
        if len(self.compiled) >= GENERATED_CHUNKS:
            self.compiled.clear()
        self.compiled[id(node)] = (node, codegen, code)
        return code

    def generated_or_closures(self, node):
        """Generated code, or closures: for a chunk without a function literal, which runs
        no loop of its own and costs less to compile to closures than to generate code for
        (a file of 20,000 such lines: 2 s against 7 s), and for a chunk nested deeper than
        Python compiles (about a hundred levels of blocks)."""
        if not has_function_literal(node):
            return self.compile(node)
        try:
            return Generator(self).chunk(node)
        except (SyntaxError, RecursionError, MemoryError):
            return self.compile(node)

    def compile(self, node):
        """The chunk `node` as closures (render/closures.py), from its IR after the passes."""
        return closures.render(passes.run(lower(node, self.interp)), self.interp)

    # -- shared with codegen.py
    def resolve_in(self, scope, name):
        """(depth, name) for a name the function literal `scope` or one around it binds,
        or (None, the global it names)."""
        bound = scope.bound_chain() if scope is not None else []
        return resolve(bound, name, self.interp.modules)

    def monad(self, op, verb):
        """The Python function of a monad: a verb's, or one the interpreter provides."""
        facts = VERBS.get(op)
        if facts is not None and facts.monad is not None:
            return facts.monad
        if facts is not None and facts.host_monad:
            return self.host_monad(op)
        raise KlongError("syntax", f"{op} has no monadic form", verb.line, verb.column)

    def dyad(self, op, verb):
        facts = VERBS.get(op)
        if facts is None or facts.dyad is None:
            raise KlongError("syntax", f"{op} has no dyadic form", verb.line, verb.column)
        return facts.dyad

    def host_monad(self, op):
        """∇f (the gradient function of f) and ˙x (track x)."""
        if op == "\u2207":
            return self.interp.differentiation.gradient_function
        return lambda x: x

    def verb_forms(self, verb):
        """A closure giving the VerbForms of an operator with adverbs."""
        forms = derived_forms(op_forms(verb.op), verb.adverbs)
        return lambda fr: forms

    verb_label = staticmethod(verb_label)
    derived_caller = staticmethod(derived_caller)

    def lambda_info(self, node, name=None):
        arity = node.arity
        elementwise = arity == 1 and len(node.body) == 1 and not node.outer_params \
            and _elementwise(node.body[0])
        return LambdaInfo(arity, node.source, name, _dyad_op(node), elementwise,
                          vectorize.is_dot_literal(node))

    def differentiation_action(self, node, scope):
        """f:>p, p∇f and p∂f as a Python function of the two operands. A bare global name
        as the point of :> or ∇ selects variable mode (system.md B.2): the variable itself
        is rebound while differentiating."""
        op = node.verb.op
        diff = self.interp.differentiation
        if op == ":>":
            name = self._global_name(node.right, scope)
            return lambda f, p: diff.gradient(f, p, name)
        if op == "\u2207":
            name = self._global_name(node.left, scope)
            return lambda p, f: diff.numeric(p, f, name)
        return diff.jacobian

    def _global_name(self, node, scope):
        """The global a bare variable name refers to, or None (for variable mode)."""
        if isinstance(node, ast.Name) and node.name != ".f":
            depth, key = self.resolve_in(scope, node.name)
            if depth is None:
                return key
        return None


def _dyad_op(node):
    """'+' for {x+y}: a dyad whose body is exactly x OP y with a numeric atomic OP."""
    if node.arity != 2 or len(node.body) != 1 or node.locals or node.outer_params:
        return None
    b = node.body[0]
    if isinstance(b, ast.Dyad) and not b.verb.adverbs and b.verb.op in VERBS \
            and VERBS[b.verb.op].numeric_dyad \
            and isinstance(b.left, ast.Name) and b.left.name == "x" \
            and isinstance(b.right, ast.Name) and b.right.name == "y":
        return b.verb.op
    return None


def _elementwise(node):
    """True when `node` combines only x and number constants through numeric atomic verbs."""
    if isinstance(node, ast.Name):
        return node.name == "x"
    if isinstance(node, ast.Const):
        return type(node.value) in (int, float)
    if isinstance(node, (ast.Monad, ast.Dyad)):
        facts = VERBS.get(node.verb.op)
        if facts is None or node.verb.adverbs:
            return False
        if isinstance(node, ast.Monad):
            return facts.numeric_monad and _elementwise(node.arg)
        return facts.numeric_dyad and _elementwise(node.left) and _elementwise(node.right)
    return False
