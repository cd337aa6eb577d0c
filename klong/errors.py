"""KlongError: the one exception a user of the language ever sees."""


TRACE_DEPTH = 4        # functions named in a message
OPERANDS_WIDTH = 40    # characters of operands shown in a message


def _short(value):
    """The written form of an error's operands, cut to fit one line."""
    from .display import write
    try:
        text = write(value)
    except Exception:       # never let the message itself fail
        return "..."
    text = " ".join(text.split())
    return text if len(text) <= OPERANDS_WIDTH else text[:OPERANDS_WIDTH - 3] + "..."


class KlongError(Exception):
    """A Klong error with a kind (syntax, undefined, type, length, range, index, arity,
    domain, io, module, recursion, ...), a one-line message and, when known, where in the
    source it happened (line and column, 1-based, and the source line itself)."""

    def __init__(self, kind, message, line=None, column=None, source_line=None):
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
            operands = "" if self.operands is None else " " + _short(self.operands)
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

    def within(self, function):
        """Record that the error passed out of the Klong function named `function`."""
        self.depth += 1
        if len(self.functions) < TRACE_DEPTH:
            self.functions.append(function)
        return self

    def located(self, line, column, source_line):
        """Attach a position unless one is already known; returns self for raising."""
        if self.line is None:
            self.line, self.column, self.source_line = line, column, source_line
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
            return f"{head}\n{self.source_line}\n{' ' * (self.column - 1)}^"
        return head


class KlongBackendError(KlongError, ValueError):
    """A backend or device that cannot be used here (unknown, not installed, unavailable).
    Also a ValueError, which is what embedding code written for other Klongs expects."""

    def __init__(self, message):
        super().__init__("backend", message)
