"""KlongError: the one exception a user of the language ever sees, and the builders of the
messages both evaluators give (a failing verb, an undefined name)."""
import re

# A message is one line of at most this many characters; longer ones end in "...".
MESSAGE_WIDTH = 200
# A value or source text shown inside a message gets at most this many characters.
SHOWN_WIDTH = 60
# A syntax error's source line is cut to this many characters around the caret.
SOURCE_WIDTH = 100

# Patterns given to re as text: re compiles each on its first use and keeps it, not while
# the module loads (only messages need them, and compiling costs start-up time)
_BREAKS = "\r\n\v\f\x1c-\x1e\x85\u2028\u2029"       # what str.splitlines splits at
_LINE_BREAKS = rf"\s*[{_BREAKS}]\s*"
_ODD_BLANKS = rf"[\t{_BREAKS}]"
_NOT_DETERMINISTIC = r"(\S+) does not have a deterministic implementation"
_OUT_OF_MEMORY = r"(?i)can't allocate memory|out of memory"


def one_line(text, width=MESSAGE_WIDTH, strip=True):
    """`text` on one line (line breaks and the blanks around them become one space) and
    at most `width` characters long; `strip`: without blanks at either end."""
    text = str(text)
    if not text.isprintable():      # line breaks do not print: most messages have none
        text = re.sub(_LINE_BREAKS, " ", text)
    text = text.strip() if strip else text
    if len(text) > width:
        text = text[:width - 3] + "..."
    return text


# How a failing verb's operands are written in its message: by display.py, the layer that
# knows Klong values, which hands its writer over when it loads (this module knows no values;
# set once, like a registry, and only read after)
_operand_writer = None


def write_operands_with(writer):
    """Write the operands of failing verbs with writer(operands) from now on."""
    global _operand_writer
    _operand_writer = writer


def shown_operands(operands):
    """A failing verb's operands as its message shows them (display.shown_operands)."""
    if _operand_writer is None:           # no Klong value has been displayable yet
        return one_line(repr(operands), SHOWN_WIDTH)
    return _operand_writer(operands)


# A runtime error names the Klong functions it passed through, innermost first, this many.
TRACE_DEPTH = 4


class KlongError(Exception):
    """A Klong error with a kind (syntax, undefined, type, length, range, index, arity,
    domain, io, module, recursion, ...), a one-line message and, when known, where in the
    source it happened (line and column, 1-based, and the source line itself).

    The message is made one line here, whoever raises the error: a message never spans
    lines, however it was built."""

    def __init__(self, kind, message, line=None, column=None, source_line=None):
        message = one_line(message)
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
        self.source_line = source_line
        self.filename = None
        self.verb = None            # the verb or function that failed, and its operands
        self.operands = None
        self.functions = []         # the Klong functions it happened in, innermost first
        self.depth = 0              # how many functions it passed through in all

    def __str__(self):
        head, message = f"{self.kind} error: ", self.message
        if self.verb:
            operands = "" if self.operands is None else " " + shown_operands(self.operands)
            head += f"{self.verb}{operands}: "
            message = message.removeprefix(f"{self.verb}: ")    # said once is enough
        return head + message + self._trace()

    def _trace(self):
        if not self.functions:
            return ""
        more = self.depth - len(self.functions)
        tail = f", and {more} more" if more > 0 else ""
        return " (in " + ", from ".join(self.functions) + tail + ")"

    def in_verb(self, name, operands):
        """Name the verb (and its operands: one value, or a list of two) where this error
        happened, unless an inner one is named already ("" names none, and keeps outer verbs
        from being named); returns self for raising."""
        if self.verb is None:
            self.verb, self.operands = name, operands
        return self

    def at_verb(self, line, column, verb, operands=None, read=None):
        """Locate this error at the failing verb or call (line, column) and name the verb
        (None: a call, named by the function it passes out of; "": its own message says
        enough) with its operands (one value, or a list of two), unless an inner verb or a
        Klong function it came out of is named already. `read`, when given, reads the
        operands instead, only when they will show. Returns self."""
        self.located(line, column, None)
        if verb is not None and self.verb is None and not self.functions:
            self.in_verb(verb, operands if read is None else read())
        return self

    def within(self, function):
        """Record that the error passed out of the Klong function named `function`."""
        self.depth += 1
        if len(self.functions) < TRACE_DEPTH:
            self.functions.append(one_line(function))       # a literal's text may span lines
        return self

    def located(self, line, column, source_line):
        """Attach a position unless one is already known; returns self for raising."""
        if self.line is None:
            self.line, self.column, self.source_line = line, column, source_line
        return self

    def in_chunk(self, text, line_offset=0):
        """Attach the source line of this error's line, taken from `text`, a chunk whose first
        line is line line_offset + 1, unless one is known or the line is not in the chunk.
        The one place a source line is found (the parser's errors and the interpreter's);
        returns self."""
        if self.source_line is None and self.line is not None:
            index = self.line - line_offset - 1
            lines = text.split("\n", index + 1) if index >= 0 else []
            if 0 <= index < len(lines):
                self.source_line = lines[index]
        return self

    def report(self, filename=None):
        """The text shown to a person: one line, plus for syntax errors the source line
        and a caret under the column."""
        where = ""
        filename = self.filename or filename
        if filename:
            where = f"{filename}:{self.line}: " if self.line else f"{filename}: "
        head = f"{where}{self}"
        if self.kind == "syntax" and self.source_line is not None and self.column:
            text, column = _around(self.source_line, self.column)
            return f"{head}\n{text}\n{' ' * (column - 1)}^"
        return head


def _visible(source_line, column):
    """The source line with each character that does not print (a stray control character)
    written as its escape, as messages write it ('\\x04'), and the caret's column moved to
    match. Tabs and stray line breaks (a lone carriage return) become blanks, one for one."""
    text = re.sub(_ODD_BLANKS, " ", source_line)
    if text.isprintable():
        return text, column
    shown = [c if c.isprintable() else repr(c)[1:-1] for c in text]
    return "".join(shown), column + sum(len(c) - 1 for c in shown[:column - 1])


def _around(source_line, column):
    """A long source line cut to SOURCE_WIDTH characters around `column` (1-based), as it is
    shown (_visible); returns the text and the caret's column in it."""
    text, column = _visible(source_line, column)
    if len(text) <= SOURCE_WIDTH:
        return text, column
    start = max(0, min(column - 1 - SOURCE_WIDTH // 2, len(text) - SOURCE_WIDTH))
    piece = text[start:start + SOURCE_WIDTH]
    if start > 0:
        piece = "..." + piece[3:]
    if start + SOURCE_WIDTH < len(text):
        piece = piece[:-3] + "..."
    return piece, column - start


def from_python(exc):
    """The Klong error a Python exception raised while running Klong stands for, or None
    when it can only be a bug. These are conditions of the machine, not of the program's
    logic: any verb may meet them, so they are recognised once, here."""
    if isinstance(exc, RecursionError):
        return KlongError("recursion", "recursion too deep")
    if isinstance(exc, OverflowError):
        return KlongError("range", "number too large")
    if isinstance(exc, MemoryError) or isinstance(exc, RuntimeError) and \
            re.search(_OUT_OF_MEMORY, str(exc)):   # how array libraries report a failed allocation
        return KlongError("range", "out of memory")
    if isinstance(exc, RuntimeError) and re.search(_NOT_DETERMINISTIC, str(exc)):
        operation = re.search(_NOT_DETERMINISTIC, str(exc)).group(1)
        return KlongError("domain", f"{operation} has no deterministic implementation "
                                    f"(the interpreter runs deterministic)")
    if isinstance(exc, UnicodeError):
        return KlongError("io", f"text that cannot be read or written here: {exc.reason}")
    if isinstance(exc, OSError):
        reason = exc.strerror or type(exc).__name__
        return KlongError("io", f"{reason}: {exc.filename}" if exc.filename else reason)
    return None


def as_klong_error(exc):
    """Any exception as the KlongError to report: itself, the condition it stands for, or,
    for a bug of ours, an "internal" error (still one line, never a traceback)."""
    if isinstance(exc, KlongError):
        return exc
    return from_python(exc) or KlongError("internal", f"{type(exc).__name__}: {exc}")


class KlongBackendError(KlongError, ValueError):
    """A backend or device that cannot be used here (unknown, not installed, unavailable).
    Also a ValueError, which is what embedding code written for other Klongs expects."""

    def __init__(self, message):
        super().__init__("backend", message)


def suggestion(name, names, library=None):
    """' (did you mean .p?)' for a misspelt global, from the globals defined: system names
    for a system name, others for others. `library(name)` says whether the backend's array
    library has a math function of that name: then .bkf, which imports it, is pointed to."""
    system = name.startswith(".")
    if not system and library is not None and library(name):
        power = ", or write x^0.5" if name == "sqrt" else ""
        return f' (the backend has it: import it with .bkf("{name}"){power})'
    import difflib      # here, not at start-up: only an undefined name needs it
    close = difflib.get_close_matches(
        name, [n for n in names if n.startswith(".") == system and "`" not in n], n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def undefined(name, names=None, line=None, column=None, library=None):
    """The error for reading `name`, which has no value; `names`, the globals, when it
    names a global (a close one is suggested, or .bkf: see suggestion)."""
    hint = "" if names is None else suggestion(name, names, library)
    return KlongError("undefined", f"{name} is not defined{hint}", line, column)


def undefined_assignment(name, line=None, column=None):
    """The error for assigning a global that does not exist, in strict mode."""
    return KlongError("undefined", f"undefined variable: {name}", line, column)
