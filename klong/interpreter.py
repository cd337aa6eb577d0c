"""KlongInterpreter: runs Klong source, and lets Python read, write and call Klong names."""
import sys

from . import backends
from .autograd import Differentiation
from .compile import Compiler
from .errors import KlongBackendError, KlongError
from .pyconv import to_klong, to_python
from .syntax.lexer import Incomplete, bracket_depth, tokenize
from .syntax.parser import parse

RECURSION_LIMIT = 12000


class Modules:
    """Module state (language.md 6.5): names defined at the top level of the open module are
    stored twice, privately as name`module and as the exported global; while a module is
    open, names read resolve to the private copy when the module defined them (or when no
    global of that name exists yet, a forward reference)."""

    def __init__(self, interp):
        self.interp = interp
        self.current = None
        self.defined = {}

    def open(self, name):
        if self.current is not None:
            raise KlongError("module", "nested module")
        self.current = str(name)
        self.defined.setdefault(self.current, set())

    def close(self):
        if self.current is None:
            raise KlongError("module", "no module is open")
        self.current = None

    def _private(self, name):
        return f"{name}`{self.current}"

    def _renamed(self, name):
        return self.current is not None and not name.startswith(".") and name not in ("x", "y", "z")

    def resolve(self, name, defining=False):
        if not self._renamed(name):
            return name
        if name in self.defined[self.current] or name not in self.interp.globals:
            return self._private(name)
        return name

    def assignment_targets(self, name, top_level):
        if not self._renamed(name):
            return [name]
        if top_level:
            self.defined[self.current].add(name)
            return [self._private(name), name]
        return [self.resolve(name)]


class KlongInterpreter:
    """An independent Klong interpreter with its own globals.

    k = KlongInterpreter(); k("1+1") returns 2; k["a"] = [1, 2] defines a; k["f"](3) calls a
    Klong function. Errors raise KlongError.

    backend  "numpy" (the default) or "torch"; device  a torch device ("cpu", "cuda", ...;
    the best available when None); dtype  the element type of reals: "float64" (the
    default), "float32", or on torch also "bfloat16".
    """

    def __init__(self, backend=None, device=None, dtype=None):
        from .sysfns import install
        try:
            self.backend = backends.get_backend(backend, device, dtype)
        except ValueError as e:
            raise KlongBackendError(str(e)) from None
        self.globals = {}
        self.modules = Modules(self)
        self.compiler = Compiler(self)
        self.differentiation = Differentiation(self)
        self.strict = False
        self.debug = False          # kgpy --debug: tracebacks, and torch's compiler warnings
        self.summary = None     # a display.Summary: long values printed in part (the REPL's)
        self.pending_comment = None
        if sys.getrecursionlimit() < RECURSION_LIMIT:
            sys.setrecursionlimit(RECURSION_LIMIT)
        install(self)

    @property
    def _backend(self):
        return self.backend

    @property
    def np(self):
        """The array library of the backend, for Python code that calls it directly."""
        return self.backend.array_module()

    # -- running source
    def __call__(self, source):
        """Run `source` and return the value of its last statement, as a Python value."""
        return to_python(self.run(source))

    def run(self, source, filename=None):
        """Run source text chunk by chunk (a chunk is a top-level line together with the
        lines that continue an open bracket or string); returns the last value."""
        with backends.using(self.backend):
            try:
                return self._run_lines(source.split("\n"), filename)
            except KlongError as e:
                if filename and e.filename is None:
                    e.filename = filename
                raise

    def _run_lines(self, lines, filename):
        result = None
        i = 0
        while i < len(lines):
            start = i
            text = lines[i]
            i += 1
            while i < len(lines) and self.needs_more(text):
                text += "\n" + lines[i]
                i += 1
            if text.strip():
                value = self._run_chunk(text, start)
                if value is not None:
                    result = value
            if self.pending_comment is not None:
                i = self._skip_comment(lines, i)
        return result

    @staticmethod
    def needs_more(text):
        """True while `text` ends inside a string, comment, list, dictionary, function,
        conditional or parenthesis: the chunk continues on the next line."""
        try:
            return bracket_depth(tokenize(text)) > 0
        except Incomplete:
            return True
        except KlongError:
            return False

    def run_chunk(self, text, line_offset=0, filename=None):
        with backends.using(self.backend):
            return self._run_chunk(text, line_offset)

    def _run_chunk(self, text, line_offset):
        try:
            node = parse(text, line_offset)
            if node is None:
                return None
            code = self.compiler.compile_chunk(node)
            return code(None)
        except KlongError as e:
            self._locate(e, text, line_offset)
            raise
        except RecursionError:
            raise KlongError("recursion", "recursion too deep", line_offset + 1) from None
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as e:  # a bug of ours: still a one-line Klong error, never a traceback
            raise KlongError("internal", f"{type(e).__name__}: {e}", line_offset + 1) from e

    def _locate(self, err, text, line_offset):
        if err.line is None:
            err.line = line_offset + 1
        if err.source_line is None:
            lines = text.split("\n")
            index = err.line - line_offset - 1
            if 0 <= index < len(lines):
                err.source_line = lines[index]

    def _skip_comment(self, lines, i):
        marker, self.pending_comment = self.pending_comment, None
        while i < len(lines):
            if lines[i].startswith(marker):
                return i + 1
            i += 1
        raise KlongError("syntax", "undelimited comment")

    # -- Python access to globals
    def __getitem__(self, name):
        try:
            return to_python(self.globals[name])
        except KeyError:
            raise KeyError(name) from None

    def __setitem__(self, name, value):
        with backends.using(self.backend):
            self.globals[name] = to_klong(value, self)

    def __delitem__(self, name):
        del self.globals[name]

    def __contains__(self, name):
        return name in self.globals
