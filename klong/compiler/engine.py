"""The pipeline that makes a parsed chunk runnable for one interpreter: lower the syntax tree
to the IR (lower/), run the passes over it (passes/), render it (render/).

A chunk renders as Python source (render/pysource.py) when the interpreter generates code
(its `codegen` option; KLONG_CODEGEN=0 turns it off) and the chunk holds a function
literal; otherwise, and for a chunk nested deeper than Python compiles (about a hundred
levels of blocks), as closures (render/closures.py). A chunk without a function literal
runs no loop of its own and costs less to render as closures than as source to compile (a
file of 20,000 such lines: 2 s against 7 s).

What a chunk renders to depends only on it while no module renames names, so it is kept
for text that runs again (parses are shared: the parser keeps them by text).
"""
from ..runtime.functions import Lambda
from ..runtime.values import on_backend
from . import passes
from .lower import lower
from .render import closures

KEPT_CHUNKS = 1024      # rendered chunks an interpreter keeps for text it runs again


class Engine:
    """The pipeline for the interpreter `interp`, and the chunks it has rendered. It is
    what lowering asks about the interpreter (lower.Surroundings)."""

    def __init__(self, interp):
        self.interp = interp
        self.kept = {}      # id(parsed chunk) -> (that chunk, codegen, what it rendered to)

    def runnable(self, node):
        """A callable `run(None)` giving the value of the parsed chunk `node`."""
        codegen = self.interp.codegen
        if self.interp.modules.current is not None:
            return self.render(node, codegen)
        entry = self.kept.get(id(node))
        if entry is not None and entry[0] is node and entry[1] == codegen:
            return entry[2]
        run = self.render(node, codegen)
        if len(self.kept) >= KEPT_CHUNKS:
            self.kept.clear()
        self.kept[id(node)] = (node, codegen, run)
        return run

    def render(self, node, codegen):
        chunk = passes.run(lower(node, self), self.interp.batch)
        if codegen and chunk.lambdas:
            # imported here, not at start-up: a chunk without a function literal (all that
            # kgpy -e 1 runs) never needs the code generator
            from .render import pysource
            try:
                return pysource.render(chunk, self.interp)
            except (SyntaxError, RecursionError, MemoryError):
                pass
        return closures.render(chunk, self.interp)

    # -- what lowering needs of the interpreter (lower.Surroundings)
    @property
    def globals(self):
        return self.interp.globals

    def global_key(self, name):
        return self.interp.modules.resolve(name)

    def assignment_keys(self, name, top_level):
        return self.interp.modules.assignment_targets(name, top_level)

    def constant(self, value):
        return on_backend(value, self.interp.backend)

    def allows_elements(self, n):
        return self.interp.limits.allows(n)

    @staticmethod
    def facts(fn):
        """What the compiler knows of the function value `fn` (its LambdaFacts: source text,
        the globals it reads, whether it has effects ...), or None for a function not made
        from a Klong literal."""
        return fn.facts if isinstance(fn, Lambda) else None
