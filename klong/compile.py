"""The AST made runnable: as Python source (codegen.py, the default) or as closures.

`Compiler.compile_chunk` gives a callable `run(None)` for one chunk. With code generation on
(the interpreter's `codegen` option, KLONG_CODEGEN=0 turns it off) the chunk becomes Python
source; otherwise each node becomes a closure `run(fr)` once, when its chunk is read, and
running a function never looks at AST nodes again. `fr` is the frame (see functions.py) of
the running Klong function (None at top level). Either way names are resolved statically: a
parameter or declared local becomes a lookup `depth` frames up the lexical chain, anything
else a global (renamed while a module is open, language.md 6.5).

What both paths share lives here: how a verb with adverbs becomes a Python callable
(VerbForms, derive), what is known of a function literal (lambda_info), and how the
differentiation operators and the interpreter's own monads are found.
"""
from . import passes
from .errors import KlongError, undefined, undefined_assignment
from .functions import PARENT, SELF, Lambda, LambdaInfo, call_value, frame_runner, project
from .lower import lower, verb_label
from .render import pysource
from .render.forms import derived_caller, derived_forms, function_forms, op_forms
from .render.wholes import sum_of_product
from .scope import Scope, resolve
from .syntax import ast
from .syntax.parser import has_function_literal
from .values import Dict, Function, is_true, on_backend
from .verbs import VERBS


GENERATED_CHUNKS = 1024      # generated chunks an interpreter keeps for text it runs again


class Compiler:
    """Compiles AST nodes for one interpreter."""

    def __init__(self, interp):
        self.interp = interp
        self.scope = None       # the function literal being compiled to closures
        self.generated = {}     # id(parsed chunk) -> (chunk, its generated code)

    def compile_chunk(self, node):
        if self.interp.codegen:
            return self.generate(node)
        self.scope = None
        return self.compile(node)

    def generate(self, node):
        """The chunk as generated code. Parses are shared (the parser caches them), and the
        code of a chunk depends only on it while no module renames names: it is kept."""
        if self.interp.modules.current is not None:
            return self.generated_or_closures(node)
        entry = self.generated.get(id(node))
        if entry is not None and entry[0] is node:
            return entry[1]
        code = self.generated_or_closures(node)
        if len(self.generated) >= GENERATED_CHUNKS:
            self.generated.clear()
        self.generated[id(node)] = (node, code)
        return code

    def generated_or_closures(self, node):
        """Generated code, or closures: for a chunk without a function literal, which runs
        no loop of its own and costs less to compile to closures than to generate code for
        (a file of 20,000 such lines: 2 s against 7 s), and for a chunk nested deeper than
        Python compiles (about a hundred levels of blocks)."""
        if not has_function_literal(node):
            self.scope = None
            return self.compile(node)
        try:
            return pysource.render(passes.run(lower(node, self.interp)), self.interp)
        except (SyntaxError, RecursionError, MemoryError):
            self.scope = None
            return self.compile(node)

    def compile(self, node):
        method = getattr(self, "c_" + type(node).__name__)
        return method(node)

    # -- shared with codegen.py
    def resolve_in(self, scope, name):
        """(depth, name) for a name the function literal `scope` or one around it binds,
        or (None, the global it names)."""
        bound = scope.bound_chain() if scope is not None else []
        return resolve(bound, name, self.interp.modules)

    def resolve(self, name):
        return self.resolve_in(self.scope, name)

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
        """A closure giving the VerbForms of a verb node at run time."""
        if verb.op is not None:
            forms = derived_forms(op_forms(verb.op), verb.adverbs)
            return lambda fr: forms
        fn = self.compile(verb.fn)
        adverbs = verb.adverbs
        return lambda fr: derived_forms(function_forms(fn(fr)), adverbs)

    verb_label = staticmethod(verb_label)
    derived_caller = staticmethod(derived_caller)

    def lambda_info(self, node, name=None):
        arity = node.arity
        elementwise = arity == 1 and len(node.body) == 1 and not node.outer_params \
            and _elementwise(node.body[0])
        return LambdaInfo(arity, node.source, name, _dyad_op(node), elementwise,
                          _is_dot_literal(node))

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

    # -- leaves
    def c_Const(self, node):
        value = on_backend(node.value, self.interp.backend)
        return lambda fr: value

    def c_DictLit(self, node):
        backend = self.interp.backend
        pairs = [(on_backend(k, backend), on_backend(v, backend)) for k, v in node.pairs]
        return lambda fr: Dict(pairs)

    def c_Name(self, node):
        name = node.name
        if name == ".f":
            if self.scope is not None:
                return lambda fr: fr[SELF]
            return lambda fr: []
        depth, key = self.resolve(name)
        line, column = node.line, node.column
        g = self.interp.globals

        if depth is None:
            def read_global(fr):
                try:
                    return g[key]
                except KeyError:
                    raise undefined(name, g, line, column) from None
            return read_global
        if depth == 0:
            def read_local(fr):
                try:
                    return fr[key]
                except KeyError:
                    raise undefined(name, None, line, column) from None
            return read_local

        def read_outer(fr):       # (read_local's lines again: a call more costs 15% here)
            for _ in range(depth):
                fr = fr[PARENT]
            try:
                return fr[key]
            except KeyError:
                raise undefined(name, None, line, column) from None
        return read_outer

    # -- structure
    def c_Seq(self, node):
        stmts = [self.compile(e) for e in node.exprs]
        return _sequence(stmts)

    def c_Cond(self, node):
        clauses = [(self.compile(p), self.compile(c)) for p, c in node.clauses]
        otherwise = self.compile(node.otherwise)

        def run(fr):
            for pred, then in clauses:
                p = pred(fr)
                if (p != 0) if type(p) is int else is_true(p):
                    return then(fr)
            return otherwise(fr)
        return run

    def c_Lambda(self, node, name=None):
        outer, self.scope = self.scope, Scope(self.scope, node)
        try:
            body = _sequence([self.compile(s) for s in node.body])
        finally:
            self.scope = outer
        info = self.lambda_info(node, name)
        backend = self.interp.backend

        def make(fr):
            lam = Lambda(None, info, None, backend)
            lam.run = frame_runner(body, lam, fr)
            return lam
        return make

    def c_Apply(self, node):
        fn = self.compile(node.fn)
        if node.is_projection:
            slots = [None if a is None else self.compile(a) for a in node.args]

            def run_projection(fr):
                values = [None if s is None else s(fr) for s in slots]
                return project(fn(fr), values)
            return run_projection
        args = [self.compile(a) for a in node.args]
        line, column = node.line, node.column
        callee = node.fn.name if isinstance(node.fn, ast.Name) else None

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

    # -- verbs
    def c_Monad(self, node):
        verb, arg = node.verb, self.compile(node.arg)
        line, column = node.verb.line, node.verb.column
        label = verb_label(verb, 1)
        if verb.op is not None and not verb.adverbs:
            f = self.monad(verb.op, verb)
        elif verb.op is not None:
            f = self.verb_forms(verb)(None).monad
            if _plus_over_times(node) is not None:
                f = _sum_of_product(f)
        else:
            forms = self.verb_forms(verb)

            def run_dynamic(fr):
                a = arg(fr)
                try:
                    return forms(fr).monad(a)
                except KlongError as e:
                    raise e.at_verb(line, column, label, a)
            return run_dynamic

        def run(fr):
            a = arg(fr)
            try:
                return f(a)
            except KlongError as e:
                raise e.at_verb(line, column, label, a)
        return run

    def c_Dyad(self, node):
        verb = node.verb
        if verb.op == "::" and not verb.adverbs:
            return self.assignment(node)
        if verb.op is not None and not verb.adverbs and VERBS.get(verb.op) is not None \
                and VERBS[verb.op].host_dyad:
            return self.differentiation(node)
        left, right = self.compile(node.left), self.compile(node.right)
        line, column = verb.line, verb.column
        label = verb_label(verb, 2)
        if verb.op is not None and not verb.adverbs:
            f = self.dyad(verb.op, verb)
        elif verb.op is not None:
            f = self.verb_forms(verb)(None).dyad
        else:
            forms = self.verb_forms(verb)

            def run_dynamic(fr):
                b = right(fr)
                a = left(fr)
                try:
                    return forms(fr).dyad(a, b)
                except KlongError as e:
                    raise e.at_verb(line, column, label, [a, b])
            return run_dynamic

        return _dyad(f, left, right, line, column, label)

    def differentiation(self, node):
        left, right = self.compile(node.left), self.compile(node.right)
        verb = node.verb
        return _dyad(self.differentiation_action(node, self.scope), left, right, verb.line,
                     verb.column, "")

    def assignment(self, node):
        name = node.left.name
        if isinstance(node.right, ast.Lambda):
            value = self.c_Lambda(node.right, name)
        else:
            value = self.compile(node.right)
        hooks = self.interp.value_hooks
        if self.scope is not None:
            depth, key = self.resolve(name)
            if depth is not None:
                def set_local(fr):
                    v = value(fr)
                    target = fr
                    for _ in range(depth):
                        target = target[PARENT]
                    target[key] = v
                    if hooks:
                        hooks.fire(name, v)
                    return v
                return set_local
        inside_function = self.scope is not None
        keys = self.interp.modules.assignment_targets(name, top_level=not inside_function)
        g = self.interp.globals
        interp = self.interp
        line, column = node.line, node.column

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


def _sum_of_product(over):
    """+/ of a product a*b: the product is a fresh array, which the sum may overwrite."""
    def run(p):
        r = sum_of_product(p)
        return over(p) if r is None else r
    return run


def _dyad(f, left, right, line, column, label):
    """The closure applying the dyad f: right operand first, then left (language.md 3.3).
    A failure is named after `label` ("": the verb's own messages say enough)."""
    def run(fr):
        b = right(fr)
        a = left(fr)
        try:
            return f(a, b)
        except KlongError as e:
            raise e.at_verb(line, column, label, [a, b])
    return run


def _sequence(stmts):
    if len(stmts) == 1:
        return stmts[0]

    def run(fr):
        for s in stmts[:-1]:
            s(fr)
        return stmts[-1](fr)
    return run


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


def _plus_over_times(node):
    """(left, right) of a node spelled +/left*right, else None."""
    if isinstance(node, ast.Monad) and node.verb.op == "+" and node.verb.adverbs == ["/"]:
        arg = node.arg
        if isinstance(arg, ast.Dyad) and arg.verb.op == "*" and not arg.verb.adverbs:
            return arg.left, arg.right
    return None


def _is_dot_literal(literal):
    """{+/x*y} or {+/y*x}: a function literal that is the inner product of its arguments."""
    if literal.arity != 2 or literal.locals or literal.outer_params or len(literal.body) != 1:
        return False
    pair = _plus_over_times(literal.body[0])
    return pair is not None and {getattr(n, "name", None) for n in pair} == {"x", "y"}
