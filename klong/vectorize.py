"""Loops that run as array operations: the whole-array form of a function literal, and the
spellings of inner and matrix products that become the array library's products.

`Vectorizer.whole(literal)` writes, beside a monad's Python function, a second one that
applies the monad to every element of a numeric array at once; Each calls it first
(`Lambda.whole`) and loops only when it returns None. Three shapes of body have one:

- element-wise bodies: x, numbers and numeric atomic verbs, conditionals included. The
  verbs run on the whole array (atomic verbs map over elements by definition) and a
  conditional `:[c;a;b]` evaluates c, a and b on every element and picks with `select`
  (numpy's `where`). Every branch is evaluated for every element, so any failure (a zero
  divisor in a branch not taken, say) or a result that is not one array (a mixed list)
  gives None, and the loop, which evaluates as Klong does, runs instead;
- `+/x*u` for a vector u (x a row of a matrix): one matrix-vector product;
- a row of products with the rows of a matrix m, the matrix product's inner loop:
  `x{+/x*y}:/m`, `x{+/x*y}:\\m`, or `{+/r*x}'m` where r is x. Each over the rows of a
  matrix a is then `a @ m^T`, which makes `{x{+/x*y}:/b}'a` (b::+y) the library's matmul.

On torch, Each of any other function free of effects over an array is first tried as one
trace of the function over the whole array (`traced_each`, Backend.vmap); code that
needs a value to go on (a conditional on data, an .item()) cannot be traced, and loops.

A dyad {x+g(y)} or {x*g(y)} with an element-wise g has the whole-array form of g: Over is
then the library's sum (product) of the first element and g of the others, Scan their running
sum (`mapped_fold`); reals are summed from left to right, as the loop sums them.

A product runs on the library when its operands are numeric and the integers among them
small enough that a float64 product is exact (its magnitude bound below 2^53); otherwise the
Klong spelling runs as written. The matrix products sum reals in the library's order, which
may differ from the loop's in the last bits (docs/numbers.md); `+/x*u` of two vectors sums in
the order of `+/` (Backend.fold_reals).
"""
from .render.wholes import RUNTIME, dot, is_dot, mapped_fold, rows_dot, sum_of_product, traced_each  # noqa: F401
from .scope import Scope
from .syntax import ast
from .syntax.ast import PARAMS, walk
from .verbs import VERBS

class NotVector(Exception):
    """The body has no whole-array form."""


# ------------------------------------------------------------------ recognising shapes

def plus_over_times(node):
    """(left, right) of a node spelled +/left*right, else None."""
    if isinstance(node, ast.Monad) and node.verb.op == "+" and node.verb.adverbs == ["/"]:
        arg = node.arg
        if isinstance(arg, ast.Dyad) and arg.verb.op == "*" and not arg.verb.adverbs:
            return arg.left, arg.right
    return None


def _names(node, names):
    return isinstance(node, ast.Name) and node.name in names


def is_dot_literal(literal):
    """{+/x*y} or {+/y*x}: a function literal that is the inner product of its arguments."""
    if not isinstance(literal, ast.Lambda) or literal.arity != 2 or literal.locals \
            or literal.outer_params or len(literal.body) != 1:
        return False
    pair = plus_over_times(literal.body[0])
    return pair is not None and {getattr(n, "name", None) for n in pair} == {"x", "y"}


def _aliases(literal):
    """The names equal to x in a monad's body ({[r];r::x;...}: x and r) and its last
    expression, when the statements before it only copy x into locals; else None."""
    same = {"x"}
    for s in literal.body[:-1]:
        if isinstance(s, ast.Dyad) and s.verb.op == "::" and not s.verb.adverbs \
                and s.left.name in literal.locals and _names(s.right, same):
            same.add(s.left.name)
        else:
            return None
    return same, literal.body[-1]


def _free_of(node, names):
    """Whether `node` never reads one of `names` (nor anything but verbs, names, numbers)."""
    if isinstance(node, ast.Name):
        return node.name not in names and node.name != ".f"
    if isinstance(node, ast.Const):
        return True
    if isinstance(node, ast.Monad):
        return node.verb.op is not None and not node.verb.adverbs and _free_of(node.arg, names)
    if isinstance(node, ast.Dyad):
        return node.verb.op is not None and node.verb.op != "::" and not node.verb.adverbs \
            and _free_of(node.left, names) and _free_of(node.right, names)
    return False


def _mentions_only(node, param):
    """Whether the only parameter `node` reads is `param` (it may read no parameter)."""
    return not any(isinstance(n, ast.Name) and n.name in PARAMS and n.name != param
                   for n in walk(node))


def _row_products(expr, same):
    """For an expression of a row x (names `same` equal x): the matrix m whose rows x is
    multiplied with (x{+/x*y}:/m, x{+/x*y}:\\m, {+/r*x}'m), and the dot function to check
    at run time (a name) or None; else None."""
    if isinstance(expr, ast.Dyad) and expr.verb.op is None and len(expr.verb.adverbs) == 1 \
            and expr.verb.adverbs[0] in (":/", ":\\") and _names(expr.left, same) \
            and _free_of(expr.right, same):
        fn = expr.verb.fn
        if is_dot_literal(fn):
            return expr.right, None
        if isinstance(fn, ast.Name) and fn.name not in same:
            return expr.right, fn
    if isinstance(expr, ast.Monad) and expr.verb.op is None and expr.verb.adverbs == ["'"] \
            and _free_of(expr.arg, same):
        inner = expr.verb.fn
        if isinstance(inner, ast.Lambda) and inner.arity == 1 and not inner.locals \
                and len(inner.body) == 1:
            pair = plus_over_times(inner.body[0])
            captured = same - {"x"}
            if pair is not None and (_names(pair[0], captured) and _names(pair[1], {"x"})
                                     or _names(pair[1], captured) and _names(pair[0], {"x"})):
                return expr.arg, None
    return None


def _row_dot(expr, same):
    """The vector u for an expression +/x*u or +/u*x of a row x, else None."""
    pair = plus_over_times(expr)
    if pair is None:
        return None
    a, b = pair
    if _names(a, same) and _free_of(b, same):
        return b
    if _names(b, same) and _free_of(a, same):
        return a
    return None


# ------------------------------------------------------------------ writing whole forms

class Vectorizer:
    """Writes whole-array forms into the code of a Generator (codegen.py)."""

    def __init__(self, gen):
        self.gen = gen
        gen.namespace.update(RUNTIME)

    def whole(self, literal):
        """Emit `def wholeN(x)` for the monad `literal` at the current place (its factory)
        and return that name, or None when the body has no whole-array form."""
        found = _aliases(literal) if not literal.outer_params and "x" not in literal.locals \
            else None
        if found is None:
            return None
        same, expr = found
        return self.emit_def(literal, same, lambda: self.write(expr, same))

    def fold(self, literal):
        """For a dyad {x+g(y)} or {x*g(y)} (either order), emit the whole-array form of g and
        return (its name, the verb): Over and Scan fold g of the elements with the library's
        reduction. None for other dyads."""
        if literal.arity != 2 or literal.locals or literal.outer_params or len(literal.body) != 1:
            return None
        body = literal.body[0]
        if not (isinstance(body, ast.Dyad) and body.verb.op in ("+", "*") and not body.verb.adverbs):
            return None
        for mine, mapped in ((body.left, body.right), (body.right, body.left)):
            if _names(mine, {"x"}) and not _names(mapped, {"y"}) and _mentions_only(mapped, "y"):
                name = self.emit_def(literal, {"y"}, lambda: self.gen.emit(
                    f"return WHOLE_RESULT({self.elementwise(mapped)}, x)"))
                return (name, body.verb.op) if name else None
        return None

    def emit_def(self, literal, same, write):
        """Emit `def wholeN(x)` where the names `same` of `literal` stand for the array x,
        its body written by write(); None (and nothing emitted) when it raises NotVector."""
        gen = self.gen
        start, outer = len(gen.lines), gen.scope
        gen.literals += 1
        name = f"whole{gen.literals}"
        gen.emit(f"def {name}(x):")
        gen.indent += 1
        body_start = len(gen.lines)
        gen.scope = Scope(outer.parent, literal)
        for n in same:
            gen.scope.names[n] = "x"
        try:
            write()
        except NotVector:
            del gen.lines[start:]
            return None
        finally:
            gen.scope = outer
            gen.indent -= 1
        body = gen.lines[body_start:]
        del gen.lines[body_start:]
        gen.emit("    try:")
        for line in body:
            line.indent += 1
            gen.lines.append(line)
        gen.emit("    except Exception:")
        gen.emit("        return None")
        return name

    def write(self, expr, same):
        gen = self.gen
        rows = _row_products(expr, same)
        if rows is not None:
            matrix, dot_name = rows
            if dot_name is not None:
                f = gen.expr(dot_name)
                gen.emit(f"if not IS_DOT({f}): return None")
            gen.emit(f"return ROWS_PRODUCT(x, {gen.expr(matrix)})")
            return
        vector = _row_dot(expr, same)
        if vector is not None:
            gen.emit(f"return ROWS_DOT(x, {gen.expr(vector)})")
            return
        gen.emit(f"return WHOLE_RESULT({self.elementwise(expr)}, x)")

    def elementwise(self, node):
        """Emit the element-wise evaluation of `node` over the array x; returns its value."""
        gen = self.gen
        if isinstance(node, ast.Const):
            if type(node.value) not in (int, float):
                raise NotVector
            return gen.const(node.value)
        if isinstance(node, ast.Name):
            if node.name == ".f":
                raise NotVector
            value = gen.expr(node)
            if value != "x":
                gen.emit(f"if not IS_NUMBER({value}): return None")
            return value
        if isinstance(node, (ast.Monad, ast.Dyad)) and node.verb.op is not None \
                and not node.verb.adverbs:
            facts = VERBS.get(node.verb.op)
            if isinstance(node, ast.Monad) and facts is not None and facts.numeric_monad:
                a = self.elementwise(node.arg)
                return gen.assign(f"{gen.bind(facts.monad, 'M')}({a})")
            if isinstance(node, ast.Dyad) and facts is not None and facts.numeric_dyad:
                b = self.elementwise(node.right)
                a = self.elementwise(node.left)
                return gen.assign(f"{gen.bind(facts.dyad, 'V')}({a}, {b})")
            raise NotVector
        if isinstance(node, ast.Cond):
            return self.conditional(node)
        raise NotVector

    def conditional(self, node):
        """:[c;a;b] as select(c, a, b), clause by clause from the last."""
        gen = self.gen
        result = self.elementwise(node.otherwise)
        for predicate, consequent in reversed(node.clauses):
            choice = gen.assign(f"MASK({self.elementwise(predicate)}, x)")
            gen.emit(f"if {choice} is None: return None")
            value = self.elementwise(consequent)
            result = gen.assign(f"SELECT({choice}, {value}, {result})")
            gen.emit(f"if {result} is None: return None")
        return result
