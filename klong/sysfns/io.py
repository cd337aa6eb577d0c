"""I/O channels and the system functions that read and write them (system.md A.1).

Klong source and data may be in any 8-bit encoding: text is read as UTF-8, and what is not
UTF-8 as Latin-1 (the encoding of the reference's own library files)."""
import codecs
import sys

from ..runtime.display import show, write
from ..errors import KlongError
from ..compiler.syntax.lexer import Incomplete, Lexer
from ..runtime.values import EOF, UNDEFINED, is_string, is_true, on_backend
from .table import table

FUNCTIONS, register = table()


def _latin1_fallback(error):
    """Codec error handler: bytes that are not UTF-8 are read as Latin-1 characters."""
    return error.object[error.start:error.end].decode("latin-1"), error.end


LATIN1_FALLBACK = "klong-latin1"
codecs.register_error(LATIN1_FALLBACK, _latin1_fallback)


def decode_source(data):
    """The text of a source file's bytes: UTF-8 when they are UTF-8, else Latin-1."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_source(path):
    with open(path, "rb") as f:
        return decode_source(f.read())


class Channel:
    """An open file or standard stream. Standard streams are looked up at each use, so
    output goes to sys.stdout as it is at the time of the call (embedding programs and
    tests redirect it)."""

    def __init__(self, number, is_input, stream=None, std=None):
        self.number = number
        self.is_input = is_input
        self._stream = stream
        self.std = std                 # "stdin" / "stdout" / "stderr" for standard channels
        self.closed = False
        self.eof = False
        self.buffer = ""               # input not yet consumed
        self.klong_name = f":{'inchan' if is_input else 'outchan'}.{number}"

    @property
    def stream(self):
        return getattr(sys, self.std) if self.std else self._stream

    # -- output
    def write(self, text):
        if self.closed:
            raise KlongError("io", "writing to closed channel")
        if self.is_input:
            raise KlongError("io", "writing to an input channel")
        self.stream.write(text)

    def flush(self):
        if not self.closed:
            self.stream.flush()

    def close(self):
        if self.std is None and not self.closed:
            self.closed = True
            self._stream.close()

    # -- input
    def _check_readable(self):
        if self.closed:
            raise KlongError("io", "reading from closed channel")
        if not self.is_input:
            raise KlongError("io", "reading from an output channel")

    def _more(self):
        """Append the next line of the stream to the buffer; False at end of input."""
        line = self.stream.readline()
        if not line:
            return False
        self.buffer += line
        return True

    def read_line(self):
        self._check_readable()
        if "\n" not in self.buffer:
            self._more()
        if not self.buffer:
            self.eof = True
            return ""
        line, newline, rest = self.buffer.partition("\n")
        self.buffer = rest
        if not newline and not self._peek_more():
            self.eof = True
        return line

    def _peek_more(self):
        return bool(self.buffer) or self._more()

    def read_lines(self):
        lines = []
        while not self.eof:
            line = self.read_line()
            if self.eof and not line:
                break
            lines.append(line)
        self.eof = True
        return lines

    def read_object(self):
        """One data object; the rest of its line is discarded. EOF at end of input."""
        self._check_readable()
        while True:
            stripped = self.buffer.lstrip()
            if stripped:
                break
            self.buffer = ""
            if not self._more():
                self.eof = True
                return EOF
        self.buffer = stripped
        while True:
            lexer = Lexer(self.buffer)
            try:
                value = lexer.read_datum()
                break
            except Incomplete:
                if not self._more():
                    raise KlongError("io", "unexpected end of input while reading") from None
        rest = self.buffer[lexer.pos:]
        newline = rest.find("\n")
        self.buffer = rest[newline + 1:] if newline >= 0 else ""
        return value


class Channels:
    """One interpreter's channels: the standard ones, where .r and the like read from and .w
    and the like write to now, and the number the next opened channel gets."""

    def __init__(self):
        self.stdin = Channel(0, True, std="stdin")
        self.stdout = Channel(1, False, std="stdout")
        self.stderr = Channel(2, False, std="stderr")
        self.source, self.target = self.stdin, self.stdout
        self.next = 3


def output_to_cout(interp):
    """Select .cout as the To Channel again where .tc chose a file; returns that file's
    channel (flushed, left open), or None when output went to a standard stream anyway.
    The REPL does this after an error, so that later output does not vanish into the file."""
    channels = interp.channels
    channel = channels.target
    if channel.std is not None:
        return None
    channels.target = channels.stdout
    try:
        channel.flush()
    except (OSError, ValueError):       # a file that cannot be written: nothing to keep
        pass
    return channel


def start(interp):
    """The interpreter's channels; the standard ones are its system variables."""
    channels = interp.channels = Channels()
    return {".cin": channels.stdin, ".cout": channels.stdout, ".cerr": channels.stderr}


def _open(interp, name, mode, is_input):
    if not is_string(name):
        raise KlongError("type", "file name must be a string")
    try:
        stream = open(name, mode, encoding="utf-8", newline="",
                      errors=LATIN1_FALLBACK if is_input else "strict")
    except FileNotFoundError:
        raise KlongError("io", f"file does not exist: {name}") from None
    except OSError as e:
        raise KlongError("io", f"cannot open {name}: {e.strerror}") from None
    channels = interp.channels
    channel = Channel(channels.next, is_input, stream)
    channels.next += 1
    return channel


@register(".ic", 1)
def input_channel(interp, name):
    return _open(interp, name, "r", True)


@register(".oc", 1)
def output_channel(interp, name):
    return _open(interp, name, "w", False)


@register(".ac", 1)
def append_channel(interp, name):
    return _open(interp, name, "a", False)


@register(".fc", 1)
def from_channel(interp, x):
    """.fc: read from x (0: the standard input); the channel read from before."""
    channels = interp.channels
    previous, channels.source = channels.source, _selected(x, channels.stdin, True)
    return previous


@register(".tc", 1)
def to_channel(interp, x):
    """.tc: write to x (0: the standard output); the channel written to before."""
    channels = interp.channels
    previous, channels.target = channels.target, _selected(x, channels.stdout, False)
    return previous


def _selected(x, default, want_input):
    if not is_true(x):
        return default
    if isinstance(x, Channel) and x.is_input == want_input:
        return x
    raise KlongError("type", f"{'input' if want_input else 'output'} channel expected")


@register(".cc", 1)
def close(interp, x):
    if not isinstance(x, Channel):
        raise KlongError("type", "channel expected")
    x.close()
    return []


@register(".fl", 0)
def flush(interp):
    interp.channels.target.flush()
    return []


def emit(interp, form, x, end=""):
    """Write x in `form` (write or show) to the output channel; x is the result."""
    # at the REPL a long value is shortened on the screen (interp.summary); files and
    # programs always get it in full
    channel = interp.channels.target
    summary = interp.summary if channel.std else None
    channel.write(form(x, summary) + end)
    return x


@register(".w", 1)
def write_value(interp, x):
    return emit(interp, write, x)


@register(".bkd", 1)
@register(".d", 1)
def display(interp, x):
    return emit(interp, show, x)


@register(".bkp", 1)
@register(".p", 1)
def display_line(interp, x):
    return emit(interp, show, x, "\n")


@register(".r", 0)
def read_object(interp):
    return on_backend(interp.channels.source.read_object(), interp.backend)


@register(".rl", 0)
def read_line(interp):
    return interp.channels.source.read_line()


@register(".rls", 0)
def read_lines(interp):
    return interp.channels.source.read_lines()


@register(".mi", 1)
def more_input(interp, x):
    return 0 if interp.channels.source.eof else 1


@register(".rs", 1)
def read_string(interp, x):
    if not is_string(x):
        raise KlongError("type", ".rs: string expected")
    lexer = Lexer(x)
    try:
        lexer.skip_blanks()
        if lexer.pos >= len(x):
            return UNDEFINED             # blank text holds no object
        value = lexer.read_datum()
        lexer.skip_blanks()
    except KlongError:
        return UNDEFINED
    return on_backend(value, interp.backend) if lexer.pos >= len(x) else UNDEFINED
