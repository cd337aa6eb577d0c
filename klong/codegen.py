"""Klong code compiled to Python source code.

A chunk of Klong (one top-level line with its continuations) that holds a function literal
becomes the source of one Python function, and every function literal in it a nested Python
function, which Python's own `compile()` turns into bytecode once (a chunk without one runs
once and as closures: see Compiler.generated_or_closures). What makes the generated code
fast:

- parameters and declared locals are Python locals (a nested literal sees its enclosing
  function's locals as closure cells, which is Klong's lexical scope, language.md 6.3);
- a verb with a scalar form (+ - * < > = | & and negate, not) runs inline on plain Python
  numbers, behind a type test that hands anything else to the verb itself;
- a conditional is a Python `if`, its predicate tested without building a Klong value;
- a call to a Klong function calls its Python function directly, and a function calling the
  global it is being defined under calls itself without a lookup of its own value;
- While, Converge and Iterate of function literals run as Python loops with the literals'
  bodies inline (see `Loops`).

Errors keep their Klong kind and position at no cost to code that does not fail: every verb
call, name lookup and function call is on a line of its own, a table maps the generated
line to the Klong source position (`Where`), and each generated function has one exception
handler that looks the failing line up (`failure`).

The generator handles every node of the AST; `Compiler` (compile.py) decides whether to use
it (the interpreter's `codegen` option) and keeps the closure path for when it is off.
"""
import re
from functools import lru_cache

from . import adverbs as adv
from . import vectorize
from .errors import KlongError, from_python, undefined, undefined_assignment
from .functions import Lambda, call_value, project
from .match import match
from .scope import Scope
from .syntax import ast
from .syntax.ast import PARAMS, walk
from .values import Dict, is_true, on_backend
from .verbs import VERBS


class Where:
    """The Klong source position of one generated line, and what to say if it fails:
    the name it reads (an undefined name), the verb or callee it runs and the Python
    expressions of its operands (evaluated in the failing frame only when it fails)."""
    __slots__ = ("line", "column", "name", "verb", "operands", "inlined")

    def __init__(self, node, name=None, verb=None, operands=None):
        self.line = node.line or None
        self.column = node.column or None
        self.name = name
        self.verb = verb
        self.operands = operands
        self.inlined = ()       # labels of the literals inlined here (a loop's), innermost first


_PYTHON_NAME = re.compile(r"'([A-Za-z_][A-Za-z0-9_]*)'")


def failure(e, table, function):
    """The exception a generated function raises when `e` escapes from it: a KlongError
    located at the failing line's Klong position, named after the failing verb, with the
    function recorded on its way out; NameError and KeyError raised by the generated code
    itself (an unbound local, a missing global) become 'undefined' errors."""
    tb = e.__traceback__
    where = table.get(tb.tb_lineno) if tb is not None else None
    if not isinstance(e, KlongError):
        if where is None or tb.tb_next is not None:
            return e                 # from deeper Python code: not ours to translate
        if isinstance(e, (NameError, KeyError)):
            e = _undefined(e, where, tb.tb_frame)
        elif isinstance(e, OverflowError):
            e = from_python(e)
        else:
            return e
    if where is not None:
        e.at_verb(where.line, where.column, where.verb,
                  read=lambda: _operands(where, tb.tb_frame))
        for label in where.inlined:      # as if each literal had run as a function
            e.within(label)
    if function is not None:
        e.within(function.info.label())
    return e


def _operands(where, frame):
    if where.operands is None:
        return None
    try:
        got = [eval(expr, frame.f_globals, frame.f_locals) for expr in where.operands]
    except Exception:
        return None
    return got[0] if len(got) == 1 else got


def _undefined(e, where, frame):
    """The error for the NameError or KeyError `e` of the generated code at `where`."""
    if isinstance(e, NameError):          # an unbound local: find which from the message
        m = _PYTHON_NAME.search(str(e))
        python_names = frame.f_globals.get("PYNAMES", {})
        if m and m.group(1) in python_names:
            return undefined(python_names[m.group(1)])
    return undefined(where.name or "a name", frame.f_globals["G"])


# ------------------------------------------------------------------ run-time helpers

RUNTIME = {
    "CALL": call_value, "TRUTH": is_true, "LAMBDA": Lambda,
    "PROJECT": project, "DICT": Dict, "FAIL": failure, "MATCH": match,
    "UNDEFINED_ASSIGNMENT": undefined_assignment,
    "ITERATIONS": adv.iterations,
}


# ------------------------------------------------------------------ the generator

@lru_cache(maxsize=2048)
def _compiled(source):
    """Python source to a code object, once: the same Klong text generates the same source,
    its constants live in the namespace it runs in."""
    return compile(source, "<klong>", "exec")


class Line:
    __slots__ = ("indent", "text", "where")

    def __init__(self, indent, text, where):
        self.indent = indent
        self.text = text
        self.where = where


class Generator:
    """Writes the Python source of one chunk. `compiler` is the interpreter's Compiler: it
    resolves global names (modules) and knows the interpreter's verbs."""

    def __init__(self, compiler):
        self.compiler = compiler
        self.interp = compiler.interp
        self.lines = []
        self.indent = 1
        self.namespace = dict(RUNTIME)
        self.namespace["G"] = self.interp.globals
        self.namespace["INTERP"] = self.interp
        self.namespace["HOOKS"] = self.interp.value_hooks
        self.namespace["BACKEND"] = self.interp.backend
        self.constants = {}
        self.python_names = {}
        self.namespace["PYNAMES"] = self.python_names
        self.literals = 0
        self.scope = None
        self.defining = None        # the name a function literal is being assigned to
        self.vectorizer = vectorize.Vectorizer(self)

    # -- entry
    def chunk(self, node):
        """A Python callable running the chunk `node`: f(None) gives its value."""
        self.scope = Scope(None)
        self.emit("def chunk(_):")
        body_start = len(self.lines)
        self.indent += 1
        self.tail(node)
        self.indent -= 1
        self.wrap_body(body_start, None)
        source, table = self.assemble()
        self.namespace["W"] = table
        exec(_compiled(source), self.namespace)
        return self.namespace["chunk"]

    def assemble(self):
        out, table = [], {}
        for number, line in enumerate(self.lines, start=1):
            out.append("    " * (line.indent - 1) + line.text)
            if line.where is not None:
                table[number] = line.where
        return "\n".join(out) + "\n", table

    def wrap_body(self, start, function):
        """Put the lines from `start` on (a def's body) into try/except FAIL."""
        body = self.lines[start:]
        del self.lines[start:]
        indent = body[0].indent if body else self.indent + 1
        self.lines.append(Line(indent, "try:", None))
        for line in body:
            line.indent += 1
            self.lines.append(line)
        self.lines.append(Line(indent, "except BaseException as e:", None))
        self.lines.append(Line(indent + 1, f"raise FAIL(e, W, {function})", None))

    # -- writing
    def emit(self, text, where=None):
        if where is not None and self.scope is not None and self.scope.function is not self.scope:
            where.inlined = self.scope.inlined_labels()
        self.lines.append(Line(self.indent, text, where))

    def temp(self):
        return self.scope.temp()

    def const(self, value):
        """A Python expression for a constant value."""
        t = type(value)
        # (a big integer stays a named constant: Python refuses the text of the longest)
        if (t is int and value.bit_length() <= 64
                or t is float and value == value and abs(value) != float("inf")):
            text = repr(value)
            return f"({text})" if text.startswith("-") else text
        key = id(value)
        name = self.constants.get(key)
        if name is None:
            name = f"K{len(self.constants)}"
            self.constants[key] = name
            self.namespace[name] = value
        return name

    def bind(self, value, prefix):
        """A namespace name for a Python object the generated code uses."""
        self.literals += 1
        name = f"{prefix}{self.literals}"
        self.namespace[name] = value
        return name

    def assign(self, expr, where=None):
        t = self.temp()
        self.emit(f"{t} = {expr}", where)
        return t

    # -- statement forms
    def tail(self, node):
        """Emit code that returns the value of `node`."""
        if isinstance(node, ast.Cond):
            self.cond(node, tail=True)
        elif isinstance(node, ast.Seq):
            for e in node.exprs[:-1]:
                self.effect(e)
            self.tail(node.exprs[-1])
        else:
            self.emit(f"return {self.expr(node)}", Where(node, name=_klong_name(node)))

    def effect(self, node):
        """Emit code that evaluates `node` for its effects only."""
        if isinstance(node, (ast.Const, ast.Lambda)) or isinstance(node, ast.Name) and node.name == ".f":
            return
        value = self.expr(node)
        if isinstance(node, ast.Name) and value.startswith("v"):
            self.emit(value, Where(node, name=node.name))    # an unassigned local fails

    def expr(self, node):
        """Emit code that computes `node`; returns a Python expression for its value that is
        a name or a literal (cheap to read twice, and free of effects)."""
        return getattr(self, "g_" + type(node).__name__)(node)

    def stable(self, node, value):
        """`value` (of an operand evaluated first) kept in a temporary when evaluating
        `node` afterwards might assign the variable it names."""
        if value.startswith("v") and not isinstance(node, (ast.Const, ast.Name)):
            return self.assign(value)
        return value

    # -- leaves
    def g_Const(self, node):
        return self.const(on_backend(node.value, self.interp.backend))

    def g_DictLit(self, node):
        backend = self.interp.backend
        pairs = [(on_backend(k, backend), on_backend(v, backend)) for k, v in node.pairs]
        return self.assign(f"DICT({self.const(pairs)})")

    def scope_at(self, depth):
        s = self.scope
        for _ in range(depth):
            s = s.parent
        return s

    def local_python_name(self, depth, name):
        return self.scope_at(depth).names[name]

    def g_Name(self, node):
        name = node.name
        if name == ".f":
            return self.scope.self_name if self.scope.in_function else self.assign("[]")
        depth, key = self.compiler.resolve_in(self.scope, name)
        if depth is None:
            for s in self.enclosing(None):
                s.reads.add(key)
            return self.assign(f"G[{key!r}]", Where(node, name=name))
        return self.local_python_name(depth, key)

    def enclosing(self, depth):
        """The scopes from here out, `depth` of them (None: all)."""
        s, n = self.scope, 0
        while s is not None and (depth is None or n < depth):
            yield s
            s, n = s.parent, n + 1

    # -- calls
    def g_Apply(self, node):
        if node.is_projection:
            slots = [None if a is None else self.expr(a) for a in node.args]
            fn = self.expr(node.fn)
            listed = ", ".join("None" if s is None else s for s in slots)
            return self.assign(f"PROJECT({fn}, [{listed}])", Where(node))
        later = node.args[1:] + [node.fn]
        args = [self.stable(after, self.expr(a)) for a, after in zip(node.args, later)]
        callee = node.fn.name if isinstance(node.fn, ast.Name) else None
        fn = self.expr(node.fn)
        n = len(args)
        listed = ", ".join(args)
        where = Where(node)
        general = f"CALL({fn}, [{listed}], {callee!r})"
        if callee is not None and self.scope.defined_as is not None and n == self.scope.node.arity \
                and self.global_key(callee) == self.scope.defined_as:
            # the function calls the global it is being defined under: while that still
            # holds this function, call its Python function without a lookup
            return self.assign(f"run({listed}) if {fn} is {self.scope.self_name}"
                               f" else {general}", where)
        return self.assign(f"{fn}.run({listed}) if type({fn}) is LAMBDA and {fn}.arity == {n}"
                           f" else {general}", where)

    # -- verbs
    def g_Monad(self, node):
        verb = node.verb
        if verb.op is None or verb.adverbs:
            return self.derived_monad(node)
        facts = VERBS.get(verb.op)
        impl = self.compiler.monad(verb.op, verb)
        a = self.expr(node.arg)
        where = Where(verb, verb=facts.name(1) if facts else verb.op, operands=[a])
        f = self.bind(impl, "M")
        if facts is not None and facts.scalar_monad:
            fast = facts.scalar_monad.format(a=a)
            return self.assign(f"({fast}) if {_number_test(a)} else {f}({a})", where)
        return self.assign(f"{f}({a})", where)

    def derived_monad(self, node):
        verb = node.verb
        inline = self.inline_loop(node)
        if inline is not None:
            return inline
        pair = vectorize.plus_over_times(node)
        if pair is not None:
            return self.inner_product(node, *pair)
        return self.derived(node, [self.expr(node.arg)])

    def g_Dyad(self, node):
        verb = node.verb
        if verb.op == "::" and not verb.adverbs:
            return self.assignment(node)
        if verb.op is None or verb.adverbs:
            return self.derived_dyad(node)
        facts = VERBS.get(verb.op)
        if facts is not None and facts.host_dyad:
            action = self.bind(self.compiler.differentiation_action(node, self.scope), "H")
            b = self.expr(node.right)
            a = self.expr(node.left)
            # the differentiation operators' messages say what failed: no verb named
            return self.assign(f"{action}({a}, {b})", Where(verb, verb=""))
        impl = self.compiler.dyad(verb.op, verb)
        b = self.stable(node.left, self.expr(node.right))
        a = self.expr(node.left)
        where = Where(verb, verb=facts.name(2) if facts else verb.op, operands=[a, b])
        f = self.bind(impl, "V")
        if facts is not None and facts.scalar_dyad:
            guard = _are_numbers(a, b)
            fast = facts.scalar_dyad.format(a=a, b=b)
            if facts.scalar_guard:
                extra = facts.scalar_guard.format(a=a, b=b)
                guard = extra if guard is None else f"{guard} and {extra}"
            if guard is None:
                return self.assign(fast, where)
            return self.assign(f"({fast}) if {guard} else {f}({a}, {b})", where)
        return self.assign(f"{f}({a}, {b})", where)

    def inner_product(self, node, left, right):
        """+/a*b: the library's inner product for two real vectors, else as written."""
        b = self.stable(left, self.expr(right))
        a = self.expr(left)
        times = node.arg.verb
        result = self.assign(f"DOT({a}, {b})")
        self.emit(f"if {result} is None:")
        self.indent += 1
        product = self.assign(f"{self.bind(VERBS['*'].dyad, 'V')}({a}, {b})",
                              Where(times, verb="times", operands=[a, b]))
        over = self.bind(self.compiler.verb_forms(node.verb)(None).monad, "D")
        self.emit(f"{result} = {over}({product})",
                  Where(node.verb, verb="plus over", operands=[product]))
        self.indent -= 1
        return result

    def derived_dyad(self, node):
        verb = node.verb
        inline = self.inline_loop(node)
        if inline is not None:
            return inline
        b = self.stable(node.left, self.expr(node.right))
        return self.derived(node, [self.expr(node.left), b])

    def derived(self, node, operands):
        """A verb with adverbs, or a function in verb position, applied to `operands`."""
        verb = node.verb
        arity = len(operands)
        where = Where(verb, verb=self.compiler.verb_label(verb, arity), operands=operands)
        listed = ", ".join(operands)
        if verb.op is not None:
            forms = self.compiler.verb_forms(verb)(None)
            f = self.bind(forms.monad if arity == 1 else forms.dyad, "D")
            return self.assign(f"{f}({listed})", where)
        fn = self.expr(verb.fn)
        apply = self.bind(self.compiler.derived_caller(verb.adverbs, arity), "A")
        return self.assign(f"{apply}({fn}, {listed})", where)

    def condition(self, node):
        """(test, where): a Python boolean expression saying whether the value of `node` is
        true, and the Where of the line that must hold it (None: any line). Comparisons of
        plain numbers are tested directly, the general verb only runs for other values."""
        if isinstance(node, ast.Dyad) and node.verb.op is not None and not node.verb.adverbs:
            facts = VERBS.get(node.verb.op)
            if facts is not None and facts.compare:
                impl = self.compiler.dyad(node.verb.op, node.verb)
                b = self.stable(node.left, self.expr(node.right))
                a = self.expr(node.left)
                guard = _are_numbers(a, b)
                fast = f"{a} {facts.compare} {b}"
                if guard is None:
                    return fast, None
                f = self.bind(impl, "V")
                return (f"(({fast}) if {guard} else TRUTH({f}({a}, {b})))",
                        Where(node.verb, verb=facts.name(2), operands=[a, b]))
        v = self.expr(node)
        return f"(({v} != 0) if type({v}) is int else TRUTH({v}))", None

    # -- structure
    def g_Seq(self, node):
        for e in node.exprs[:-1]:
            self.effect(e)
        return self.expr(node.exprs[-1])

    def g_Cond(self, node):
        return self.cond(node, tail=False)

    def cond(self, node, tail):
        """:[p;c;...;a] as if/elif/else; a predicate that needs statements of its own opens
        a nested if in the else branch instead of an elif."""
        result = None if tail else self.temp()
        depth = 0
        for i, (predicate, consequent) in enumerate(node.clauses):
            if i == 0:
                test, where = self.condition(predicate)
                self.emit(f"if {test}:", where)
            else:
                mark = len(self.lines)
                self.emit("else:")
                self.indent += 1
                test, where = self.condition(predicate)
                if len(self.lines) == mark + 1:
                    del self.lines[mark:]
                    self.indent -= 1
                    self.emit(f"elif {test}:", where)
                else:
                    depth += 1
                    self.emit(f"if {test}:", where)
            self.indent += 1
            self.branch(consequent, result)
            self.indent -= 1
        self.emit("else:")
        self.indent += 1
        self.branch(node.otherwise, result)
        self.indent -= 1 + depth
        return result

    def branch(self, node, result):
        if result is None:
            self.tail(node)
        else:
            self.emit(f"{result} = {self.expr(node)}", Where(node, name=_klong_name(node)))

    def g_Lambda(self, node, defined_as=None):
        """Emit a factory for the literal's function values and call it: a function literal
        is evaluated each time control reaches it (so its closure cells are its own)."""
        info = self.compiler.lambda_info(node, self.defining)
        self.defining = None
        info_name = self.bind(info, "INFO")
        self.literals += 1
        factory = f"make{self.literals}"
        outer = self.scope
        scope = Scope(outer, node, self_name="self_", defined_as=defined_as)
        params = ", ".join(PARAMS[:node.arity])
        for p in PARAMS[:node.arity]:
            scope.names[p] = p
        for name in node.locals:
            python = f"v{len(self.python_names)}_{_identifier(name)}"
            scope.names[name] = python
            self.python_names[python] = name
        self.emit(f"def {factory}():")
        self.indent += 1
        self.scope = scope
        self.emit(f"def run({params}):")
        run_start = len(self.lines)
        self.indent += 1
        declare_at = len(self.lines)
        self.tail_body(node)
        if scope.nonlocals:
            self.lines.insert(declare_at, Line(self.indent, "nonlocal " + ", ".join(sorted(scope.nonlocals)), None))
        self.indent -= 1
        self.wrap_body(run_start, "self_")    # (which makes self_ a local the frame shows)
        whole = None
        if node.arity == 1:
            whole = self.vectorizer.whole(node)
        elif node.arity == 2 and info.dyad_op is None:
            whole, info.fold_op = self.vectorizer.fold(node) or (None, None)
        self.scope = outer
        info.effects, info.reads, info.globals = scope.effects, frozenset(scope.reads), \
            self.interp.globals
        self.emit(f"self_ = LAMBDA(run, {info_name}, {whole or 'None'}, BACKEND)")
        self.emit("return self_")
        self.indent -= 1
        return self.assign(f"{factory}()")

    # -- loops of function literals, inline
    def inline_loop(self, node):
        """While, Converge and Iterate of a function literal as a Python loop running the
        literal's body inline; None where that does not apply (the adverb runs instead)."""
        verb = node.verb
        if len(verb.adverbs) != 1 or not _inlinable(verb.fn, 1):
            return None
        adverb, dyadic = verb.adverbs[0], isinstance(node, ast.Dyad)
        if adverb == ":~" and dyadic:
            return self.inline_while(node)
        if adverb == ":~":
            return self.inline_converge(node)
        if adverb == ":*" and dyadic:
            return self.inline_iterate(node)
        return None

    def inline_body(self, literal, args, as_condition=False):
        """Emit the body of a function literal with its parameters bound to the Python names
        `args`; returns its value (or, as_condition, the pair condition() gives)."""
        scope = Scope(self.scope, literal, inline=True)
        scope.label = self.compiler.lambda_info(literal).label()
        scope.names.update(zip(PARAMS, args))
        outer, self.scope = self.scope, scope
        try:
            for s in literal.body[:-1]:
                self.effect(s)
            last = literal.body[-1]
            return self.condition(last) if as_condition else self.expr(last)
        finally:
            self.scope = outer

    def inline_while(self, node):
        """p f:~b as `while p(v): v = f(v)`."""
        b = self.stable(node.left, self.expr(node.right))
        predicate = None if _inlinable(node.left, 1) else self.expr(node.left)
        v = self.assign(b)
        self.emit("while True:")
        self.indent += 1
        if predicate is None:
            test, where = self.inline_body(node.left, [v], as_condition=True)
        else:
            p = self.assign(f"CALL({predicate}, [{v}], None)", Where(node.verb, verb="while"))
            test, where = f"(({p} != 0) if type({p}) is int else TRUTH({p}))", None
        self.emit(f"if not {test}: break", where)
        self.emit(f"{v} = {self.inline_body(node.verb.fn, [v])}")
        self.indent -= 1
        return v

    def inline_converge(self, node):
        """f:~a as a loop that stops when f(v) matches v."""
        v = self.assign(self.expr(node.arg))
        result = self.temp()
        self.emit("while True:")
        self.indent += 1
        self.emit(f"{result} = {self.inline_body(node.verb.fn, [v])}")
        self.emit(f"if (({result} == {v}) if type({result}) is int and type({v}) is int"
                  f" else MATCH({result}, {v})): break")
        self.emit(f"{v} = {result}")
        self.indent -= 1
        return result

    def inline_iterate(self, node):
        """n f:*a as a counted loop."""
        b = self.stable(node.left, self.expr(node.right))
        n = self.expr(node.left)
        count = self.assign(f"ITERATIONS({n})", Where(node.verb, verb="iterate", operands=[n]))
        v = self.assign(b)
        self.emit(f"for _ in range({count}):")
        self.indent += 1
        self.emit(f"{v} = {self.inline_body(node.verb.fn, [v])}")
        self.indent -= 1
        return v

    def tail_body(self, node):
        if node.locals:
            declared = " = ".join(self.scope.names[n] for n in node.locals)
            self.emit(f"if 0: {declared} = None")     # makes them locals: inner defs may
        for s in node.body[:-1]:                      # assign them as nonlocals
            self.effect(s)
        self.tail(node.body[-1])

    # -- assignment
    def assignment(self, node):
        name = node.left.name
        if isinstance(node.right, ast.Lambda):
            self.defining = name
            value = self.g_Lambda(node.right, defined_as=self.global_key(name))
        else:
            value = self.expr(node.right)
        # the value may be a local read right here, `a::b`, which fails when b has none yet
        read = Where(node.right, name=_klong_name(node.right))
        depth, key = self.compiler.resolve_in(self.scope, name)
        if depth is not None:
            python = self.local_python_name(depth, key)
            if self.scope_at(depth).function is not self.scope.function:
                self.scope.function.nonlocals.add(python)
            for s in self.enclosing(depth):      # an outer literal's local: an effect here
                s.effects = True
            self.emit(f"{python} = {value}", read)
            self.emit(f"if HOOKS: HOOKS.fire({name!r}, {python})")
            return python
        for s in self.enclosing(None):
            s.effects = True
        keys = self.interp.modules.assignment_targets(name, top_level=not self.scope.in_function)
        if self.scope.in_function:
            self.emit(f"if INTERP.strict and {keys[0]!r} not in G: "
                      f"raise UNDEFINED_ASSIGNMENT({name!r})", Where(node))
        for k in keys:
            self.emit(f"G[{k!r}] = {value}", read)
        self.emit(f"if HOOKS: HOOKS.fire({name!r}, {value})")
        return value

    def global_key(self, name):
        """The global an assignment to `name` here writes (None for a local)."""
        depth, key = self.compiler.resolve_in(self.scope, name)
        return key if depth is None else None


def _inlinable(node, arity):
    """A function literal whose body can run inline, in the code that applies it: it has the
    arity asked for, no locals (fresh in every call) and does not name itself (.f)."""
    return isinstance(node, ast.Lambda) and node.arity == arity and not node.locals \
        and not node.outer_params \
        and not any(isinstance(n, ast.Name) and n.name == ".f" for n in walk(node))


def _klong_name(node):
    return node.name if isinstance(node, ast.Name) else None


def _identifier(name):
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def _is_literal_number(expr):
    e = expr.strip("()")
    try:
        float(e)
        return True
    except ValueError:
        return False


def _number_test(a):
    return f"(type({a}) is int or type({a}) is float)"


def _are_numbers(a, b):
    """The Python test that both operands are plain numbers (None: they are literals)."""
    tests = [_number_test(v) for v in (a, b) if not _is_literal_number(v)]
    return " and ".join(tests) if tests else None
