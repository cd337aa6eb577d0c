"""KlongInterpreter: runs Klong source, and lets Python read, write and call Klong names."""
import os

from . import backends
from .backends import arrays
from .runtime import settings
from .runtime.autograd import Differentiation
from .runtime.capture import Capture, enabled_by_default
from .compiler.engine import Engine
from .runtime.context import RECURSION_LIMIT, Context, entered, handing_out  # noqa: F401
from .errors import KlongBackendError, KlongError, as_klong_error
from .runtime.hooks import Hooks
from .runtime.limits import Limits
from .runtime.memory import Memory
from .backends.randomness import Randomness
from .runtime.pyconv import to_klong, to_python
from .sysfns import install
from .compiler.syntax.lexer import Continuation, is_name
from .compiler.syntax.parser import comment_hint, parse


COMPLETE_LINES = 1024      # one-line sources remembered as complete chunks (_run_lines)
# results that to_python gives as they are (arrays too)
_AS_IS = frozenset({int, float, str, type(None)})


def _source(source):
    """What k(...), k.run and k.run_chunk are given, checked: Klong source is text."""
    if isinstance(source, str):
        return source
    if isinstance(source, (bytes, bytearray)):
        raise TypeError("Klong source is text (str), not bytes: decode it first")
    raise TypeError(f"Klong source is text (str), not {type(source).__name__}")


def _variable(name):
    """A name given by Python (k[name] = value), checked: a name Klong reads, or a module's
    private name (name`module), as the globals hold them."""
    if not isinstance(name, str):
        raise TypeError(f"a Klong variable is named by a str, not {type(name).__name__}")
    parts = name.split("`")
    if len(parts) > 2 or not all(is_name(p) for p in parts):
        raise ValueError(f"not a Klong name: {name!r}")
    return name


class Modules:
    """Module state (language.md 6.5): names defined at the top level of the open module are
    stored twice, privately as name`module and as the exported global; while a module is
    open, names read resolve to the private copy when the module defined them (or when no
    global of that name exists yet, a forward reference).

    An error while a module is open closes it and takes back what it defined since it was
    opened (`abandon`): a half-loaded module never captures the names defined after it."""

    def __init__(self, interp):
        self.interp = interp
        self.current = None
        self.defined = {}
        self.before = None          # the globals as they were when the module opened

    def open(self, name):
        if self.current is not None:
            raise KlongError("module", "nested module")
        self.current = str(name)
        self.defined.setdefault(self.current, set())
        self.before = (dict(self.interp.globals), set(self.defined[self.current]))

    def close(self):
        if self.current is None:
            raise KlongError("module", "no module is open")
        self.current = None
        self.before = None

    def abandon(self):
        """Close the open module, if any, restoring every name it (re)defined; returns
        its name (None when no module was open)."""
        module = self.current
        if module is None:
            return None
        globals_before, defined_before = self.before
        for name in self.defined[self.current]:
            for key in (name, self._private(name)):
                if key in globals_before:
                    self.interp.globals[key] = globals_before[key]
                else:
                    self.interp.globals.pop(key, None)
        self.defined[self.current] = defined_before
        self.close()
        return module

    def _private(self, name):
        return f"{name}`{self.current}"

    def _renamed(self, name):
        return self.current is not None and not name.startswith(".") and name not in ("x", "y", "z")

    def resolve(self, name):
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
    default), "float32", or on torch also "bfloat16" and "float16"; max_elements  the most
    elements a list may have (the size guard; by default $KLONG_MAX_ELEMENTS or a share of
    memory); codegen  False runs Klong as a tree of closures instead of generated Python
    code (so does the environment variable KLONG_CODEGEN=0); batch  False makes Each over
    the rows of a matrix run row by row (no batched bodies), as does KLONG_BATCH=0;
    capture  False turns off the capture and replay of functions called again and again
    (on torch; docs/performance.md), as does KLONG_CAPTURE=0.

    Also (settings.py; each else from its environment variable, KLONG_SEED ...): seed  the
    seed of its random numbers; deterministic  torch's deterministic algorithms while it
    evaluates; memory_limit  the most bytes one result may take ("4GB"); memory_hook_threshold
    the change that memory hooks are told of (1 MB); amp, amp_dtype  mixed precision on torch.
    """

    def __init__(self, backend=None, device=None, dtype=None, max_elements=None, codegen=None,
                 seed=None, deterministic=None, memory_limit=None, memory_hook_threshold=None,
                 amp=None, amp_dtype=None, batch=None, capture=None):
        options = settings.Options(backend, dtype, seed, deterministic, memory_limit,
                                   memory_hook_threshold, amp, amp_dtype)
        try:
            self.backend = backends.get_backend(backend, device, options.dtype)
        except ValueError as e:
            raise KlongBackendError(str(e)) from None
        # the size guard and what is known of integer magnitudes (limits.py), reached by
        # running code through the context it runs in
        self.limits = Limits(max_elements)
        self._configure(options)
        self.context = Context(self.backend, self.limits, self.evaluation)
        self.globals = {}
        self.value_hooks = Hooks()  # register_hook: name -> functions called on assignment
        self.modules = Modules(self)
        # Klong rendered as Python source (render/pysource.py), or as closures: KLONG_CODEGEN=0 or
        # codegen=False chooses closures (slower; the suites run both ways)
        if codegen is None:
            codegen = os.environ.get("KLONG_CODEGEN", "1").strip().lower() not in ("0", "false", "no", "off")
        self.codegen = bool(codegen)
        # Each over the rows of a matrix evaluates a body of verbs with batching rules once
        # for all rows (passes/batching.py); KLONG_BATCH=0 runs the loop (to compare them)
        if batch is None:
            batch = os.environ.get("KLONG_BATCH", "1").strip().lower() not in ("0", "false", "no", "off")
        self.batch = bool(batch)
        self.engine = Engine(self)
        self.differentiation = Differentiation(self)
        # capture and replay of functions called again and again (runtime/capture.py), on
        # torch: capture=False or KLONG_CAPTURE=0 turns it off
        self.capture = Capture(self, enabled_by_default() if capture is None else capture)
        self.context.capture = self.capture
        self.strict = False
        self.debug = False          # kgpy --debug: tracebacks, and torch's compiler warnings
        self.summary = None     # a display.Summary: long values printed in part (the REPL's)
        self.pending_comment = None
        # one-line sources run before, each one chunk -> (codegen, what it renders to), or
        # (None, None) until it is rendered outside a module (and without a file's name)
        self.complete_lines = {}
        self.running_files = []          # the files being run, outermost first
        install(self)

    def _configure(self, options):
        """Random numbers, memory and the settings evaluation runs under (settings.py)."""
        self.settings = options
        self.random = Randomness(self.backend, options.seed)
        self.memory = Memory(self, options.memory_limit, options.hook_threshold)
        self.limits.memory = self.memory
        self.evaluation = settings.Evaluation(self.backend, options, self.memory)
        self.evaluation.update()
        if options.memory_limit is not None:
            self.backend.limit_memory(options.memory_limit)

    @property
    def seed(self):
        """The seed of this interpreter's random numbers (None: unseeded)."""
        return self.random.seed

    def memory_stats(self):
        """{device, allocated, reserved, peak, limit, process_peak}: bytes (memory.py)."""
        with self.context.lock:             # the variables it measures stay as they are
            return self.memory.stats()

    def register_memory_hook(self, fn, threshold=None):
        """Call fn(device, allocated_bytes, freed_bytes) whenever this interpreter's arrays
        have grown or shrunk by more than `threshold` (bytes or "1MB"; by default
        memory_hook_threshold) since fn was last called. A hook that raises is reported once."""
        self.memory.register(fn, threshold)

    def remove_memory_hook(self, fn):
        """Stop calling fn; returns whether it was registered."""
        return self.memory.remove(fn)

    @property
    def _backend(self):
        """The backend under KlongPy's name: programs written for KlongPy (the product
        guide among them) read klong._backend."""
        return self.backend

    @property
    def np(self):
        """The array library of the backend, for Python code that calls it directly."""
        return self.backend.array_module()

    # -- running source
    def __call__(self, source):
        """Run `source` and return the value of its last statement, as a Python value."""
        source = _source(source)
        with entered(self.context):     # run and convert as one evaluation (the lock held)
            kept = self.complete_lines.get(source)
            if kept is not None and kept[1] is not None and kept[0] == self.codegen \
                    and self.pending_comment is None and self.modules.current is None:
                value = self._run_kept(source, kept[1])
            else:
                value = self._run(source, None)
            if type(value) in _AS_IS or type(value) in arrays.ARRAY_TYPES:
                return value        # what to_python gives as it is (the common results)
            with handing_out(self.context):     # a function handed out keeps this one's limits
                return to_python(value)

    def run(self, source, filename=None):
        """Run source text chunk by chunk (a chunk is a top-level line together with the
        lines that continue an open bracket, string or comment); returns the last value.
        Klong's rule for comments applies: a comment ends at the next quote."""
        source = _source(source)
        with entered(self.context):
            return self._run(source, filename)

    def _run(self, source, filename):
        """run() within the interpreter's context."""
        outer_comment, self.pending_comment = self.pending_comment, None
        if filename is not None:
            self.running_files.append(filename)
        try:
            return self._run_lines(source.split("\n"), filename)
        except KlongError as e:
            self._after_error(e, filename)
            raise
        finally:
            self.pending_comment = outer_comment
            if filename is not None:
                self.running_files.pop()

    def _run_kept(self, line, code):
        """_run of a line kept with its runnable code (_run_lines), no comment pending
        and no module open: the code run at once (k("f(x)") called again and again costs
        a few microseconds, and the steps of _run and _run_lines a tenth of them)."""
        try:
            value = self._run_chunk(line, 0, False, None, code)
            if self.pending_comment is not None:
                self._skip_comment((line,), 1)      # it opened a comment: no line ends it
            return value
        except KlongError as e:
            self._after_error(e, None)
            raise
        finally:
            self.pending_comment = None

    def _run_lines(self, lines, filename):
        if len(lines) == 1 and lines[0] in self.complete_lines:
            # a line run before, which was one chunk: not read again for its end, nor parsed
            # and rendered again when its runnable code was kept (a training step's
            # k("step()"), called again and again)
            codegen, code = self.complete_lines[lines[0]]
            if filename is not None or codegen != self.codegen \
                    or self.modules.current is not None:
                code = None
            value = self._run_chunk(lines[0], 0, False, filename, code)
            if self.pending_comment is not None:
                self._skip_comment(lines, 1)
            return value
        result = None
        i = 0
        reading = Continuation()
        while i < len(lines):
            start = i
            reading.reset()
            while not (complete := reading.feed(lines[i])) and i + 1 < len(lines):
                i += 1
            i += 1
            text = "\n".join(lines[start:i])
            if not complete:        # open at the end: its error is on its last line, not after
                text = text.rstrip()
            if text.strip():
                if complete and len(lines) == 1:
                    if len(self.complete_lines) >= COMPLETE_LINES:
                        self.complete_lines.clear()
                    self.complete_lines[text] = (None, None)
                value = self._run_chunk(text, start, False, filename)
                if value is not None:
                    result = value
            if self.pending_comment is not None:
                i = self._skip_comment(lines, i)
        return result

    @staticmethod
    def continuation():
        """A Continuation for interactive input: feed it lines one at a time; it says
        when they make a complete chunk, in time linear in the input."""
        return Continuation(line_comments=True)

    @staticmethod
    def needs_more(text):
        """True while interactive input `text` ends inside a string, list, dictionary,
        function, conditional or parenthesis: the chunk continues on the next line. (A
        comment typed at the prompt ends with its line.)"""
        reading = KlongInterpreter.continuation()
        complete = True
        for line in text.split("\n"):
            complete = reading.feed(line)
        return not complete

    def run_chunk(self, text, line_offset=0, filename=None):
        """Run one chunk of interactive input: as run(), but a comment that is not closed
        on its line ends there (what a person typing at the prompt expects)."""
        text = _source(text)
        with entered(self.context):
            try:
                return self._run_chunk(text, line_offset, True, filename)
            except KlongError as e:
                self.pending_comment = None       # the chunk that asked for it failed
                self._after_error(e, filename)
                raise

    def _run_chunk(self, text, line_offset, line_comments, filename, code=None):
        """Run one chunk; `code`: what it renders to, when it was kept (_run_lines)."""
        try:
            if code is None:
                node = parse(text, line_offset, line_comments, filename)
                if node is None:
                    return None
                code = self.engine.runnable(node)
                if filename is None and line_offset == 0 and not line_comments \
                        and text in self.complete_lines and self.modules.current is None:
                    self.complete_lines[text] = (self.codegen, code)
            try:
                return code(None)
            finally:
                if self.memory.watching:
                    self.memory.checkpoint()
        except KlongError as e:
            self._locate(e, text, line_offset)
            if e.kind != "syntax" and not line_comments \
                    and getattr(e.line, "file", None) in (None, filename):
                e.message += comment_hint(text, line_offset, e.line)
            raise
        except Exception as e:      # KeyboardInterrupt and SystemExit pass, as they should
            err = as_klong_error(e)
            self._locate(err, text, line_offset)
            raise err from (None if isinstance(e, RecursionError) else e)

    def _locate(self, err, text, line_offset):
        if err.line is None:
            err.line = line_offset + 1
        if getattr(err.line, "file", None) is None:      # not code of a file run earlier
            err.in_chunk(text, line_offset)

    def _after_error(self, err, filename):
        """An error reached the top: name the file its line belongs to (code read from one
        file may fail when called from another), and close a module left open."""
        if err.filename is None:
            err.filename = getattr(err.line, "file", None) or filename
        module = self.modules.abandon()
        if module is not None:
            err.message += f"; module {module} closed"

    def _skip_comment(self, lines, i):
        """Skip the lines of a .comment block, through the line that starts with its marker."""
        marker, self.pending_comment = self.pending_comment, None
        opened = i
        while i < len(lines):
            if lines[i].startswith(marker):
                return i + 1
            i += 1
        raise KlongError("syntax", f"undelimited comment: no line starts with {marker!r}",
                         opened)

    # -- hooks on named values (hooks.py)
    def register_hook(self, name, fn):
        """Call fn(value) each time a variable `name` (global or local) is assigned, with
        the value as Python sees it. A hook that raises is reported once, as a warning."""
        self.value_hooks.add(name, fn)

    def remove_hook(self, name, fn=None):
        """Undo register_hook (every hook on `name` when fn is None)."""
        self.value_hooks.remove(name, fn)

    # -- Python access to globals
    def __getitem__(self, name):
        with handing_out(self.context):     # a function handed out keeps this one's limits
            try:
                value = self.globals[name]
            except KeyError:
                raise KeyError(name) from None
            return to_python(value)

    def __setitem__(self, name, value):
        name = _variable(name)
        with entered(self.context):
            self.globals[name] = to_klong(value, self)

    def __delitem__(self, name):
        with self.context.lock:
            del self.globals[name]

    def __contains__(self, name):
        with self.context.lock:
            return name in self.globals
