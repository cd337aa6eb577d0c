"""The IR rendered as Python source: one chunk becomes one Python function.

Every function literal in the chunk becomes a nested Python function (made by a factory
each time the literal is evaluated, so its closure cells are its own), which Python's own
`compile()` turns into bytecode once. What makes the code fast:

- parameters and declared locals are Python locals (a nested literal sees its enclosing
  function's locals as closure cells, which is Klong's lexical scope, language.md 6.3);
- a verb with a scalar form (+ - * < > = | & and negate, not) runs inline on plain Python
  numbers, behind a type test that hands anything else to the verb itself;
- a conditional is a Python `if`, its predicate tested without building a Klong value;
- a call of a lambda calls its Python function directly, and a function calling the global
  it is being defined under (Lambda.defined_as) calls itself without a lookup;
- the loops the passes made inline (While, Converge, Iterate) are Python loops with the
  literal's body inline, +/a*b (SumOfProducts) the library's inner product, and a function
  literal's whole-array form (Lambda.whole) a second Python function beside it (pywhole.py).

The source is built from structured pieces, never edited afterwards: a block is a list of
lines and nested blocks (indented one more), an operand knows what it is (`Operand`), and
what must be known before a line is written (a function's `nonlocal` names, whether a
predicate needs statements of its own) is found out from the IR first.

Errors keep their Klong kind and position at no cost to code that does not fail: every verb
call, name lookup and function call is on a line of its own, a table maps the generated
line to the Klong source position (`Where`), and each generated function has one exception
handler that looks the failing line up (`failure`). What the code calls when it runs is in
verbs/compiled.py.
"""
import re
from contextlib import contextmanager
from ..syntax.cache import TextCache

from ..lower import ir
from ...verbs import VERBS
from . import common, pywhole
from ...verbs.forms import derived_caller, derived_forms, op_forms, sum_of_each
from ...verbs import compiled
from ...verbs.structural import compress, compress_compared
from ...verbs.atomic import joined_chars
from ...verbs import progressions as later
from ..passes import progressions
from .pyparts import LITERAL, LOCAL, NAME, TEMP, VARIABLE, Level, Line, Operand, Where


def render(chunk, interp):
    """A Python callable running the ir.Chunk `chunk` (passes run): f(None) gives its value."""
    source, table, namespace = Renderer(interp).chunk(chunk)
    namespace["W"] = table
    exec(_compiled(source), namespace)
    return namespace["chunk"]


def source(chunk, interp):
    """The Python source `render` runs for `chunk` (for tests and for reading)."""
    return Renderer(interp).chunk(chunk)[0]


# compiled code by its source, across interpreters: bounded by the source's length too
_compiled_code = TextCache(max_chars=2**21, max_entries=2048)


def _compiled(text):
    """Python source to a code object, once: the same Klong text renders the same source,
    its constants live in the namespace it runs in."""
    code = _compiled_code.get(text)
    if code is None:
        code = compile(text, "<klong>", "exec")
        _compiled_code.put(text, code, len(text))
    return code


def _klong_name(node):
    """The Klong name a node reads, for 'undefined' messages."""
    if isinstance(node, (ir.Local, ir.Global)):
        return node.name
    return ".f" if isinstance(node, ir.Self) else None


def _identifier(name):
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def _number_test(a):
    return f"(type({a}) is int or type({a}) is float)"


def _are_numbers(a, b):
    """The Python test that both operands are plain numbers (None: both are literals)."""
    tests = [_number_test(v) for v in (a, b) if v.kind != LITERAL]
    return " and ".join(tests) if tests else None


def _folded(test):
    """The Python test `test` with the parts that read no variable worked out now: a
    guard's tests of a literal operand (`type(2) is int and 0 < 2 < 64`) cost nothing."""
    import ast                  # (only code with a guarded verb on a literal needs it)

    def fold(node):
        if isinstance(node, ast.BoolOp):
            stop = isinstance(node.op, ast.Or)  # the value that decides an `or`: true
            parts = []
            for part in map(fold, node.values):
                if isinstance(part, ast.Constant):
                    if bool(part.value) == stop:
                        return ast.Constant(stop)
                else:
                    parts.append(part)
            if not parts:
                return ast.Constant(not stop)
            return parts[0] if len(parts) == 1 else ast.BoolOp(node.op, parts)
        names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        if names <= {"type", "int", "float"}:
            return ast.Constant(eval(compile(ast.Expression(node), "<guard>", "eval"),
                                     {"__builtins__": {}, "type": type, "int": int,
                                      "float": float}))
        return node
    return f"({ast.unparse(fold(ast.parse(test, mode='eval').body))})"


def _truth(v):
    return f"(({v} != 0) if type({v}) is int else TRUTH({v}))"


def nonlocals(fn, level):
    """The Python names the Python function of the literal `fn` (rendered at `level`, whose
    outer levels are named) must declare nonlocal: the variables of the literals around it
    that it assigns, itself or in a literal inlined into it (a loop's)."""
    found = set()
    stack = [(s, 0) for s in fn.body]
    while stack:
        node, inlined = stack.pop()
        if isinstance(node, ir.SetLocal) and node.depth > inlined:
            found.add(level.at(node.depth - inlined).names[node.name].text)
        if isinstance(node, ir.Lambda):
            continue                # a literal of its own: its own def
        inline = node.inlined if isinstance(node, ir.Loop) else ()
        for c in ir.children(node):
            if any(c is f for f in inline):
                stack.extend((s, inlined + 1) for s in c.body)
            else:
                stack.append((c, inlined))
    return sorted(found)


# ------------------------------------------------------------------ the renderer

class Renderer:
    """Writes the Python source of one chunk for the interpreter `interp`."""

    def __init__(self, interp):
        self.interp = interp
        self.namespace = dict(compiled.NAMES)
        self.namespace.update(G=interp.globals, INTERP=interp, HOOKS=interp.value_hooks,
                              BACKEND=interp.backend)
        self.python_names = {}          # the Python names of declared locals -> Klong names
        self.namespace["PYNAMES"] = self.python_names
        self.constants = {}
        self.count = 0                  # numbers the names of factories, bound objects
        self.level = None
        self.out = None                 # the block being written
        self.updated = set()            # the names the chunk updates in place (update())
        self.kept = {}                  # Keep's slot -> the Operand holding its value

    # -- entry
    def chunk(self, chunk):
        """(source, line table, namespace) of the ir.Chunk `chunk`."""
        self.level = Level(None)
        self.updated = {n.name for root in [chunk.body, *chunk.lambdas] for n in ir.walk(root)
                        if isinstance(n, (ir.SetLocal, ir.SetGlobal)) and n.in_place}
        body = []
        with self.writing(body):
            self.tail(chunk.body)
        top = []
        with self.writing(top):
            self.emit("def chunk(_):")
            with self.indented():
                self.guarded(body, "None")
        lines, table = [], {}
        self.assemble(top, 0, lines, table)
        return "\n".join(lines) + "\n", table, self.namespace

    def assemble(self, block, depth, lines, table):
        for item in block:
            if isinstance(item, list):
                self.assemble(item, depth + 1, lines, table)
                continue
            lines.append("    " * depth + item.text)
            if item.where is not None:
                table[len(lines)] = item.where

    # -- writing
    def emit(self, text, where=None):
        if where is not None and not where.inlined and self.level.function is not self.level:
            where.inlined = self.level.inlined_labels()
        self.out.append(Line(text, where))

    def writing(self, block):
        """Write into `block` (a list) for a while."""
        return self._for_a_while("out", block)

    @contextmanager
    def _for_a_while(self, attribute, value):
        outer = getattr(self, attribute)
        setattr(self, attribute, value)
        try:
            yield value
        finally:
            setattr(self, attribute, outer)

    def put(self, block):
        """A block written apart (a list), below the current line."""
        self.out.append(block)

    def indented(self):
        """Write into a new block below the current line."""
        block = []
        self.put(block)
        return self.writing(block)

    def at_level(self, level):
        return self._for_a_while("level", level)

    def guarded(self, body, function):
        """The block `body` (a def's) inside try/except FAIL."""
        self.emit("try:")
        self.put(body)
        self.emit("except BaseException as e:")
        with self.indented():
            self.emit(f"raise FAIL(e, W, {function})")

    def temp(self):
        owner = self.level.function
        owner.temps += 1
        return Operand(f"t{owner.temps}", TEMP)

    def assign(self, expr, where=None):
        t = self.temp()
        self.emit(f"{t} = {expr}", where)
        return t

    def const(self, value):
        """An Operand for a constant value: its text for a number, else a name."""
        t = type(value)
        # (a big integer stays a named constant: Python refuses the text of the longest)
        if (t is int and value.bit_length() <= 64
                or t is float and value == value and abs(value) != float("inf")):
            text = repr(value)
            return Operand(f"({text})" if text.startswith("-") else text, LITERAL)
        key = id(value)
        name = self.constants.get(key)
        if name is None:
            name = f"K{len(self.constants)}"
            self.constants[key] = name
            self.namespace[name] = value
        return Operand(name, NAME)

    def fresh(self, prefix):
        """A new name for a def or an object of the namespace."""
        self.count += 1
        return f"{prefix}{self.count}"

    def bind(self, value, prefix):
        """A namespace name for a Python object the generated code uses."""
        name = self.fresh(prefix)
        self.namespace[name] = value
        return name

    # -- statement forms
    def tail(self, node):
        """Emit code that returns the value of `node`."""
        if isinstance(node, ir.Cond):
            self.cond(node, tail=True)
        elif isinstance(node, ir.Seq):
            for e in node.exprs[:-1]:
                self.effect(e)
            self.tail(node.exprs[-1])
        else:
            self.emit(f"return {self.expr(node)}", Where(node, name=_klong_name(node)))

    def effect(self, node):
        """Emit code that evaluates `node` for its effects only. No temporary is left holding
        a value that a variable updated in place holds (verbs/inplace.py counts them)."""
        if isinstance(node, (ir.Const, ir.Lambda, ir.Self)):
            return
        if isinstance(node, ir.Cond):
            self.cond(node, tail=False, effect=True)
            return
        if isinstance(node, ir.Monad) and node.verb.op is None and list(node.verb.adverbs) == ["'"]:
            # Each of a function for its calls alone: its results are not gathered
            a = self.expr(node.arg)
            fn = self.expr(node.verb.fn)
            self.emit(f"EACH_EFFECT({fn}, {a})", Where(node.verb, verb=node.label, operands=[a]))
            return
        value = self.expr(node)
        if value.kind == LOCAL and isinstance(node, ir.Local):
            self.emit(value.text, Where(node, name=node.name))    # an unassigned local fails
        elif isinstance(node, ir.SetGlobal):
            self.release(node, value)

    def expr(self, node):
        """Emit code that computes `node`; returns the Operand of its value."""
        return getattr(self, "r_" + type(node).__name__)(node)

    def stable(self, later, value):
        """`value` (of an operand evaluated first) kept in a temporary when evaluating
        `later` afterwards might assign the variable it names: a declared local (any code
        may assign one: a function called may close over it; parameters are read-only)."""
        if value.kind == LOCAL and not isinstance(later, (ir.Const, ir.Local, ir.Global, ir.Self)):
            return self.assign(value)
        return value

    # -- leaves
    def r_Const(self, node):
        return self.const(node.value)

    def r_DictLit(self, node):
        return self.assign(f"DICT({self.const(node.pairs)})")

    def r_Local(self, node):
        return self.level.at(node.depth).names[node.name]

    def r_Global(self, node):
        return self.assign(f"G[{node.key!r}]", Where(node, name=node.name))

    def r_Self(self, node):
        return Operand("self_", NAME)

    def r_Keep(self, node):
        value = self.expr(node.value)
        self.kept[node.slot] = value
        return value

    def r_Kept(self, node):
        # (the Keep is rendered first, on the way to this node: passes/shared.py)
        return self.kept[node.slot]

    # -- calls
    def r_Project(self, node):
        slots = [None if a is None else self.expr(a) for a in node.slots]
        fn = self.expr(node.fn)
        listed = ", ".join("None" if s is None else s.text for s in slots)
        return self.assign(f"PROJECT({fn}, [{listed}])", Where(node))

    def r_Call(self, node):
        if node.to_self:
            # in an integer body, with integers: to that body straight, the function not
            # read (the entry checked that its global holds it; nothing here can change it)
            args = [self.expr(a) for a in node.args[:1]]
            for a in node.args[1:]:
                args[-1] = self.stable(a, args[-1])
                args.append(self.expr(a))
            return self.assign(f"run_integers({', '.join(a.text for a in args)})", Where(node))
        later = node.args[1:] + [node.fn]
        args = [self.stable(after, self.expr(a)) for a, after in zip(node.args, later)]
        fn = self.expr(node.fn)
        n = len(args)
        listed = ", ".join(a.text for a in args)
        where = Where(node)
        general = f"CALL({fn}, [{listed}], {node.callee!r})"
        level = self.level
        if node.callee is not None and level.defined_as is not None \
                and n == level.fn.arity and isinstance(node.fn, ir.Global) \
                and node.fn.key == level.defined_as:
            # the function calls the global it is being defined under: while that still
            # holds this function, call its Python function without a lookup
            return self.assign(f"run({listed}) if {fn} is self_ else {general}", where)
        return self.assign(f"{fn}.run({listed}) if type({fn}) is LAMBDA and {fn}.arity == {n}"
                           f" else {general}", where)

    # -- verbs
    def r_Monad(self, node):
        verb = node.verb
        if not verb.primitive:
            return self.derived(node, [self.expr(node.arg)])
        entry = VERBS[verb.op]
        a = self.expr(node.arg)
        where = Where(verb, verb=node.label, operands=[a])
        if entry.any_monad and a.kind != LITERAL:      # (a number's text: `1 is ...` warns)
            return self.assign(entry.any_monad.format(a=a), where)
        f = self.bind(common.monad(verb.op, self.interp), "M")
        general = f"{f}({a})"
        if entry.text_monad and a.kind != LITERAL and not node.numbers:
            general = f"({entry.text_monad.format(a=a)}) if type({a}) is str else {general}"
        if entry.scalar_monad:
            fast = entry.scalar_monad.format(a=a)
            if node.numbers:                # a known number: no test (passes/numbers.py)
                return self.assign(fast, where)
            return self.assign(f"({fast}) if {_number_test(a)} else {general}", where)
        return self.assign(general, where)

    def r_Dyad(self, node):
        if progressions.chain_side(node) is not None:
            return self.progression(node, True)
        verb = node.verb
        b = self.stable(node.left, self.expr(node.right))
        a = self.expr(node.left)
        if not verb.primitive:
            return self.derived(node, [a, b])
        return self.applied_dyad(node, a, b)

    def applied_dyad(self, node, a, b):
        """The primitive dyad of the Dyad node applied to its operands a and b, evaluated."""
        verb = node.verb
        entry = VERBS[verb.op]
        where = Where(verb, verb=node.label, operands=[a, b])
        f = self.bind(common.dyad(verb.op), "V")
        if entry.scalar_dyad:
            guard = None if node.numbers else _are_numbers(a, b)
            fast = entry.scalar_dyad.format(a=a, b=b)
            if entry.scalar_guard:
                extra = entry.scalar_guard.format(a=a, b=b)
                if LITERAL in (a.kind, b.kind):
                    extra = _folded(extra)
                guard = extra if guard is None else f"{guard} and {extra}"
            if guard is None:
                return self.assign(fast, where)
            return self.assign(f"({fast}) if {guard} else {f}({a}, {b})", where)
        # the forms for an operand of one type, each behind its test, the verb for the rest
        general = f"{f}({a}, {b})"
        if a.kind == LITERAL:
            return self.assign(general, where)
        if entry.text_dyad:
            fast = entry.text_dyad.format(a=a, b=b)
            guard = " and ".join(f"type({v}) is str" for v in (a, b) if not self.is_text(v))
            general = f"({fast}) if {guard} else {general}"
        if entry.dict_dyad:
            fast = entry.dict_dyad.format(a=a, b=b)
            guard = f"type({a}) is DICT and (type({b}) is int or type({b}) is str)"
            general = f"({fast}) if {guard} else {general}"
        if entry.element_dyad and self.interp.backend.element_is_item:
            array = self.array_type()
            fast = entry.element_dyad.format(a=a, b=b, T=array)
            guard = entry.element_guard.format(a=a, b=b, T=array)
            general = f"({fast}) if {guard} else {general}"
        return self.assign(general, where)

    def is_text(self, operand):
        """Is `operand` a string constant (its type needs no test)?"""
        return operand.kind == NAME and type(self.namespace.get(operand.text)) is str

    def progression(self, node, last):
        """A marked chain of + - * around an Enumerate (passes/progressions.py): its verbs
        as verbs/progressions.py applies them, in their order and at their places; the
        chain's `last` dyad gives the vector, the others what the next one takes."""
        side, enumerate_ = progressions.chain_side(node)

        def link(child):
            if not enumerate_:
                return self.progression(child, False)
            k = self.expr(child.arg)
            where = Where(child.verb, verb=child.label, operands=[k])
            return self.assign(f"{self.bind(later.enumerate_later, 'M')}({k})", where)
        b = self.stable(node.left, link(node.right) if side == "right"
                        else self.expr(node.right))
        a = link(node.left) if side == "left" else self.expr(node.left)
        where = Where(node.verb, verb=node.label, operands=[a, b])
        f = self.bind(later.dyad(node.verb.op, node.label, last), "V")
        return self.assign(f"{f}({a}, {b})", where)

    def array_type(self):
        """The namespace name of the backend's array type."""
        if "ARRAY_TYPE" not in self.namespace:
            self.namespace["ARRAY_TYPE"] = self.interp.backend.array_type
        return "ARRAY_TYPE"

    def derived(self, node, operands):
        """A verb with adverbs, or a function in verb position, applied to `operands`."""
        verb = node.verb
        arity = len(operands)
        where = Where(verb, verb=node.label, operands=operands)
        listed = ", ".join(o.text for o in operands)
        if verb.op is not None:
            forms = derived_forms(op_forms(verb.op, self.interp.batch), verb.adverbs)
            f = self.bind(forms.monad if arity == 1 else forms.dyad, "D")
            return self.assign(f"{f}({listed})", where)
        apply = self.bind(derived_caller(verb.adverbs, arity), "A")
        tried = common.whole_first(verb.fn) if arity == 1 and list(verb.adverbs) == ["'"] \
            else None
        if tried is not None:
            # Each of a literal with a whole form (`{x@2}'m`, `{x|0.0}'m`): that form called
            # first, the literal's value made only where it gives no result
            whole = pywhole.write(self, verb.fn)
            result = self.assign(f"{whole}({listed})" if tried == "bare"
                                 else f"{whole}({listed}) if NUMERIC({listed}) else None")
            self.emit(f"if {result} is None:")
            with self.indented():
                self.emit(f"{result} = {apply}({self.expr(verb.fn)}, {listed})", where)
            return result
        fn = self.expr(verb.fn)
        return self.assign(f"{apply}({fn}, {listed})", where)

    def r_Differentiate(self, node):
        action = self.bind(common.differentiation(node, self.interp), "H")
        b = self.expr(node.right)
        a = self.expr(node.left)
        # the differentiation operators' messages say what failed: no verb named
        return self.assign(f"{action}({a}, {b})", Where(node, verb=""))

    def r_SumOfProducts(self, node):
        """+/a*b: the library's inner product for two real vectors, else as written."""
        b = self.stable(node.left, self.expr(node.right))
        a = self.expr(node.left)
        result = self.assign(f"DOT({a}, {b})")
        self.emit(f"if {result} is None:")
        with self.indented():
            product = self.assign(f"{self.bind(VERBS['*'].dyad, 'V')}({a}, {b})",
                                  Where(node.times, verb="times", operands=[a, b]))
            over = self.bind(derived_forms(op_forms("+"), ["/"]).monad, "D")
            self.emit(f"{result} = {over}({product})",
                      Where(node.over, verb="plus over", operands=[product]))
        return result

    def r_Compress(self, node):
        """a@&m: the items of a at the mask m's 1s at once (verbs/structural.py, compress),
        else Where and At as written. A mask that is a comparison (`x@&x<y`) is first
        tried as the library's truths (compress_compared), else made as written."""
        compared = common.comparison(node.mask)
        if compared is None:
            m = self.expr(node.mask)
            a = self.expr(node.left)    # a variable: reading it after m changes nothing
            result = self.assign(f"{self.bind(compress, 'C')}({a}, {m})")
            self.emit(f"if {result} is None:")
            with self.indented():
                self.compressed_as_written(node, result, a, m)
            return result
        c = self.stable(compared.left, self.expr(compared.right))
        b = self.expr(compared.left)
        a = self.expr(node.left)        # (read after the comparison's operands, as above)
        op = self.bind(common.COMPARED[compared.verb.op], "O")
        result = self.assign(f"{self.bind(compress_compared, 'C')}({a}, {op}, {b}, {c})")
        self.emit(f"if {result} is None:")
        with self.indented():
            m = self.applied_dyad(compared, b, c)
            self.emit(f"{result} = {self.bind(compress, 'C')}({a}, {m})")
            self.emit(f"if {result} is None:")
            with self.indented():
                self.compressed_as_written(node, result, a, m)
        return result

    def compressed_as_written(self, node, result, a, m):
        """a@&m of a Compress node by Where and At as written, into `result`."""
        at_label, expand_label = node.labels
        expand = self.bind(common.monad("&", self.interp), "M")
        positions = self.assign(f"{expand}({m})",
                                Where(node.expand, verb=expand_label, operands=[m]))
        self.emit(f"{result} = {self.bind(common.dyad('@'), 'V')}({a}, {positions})",
                  Where(node.at, verb=at_label, operands=[a, positions]))

    def r_JoinedChars(self, node):
        """,/:#a: the text of the codes at once, else Char and Join-Over as written."""
        a = self.expr(node.arg)
        result = self.assign(f"{self.bind(joined_chars, 'J')}({a})")
        self.emit(f"if {result} is None:")
        with self.indented():
            chars_label, over_label = node.labels
            listed = self.assign(f"{self.bind(common.monad(':#', self.interp), 'M')}({a})",
                                 Where(node.chars, verb=chars_label, operands=[a]))
            over = self.bind(derived_forms(op_forms(",", self.interp.batch), ["/"]).monad, "D")
            self.emit(f"{result} = {over}({listed})",
                      Where(node.over, verb=over_label, operands=[listed]))
        return result

    def r_SumOfEach(self, node):
        """+/f'x: f's results summed as they come (verbs/forms.py, sum_of_each), else the
        list f'x gave summed as written."""
        each = node.each
        a = self.expr(each.arg)
        fn = self.expr(each.verb.fn)
        summed = self.bind(sum_of_each, "S")
        result = self.assign(f"{summed}({fn}, {a})",
                             Where(each.verb, verb=each.label, operands=[a]))
        self.emit(f"if type({result}) is not int and type({result}) is not float:")
        with self.indented():
            over = self.bind(derived_forms(op_forms("+", self.interp.batch), ["/"]).monad, "D")
            self.emit(f"{result} = {over}({result})",
                      Where(node.over, verb=node.label, operands=[result]))
        return result

    def r_JoinEntry(self, node):
        """a,k,v: the entry put into a dictionary a directly, else the two joins."""
        v = self.stable(node.left, self.stable(node.key, self.expr(node.value)))
        k = self.stable(node.left, self.expr(node.key))
        a = self.expr(node.left)
        # an integer key is its own in the table (runtime/values.Dict): the entry written
        result = self.temp()
        self.emit(f"if type({a}) is DICT and type({k}) is int"
                  f" and (type({v}) is int or type({v}) is float):")
        with self.indented():
            self.emit(f"{a}.table[{k}] = ({k}, {v})")
            self.emit(f"{result} = {a}")
        self.emit("else:")
        with self.indented():
            self.emit(f"{result} = JOIN_ENTRY({a}, {k}, {v})")
        self.emit(f"if {result} is None:")
        with self.indented():
            join = self.bind(common.dyad(","), "V")
            outer, inner = node.labels
            pair = self.assign(f"{join}({k}, {v})", Where(node.inner, verb=inner, operands=[k, v]))
            self.emit(f"{result} = {join}({a}, {pair})",
                      Where(node.outer, verb=outer, operands=[a, pair]))
        return result

    def condition(self, node):
        """(test, where): a Python boolean expression saying whether the value of `node` is
        true, and the Where of the line that must hold it (None: any line). Comparisons of
        plain numbers are tested directly, the general verb only runs for other values."""
        if isinstance(node, ir.Dyad) and node.verb.primitive and VERBS[node.verb.op].compare:
            entry = VERBS[node.verb.op]
            b = self.stable(node.left, self.expr(node.right))
            a = self.expr(node.left)
            guard = None if node.numbers else _are_numbers(a, b)
            fast = f"{a} {entry.compare} {b}"
            if guard is None:
                return fast, None
            f = self.bind(common.dyad(node.verb.op), "V")
            return (f"(({fast}) if {guard} else TRUTH({f}({a}, {b})))",
                    Where(node.verb, verb=node.label, operands=[a, b]))
        if isinstance(node, ir.Monad) and node.verb.primitive and VERBS[node.verb.op].test_monad \
                and not isinstance(node.arg, ir.Const):     # (`1 is ...` warns)
            return VERBS[node.verb.op].test_monad.format(a=self.expr(node.arg)), None
        return _truth(self.expr(node)), None

    # -- structure
    def r_Seq(self, node):
        for e in node.exprs[:-1]:
            self.effect(e)
        return self.expr(node.exprs[-1])

    def r_Cond(self, node):
        return self.cond(node, tail=False)

    def cond(self, node, tail, effect=False):
        """:[p;c;...;a] as if/elif/else. A predicate's statements are written first, apart:
        one that needs statements of its own opens a nested if in the else branch, where
        they go, instead of an elif. `effect`: for the branches' effects only."""
        result = None if tail or effect else self.temp()
        top = self.out
        try:
            for i, (predicate, consequent) in enumerate(node.clauses):
                keyword = "if"
                if i == 0:
                    test, where = self.condition(predicate)
                else:
                    before = []
                    with self.writing(before):
                        test, where = self.condition(predicate)
                    if before:
                        self.emit("else:")
                        self.put(before)
                        self.out = before       # the clauses after it go there too
                    else:
                        keyword = "elif"
                self.emit(f"{keyword} {test}:", where)
                with self.indented():
                    self.branch(consequent, result, effect)
            self.emit("else:")
            with self.indented():
                self.branch(node.otherwise, result, effect)
        finally:
            self.out = top
        return result

    def branch(self, node, result, effect=False):
        if effect:
            self.effect(node)
            if not self.out:
                self.emit("pass")
        elif result is None:
            self.tail(node)
        else:
            self.emit(f"{result} = {self.expr(node)}", Where(node, name=_klong_name(node)))

    def r_Lambda(self, fn):
        """Emit a factory for the literal's function values and call it: a function literal
        is evaluated each time control reaches it (so its closure cells are its own)."""
        facts = self.bind(fn.facts, "FACTS")
        factory = self.fresh("make")
        level = Level(self.level, fn)
        for p in fn.params:
            level.names[p] = Operand(p, VARIABLE)
        for name in fn.locals:
            python = f"v{len(self.python_names)}_{_identifier(name)}"
            level.names[name] = Operand(python, LOCAL)
            self.python_names[python] = name
        body = self.function_body(fn, level, fn.body)
        params = ", ".join(fn.params)
        integers, reals = fn.integer_body, fn.real_body
        self.emit(f"def {factory}():")
        with self.indented():
            if integers is not None:
                # its own body for integer arguments (passes/numbers.py), entered past
                # run's exception handler: a failure there names the function once
                self.emit(f"def run_integers({params}):")
                with self.indented():
                    self.guarded(self.function_body(fn, level.again(), integers), "self_")
            self.emit(f"def run({params}):")
            with self.indented():
                if integers is not None:
                    test = " and ".join(f"type({p}) is int" for p in fn.params)
                    if fn.integer_key is not None:
                        test += f" and G.get({fn.integer_key!r}) is self_"
                    self.emit(f"if {test}: return run_integers({params})")
                if reals is not None:
                    # and for real ones (passes/numbers.py): a branch, not a call of its own
                    test = " and ".join(f"type({p}) is float" for p in fn.params)
                    body = self.function_body(fn, level, fn.body, reals=(test, reals))
                self.guarded(body, "self_")     # (which makes self_ a local the frame shows)
            whole = pywhole.write(self, fn) if fn.whole is not None else None
            self.emit(f"self_ = LAMBDA(run, {facts}, {whole or 'None'}, BACKEND)")
            self.emit("return self_")
        return self.assign(f"{factory}()")

    def function_body(self, fn, level, statements, reals=None):
        """The block of a Python function running the literal `fn`'s `statements` (its
        body, or its integer body) at `level`. reals: (test, statements) run instead
        where the Python test holds."""
        body = []
        with self.at_level(level), self.writing(body):
            declared = nonlocals(fn, level)
            if declared:
                self.emit("nonlocal " + ", ".join(declared))
            if fn.locals:       # makes them locals: inner defs may assign them as nonlocals
                self.emit(f"if 0: {' = '.join(level.names[n].text for n in fn.locals)} = None")
            if reals is not None:
                test, real_statements = reals
                self.emit(f"if {test}:")
                with self.indented(), self.at_level(level.again()):
                    self.statements(real_statements)
            self.statements(statements)
        return body

    def statements(self, statements):
        """A function's statements, the last one's value returned."""
        for s in statements[:-1]:
            self.effect(s)
        self.tail(statements[-1])

    # -- loops of function literals, inline
    def inline_body(self, fn, args, as_condition=False):
        """Emit the body of the function literal `fn` with its parameters bound to the
        Operands `args`; returns its value (or, as_condition, the pair condition() gives)."""
        label = fn.facts.label()
        level = Level(self.level, fn, owner=self.level.function, label=label)
        level.names.update(zip(fn.params, args))
        for name in fn.locals:      # set before read at every step (passes/loops.py)
            python = f"v{len(self.python_names)}_{_identifier(name)}"
            level.names[name] = Operand(python, LOCAL)
            self.python_names[python] = name
        with self.at_level(level):
            for s in fn.body[:-1]:
                self.effect(s)
            last = fn.body[-1]
            if not as_condition:
                return self.expr(last)
            test, where = self.condition(last)
            if where is not None:       # its line is written after this level is left
                where.inlined = level.inlined_labels()
            return test, where

    def loop_variable(self, value):
        """The variable a loop keeps its value in (the inlined literal's x)."""
        return Operand(self.assign(value).text, VARIABLE)

    def r_While(self, node):
        """p f:~b as `while p(v): v = f(v)`; p f\\~b gathers every v the loop tests true."""
        b = self.stable(node.predicate, self.expr(node.init))
        inline = node.inline_predicate
        predicate = None if inline else self.expr(node.predicate)
        v = self.loop_variable(b)
        # (a scan names itself and its operands where it fails, as the adverb's call would)
        named = Where(node.verb, verb="scan-while",
                      operands=[Operand("INLINE_MONAD", NAME) if inline else predicate, b])
        scan = self.scan_start(node, "None")
        self.emit("while True:")
        with self.indented():
            if inline:
                test, where = self.inline_body(node.predicate, [v], as_condition=True)
            else:
                where = named if node.scan else Where(node.verb, verb="while")
                p = self.assign(f"CALL({predicate}, [{v}], None)", where)
                test, where = _truth(p), None
            self.emit(f"if not {test}: break", where)
            if scan is not None:
                self.emit(f"{scan[1]}({v})", named)
            self.emit(f"{v} = {self.inline_body(node.body, [v])}")
        return self.scan_end(scan, v)

    def scan_start(self, node, count, where=None):
        """For a scanning loop (node.scan), (the list it gives, the function adding a value
        to it); None for any other loop. `count`: the Python expression of how many values
        it will have, when known."""
        if not node.scan:
            return None
        parts, add = self.temp(), self.temp()
        self.emit(f"{parts}, {add} = SCAN_START({count})", where)
        return parts, add

    def scan_end(self, scan, v):
        """The loop's value: v, or for a scanning loop the list of its values."""
        return v if scan is None else self.assign(f"MAKE_LIST({scan[0]})")

    def r_Converge(self, node):
        """f:~a as a loop that stops when f(v) matches v; f\\~a gathers every v."""
        b = self.expr(node.init)
        v = self.loop_variable(b)
        named = Where(node.verb, verb="scan-converging", operands=[b])
        scan = self.scan_start(node, "None")
        if scan is not None:
            self.emit(f"{scan[1]}({v})", named)
        result = self.temp()
        self.emit("while True:")
        with self.indented():
            self.emit(f"{result} = {self.inline_body(node.body, [v])}")
            self.emit(f"if (({result} == {v}) if type({result}) is int and type({v}) is int"
                      f" else MATCH({result}, {v})): break")
            if scan is not None:
                self.emit(f"{scan[1]}({result})", named)
            self.emit(f"{v} = {result}")
        return self.scan_end(scan, result)

    def r_Iterate(self, node):
        """n f:*a as a counted loop; n f\\*a gathers a and every value after it (a itself
        when n is 0)."""
        b = self.stable(node.count, self.expr(node.init))
        n = self.expr(node.count)
        where = Where(node.verb, verb="scan-iterating", operands=[n, b]) if node.scan \
            else Where(node.verb, verb="iterate", operands=[n])
        count = self.assign(f"ITERATIONS({n})", where)
        v = self.loop_variable(b)
        if not node.scan:
            self.emit(f"for _ in range({count}):")
            with self.indented():
                self.emit(f"{v} = {self.inline_body(node.body, [v])}")
            return v
        self.emit(f"if {count}:")
        with self.indented():
            parts, add = self.scan_start(node, f"{count} + 1", where)
            self.emit(f"{add}({v})", where)
            self.emit(f"for _ in range({count}):")
            with self.indented():
                self.emit(f"{v} = {self.inline_body(node.body, [v])}")
                self.emit(f"{add}({v})", where)
            self.emit(f"{v} = MAKE_LIST({parts})")
        return v

    # -- assignment
    def r_SetLocal(self, node):
        if node.in_place:
            return self.update(node)
        value = self.expr(node.value)
        # the value may be a local read right here, `a::b`, which fails when b has none yet
        read = Where(node.value, name=_klong_name(node.value))
        target = self.level.at(node.depth).names[node.name]
        self.emit(f"{target} = {value}", read)
        self.emit(f"if HOOKS: HOOKS.fire({node.name!r}, {target})")
        self.release(node, value)
        return target

    def release(self, node, value):
        """A temporary that holds the value just assigned to a variable updated in place
        lets it go: held twice, the array would be copied at its first update."""
        if value.kind == TEMP and node.name in self.updated:
            self.emit(f"{value} = None")

    def r_SetGlobal(self, node):
        if node.in_place:
            return self.update(node)
        value = self.expr(node.value)
        read = Where(node.value, name=_klong_name(node.value))
        if node.in_function:
            self.emit(f"if INTERP.strict and {node.keys[0]!r} not in G: "
                      f"raise UNDEFINED_ASSIGNMENT({node.name!r})", Where(node))
        for k in node.keys:
            self.emit(f"G[{k!r}] = {value}", read)
        self.emit(f"if HOOKS: HOOKS.fire({node.name!r}, {value})")
        return value

    def update(self, node):
        """name::name:=b (passes/updates.py): UPDATE writes the variable's array in place
        when it is held by nothing but the variable's slot (and, for a global, the
        temporary it is read into, which a loop reuses: effect() empties it afterwards)."""
        dyad = node.value
        joined = progressions.joined(dyad)
        # (a marked join: written where it points, by an update of the same shape)
        b = self.progression(dyad.right, False) if joined else self.expr(dyad.right)
        a = self.expr(dyad.left)
        where = Where(dyad.verb, verb=dyad.label, operands=[a, b])
        op = dyad.verb.op
        update = self.bind(later.update(dyad.label), "U") if joined else "UPDATE"
        if isinstance(node, ir.SetLocal):
            target = self.level.at(node.depth).names[node.name]
            self.emit(f"{target} = {update}({a}, {b}, 1, {op!r})", where)
        else:
            target = a
            self.emit(f"{a} = {update}({a}, {b}, 2, {op!r})", where)
            self.emit(f"G[{node.keys[0]!r}] = {a}")
        self.emit(f"if HOOKS: HOOKS.fire({node.name!r}, {target})")
        return target
