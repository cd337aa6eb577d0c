"""AST to Python closures.

Each node becomes a closure `run(frame)` once, when its chunk is read; running a function
never looks at AST nodes again. `fr` is the frame (see functions.py) of the running Klong
function (None at top level). Names are resolved here, statically: a parameter or declared local becomes a
lookup `depth` frames up the lexical chain, anything else a global (renamed while a module
is open, language.md 6.5).
"""
from . import adverbs as adv
from .errors import KlongError
from .functions import PARENT, SELF, Lambda, call_value, project
from .syntax import ast
from .values import Dict, Function, is_array, is_true
from .verbs import DYADS, MONADS

PARAMS = ("x", "y", "z")
ATOMIC_MONADS = {"-", "%", "_", "~", ":#", "$"}
ATOMIC_DYADS = {"+", "-", "*", "%", ":%", "!", "^", "|", "&", "=", "<", ">", "$", ":$"}
# verbs whose whole-array form is safe for an elementwise function body on numbers
NUMERIC_MONADS = {"-", "%", "_"}
DIFFERENTIATION_DYADS = {":>", "\u2207", "\u2202"}      # :>  ∇  ∂
NUMERIC_DYADS = {"+", "-", "*", "%", "^", "|", "&", "=", "<", ">"}


class VerbForms:
    """What an adverb needs to know of the verb it modifies: its monadic and dyadic forms,
    and optional shortcuts (see adverbs.py)."""
    __slots__ = ("monad", "dyad", "fast", "whole_monad", "whole_dyad")

    def __init__(self, monad, dyad, fast=None, whole_monad=None, whole_dyad=None):
        self.monad = monad
        self.dyad = dyad
        self.fast = fast
        self.whole_monad = whole_monad
        self.whole_dyad = whole_dyad


def _no_monad(op):
    def fail(a):
        raise KlongError("syntax", f"{op} has no monadic form")
    return fail


def _no_dyad(op):
    def fail(a, b):
        raise KlongError("syntax", f"{op} has no dyadic form")
    return fail


def op_forms(op):
    return VerbForms(MONADS.get(op) or _no_monad(op), DYADS.get(op) or _no_dyad(op),
                     fast=op if op in adv.REDUCIBLE else None,
                     whole_monad=MONADS[op] if op in ATOMIC_MONADS else None,
                     whole_dyad=DYADS[op] if op in ATOMIC_DYADS else None)


def function_forms(fn):
    if _is_nilad(fn):
        # our extension: a nilad under an adverb (f'!n, f/x) is called with no arguments,
        # so f'!n runs f n times, as programs written for KlongPy expect
        return VerbForms(lambda a: call_value(fn, []), lambda a, b: call_value(fn, []))
    forms = VerbForms(lambda a: call_value(fn, [a]), lambda a, b: call_value(fn, [a, b]))
    if isinstance(fn, Lambda):
        if fn.atomic_op is not None:
            forms.fast = fn.atomic_op if fn.atomic_op in adv.REDUCIBLE else None
            forms.whole_dyad = DYADS[fn.atomic_op]
        if fn.elementwise:
            forms.whole_monad = forms.monad
    return forms


def _is_nilad(fn):
    """A function that takes no argument at all (a Python callable with optional
    parameters still takes them)."""
    return isinstance(fn, Function) and getattr(fn, "most", fn.arity) == 0


def _predicate(p):
    return lambda v: call_value(p, [v])


MONADIC_ADVERBS = {
    "'": lambda v, a: adv.each(v.monad, a, v.whole_monad),
    "/": lambda v, a: adv.over(v.dyad, a, v.fast),
    "\\": lambda v, a: adv.scan(v.dyad, a, v.fast),
    ":'": lambda v, a: adv.each_pair(v.dyad, a),
    ":~": lambda v, a: adv.converge(v.monad, a),
    "\\~": lambda v, a: adv.scan_converge(v.monad, a),
}

DYADIC_ADVERBS = {
    "'": lambda v, a, b: adv.each2(v.dyad, a, b, v.whole_dyad),
    "/": lambda v, a, b: adv.over_neutral(v.dyad, a, b, v.fast),
    "\\": lambda v, a, b: adv.scan_neutral(v.dyad, a, b, DYADS[","]),
    ":\\": lambda v, a, b: adv.each_left(v.dyad, a, b),
    ":/": lambda v, a, b: adv.each_right(v.dyad, a, b),
    ":~": lambda v, a, b: adv.while_(v.monad, _predicate(a), b),
    "\\~": lambda v, a, b: adv.scan_while(v.monad, _predicate(a), b),
    ":*": lambda v, a, b: adv.iterate(v.monad, a, b),
    "\\*": lambda v, a, b: adv.scan_iterate(v.monad, a, b),
}


def _wrong_context(adverb):
    def fail(*args):
        raise KlongError("syntax", f"wrong adverb context: {adverb}")
    return fail


def derive(forms, adverb):
    """The verb `forms` modified by `adverb`, as new VerbForms."""
    m = MONADIC_ADVERBS.get(adverb)
    d = DYADIC_ADVERBS.get(adverb)
    return VerbForms((lambda a: m(forms, a)) if m else _wrong_context(adverb),
                     (lambda a, b: d(forms, a, b)) if d else _wrong_context(adverb))


class Scope:
    """Static view of one function literal being compiled: its declared locals, and which
    of x, y, z are its parameters (an enclosing function may have declared them local)."""
    __slots__ = ("locals", "params")

    def __init__(self, local_names, outer_params=()):
        self.locals = set(local_names)
        self.params = set(PARAMS) - set(outer_params)


class Compiler:
    """Compiles AST nodes for one interpreter; `names` resolves global names (modules)."""

    def __init__(self, interp):
        self.interp = interp
        self.scopes = []

    def compile_chunk(self, node):
        self.scopes = []
        return self.compile(node)

    def compile(self, node):
        method = getattr(self, "c_" + type(node).__name__)
        return method(node)

    # -- helpers
    def located(self, node, err):
        return err.located(node.line, node.column, None)

    def resolve(self, name):
        """(depth, name) for a parameter or local, or (None, global name)."""
        if self.scopes:
            for depth, scope in enumerate(reversed(self.scopes)):
                if name in scope.locals or name in scope.params:
                    return depth, name
        return None, self.interp.modules.resolve(name, defining=False)

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
            if self.scopes:
                return lambda fr: fr[SELF]
            return lambda fr: []
        depth, key = self.resolve(name)
        where = (node.line, node.column)

        def undefined():
            return KlongError("undefined", f"{name} is not defined", *where)

        if depth is None:
            g = self.interp.globals

            def read_global(fr):
                try:
                    return g[key]
                except KeyError:
                    raise undefined() from None
            return read_global
        if depth == 0:
            def read_local(fr):
                try:
                    return fr[key]
                except KeyError:
                    raise undefined() from None
            return read_local

        def read_outer(fr):
            for _ in range(depth):
                fr = fr[PARENT]
            try:
                return fr[key]
            except KeyError:
                raise undefined() from None
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

    def c_Lambda(self, node):
        self.scopes.append(Scope(node.locals, node.outer_params))
        try:
            body = _sequence([self.compile(s) for s in node.body])
        finally:
            self.scopes.pop()
        arity = node.arity
        atomic_op = _atomic_op(node)
        elementwise = arity == 1 and len(node.body) == 1 and _elementwise(node.body[0])
        backend = self.interp.backend
        return lambda fr: Lambda(body, arity, fr, atomic_op, elementwise, backend)

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
        if len(args) == 1:
            (a0,) = args

            def run1(fr):
                v = a0(fr)
                f = fn(fr)
                try:
                    return f.call([v])
                except KlongError as e:
                    raise e.located(line, column, None)
                except AttributeError:
                    if isinstance(f, Function):
                        raise
                    raise KlongError("type", "not a function", line, column) from None
            return run1

        def run(fr):
            values = [a(fr) for a in args]
            try:
                return call_value(fn(fr), values)
            except KlongError as e:
                raise e.located(line, column, None)
        return run

    # -- verbs
    def verb_forms(self, verb):
        """A closure giving the VerbForms of a verb node at run time."""
        if verb.op is not None:
            forms = op_forms(verb.op)
            for a in verb.adverbs:
                forms = derive(forms, a)
            return lambda fr: forms
        fn = self.compile(verb.fn)
        adverbs = verb.adverbs

        def dynamic(fr):
            forms = function_forms(fn(fr))
            for a in adverbs:
                forms = derive(forms, a)
            return forms
        return dynamic

    def c_Monad(self, node):
        verb, arg = node.verb, self.compile(node.arg)
        line, column = node.verb.line, node.verb.column
        if verb.op is not None and not verb.adverbs:
            f = MONADS.get(verb.op) or self.interp_monad(verb.op)
            if f is None:
                raise KlongError("syntax", f"{verb.op} has no monadic form", line, column)
        else:
            forms = self.verb_forms(verb)
            if verb.op is not None:
                f = forms(None).monad
            else:
                def run_dynamic(fr):
                    a = arg(fr)
                    try:
                        return forms(fr).monad(a)
                    except KlongError as e:
                        raise e.located(line, column, None)
                return run_dynamic

        def run(fr):
            a = arg(fr)
            try:
                return f(a)
            except KlongError as e:
                raise e.located(line, column, None)
        return run

    def interp_monad(self, op):
        """Monads that belong to the host: ∇f (gradient function) and ˙x (track)."""
        if op == "\u2207":
            return self.interp.differentiation.gradient_function
        if op == "\u02d9":
            return lambda x: x
        return None

    def c_Dyad(self, node):
        verb = node.verb
        if verb.op == "::" and not verb.adverbs:
            return self.assignment(node)
        if verb.op in DIFFERENTIATION_DYADS and not verb.adverbs:
            return self.differentiation(node)
        left, right = self.compile(node.left), self.compile(node.right)
        line, column = verb.line, verb.column
        if verb.op is not None and not verb.adverbs:
            f = DYADS.get(verb.op)
            if f is None:
                raise KlongError("syntax", f"{verb.op} has no dyadic form", line, column)
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
                    raise e.located(line, column, None)
            return run_dynamic

        return _dyad(f, left, right, line, column)

    def _global_name(self, node):
        """The global a bare variable name refers to, or None (for variable mode)."""
        if isinstance(node, ast.Name) and node.name != ".f":
            depth, key = self.resolve(node.name)
            if depth is None:
                return key
        return None

    def differentiation(self, node):
        """f:>p, p∇f and p∂f. A bare global name as the point of :> or ∇ selects variable
        mode (system.md B.2): the variable itself is rebound while differentiating."""
        op = node.verb.op
        diff = self.interp.differentiation
        left, right = self.compile(node.left), self.compile(node.right)
        line, column = node.verb.line, node.verb.column
        if op == ":>":
            name = self._global_name(node.right)
            action = lambda f, p: diff.gradient(f, p, name)
        elif op == "\u2207":
            name = self._global_name(node.left)
            action = lambda p, f: diff.numeric(p, f, name)
        else:
            action = diff.jacobian
        return _dyad(action, left, right, line, column)

    def assignment(self, node):
        name = node.left.name
        value = self.compile(node.right)
        if self.scopes:
            depth, key = self.resolve(name)
            if depth is not None:
                def set_local(fr):
                    v = value(fr)
                    target = fr
                    for _ in range(depth):
                        target = target[PARENT]
                    target[key] = v
                    return v
                return set_local
        keys = self.interp.modules.assignment_targets(name, top_level=not self.scopes)
        g = self.interp.globals
        interp = self.interp
        inside_function = bool(self.scopes)
        where = (node.line, node.column)

        def set_global(fr):
            v = value(fr)
            if inside_function and interp.strict and keys[0] not in g:
                raise KlongError("undefined", f"undefined variable: {name}", *where)
            for k in keys:
                g[k] = v
            return v
        return set_global


def _dyad(f, left, right, line, column):
    """The closure applying the dyad f: right operand first, then left (language.md 3.3)."""
    def run(fr):
        b = right(fr)
        a = left(fr)
        try:
            return f(a, b)
        except KlongError as e:
            raise e.located(line, column, None)
    return run


def on_backend(value, backend):
    """A constant read by the lexer (host arrays inside) as a value of `backend`; parses
    are shared between interpreters, so the conversion happens here, once per compile."""
    if is_array(value):
        return backend.from_host(value)
    if type(value) is list:
        return [on_backend(v, backend) for v in value]
    return value


def _sequence(stmts):
    if len(stmts) == 1:
        return stmts[0]

    def run(fr):
        for s in stmts[:-1]:
            s(fr)
        return stmts[-1](fr)
    return run


def _atomic_op(node):
    """'+' for {x+y}: a dyad whose body is exactly x OP y with an atomic OP."""
    if node.arity != 2 or len(node.body) != 1 or node.locals or node.outer_params:
        return None
    b = node.body[0]
    if isinstance(b, ast.Dyad) and b.verb.op in NUMERIC_DYADS and not b.verb.adverbs \
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
    if isinstance(node, ast.Monad):
        return node.verb.op in NUMERIC_MONADS and not node.verb.adverbs and _elementwise(node.arg)
    if isinstance(node, ast.Dyad):
        return node.verb.op in NUMERIC_DYADS and not node.verb.adverbs \
            and _elementwise(node.left) and _elementwise(node.right)
    return False
