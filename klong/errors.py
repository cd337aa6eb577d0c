"""KlongError: the one exception a user of the language ever sees."""


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

    def __str__(self):
        return f"{self.kind} error: {self.message}"

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
